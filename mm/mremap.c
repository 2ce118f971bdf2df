/*
 * mremap.c - mremap: the checks in Linux 6.12's order (mremap_check), then
 * one of shrink in place, grow in place, or move (to a place the kernel
 * picks, or new_addr with MREMAP_FIXED, keeping the old range with
 * MREMAP_DONTUNMAP); old_len 0 on shared memory duplicates the mapping.
 * Hugetlb mappings have their own path (mremap_hugetlb). The entries move,
 * not the pages (mm_move_entries).
 */
#include "mm_ops.h"
#include "hugetlb.h"
#include "commit.h"
#include "errno.h"
#include "mman.h"
#include <asm/memlayout.h>

#define TASK_SIZE	USER_VA_END
#define PAGE_ALIGN_UL(x) (((x) + PAGE_SIZE - 1) & ~(unsigned long)(PAGE_SIZE - 1))

/*
 * The offset of a VMA at to that takes over v's range at old: a file VMA
 * keeps mapping the same file pages; an anonymous one keeps the identity
 * (Linux's page offset) it had at old, so it does not merge with the
 * neighbours at its new place (MR-20, see struct vma). A private one never
 * written is as if made there (Linux's copy_vma()).
 */
static u64 moved_offset(const struct vma *v, unsigned long old, unsigned long to)
{
	u64 off = vma_offset_at(v, old);

	if (v->name || v->file)
		return off;
	if (!(v->flags & VM_SHARED) && !v->anon)
		return 0;
	return off + old - to;
}

/* The VMA nv taking over v's pages: the same file and anon identity (Linux's copy_vma()). */
static void moved_from(struct vma *nv, const struct vma *v)
{
	nv->file = vma_file_get(v->file);	/* memfd support */
	vma_anon_copy(nv, v);
}

/*
 * MR-12: old_len 0 on a shared mapping duplicates it: a new VMA at
 * [to, to + len) mapping the same file as v from old on (shared
 * anonymous memory has one too: mm_mmap()), so past the file's end an
 * access raises SIGBUS (MR-23). Returns to, or -ENOMEM with nothing
 * changed.
 */
static long duplicate_vma(struct mm *mm, struct vma *v, unsigned long old, unsigned long to, unsigned long len)
{
	/* OC-6: the shared object was charged once, when it was made */
	struct vma *nv = vma_insert(mm, to, to + len, v->flags & ~VM_ACCOUNT, v->name, moved_offset(v, old, to));

	if (!nv)
		return -ENOMEM;
	nv->file = vma_file_get(v->file);	/* the file has the pages */
	vma_merge_neighbours(mm, nv);
	return (long)to;
}

/*
 * Move [old, old + old_len) of v to a new VMA [to, to + new_len), or
 * duplicate it when old_len is 0. The new VMA and the split of v are made
 * first; a move that runs out of table pages half-way is moved back
 * (MR-21: the tables it came from are still there, so that cannot fail).
 * Without dontunmap the old range goes; with it v stays, cut at the range
 * only when it is locked (the range alone is unlocked, MR-20, ML-17).
 * Returns to or a negative errno.
 */
static long mremap_move(struct mm *mm, struct vma *v, unsigned long old, unsigned long old_len,
			unsigned long to, unsigned long new_len, bool dontunmap)
{
	struct vma *nv;
	long err;
	bool cut;
	unsigned long charge = dontunmap ? new_len : new_len > old_len ? new_len - old_len : 0;

	if ((u64)mm->nvmas + 3 >= sysctl_max_map_count)
		return -ENOMEM;	/* OC-12: as Linux's move_vma() */
	if (old_len && (v->flags & VM_ACCOUNT) && charge && vm_enough_memory(mm, charge >> PAGE_SHIFT))
		return -ENOMEM;	/* OC-6: the growth, or all of a DONTUNMAP copy */
	if (!old_len)
		return duplicate_vma(mm, v, old, to, new_len);
	nv = vma_prepare();
	if (!nv)
		return -ENOMEM;
	/* MR-20: a DONTUNMAP source is cut only to unlock the moved range */
	cut = !dontunmap || (v->flags & VM_LOCKED_MASK);
	if (cut && !(v = mm_isolate(mm, v, old, old + old_len))) {
		vma_unprepare(nv);
		return -ENOMEM;
	}
	nv = vma_insert_prepared(mm, nv, to, to + new_len, v->flags, v->name, moved_offset(v, old, to));
	moved_from(nv, v);
	/* MR-20: a shared VMA's pages stay in its file too (shared anonymous
	 * memory's included), so a DONTUNMAP source still reads them */
	err = mm_move_entries(mm, old, to, old_len);
	if (err) {
		mm_move_entries(mm, to, old, old_len);	/* MR-21: undo */
		vma_remove(mm, nv);
		if (cut)
			vma_merge_neighbours(mm, v);	/* undo the isolation */
		return err;
	}
	if (!dontunmap) {
		mm_zap_range(mm, v->start, v->end, true);	/* the entries have moved: a no-op walk */
		vma_remove(mm, v);
		vma_merge_neighbours(mm, nv);	/* now: a never-written one may continue what v was cut from */
		return (long)to;
	}
	/* MR-20: Linux 6.12 merges the copy with alike neighbours but never
	 * with v, and tries no merge for v at all: both of v's ends stay as
	 * they are until a neighbour changes (kept_cut lets the checker
	 * accept them) */
	vma_merge_neighbours_except(mm, nv, v);
	if (cut)
		vma_set_flags(mm, v, v->flags & ~VM_LOCKED_MASK);	/* ML-17: the moved range is no longer locked */
	v->kept_cut = true;
	if (v->next)
		v->next->kept_cut = true;
	if (v->start == old && v->end == old + old_len) {
		v->anon = 0;	/* all its pages are gone: Linux unlinks its anon_vma (MF-7) */
		v->anon_inherited = false;
	}
	return (long)to;
}

/*
 * The move of mremap_hugetlb: [old, old + len) of v (all of it inside v)
 * goes to the free range at new_addr. The new VMA is allocated before v
 * is cut, and a failure puts v back whole (MR-21): as on Linux, whose
 * old VMA is only split by the final unmap, an error leaves it as it was.
 */
static long hugetlb_move_range(struct mm *mm, struct vma *v, unsigned long old, unsigned long len,
			       unsigned long new_addr)
{
	struct vma *nv = vma_prepare();
	bool cut_lo = v->start < old, cut_hi = v->end > old + len;
	long err;

	if (!nv)
		return -ENOMEM;
	if (!(v = mm_isolate(mm, v, old, old + len))) {
		vma_unprepare(nv);
		return -ENOMEM;
	}
	vma_insert_prepared(mm, nv, new_addr, new_addr + len, v->flags, v->name, v->file ? v->offset : 0);
	nv->file = vma_file_get(v->file);	/* a shared mapping's file: its pages stay there */
	err = hugetlb_move(mm, v, old, new_addr, len);
	if (err) {
		hugetlb_move(mm, nv, new_addr, old, len);	/* MR-21: undo */
		vma_remove(mm, nv);
		if (cut_hi)
			vma_unsplit(mm, v);
		if (cut_lo)
			vma_unsplit(mm, v->prev);
		return err;
	}
	v->flags &= ~VM_HUGE_RESV;	/* the reservation went with the entries */
	err = mm_munmap(mm, old, len);
	return err ? err : (long)new_addr;
}

/*
 * MR-7/HT-8: a hugetlb mapping shrinks in place or moves to new_addr
 * (huge-aligned), shrinking first if new_len < old_len; it never grows.
 * The entries move, not the pages, with the reservation of unfaulted pages.
 */
static long mremap_hugetlb(struct mm *mm, struct vma *v, unsigned long old, unsigned long old_len,
			   unsigned long new_len, unsigned long flags, unsigned long new_addr)
{
	u64 hs = hugetlb_of_vma(v)->size;
	bool to_new = flags & (MREMAP_FIXED | MREMAP_DONTUNMAP);
	long err;

	if (!IS_ALIGNED(old, hs) || !IS_ALIGNED(new_addr, hs))
		return -EINVAL;	/* Linux checks new_addr even when it is not used */
	old_len = ALIGN_UP(old_len, hs);
	new_len = ALIGN_UP(new_len, hs);
	if (new_len > old_len)
		return -EINVAL;
	if (!to_new) {
		err = new_len == old_len ? 0 : mm_munmap(mm, old + new_len, old_len - new_len);
		return err ? err : (long)old;
	}
	/* Linux's mremap_to() order: the new range's checks, its unmap, the
	 * old range's cut, and only then the VMA's own checks, so a refused
	 * DONTUNMAP has already unmapped a MREMAP_FIXED destination */
	if (new_len > TASK_SIZE || new_addr > TASK_SIZE - new_len)
		return -EINVAL;	/* MR-8 */
	if (new_addr < old + old_len && old < new_addr + new_len)
		return -EINVAL;	/* MR-8: overlap */
	if ((u64)mm->nvmas + 2 + 3 >= sysctl_max_map_count)
		return -ENOMEM;	/* OC-12 */
	err = (flags & MREMAP_FIXED) ? mm_munmap(mm, new_addr, new_len) : 0;	/* MR-9 */
	if (!err && old_len > new_len)
		err = mm_munmap(mm, old + new_len, old_len - new_len);
	if (err)
		return err;
	v = vma_find(mm, old);
	if (!v)
		return -EFAULT;
	if (flags & MREMAP_DONTUNMAP)
		return -EINVAL;	/* MR-13: hugetlb mappings are VM_DONTEXPAND */
	if (new_len > v->end - old)
		return -EFAULT;	/* MR-14 */
	return hugetlb_move_range(mm, v, old, new_len, new_addr);
}

/*
 * MR-1..MR-6: the checks before the VMA is looked at, then the VMA at old
 * (*vp) and its seal. Lengths come back page-aligned. 0 or a negative errno.
 */
static long mremap_check(struct mm *mm, unsigned long old, unsigned long *old_len, unsigned long *new_len,
			 unsigned long flags, struct vma **vp)
{
	if (flags & ~(unsigned long)(MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP))
		return -EINVAL;	/* MR-1 */
	if (old & (PAGE_SIZE - 1))
		return -EINVAL;	/* MR-2 */
	if (PAGE_ALIGN_UL(*new_len) == 0)
		return -EINVAL;	/* MR-3 */
	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP)) {	/* MR-4 (new_addr's alignment: mremap_to) */
		if (!(flags & MREMAP_MAYMOVE))
			return -EINVAL;
		if ((flags & MREMAP_DONTUNMAP) && *old_len != *new_len)
			return -EINVAL;
	}
	*old_len = PAGE_ALIGN_UL(*old_len);
	*new_len = PAGE_ALIGN_UL(*new_len);
	*vp = vma_find(mm, old);
	if (!*vp)
		return -EFAULT;	/* MR-5 */
	/* LAB mseal: begin */
	if ((*vp)->flags & VM_SEALED)
		return -EPERM;	/* MR-6 / MS-23 */
	/* LAB mseal: end */
	return 0;
}

/* MR-12, MR-14: the old range as a source to resize or move. 0 or a negative errno. */
static long mremap_source(const struct vma *v, unsigned long old, unsigned long old_len)
{
	if (old_len == 0 && !(v->flags & VM_SHARED))
		return -EINVAL;	/* MR-12: only shared memory can be duplicated */
	if (old_len > v->end - old)
		return -EFAULT;	/* MR-14: the range must lie in one VMA */
	return 0;
}

/*
 * MREMAP_FIXED or MREMAP_DONTUNMAP: the new range is checked, with FIXED
 * cleared (MR-9), the old one cut to new_len (MR-10), then the move.
 */
static long mremap_to(struct mm *mm, struct vma *v, unsigned long old, unsigned long old_len,
		      unsigned long new_len, unsigned long flags, unsigned long new_addr)
{
	long err;

	if (new_addr & (PAGE_SIZE - 1))
		return -EINVAL;	/* MR-4: after the lookup of old (MR-5, MR-6), as in Linux */
	if (new_len > TASK_SIZE || new_addr > TASK_SIZE - new_len)
		return -EINVAL;	/* MR-8 */
	if (new_addr < old + old_len && old < new_addr + new_len)
		return -EINVAL;	/* MR-8: overlap with the old range as given (old_len) */
	if ((u64)mm->nvmas + 2 + 3 >= sysctl_max_map_count)
		return -ENOMEM;	/* OC-12: the two unmaps may add a VMA each, and the move needs 3 */
	if (flags & MREMAP_FIXED) {
		err = mm_munmap(mm, new_addr, new_len);	/* MR-9: EPERM if sealed */
		if (err)
			return err;
	}
	if (old_len > new_len) {	/* MR-10; EW-6: EINVAL if old + old_len wraps */
		err = mm_munmap(mm, old + new_len, old_len - new_len);
		if (err)
			return err;
		old_len = new_len;
	}
	v = vma_find(mm, old);
	if (!v)
		return -EFAULT;
	err = mremap_source(v, old, old_len);
	if (err)
		return err;
	if ((flags & MREMAP_DONTUNMAP) && !mm_may_expand(mm, v->flags, old_len >> PAGE_SHIFT))
		return -ENOMEM;	/* OC-20, OC-21: the old range stays (after vma_to_resize(), as Linux) */
	if (new_len > old_len && !mm_may_expand(mm, v->flags, (new_len - old_len) >> PAGE_SHIFT))
		return -ENOMEM;	/* OC-20, OC-21 */
	if (!(flags & MREMAP_FIXED)) {
		/* DONTUNMAP alone: new_addr is only a hint, as for mmap */
		new_addr = mm_choose_address(mm, new_addr, new_len, NULL);
		if (!new_addr)
			return -ENOMEM;
	}
	return mremap_move(mm, v, old, old_len, new_addr, new_len, flags & MREMAP_DONTUNMAP);
}

/*
 * MR-18: grow [old, old + old_len), which ends v, in place when the space
 * after v is free. Returns old, or 1 when it cannot (the caller moves or
 * fails), or -ENOMEM.
 */
static long mremap_grow_in_place(struct mm *mm, struct vma *v, unsigned long old, unsigned long old_len,
				 unsigned long new_len)
{
	unsigned long delta = new_len - old_len;
	struct vma *grown;

	if (old + old_len != v->end || delta > TASK_SIZE || v->end > TASK_SIZE - delta ||
	    mm_range_mapped(mm, v->end, v->end + delta))	/* EW-6: no end past the top */
		return 1;
	if ((v->flags & VM_ACCOUNT) && vm_enough_memory(mm, delta >> PAGE_SHIFT))
		return -ENOMEM;	/* OC-6 */
	grown = vma_insert(mm, v->end, v->end + delta, v->flags, v->name, vma_offset_at(v, v->end));
	if (!grown)
		return -ENOMEM;
	moved_from(grown, v);	/* so it merges back into v */
	vma_merge_neighbours(mm, grown);
	return (long)old;
}

static long mremap_do(struct mm *mm, struct vma *v, unsigned long old, unsigned long old_len,
		      unsigned long new_len, unsigned long flags, unsigned long new_addr)
{
	long err;

	if (v->flags & VM_HUGETLB)	/* MR-7 */
		return mremap_hugetlb(mm, v, old, old_len, new_len, flags, new_addr);
	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP))
		return mremap_to(mm, v, old, old_len, new_len, flags, new_addr);
	if (old_len == new_len)
		return (long)old;	/* MR-16: Linux checks nothing more */
	if (new_len < old_len) {	/* MR-17; EW-6: EINVAL if old + old_len wraps */
		err = mm_munmap(mm, old + new_len, old_len - new_len);
		return err ? err : (long)old;
	}
	err = mremap_source(v, old, old_len);
	if (err)
		return err;
	if (!mm_may_expand(mm, v->flags, (new_len - old_len) >> PAGE_SHIFT))
		return -ENOMEM;	/* OC-20, OC-21 */
	err = mremap_grow_in_place(mm, v, old, old_len, new_len);
	if (err != 1)
		return err;
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	new_addr = vma_find_gap_down(mm, new_len, mm->mmap_base, USER_MMAP_MIN, NULL);
	if (!new_addr)
		return -ENOMEM;
	return mremap_move(mm, v, old, old_len, new_addr, new_len, false);
}

long mm_mremap(struct mm *mm, unsigned long old, unsigned long old_len, unsigned long new_len,
	       unsigned long flags, unsigned long new_addr)
{
	struct vma *v;
	bool populate, write;
	long r;

	r = mremap_check(mm, old, &old_len, &new_len, flags, &v);
	if (r)
		return r;
	populate = (v->flags & VM_LOCKED_MASK) == VM_LOCKED && new_len > old_len;
	write = (v->flags & (VM_WRITE | VM_SHARED)) == VM_WRITE;	/* v may be gone after the move */
	r = mremap_do(mm, v, old, old_len, new_len, flags, new_addr);
	if (populate && (unsigned long)r < -4095UL)	/* ML-17: a locked mapping's growth is populated */
		mm_populate(mm, (unsigned long)r + old_len, (unsigned long)r + new_len, write);
	return r;
}
