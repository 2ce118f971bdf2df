/*
 * madvise.c - madvise: the advices Linux 6.12 knows, applied VMA by VMA
 * over the mapped parts of the range. As on Linux it is not atomic: VMAs
 * before a failing one keep the advice, and holes in the range give ENOMEM
 * after the walk (MA-4).
 */
#include "mm_ops.h"
#include "hugetlb.h"
#include "thp.h"
#include "errno.h"
#include "mman.h"

#define PAGE_ALIGN_UL(x) (((x) + PAGE_SIZE - 1) & ~(unsigned long)(PAGE_SIZE - 1))


static bool advice_known(int adv)
{
	return adv < 0 ? false : adv <= MADV_COLLAPSE ? adv != 5 && adv != 6 && adv != 7 : adv == MADV_GUARD_INSTALL ||
	       adv == MADV_GUARD_REMOVE;
}

/* MS-27: the advices that discard data. */
static bool advice_discards(int adv)
{
	return adv == MADV_FREE || adv == MADV_DONTNEED || adv == MADV_DONTNEED_LOCKED ||
	       adv == MADV_REMOVE || adv == MADV_DONTFORK || adv == MADV_WIPEONFORK ||
	       adv == MADV_GUARD_INSTALL;
}

/*
 * Set or clear flag bits on v's part of [start, end), splitting and
 * merging. Only a change splits (as Linux's madvise_update_vma()), so an
 * advice that changes nothing is fine on any part of a hugetlb VMA; one
 * that would split it off a huge-page boundary is EINVAL (HT-9).
 */
static long set_vma_flags(struct mm *mm, struct vma *v, unsigned long start, unsigned long end,
			  unsigned set, unsigned clear)
{
	unsigned want = (v->flags | set) & ~clear;
	long err;

	if (want == v->flags)
		return 0;
	v = mm_modify_cut(mm, v, start, end, &err);
	if (!v)
		return err == -ENOMEM ? -EAGAIN : err;	/* MA-5; HT-7, HT-12 */
	vma_set_flags(mm, v, want);
	vma_merge_neighbours(mm, v);
	return 0;
}

/*
 * HT-9: what an advice does to a hugetlb VMA (a hugetlbfs file mapping on
 * Linux): 0 (done), a negative errno, or 1 (go on as for any VMA: the flag
 * advices split only when they change something, the hints do nothing).
 */
static long advise_hugetlb(struct mm *mm, struct vma *v, unsigned long s, unsigned long e, int adv)
{
	u64 hs = hugetlb_of_vma(v)->size;

	switch (adv) {
	case MADV_FREE:
	case MADV_GUARD_INSTALL:
	case MADV_GUARD_REMOVE:
	case MADV_COLD:
	case MADV_PAGEOUT:
	case MADV_COLLAPSE:
	case MADV_WIPEONFORK:	/* a file mapping (MA-10) */
		return -EINVAL;
	case MADV_DONTNEED:
	case MADV_DONTNEED_LOCKED:
		if (!IS_ALIGNED(s, hs))
			return -EINVAL;
		if (ALIGN_DOWN(e, hs) > s)
			mm_zap_range(mm, s, ALIGN_DOWN(e, hs), false);
		return 0;
	case MADV_REMOVE:
		/* MA-9: a hole punched in the file: the whole huge pages inside go,
		 * the parts of the huge pages at either end read as zero */
		if (!(v->flags & VM_SHARED))
			return -EACCES;
		if (ALIGN_DOWN(e, hs) > ALIGN_UP(s, hs))
			mm_zap_range(mm, ALIGN_UP(s, hs), ALIGN_DOWN(e, hs), false);
		hugetlb_punch(v, s, e);	/* the file's pages and reservation go, partial ones are zeroed */
		return 0;
	default:
		return 1;
	}
}

/*
 * MA-9: MADV_REMOVE of v's part [s, e), as Linux's madvise_remove(): a
 * hole punched in the file. Private anonymous memory has none (EINVAL); a
 * file mapping must be shared and may-write (EACCES), and the file must
 * punch: a memfd (MD-7), a SysV segment or a file of fs/ (tmpfs on Linux;
 * a file without the op: EINVAL). Shared anonymous memory is a memfd
 * of its own here, as shmem on Linux (mm_mmap()), so it punches too: the
 * pages leave the object and every mapping of it.
 */
static long advise_remove(struct vma *v, unsigned long s, unsigned long e)
{
	u64 off;

	if (!v->file)
		return -EINVAL;
	if ((v->flags & (VM_SHARED | VM_MAYWRITE)) != (VM_SHARED | VM_MAYWRITE))
		return -EACCES;
	if (!v->file->ops->punch)
		return -EINVAL;
	off = vma_offset_at(v, s);
	v->file->ops->punch(v->file, off, off + (e - s));
	return 0;
}

/* The advices that drop pages: DONTNEED (MA-6), FREE, REMOVE (MA-9). */
static long advise_discard(struct mm *mm, struct vma *v, unsigned long s, unsigned long e, int adv)
{
	switch (adv) {
	case MADV_DONTNEED:
	case MADV_DONTNEED_LOCKED:
		break;	/* MA-6: a shared mapping refills from its file (shmem too) */
	case MADV_FREE:
		if ((v->flags & VM_SHARED) || v->file)
			return -EINVAL;	/* MA-7: private anonymous memory only */
		break;	/* freed at once: reads back as zero */
	default:	/* MADV_REMOVE */
		return advise_remove(v, s, e);
	}
	mm_zap_range(mm, s, e, false);
	return 0;
}

/*
 * MA-13: MADV_COLLAPSE of v's part [s, e): each whole aligned huge block
 * in it becomes one transparent huge page. EINVAL when v cannot have one
 * (shared, file or hugetlb memory, MADV_NOHUGEPAGE, too small, never
 * written: no anon identity), when the
 * part ends before its first whole block begins, or when a block has no
 * writable page; ENOMEM when a huge page or its table cannot be had.
 */
static long advise_collapse(struct mm *mm, struct vma *v, unsigned long s, unsigned long e)
{
	u64 size = pt_level_size(PT_LAST_LEVEL - 1);
	unsigned long hs = ALIGN_UP(s, size), he = ALIGN_DOWN(e, size);
	long last = 0;

	if (!thp_collapse_allowed(v) || !v->anon)
		return -EINVAL;	/* Linux's thp_vma_allowable_order() also wants an anon_vma (MF-7) */
	if (hs < s || hs > he)
		return -EINVAL;	/* no whole block, and the part runs past none (Linux's count goes negative) */
	for (unsigned long b = hs; b < he; b += size) {
		int r = thp_collapse(mm, v, b);

		if (r < 0)
			return r;	/* ENOMEM ends the walk */
		if (r)
			last = -EINVAL;	/* nothing to collapse here: the others are still tried */
	}
	return last;
}

/* Apply one advice to v's part [s, e) of the range. */
static long advise_vma(struct mm *mm, struct vma *v, unsigned long s, unsigned long e, int adv)
{
	/* LAB mseal: begin; stub: (void)advice_discards; */
	if ((v->flags & VM_SEALED) && advice_discards(adv) && !(v->flags & VM_WRITE) &&
	    !(v->flags & VM_SHARED) && !v->name)
		return -EPERM;	/* MS-26: discarding sealed read-only anonymous memory */
	/* LAB mseal: end */
	if ((v->flags & VM_LOCKED) && (adv == MADV_DONTNEED || adv == MADV_FREE || adv == MADV_REMOVE ||
				       adv == MADV_GUARD_INSTALL || adv == MADV_COLD || adv == MADV_PAGEOUT))
		return -EINVAL;	/* ML-20: locked memory is not discarded (DONTNEED_LOCKED is) nor aged */
	if (v->flags & VM_HUGETLB) {
		long r = advise_hugetlb(mm, v, s, e, adv);

		if (r != 1)
			return r;
	}
	switch (adv) {
	case MADV_DONTNEED:
	case MADV_DONTNEED_LOCKED:
	case MADV_FREE:
	case MADV_REMOVE:
		return advise_discard(mm, v, s, e, adv);
	case MADV_DONTFORK:
		return set_vma_flags(mm, v, s, e, VM_DONTFORK, 0);
	case MADV_DOFORK:
		return set_vma_flags(mm, v, s, e, 0, VM_DONTFORK);
	case MADV_WIPEONFORK:
		if (v->flags & VM_SHARED || v->name)
			return -EINVAL;	/* MA-10 */
		return set_vma_flags(mm, v, s, e, VM_WIPEONFORK, 0);
	case MADV_KEEPONFORK:
		if (v->flags & VM_DROPPABLE)
			return -EINVAL;	/* MA-12: droppable memory is always wiped on fork */
		return set_vma_flags(mm, v, s, e, 0, VM_WIPEONFORK);
	case MADV_NORMAL:
		return set_vma_flags(mm, v, s, e, 0, VM_RAND_READ | VM_SEQ_READ);
	case MADV_RANDOM:
		return set_vma_flags(mm, v, s, e, VM_RAND_READ, VM_SEQ_READ);
	case MADV_SEQUENTIAL:
		return set_vma_flags(mm, v, s, e, VM_SEQ_READ, VM_RAND_READ);
	case MADV_DONTDUMP:
		return set_vma_flags(mm, v, s, e, VM_DONTDUMP, 0);
	case MADV_DODUMP:
		if (v->flags & VM_DROPPABLE)
			return -EINVAL;	/* MA-12: nor dumped */
		return set_vma_flags(mm, v, s, e, 0, VM_DONTDUMP);
	case MADV_HUGEPAGE:
		return set_vma_flags(mm, v, s, e, VM_HUGEPAGE, VM_NOHUGEPAGE);
	case MADV_NOHUGEPAGE:
		return set_vma_flags(mm, v, s, e, VM_NOHUGEPAGE, VM_HUGEPAGE);
	case MADV_MERGEABLE:	/* MA-12: Linux's ksm_madvise() ignores it on shared memory */
		if (v->flags & (VM_SHARED | VM_HUGETLB | VM_DROPPABLE))
			return 0;
		return set_vma_flags(mm, v, s, e, VM_MERGEABLE, 0);
	case MADV_UNMERGEABLE:
		return set_vma_flags(mm, v, s, e, 0, VM_MERGEABLE);
	case MADV_COLLAPSE:
		return advise_collapse(mm, v, s, e);
	case MADV_PAGEOUT:
		/* MA-14: without swap only droppable memory is reclaimed, and
		 * Linux's reclaim discards it, dirty or not: it reads as zero */
		if (v->flags & VM_DROPPABLE)
			mm_zap_range(mm, s, e, false);
		return 0;
	case MADV_GUARD_INSTALL:
		return mm_guard_install(mm, s, e);
	case MADV_GUARD_REMOVE:
		mm_guard_remove(mm, s, e);
		return 0;
	default:	/* hints with no effect here */
		return 0;
	}
}

/*
 * MA-11: MADV_POPULATE_READ/WRITE fault in [start, end) as a user access
 * would, VMA by VMA, and stop at the first problem (no walk past a hole,
 * unlike MA-4): ENOMEM at a hole or out of memory, EINVAL at a VMA that
 * forbids the access (a read needs VM_READ, a write VM_WRITE: PROT_EXEC
 * alone is not readable here), EFAULT where the fault would be a signal
 * (a guard page; a huge page the pool cannot give, a page past its
 * file's end: SIGBUS). The pages
 * before the problem stay populated.
 */
static long advise_populate(struct mm *mm, unsigned long start, unsigned long end, bool write)
{
	unsigned long va = start;

	while (va < end) {
		struct vma *v = vma_find(mm, va);
		unsigned long stop;

		if (!v)
			return -ENOMEM;
		if (!(v->flags & (write ? VM_WRITE : VM_READ)))
			return -EINVAL;
		stop = MIN(v->end, end);
		for (; va < stop; va += PAGE_SIZE) {
			int r = mm_fault(mm, va, write ? FAULT_WRITE : FAULT_READ);

			if (r == -SEGV_ACCERR)
				continue;	/* the VMA allows it, so the entry already does */
			if (r == -ENOMEM && (v->flags & VM_HUGETLB) && !hugetlb_fault_can_take(v, va))
				return -EFAULT;	/* the pool is dry: SIGBUS for a user access */
			if (r == -ENOMEM && vma_past_file_end(v, va))
				return -EFAULT;	/* MR-23: past the file's end: SIGBUS */
			if (r)
				return r == -ENOMEM ? -ENOMEM : -EFAULT;	/* -SEGV_MAPERR: a guard page */
		}
	}
	return 0;
}

long mm_madvise(struct mm *mm, unsigned long start, unsigned long len, int adv)
{
	unsigned long end, pos;
	long err = 0, unmapped = 0;

	if (!advice_known(adv))
		return -EINVAL;	/* MA-1 */
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;	/* MA-2 */
	if (PAGE_ALIGN_UL(len) < len)
		return -EINVAL;	/* EW-3: the rounding wrapped */
	end = start + PAGE_ALIGN_UL(len);
	if (end < start)
		return -EINVAL;	/* EW-3: the range wraps */
	if (end == start)
		return 0;	/* MA-3 */
	if (adv == MADV_POPULATE_READ || adv == MADV_POPULATE_WRITE)
		return advise_populate(mm, start, end, adv == MADV_POPULATE_WRITE);
	pos = start;
	for (struct vma *v = vma_find_from(mm, start); v && v->start < end; v = vma_find_from(mm, pos)) {
		unsigned long s = MAX(v->start, pos), e = MIN(v->end, end);

		if (v->start > pos)
			unmapped = -ENOMEM;	/* MA-4: the walk goes on */
		pos = e;
		err = advise_vma(mm, v, s, e, adv);
		if (err)
			return err;
		if (pos >= end)
			break;
	}
	if (pos < end)
		unmapped = -ENOMEM;
	return unmapped;
}
