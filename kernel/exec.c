/*
 * exec.c - replace a process's image with an ELF executable from the file
 * system (static, or dynamically linked: its PT_INTERP interpreter is
 * mapped too and runs first; a PIE at a randomised base), or, for a "#!"
 * script, with its interpreter, and build Linux's initial stack:
 *
 *   sp ->  argc
 *          argv[0..argc-1], NULL
 *          envp[...], NULL
 *          auxv pairs (AT_PHDR, AT_PHENT, ..., AT_NULL)
 *          padding, AT_RANDOM bytes, platform string, argument and
 *          environment strings, executable name     <- top of the stack
 */
#include "exec.h"
#include "proc.h"
#include "mm_ops.h"
#include "vfs.h"
#include "fs_file.h"
#include "page_alloc.h"
#include "printk.h"
#include "kstring.h"
#include "errno.h"
#include "arch.h"
#include "random.h"
#include "uaccess.h"
#include <asm/elf.h>
#include <asm/memlayout.h>

#define MAX_ARGS 256

/* Linux's MIN_GAP: the mmap base stays at least this far below the stack top. */
#define MMAP_MIN_GAP (128UL << 20)

/* personality(2)'s flag that turns randomisation off for the next exec. */
#define ADDR_NO_RANDOMIZE 0x0040000

/*
 * Address-space randomisation, as Linux's randomize_va_space sysctl
 * (/proc/sys/kernel/randomize_va_space): 0 none, 1 the stack, the mmap
 * base and a PIE's base, 2 (or more: Linux checks no range) the brk as well.
 */
u64 sysctl_randomize_va_space = 2;

/* Check the header: ours to run, and every program header inside the first page. */
static long elf_check(const u8 *data, u64 size)
{
	const elf_ehdr_t *eh = (const elf_ehdr_t *)data;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, "\177ELF", 4) != 0)
		return -ENOEXEC;
	if (eh->e_ident[4] != ELF_CLASS || eh->e_ident[5] != ELF_DATA ||
	    eh->e_machine != ELF_MACHINE || (eh->e_type != ET_EXEC && eh->e_type != ET_DYN))
		return -ENOEXEC;
	if (eh->e_phentsize != sizeof(elf_phdr_t) || eh->e_phnum == 0 ||
	    eh->e_phoff > size || (u64)eh->e_phnum * sizeof(elf_phdr_t) > size - eh->e_phoff)
		return -ENOEXEC;
	return 0;
}

/* VMA flags for an ELF segment. */
static unsigned segment_flags(u32 pf)
{
	unsigned f = VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;

	if (pf & PF_R)
		f |= VM_READ;
	if (pf & PF_W)
		f |= VM_WRITE | VM_ACCOUNT;	/* private and writable: charged (mm/commit.h) */
	if (pf & PF_X)
		f |= VM_EXEC;
	return f;
}

/*
 * Map one PT_LOAD segment, [start, end) in pages (bias already added), as
 * Linux's ELF loader does: the pages holding file bytes as a private
 * mapping of the file (so they refault from it if discarded), the rest as
 * anonymous zero pages (bss). In a writable segment, the bytes after
 * p_filesz in its last file page are zeroed, which gives that page a
 * private copy. Returns 0 or -ENOMEM (what was mapped stays, for the
 * caller's mm_put to undo).
 */
static long map_segment(struct mm *mm, const elf_phdr_t *ph, unsigned long bias, unsigned long start,
			unsigned long end, struct vma_file *file, const char *path)
{
	unsigned flags = segment_flags(ph->p_flags);
	unsigned long tail = bias + (unsigned long)(ph->p_vaddr + ph->p_filesz);
	unsigned long file_end = ph->p_filesz ? ALIGN_UP(tail, PAGE_SIZE) : start;
	struct vma *v;

	if (file_end > start) {
		v = vma_insert(mm, start, file_end, flags, path, ALIGN_DOWN(ph->p_offset, PAGE_SIZE));
		if (!v)
			return -ENOMEM;
		v->file = vma_file_get(file);
		if ((flags & VM_WRITE) && tail < file_end) {
			static const u8 zeros[64];

			if (mm_fault(mm, tail, FAULT_WRITE))	/* the private copy of the file page */
				return -ENOMEM;
			for (unsigned long va = tail; va < file_end; va += MIN(sizeof(zeros), file_end - va))
				if (mm_write(mm, va, zeros, MIN(sizeof(zeros), file_end - va)))
					return -ENOMEM;
		}
	}
	if (end > file_end && !vma_insert(mm, file_end, end, flags, NULL, 0))
		return -ENOMEM;
	return 0;
}

/* One ELF file being loaded: the program or its interpreter. */
struct elf_image {
	struct page *hp;	/* its first page: the ELF header and program headers */
	const u8 *data;
	u64 size;		/* of the file */
	struct inode *ip;
	struct vma_file *file;
	const char *name;	/* for /proc/<pid>/maps */
	unsigned long bias;	/* added to every p_vaddr (0 for ET_EXEC) */
	unsigned long phdr_va;	/* where the program headers are visible (bias added) */
	unsigned long brk;	/* the page-aligned end of the image (bias added) */
};

static const elf_ehdr_t *ehdr(const struct elf_image *im)
{
	return (const elf_ehdr_t *)im->data;
}

static const elf_phdr_t *phdrs(const struct elf_image *im)
{
	return (const elf_phdr_t *)(im->data + ehdr(im)->e_phoff);
}

/* Open path and read its first page into im; -errno (im holds nothing then). */
static long image_open(struct elf_image *im, const char *path)
{
	long err;

	memset(im, 0, sizeof(*im));
	im->hp = alloc_pages(0, 0);
	if (!im->hp)
		return -ENOMEM;
	im->data = page_address(im->hp);
	err = fs_exec_open(path, &im->ip, &im->name, page_address(im->hp), PAGE_SIZE, &im->size);
	if (err) {
		free_pages(im->hp, 0);
		im->hp = NULL;
		return err;
	}
	im->file = fs_inode_vma_file(im->ip);
	return 0;
}

static void image_close(struct elf_image *im)
{
	if (im->ip)
		fs_inode_put(im->ip);
	if (im->hp)
		free_pages(im->hp, 0);
	im->ip = NULL;
	im->hp = NULL;
}

/*
 * The span of the image's PT_LOAD segments: *lo the page-aligned lowest
 * p_vaddr, the result the page-aligned end minus *lo (0: none, or a
 * segment that wraps); *align the largest power-of-two p_align (at least
 * a page).
 */
static unsigned long image_span(const struct elf_image *im, unsigned long *lo, unsigned long *align)
{
	const elf_phdr_t *ph = phdrs(im);
	unsigned long low = ~0UL, high = 0;

	*align = PAGE_SIZE;
	for (int i = 0; i < ehdr(im)->e_phnum; i++, ph++) {
		if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
			continue;
		if (ph->p_vaddr + ph->p_memsz < ph->p_vaddr || ph->p_vaddr + ph->p_memsz > USER_VA_END)
			return 0;
		low = MIN(low, ALIGN_DOWN((unsigned long)ph->p_vaddr, PAGE_SIZE));
		high = MAX(high, ALIGN_UP((unsigned long)(ph->p_vaddr + ph->p_memsz), PAGE_SIZE));
		if (ph->p_align > *align && !(ph->p_align & (ph->p_align - 1)) && ph->p_align <= (1UL << 30))
			*align = (unsigned long)ph->p_align;
	}
	*lo = low;
	return high > low ? high - low : 0;
}

/*
 * Map every PT_LOAD segment of im into mm at im->bias, from its file (the
 * file's page-cache pages, fs/pagecache.c), and set im->phdr_va and
 * im->brk. -ENOEXEC for a segment outside user space or one whose file
 * and memory offsets disagree within a page. Where two segments share a
 * page, the later one's mapping replaces the earlier one's there.
 */
static long load_segments(struct mm *mm, struct elf_image *im)
{
	const elf_ehdr_t *eh = ehdr(im);
	const elf_phdr_t *ph = phdrs(im);
	unsigned long bias = im->bias;

	im->phdr_va = 0;
	im->brk = 0;
	for (int i = 0; i < eh->e_phnum; i++, ph++) {
		unsigned long start, end;

		if (ph->p_type == PT_PHDR)
			im->phdr_va = bias + ph->p_vaddr;
		if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
			continue;
		if (ph->p_filesz > ph->p_memsz || ph->p_offset > im->size || ph->p_filesz > im->size - ph->p_offset ||
		    ph->p_vaddr + ph->p_memsz < ph->p_vaddr || bias + ph->p_vaddr + ph->p_memsz > mm->mmap_base ||
		    bias + ph->p_vaddr < USER_MMAP_MIN)
			return -ENOEXEC;
		if ((ph->p_vaddr - ph->p_offset) & (PAGE_SIZE - 1))
			return -ENOEXEC;	/* file and memory disagree within a page: not mappable */
		start = ALIGN_DOWN((unsigned long)(bias + ph->p_vaddr), PAGE_SIZE);
		end = ALIGN_UP((unsigned long)(bias + ph->p_vaddr + ph->p_memsz), PAGE_SIZE);
		/* a page shared with an earlier segment is this one's now, as
		 * Linux's elf_map() with MAP_FIXED (and vm_brk_flags() for bss) */
		if (mm_munmap(mm, start, end - start))
			return -ENOMEM;
		if (map_segment(mm, ph, bias, start, end, im->file, im->name))
			return -ENOMEM;
		if (!im->phdr_va && ph->p_offset <= eh->e_phoff &&
		    eh->e_phoff < ph->p_offset + ph->p_filesz)
			im->phdr_va = bias + ph->p_vaddr + (eh->e_phoff - ph->p_offset);
		im->brk = MAX(im->brk, end);
	}
	return im->brk ? 0 : -ENOEXEC;
}

/*
 * The PT_INTERP path of the program into buf (size bytes): 1 when it has
 * one, 0 when it has none, -ENOEXEC for a malformed one (empty, too long,
 * not NUL-terminated where it ends, or outside the file).
 */
static long interp_path(const struct elf_image *im, char *buf, size_t size)
{
	const elf_phdr_t *ph = phdrs(im);

	for (int i = 0; i < ehdr(im)->e_phnum; i++, ph++) {
		if (ph->p_type != PT_INTERP)
			continue;
		if (ph->p_filesz < 2 || ph->p_filesz > size || ph->p_offset > im->size ||
		    ph->p_filesz > im->size - ph->p_offset)
			return -ENOEXEC;
		if (fs_inode_read(im->ip, buf, ph->p_filesz, ph->p_offset) != ph->p_filesz ||
		    buf[ph->p_filesz - 1] != '\0')
			return -ENOEXEC;
		return 1;
	}
	return 0;
}

/* A page-aligned random offset below 2^bits pages (Linux's arch_mmap_rnd). */
static unsigned long random_pages(unsigned bits)
{
	return bits ? (unsigned long)(get_random_u64() & ((1ull << bits) - 1)) << PAGE_SHIFT : 0;
}

/*
 * Linux's mmap_base(): the top of the mmap area, below the stack by the
 * stack limit, the guard gap and (randomising) the stack's own random
 * range, at least MMAP_MIN_GAP and at most 5/6 of the stack top, less
 * the random offset rnd.
 */
static unsigned long mmap_base_for(unsigned long rnd, bool randomize)
{
	unsigned long gap = USER_STACK_SIZE + MM_STACK_GUARD_GAP;

	if (randomize)
		gap += (unsigned long)STACK_RND_MASK << PAGE_SHIFT;
	gap = MAX(gap, MMAP_MIN_GAP);
	gap = MIN(gap, USER_STACK_TOP / 6 * 5);
	return ALIGN_DOWN(USER_STACK_TOP - gap - rnd, PAGE_SIZE);
}

/*
 * Where the image of a program or an interpreter goes. An ET_EXEC one
 * stays where it is linked. A PIE program (ET_DYN with an interpreter)
 * goes at ELF_ET_DYN_BASE plus the mmap randomisation, aligned to its
 * largest p_align, as Linux places it; an interpreter, or an ET_DYN run
 * on its own (ld.so as a program), goes in the highest gap below the mmap
 * base, as an mmap would put it. Sets im->bias; -ENOEXEC or -ENOMEM.
 */
static long place_image(struct mm *mm, struct elf_image *im, bool pie, bool randomize)
{
	unsigned long lo, align, span = image_span(im, &lo, &align), at;

	im->bias = 0;
	if (!span)
		return -ENOEXEC;
	if (ehdr(im)->e_type == ET_EXEC)
		return 0;
	if (pie) {
		at = ELF_ET_DYN_BASE + (randomize ? random_pages(MMAP_RND_BITS) : 0);
		at = ALIGN_DOWN(at, align);
	} else {
		at = vma_find_gap_down(mm, span, mm->mmap_base, USER_MMAP_MIN, NULL);
		if (!at)
			return -ENOMEM;
	}
	im->bias = at - lo;
	return 0;
}

/*
 * The brk of the new image, as Linux's ELF loader sets it: the end of the
 * program's image (an ET_DYN run on its own: ELF_ET_DYN_BASE rounded up to
 * a page, out of the mmap area; Linux leaves it unaligned when it does not
 * randomise); with randomize_va_space 2 a page further and randomised
 * within BRK_RND_RANGE (Linux's arch_randomize_brk).
 */
static unsigned long initial_brk(const struct elf_image *prog, bool has_interp, bool randomize)
{
	unsigned long brk = prog->brk;
	bool moved = false;

	if (ehdr(prog)->e_type == ET_DYN && !has_interp) {
		brk = ALIGN_UP(ELF_ET_DYN_BASE, PAGE_SIZE);
		moved = true;
	}
	if (randomize && sysctl_randomize_va_space > 1) {
		if (!moved)
			brk += PAGE_SIZE;
		u64 pages = BRK_RND_RANGE >> PAGE_SHIFT;

		if (pages)
			brk += (unsigned long)(get_random_u64() % pages) << PAGE_SHIFT;
	}
	return brk;
}

/* Building the initial stack downwards from the top, in the new mm. */
struct stack_builder {
	struct mm *mm;
	unsigned long sp;
	bool failed;
};

/* Push len bytes; returns their user address. */
static unsigned long push_bytes(struct stack_builder *sb, const void *p, size_t len)
{
	sb->sp -= len;
	if (mm_write(sb->mm, sb->sp, p, len))
		sb->failed = true;
	return sb->sp;
}

static unsigned long push_string(struct stack_builder *sb, const char *s)
{
	return push_bytes(sb, s, strlen(s) + 1);
}

static int count_strings(char *const v[])
{
	int n = 0;

	while (v && v[n] && n < MAX_ARGS)
		n++;
	return n;
}

/* The longest auxiliary vector fill_aux() makes, in words (pairs * 2). */
#define AUX_WORDS 48

/*
 * Lay out argc, argv, envp and auxv below top, as Linux's
 * create_elf_tables(): the strings at the top (the executable's name
 * first), randomising, a random distance below a page under them (Linux's
 * arm64 arch_align_stack), then the platform string, the 16 AT_RANDOM
 * bytes and the vectors. aux is the vector without AT_RANDOM, AT_HWCAP2,
 * AT_EXECFN and AT_PLATFORM, which are filled in here in Linux's order.
 * Returns the initial SP (16-byte aligned), 0 if the stack is too small.
 */
static unsigned long build_stack(struct mm *mm, unsigned long top, const char *path, char *const argv[],
				 char *const envp[], const unsigned long *aux, int naux, bool randomize)
{
	struct stack_builder sb = { mm, top - sizeof(unsigned long), false };
	int argc = count_strings(argv), envc = count_strings(envp);
	unsigned long argp[MAX_ARGS], envpp[MAX_ARGS], execfn, platform, random;
	unsigned long rnd[2] = { get_random_u64(), get_random_u64() };
	unsigned long words, vec[AUX_WORDS + 8];

	execfn = push_string(&sb, path);
	for (int i = envc - 1; i >= 0; i--)
		envpp[i] = push_string(&sb, envp[i]);
	for (int i = argc - 1; i >= 0; i--)
		argp[i] = push_string(&sb, argv[i]);
	if (randomize)
		sb.sp -= (unsigned long)(get_random_u64() % PAGE_SIZE);
	sb.sp = ALIGN_DOWN(sb.sp, 16);
	platform = push_string(&sb, ELF_PLATFORM);
	random = push_bytes(&sb, rnd, 16);

	/* The vectors: argc, argv + NULL, envp + NULL, auxv (with our four entries). */
	int n = 0;

	for (int i = 0; i < naux; i++)
		vec[n++] = aux[i];
	vec[n++] = AT_RANDOM;
	vec[n++] = random;
	vec[n++] = AT_HWCAP2;
	vec[n++] = arch_elf_hwcap2();
	vec[n++] = AT_EXECFN;
	vec[n++] = execfn;
	vec[n++] = AT_PLATFORM;
	vec[n++] = platform;
	vec[n++] = AT_NULL;
	vec[n++] = 0;
	words = 1 + argc + 1 + envc + 1 + n;
	sb.sp = ALIGN_DOWN(sb.sp - words * sizeof(unsigned long), 16) + words * sizeof(unsigned long);
	push_bytes(&sb, vec, n * sizeof(unsigned long));
	unsigned long zero = 0;

	push_bytes(&sb, &zero, sizeof(zero));
	for (int i = envc - 1; i >= 0; i--)
		push_bytes(&sb, &envpp[i], sizeof(unsigned long));
	push_bytes(&sb, &zero, sizeof(zero));
	for (int i = argc - 1; i >= 0; i--)
		push_bytes(&sb, &argp[i], sizeof(unsigned long));
	unsigned long argc_word = (unsigned long)argc;

	push_bytes(&sb, &argc_word, sizeof(argc_word));
	return sb.failed ? 0 : sb.sp;
}

/*
 * The auxiliary vector entries up to AT_SECURE, in Linux 6.12's order
 * (build_stack() adds the rest). base: where the interpreter is (0: none).
 */
static int fill_aux(unsigned long *aux, const struct proc *p, const struct elf_image *prog, unsigned long base)
{
	int n = 0;
#define AUX(t, v) (aux[n++] = (t), aux[n++] = (unsigned long)(v))
#ifdef ELF_MINSIGSTKSZ
	AUX(AT_MINSIGSTKSZ, ELF_MINSIGSTKSZ);
#endif
	AUX(AT_HWCAP, arch_elf_hwcap());
	AUX(AT_PAGESZ, PAGE_SIZE);
	AUX(AT_CLKTCK, 100);
	AUX(AT_PHDR, prog->phdr_va);
	AUX(AT_PHENT, sizeof(elf_phdr_t));
	AUX(AT_PHNUM, ehdr(prog)->e_phnum);
	AUX(AT_BASE, base);
	AUX(AT_FLAGS, 0);
	AUX(AT_ENTRY, prog->bias + ehdr(prog)->e_entry);
	AUX(AT_UID, p->uid[0]);
	AUX(AT_EUID, p->uid[1]);
	AUX(AT_GID, p->gid[0]);
	AUX(AT_EGID, p->gid[1]);
	/* Linux's secure-exec rule for a process whose ids differ (no set-id files here). */
	AUX(AT_SECURE, p->uid[0] != p->uid[1] || p->gid[0] != p->gid[1]);
#undef AUX
	return n;
}

static long exec_file(struct proc *p, const char *path, char *const argv[], char *const envp[],
		      int depth);

/* The longest "#!" line read, and how many interpreters may nest (Linux's values). */
#define SCRIPT_LINE_MAX	256
#define SCRIPT_DEPTH_MAX	4

/*
 * Run the "#!" script at path (contents data, size bytes) as Linux's
 * binfmt_script does: the first line is "#!interpreter [argument]" (one
 * optional argument, the rest of the line with surrounding blanks removed),
 * and the interpreter runs with argv { interpreter, [argument,] path,
 * argv[1], ... }. -ENOEXEC when the line names no interpreter or is longer
 * than SCRIPT_LINE_MAX, -ELOOP when interpreters nest more than
 * SCRIPT_DEPTH_MAX deep; otherwise what executing the interpreter returns.
 */
static long exec_script(struct proc *p, const char *path, const u8 *data, u64 size,
			char *const argv[], char *const envp[], int depth)
{
	struct page *pg;
	char *line, *interp, *arg = NULL, **nargv;
	int n = 0, len = 0;
	long err;

	if (depth >= SCRIPT_DEPTH_MAX)
		return -ELOOP;
	while (2 + len < (int)size && data[2 + len] != '\n' && len < SCRIPT_LINE_MAX)
		len++;
	if (len == SCRIPT_LINE_MAX)
		return -ENOEXEC;
	pg = alloc_pages(0, 0);
	if (!pg)
		return -ENOMEM;
	/* One page: the argv array first, then a copy of the line. */
	nargv = page_address(pg);
	line = (char *)(nargv + MAX_ARGS + 3);
	memcpy(line, data + 2, len);
	line[len] = '\0';
	for (int i = len - 1; i >= 0 && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'); i--)
		line[i] = '\0';
	interp = line;
	while (*interp == ' ' || *interp == '\t')
		interp++;
	for (char *s = interp; *s; s++) {
		if (*s == ' ' || *s == '\t') {
			*s++ = '\0';
			while (*s == ' ' || *s == '\t')
				s++;
			arg = *s ? s : NULL;
			break;
		}
	}
	err = -ENOEXEC;
	if (*interp) {
		nargv[n++] = interp;
		if (arg)
			nargv[n++] = arg;
		nargv[n++] = (char *)path;
		for (int i = 1; argv && argv[0] && argv[i] && n < MAX_ARGS; i++)
			nargv[n++] = argv[i];
		nargv[n] = NULL;
		err = exec_file(p, interp, nargv, envp, depth + 1);
	}
	free_pages(pg, 0);
	return err;
}

long exec_into(struct proc *p, const char *path, char *const argv[], char *const envp[])
{
	return exec_file(p, path, argv, envp, 0);
}

/* Does this exec randomise its layout (randomize_va_space, personality ADDR_NO_RANDOMIZE)? */
static bool exec_randomizes(const struct proc *p)
{
	return sysctl_randomize_va_space && !(p->personality & ADDR_NO_RANDOMIZE);
}

/*
 * Build the new address space for prog (and its interpreter interp, when
 * interp->hp is set) in mm: the layout (stack top, mmap base, randomised
 * when randomize), the signal trampoline, the images, the stack and the
 * initial stack contents. Sets *entry and *sp; -errno on failure (the
 * caller's mm_put undoes what was mapped).
 */
static long build_image(struct proc *p, struct mm *mm, struct elf_image *prog, struct elf_image *interp,
			const char *path, char *const argv[], char *const envp[], unsigned long *entry,
			unsigned long *sp)
{
	bool randomize = exec_randomizes(p), has_interp = interp->hp != NULL;
	unsigned long stack_top = USER_STACK_TOP, aux[AUX_WORDS];
	long err;

	if (randomize)
		stack_top -= (unsigned long)(get_random_u64() & STACK_RND_MASK) << PAGE_SHIFT;
	mm->mmap_base = mmap_base_for(randomize ? random_pages(MMAP_RND_BITS) : 0, randomize);
	err = arch_exec_setup(mm);
	if (!err)
		err = place_image(mm, prog, has_interp && ehdr(prog)->e_type == ET_DYN, randomize);
	if (!err)
		err = load_segments(mm, prog);
	if (!err && has_interp) {
		err = place_image(mm, interp, false, randomize);
		if (!err)
			err = load_segments(mm, interp);
	}
	if (!err && !vma_insert(mm, stack_top - USER_STACK_SIZE, stack_top,
				VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC |
				VM_GROWSDOWN | VM_STACK, NULL, 0))
		err = -ENOMEM;
	if (err)
		return err;
	mm->brk_start = mm->brk = initial_brk(prog, has_interp, randomize);
	mm->stack_top = stack_top;
	*entry = has_interp ? interp->bias + ehdr(interp)->e_entry : prog->bias + ehdr(prog)->e_entry;
	*sp = build_stack(mm, stack_top, path, argv, envp, aux,
			  fill_aux(aux, p, prog, has_interp ? interp->bias : 0), randomize);
	return *sp ? 0 : -E2BIG;
}

/*
 * exec_into(), depth interpreters deep (exec_script()). The program's
 * first page (its ELF header and program headers, which must lie there)
 * is read into a kernel page, and so is its PT_INTERP interpreter's (the
 * dynamic loader, which must be an ELF of its own without one); the
 * segments are mapped from the files' page-cache pages (private mappings:
 * every process running the program shares its text pages, and a write
 * copies). The process runs from the interpreter's entry when there is
 * one, which finds the program through the auxiliary vector.
 */
/*
 * An exec failed past its point of no return (the other threads are gone):
 * p dies of SIGSEGV at its return to user mode, whatever its handler or
 * mask, as Linux's force_fatal_sig(SIGSEGV).
 */
static void exec_fatal(struct proc *p)
{
	struct ksiginfo si = { .signo = SIGSEGV, .code = 0x80 /* SI_KERNEL */ };

	p->sighand->act[SIGSEGV - 1].handler = SIG_DFL;	/* its own table now (proc_exec_begin) */
	signal_force(p, &si);
}

static long exec_file(struct proc *p, const char *path, char *const argv[], char *const envp[],
		      int depth)
{
	struct elf_image prog, interp = { 0 };
	unsigned long entry, sp;
	struct mm *mm, *old;
	char *ipath = NULL;
	bool no_return;
	long err;

	err = image_open(&prog, path);
	if (err)
		return err;
	if (prog.size >= 2 && prog.data[0] == '#' && prog.data[1] == '!') {
		err = exec_script(p, path, prog.data, MIN(prog.size, (u64)PAGE_SIZE), argv, envp, depth);
		image_close(&prog);
		return err;
	}
	err = elf_check(prog.data, MIN(prog.size, (u64)PAGE_SIZE));
	if (!err && !(ipath = alloc_page_va(0)))
		err = -ENOMEM;
	if (!err && (err = interp_path(&prog, ipath, PAGE_SIZE)) == 1) {
		err = image_open(&interp, ipath);
		if (!err)
			err = elf_check(interp.data, MIN(interp.size, (u64)PAGE_SIZE));
		if (!err && interp_path(&interp, ipath, PAGE_SIZE) != 0)
			err = -ELIBBAD;	/* an interpreter that wants one of its own */
	}
	if (ipath)
		free_page_va(ipath);
	/* The other threads die here, before the new image exists (so no
	 * address space is left unattached while they exit). This is Linux's
	 * point of no return (begin_new_exec()): a failure after it kills. */
	if (!err)
		err = proc_exec_begin(p);
	no_return = !err;
	mm = err ? NULL : mm_create();
	if (!err && !mm)
		err = -ENOMEM;
	if (!err)
		err = build_image(p, mm, &prog, &interp, path, argv, envp, &entry, &sp);
	if (err) {
		if (no_return)
			exec_fatal(p);
		if (mm)
			mm_put(mm);
		image_close(&interp);
		image_close(&prog);
		return err;
	}
	fs_proc_exec(p, prog.ip);	/* the file is busy while p runs it */
	image_close(&interp);	/* the segments' VMAs and p->exe hold their own references */
	image_close(&prog);
	old = p->mm;
	p->mm = mm;
	if (p == current_proc())
		arch_switch_mm(mm);
	if (old)
		mm_put(old);
	arch_regs_init_user(proc_user_regs(p), entry, sp);
	signal_exec(p);
	for (int fd = 0; fd < NOFILE; fd++) {	/* FD_CLOEXEC descriptors end here */
		if (p->fdt->files[fd] && p->fdt->cloexec[fd]) {
			file_close(p->fdt->files[fd]);
			p->fdt->files[fd] = NULL;
		}
		p->fdt->cloexec[fd] = false;
	}
	const char *base = path;

	for (const char *s = path; *s; s++)
		if (*s == '/')
			base = s + 1;
	snprintk(p->name, sizeof(p->name), "%s", base);
	return 0;
}

/*
 * personality(persona): set the execution domain and flags (of these
 * only ADDR_NO_RANDOMIZE does anything here: the next exec lays out its
 * image without randomisation); 0xffffffff only asks. Returns the old
 * value, as Linux does.
 */
long sys_personality(const unsigned long *a)
{
	struct proc *p = current_proc();
	unsigned old = p->personality;

	if ((unsigned)a[0] != 0xffffffffu)
		p->personality = (unsigned)a[0];
	return (long)old;
}
