/*
 * dynexec.c - what exec gives a new program: the auxiliary vector, where
 * the images go and how randomize_va_space moves them, RELRO and the file
 * names, devices and inodes of /proc/self/maps.
 *
 * Built two ways: with the test libc (static, not PIE: our kernel on arm64
 * and MicroBlaze) and with glibc dynamically linked as a PIE
 * (tests/user/user.mk: the user-linux initramfs carries Debian's ld.so and
 * libc.so.6), so the points about the interpreter (AT_BASE, the libraries
 * in /proc/self/maps, RELRO after ld.so's mprotect, a PIE's base) run in
 * the glibc build only; the test knows which it is from AT_BASE.
 *
 * The layout points exec the program again (argv[1] "--report") and read
 * what the child saw through a pipe: with randomize_va_space 2 two runs
 * differ in the stack (every arch) and, on arm64, in the PIE base, the
 * mmap base and the brk; with 0 (or personality(ADDR_NO_RANDOMIZE)) two
 * runs see the same; with 1 the brk stays at the image's end.
 */
#include "mm_util.h"
#include <sys/auxv.h>

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif
#ifndef AT_EXECFN
#define AT_EXECFN 31
#endif
#ifndef AT_HWCAP2
#define AT_HWCAP2 26
#endif
#define ADDR_NO_RANDOMIZE_ 0x0040000
#ifdef __aarch64__
#define SYS_personality_ 92
#else
#define SYS_personality_ 136
#endif

/* The ELF structures of this word size (the test libc has no elf.h). */
#if __SIZEOF_LONG__ == 8
typedef struct {
	unsigned char e_ident[16];
	uint16_t e_type, e_machine;
	uint32_t e_version;
	uint64_t e_entry, e_phoff, e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} ehdr_t;
typedef struct {
	uint32_t p_type, p_flags;
	uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
} phdr_t;
#else
typedef struct {
	unsigned char e_ident[16];
	uint16_t e_type, e_machine;
	uint32_t e_version, e_entry, e_phoff, e_shoff, e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} ehdr_t;
typedef struct {
	uint32_t p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags, p_align;
} phdr_t;
#endif
#ifdef __aarch64__
#define NR_newfstatat 79
#else
#define NR_newfstatat 300	/* fstatat64 */
#endif

/* st_dev and st_ino of path: the first two 64-bit fields of the arch's struct stat (stat64). */
static int dev_ino(const char *path, uint64_t *dev, uint64_t *ino)
{
	unsigned char buf[256];

	if (syscall(NR_newfstatat, -100 /* AT_FDCWD */, path, buf, 0) != 0)
		return -1;
	memcpy(dev, buf, 8);
	memcpy(ino, buf + 8, 8);
	return 0;
}

#define PT_LOAD_ 1
#define ALIGN_DOWN_(x) ((x) & ~(PAGE - 1))
#define PT_PHDR_ 6
#define PT_GNU_RELRO_ 0x6474e552

/* The program's own headers, through AT_PHDR, and its load bias. */
static const phdr_t *phdrs(int *n)
{
	*n = (int)getauxval(AT_PHNUM);
	return (const phdr_t *)getauxval(AT_PHDR);
}

static unsigned long load_bias(void)
{
	int n;
	const phdr_t *ph = phdrs(&n);

	for (int i = 0; i < n; i++)
		if (ph[i].p_type == PT_PHDR_)
			return getauxval(AT_PHDR) - (unsigned long)ph[i].p_vaddr;
	for (int i = 0; i < n; i++)	/* no PT_PHDR: the segment holding the headers */
		if (ph[i].p_type == PT_LOAD_ && ph[i].p_offset == 0)
			return getauxval(AT_PHDR) - (unsigned long)ph[i].p_vaddr - sizeof(ehdr_t);
	return 0;
}

static int is_dynamic(void)
{
	return getauxval(AT_BASE) != 0;
}

/* ---- the child's report ---- */

struct report {
	unsigned long bias, stack, mmap, brk, base, random;
};

static int report(int fd)
{
	struct report r;
	void *m = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int local;

	r.bias = load_bias();
	r.stack = (unsigned long)&local;
	r.mmap = (unsigned long)m;
	r.brk = (unsigned long)sbrk(0);
	r.base = getauxval(AT_BASE);
	r.random = getauxval(AT_RANDOM);
	return write(fd, &r, sizeof(r)) == sizeof(r) ? 0 : 1;
}

/* Run the program again with "--report", personality pers (-1: unchanged); 0 or -1. */
static int run_child(struct report *r, long pers)
{
	const char *self = (const char *)getauxval(AT_EXECFN);
	char fdarg[16];
	int fds[2], status;
	pid_t pid;

	if (pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)self, "--report", fdarg, NULL };

		close(fds[0]);
		snprintf(fdarg, sizeof(fdarg), "%d", fds[1]);
		if (pers >= 0)
			syscall(SYS_personality_, pers);
		execv(self, argv);
		_exit(127);
	}
	close(fds[1]);
	long n = read(fds[0], r, sizeof(*r));

	close(fds[0]);
	waitpid(pid, &status, 0);
	return n == (long)sizeof(*r) && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static long read_sysctl(const char *path)
{
	char buf[32];
	int fd = open(path, O_RDONLY);
	long n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

static int write_sysctl(const char *path, long v)
{
	char buf[32];
	int fd = open(path, O_WRONLY), n, ok;

	if (fd < 0)
		return -1;
	n = snprintf(buf, sizeof(buf), "%ld\n", v);
	ok = write(fd, buf, (size_t)n) == n;
	close(fd);
	return ok ? 0 : -1;
}

#define RVA "/proc/sys/kernel/randomize_va_space"

/* ---- the auxiliary vector ---- */

static void test_auxv(char **argv)
{
	int n;
	const phdr_t *ph = phdrs(&n);
	const ehdr_t *eh = NULL;
	const unsigned char *rnd = (const unsigned char *)getauxval(AT_RANDOM);
	const char *execfn = (const char *)getauxval(AT_EXECFN);
	unsigned long bias = load_bias();
	int zero = 1;

	tap_is_long((long)getauxval(AT_PAGESZ), getpagesize(), "AT_PAGESZ is the page size");
	tap_is_long((long)getauxval(AT_PHENT), (long)sizeof(phdr_t), "AT_PHENT is the size of a program header");
	tap_ok(n >= 2 && ph != NULL, "AT_PHNUM (%d) and AT_PHDR (%p) are set", n, (const void *)ph);
	for (int i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD_ && ph[i].p_offset == 0)
			eh = (const ehdr_t *)(bias + (unsigned long)ph[i].p_vaddr);
	tap_ok(eh && memcmp(eh->e_ident, "\177ELF", 4) == 0 && eh->e_phnum == n,
	       "AT_PHDR less the load bias (%#lx) finds this program's ELF header and its e_phnum", bias);
	tap_ok(eh && getauxval(AT_ENTRY) == bias + (unsigned long)eh->e_entry,
	       "AT_ENTRY (%#lx) is e_entry plus the load bias", getauxval(AT_ENTRY));
	tap_ok(execfn && strcmp(execfn, argv[0]) == 0, "AT_EXECFN is the path exec was given (%s)",
	       execfn ? execfn : "(none)");
	tap_is_long((long)getauxval(AT_UID), (long)getuid(), "AT_UID is the real uid");
	tap_is_long((long)getauxval(AT_EUID), (long)geteuid(), "AT_EUID is the effective uid");
	tap_is_long((long)getauxval(AT_GID), (long)getgid(), "AT_GID is the real gid");
	tap_is_long((long)getauxval(AT_EGID), (long)getegid(), "AT_EGID is the effective gid");
	tap_is_long((long)getauxval(AT_SECURE), 0, "AT_SECURE is 0 (no set-id exec)");
	tap_is_long((long)getauxval(AT_FLAGS), 0, "AT_FLAGS is 0");
	tap_is_long((long)getauxval(AT_CLKTCK), 100, "AT_CLKTCK is 100");
	for (int i = 0; rnd && i < 16; i++)
		zero &= rnd[i] == 0;
	tap_ok(rnd && !zero, "AT_RANDOM points to 16 bytes that are not all zero");
#ifdef __aarch64__
	unsigned long hw = getauxval(AT_HWCAP);

	tap_ok((hw & 3) == 3, "AT_HWCAP has FP and ASIMD (%#lx)", hw);
	tap_ok(getauxval(AT_MINSIGSTKSZ) >= 4096, "AT_MINSIGSTKSZ is given (%lu)", getauxval(AT_MINSIGSTKSZ));
	tap_ok(getauxval(AT_PLATFORM) && strcmp((const char *)getauxval(AT_PLATFORM), "aarch64") == 0,
	       "AT_PLATFORM is \"aarch64\"");
	/* The Features of /proc/cpuinfo are the hwcaps' names: the two must agree. */
	static const struct { const char *name; int bit; } caps[] = {
		{ "fp", 0 }, { "asimd", 1 }, { "aes", 3 }, { "pmull", 4 }, { "sha1", 5 }, { "sha2", 6 },
		{ "crc32", 7 }, { "atomics", 8 }, { "fphp", 9 }, { "asimdhp", 10 }, { "asimdrdm", 12 },
		{ "jscvt", 13 }, { "fcma", 14 }, { "lrcpc", 15 }, { "dcpop", 16 }, { "sha3", 17 },
		{ "sm3", 18 }, { "sm4", 19 }, { "asimddp", 20 }, { "sha512", 21 }, { "asimdfhm", 23 },
		{ "ilrcpc", 26 }, { "flagm", 27 },
	};
	char *features = NULL;
	int agree = 1;

	if (read_proc("/proc/cpuinfo") > 0 && (features = strstr(mm_procbuf, "Features")))
		*(strchr(features, '\n') ? strchr(features, '\n') : features + strlen(features)) = '\0';
	for (size_t i = 0; features && i < sizeof(caps) / sizeof(caps[0]); i++) {
		char word[24];
		int in;

		snprintf(word, sizeof(word), " %s ", caps[i].name);
		in = strstr(features, word) != NULL;
		snprintf(word, sizeof(word), " %s", caps[i].name);	/* the last one */
		in |= strlen(features) >= strlen(word) && !strcmp(features + strlen(features) - strlen(word), word);
		if (in != !!(hw & (1UL << caps[i].bit))) {
			tap_diag("%s: cpuinfo %d, AT_HWCAP %d", caps[i].name, in, !!(hw & (1UL << caps[i].bit)));
			agree = 0;
		}
	}
	tap_ok(features && agree, "AT_HWCAP agrees with /proc/cpuinfo's Features for 23 capabilities");
#endif
}

/* ---- /proc/self/maps: names, devices and inodes ---- */

/*
 * The maps line whose name ends with suffix: its fields in the out
 * arguments; 1 if found. Fields: start, perms, offset, major, minor, inode, name.
 */
static int maps_find(const char *suffix, unsigned long *start, char perms[5], unsigned long *off,
		     unsigned *maj, unsigned *min, unsigned long *ino, char *name, size_t name_size)
{
	if (read_proc("/proc/self/maps") < 0)
		return 0;
	for (char *line = mm_procbuf; line && *line;) {
		char *nl = strchr(line, '\n'), *e, *nm;
		unsigned long end;

		if (nl)
			*nl = '\0';
		nm = strchr(line, '/');
		if (nm && strlen(nm) >= strlen(suffix) && !strcmp(nm + strlen(nm) - strlen(suffix), suffix)) {
			*start = strtoul(line, &e, 16);
			end = strtoul(e + 1, &e, 16);
			(void)end;
			memcpy(perms, e + 1, 4);
			perms[4] = '\0';
			*off = strtoul(e + 6, &e, 16);
			*maj = (unsigned)strtoul(e + 1, &e, 16);
			*min = (unsigned)strtoul(e + 1, &e, 16);
			*ino = strtoul(e + 1, &e, 10);
			snprintf(name, name_size, "%s", nm);
			return 1;
		}
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* The first maps line of the file named by suffix names it with stat's device and inode. */
static void check_file_line(const char *suffix, const char *what)
{
	unsigned long start, off, ino;
	unsigned maj, min;
	char perms[5], name[256];
	uint64_t dev = 0, sino = 0;

	if (!maps_find(suffix, &start, perms, &off, &maj, &min, &ino, name, sizeof(name))) {
		tap_ok(0, "%s: /proc/self/maps has a line for *%s", what, suffix);
		return;
	}
	tap_ok(1, "%s: /proc/self/maps names %s", what, name);
	tap_ok(dev_ino(name, &dev, &sino) == 0 && sino == ino && maj == (unsigned)((dev >> 8) & 0xfff) &&
	       min == (unsigned)((dev & 0xff) | ((dev >> 12) & 0xfff00)),
	       "%s: its device %02x:%02x and inode %lu are stat's (st_dev %#llx, st_ino %llu)", what, maj, min,
	       ino, (unsigned long long)dev, (unsigned long long)sino);
	tap_is_long((long)off, 0, "%s: its first mapping is at file offset 0", what);
}

static void test_maps(void)
{
	const char *self = (const char *)getauxval(AT_EXECFN);
	const char *base = strrchr(self, '/');
	unsigned long start, off, ino;
	unsigned maj, min;
	char perms[5], name[256];

	check_file_line(base ? base : self, "the program");
	tap_ok(maps_find(base ? base : self, &start, perms, &off, &maj, &min, &ino, name, sizeof(name)) &&
	       start == ALIGN_DOWN_(getauxval(AT_PHDR)), "the program's first mapping starts at its ELF header");
	if (!is_dynamic()) {
		tap_skip("a static program: no interpreter or libraries in /proc/self/maps");
		return;
	}
	check_file_line("/ld-linux-aarch64.so.1", "the interpreter");
	tap_ok(maps_find("/ld-linux-aarch64.so.1", &start, perms, &off, &maj, &min, &ino, name, sizeof(name)) &&
	       start == getauxval(AT_BASE), "AT_BASE (%#lx) is where the interpreter's first mapping starts",
	       getauxval(AT_BASE));
	check_file_line("/libc.so.6", "libc");
}

/* ---- RELRO ---- */

static void test_relro(void)
{
	int n;
	const phdr_t *ph = phdrs(&n);
	unsigned long lo = 0, hi = 0;
	char *p;

	for (int i = 0; i < n; i++)
		if (ph[i].p_type == PT_GNU_RELRO_) {
			lo = load_bias() + (unsigned long)ph[i].p_vaddr;
			hi = lo + (unsigned long)ph[i].p_memsz;
		}
	lo &= ~(PAGE - 1);	/* the pages ld.so protects: glibc rounds both ends down */
	hi &= ~(PAGE - 1);
	if (!is_dynamic() || hi <= lo) {
		tap_skip("no RELRO page to check (a static program, or RELRO within one page)");
		return;
	}
	p = (char *)lo;
	tap_ok(strcmp(shape(p, p + PAGE), "r--p:1") == 0, "RELRO is read-only after startup (%s)",
	       shape(p, p + PAGE));
	probe_init();
	tap_ok(can_read(p) && !can_write(p), "a store to RELRO faults, a load does not");
	tap_ok(mprotect(p, PAGE, PROT_READ | PROT_WRITE) == 0 && can_write(p), "mprotect makes a RELRO page writable");
	tap_ok(mprotect(p, PAGE, PROT_READ) == 0 && !can_write(p) && strcmp(shape(p, p + PAGE), "r--p:1") == 0,
	       "and read-only again");
}

/* ---- placement and randomize_va_space ---- */

static void test_layout(void)
{
	long old = read_sysctl(RVA);
	struct report a, b;
	int dyn = is_dynamic();
#ifdef __aarch64__
	int arm = 1;
#else
	int arm = 0;
#endif

	tap_ok(old >= 0 && old <= 2, "%s reads 0, 1 or 2 (%ld)", RVA, old);
	/* Linux checks no range (any value above 1 acts as 2) */
	tap_ok(write_sysctl(RVA, 3) == 0 && read_sysctl(RVA) == 3, "writing 3 to it is accepted and reads back");

	tap_ok(write_sysctl(RVA, 2) == 0 && run_child(&a, -1) == 0 && run_child(&b, -1) == 0,
	       "randomize_va_space 2: two runs report");
	tap_ok(a.stack != b.stack && a.random != b.random, "2: the stacks differ (%#lx, %#lx)", a.stack, b.stack);
	if (arm) {
		tap_ok(a.mmap != b.mmap, "2: the mmap bases differ (%#lx, %#lx)", a.mmap, b.mmap);
		tap_ok(a.brk - a.bias != b.brk - b.bias, "2: the brk moves apart from the image (%#lx, %#lx)",
		       a.brk - a.bias, b.brk - b.bias);
	} else {
		tap_skip("MicroBlaze randomises neither the mmap base nor the brk (as Linux)");
	}
	if (dyn) {
		tap_ok(a.bias != b.bias, "2: the PIE bases differ (%#lx, %#lx)", a.bias, b.bias);
		tap_ok(a.base != b.base, "2: the interpreter's bases differ (%#lx, %#lx)", a.base, b.base);
	} else {
		tap_ok(a.bias == 0 && b.bias == 0, "2: a static program stays where it is linked");
	}

	tap_ok(write_sysctl(RVA, 0) == 0 && run_child(&a, -1) == 0 && run_child(&b, -1) == 0,
	       "randomize_va_space 0: two runs report");
	tap_ok(a.stack == b.stack && a.mmap == b.mmap && a.brk == b.brk && a.bias == b.bias && a.base == b.base,
	       "0: stack, mmap base, brk, program and interpreter at the same places (%#lx %#lx %#lx %#lx %#lx)",
	       a.stack, a.mmap, a.brk, a.bias, a.base);
	if (dyn && arm) {
		/* ELF_ET_DYN_BASE: 2/3 of the user address space, aligned to the PIE's p_align (64 KiB) */
		unsigned long top = 1UL << (64 - __builtin_clzl(a.stack));

		tap_is_long((long)a.bias, (long)((top / 3 * 2) & ~0xffffUL), "0: the PIE is at 2/3 of the address space");
	} else {
		tap_skip("not a PIE on arm64: ELF_ET_DYN_BASE not checked");
	}

	tap_ok(write_sysctl(RVA, 1) == 0 && run_child(&a, -1) == 0 && run_child(&b, -1) == 0,
	       "randomize_va_space 1: two runs report");
	tap_ok(a.stack != b.stack, "1: the stacks differ");
	tap_ok(a.brk - a.bias == b.brk - b.bias, "1: the brk stays at the image's end (%#lx)", a.brk - a.bias);

	tap_ok(write_sysctl(RVA, 2) == 0 && run_child(&a, ADDR_NO_RANDOMIZE_) == 0 &&
	       run_child(&b, ADDR_NO_RANDOMIZE_) == 0, "personality(ADDR_NO_RANDOMIZE) with 2: two runs report");
	tap_ok(a.stack == b.stack && a.mmap == b.mmap && a.brk == b.brk && a.bias == b.bias,
	       "ADDR_NO_RANDOMIZE: the same places in both runs");
	write_sysctl(RVA, old);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--report") == 0)
		return report(atoi(argv[2]));
	tap_init();
	tap_diag("%s build: AT_BASE %#lx, load bias %#lx", is_dynamic() ? "dynamic" : "static",
		 getauxval(AT_BASE), load_bias());
	test_auxv(argv);
	test_maps();
	test_relro();
	test_layout();
	return tap_done();
}
