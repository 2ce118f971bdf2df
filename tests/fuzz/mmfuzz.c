/* mmfuzz.c - a differential fuzzer of the address-space system calls.
 *
 * From a seed (its own PRNG, so the same seed gives the same calls on every
 * kernel and libc), it issues a random mix of mmap, munmap, mprotect,
 * mremap, madvise, mseal, brk, mlock (option), fork with a child doing a
 * few calls, and memory reads and writes (some from inside a signal
 * handler) that may fault: SIGSEGV and SIGBUS are caught, logged and left
 * with siglongjmp. Arguments are good most of the time and bad on purpose
 * otherwise: unaligned, zero, wrapping and huge lengths, addresses past
 * the end of user space, unknown flags and advices.
 *
 * Every mapping it asks for lies in a fixed window (MAP_FIXED,
 * MAP_FIXED_NOREPLACE or a hint) far from its text, data, heap and stack,
 * and every destructive range lies in the window or is one the kernel must
 * refuse: the fuzzer never discards or unmaps its own memory. A mapping
 * the kernel places outside the window (no hint, a hint that was taken,
 * mremap MAYMOVE) is logged as "out" and unmapped at once. So the log
 * compares line by line across kernels: addresses are printed relative to
 * the window ("W+0x3000") or to the initial break ("H+0x1000").
 *
 * Output (stderr: see write_all), one line per call:
 *   000123 mprotect W+0x3000 0x2000 0x1 = 0
 *   000124 touch w W+0x5100 = SIGSEGV/2 @+0
 * and every `check` calls a digest of the window:
 *   @000200 maps=<hash of the merged VMA list> raw=<hash of the VMA pieces>
 *           mem=<hash of the sampled memory> heap=<hash> brk=H+0x2000
 *           hp=<HugePages_Free>/<HugePages_Rsvd>
 * with, every `dump` calls, the VMA pieces themselves ("M W+0x0-W+0x2000 rw-p").
 * Memory is sampled at 16 slots of each page (offsets 0, 256, ...), which is
 * where the writes go (plus some 8-byte writes across page boundaries).
 * It ends with "mmfuzz: done ..." and one TAP point (plan 1..1), so
 * tests/user/init.c can run it (TAP lines go to stdout, everything else to stderr).
 *
 * Options: argv words or environment variables (the kernel command line
 * hands key=value words to /init's environment; init passes them on):
 *   seed=N  / fuzz_seed=N      the seed (default 1)
 *   calls=N / fuzz_calls=N     how many calls (default 1000)
 *   seeds=a,b / fuzz_seeds=    driver mode: run each seed in its own
 *                              fork+execve of this program, one TAP point each
 *   log=0|1 / fuzz_log=        1: every call line (default); 0: digests only
 *   from=N  / fuzz_from=N      with log=0: every call line from call N on
 *   check=N / fuzz_check=N     a digest every N calls (default 100)
 *   dump=N  / fuzz_dump=N      the VMA pieces every N calls (default 1000; 0 never)
 *   memdump=0|1 / fuzz_memdump= with each dump, a hash of each readable page and the
 *                              pool after reading it ("P W+0x2000 1234abcd hp=3/1"):
 *                              which page a mem= or hp= differs in
 *   mlock=0|1 / fuzz_mlock=    also mlock/munlock/mlock2/MAP_LOCKED (default 1)
 *   selfdiscard=0|1            also aim discarding calls at the fuzzer's own
 *                              text and data (default 0: see README.md)
 *   guard=0|1 / fuzz_guard=    MADV_GUARD_INSTALL/REMOVE among the advices
 *                              (default 1; 0 for Linux 6.12, which predates them)
 *   pre=1 / fuzz_pre=1         print each system call ("> N nr args", raw) before
 *                              making it, and each touch, to find the call that
 *                              a kernel panic or a killed fuzzer never logged
 *   oldlen0=0|1                mremap with old_size 0 (default 1; 0 keeps a known
 *                              panic of our kernel from hiding others: README.md)
 *   skip=a-b,c                 calls whose system calls are not made (ENOSYS):
 *                              to reduce a failing run by hand
 *   hugetlb=0|1                MAP_HUGETLB in the mix (default 1; the sizes are
 *                              drawn either way, so the rest of the run is the same)
 *   tap=0|1                    the closing TAP point (driver mode turns it off)
 *   files=0|1 / fuzz_files=    also files (default 0, so a seed's calls stay
 *                              what they were without it): two memfds and an
 *                              unlinked file of / made at the start, and calls
 *                              that size, write and
 *                              punch them (ftruncate, pwrite, fallocate) and
 *                              mmap them shared or private into the window;
 *                              each digest adds files=<hash of their sizes and
 *                              sampled contents>
 *   freefix=0|1                after every MADV_FREE, MADV_DONTNEED the same
 *                              range so its contents are defined on every kernel
 *                              (default 1: Linux may keep lazily freed pages, ours
 *                              zeroes them at once; both are allowed). A failed
 *                              MADV_FREE too: it may have freed the VMAs before the
 *                              one that failed it (seed 4249 call 640)
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#ifndef SYS_mseal
#define SYS_mseal 462
#endif
#ifndef SYS_mlock
#if defined(__aarch64__)
#define SYS_mlock 228
#define SYS_munlock 229
#define SYS_mlock2 284
#else
#define SYS_mlock 150
#define SYS_munlock 151
#define SYS_mlock2 378
#endif
#endif
#ifndef SYS_mlock2
#define SYS_mlock2 284
#endif
#ifndef SYS_ftruncate
#if defined(__aarch64__)
#define SYS_ftruncate 46
#else
#define SYS_ftruncate 93
#endif
#endif
#ifndef SYS_unlinkat
#if defined(__aarch64__)
#define SYS_unlinkat 35
#else
#define SYS_unlinkat 301
#endif
#endif
#ifndef SYS_fallocate
#if defined(__aarch64__)
#define SYS_fallocate 47
#else
#define SYS_fallocate 324
#endif
#endif
#ifndef MAP_DROPPABLE
#define MAP_DROPPABLE 0x08
#endif
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif
#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif
#ifndef EOVERFLOW
#define EOVERFLOW 75
#endif
#ifndef EOPNOTSUPP
#define EOPNOTSUPP 95
#endif
#ifndef EHWPOISON
#define EHWPOISON 133
#endif
#ifndef PROT_SEM
#define PROT_SEM 0x8
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
#ifndef MADV_DONTNEED_LOCKED
#define MADV_DONTNEED_LOCKED 24
#endif
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#define MADV_GUARD_REMOVE 103
#endif

#define PAGE 4096UL
#define HPAGE (2UL << 20)
#define SLOTS 16		/* sampled words per page, PAGE / SLOTS apart */

#if defined(__LP64__)
#define W_BASE   0x7000000000UL	/* the window: far from text, heap, stack, mmap base */
#define W_SIZE   (32UL << 20)
#define USER_END (1UL << 52)	/* past every user space (Debian's Linux has 52-bit VAs) */
#define KADDR    0xffff000000000000UL
#else
#define W_BASE   0x40000000UL
#define W_SIZE   (16UL << 20)
#define USER_END 0xc0000000UL
#define KADDR    0xc0001000UL
#endif
#define W_END    (W_BASE + W_SIZE)
#define W_PAGES  (W_SIZE / PAGE)

static struct {
	unsigned long seed, calls, check, dump, from;
	int log, mlock, selfdiscard, freefix, guard, pre, tap, oldlen0, hugetlb, memdump, files;
	const char *seeds;
} opt = { 1, 1000, 100, 1000, ~0UL, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0, NULL };

/* ---- PRNG (splitmix64): the same stream on every kernel --------------------- */

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number in [0, n), n > 0. */
static unsigned long rn(unsigned long n)
{
	return (unsigned long)(rnd() % n);
}

/* 1 with probability pct percent. */
static int chance(unsigned pct)
{
	return rn(100) < pct;
}

/* ---- logging ---------------------------------------------------------------- */

static unsigned long callno;		/* the call being made, 1-based */
static int in_child;			/* a fork child: lines start with "c" */
static unsigned loghash = 2166136261u;	/* FNV-1a of every call line so far */
static char line[512];
static size_t linelen;

static void hash_bytes(unsigned *h, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n--) {
		*h ^= *s++;
		*h *= 16777619u;
	}
}

/* The log goes to stderr, which /init leaves on the console: unlike stdout
 * (a pipe /init relays) it is written before the next call is made, so a
 * kernel panic shows the calls up to the one that caused it. */
static void write_all(const char *s, size_t n)
{
	int fd = !strncmp(s, "ok ", 3) || !strncmp(s, "not ok ", 7) || !strncmp(s, "1..", 3) ? 1 : 2;

	while (n) {
		ssize_t w = write(fd, s, n);
		if (w <= 0) {
			if (w < 0 && errno == EINTR)
				continue;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

/* Append to the current line. */
static void lf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void lf(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (linelen >= sizeof(line) - 2)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line + linelen, sizeof(line) - 1 - linelen, fmt, ap);
	va_end(ap);
	if (n > 0)
		linelen += (size_t)n;
	if (linelen > sizeof(line) - 2)
		linelen = sizeof(line) - 2;
}

/* End the line: fold it into the log hash, print it if lines are wanted. */
static void lend(void)
{
	hash_bytes(&loghash, line, linelen);
	if (opt.log || callno >= opt.from) {
		line[linelen++] = '\n';
		write_all(line, linelen);
	}
	linelen = 0;
}

/* A line printed whatever log= says (digests, the summary). */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	write_all(buf, (size_t)n);
}

static const char *errname(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EINTR: return "EINTR";
	case EBADF: return "EBADF";
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case ENODEV: return "ENODEV";
	case EINVAL: return "EINVAL";
	case EFBIG: return "EFBIG";
	case ENOSYS: return "ENOSYS";
	case EOVERFLOW: return "EOVERFLOW";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EHWPOISON: return "EHWPOISON";
	default: return "E?";
	}
}

static unsigned long brk0;	/* the break when the fuzzer started */

/* An address as the log shows it: relative to the window or the break when
 * it is in (or at the end of) one of them, else as it is. */
static void la(unsigned long a)
{
	if (a >= W_BASE && a <= W_END)
		lf(" W+0x%lx", a - W_BASE);
	else if (a >= brk0 && a - brk0 < (64UL << 20))
		lf(" H+0x%lx", a - brk0);
	else
		lf(" 0x%lx", a);
}

/* A call's result: "= 0", "= -EINVAL(22)", or an address. */
static void lres(long r, int err, int is_addr)
{
	if (r == -1 && err)
		lf(" = -%s(%d)", errname(err), err);
	else if (is_addr && ((unsigned long)r < W_BASE || (unsigned long)r >= W_END))
		lf(" = out");
	else if (is_addr)
		lf(" = W+0x%lx", (unsigned long)r - W_BASE);
	else
		lf(" = %ld", r);
}

/* ---- faults ------------------------------------------------------------------ */

static sigjmp_buf fault_jb;
static volatile int in_probe;
static volatile int fault_sig, fault_code;
static volatile unsigned long fault_addr;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (!in_probe) {
		char msg[120];
		int n = snprintf(msg, sizeof(msg), "mmfuzz: unexpected signal %d code %d addr 0x%lx at call %lu\n",
				 sig, si->si_code, (unsigned long)si->si_addr, callno);
		write_all(msg, (size_t)n);
		_exit(100 + sig);
	}
	fault_sig = sig;
	fault_code = si->si_code;
	fault_addr = (unsigned long)si->si_addr;
	in_probe = 0;
	siglongjmp(fault_jb, 1);
}

/* Access one address: op 'r' reads a byte, 'w' writes the byte v, 'W' writes
 * an 8-byte value (may cross a page). Returns 0 or the signal; *out gets the
 * byte read. The jump buffer saves no signal mask (a mask saved is a system
 * call per probe): on_fault runs with SA_NODEFER and an empty sa_mask, so the
 * mask in the handler is the one at the probe, and the jump back leaves it so. */
static int probe(int op, unsigned long a, uint64_t v, unsigned *out)
{
	fault_sig = 0;
	if (sigsetjmp(fault_jb, 0))
		return fault_sig;
	in_probe = 1;
	if (op == 'r')
		*out = *(volatile unsigned char *)a;
	else if (op == 'w')
		*(volatile unsigned char *)a = (unsigned char)v;
	else {
#if defined(__aarch64__)
		*(volatile uint64_t *)a = v;	/* one store across the page boundary */
#else
		((volatile uint32_t *)a)[0] = (unsigned)v;
		((volatile uint32_t *)a)[1] = (unsigned)(v >> 32);
#endif
	}
	in_probe = 0;
	return 0;
}

static void lprobe(int sig, unsigned long a, int op, unsigned val)
{
	if (!sig) {
		if (op == 'r')
			lf(" = ok 0x%02x", val);
		else
			lf(" = ok");
	} else {
		lf(" = %s/%d @%+ld", sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : "SIG?", fault_code,
		   (long)(fault_addr - a));
	}
}

/* ---- the fuzzer's own state ------------------------------------------------- */

static unsigned long cur_brk;	/* the break as the last brk returned it */
static unsigned long self_text, self_data;	/* used only with selfdiscard=1 */

/* ---- argument generators ------------------------------------------------------- */

/* A page-aligned address in the window, 2 MiB-aligned now and then. */
static unsigned long win_addr(void)
{
	if (chance(10))
		return W_BASE + rn(W_SIZE / HPAGE) * HPAGE;
	if (chance(50))	/* crowd the low part: more overlaps */
		return W_BASE + rn(W_PAGES / 8) * PAGE;
	return W_BASE + rn(W_PAGES) * PAGE;
}

/* A page count, small most of the time. */
static unsigned long pages(void)
{
	switch (rn(8)) {
	case 0: return 1;
	case 1: case 2: return 1 + rn(4);
	case 3: case 4: return 1 + rn(16);
	case 5: return 1 + rn(64);
	case 6: return HPAGE / PAGE * (1 + rn(2));
	default: return 1 + rn(W_PAGES / 4);
	}
}

/* A length from a that ends in the window. */
static unsigned long win_len(unsigned long a)
{
	unsigned long len = pages() * PAGE;

	if (a + len > W_END)
		len = W_END - a;
	return len;
}

/*
 * A range for a call that may discard or unmap: in the window, or one every
 * kernel must refuse or that can touch nothing but the window. kind says
 * which bad shape it got (0: good).
 */
static int walker;	/* set around gen_range() by madvise, mprotect and mlock */

static int gen_range(unsigned long *pa, unsigned long *pl)
{
	unsigned long a = win_addr(), len = win_len(a);

	*pa = a;
	*pl = len;
	if (!chance(14))
		return 0;
	switch (rn(12)) {
	case 0: *pa = a + 1 + rn(PAGE - 1); return 1;		/* unaligned start */
	case 1: *pl = 0; return 2;				/* empty */
	case 2: *pl = len - 1 - rn(PAGE - 1) + (len > PAGE ? 0 : PAGE); return 3; /* unaligned length */
	case 3: *pl = ~0UL; return 4;
	case 4: *pl = 0UL - a; return 5;			/* wraps exactly to 0 */
	case 5: *pl = 0UL - a + PAGE; return 6;			/* wraps past 0 */
	case 6:	/* past user space: madvise and mprotect get a wrapping length
		 * instead, as they apply to every VMA in the range (up to a hole,
		 * for mprotect) before they fail: our stack would go with them */
		*pl = walker ? 0UL - a + PAGE : USER_END - a + PAGE * (1 + rn(4));
		return 7;
	case 7: *pa = KADDR + rn(16) * PAGE; *pl = PAGE * (1 + rn(4)); return 8; /* kernel */
#if defined(__LP64__)
	case 8: *pa = USER_END - PAGE; *pl = 2 * PAGE; return 9; /* across the end */
#else
	case 8: *pa = USER_END; *pl = 2 * PAGE; return 9;	/* just past the end (the stack ends there) */
#endif
	case 9: *pa = W_END - PAGE * (1 + rn(4)); *pl = PAGE * (1 + rn(4));
		if (*pa + *pl > W_END) *pl = W_END - *pa;	/* the window's last pages */
		return 10;
	case 10: *pa = rn(8) * PAGE; *pl = PAGE * (1 + rn(4)); return 11; /* page 0 and up: nothing there */
	default:
		if (opt.selfdiscard && self_text) {		/* our own text or data */
			*pa = (chance(50) ? self_text : self_data) & ~(PAGE - 1);
			*pl = PAGE;
			return 12;
		}
		*pa = a + PAGE * rn(2);
		*pl = len;
		if (*pa + *pl > W_END)
			*pl = W_END - *pa;
		return 13;
	}
}

static int gen_prot(void)
{
	static const int p[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE,
				 PROT_READ | PROT_EXEC, PROT_READ | PROT_WRITE | PROT_EXEC, PROT_WRITE, PROT_EXEC };
	int prot = p[rn(8)];

	if (chance(4))
		prot |= chance(50) ? PROT_GROWSDOWN : (chance(50) ? PROT_GROWSUP : (int)(1u << (4 + rn(20))));
	if (chance(1))
		prot |= PROT_SEM;
	return prot;
}

/* ---- a memory touch ------------------------------------------------------------- */

/* An address to touch: a slot of a window page, 8 bytes across a page
 * boundary, or the heap around the break. */
static unsigned long touch_addr(int *op)
{
	unsigned long a;

	*op = chance(45) ? 'r' : 'w';
	if (chance(12)) {
		unsigned long top = (cur_brk + PAGE - 1) & ~(PAGE - 1), base = (brk0 + PAGE - 1) & ~(PAGE - 1);
		unsigned long span = top > base ? top - base : 0;
		return base + rn(span / PAGE + 2) * PAGE + rn(SLOTS) * (PAGE / SLOTS);
	}
	a = W_BASE + rn(W_PAGES) * PAGE;
	if (chance(60))
		a = W_BASE + rn(W_PAGES / 8) * PAGE;
	if (*op == 'w' && chance(8)) {
		*op = 'W';
		return a + PAGE - 4 + (a + PAGE == W_END ? -4 : 0);
	}
	return a + rn(SLOTS) * (PAGE / SLOTS);
}

static void do_touch(void)
{
	int op, sig;
	unsigned long a = touch_addr(&op);
	uint64_t v = rnd();
	unsigned val = 0;

	lf(" touch %c", op);
	la(a);
	if (opt.pre)
		say("> %06lu touch %c 0x%lx", callno, op, a);
	sig = probe(op, a, v | 1, &val);
	lprobe(sig, a, op, val);
}

/* The same, from inside a SIGUSR1 handler: a fault there nests a SIGSEGV in
 * the handler, which jumps back into it; the handler then returns through
 * sigreturn. */
static void on_usr1(int sig)
{
	(void)sig;
	do_touch();
}

/* skip=a-b,c,...: calls whose system calls are not made (they fail with
 * ENOSYS), to cut a failing run down to the calls it needs. Touches and
 * checkpoints still happen. */
static unsigned long skip_lo[32], skip_hi[32];
static int nskip;

static void parse_skip(const char *v)
{
	while (*v && nskip < 32) {
		char *end;

		skip_lo[nskip] = strtoul(v, &end, 10);
		if (end == v)
			break;
		skip_hi[nskip] = skip_lo[nskip];
		if (*end == '-')
			skip_hi[nskip] = strtoul(end + 1, &end, 10);
		nskip++;
		v = end + strspn(end, ",");
	}
}

static int skipped(void)
{
	for (int i = 0; i < nskip; i++)
		if (callno >= skip_lo[i] && callno <= skip_hi[i])
			return 1;
	return 0;
}

/* A system call; with pre=1 it is printed before it is made, so a run
 * that dies in the kernel shows what it was doing (raw arguments). */
static long sc7(long nr, unsigned long a0, unsigned long a1, unsigned long a2, unsigned long a3,
		unsigned long a4, unsigned long a5)
{
	if (opt.pre)
		say("> %06lu nr %ld 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx", callno, nr, a0, a1, a2, a3, a4, a5);
	if (nskip && skipped()) {
		errno = ENOSYS;
		return -1;
	}
	return syscall(nr, a0, a1, a2, a3, a4, a5);
}
#define SC_(nr, a0, a1, a2, a3, a4, a5, ...) sc7(nr, (unsigned long)(a0), (unsigned long)(a1), \
	(unsigned long)(a2), (unsigned long)(a3), (unsigned long)(a4), (unsigned long)(a5))
#define SC(...) SC_(__VA_ARGS__, 0, 0, 0, 0, 0, 0)

/* ---- the calls ---------------------------------------------------------------- */

/* A mapping the kernel put outside the window: take it away again. */
static void drop_stray(long r, unsigned long len)
{
	unsigned long a = (unsigned long)r;

	if (r == -1 || (a >= W_BASE && a < W_END) || len == 0)
		return;
	if (a + len > a && a + len <= USER_END)
		SC(SYS_munmap, a, len);
}

static long sys_ret(long r, int *err)
{
	*err = r == -1 ? errno : 0;
	return r;
}

/* ---- memfds (files=1) --------------------------------------------------------- */

#define NFILES 3
#define FILE_PAGES 64		/* offsets and sizes mostly below this many pages */

static int file_fd[NFILES] = { -1, -1, -1 };

/* Which of our memfds fd is, or -1. */
static int file_index(long fd)
{
	for (int i = 0; i < NFILES; i++)
		if (file_fd[i] >= 0 && fd == file_fd[i])
			return i;
	return -1;
}

/* Two memfds and, as the third, a file of the root file system (tmpfs on
 * Linux), unlinked at once, so the page cache of ordinary files is fuzzed
 * too (a memfd instead if it cannot be made). */
static void files_init(void)
{
	char name[8] = "mmfuzz0";

	for (int i = 0; i < NFILES; i++) {
		name[6] = (char)('0' + i);
		file_fd[i] = i == NFILES - 1 ? open("/mmfuzz-file", O_CREAT | O_EXCL | O_RDWR, 0600) : -1;
		if (file_fd[i] >= 0)
			syscall(SYS_unlinkat, -100 /* AT_FDCWD */, "/mmfuzz-file", 0);
		else
			file_fd[i] = (int)syscall(SYS_memfd_create, name, 0);
	}
}

/* A byte size: whole pages below FILE_PAGES mostly, else unaligned or large. */
static unsigned long file_size(void)
{
	switch (rn(8)) {
	case 0: return 0;
	case 1: return rn(FILE_PAGES * PAGE);
	case 2: return FILE_PAGES * PAGE * (1 + rn(4));
	default: return rn(FILE_PAGES + 1) * PAGE;
	}
}

/* ftruncate, a write at an offset, or fallocate (allocate, keep size,
 * punch) of one of the memfds. */
static void do_file(void)
{
	int i = (int)rn(NFILES), fd = file_fd[i], err;
	unsigned long off = file_size(), len = file_size();
	long r;

	switch (rn(4)) {
	case 0:
		r = sys_ret(SC(SYS_ftruncate, fd, off), &err);
		lf(" ftruncate f%d 0x%lx", i, off);
		break;
	case 1: {
		char buf[64];
		unsigned long n = 1 + rn(sizeof(buf));

		memset(buf, (int)(rnd() | 1), sizeof(buf));
		r = lseek(fd, (off_t)off, SEEK_SET) == (off_t)off ? sys_ret(SC(SYS_write, fd, buf, n), &err) : -1;
		if (r == -1)
			err = errno;
		lf(" pwrite f%d 0x%lx 0x%lx", i, off, n);
		break;
	}
	default: {
		int mode = chance(60) ? 3 /* PUNCH_HOLE | KEEP_SIZE */ : chance(50) ? 1 /* KEEP_SIZE */ : 0;

		len = len ? len : PAGE;
#if defined(__LP64__)
		r = sys_ret(SC(SYS_fallocate, fd, mode, off, len), &err);
#elif __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		r = sys_ret(SC(SYS_fallocate, fd, mode, off, 0, len, 0), &err);	/* loff_t pairs, low word first */
#else
		r = sys_ret(SC(SYS_fallocate, fd, mode, 0, off, 0, len), &err);	/* high word first */
#endif
		lf(" fallocate f%d %d 0x%lx 0x%lx", i, mode, off, len);
		break;
	}
	}
	lres(r, err, 0);
}

/* The memfds for a digest: each one's size and 16 sampled words of each of
 * its first 4 * FILE_PAGES pages (read in chunks from offset 0). */
static unsigned files_hash(void)
{
	static char buf[16 * PAGE];
	unsigned h = 2166136261u;

	for (int i = 0; i < NFILES; i++) {
		off_t size = lseek(file_fd[i], 0, SEEK_END), done = 0;

		hash_bytes(&h, &size, sizeof(size));
		lseek(file_fd[i], 0, SEEK_SET);
		while (done < size && done < (off_t)(4 * FILE_PAGES * PAGE)) {
			ssize_t n = read(file_fd[i], buf, sizeof(buf));

			if (n <= 0)
				break;
			for (ssize_t a = 0; a < n; a += PAGE / SLOTS)
				hash_bytes(&h, buf + a, n - a < 4 ? (size_t)(n - a) : 4);
			done += n;
		}
	}
	return h;
}

static void do_mmap(void)
{
	unsigned long a, len;
	int kind = gen_range(&a, &len), prot = gen_prot(), flags, err;
	unsigned long fd = (unsigned long)-1, off = 0;
	long r;

	switch (rn(20)) {
	case 0: case 1: case 2: case 3: case 4: case 5: flags = MAP_PRIVATE; break;
	case 6: case 7: case 8: case 9: case 10: case 11: case 12: flags = MAP_PRIVATE; break;
	case 13: case 14: case 15: case 16: flags = MAP_SHARED; break;
	case 17: flags = MAP_SHARED_VALIDATE; break;
	case 18: flags = chance(50) ? MAP_DROPPABLE : 0; break;	/* 0: neither: EINVAL */
	default: flags = MAP_PRIVATE; break;
	}
	if (opt.files && chance(30)) {		/* a memfd, shared or private, at some page offset */
		int i = (int)rn(NFILES);

		fd = (unsigned long)file_fd[i];
		off = rn(FILE_PAGES) * PAGE;
	} else if (!chance(2))
		flags |= MAP_ANONYMOUS;
	else
		fd = rn(3) ? 99 : 0;		/* a file mapping of a bad or non-mappable fd */
	switch (rn(10)) {
	case 0: case 1: case 2: case 3: case 4: case 5: flags |= MAP_FIXED; break;
	case 6: case 7: flags |= MAP_FIXED_NOREPLACE; break;
	case 8: break;				/* a hint */
	default:
		if (chance(50))
			a = 0;			/* the kernel's choice */
		else
			flags |= MAP_FIXED | MAP_FIXED_NOREPLACE;
		break;
	}
	if (chance(12)) flags |= MAP_POPULATE;
	if (chance(6)) flags |= MAP_GROWSDOWN;
	if (chance(6)) flags |= MAP_NORESERVE;
	if (chance(3)) flags |= MAP_STACK;
	if (chance(2)) flags |= MAP_NONBLOCK;
	if (opt.mlock && chance(3)) flags |= MAP_LOCKED;
	if (chance(7)) {
		if (opt.hugetlb)
			flags |= MAP_HUGETLB;
		if (chance(70) && a >= W_BASE && a < W_END) {	/* mostly aligned, so it can work */
			a = a & ~(HPAGE - 1);
			len = HPAGE * (1 + rn(2));
			if (a + len > W_END)
				len = W_END - a;
		}
	}
	if (chance(3))
		flags |= (int)(1u << (21 + rn(6)));	/* bits Linux does not define (or ignores) */
	if (chance(3))
		off = chance(50) ? 1 + rn(PAGE - 1) : ~0UL & ~(PAGE - 1);
	/* A MAP_FIXED range must not leave the window unless the kernel refuses it. */
	if ((flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) && kind >= 3 && kind <= 9 && len && a >= W_BASE &&
	    a < W_END && a + len > W_END && a + len > a && a + len <= USER_END)
		len = W_END - a;
#if defined(__microblaze__)
	r = sys_ret(SC(SYS_mmap, a, len, prot, flags, fd, off >> 12), &err);
#else
	r = sys_ret(SC(SYS_mmap, a, len, prot, flags, fd, off), &err);
#endif
	lf(" mmap");
	la(a);
	if (opt.files && file_index((long)fd) >= 0)
		lf(" 0x%lx 0x%x 0x%x f%d 0x%lx", len, prot, flags, file_index((long)fd), off);
	else
		lf(" 0x%lx 0x%x 0x%x %ld 0x%lx", len, prot, flags, (long)fd, off);
	lres(r, err, 1);
	if (r != -1 && ((unsigned long)r < W_BASE || (unsigned long)r >= W_END))
		drop_stray(r, len);
	else if (r != -1 && (unsigned long)r + len > W_END)
		lf(" (past the window)");
}

static void do_munmap(void)
{
	unsigned long a, len;
	int err;
	long r;

	gen_range(&a, &len);
	r = sys_ret(SC(SYS_munmap, a, len), &err);
	lf(" munmap");
	la(a);
	lf(" 0x%lx", len);
	lres(r, err, 0);
}

static void do_mprotect(void)
{
	unsigned long a, len;
	int prot = gen_prot(), err;
	long r;

	walker = 1;
	gen_range(&a, &len);
	walker = 0;
	r = sys_ret(SC(SYS_mprotect, a, len, prot), &err);
	lf(" mprotect");
	la(a);
	lf(" 0x%lx 0x%x", len, prot);
	lres(r, err, 0);
}

static void do_mremap(void)
{
	unsigned long a, len, nlen, na = 0;

	gen_range(&a, &len);
	int flags = 0, err;
	long r;

	switch (rn(6)) {
	case 0: nlen = len; break;
	case 1: nlen = len > PAGE ? PAGE * (1 + rn(len / PAGE - 1)) : len; break;
	case 2: nlen = len + PAGE * (1 + rn(16)); break;
	case 3: nlen = pages() * PAGE; break;
	case 4: nlen = chance(50) ? 0 : pages() * PAGE - 1 - rn(PAGE - 1); break;
	default: nlen = chance(50) ? ~0UL & ~(PAGE - 1) : HPAGE * (1 + rn(3)); break;
	}
	if (chance(8) && opt.oldlen0)
		len = 0;			/* a shared mapping duplicated (MAYMOVE), else EINVAL */
	flags = (int)rn(8);			/* every combination of MAYMOVE|FIXED|DONTUNMAP */
	if (chance(4))
		flags |= (int)(8u << rn(8));
	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP)) {
		na = win_addr();
		if (chance(10))
			na = a;				/* overlap */
		else if (chance(5))
			na = na + 1 + rn(PAGE - 1);	/* unaligned */
	}
	/* Growing in place or to na must stay in the window. */
	if (a >= W_BASE && a < W_END && a + nlen > W_END && nlen < USER_END)
		nlen = W_END - (a & ~(PAGE - 1));
	if ((flags & MREMAP_FIXED) && na + nlen > W_END && nlen < USER_END)
		nlen = W_END - (na & ~(PAGE - 1));
	r = sys_ret(SC(SYS_mremap, a, len, nlen, flags, na), &err);
	lf(" mremap");
	la(a);
	lf(" 0x%lx 0x%lx 0x%x", len, nlen, flags);
	la(na);
	lres(r, err, 1);
	if (r != -1 && ((unsigned long)r < W_BASE || (unsigned long)r >= W_END))
		drop_stray(r, nlen);
}

static const int advices[] = {
	MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL, MADV_WILLNEED, MADV_DONTNEED, MADV_FREE, MADV_REMOVE,
	MADV_DONTFORK, MADV_DOFORK, MADV_MERGEABLE, MADV_UNMERGEABLE, MADV_HUGEPAGE, MADV_NOHUGEPAGE,
	MADV_DONTDUMP, MADV_DODUMP, MADV_WIPEONFORK, MADV_KEEPONFORK, MADV_COLD, MADV_PAGEOUT,
	MADV_POPULATE_READ, MADV_POPULATE_WRITE, MADV_DONTNEED_LOCKED, MADV_COLLAPSE, MADV_GUARD_INSTALL,
	MADV_GUARD_REMOVE, MADV_DONTNEED, MADV_HUGEPAGE, MADV_POPULATE_WRITE, MADV_GUARD_INSTALL,
};
#define NADVICES (int)(sizeof(advices) / sizeof(advices[0]))

static void do_madvise(void)
{
	unsigned long a, len;
	int adv, err;
	long r;

	walker = 1;
	gen_range(&a, &len);
	walker = 0;
	if (chance(5)) {	/* not an advice (100 and 101, HWPOISON and SOFT_OFFLINE, never) */
		static const int bad[] = { 5, 6, 7, 26, 99, 104, 200, -1 };
		adv = bad[rn(8)];
	} else {
		adv = advices[rn(NADVICES)];
		if (!opt.guard && (adv == MADV_GUARD_INSTALL || adv == MADV_GUARD_REMOVE))
			adv = MADV_NORMAL;
	}
	r = sys_ret(SC(SYS_madvise, a, len, adv), &err);
	lf(" madvise");
	la(a);
	lf(" 0x%lx %d", len, adv);
	lres(r, err, 0);
	if (adv == MADV_FREE && opt.freefix) {
		r = sys_ret(SC(SYS_madvise, a, len, MADV_DONTNEED), &err);
		lf(" ; freefix DONTNEED");
		lres(r, err, 0);
	}
}

static void do_mseal(void)
{
	unsigned long a, len, flags = chance(10) ? 1UL << rn(8) : 0;
	int err;
	long r;

	gen_range(&a, &len);
	r = sys_ret(SC(SYS_mseal, a, len, flags), &err);
	lf(" mseal");
	la(a);
	lf(" 0x%lx 0x%lx", len, flags);
	lres(r, err, 0);
}

static void do_mlock(void)
{
	unsigned long a, len;
	int err, which = (int)rn(3);
	long r;

	walker = 1;
	gen_range(&a, &len);
	walker = 0;
	if (which == 0)
		r = sys_ret(SC(SYS_mlock, a, len), &err);
	else if (which == 1)
		r = sys_ret(SC(SYS_munlock, a, len), &err);
	else
		r = sys_ret(SC(SYS_mlock2, a, len, chance(80) ? 1 : 2), &err);
	lf(" %s", which == 0 ? "mlock" : which == 1 ? "munlock" : "mlock2");
	la(a);
	lf(" 0x%lx", len);
	lres(r, err, 0);
}

static void do_brk(void)
{
	unsigned long want, got;

	switch (rn(10)) {
	case 0: want = 0; break;
	case 1: want = rn(16) * PAGE; break;			/* below the heap: refused */
	case 2: want = ~0UL & ~(PAGE - 1); break;		/* huge: refused */
	case 3: want = brk0 + (1UL << 20) * rn(64); break;	/* a big heap */
	case 4: want = cur_brk + 1 + rn(3 * PAGE); break;	/* unaligned growth */
	case 5: want = cur_brk > brk0 + PAGE ? cur_brk - rn(cur_brk - brk0) : brk0; break;
	default: want = brk0 + rn(256) * PAGE + (chance(30) ? rn(PAGE) : 0); break;
	}
	got = (unsigned long)SC(SYS_brk, want);
	lf(" brk");
	la(want);
	lf(" =");
	la(got);
	/* Never let the break fall below where we started (the libc's TLS may
	 * live below it): a kernel that did would break the fuzzer. */
	if (got >= brk0 && got < brk0 + (1UL << 30))
		cur_brk = got;
}

/* ---- digests of the window --------------------------------------------------- */

struct piece { unsigned long s, e; char perm[5]; };
static struct piece pieces[512];
static int npieces;
static char mapsbuf[65536];

/* The VMA pieces of /proc/self/maps in the window, clipped to it. */
static void read_maps(void)
{
	int fd = open("/proc/self/maps", O_RDONLY);
	size_t len = 0;
	ssize_t n;
	char *p;

	npieces = 0;
	if (fd < 0)
		return;
	while (len < sizeof(mapsbuf) - 1 && (n = read(fd, mapsbuf + len, sizeof(mapsbuf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	mapsbuf[len] = 0;
	for (p = mapsbuf; *p && npieces < (int)(sizeof(pieces) / sizeof(pieces[0]));) {
		char *end;
		unsigned long s = strtoul(p, &end, 16), e;

		if (*end != '-')
			break;
		e = strtoul(end + 1, &end, 16);
		while (*end == ' ')
			end++;
		if (e > W_BASE && s < W_END) {
			struct piece *pc = &pieces[npieces++];
			pc->s = s < W_BASE ? W_BASE : s;
			pc->e = e > W_END ? W_END : e;
			memcpy(pc->perm, end, 4);
			pc->perm[4] = 0;
		}
		p = strchr(end, '\n');
		if (!p)
			break;
		p++;
	}
}

/*
 * Hash the page at a into h: its address, then either the fault its first
 * byte raises or its SLOTS sampled words. Only the first byte is probed:
 * a page that reads there reads everywhere, since what a read may do is
 * decided per page.
 */
static unsigned hash_page(unsigned long a, unsigned h)
{
	unsigned val;
	int sig = probe('r', a, 0, &val);

	hash_bytes(&h, &a, sizeof(a));
	if (sig) {
		int c = sig * 100 + fault_code;
		hash_bytes(&h, &c, sizeof(c));
		return h;
	}
	for (int i = 0; i < SLOTS; i++) {
		uint64_t v = 0;

		__builtin_memcpy(&v, (const void *)(a + i * (PAGE / SLOTS)), 4);
		hash_bytes(&h, &v, sizeof(v));
	}
	return h;
}

/*
 * The huge-page pool as /proc/meminfo reports it, "Free/Rsvd" ("-" without
 * a pool): a digest field, so the pool's use is compared with Linux too.
 */
static const char *pool_state(void)
{
	static char buf[4096], out[48];
	int fd = open("/proc/meminfo", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	char *f, *r;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return "-";
	buf[n] = 0;
	f = strstr(buf, "HugePages_Free:");
	r = strstr(buf, "HugePages_Rsvd:");
	if (!f || !r)
		return "-";
	snprintf(out, sizeof(out), "%lu/%lu", strtoul(f + 15, NULL, 10), strtoul(r + 15, NULL, 10));
	return out;
}

static void checkpoint(int dump)
{
	unsigned maps = 2166136261u, raw = 2166136261u, mem = 2166136261u, heap = 2166136261u;
	unsigned long top, a;
	int merged = 0;
	char fbuf[24] = "";

	if (opt.pre)
		say("> %06lu checkpoint", callno);
	read_maps();
	for (int i = 0; i < npieces; i++) {
		struct piece *pc = &pieces[i];
		unsigned long run_start = pc->s;

		hash_bytes(&raw, pc, sizeof(*pc));
		if (dump)
			say("%sM W+0x%lx-W+0x%lx %s", in_child ? "c" : "", pc->s - W_BASE, pc->e - W_BASE, pc->perm);
		/* merged: a run of touching pieces with the same perm is one entry */
		while (i + 1 < npieces && pieces[i + 1].s == pieces[i].e && !strcmp(pieces[i + 1].perm, pc->perm)) {
			i++;
			hash_bytes(&raw, &pieces[i], sizeof(pieces[i]));
			if (dump)
				say("%sM W+0x%lx-W+0x%lx %s", in_child ? "c" : "", pieces[i].s - W_BASE,
				    pieces[i].e - W_BASE, pieces[i].perm);
		}
		merged++;
		hash_bytes(&maps, &run_start, sizeof(run_start));
		hash_bytes(&maps, &pieces[i].e, sizeof(pieces[i].e));
		hash_bytes(&maps, pc->perm, 4);
	}
	for (int i = 0; i < npieces; i++) {
		if (pieces[i].perm[0] != 'r')
			continue;
		for (a = pieces[i].s; a < pieces[i].e; a += PAGE) {
			mem = hash_page(a, mem);
			if (dump && opt.memdump)
				say("%sP W+0x%lx %08x hp=%s", in_child ? "c" : "", a - W_BASE, hash_page(a, 2166136261u),
				    pool_state());
		}
	}
	top = (cur_brk + PAGE - 1) & ~(PAGE - 1);
	for (a = (brk0 + PAGE - 1) & ~(PAGE - 1); a < top; a += PAGE)
		heap = hash_page(a, heap);
	if (opt.files)
		snprintf(fbuf, sizeof(fbuf), " files=%08x", files_hash());
	say("%s@%06lu maps=%08x raw=%08x mem=%08x heap=%08x brk=H+0x%lx vmas=%d/%d hp=%s%s log=%08x", in_child ? "c" : "",
	    callno, maps, raw, mem, heap, cur_brk - brk0, merged, npieces, pool_state(), fbuf, loghash);
}

/* ---- fork ---------------------------------------------------------------------- */

static void one_call(int allow_fork);

static void do_fork(void)
{
	uint64_t child_seed = rnd();
	int n = 1 + (int)rn(6), status = 0;
	pid_t pid;

	lf(" fork %d", n);
	if (opt.pre)
		say("> %06lu fork", callno);
	pid = fork();
	if (pid == 0) {
		in_child = 1;
		linelen = 0;
		rng = child_seed;
		for (int i = 0; i < n; i++) {
			lf("c%06lu.%d", callno, i);
			one_call(0);
			lend();
		}
		checkpoint(opt.memdump && opt.dump && callno % opt.dump == 0);	/* memdump: the child's too */
		_exit(0);
	}
	if (pid < 0) {
		lf(" = -%s(%d)", errname(errno), errno);
		return;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status))
		lf(" = child exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		lf(" = child killed by signal %d", WTERMSIG(status));
	else
		lf(" = child status 0x%x", status);
}

/* One random call (a line's body; the caller starts and ends the line). */
static void one_call(int allow_fork)
{
	unsigned k = (unsigned)rn(1000);

	if (k < 220) do_mmap();
	else if (k < 330) do_munmap();
	else if (k < 440) do_mprotect();
	else if (k < 540) do_mremap();
	else if (k < 660) do_madvise();
	else if (k < 672) do_mseal();
	else if (k < 710) do_brk();
	else if (k < 730 && allow_fork) do_fork();
	else if (k < 750 && opt.mlock) do_mlock();
	else if (k < 770) {
		lf(" sigusr1");
		raise(SIGUSR1);
	} else if (k < 830 && opt.files) do_file();
	else do_touch();
}

/* ---- options and main ------------------------------------------------------------ */

static void set_opt(const char *k, const char *v)
{
	unsigned long n = strtoul(v, NULL, 0);

	if (!strcmp(k, "seed")) opt.seed = n;
	else if (!strcmp(k, "calls")) opt.calls = n;
	else if (!strcmp(k, "check")) opt.check = n ? n : 1;
	else if (!strcmp(k, "dump")) opt.dump = n;
	else if (!strcmp(k, "memdump")) opt.memdump = n;
	else if (!strcmp(k, "from")) opt.from = n;
	else if (!strcmp(k, "log")) opt.log = (int)n;
	else if (!strcmp(k, "mlock")) opt.mlock = (int)n;
	else if (!strcmp(k, "selfdiscard")) opt.selfdiscard = (int)n;
	else if (!strcmp(k, "freefix")) opt.freefix = (int)n;
	else if (!strcmp(k, "guard")) opt.guard = (int)n;
	else if (!strcmp(k, "pre")) opt.pre = (int)n;
	else if (!strcmp(k, "tap")) opt.tap = (int)n;
	else if (!strcmp(k, "oldlen0")) opt.oldlen0 = (int)n;
	else if (!strcmp(k, "hugetlb")) opt.hugetlb = (int)n;
	else if (!strcmp(k, "files")) opt.files = (int)n;
	else if (!strcmp(k, "skip")) parse_skip(v);
	else if (!strcmp(k, "seeds")) opt.seeds = v;
}

static void parse(const char *s, int from_env)
{
	char k[32];
	const char *eq = strchr(s, '=');
	size_t n;

	if (!eq)
		return;
	if (from_env) {
		if (strncmp(s, "fuzz_", 5))
			return;
		s += 5;
	}
	n = (size_t)(eq - s);
	if (n >= sizeof(k))
		return;
	memcpy(k, s, n);
	k[n] = 0;
	set_opt(k, eq + 1);
}

/* Driver mode: each seed in a fresh fork+execve of ourselves (with our
 * environment, so every other option holds), one TAP point each. */
static int drive(const char *self)
{
	int n = 0, failed = 0;

	for (const char *p = opt.seeds; *p;) {
		unsigned long seed = strtoul(p, NULL, 0);
		char seedarg[40], nodrive[] = "seeds=", notap[] = "tap=0";
		char *argv[] = { (char *)self, nodrive, notap, seedarg, NULL };
		int status = 0;
		pid_t pid;

		snprintf(seedarg, sizeof(seedarg), "seed=%lu", seed);
		pid = fork();
		if (pid == 0) {
			execve(self, argv, environ);
			_exit(127);
		}
		while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		n++;
		if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			say("ok %d - seed %lu: %lu calls, exit 0", n, seed, opt.calls);
		} else {
			failed++;
			say("not ok %d - seed %lu: %s %d", n, seed,
			    pid < 0 ? "fork failed" : WIFSIGNALED(status) ? "killed by signal" : "exit status",
			    pid < 0 ? errno : WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		}
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
	}
	say("1..%d", n);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa;

	for (char **e = environ; e && *e; e++)
		parse(*e, 1);
	for (int i = 1; i < argc; i++)
		parse(argv[i], 0);
	if (opt.seeds && *opt.seeds && argc > 0)
		return drive(argv[0]);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);

	rng = opt.seed * 0x2545f4914f6cdd1dULL + 1;
	brk0 = cur_brk = (unsigned long)syscall(SYS_brk, 0);
	self_text = (unsigned long)&main;
	self_data = (unsigned long)&opt;
	if (opt.files)
		files_init();
	say("mmfuzz: seed=%lu calls=%lu window=0x%lx+0x%lx check=%lu mlock=%d freefix=%d selfdiscard=%d guard=%d files=%d",
	    opt.seed, opt.calls, W_BASE, W_SIZE, opt.check, opt.mlock, opt.freefix, opt.selfdiscard, opt.guard,
	    opt.files);
	for (callno = 1; callno <= opt.calls; callno++) {
		lf("%06lu", callno);
		one_call(1);
		lend();
		if (callno % opt.check == 0)
			checkpoint(opt.dump && callno % opt.dump == 0);
	}
	callno = opt.calls;
	checkpoint(1);
	say("mmfuzz: done seed=%lu calls=%lu log=%08x", opt.seed, opt.calls, loghash);
	if (opt.tap) {
		say("ok 1 - seed %lu: %lu calls completed", opt.seed, opt.calls);
		say("1..1");
	}
	return 0;
}
