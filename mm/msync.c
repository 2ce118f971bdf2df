/*
 * msync.c - msync: the checks and the walk of Linux 6.12's msync (SY-*).
 *
 * Nothing here has a backing store to write to: anonymous memory has none,
 * and a memfd's pages are the file itself (as shmem on Linux, whose fsync
 * has nothing to do), so MS_SYNC and MS_ASYNC only check, and
 * MS_INVALIDATE only refuses locked memory. The errors are Linux's all the
 * same, in Linux's order.
 */
#include "mm_ops.h"
#include "errno.h"
#include "mman.h"

#define PAGE_ALIGN_UL(x) (((x) + PAGE_SIZE - 1) & ~(unsigned long)(PAGE_SIZE - 1))

long mm_msync(struct mm *mm, unsigned long start, unsigned long len, int flags)
{
	unsigned long end;
	long unmapped = 0;
	struct vma *v;

	if (flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC))
		return -EINVAL;	/* SY-1 */
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;	/* SY-2 */
	if ((flags & MS_ASYNC) && (flags & MS_SYNC))
		return -EINVAL;	/* SY-3 */
	end = start + PAGE_ALIGN_UL(len);
	if (end < start)
		return -ENOMEM;	/* SY-4: the range wraps */
	if (end == start)
		return 0;	/* SY-5: also when the rounding of len wrapped to 0 */
	for (v = vma_find_from(mm, start); ; v = v->next) {
		if (!v)
			return -ENOMEM;	/* SY-6: the range runs past the last VMA */
		if (start < v->start) {
			if (flags == MS_ASYNC)
				return -ENOMEM;	/* SY-7: plain MS_ASYNC stops at a hole */
			start = v->start;
			if (start >= end)
				return -ENOMEM;	/* SY-6 */
			unmapped = -ENOMEM;	/* SY-6: the walk goes on */
		}
		if ((flags & MS_INVALIDATE) && (v->flags & VM_LOCKED))
			return -EBUSY;	/* SY-8 */
		start = v->end;
		if (start >= end)
			return unmapped;
	}
}
