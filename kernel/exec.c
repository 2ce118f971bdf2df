/*
 * exec.c - replace a process's image with a static ELF executable from the
 * file system (or, for a "#!" script, with its interpreter), and build
 * Linux's initial stack:
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
#include "mm.h"
#include "vfs.h"
#include "fs_file.h"
#include "page_alloc.h"
#include "printk.h"
#include "kstring.h"
#include "errno.h"
#include "arch.h"
#include "random.h"
#include <asm/elf.h>
#include <asm/memlayout.h>

#define MAX_ARGS 256

/* Check the header: ours to run, and every program header inside the file. */
static long elf_check(const u8 *data, u64 size)
{
	const elf_ehdr_t *eh = (const elf_ehdr_t *)data;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, "\177ELF", 4) != 0)
		return -ENOEXEC;
	if (eh->e_ident[4] != ELF_CLASS || eh->e_ident[5] != ELF_DATA ||
	    eh->e_machine != ELF_MACHINE || eh->e_type != ET_EXEC)
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
 * Map one PT_LOAD segment, [start, end) in pages, as Linux's ELF loader
 * does: the pages holding file bytes as a private mapping of the file (so
 * they refault from it if discarded), the rest as anonymous zero pages
 * (bss). In a writable segment, the bytes after p_filesz in its last file
 * page are zeroed, which gives that page a private copy. Returns 0 or
 * -ENOMEM (what was mapped stays, for the caller's mm_put to undo).
 */
static long map_segment(struct mm *mm, const elf_phdr_t *ph, unsigned long start, unsigned long end,
			struct vma_file *file, const char *path)
{
	unsigned flags = segment_flags(ph->p_flags);
	unsigned long file_end = ph->p_filesz ? ALIGN_UP((unsigned long)(ph->p_vaddr + ph->p_filesz), PAGE_SIZE)
					      : start;
	unsigned long tail = (unsigned long)(ph->p_vaddr + ph->p_filesz);
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

/*
 * Map every PT_LOAD segment of the file into mm, from file (the file's
 * page-cache pages, fs/pagecache.c). Sets *phdr_va to where the program headers are
 * visible and *brk to the end of the image.
 */
static long load_segments(struct mm *mm, const u8 *data, struct vma_file *file, u64 size,
			  const char *path, unsigned long *phdr_va, unsigned long *brk)
{
	const elf_ehdr_t *eh = (const elf_ehdr_t *)data;
	const elf_phdr_t *ph = (const elf_phdr_t *)(data + eh->e_phoff);

	*phdr_va = 0;
	*brk = 0;
	for (int i = 0; i < eh->e_phnum; i++, ph++) {
		unsigned long start, end;

		if (ph->p_type == PT_PHDR)
			*phdr_va = ph->p_vaddr;
		if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
			continue;
		if (ph->p_filesz > ph->p_memsz || ph->p_offset > size || ph->p_filesz > size - ph->p_offset ||
		    ph->p_vaddr + ph->p_memsz < ph->p_vaddr || ph->p_vaddr + ph->p_memsz > USER_MMAP_BASE ||
		    ph->p_vaddr < USER_MMAP_MIN)
			return -ENOEXEC;
		if ((ph->p_vaddr - ph->p_offset) & (PAGE_SIZE - 1))
			return -ENOEXEC;	/* file and memory disagree within a page: not mappable */
		start = ALIGN_DOWN((unsigned long)ph->p_vaddr, PAGE_SIZE);
		end = ALIGN_UP((unsigned long)(ph->p_vaddr + ph->p_memsz), PAGE_SIZE);
		if (vma_find_from(mm, start) && vma_find_from(mm, start)->start < end)
			return -ENOEXEC;	/* segments sharing a page are not supported */
		if (map_segment(mm, ph, start, end, file, path))
			return -ENOMEM;
		if (!*phdr_va && ph->p_offset <= eh->e_phoff &&
		    eh->e_phoff < ph->p_offset + ph->p_filesz)
			*phdr_va = ph->p_vaddr + (eh->e_phoff - ph->p_offset);
		*brk = MAX(*brk, end);
	}
	return *brk ? 0 : -ENOEXEC;
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

/* Lay out argc, argv, envp and auxv; returns the initial SP (16-byte aligned). */
static unsigned long build_stack(struct mm *mm, const char *path, char *const argv[],
				 char *const envp[], const unsigned long *aux, int naux)
{
	struct stack_builder sb = { mm, USER_STACK_TOP, false };
	int argc = count_strings(argv), envc = count_strings(envp);
	unsigned long argp[MAX_ARGS], envpp[MAX_ARGS], execfn, platform, random;
	unsigned long rnd[2] = { get_random_u64(), get_random_u64() };
	unsigned long words, vec[2 * 24];

	execfn = push_string(&sb, path);
	for (int i = envc - 1; i >= 0; i--)
		envpp[i] = push_string(&sb, envp[i]);
	for (int i = argc - 1; i >= 0; i--)
		argp[i] = push_string(&sb, argv[i]);
	platform = push_string(&sb, ELF_PLATFORM);
	sb.sp = ALIGN_DOWN(sb.sp, 16);
	random = push_bytes(&sb, rnd, 16);

	/* The vectors: argc, argv + NULL, envp + NULL, auxv (with our three pointers). */
	words = 1 + argc + 1 + envc + 1 + naux + 6 + 2;
	sb.sp = ALIGN_DOWN(sb.sp - words * sizeof(unsigned long), 16) + words * sizeof(unsigned long);
	int n = 0;

	for (int i = 0; i < naux; i++)
		vec[n++] = aux[i];
	vec[n++] = AT_RANDOM;
	vec[n++] = random;
	vec[n++] = AT_EXECFN;
	vec[n++] = execfn;
	vec[n++] = AT_PLATFORM;
	vec[n++] = platform;
	vec[n++] = AT_NULL;
	vec[n++] = 0;
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

/* The auxiliary vector entries that depend on the image. */
static int fill_aux(unsigned long *aux, const elf_ehdr_t *eh, unsigned long phdr_va)
{
	int n = 0;
#define AUX(t, v) (aux[n++] = (t), aux[n++] = (unsigned long)(v))
	AUX(AT_PHDR, phdr_va);
	AUX(AT_PHENT, sizeof(elf_phdr_t));
	AUX(AT_PHNUM, eh->e_phnum);
	AUX(AT_PAGESZ, PAGE_SIZE);
	AUX(AT_BASE, 0);
	AUX(AT_FLAGS, 0);
	AUX(AT_ENTRY, eh->e_entry);
	AUX(AT_UID, 0);
	AUX(AT_EUID, 0);
	AUX(AT_GID, 0);
	AUX(AT_EGID, 0);
	AUX(AT_HWCAP, ELF_HWCAP);
	AUX(AT_HWCAP2, ELF_HWCAP2);
	AUX(AT_CLKTCK, 100);
	AUX(AT_SECURE, 0);
#ifdef ELF_MINSIGSTKSZ
	AUX(AT_MINSIGSTKSZ, ELF_MINSIGSTKSZ);
#endif
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

/*
 * exec_into(), depth interpreters deep (exec_script()). The program's first
 * page (its ELF header and program headers, which must lie there) is read
 * into a kernel page; the segments are mapped from the file's page-cache
 * pages (private mappings: every process running the program shares its
 * text pages, and a write copies).
 */
static long exec_file(struct proc *p, const char *path, char *const argv[], char *const envp[],
		      int depth)
{
	u8 *data;
	u64 size;
	unsigned long phdr_va, brk, sp, aux[40];
	struct mm *mm, *old;
	struct inode *ip;
	struct vma_file *file;
	const char *name;
	struct page *hp = alloc_pages(0, 0);
	long err;

	if (!hp)
		return -ENOMEM;
	data = page_address(hp);
	err = fs_exec_open(path, &ip, &name, data, PAGE_SIZE, &size);
	if (err) {
		free_pages(hp, 0);
		return err;
	}
	if (size >= 2 && data[0] == '#' && data[1] == '!') {
		err = exec_script(p, path, data, MIN(size, (u64)PAGE_SIZE), argv, envp, depth);
		fs_inode_put(ip);
		free_pages(hp, 0);
		return err;
	}
	err = elf_check(data, MIN(size, (u64)PAGE_SIZE));
	if (err) {
		fs_inode_put(ip);
		free_pages(hp, 0);
		return err;
	}
	/* The other threads die here, before the new image exists (so no
	 * address space is left unattached while they exit). */
	err = proc_exec_begin(p);
	if (err) {
		fs_inode_put(ip);
		free_pages(hp, 0);
		return err;
	}
	file = fs_inode_vma_file(ip);
	mm = mm_create();
	if (!mm) {
		fs_inode_put(ip);
		free_pages(hp, 0);
		return -ENOMEM;
	}
	err = load_segments(mm, data, file, size, name, &phdr_va, &brk);
	if (!err && !vma_insert(mm, USER_STACK_TOP - USER_STACK_SIZE, USER_STACK_TOP,
				VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC |
				VM_GROWSDOWN | VM_STACK, NULL, 0))
		err = -ENOMEM;
	if (!err)
		err = arch_exec_setup(mm);
	if (!err) {
		sp = build_stack(mm, path, argv, envp, aux, fill_aux(aux, (const elf_ehdr_t *)data, phdr_va));
		if (!sp)
			err = -E2BIG;
	}
	if (err) {
		mm_put(mm);
		fs_inode_put(ip);
		free_pages(hp, 0);
		return err;
	}
	fs_proc_exec(p, ip);	/* the file is busy while p runs it */
	fs_inode_put(ip);	/* the segments' VMAs and p->exe hold their own references */
	mm->brk_start = mm->brk = brk;
	mm->stack_top = USER_STACK_TOP;
	old = p->mm;
	p->mm = mm;
	if (p == current_proc())
		arch_switch_mm(mm);
	if (old)
		mm_put(old);
	arch_regs_init_user(proc_user_regs(p), ((const elf_ehdr_t *)data)->e_entry, sp);
	free_pages(hp, 0);
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
