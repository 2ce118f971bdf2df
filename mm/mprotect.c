/*
 * mprotect.c - mprotect: change the access of whole pages, splitting VMAs
 * at the ends of the range and merging the result with its neighbours.
 * As on Linux it is not atomic across VMAs: VMAs before a failing one keep
 * their new protection (MP-10).
 */
#include "mm_ops.h"
#include "commit.h"
#include "errno.h"
#include "mman.h"

#define PAGE_ALIGN_UL(x) (((x) + PAGE_SIZE - 1) & ~(unsigned long)(PAGE_SIZE - 1))

/*
 * MP-1..MP-9: the checks before any VMA changes, in Linux's order. Returns
 * 1 when there is nothing to do (MP-3: len 0), 0 with the range to change
 * in *startp (moved down for PROT_GROWSDOWN), *endp and its first VMA in
 * *vp, or a negative errno.
 */
static long mprotect_check(struct mm *mm, unsigned long *startp, unsigned long len, unsigned long prot,
			   unsigned long *endp, struct vma **vp)
{
	unsigned long start = *startp, end;
	struct vma *v;

	if ((prot & PROT_GROWSDOWN) && (prot & PROT_GROWSUP))
		return -EINVAL;	/* MP-1 */
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;	/* MP-2 */
	if (!len)
		return 1;	/* MP-3 */
	len = PAGE_ALIGN_UL(len);
	end = start + len;
	if (end <= start)
		return -ENOMEM;	/* MP-4; EW-2: a range that wraps or rounds to 0 */
	if ((prot & ~(unsigned long)(PROT_GROWSDOWN | PROT_GROWSUP)) &
	    ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC | PROT_SEM | (arch_has_bti() ? PROT_BTI : 0)))
		return -EINVAL;	/* MP-5 */
	v = vma_find_from(mm, start);
	if (!v || v->start >= end)
		return -ENOMEM;	/* MP-8 */
	if (prot & PROT_GROWSDOWN) {
		if (!(v->flags & VM_GROWSDOWN))
			return -EINVAL;	/* MP-9a */
		start = v->start;
	} else if (v->start > start) {
		return -ENOMEM;	/* MP-9b */
	}
	if (prot & PROT_GROWSUP)
		return -EINVAL;	/* MP-9c: no VMA grows up */
	*startp = start;
	*endp = end;
	*vp = v;
	return 0;
}

/*
 * OC-5, OC-20, OC-21: the charge of pages of v taking *flags, as Linux's
 * mprotect_fixup(). Made writable: refused (-ENOMEM) when they become
 * data beyond RLIMIT_DATA (or pass RLIMIT_AS) and were not before; a
 * private mapping not charged yet is charged now (VM_ACCOUNT added to
 * *flags), unless it is MAP_NORESERVE or hugetlb. Made read-only: a
 * private anonymous VMA that was never written (no anon identity yet,
 * as Linux's anon_vma: MF-7) gives its charge back; any other keeps it.
 */
static long mprotect_charge(struct mm *mm, const struct vma *v, unsigned *flags, unsigned long pages)
{
	if (!(*flags & VM_WRITE)) {
		if ((v->flags & VM_ACCOUNT) && !v->name && !v->file && !(v->flags & VM_SHARED) && !v->anon)
			*flags &= ~VM_ACCOUNT;
		return 0;
	}
	if (!mm_may_expand(mm, *flags, pages) && mm_may_expand(mm, v->flags, pages))
		return -ENOMEM;
	if (!(v->flags & (VM_ACCOUNT | VM_WRITE | VM_HUGETLB | VM_SHARED | VM_NORESERVE))) {
		if (vm_enough_memory(mm, pages))
			return -ENOMEM;
		*flags |= VM_ACCOUNT;
	}
	return 0;
}

long mm_mprotect(struct mm *mm, unsigned long start, unsigned long len, unsigned long prot)
{
	unsigned long end, tmp;
	unsigned newbits = mm_prot_to_vm(prot);
	struct vma *v;
	long err;

	err = mprotect_check(mm, &start, len, prot, &end, &v);
	if (err)
		return err < 0 ? err : 0;
	for (tmp = start; v && v->start < end; v = vma_find_from(mm, tmp)) {
		if (v->start > tmp)
			return -ENOMEM;	/* MP-10: earlier VMAs keep their change */
		if ((newbits & ~(v->flags >> 4)) & VM_ACCESS)
			return -EACCES;	/* MP-12: VM_MAY* missing */
		/* LAB mseal: begin */
		if (v->flags & VM_SEALED)
			return -EPERM;	/* MS-25 / MF-1, before the "unchanged" shortcut */
		/* LAB mseal: end */
		tmp = MIN(v->end, end);
		if ((v->flags & (VM_ACCESS | VM_BTI)) != newbits) {
			unsigned flags = (v->flags & ~(VM_ACCESS | VM_BTI)) | newbits;
			unsigned long s = MAX(v->start, start);
			bool populate = (v->flags & (VM_WRITE | VM_SHARED | VM_LOCKED_MASK)) == VM_LOCKED &&
					(flags & VM_WRITE);

			/* as Linux's mprotect_fixup(): only a change cuts, and the
			 * charge comes before the cuts (HT-7, HT-12) */
			err = mprotect_charge(mm, v, &flags, (tmp - MAX(v->start, start)) >> PAGE_SHIFT);
			if (err)
				return err;
			v = mm_modify_cut(mm, v, start, end, &err);
			if (!v)
				return err;
			vma_set_flags(mm, v, flags);
			mm_change_protection(mm, v, v->start, v->end);
			vma_merge_neighbours(mm, v);
			/* MF-8: a locked private VMA made writable is populated
			 * with write faults now, as Linux's mprotect_fixup() does
			 * after the merge: the piece gets its anon identity */
			if (populate)
				mm_populate(mm, s, tmp, true);
		}
		if (tmp >= end)
			return 0;
	}
	return tmp < end ? -ENOMEM : 0;	/* MP-17 */
}
