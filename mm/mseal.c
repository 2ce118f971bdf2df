/*
 * mseal.c - mseal: seal every VMA of a range, so that munmap, mremap,
 * mmap(MAP_FIXED) over it, mprotect and the discarding advices on
 * read-only anonymous memory are refused with EPERM (each of those checks
 * VM_SEALED on the VMAs it visits). Linux offers mseal only on 64-bit
 * kernels; this kernel offers it on MicroBlaze too.
 */
#include "mm_ops.h"
#include "errno.h"

#define PAGE_ALIGN_UL(x) (((x) + PAGE_SIZE - 1) & ~(unsigned long)(PAGE_SIZE - 1))

/* LAB mseal: begin */
/* MS-7: is all of [start, end) mapped (no hole)? */
static bool range_fully_mapped(struct mm *mm, unsigned long start, unsigned long end)
{
	struct vma *v = vma_find(mm, start);

	for (struct vma *w = v; ; w = w->next) {
		if (!w || w->start > (w == v ? start : w->prev->end))
			return false;
		if (w->end >= end)
			return true;
	}
}
/* LAB mseal: end */

long mm_mseal(struct mm *mm, unsigned long start, unsigned long len, unsigned long flags)
{
	/* LAB mseal: begin; stub: (void)mm; (void)start; (void)len; (void)flags; return -ENOSYS; */
	unsigned long end;
	struct vma *v;
	long err;

	if (flags)
		return -EINVAL;	/* MS-1: unsigned long in Linux, every bit counts */
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;	/* MS-2 */
	if (len && PAGE_ALIGN_UL(len) == 0)
		return -EINVAL;	/* MS-3 */
	end = start + PAGE_ALIGN_UL(len);
	if (end < start)
		return -EINVAL;	/* MS-4; EW-4 */
	if (end == start)
		return 0;	/* MS-5 */
	if (!range_fully_mapped(mm, start, end))
		return -ENOMEM;	/* MS-7: nothing is sealed */
	for (v = vma_find(mm, start); v && v->start < end;) {
		unsigned long next_start = v->end;

		if (!(v->flags & VM_SEALED)) {
			/* HT-7, HT-12, MS-11: a cut inside a huge page (EINVAL) or
			 * without memory (ENOMEM) fails where Linux's apply_mm_seal()
			 * meets it, so the VMAs before it stay sealed */
			v = mm_modify_cut(mm, v, start, end, &err);
			if (!v)
				return err;
			v->flags |= VM_SEALED;
			vma_merge_neighbours(mm, v);
		}
		v = vma_find_from(mm, next_start);
	}
	return 0;
	/* LAB mseal: end */
}
