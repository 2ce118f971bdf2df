/*
 * sys_mm.c - the address-space system calls in their basic form: brk,
 * anonymous mmap/munmap, mprotect and madvise(MADV_DONTNEED).
 */
#include "syscall.h"
#include "proc.h"
#include "mm.h"
#include "errno.h"
#include "printk.h"
#include <asm/memlayout.h>

#define PROT_READ	0x1
#define PROT_WRITE	0x2
#define PROT_EXEC	0x4
#define MAP_SHARED	0x01
#define MAP_PRIVATE	0x02
#define MAP_TYPE	0x0f
#define MAP_FIXED	0x10
#define MAP_ANONYMOUS	0x20
#define MADV_NORMAL	0
#define MADV_DONTNEED	4

static unsigned prot_to_vm(unsigned long prot)
{
	unsigned f = VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC;

	if (prot & PROT_READ)
		f |= VM_READ;
	if (prot & PROT_WRITE)
		f |= VM_WRITE;
	if (prot & PROT_EXEC)
		f |= VM_EXEC;
	return f;
}

/* brk(addr): move the end of the heap; returns the (possibly unchanged) break. */
long sys_brk(const unsigned long *a)
{
	struct mm *mm = current_proc()->mm;
	unsigned long want = a[0], old_end = ALIGN_UP(mm->brk, PAGE_SIZE), new_end;
	struct vma *heap = old_end > mm->brk_start ? vma_find(mm, old_end - 1) : NULL;

	if (want < mm->brk_start)
		return (long)mm->brk;
	new_end = ALIGN_UP(want, PAGE_SIZE);
	if (new_end > old_end) {
		struct vma *next = vma_find_from(mm, old_end);

		if (next && next->start < new_end + PAGE_SIZE)
			return (long)mm->brk;	/* would run into a mapping */
		if (heap && heap->end == old_end)
			heap->end = new_end;
		else if (!vma_insert(mm, old_end, new_end, VM_READ | VM_WRITE | VM_MAYREAD |
				     VM_MAYWRITE | VM_MAYEXEC | VM_HEAP, NULL, 0))
			return (long)mm->brk;
	} else if (new_end < old_end) {
		if (mm_unmap(mm, new_end, old_end - new_end))
			return (long)mm->brk;
	}
	mm->brk = want;
	return (long)want;
}

long sys_mmap(const unsigned long *a)
{
	struct mm *mm = current_proc()->mm;
	unsigned long addr = a[0], len = a[1], prot = a[2], flags = a[3];
	struct vma *v;

	if (!len)
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (!len || len > USER_MMAP_BASE)
		return -ENOMEM;
	if ((flags & MAP_TYPE) != MAP_PRIVATE && (flags & MAP_TYPE) != MAP_SHARED)
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS))
		return -ENODEV;	/* file mappings are not supported yet */
	if (prot & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC))
		return -EINVAL;
	if (flags & MAP_FIXED) {
		if (!IS_ALIGNED(addr, PAGE_SIZE) || addr < USER_MMAP_MIN || addr + len > USER_VA_END ||
		    addr + len < addr)
			return -EINVAL;
		if (mm_unmap(mm, addr, len))
			return -ENOMEM;
	} else {
		addr = vma_find_gap_down(mm, len, mm->mmap_base, USER_MMAP_MIN);
		if (!addr)
			return -ENOMEM;
	}
	v = vma_insert(mm, addr, addr + len,
		       prot_to_vm(prot) | ((flags & MAP_TYPE) == MAP_SHARED ? VM_SHARED : 0), NULL, 0);
	return v ? (long)addr : -ENOMEM;
}

long sys_munmap(const unsigned long *a)
{
	unsigned long addr = a[0], len = ALIGN_UP(a[1], PAGE_SIZE);

	if (!IS_ALIGNED(addr, PAGE_SIZE) || !len || addr + len < addr || addr + len > USER_VA_END)
		return -EINVAL;
	return mm_unmap(current_proc()->mm, addr, len);
}

/* Rewrite the protection of every present page of v. */
static void reprotect(struct mm *mm, struct vma *v)
{
	for (unsigned long va = v->start; va < v->end; va += PAGE_SIZE) {
		struct pt_cursor c;

		pt_walk(&mm->pt, va, PT_LAST_LEVEL, false, &c);
		if (!arch_pte_valid(c.val) || c.level != PT_LAST_LEVEL)
			continue;
		pte_update(&mm->pt, c.ptep, c.val,
			   arch_pte_mk_leaf(arch_pte_pa(c.val), vma_prot(v->flags), c.level), va,
			   c.level);
	}
}

long sys_mprotect(const unsigned long *a)
{
	struct mm *mm = current_proc()->mm;
	unsigned long start = a[0], end, prot = a[2];
	struct vma *v;

	if (!IS_ALIGNED(start, PAGE_SIZE) || (prot & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC)))
		return -EINVAL;
	if (!a[1])
		return 0;
	end = start + ALIGN_UP(a[1], PAGE_SIZE);
	if (end <= start)
		return -ENOMEM;
	v = vma_find(mm, start);
	if (!v)
		return -ENOMEM;
	while (v && v->start < end) {
		if (v->start < start && !(v = vma_split(mm, v, start)))
			return -ENOMEM;
		if (v->end > end && !vma_split(mm, v, end))
			return -ENOMEM;
		v->flags = (v->flags & ~VM_ACCESS) | (prot_to_vm(prot) & VM_ACCESS);
		reprotect(mm, v);
		if (v->end >= end)
			return 0;
		if (!v->next || v->next->start != v->end)
			return -ENOMEM;	/* a hole in the range */
		v = v->next;
	}
	return 0;
}

long sys_madvise(const unsigned long *a)
{
	struct mm *mm = current_proc()->mm;
	unsigned long start = a[0], end = start + ALIGN_UP(a[1], PAGE_SIZE);

	if (!IS_ALIGNED(start, PAGE_SIZE) || end < start)
		return -EINVAL;
	switch (a[2]) {
	case MADV_NORMAL:
		return 0;
	case MADV_DONTNEED:
		for (struct vma *v = vma_find_from(mm, start); v && v->start < end; v = v->next)
			mm_zap_range(mm, MAX(v->start, start), MIN(v->end, end));
		return 0;
	default:
		return -EINVAL;
	}
}
