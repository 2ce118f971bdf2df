/*
 * mlock.c - mlock, mlock2, munlock, mlockall and munlockall: the VM_LOCKED
 * and VM_LOCKONFAULT flags on VMAs, as Linux 6.12 keeps them (ML-*).
 *
 * This kernel has no swap and no page reclaim, so a locked page is never
 * taken away anyway; what locking changes is visible all the same: a
 * locked VMA is populated at once (unless VM_LOCKONFAULT), it is counted
 * in mm->locked_vm (VmLck in /proc/PID/status, "lo" in smaps), it splits
 * and merges as flags do, MADV_DONTNEED and friends refuse it, and
 * msync(MS_INVALIDATE) answers EBUSY. mm->locked_vm is kept by vma.c's
 * page counts, so munmap, mremap and exit need no code of their own.
 *
 * RLIMIT_MEMLOCK: every process here is root, and Linux lets a process
 * with CAP_IPC_LOCK lock any amount whatever the limit (ML-6), so the limit
 * is never consulted.
 */
#include "mm_ops.h"
#include "hugetlb.h"
#include "errno.h"
#include "mman.h"

#define PAGE_ALIGN_UL(x) (((x) + PAGE_SIZE - 1) & ~(unsigned long)(PAGE_SIZE - 1))

/* ML-7: VMAs whose lock flags never change (Linux's mlock_fixup skips them): hugetlb, MAP_DROPPABLE. */
static bool never_locked(const struct vma *v)
{
	return (v->flags & (VM_HUGETLB | VM_DROPPABLE)) != 0;
}

/*
 * Fault in what a VMA of a locked range holds in [s, e), as Linux's
 * populate_vma_page_range(): a private writable VMA with write faults (so
 * copy-on-write is broken now), anything else with read faults; nothing for
 * VM_LOCKONFAULT. The VMAs mlock leaves unlocked (never_locked()) are
 * populated too, as __mm_populate() does, a hugetlb one a huge page at a
 * time. Returns -EFAULT for PROT_NONE memory (ML-8: Linux's get_user_pages
 * refuses it) and for a huge page the pool cannot give or a page past
 * its file's end (MR-23; SIGBUS there),
 * -ENOMEM when memory ran out, else 0.
 */
static long populate_locked(struct mm *mm, struct vma *v, unsigned long s, unsigned long e)
{
	bool write = (v->flags & (VM_WRITE | VM_SHARED)) == VM_WRITE;
	unsigned long step = PAGE_SIZE;

	if ((!(v->flags & VM_LOCKED) && !never_locked(v)) || (v->flags & VM_LOCKONFAULT))
		return 0;
	if (!(v->flags & VM_ACCESS))
		return -EFAULT;
	if (v->flags & VM_HUGETLB) {
		step = hugetlb_of_vma(v)->size;
		s = ALIGN_DOWN(s, step);
	}
	for (unsigned long va = s; va < e; va += step)
		if (mm_fault(mm, va, write ? FAULT_WRITE : FAULT_READ) == -ENOMEM)
			return (v->flags & VM_HUGETLB) || vma_past_file_end(v, va) ? -EFAULT : -ENOMEM;
	return 0;
}

/*
 * Give v's part [s, e) the lock flags lock (VM_LOCKED, VM_LOCKED |
 * VM_LOCKONFAULT, or 0), splitting v and merging the result. Returns the VMA
 * now holding s's part (so the caller may go on from its end), or NULL when
 * a split had no memory (v is as it was: mm_modify_cut()).
 */
static struct vma *lock_fixup(struct mm *mm, struct vma *v, unsigned long s, unsigned long e, unsigned lock)
{
	unsigned want = (v->flags & ~VM_LOCKED_MASK) | lock;
	long err;

	if (want == v->flags || never_locked(v))
		return v;
	v = mm_modify_cut(mm, v, s, e, &err);
	if (!v)
		return NULL;
	vma_set_flags(mm, v, want);
	return vma_merge_neighbours(mm, v);
}

/*
 * ML-3, ML-4: set lock on every VMA of [start, end), which must be mapped
 * without a hole; as Linux's apply_vma_lock_flags() the VMAs before a hole
 * or a failed split keep their change. 0, -ENOMEM (a hole, or a split with
 * no memory).
 */
static long apply_lock(struct mm *mm, unsigned long start, unsigned long end, unsigned lock)
{
	unsigned long pos = start;

	while (pos < end) {
		struct vma *v = vma_find_from(mm, pos);
		unsigned long e;

		if (!v || v->start > pos)
			return -ENOMEM;	/* ML-4: nothing at start, a hole, or the range runs past the last VMA */
		e = MIN(v->end, end);
		if (!lock_fixup(mm, v, pos, e, lock))
			return -ENOMEM;	/* ML-5 */
		pos = e;
	}
	return 0;
}

/*
 * Populate the locked VMAs of [start, end) (ML-8) as Linux's
 * __mm_populate(): mlock stops at the first error and returns it (errno as
 * populate_locked()); mlockall (ignore set) goes on with the next VMA.
 */
static long populate_range(struct mm *mm, unsigned long start, unsigned long end, bool ignore)
{
	unsigned long pos = start;
	long err;

	for (struct vma *v = vma_find_from(mm, start); v && v->start < end; v = vma_find_from(mm, pos)) {
		unsigned long s = MAX(v->start, pos);

		pos = MIN(v->end, end);
		err = populate_locked(mm, v, s, pos);
		if (err && !ignore)
			return err;
		if (pos >= end)
			break;
	}
	return 0;
}

long mm_mlock(struct mm *mm, unsigned long start, unsigned long len, unsigned long flags)
{
	unsigned long end;
	long err;

	if (flags & ~(unsigned long)MLOCK_ONFAULT)
		return -EINVAL;	/* ML-1 (mlock2) */
	/* ML-2: start rounds down, the length covers every page it touches */
	len = PAGE_ALIGN_UL(len + (start & (PAGE_SIZE - 1)));
	start &= ~(unsigned long)(PAGE_SIZE - 1);
	end = start + len;
	if (end < start)
		return -EINVAL;	/* ML-3: wraps (or the rounding did) */
	if (end == start)
		return 0;	/* ML-3 */
	err = apply_lock(mm, start, end, VM_LOCKED | ((flags & MLOCK_ONFAULT) ? VM_LOCKONFAULT : 0));
	if (err)
		return err;
	err = populate_range(mm, start, end, false);
	/* ML-8: the lock stays; Linux's mlock turns EFAULT into ENOMEM, ENOMEM into EAGAIN */
	return err == -EFAULT ? -ENOMEM : err == -ENOMEM ? -EAGAIN : 0;
}

long mm_munlock(struct mm *mm, unsigned long start, unsigned long len)
{
	unsigned long end;

	len = PAGE_ALIGN_UL(len + (start & (PAGE_SIZE - 1)));	/* ML-2 */
	start &= ~(unsigned long)(PAGE_SIZE - 1);
	end = start + len;
	if (end < start)
		return -EINVAL;	/* ML-3 */
	if (end == start)
		return 0;
	return apply_lock(mm, start, end, 0);
}

long mm_mlockall(struct mm *mm, unsigned long flags)
{
	unsigned lock = 0;

	if (!flags || (flags & ~(unsigned long)(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) || flags == MCL_ONFAULT)
		return -EINVAL;	/* ML-10 */
	mm->def_flags = 0;
	if (flags & MCL_FUTURE)	/* ML-11 */
		mm->def_flags = VM_LOCKED | ((flags & MCL_ONFAULT) ? VM_LOCKONFAULT : 0);
	if (!(flags & MCL_CURRENT))
		return 0;
	lock = VM_LOCKED | ((flags & MCL_ONFAULT) ? VM_LOCKONFAULT : 0);
	/* ML-12: split failures are ignored (whole VMAs are changed: none splits) */
	for (struct vma *v = mm->vmas; v;) {
		unsigned long end = v->end;

		lock_fixup(mm, v, v->start, v->end, lock);
		v = vma_find_from(mm, end);
	}
	populate_range(mm, 0, ~0UL, true);	/* ML-12: errors ignored */
	return 0;
}

long mm_munlockall(struct mm *mm)
{
	mm->def_flags = 0;	/* ML-13 */
	for (struct vma *v = mm->vmas; v;) {
		unsigned long end = v->end;

		lock_fixup(mm, v, v->start, v->end, 0);
		v = vma_find_from(mm, end);
	}
	return 0;
}
