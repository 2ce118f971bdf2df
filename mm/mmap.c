/*
 * mmap.c - mmap, munmap and brk, and the helpers every address-space
 * operation shares (see mm_ops.h for the rules they all follow).
 */
#include "mm_ops.h"
#include "hugetlb.h"
#include "commit.h"
#include "errno.h"
#include "mman.h"
#include "filemap.h"
#include <asm/memlayout.h>

#define TASK_SIZE	USER_VA_END
#define PAGE_ALIGN_UL(x) (((x) + PAGE_SIZE - 1) & ~(unsigned long)(PAGE_SIZE - 1))

/* ---- shared helpers ---- */

unsigned mm_prot_to_vm(unsigned long prot)
{
	unsigned f = 0;

	if (prot & PROT_READ)
		f |= VM_READ;
	if (prot & PROT_WRITE)
		f |= VM_WRITE;
	if (prot & PROT_EXEC)
		f |= VM_EXEC;
	if ((prot & PROT_BTI) && arch_has_bti())
		f |= VM_BTI;	/* elsewhere the bit is ignored by mmap, refused by mprotect (MP-5) */
	return f;
}

bool mm_range_mapped(struct mm *mm, unsigned long start, unsigned long end)
{
	struct vma *v = vma_find_from(mm, start);

	return v && v->start < end;
}

/*
 * Split v at addr, and with it a transparent huge page across addr (Linux's
 * __split_vma()): v's upper piece, or NULL without memory.
 */
static struct vma *split_at(struct mm *mm, struct vma *v, unsigned long addr)
{
	struct vma *hi = vma_split(mm, v, addr);

	if (hi && !(v->flags & VM_HUGETLB))
		mm_split_huge_at(mm, addr);
	return hi;
}

/* Linux's split_vma(): a split needs memory and a VMA below max_map_count (OC-10). */
static struct vma *split_counted(struct mm *mm, struct vma *v, unsigned long addr)
{
	if ((u64)mm->nvmas >= sysctl_max_map_count)
		return NULL;
	return split_at(mm, v, addr);
}

struct vma *mm_isolate(struct mm *mm, struct vma *v, unsigned long start, unsigned long end)
{
	bool cut = v->start < start;

	if (cut && !(v = split_counted(mm, v, start)))
		return NULL;
	if (v->end > end && !split_counted(mm, v, end)) {
		if (cut)
			vma_unsplit(mm, v->prev);	/* undo the first split (hugetlb too); never fails */
		return NULL;
	}
	return v;
}

/* HT-7: would cutting v (may be NULL) at addr split one of its huge pages? */
static bool hugetlb_cut_bad(const struct vma *v, unsigned long addr)
{
	return v && (v->flags & VM_HUGETLB) && v->start < addr && addr < v->end &&
	       !IS_ALIGNED(addr, hugetlb_of_vma(v)->size);
}

/* One cut of mm_modify_cut(): v's piece from addr on (v if addr is v's start), or NULL with *err. */
static struct vma *modify_cut_at(struct mm *mm, struct vma *v, unsigned long addr, long *err)
{
	if (addr <= v->start || addr >= v->end)
		return v;
	*err = hugetlb_cut_bad(v, addr) ? -EINVAL : -ENOMEM;
	return *err == -EINVAL ? NULL : split_counted(mm, v, addr);
}

struct vma *mm_modify_cut(struct mm *mm, struct vma *v, unsigned long start, unsigned long end, long *err)
{
	bool cut = v->start < start;

	v = modify_cut_at(mm, v, start, err);
	if (!v || !modify_cut_at(mm, v, end, err)) {
		if (v && cut && *err == -ENOMEM)
			vma_unsplit(mm, v->prev);	/* a failed allocation changes nothing */
		else if (v && cut)
			v->kept_cut = true;	/* HT-12: the cut at start stays, its pieces apart */
		return NULL;
	}
	return v;
}

/*
 * Is [addr, addr + len) free, given next = vma_find_from(mm, addr)? MM-15:
 * not when it reaches into the stack guard gap below a MAP_GROWSDOWN VMA.
 */
static bool hint_free(const struct vma *next, unsigned long addr, unsigned long len)
{
	return !next || addr + len <= vma_start_gap(next);
}

/*
 * The default mmap window (asm/memlayout.h), as Linux's arm64
 * arch_get_mmap_end() and arch_get_mmap_base(): a placement stays below
 * USER_VA_WINDOW (2^48 on a 52-bit VA) unless its hint is above it; then it
 * may reach TASK_SIZE, and its top-down search starts as far above
 * mm->mmap_base as TASK_SIZE is above the window. Without a wider VA both
 * are TASK_SIZE and mm->mmap_base.
 */
static unsigned long mmap_end_for(unsigned long hint)
{
	return hint > USER_VA_WINDOW ? TASK_SIZE : USER_VA_WINDOW;
}

static unsigned long mmap_base_for_hint(const struct mm *mm, unsigned long hint)
{
	return hint > USER_VA_WINDOW ? mm->mmap_base + (TASK_SIZE - USER_VA_WINDOW) : mm->mmap_base;
}

unsigned long mm_choose_address(struct mm *mm, unsigned long hint, unsigned long len, struct vma **next)
{
	unsigned long end = mmap_end_for(hint), base = mmap_base_for_hint(mm, hint);

	hint = ALIGN_DOWN(hint, PAGE_SIZE);
	if (hint && hint >= USER_MMAP_MIN && len <= end && hint <= end - len) {
		struct vma *at = vma_find_from(mm, hint);

		if (hint_free(at, hint, len)) {
			if (next)
				*next = at;
			return hint;
		}
	}
	return vma_find_gap_down(mm, len, base, USER_MMAP_MIN, next);
}

/* ---- munmap ---- */

/* munmap_check()'s err after the first VMA's checks: v keeps the cut at start (MU-7). */
static long late_error(struct mm *mm, struct vma *v, unsigned long start, bool cut, long err)
{
	struct vma *hi;

	if (!cut)
		return err;
	hi = split_at(mm, v, start);
	if (!hi)
		return -ENOMEM;
	hi->kept_cut = true;	/* alike pieces that stay apart, as on Linux */
	return err;
}

/*
 * The checks Linux's vms_gather_munmap_vmas() makes before an unmap of
 * [start, end) changes anything (munmap, and MAP_FIXED's implicit unmap),
 * in its order: it meets the VMAs from the lowest, so first the first
 * one's cut at start (OC-11's count when the hole is inside it, its seal,
 * MU-5's huge-page cut), then each VMA's seal, then the last one's cut at
 * end. Only the first can hold start and only the last can hold end
 * strictly inside. One tree lookup: *first is the first VMA the range
 * reaches (NULL if none) and *last the last. 0, -ENOMEM, -EPERM or -EINVAL.
 * Linux has cut the first VMA at start by the time it meets the later
 * checks, and an error there leaves that cut (MU-7: two VMAs in
 * /proc/self/maps until one of them changes): so does ours.
 */
static long munmap_check(struct mm *mm, unsigned long start, unsigned long end,
			 struct vma **first, struct vma **last)
{
	struct vma *v = vma_find_from(mm, start);
	bool cut;

	*first = *last = NULL;
	if (!v || v->start >= end)
		return 0;	/* nothing mapped there (and so nothing to cut) */
	*first = v;
	cut = v->start < start;
	if (cut && end < v->end && (u64)mm->nvmas >= sysctl_max_map_count)
		return -ENOMEM;	/* OC-11: a hole in one VMA would pass max_map_count */
	/* LAB mseal: begin */
	if (cut && (v->flags & VM_SEALED))
		return -EPERM;	/* MS-20 */
	/* LAB mseal: end */
	if (hugetlb_cut_bad(v, start))
		return -EINVAL;	/* MU-5 */
	for (struct vma *w = v; w && w->start < end; w = w->next) {
		/* LAB mseal: begin */
		if (w->flags & VM_SEALED)
			return late_error(mm, v, start, cut, -EPERM);	/* MS-20, MS-21: nothing unmapped */
		/* LAB mseal: end */
		*last = w;
	}
	if (hugetlb_cut_bad(*last, end))
		return late_error(mm, v, start, cut, -EINVAL);	/* MU-5 */
	return 0;
}

/* munmap: munmap_check()'s checks, then both ends split, then the zap. */
long mm_munmap(struct mm *mm, unsigned long start, unsigned long len)
{
	struct vma *v, *last;
	unsigned long end;
	long err;
	bool cut;

	if ((start & (PAGE_SIZE - 1)) || start > TASK_SIZE || len > TASK_SIZE - start)
		return -EINVAL;	/* MU-1; EW-1, EW-6: so nothing below wraps */
	len = PAGE_ALIGN_UL(len);
	if (!len)
		return -EINVAL;	/* MU-2 */
	end = start + len;
	err = munmap_check(mm, start, end, &v, &last);
	if (err || !v)
		return err;
	cut = v->start < start;
	/* Split both ends before anything is zapped: ENOMEM changes nothing. */
	if (cut) {
		struct vma *hi = vma_split(mm, v, start);

		if (!hi)
			return -ENOMEM;
		if (last == v)
			last = hi;	/* the range lay inside one VMA: end is in its upper half */
		v = hi;
	}
	if (last->end > end && !vma_split(mm, last, end)) {
		if (cut)
			vma_merge_neighbours(mm, v);	/* undo the first split; never fails */
		return -ENOMEM;
	}
	while (v && v->start < end) {
		struct vma *next = v->next;

		mm_zap_vma_range(mm, v, v->start, v->end, true);
		vma_remove(mm, v);
		v = next;
	}
	return 0;
}

/* ---- mmap ---- */

/*
 * MM-11: the VMA flags the mapping type and its companions ask for, in
 * *vmflags; 0 or -EINVAL / -EOPNOTSUPP. is_file: a file mapping, which on
 * Linux includes an anonymous MAP_HUGETLB one (a hugetlbfs file): there
 * MAP_SHARED_VALIDATE is MAP_SHARED when every other flag is a legacy one
 * (MV-1: -EOPNOTSUPP otherwise; no memfd has MAP_SYNC), MAP_GROWSDOWN is
 * refused (MM-17) and so is MAP_DROPPABLE (anonymous memory only).
 */
static long mmap_type(unsigned long flags, bool is_file, unsigned *vmflags)
{
	unsigned long type = flags & MAP_TYPE;

	if (type == MAP_SHARED_VALIDATE && is_file) {
		if (flags & ~(unsigned long)LEGACY_MAP_MASK)
			return -EOPNOTSUPP;
		type = MAP_SHARED;
	}
	if (type == MAP_SHARED) {
		*vmflags = VM_SHARED;
	} else if (type == MAP_PRIVATE) {
		*vmflags = 0;
	} else if (type == MAP_DROPPABLE && !is_file) {
		if (flags & (MAP_LOCKED | MAP_HUGETLB | MAP_GROWSDOWN))
			return -EINVAL;
		*vmflags = VM_DROPPABLE | VM_WIPEONFORK | VM_DONTDUMP | VM_NORESERVE;
	} else {
		return -EINVAL;	/* including anonymous MAP_SHARED_VALIDATE */
	}
	if (flags & MAP_GROWSDOWN) {
		if (is_file || type == MAP_SHARED)
			return -EINVAL;	/* MM-15, MM-17 */
		*vmflags |= VM_GROWSDOWN;
	}
	if ((flags & MAP_NORESERVE) && sysctl_overcommit_memory != OVERCOMMIT_NEVER)
		*vmflags |= VM_NORESERVE;	/* OC-3: mode 2 charges it anyway */
	if (flags & MAP_STACK)
		*vmflags |= VM_NOHUGEPAGE;	/* MM-19: no THP in a stack (Linux >= 6.7) */
	return 0;
}

/*
 * Where a mapping of len bytes goes, aligned to align: *addr exactly with
 * MAP_FIXED (checked), else the hint or a free gap, and then *next is the
 * VMA that will follow it (for vma_insert_before(); MAP_FIXED leaves it to
 * mmap_insert(), which unmaps first). 0 or a negative errno.
 */
static long mmap_place(struct mm *mm, unsigned long *addr, unsigned long len, unsigned long flags,
		       unsigned long align, struct vma **next)
{
	if (flags & MAP_FIXED) {
		/* MM-8: Linux's hugetlb placement checks the alignment first, the
		 * generic one the end of user space first */
		if (align != PAGE_SIZE && (*addr & (align - 1)))
			return -EINVAL;	/* HT-2 */
		if (*addr > TASK_SIZE - len)
			return -ENOMEM;
		if (*addr & (align - 1))
			return -EINVAL;
		/* Below mmap_min_addr: every process here is root (CAP_SYS_RAWIO), and
		 * Linux lets root map there, page 0 included (mseal_test's
		 * test_seal_zero_address). Checked by tools/check-linux-selftests.sh. */
		if ((flags & MAP_FIXED_NOREPLACE) && mm_range_mapped(mm, *addr, *addr + len))
			return -EEXIST;	/* MM-9 */
		return 0;
	}
	if (align == PAGE_SIZE) {
		*addr = mm_choose_address(mm, *addr, len, next);
	} else {
		unsigned long hint = ALIGN_UP(*addr, align), end = mmap_end_for(*addr);
		bool hint_ok = hint && len <= end && hint <= end - len;
		struct vma *at = hint_ok ? vma_find_from(mm, hint) : NULL;

		if (hint_ok && (!at || at->start >= hint + len)) {
			*addr = hint;
			*next = at;
		} else if ((*addr = vma_find_gap_down(mm, len + align, mmap_base_for_hint(mm, *addr), USER_MMAP_MIN,
						      next))) {
			*addr = ALIGN_UP(*addr, align);	/* still inside the gap, below *next */
		}
	}
	return *addr ? 0 : -ENOMEM;
}

/*
 * Put the new VMA at [addr, addr + len), before next (mmap_place()): the
 * VMA is allocated first, then MAP_FIXED's old mappings go (MS-21: EPERM if
 * sealed), so a failure leaves the address space as it was. Returns the
 * VMA or an ERR-style NULL with *err.
 */
static struct vma *mmap_insert(struct mm *mm, unsigned long addr, unsigned long len, unsigned long flags,
			       struct vma *next, unsigned vmflags, const char *fname, u64 offset, long *err)
{
	struct vma *v = vma_prepare();

	*err = -ENOMEM;
	if (!v)
		return NULL;
	if (flags & MAP_FIXED) {
		*err = mm_munmap(mm, addr, len);
		if (*err) {
			vma_unprepare(v);
			return NULL;
		}
		next = vma_find_from(mm, addr);
	}
	*err = 0;
	return vma_insert_before(mm, v, next, addr, addr + len, vmflags, fname, offset);
}

/*
 * As Linux's mmap_region(): MAP_FIXED's unmap checks (munmap_check()),
 * then OC-20, OC-21 (RLIMIT_AS, RLIMIT_DATA) and OC-1 (the commit charge),
 * where pages MAP_FIXED replaces count as gone. 0, -ENOMEM, -EPERM or
 * -EINVAL.
 */
static long mmap_limits(struct mm *mm, unsigned long addr, unsigned long len, unsigned long flags,
			unsigned vmflags)
{
	unsigned long old = 0, old_charged = 0, pages = len >> PAGE_SHIFT;
	struct vma *first, *last;
	long err;

	if (flags & MAP_FIXED) {
		/* MS-21, MU-5, OC-11 where Linux's mmap_region() meets them: while
		 * it gathers the VMAs MAP_FIXED replaces, in address order, before
		 * the limits, the commit charge and a huge-page reservation (so a
		 * sealed range is EPERM even with an empty pool) */
		err = munmap_check(mm, addr, addr + len, &first, &last);
		if (err)
			return err;
		mm_range_pages(mm, addr, addr + len, &old, &old_charged);
	}
	if (!mm_may_expand(mm, vmflags, pages - old))
		return -ENOMEM;
	if ((vmflags & VM_ACCOUNT) && pages > old_charged && vm_enough_memory(mm, pages - old_charged))
		return -ENOMEM;
	return 0;
}

/*
 * The MAP_HUGETLB part of mmap (HT-1..4) at addr, placed: limits, the
 * mapping's file, the offset, the reservation, the VMA. As on Linux, the
 * file comes first (an ENOMEM there leaves MAP_FIXED's old mappings), the
 * offset and the reservation are checked after the old mappings went, as
 * hugetlbfs's mmap does in mmap_region() (a failure leaves a hole, HT-3, HT-4).
 */
static long mmap_hugetlb(struct mm *mm, struct hstate *h, unsigned long addr, unsigned long len,
			 unsigned long flags, struct vma *next, unsigned vmflags, bool write, u64 off)
{
	bool reserve = !(flags & MAP_NORESERVE);
	struct vma_file *file;
	struct vma *v;
	long err;

	err = mmap_limits(mm, addr, len, flags, vmflags);	/* OC-4: not charged */
	if (err)
		return err;
	/* HT-11: shared or private, the mapping is a file's, named in /proc/<pid>/maps */
	file = (vmflags & VM_SHARED) ? hugetlb_file_create(h, off / h->size, len / h->size)
				     : hugetlb_private_create();
	if (!file)
		return -ENOMEM;
	/* MAP_FIXED's old mappings go before hugetlbfs checks and reserves, as in
	 * Linux's mmap_region() (vms_clean_up_area() closes them first), but a
	 * shared mapping's file lives until the call is over */
	if (flags & MAP_FIXED) {
		hugetlb_hold_files(mm, addr, addr + len);
		err = mm_munmap(mm, addr, len);
	}
	if (!err && (off & (h->size - 1)))
		err = -EINVAL;	/* HT-3: an offset inside a huge page */
	if (!err && reserve && hugetlb_reserve(h, len / h->size))
		err = -ENOMEM;	/* HT-4: the pool cannot cover it; nothing reserved */
	hugetlb_release_held();	/* the old files die now, if that was their last mapping */
	if (err) {
		vma_file_put(file);
		return err;
	}
	if (vmflags & VM_SHARED) {	/* the file holds the pages and the reservation */
		if (reserve)
			hugetlb_file_reserve(file);
		reserve = false;
	}
	vmflags |= hugetlb_vma_flags(h, reserve);
	v = mmap_insert(mm, addr, len, flags, next, vmflags, HUGETLB_FILE_NAME, off, &err);
	if (!v) {
		vma_file_put(file);	/* a shared file drops its reservation */
		if (reserve)
			h->resv -= len / h->size;
		return err;
	}
	v->file = file;	/* the VMA takes the file's first reference */
	/* MM-14, ML-7: MAP_LOCKED (or mlockall(MCL_FUTURE)) populates too, as
	 * Linux's do_mmap() decides it before mmap_region() drops VM_LOCKED
	 * from a hugetlb VMA */
	if ((flags & MAP_LOCKED) || (mm->def_flags & VM_LOCKED) ||
	    (flags & (MAP_POPULATE | MAP_NONBLOCK)) == MAP_POPULATE)
		mm_populate(mm, addr, addr + len, write);
	return (long)addr;
}

/* The name /proc/<pid>/maps gives shared anonymous memory, as Linux's shmem file. */
#define SHARED_ANON_NAME "/dev/zero (deleted)"

/*
 * The checks come in the order of Linux's ksys_mmap_pgoff() and do_mmap():
 * the huge-page size, the length, the map count, the placement (ENOMEM,
 * EINVAL, MAP_FIXED_NOREPLACE's EEXIST), and only then the mapping type.
 */
long mm_mmap(struct mm *mm, unsigned long addr, unsigned long len, unsigned long prot,
	     unsigned long flags, const struct mmap_file *mf, unsigned long off)
{
	struct vma_file *file = mf ? mf->file : NULL, *shmem = NULL;
	const char *fname = mf ? mf->name : NULL;
	unsigned may_not = mf ? mf->may_not : 0;
	struct hstate *h = NULL;
	struct vma *v, *next = NULL;
	unsigned vmflags;
	long err;

	if (flags & MAP_HUGETLB) {
		if (!(h = hugetlb_from_mmap_flags(flags)))
			return -EINVAL;	/* MM-2: a size this system does not support */
		len = ALIGN_UP(len, h->size);	/* HT-1: may wrap to 0, which is MM-3's EINVAL */
	}
	if (!len)
		return -EINVAL;	/* MM-3 */
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;	/* MM-5 */
	if (PAGE_ALIGN_UL(len) == 0)
		return -ENOMEM;	/* MM-6 */
	len = PAGE_ALIGN_UL(len);
	if ((u64)mm->nvmas > sysctl_max_map_count)
		return -ENOMEM;	/* OC-10: Linux's test is ">" here */
	if (len > TASK_SIZE - (h ? 0 : USER_MMAP_MIN))
		return -ENOMEM;	/* MM-8 */
	err = mmap_place(mm, &addr, len, flags, h ? h->size : PAGE_SIZE, &next);
	if (!err && h && mm_file_range_too_big(off, len))
		err = -EOVERFLOW;	/* MM-6: after the placement, before the type, as do_mmap()'s file checks */
	if (!err && mf && mf->late_err)
		err = mf->late_err;	/* the file's checks: after the placement too */
	if (!err)
		err = mmap_type(flags, file || h, &vmflags);
	if (err)
		return err;
	vmflags |= mm_prot_to_vm(prot) | ((VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC) & ~may_not);	/* MM-18: other bits ignored; FM-1 */
	if (h)	/* ML-7: hugetlb memory is never VM_LOCKED */
		return mmap_hugetlb(mm, h, addr, len, flags, next, vmflags & ~VM_NORESERVE, prot & PROT_WRITE, off);
	vmflags |= mm->def_flags;	/* ML-11: mlockall(MCL_FUTURE) */
	if (flags & MAP_LOCKED)
		vmflags |= VM_LOCKED;	/* ML-9 */
	if (file && file->ops->mmap_check && (err = file->ops->mmap_check(file, &vmflags)))
		return err;	/* MD-5: a write-sealed memfd */
	vmflags |= vm_account_flag(vmflags, file != NULL);
	err = mmap_limits(mm, addr, len, flags, vmflags);
	if (err)
		return err;
	if ((vmflags & VM_SHARED) && !file) {
		/* shared anonymous memory: an object of its own, len bytes from
		 * offset 0, as Linux's shmem_zero_setup() (MR-23, MA-6, MA-9) */
		if (!(shmem = mm_shmem_create(len)))
			return -ENOMEM;
		file = shmem;
		fname = SHARED_ANON_NAME;
		off = 0;
	}
	v = mmap_insert(mm, addr, len, flags, next, vmflags, fname, file ? off : 0, &err);
	if (!v) {
		vma_file_put(shmem);
		return err;
	}
	v->file = shmem ? shmem : vma_file_get(file);	/* shmem: the VMA takes its first reference */
	vma_merge_neighbours(mm, v);
	/* MM-14: failures ignored; ML-9: a VM_LOCKONFAULT mapping is not populated */
	if (((vmflags & VM_LOCKED) || ((flags & MAP_POPULATE) && !(flags & MAP_NONBLOCK))) &&
	    !(vmflags & VM_LOCKONFAULT))
		mm_populate(mm, addr, addr + len, prot & PROT_WRITE);
	return (long)addr;
}

/* ---- brk ---- */

#define HEAP_FLAGS (VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC | VM_HEAP | VM_ACCOUNT)

unsigned long mm_brk(struct mm *mm, unsigned long want, u64 data_limit)
{
	unsigned long old_end = PAGE_ALIGN_UL(mm->brk), new_end;
	struct vma *next, *heap;

	if (want < mm->brk_start)
		return mm->brk;	/* BR-1 */
	/*
	 * BR-2: RLIMIT_DATA over the heap. Linux adds the data segment here;
	 * this mm does not record its size, so only the heap is counted. The
	 * growth is checked against all data mappings below (OC-21).
	 */
	if (data_limit != ~0ull && want - mm->brk_start > data_limit)
		return mm->brk;
	new_end = PAGE_ALIGN_UL(want);
	if (new_end == old_end) {
		mm->brk = want;		/* BR-3 */
		return want;
	}
	if (want < mm->brk) {	/* BR-4: a sealed heap refuses */
		if (mm_munmap(mm, new_end, old_end - new_end))
			return mm->brk;
		mm->brk = want;
		return want;
	}
	next = vma_find_from(mm, old_end);
	if (new_end < old_end || new_end > TASK_SIZE || (next && vma_start_gap(next) < new_end + PAGE_SIZE))
		return mm->brk;	/* BR-5, MM-15; EW-7: new_end < old_end when the rounding wrapped */
	if (!mm_may_expand(mm, HEAP_FLAGS, (new_end - old_end) >> PAGE_SHIFT) ||
	    (u64)mm->nvmas > sysctl_max_map_count || vm_enough_memory(mm, (new_end - old_end) >> PAGE_SHIFT))
		return mm->brk;	/* OC-2, OC-20, OC-21 */
	heap = vma_insert(mm, old_end, new_end, HEAP_FLAGS | mm->def_flags, NULL, 0);	/* ML-11 */
	if (!heap)
		return mm->brk;
	vma_merge_neighbours(mm, heap);
	mm->brk = want;
	if ((mm->def_flags & VM_LOCKED) && !(mm->def_flags & VM_LOCKONFAULT))
		mm_populate(mm, old_end, new_end, true);	/* ML-11: the new heap is locked, so populated */
	return want;
}
