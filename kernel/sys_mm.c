/*
 * sys_mm.c - the address-space system calls: mmap, munmap, mremap,
 * mprotect, madvise, brk, mseal, mlock, mlock2, munlock, mlockall,
 * munlockall, mincore and msync. This file only decodes the arguments
 * with the types of Linux 6.12's SYSCALL_DEFINEs (madvise's advice is an
 * int, mmap's fd an unsigned int; everything else an unsigned long or
 * size_t, every bit of which counts) and turns a file descriptor into what
 * backs a mapping; the operations themselves, with Linux's checks and
 * errno values, are in mm/ (mm/mm_ops.h).
 */
#include "syscall.h"
#include "proc.h"
#include "mm_ops.h"
#include "errno.h"
#include "mman.h"
#include "memfd.h"
#include "fs_file.h"

#define PAGE_ALIGN_UL(x) (((x) + PAGE_SIZE - 1) & ~(unsigned long)(PAGE_SIZE - 1))

struct mm *proc_mm_limits(struct proc *p)
{
	p->mm->rlim_as = p->rlim[RLIMIT_AS].cur;
	p->mm->rlim_data = p->rlim[RLIMIT_DATA].cur;
	p->mm->rlim_data_max = p->rlim[RLIMIT_DATA].max;
	p->mm->rlim_stack = p->rlim[RLIMIT_STACK].cur;
	return p->mm;
}

/* The caller's mm, with its limits copied in (proc_mm_limits()). */
static struct mm *cur_mm(void)
{
	return proc_mm_limits(current_proc());
}

/*
 * Check a file mapping of fd (mmap without MAP_ANONYMOUS): a memfd
 * (kernel/memfd.c) or a regular file of fs/; on success *file and *name
 * say what backs the VMA, and *may_not the VM_MAY* bits it must not have
 * (FM-1: VM_MAYWRITE for a shared mapping of a file not open for
 * writing). The errno values follow do_mmap()'s order; all but EBADF and
 * MAP_HUGETLB's EINVAL come after the placement there (struct mmap_file).
 */
static long file_checks(unsigned long ufd, unsigned long len, unsigned long prot,
			unsigned long flags, unsigned long off, struct vma_file **file, const char **name,
			unsigned *may_not)
{
	struct proc *p = current_proc();
	long fd = (long)(int)ufd;
	struct file *f;

	if (fd < 0 || fd >= NOFILE || !(f = p->fdt->files[fd]))
		return -EBADF;
	if (flags & MAP_HUGETLB)
		return -EINVAL;	/* MM-1: no file here is a hugetlbfs file (Linux checks this next) */
	*file = memfd_vma_file(f, name);
	if (len && PAGE_ALIGN_UL(len) && mm_file_range_too_big(off, PAGE_ALIGN_UL(len)))
		return -EOVERFLOW;	/* MM-6 */
	if ((flags & MAP_TYPE) != MAP_SHARED && (flags & MAP_TYPE) != MAP_SHARED_VALIDATE &&
	    (flags & MAP_TYPE) != MAP_PRIVATE)
		return -EINVAL;	/* MM-11: a file has these three types only (before its own checks) */
	if ((flags & MAP_TYPE) == MAP_SHARED_VALIDATE && (flags & ~(unsigned long)LEGACY_MAP_MASK))
		return -EOPNOTSUPP;	/* MV-1: also before the file's own checks (EACCES, ENODEV) */
	if (!*file && f->inode) {	/* a file of the file system (fs/) */
		if ((flags & MAP_TYPE) != MAP_PRIVATE && (f->flags & O_ACCMODE) == O_RDONLY)
			*may_not = VM_MAYWRITE;
		return fs_mmap_file(f, prot, (flags & MAP_TYPE) != MAP_PRIVATE, file, name);
	}
	if (!*file) {
		/* /proc files are open read-only */
		if ((flags & MAP_TYPE) != MAP_PRIVATE && (prot & PROT_WRITE) && (f->st.mode & S_IFMT) == S_IFREG)
			return -EACCES;
		return -ENODEV;	/* MM-1: no other file can be mapped (yet) */
	}
	return 0;
}

long sys_mmap(const unsigned long *a)
{
	unsigned long addr = a[0], len = a[1], prot = a[2], flags = a[3], off = a[5];
	struct mmap_file mf = { 0 };
	long r;

	if (off & (PAGE_SIZE - 1))
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS)) {	/* a memfd or a regular file of fs/ */
		r = file_checks(a[4], len, prot, flags, off, &mf.file, &mf.name, &mf.may_not);
		if (r == -EBADF || (flags & MAP_HUGETLB))
			return r;	/* ksys_mmap_pgoff()'s own checks, before any other */
		mf.late_err = r;	/* the rest: after the placement (MM-9's EEXIST first) */
	}
	r = mm_mmap(cur_mm(), addr, len, prot, flags, (flags & MAP_ANONYMOUS) ? NULL : &mf, off);
	if ((unsigned long)r < -4095UL && !(flags & MAP_HUGETLB) &&	/* an address, not an errno */
	    ((flags & MAP_LOCKED) || ((flags & MAP_POPULATE) && !(flags & MAP_NONBLOCK))))
		/* each page faulted in counts as a minor fault, as on Linux */
		current_proc()->minflt += mm_rss_pages(cur_mm(), (unsigned long)r, (unsigned long)r + PAGE_ALIGN_UL(len));
	return r;
}

long sys_munmap(const unsigned long *a)
{
	return mm_munmap(cur_mm(), a[0], a[1]);
}

long sys_mprotect(const unsigned long *a)
{
	return mm_mprotect(cur_mm(), a[0], a[1], a[2]);
}

long sys_mremap(const unsigned long *a)
{
	return mm_mremap(cur_mm(), a[0], a[1], a[2], a[3], a[4]);
}

/* brk never fails with an errno: it returns the new break or the old one (BR-*). */
long sys_brk(const unsigned long *a)
{
	struct mm *mm = cur_mm();

	return (long)mm_brk(mm, a[0], mm->rlim_data);
}

long sys_mseal(const unsigned long *a)
{
	return mm_mseal(cur_mm(), a[0], a[1], a[2]);
}

long sys_madvise(const unsigned long *a)
{
	return mm_madvise(cur_mm(), a[0], a[1], (int)a[2]);	/* AT-1: advice is an int */
}

long sys_mlock(const unsigned long *a)
{
	return mm_mlock(cur_mm(), a[0], a[1], 0);
}

long sys_mlock2(const unsigned long *a)
{
	return mm_mlock(cur_mm(), a[0], a[1], (unsigned)a[2]);	/* flags is an int */
}

long sys_munlock(const unsigned long *a)
{
	return mm_munlock(cur_mm(), a[0], a[1]);
}

long sys_mlockall(const unsigned long *a)
{
	return mm_mlockall(cur_mm(), (unsigned)a[0]);	/* flags is an int */
}

long sys_munlockall(const unsigned long *a)
{
	(void)a;
	return mm_munlockall(cur_mm());
}

long sys_mincore(const unsigned long *a)
{
	return mm_mincore(cur_mm(), a[0], a[1], (void *)a[2]);
}

long sys_msync(const unsigned long *a)
{
	return mm_msync(cur_mm(), a[0], a[1], (int)a[2]);	/* flags is an int */
}
