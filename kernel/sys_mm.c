/*
 * sys_mm.c - the address-space system calls with Linux's semantics: mmap,
 * munmap, mremap, mprotect, madvise, brk and mseal. The order of argument
 * checks, the errno values and what is (or is not) atomic follow Linux 6.12
 * (rule numbers in comments refer to the project's reference tables).
 *
 * Sealing costs one flag test on each VMA an operation already visits; no
 * call walks the range a second time just to look for seals.
 */
#include "syscall.h"
#include "proc.h"
#include "mm.h"
#include "hugetlb.h"
#include "errno.h"
#include "mman.h"
#include "printk.h"
#include "memfd.h"
#include <asm/memlayout.h>

#define TASK_SIZE	USER_VA_END

/* The flags Linux accepted before MAP_SHARED_VALIDATE (and the huge-page size field). */
#define LEGACY_MAP_MASK (MAP_SHARED | MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS | MAP_DENYWRITE | \
			 MAP_EXECUTABLE | MAP_UNINITIALIZED | MAP_GROWSDOWN | MAP_LOCKED | MAP_NORESERVE | \
			 MAP_POPULATE | MAP_NONBLOCK | MAP_STACK | MAP_HUGETLB | (0x3fUL << 26))
#define PAGE_ALIGN_UL(x) (((x) + PAGE_SIZE - 1) & ~(unsigned long)(PAGE_SIZE - 1))

static struct mm *cur_mm(void)
{
	return current_proc()->mm;
}

/* VMA access and may-access flags for PROT_* bits. */
static unsigned prot_to_vm(unsigned long prot)
{
	unsigned f = 0;

	if (prot & PROT_READ)
		f |= VM_READ;
	if (prot & PROT_WRITE)
		f |= VM_WRITE;
	if (prot & PROT_EXEC)
		f |= VM_EXEC;
	return f;
}

/* Merge v with compatible neighbours; returns the VMA now holding v's range. */
static struct vma *merge(struct mm *mm, struct vma *v)
{
	return vma_merge_neighbours(mm, v);
}

/*
 * Split v so that one VMA covers exactly v's part of [start, end); returns
 * it, or NULL when a split needed memory that is not there.
 */
static struct vma *isolate(struct mm *mm, struct vma *v, unsigned long start, unsigned long end)
{
	if (v->start < start && !(v = vma_split(mm, v, start)))
		return NULL;
	if (v->end > end && !vma_split(mm, v, end))
		return NULL;
	return v;
}

/*
 * HT-7: a hugetlb VMA can only be cut at huge-page boundaries. Returns
 * -EINVAL if [start, end) would cut one elsewhere (only the VMAs holding
 * start and end can be cut).
 */
static long hugetlb_cut_check(struct mm *mm, unsigned long start, unsigned long end)
{
	struct vma *v = vma_find(mm, start);

	if (v && (v->flags & VM_HUGETLB) && v->start < start && !IS_ALIGNED(start, hugetlb_of_vma(v)->size))
		return -EINVAL;
	v = vma_find(mm, end);
	if (v && (v->flags & VM_HUGETLB) && v->start < end && !IS_ALIGNED(end, hugetlb_of_vma(v)->size))
		return -EINVAL;
	return 0;
}

/*
 * Remove [start, start + len) from mm. The range is checked as Linux's
 * do_vmi_munmap() does: start page aligned, the range inside TASK_SIZE
 * (so it cannot wrap), len not 0 after rounding, else -EINVAL (MU-1, MU-2;
 * mremap's shrinking paths rely on this, EW-6). Any sealed VMA in the range
 * fails the whole call with EPERM before anything changes (MS-20: munmap is
 * atomic). Returns 0, -EINVAL, -EPERM or -ENOMEM.
 */
static long do_munmap(struct mm *mm, unsigned long start, unsigned long len)
{
	struct vma *v, *last;
	unsigned long end;
	bool cut;

	if ((start & (PAGE_SIZE - 1)) || start > TASK_SIZE || len > TASK_SIZE - start)
		return -EINVAL;	/* MU-1 */
	len = PAGE_ALIGN_UL(len);
	if (!len)
		return -EINVAL;	/* MU-2 */
	end = start + len;
	v = vma_find_from(mm, start);

	for (struct vma *w = v; w && w->start < end; w = w->next)
		if (w->flags & VM_SEALED)
			return -EPERM;
	if (hugetlb_cut_check(mm, start, end))
		return -EINVAL;	/* MU-5 */
	if (!v || v->start >= end)
		return 0;
	/* Split both ends before anything is zapped: ENOMEM changes nothing. */
	cut = v->start < start;
	if (cut && !(v = vma_split(mm, v, start)))
		return -ENOMEM;
	last = vma_find(mm, end - 1);
	if (last && last->end > end && !vma_split(mm, last, end)) {
		if (cut)
			vma_merge_neighbours(mm, v);	/* undo the first split; never fails */
		return -ENOMEM;
	}
	while (v && v->start < end) {
		struct vma *next = v->next;

		mm_zap_range(mm, v->start, v->end, true);
		vma_remove(mm, v);
		v = next;
	}
	return 0;
}

/* Is any part of [start, end) mapped? */
static bool range_has_vma(struct mm *mm, unsigned long start, unsigned long end)
{
	struct vma *v = vma_find_from(mm, start);

	return v && v->start < end;
}

/* ---- mmap ---- */

/*
 * memfd support: check a file mapping of fd (mmap without MAP_ANONYMOUS).
 * Only a memfd (kernel/memfd.c) can be mapped; on success *file and *name
 * say what backs the VMA. The errno values follow do_mmap()'s order.
 */
static long file_mapping(unsigned long ufd, unsigned long len, unsigned long prot,
			 unsigned long flags, unsigned long off, struct vma_file **file, const char **name)
{
	struct proc *p = current_proc();
	long fd = (long)(int)ufd;
	struct file *f;

	if (fd < 0 || fd >= NOFILE || !(f = p->files[fd]))
		return -EBADF;
	*file = memfd_vma_file(f, name);
	if (len && off + PAGE_ALIGN_UL(len) < off)
		return -EOVERFLOW;
	if (!*file) {
		/* initramfs and /proc files are open read-only */
		if ((flags & MAP_TYPE) != MAP_PRIVATE && (prot & PROT_WRITE) && (f->st.mode & S_IFMT) == S_IFREG)
			return -EACCES;
		return -ENODEV;	/* MM-1: no other file can be mapped (yet) */
	}
	return 0;
}

/* Pick where a non-fixed mapping of len bytes goes: the hint if free, else top-down. */
static unsigned long choose_address(struct mm *mm, unsigned long hint, unsigned long len)
{
	hint = ALIGN_DOWN(hint, PAGE_SIZE);
	if (hint && hint >= USER_MMAP_MIN && hint <= TASK_SIZE - len && !range_has_vma(mm, hint, hint + len))
		return hint;
	return vma_find_gap_down(mm, len, mm->mmap_base, USER_MMAP_MIN);
}

/* The MAP_HUGETLB part of mmap (HT-1..4): size, alignment, reservation. */
static long mmap_hugetlb(struct mm *mm, unsigned long addr, unsigned long len, unsigned long prot,
			 unsigned long flags, unsigned vmflags)
{
	struct hstate *h = hugetlb_from_mmap_flags(flags);
	bool reserve = !(flags & MAP_NORESERVE);
	struct vma *v;
	long err;

	if (!h)
		return -EINVAL;	/* MM-2: a size this system does not support */
	len = ALIGN_UP(len, h->size);
	if (!len || len > TASK_SIZE)
		return -ENOMEM;
	if (flags & MAP_FIXED) {
		if (!IS_ALIGNED(addr, h->size))
			return -EINVAL;	/* HT-2 */
		if (addr > TASK_SIZE - len)
			return -ENOMEM;
		if ((flags & MAP_FIXED_NOREPLACE) && range_has_vma(mm, addr, addr + len))
			return -EEXIST;
	} else {
		unsigned long hint = ALIGN_UP(addr, h->size);

		if (hint && hint <= TASK_SIZE - len && !range_has_vma(mm, hint, hint + len))
			addr = hint;
		else if ((addr = vma_find_gap_down(mm, len + h->size, mm->mmap_base, USER_MMAP_MIN)))
			addr = ALIGN_UP(addr, h->size);
		if (!addr)
			return -ENOMEM;
	}
	if (reserve && hugetlb_reserve(h, len / h->size))
		return -ENOMEM;	/* HT-4: the pool cannot cover it; nothing reserved */
	if (flags & MAP_FIXED) {
		err = do_munmap(mm, addr, len);
		if (err) {
			if (reserve)
				h->resv -= len / h->size;
			return err;
		}
	}
	vmflags |= prot_to_vm(prot) | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC | hugetlb_vma_flags(h, reserve);
	v = vma_insert(mm, addr, addr + len, vmflags, NULL, 0);
	if (!v) {
		if (reserve)
			h->resv -= len / h->size;
		return -ENOMEM;
	}
	if (flags & MAP_POPULATE)
		mm_populate(mm, addr, addr + len, prot & PROT_WRITE);
	return (long)addr;
}

long sys_mmap(const unsigned long *a)
{
	struct mm *mm = cur_mm();
	unsigned long addr = a[0], len = a[1], prot = a[2], flags = a[3], off = a[5];
	unsigned long type = flags & MAP_TYPE;
	struct vma_file *file = NULL;	/* memfd support */
	const char *fname = NULL;
	unsigned vmflags;
	struct vma *v;
	long err;

	if (off & (PAGE_SIZE - 1))
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS)) {	/* memfd support: only a memfd can be mapped */
		err = file_mapping(a[4], len, prot, flags, off, &file, &fname);
		if (err)
			return err;
	}
	if (!len)
		return -EINVAL;	/* MM-3 */
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;	/* MM-5 */
	if (PAGE_ALIGN_UL(len) == 0)
		return -ENOMEM;	/* MM-6 */
	len = PAGE_ALIGN_UL(len);
	if (type == MAP_SHARED_VALIDATE && file) {
		/* MV-1: a file mapping checks its flags (MAP_SYNC: no memfd has it) */
		if (flags & ~(unsigned long)LEGACY_MAP_MASK)
			return -EOPNOTSUPP;
		type = MAP_SHARED;
	}
	if (type == MAP_SHARED) {
		if (flags & MAP_GROWSDOWN)
			return -EINVAL;
		vmflags = VM_SHARED;
	} else if (type == MAP_PRIVATE) {
		vmflags = 0;
	} else if (type == MAP_DROPPABLE) {
		if (flags & (MAP_LOCKED | MAP_HUGETLB | MAP_GROWSDOWN))
			return -EINVAL;
		vmflags = VM_WIPEONFORK | VM_NORESERVE;
	} else {
		return -EINVAL;	/* MM-11, including MAP_SHARED_VALIDATE */
	}
	if (flags & MAP_HUGETLB)
		return mmap_hugetlb(mm, addr, len, prot, flags, vmflags);
	if (len > TASK_SIZE - USER_MMAP_MIN)
		return -ENOMEM;
	if (flags & MAP_FIXED) {
		if (addr & (PAGE_SIZE - 1))
			return -EINVAL;
		if (addr > TASK_SIZE - len)
			return -ENOMEM;
		/* Below mmap_min_addr: every process here is root (CAP_SYS_RAWIO), and
		 * Linux lets root map there, page 0 included (mseal_test's
		 * test_seal_zero_address). Checked by tools/check-linux-selftests.sh. */
		if ((flags & MAP_FIXED_NOREPLACE) && range_has_vma(mm, addr, addr + len))
			return -EEXIST;	/* MM-9 */
		err = do_munmap(mm, addr, len);	/* MS-21: EPERM if sealed */
		if (err)
			return err;
	} else {
		addr = choose_address(mm, addr, len);
		if (!addr)
			return -ENOMEM;
	}
	vmflags |= prot_to_vm(prot) | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;
	if (flags & MAP_GROWSDOWN)
		vmflags |= VM_GROWSDOWN;
	if (flags & MAP_NORESERVE)
		vmflags |= VM_NORESERVE;
	/* identity (struct vma): a shared anonymous mapping is its own object */
	v = vma_insert(mm, addr, addr + len, vmflags, fname, file ? off : (vmflags & VM_SHARED) ? -(u64)addr : 0);
	if (!v)
		return -ENOMEM;
	v->file = vma_file_get(file);	/* memfd support */
	merge(mm, v);
	if ((flags & MAP_LOCKED) || ((flags & MAP_POPULATE) && !(flags & MAP_NONBLOCK))) {
		mm_populate(mm, addr, addr + len, prot & PROT_WRITE);	/* MM-14: failures ignored */
		/* each page faulted in counts as a minor fault, as on Linux */
		current_proc()->minflt += mm_rss_pages(mm, addr, addr + len);
	}
	return (long)addr;
}

long sys_munmap(const unsigned long *a)
{
	return do_munmap(cur_mm(), a[0], a[1]);	/* MU-1, MU-2 */
}

/* ---- mprotect ---- */

long sys_mprotect(const unsigned long *a)
{
	struct mm *mm = cur_mm();
	unsigned long start = a[0], len = a[1], prot = a[2], end, tmp;
	unsigned newbits;
	struct vma *v;

	if ((prot & PROT_GROWSDOWN) && (prot & PROT_GROWSUP))
		return -EINVAL;	/* MP-1 */
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;	/* MP-2 */
	if (!len)
		return 0;	/* MP-3 */
	len = PAGE_ALIGN_UL(len);
	end = start + len;
	if (end <= start)
		return -ENOMEM;	/* MP-4 */
	if ((prot & ~(unsigned long)(PROT_GROWSDOWN | PROT_GROWSUP)) & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC | PROT_SEM))
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
	if (hugetlb_cut_check(mm, start, end))
		return -EINVAL;	/* HT-7 */
	newbits = prot_to_vm(prot);
	tmp = start;
	while (v && v->start < end) {
		if (v->start > tmp)
			return -ENOMEM;	/* MP-10: earlier VMAs keep their change */
		if ((newbits & ~(v->flags >> 4)) & VM_ACCESS)
			return -EACCES;	/* MP-12: VM_MAY* missing */
		if (v->flags & VM_SEALED)
			return -EPERM;	/* MS-25 / MF-1, before the "unchanged" shortcut */
		tmp = MIN(v->end, end);
		if ((v->flags & VM_ACCESS) != newbits) {
			v = isolate(mm, v, start, end);
			if (!v)
				return -ENOMEM;
			v->flags = (v->flags & ~VM_ACCESS) | newbits;
			mm_change_protection(mm, v, v->start, v->end);
			v = merge(mm, v);
		}
		if (tmp >= end)
			return 0;
		v = vma_find_from(mm, tmp);
	}
	return tmp < end ? -ENOMEM : 0;	/* MP-17 */
}

/* ---- mremap ---- */

/*
 * The offset of a VMA at to that takes over v's range at old: a file VMA
 * keeps mapping the same file pages; an anonymous one keeps the identity
 * (Linux's page offset) it had at old, so it does not merge with the
 * neighbours at its new place (MR-20, see struct vma).
 */
static u64 moved_offset(const struct vma *v, unsigned long old, unsigned long to)
{
	u64 off = vma_offset_at(v, old);

	return (v->name || v->file) ? off : off + old - to;
}

/*
 * MR-12: old_len 0 on a shared mapping duplicates it: a new VMA at
 * [to, to + len) mapping the same pages as v from old on. Pages past v's
 * end are the new mapping's own (Linux raises SIGBUS there: the shmem
 * object ends with v). Returns to, or -ENOMEM with nothing changed.
 */
static long duplicate_vma(struct mm *mm, struct vma *v, unsigned long old, unsigned long to, unsigned long len)
{
	struct vma *nv = vma_insert(mm, to, to + len, v->flags, v->name, moved_offset(v, old, to));
	long err = 0;

	if (!nv)
		return -ENOMEM;
	nv->file = vma_file_get(v->file);	/* a memfd: the file has the pages */
	if (!v->file)
		err = mm_share_range(mm, v, nv, old, to, MIN(len, v->end - old));
	if (err) {
		mm_zap_range(mm, to, to + len, true);
		vma_remove(mm, nv);
		return err;
	}
	merge(mm, nv);
	return (long)to;
}

/* Move [old, old + len) of v to a new VMA at [to, to + len). */
static long move_vma(struct mm *mm, struct vma *v, unsigned long old, unsigned long len,
		     unsigned long to, unsigned long new_len, bool dontunmap)
{
	struct vma *nv = vma_insert(mm, to, to + new_len, v->flags, v->name, moved_offset(v, old, to));
	long err;

	if (!nv)
		return -ENOMEM;
	nv->file = vma_file_get(v->file);	/* memfd support */
	err = mm_move_entries(mm, old, to, len);
	if (err) {
		mm_move_entries(mm, to, old, len);	/* MR-21: undo */
		vma_remove(mm, nv);
		return err;
	}
	merge(mm, nv);
	if (!dontunmap)
		return do_munmap(mm, old, len);
	return 0;
}

/*
 * MR-7/HT-8: move a hugetlb mapping to new_addr (huge-aligned), shrinking
 * it first if new_len < old_len. The entries move, not the pages, and the
 * mapping keeps its reservation of unfaulted pages.
 */
static long mremap_hugetlb_to(struct mm *mm, struct vma *v, unsigned long old, unsigned long old_len,
			      unsigned long new_len, unsigned long new_addr, unsigned long flags)
{
	struct vma *nv;
	long err;

	if (flags & MREMAP_DONTUNMAP)
		return -EINVAL;	/* MR-13: hugetlb mappings are VM_DONTEXPAND */
	if (new_len > TASK_SIZE || new_addr > TASK_SIZE - new_len)
		return -EINVAL;	/* MR-8 */
	if (new_addr < old + old_len && old < new_addr + new_len)
		return -EINVAL;	/* MR-8: overlap */
	err = do_munmap(mm, new_addr, new_len);	/* MR-9 */
	if (err)
		return err;
	if (old_len > new_len) {
		err = do_munmap(mm, old + new_len, old_len - new_len);
		if (err)
			return err;
		old_len = new_len;
	}
	v = vma_find(mm, old);
	if (!v)
		return -EFAULT;
	if (old_len > v->end - old)
		return -EFAULT;	/* MR-14 */
	v = isolate(mm, v, old, old + old_len);
	if (!v)
		return -ENOMEM;
	nv = vma_insert(mm, new_addr, new_addr + new_len, v->flags, v->name, 0);
	if (!nv)
		return -ENOMEM;
	err = hugetlb_move(mm, v, old, new_addr, old_len);
	if (err) {
		hugetlb_move(mm, nv, new_addr, old, old_len);	/* MR-21: undo */
		vma_remove(mm, nv);
		return err;
	}
	v->flags &= ~VM_HUGE_RESV;	/* the reservation went with the entries */
	err = do_munmap(mm, old, old_len);
	return err ? err : (long)new_addr;
}

long sys_mremap(const unsigned long *a)
{
	struct mm *mm = cur_mm();
	unsigned long old = a[0], old_len = a[1], new_len = a[2], flags = a[3], new_addr = a[4];
	bool implies_new = flags & (MREMAP_FIXED | MREMAP_DONTUNMAP);
	struct vma *v;
	long err;

	if (flags & ~(unsigned long)(MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP))
		return -EINVAL;	/* MR-1 */
	if (old & (PAGE_SIZE - 1))
		return -EINVAL;	/* MR-2 */
	if (PAGE_ALIGN_UL(new_len) == 0)
		return -EINVAL;	/* MR-3 */
	if (implies_new) {	/* MR-4 */
		if ((new_addr & (PAGE_SIZE - 1)) || !(flags & MREMAP_MAYMOVE))
			return -EINVAL;
		if ((flags & MREMAP_DONTUNMAP) && old_len != new_len)
			return -EINVAL;
	}
	old_len = PAGE_ALIGN_UL(old_len);
	new_len = PAGE_ALIGN_UL(new_len);
	v = vma_find(mm, old);
	if (!v)
		return -EFAULT;	/* MR-5 */
	if (v->flags & VM_SEALED)
		return -EPERM;	/* MR-6 / MS-23 */
	if (v->flags & VM_HUGETLB) {	/* MR-7 */
		u64 hs = hugetlb_of_vma(v)->size;

		if (!IS_ALIGNED(old, hs) || (implies_new && !IS_ALIGNED(new_addr, hs)))
			return -EINVAL;
		old_len = ALIGN_UP(old_len, hs);
		new_len = ALIGN_UP(new_len, hs);
		if (new_len > old_len)
			return -EINVAL;
		if (implies_new)
			return mremap_hugetlb_to(mm, v, old, old_len, new_len, new_addr, flags);
		if (new_len == old_len)
			return (long)old;
		err = do_munmap(mm, old + new_len, old_len - new_len);
		return err ? err : (long)old;
	}

	if (implies_new) {
		if (new_len > TASK_SIZE || new_addr > TASK_SIZE - new_len)
			return -EINVAL;	/* MR-8 */
		if (new_addr < old + MAX(old_len, new_len) && old < new_addr + new_len)
			return -EINVAL;	/* MR-8: overlap */
		if (flags & MREMAP_FIXED) {
			err = do_munmap(mm, new_addr, new_len);	/* MR-9: EPERM if sealed */
			if (err)
				return err;
			v = vma_find(mm, old);
			if (!v)
				return -EFAULT;
		}
		if (old_len > new_len) {	/* MR-10 */
			err = do_munmap(mm, old + new_len, old_len - new_len);
			if (err)
				return err;
			old_len = new_len;
			v = vma_find(mm, old);
		}
		if (old_len == 0 && !(v->flags & VM_SHARED))
			return -EINVAL;	/* MR-12 */
		if (old_len > v->end - old)
			return -EFAULT;	/* MR-14 */
		if (!(flags & MREMAP_FIXED)) {
			/* DONTUNMAP alone: new_addr is only a hint, as for mmap */
			new_addr = choose_address(mm, new_addr, new_len);
			if (!new_addr)
				return -ENOMEM;
		}
		if (!old_len)
			return duplicate_vma(mm, v, old, new_addr, new_len);	/* MR-12 */
		v = isolate(mm, v, old, old + old_len);
		if (!v)
			return -ENOMEM;
		err = move_vma(mm, v, old, old_len, new_addr, new_len, flags & MREMAP_DONTUNMAP);
		return err ? err : (long)new_addr;
	}

	if (old_len == new_len)
		return (long)old;	/* MR-16 */
	if (new_len < old_len) {	/* MR-17 */
		err = do_munmap(mm, old + new_len, old_len - new_len);
		return err ? err : (long)old;
	}
	if (old_len == 0 && !(v->flags & VM_SHARED))
		return -EINVAL;	/* MR-12 */
	if (old_len > v->end - old)
		return -EFAULT;	/* MR-14 */
	/* MR-18: grow in place when the range ends the VMA and the space after is free. */
	if (old + old_len == v->end && v->end <= TASK_SIZE - (new_len - old_len) &&
	    !range_has_vma(mm, v->end, v->end + (new_len - old_len))) {
		struct vma *grown = vma_insert(mm, v->end, v->end + (new_len - old_len), v->flags, v->name,
					       vma_offset_at(v, v->end));

		if (!grown)
			return -ENOMEM;
		grown->file = vma_file_get(v->file);	/* memfd support */
		merge(mm, grown);
		return (long)old;
	}
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	new_addr = vma_find_gap_down(mm, new_len, mm->mmap_base, USER_MMAP_MIN);
	if (!new_addr)
		return -ENOMEM;
	if (!old_len)
		return duplicate_vma(mm, v, old, new_addr, new_len);	/* MR-12 */
	v = isolate(mm, v, old, old + old_len);
	if (!v)
		return -ENOMEM;
	err = move_vma(mm, v, old, old_len, new_addr, new_len, false);
	return err ? err : (long)new_addr;
}

/* ---- brk ---- */

/* brk never fails with an errno: it returns the new break or the old one (BR-*). */
long sys_brk(const unsigned long *a)
{
	struct mm *mm = cur_mm();
	unsigned long want = a[0], old_end = PAGE_ALIGN_UL(mm->brk), new_end;
	struct vma *next;

	if (want < mm->brk_start)
		return (long)mm->brk;	/* BR-1 */
	/*
	 * BR-2: RLIMIT_DATA. Linux counts the data segment too; this mm does
	 * not record its size, so only the heap itself is counted.
	 */
	if (current_proc()->rlim[RLIMIT_DATA].cur != RLIM_INFINITY &&
	    want - mm->brk_start > current_proc()->rlim[RLIMIT_DATA].cur)
		return (long)mm->brk;
	new_end = PAGE_ALIGN_UL(want);
	if (new_end == old_end) {
		mm->brk = want;		/* BR-3 */
		return (long)want;
	}
	if (want < mm->brk) {	/* BR-4: a sealed heap refuses */
		if (do_munmap(mm, new_end, old_end - new_end))
			return (long)mm->brk;
		mm->brk = want;
		return (long)want;
	}
	next = vma_find_from(mm, old_end);
	if (new_end < old_end || new_end > TASK_SIZE || (next && next->start < new_end + PAGE_SIZE))
		return (long)mm->brk;	/* BR-5; EW-7: new_end < old_end when the rounding wrapped */
	struct vma *heap = vma_insert(mm, old_end, new_end, VM_READ | VM_WRITE | VM_MAYREAD |
				      VM_MAYWRITE | VM_MAYEXEC | VM_HEAP, NULL, 0);

	if (!heap)
		return (long)mm->brk;
	merge(mm, heap);
	mm->brk = want;
	return (long)want;
}

/* ---- mseal ---- */

long sys_mseal(const unsigned long *a)
{
	struct mm *mm = cur_mm();
	unsigned long start = a[0], len = a[1], end;
	struct vma *v;

	if (a[2])
		return -EINVAL;	/* MS-1 */
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;	/* MS-2 */
	if (len && PAGE_ALIGN_UL(len) == 0)
		return -EINVAL;	/* MS-3 */
	end = start + PAGE_ALIGN_UL(len);
	if (end < start)
		return -EINVAL;	/* MS-4 */
	if (end == start)
		return 0;	/* MS-5 */
	/* MS-7: the whole range must be mapped, or nothing is sealed. */
	v = vma_find(mm, start);
	for (struct vma *w = v; ; w = w->next) {
		if (!w || w->start > (w == v ? start : w->prev->end))
			return -ENOMEM;
		if (w->end >= end)
			break;
	}
	if (hugetlb_cut_check(mm, start, end))
		return -EINVAL;	/* HT-7: sealing would cut a hugetlb VMA */
	while (v && v->start < end) {
		unsigned long next_start = v->end;

		if (!(v->flags & VM_SEALED)) {
			v = isolate(mm, v, start, end);
			if (!v)
				return -ENOMEM;	/* MS-11: what was sealed stays sealed */
			v->flags |= VM_SEALED;
			v = merge(mm, v);
		}
		v = vma_find_from(mm, next_start);
	}
	return 0;
}

/* ---- madvise ---- */

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

/* Set or clear flag bits on v's part of [start, end), splitting and merging. */
static long set_vma_flags(struct mm *mm, struct vma *v, unsigned long start, unsigned long end,
			  unsigned set, unsigned clear)
{
	unsigned want = (v->flags | set) & ~clear;

	if (want == v->flags)
		return 0;
	v = isolate(mm, v, start, end);
	if (!v)
		return -EAGAIN;	/* MA-5 */
	v->flags = want;
	merge(mm, v);
	return 0;
}

/* Apply one advice to v's part [s, e) of the range. */
static long advise_vma(struct mm *mm, struct vma *v, unsigned long s, unsigned long e, int adv)
{
	if ((v->flags & VM_SEALED) && advice_discards(adv) && !(v->flags & VM_WRITE) &&
	    !(v->flags & VM_SHARED) && !v->name)
		return -EPERM;	/* MS-26: discarding sealed read-only anonymous memory */
	if (v->flags & VM_HUGETLB) {	/* HT-9 */
		u64 hs = hugetlb_of_vma(v)->size;

		if (adv == MADV_FREE || adv == MADV_GUARD_INSTALL || adv == MADV_GUARD_REMOVE)
			return -EINVAL;
		if (adv == MADV_DONTNEED || adv == MADV_DONTNEED_LOCKED) {
			if (!IS_ALIGNED(s, hs))
				return -EINVAL;
			if (ALIGN_DOWN(e, hs) > s)
				mm_zap_range(mm, s, ALIGN_DOWN(e, hs), false);
			return 0;
		}
		if (hugetlb_cut_check(mm, s, e))
			return -EINVAL;
	}
	switch (adv) {
	case MADV_DONTNEED:
	case MADV_DONTNEED_LOCKED:
		/*
		 * MA-6: shared anonymous memory refills from its shared object
		 * on Linux (shmem), so its data survives. Here the pages are the
		 * object: keep them mapped.
		 */
		if ((v->flags & VM_SHARED) && !v->file)
			return 0;
		mm_zap_range(mm, s, e, false);
		return 0;
	case MADV_FREE:
		if (v->flags & VM_SHARED)
			return -EINVAL;
		mm_zap_range(mm, s, e, false);	/* freed at once: reads back as zero */
		return 0;
	case MADV_REMOVE:
		/* MA-9: private anonymous memory has no file; shared anonymous
		 * memory (shmem on Linux) has its pages freed: they read as zero. */
		if (!(v->flags & VM_SHARED) || v->file)
			return -EINVAL;
		mm_zap_range(mm, s, e, false);
		return 0;
	case MADV_DONTFORK:
		return set_vma_flags(mm, v, s, e, VM_DONTFORK, 0);
	case MADV_DOFORK:
		return set_vma_flags(mm, v, s, e, 0, VM_DONTFORK);
	case MADV_WIPEONFORK:
		if (v->flags & VM_SHARED || v->name)
			return -EINVAL;	/* MA-10 */
		return set_vma_flags(mm, v, s, e, VM_WIPEONFORK, 0);
	case MADV_KEEPONFORK:
		return set_vma_flags(mm, v, s, e, 0, VM_WIPEONFORK);
	case MADV_HUGEPAGE:
		return set_vma_flags(mm, v, s, e, VM_HUGEPAGE, VM_NOHUGEPAGE);
	case MADV_NOHUGEPAGE:
		return set_vma_flags(mm, v, s, e, VM_NOHUGEPAGE, VM_HUGEPAGE);
	case MADV_GUARD_INSTALL:
		return mm_guard_install(mm, s, e);
	case MADV_GUARD_REMOVE:
		mm_guard_remove(mm, s, e);
		return 0;
	case MADV_POPULATE_READ:
	case MADV_POPULATE_WRITE:
		mm_populate(mm, s, e, adv == MADV_POPULATE_WRITE);
		return 0;
	default:	/* hints with no effect here */
		return 0;
	}
}

long sys_madvise(const unsigned long *a)
{
	struct mm *mm = cur_mm();
	unsigned long start = a[0], len = a[1], end, pos;
	int adv = (int)a[2];	/* AT-1: an int in Linux's SYSCALL_DEFINE3(madvise) */
	long err = 0, unmapped = 0;

	if (!advice_known(adv))
		return -EINVAL;	/* MA-1 */
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;	/* MA-2 */
	if (PAGE_ALIGN_UL(len) < len)
		return -EINVAL;
	end = start + PAGE_ALIGN_UL(len);
	if (end < start)
		return -EINVAL;
	if (end == start)
		return 0;	/* MA-3 */
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
