/*
 * mm_ops.h - the address-space operations behind mmap, munmap, brk,
 * mremap, mprotect, madvise, mseal, mlock, mincore and msync, one file
 * each in mm/ (mmap.c holds mmap, munmap and brk; mlock.c all the lock
 * calls). They follow Linux 6.12: the order of argument
 * checks, the errno values and what is (or is not) atomic (rule numbers in
 * comments refer to the project's reference tables). kernel/sys_mm.c only
 * decodes the system-call arguments and calls these; only mm/ touches the
 * VMA tree.
 *
 * All or nothing: an operation prepares what can fail (VMA splits, the new
 * VMA, hugetlb reservations) before it changes anything, so an error leaves
 * the address space unchanged - except where Linux documents a partial
 * result (mprotect and madvise change the VMAs before the failing one;
 * mmap(MAP_FIXED) and mremap(MREMAP_FIXED) unmap their target first).
 *
 * Limits (mm/commit.h): before an operation adds pages it checks mm's
 * RLIMIT_AS and RLIMIT_DATA (mm_may_expand) and, for pages charged to the
 * commit count, the overcommit policy (vm_enough_memory); VMA splits stay
 * under vm.max_map_count. Each is -ENOMEM, as on Linux (OC-*).
 *
 * Sealing costs one flag test on each VMA an operation already visits; no
 * call walks the range a second time just to look for seals.
 */
#ifndef MM_MM_OPS_H
#define MM_MM_OPS_H

#include "mm.h"

/* What backs a file mapping, as the caller (kernel/sys_mm.c, kernel/shm.c) found it. */
struct mmap_file {
	struct vma_file *file;	/* the pages' owner (a memfd, a file of fs/, a shm segment), or NULL */
	const char *name;	/* the path /proc/<pid>/maps shows, or NULL */
	unsigned may_not;	/* VM_MAY* bits the VMA must not get (FM-1, MP-12) */
	long late_err;		/* the file's own refusal (EOVERFLOW, the map type, EACCES, ENODEV), or 0 */
};

/*
 * mmap of len bytes at addr (a hint, or exact with MAP_FIXED). mf says
 * what backs a file mapping (NULL for anonymous memory), off is its
 * offset; mf->may_not holds the VM_MAY* bits the VMA must not get
 * (VM_MAYWRITE for a shared mapping of a file open read-only, so a later
 * mprotect cannot add PROT_WRITE). mf->late_err is returned where Linux's
 * do_mmap() makes its file checks: after the length, the map count and the
 * placement (MAP_FIXED_NOREPLACE's EEXIST first, MM-9). Returns the address
 * or a negative errno.
 */
long mm_mmap(struct mm *mm, unsigned long addr, unsigned long len, unsigned long prot,
	     unsigned long flags, const struct mmap_file *mf, unsigned long off);

/*
 * MM-6: does a file mapping of len bytes at offset off reach past the
 * largest file offset (Linux's file_mmap_ok() with MAX_LFS_FILESIZE, 2^63 - 1)?
 * mmap then fails with EOVERFLOW; an anonymous MAP_HUGETLB mapping is a
 * (hugetlbfs) file mapping there too.
 */
static inline bool mm_file_range_too_big(u64 off, unsigned long len)
{
	const u64 max = ~0ull >> 1;

	return (u64)len > max || (off >> PAGE_SHIFT) > ((max - len) >> PAGE_SHIFT);
}

/*
 * Remove [start, start + len) from mm, checked as Linux's do_vmi_munmap():
 * -EINVAL for an unaligned start, a range past TASK_SIZE (or wrapping), or
 * a length 0 after rounding; -EPERM if any VMA in it is sealed; -EINVAL if
 * it would cut a hugetlb VMA off a huge-page boundary; -ENOMEM if a split
 * has no memory. Atomic: on error nothing changed.
 */
long mm_munmap(struct mm *mm, unsigned long start, unsigned long len);

/*
 * brk(want): the new break, or the old one when the move is refused (brk
 * has no errno): by data_limit (RLIMIT_DATA's soft limit over the heap,
 * ~0: none), the next mapping, mm's RLIMIT_AS/RLIMIT_DATA over all its
 * mappings, max_map_count or the commit charge (mm/commit.h).
 */
unsigned long mm_brk(struct mm *mm, unsigned long want, u64 data_limit);

/* mremap: the new address of the range, or a negative errno (mm/mremap.c). */
long mm_mremap(struct mm *mm, unsigned long old, unsigned long old_len, unsigned long new_len,
	       unsigned long flags, unsigned long new_addr);

/* mprotect: 0 or a negative errno; VMAs before a failing one keep their change. */
long mm_mprotect(struct mm *mm, unsigned long start, unsigned long len, unsigned long prot);

/* madvise: 0 or a negative errno; VMAs before a failing one keep their change. */
long mm_madvise(struct mm *mm, unsigned long start, unsigned long len, int advice);

/* mseal: 0 or a negative errno; nothing is sealed unless the whole range is mapped, and
 * VMAs before a failing one (a cut inside a huge page) stay sealed. */
long mm_mseal(struct mm *mm, unsigned long start, unsigned long len, unsigned long flags);

/*
 * mlock2 (mlock is flags 0) and munlock of the pages [start, len) touches:
 * 0, -EINVAL, -ENOMEM (a hole: VMAs before it keep their change; or
 * locked PROT_NONE memory, which cannot be populated) or -EAGAIN (locked,
 * but populating ran out of memory). mm/mlock.c.
 */
long mm_mlock(struct mm *mm, unsigned long start, unsigned long len, unsigned long flags);
long mm_munlock(struct mm *mm, unsigned long start, unsigned long len);

/* mlockall (MCL_* flags; 0 or -EINVAL) and munlockall (always 0). */
long mm_mlockall(struct mm *mm, unsigned long flags);
long mm_munlockall(struct mm *mm);

/*
 * mincore: the residency of the pages from start, one byte each (bit 0
 * set: resident), copied to the user vector vec. 0 or a negative errno
 * (mm/mincore.c).
 */
long mm_mincore(struct mm *mm, unsigned long start, unsigned long len, void *vec);

/* msync: 0 or a negative errno; nothing here has to be written back (mm/msync.c). */
long mm_msync(struct mm *mm, unsigned long start, unsigned long len, int flags);

/* ---- helpers the operations share (mm/mmap.c) ---- */

/* VMA access and may-access flags for PROT_* bits. */
unsigned mm_prot_to_vm(unsigned long prot);

/* Is any part of [start, end) mapped? */
bool mm_range_mapped(struct mm *mm, unsigned long start, unsigned long end);

/*
 * Split v so that one VMA covers exactly v's part of [start, end); returns
 * it, or NULL when a split had no memory or passed max_map_count (then v
 * is as it was: a first split is undone).
 */
struct vma *mm_isolate(struct mm *mm, struct vma *v, unsigned long start, unsigned long end);

/*
 * The cuts of a change to v's flags on v's part of [start, end) (mprotect,
 * madvise, mlock, mseal), in the order of Linux's vma_modify(): at start,
 * then at end. A cut fails with -EINVAL inside a huge page of a hugetlb VMA
 * (HT-7) and with -ENOMEM without memory or past max_map_count (OC-10).
 * When the cut at end fails with EINVAL the one at start stays, as on
 * Linux (HT-12); with ENOMEM it is undone (Linux keeps it: ours promises
 * that a failed allocation changes nothing). Returns the VMA covering
 * exactly v's part, or NULL with *err set.
 */
struct vma *mm_modify_cut(struct mm *mm, struct vma *v, unsigned long start, unsigned long end, long *err);

/*
 * Where a mapping of len bytes without MAP_FIXED goes: the page-aligned
 * hint if [hint, hint + len) is free and inside the default mmap window
 * (USER_VA_WINDOW; all of user space for a hint above the window), else the
 * highest free gap below mmap_base (raised by TASK_SIZE - USER_VA_WINDOW
 * for a hint above the window); 0 when there is none. When found and
 * next is not NULL, *next is the VMA that will follow the mapping (for
 * vma_insert_before()).
 */
unsigned long mm_choose_address(struct mm *mm, unsigned long hint, unsigned long len, struct vma **next);

#endif
