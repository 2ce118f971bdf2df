/*
 * mm.c - user address spaces (see mm.h).
 *
 * Every user page is anonymous memory from the buddy allocator, mapped one
 * page at a time through pt_map_range() (and so through the choke point).
 * A page is allocated zeroed on first touch (demand paging); fork copies
 * every present page.
 */
#include "mm.h"
#include "page_alloc.h"
#include "printk.h"
#include "errno.h"
#include "kstring.h"
#include <asm/memlayout.h>
#include <asm/tlb.h>

/* ---- ASIDs: one per address space, never shared while in use ---- */

#define NR_ASIDS 256	/* enough for every process the kernel allows */
static u8 asid_used[NR_ASIDS];

/* A free ASID (1..NR_ASIDS-1; 0 is never handed out), or -1. */
static int asid_alloc(void)
{
	for (int i = 1; i < NR_ASIDS; i++) {
		if (!asid_used[i]) {
			asid_used[i] = 1;
			return i;
		}
	}
	return -1;
}

/* Free an ASID; its TLB entries go first so a new owner cannot hit them. */
static void asid_free(int asid)
{
	arch_tlbi_space(asid);
	asid_used[asid] = 0;
}

/* ---- creation and teardown ---- */

_Static_assert(sizeof(struct mm) <= PAGE_SIZE, "struct mm lives in one page");

struct mm *mm_create(void)
{
	struct mm *mm = alloc_page_va(GFP_ZERO);

	if (!mm)
		return NULL;
	mm->pt.asid = asid_alloc();
	if (mm->pt.asid < 0 || !__pgd_alloc(&mm->pt, 0)) {
		if (mm->pt.asid >= 0)
			asid_free(mm->pt.asid);
		free_page_va(mm);
		return NULL;
	}
	mm->mmap_base = USER_MMAP_BASE;
	mm->users = 1;
	return mm;
}

void mm_put(struct mm *mm)
{
	BUG_ON(mm->users <= 0);
	if (--mm->users)
		return;
	while (mm->vmas) {
		mm_zap_range(mm, mm->vmas->start, mm->vmas->end);
		vma_remove(mm, mm->vmas);
	}
	pt_destroy(&mm->pt);
	asid_free(mm->pt.asid);
	free_page_va(mm);
}

unsigned vma_prot(unsigned vm_flags)
{
	unsigned prot = PT_USER;

	if (vm_flags & VM_READ)
		prot |= PT_READ;
	if (vm_flags & VM_WRITE)
		prot |= PT_READ | PT_WRITE;
	if (vm_flags & VM_EXEC)
		prot |= PT_READ | PT_EXEC;
	return prot;
}

/* ---- pages ---- */

phys_addr_t mm_lookup(struct mm *mm, unsigned long addr)
{
	struct pt_cursor c;

	pt_walk(&mm->pt, addr, PT_LAST_LEVEL, false, &c);
	if (!arch_pte_valid(c.val) || arch_pte_is_table(c.val, c.level))
		return 0;
	return arch_pte_pa(c.val) + (addr & (pt_level_size(c.level) - 1) & ~(PAGE_SIZE - 1));
}

/* Map a fresh zeroed page at addr (page aligned) with the VMA's protection. */
static int map_new_page(struct mm *mm, struct vma *v, unsigned long addr)
{
	struct page *pg = alloc_pages(GFP_ZERO, 0);

	if (!pg)
		return -ENOMEM;
	if (!pt_map_range(&mm->pt, addr, page_to_phys(pg), PAGE_SIZE, vma_prot(v->flags),
			  PT_LEAF(PT_LAST_LEVEL))) {
		free_pages(pg, 0);
		return -ENOMEM;
	}
	return 0;
}

int mm_fault(struct mm *mm, unsigned long addr, enum fault_access access)
{
	struct vma *v = vma_find(mm, addr);

	if (!v)
		return -SEGV_MAPERR;
	if ((access == FAULT_WRITE && !(v->flags & VM_WRITE)) ||
	    (access == FAULT_EXEC && !(v->flags & VM_EXEC)) ||
	    (access == FAULT_READ && !(v->flags & VM_ACCESS)))
		return -SEGV_ACCERR;
	if (mm_lookup(mm, addr))
		return -SEGV_ACCERR;	/* present, yet the access faulted: not allowed */
	return map_new_page(mm, v, ALIGN_DOWN(addr, PAGE_SIZE));
}

void mm_zap_range(struct mm *mm, unsigned long start, unsigned long end)
{
	for (unsigned long va = start; va < end; va += PAGE_SIZE) {
		phys_addr_t pa = mm_lookup(mm, va);

		if (!pa)
			continue;
		pt_unmap_range(&mm->pt, va, PAGE_SIZE);
		free_pages(phys_to_page(pa), 0);
	}
}

u64 mm_rss_pages(struct mm *mm, unsigned long start, unsigned long end)
{
	u64 n = 0;

	for (unsigned long va = start; va < end; va += PAGE_SIZE)
		n += mm_lookup(mm, va) != 0;
	return n;
}

int mm_unmap(struct mm *mm, unsigned long start, unsigned long len)
{
	unsigned long end = start + len;
	struct vma *v = vma_find_from(mm, start);

	while (v && v->start < end) {
		struct vma *next;

		if (v->start < start) {
			if (!vma_split(mm, v, start))
				return -ENOMEM;
			v = v->next;
		}
		if (v->end > end && !vma_split(mm, v, end))
			return -ENOMEM;
		next = v->next;
		mm_zap_range(mm, v->start, v->end);
		vma_remove(mm, v);
		v = next;
	}
	return 0;
}

int mm_write(struct mm *mm, unsigned long va, const void *src, size_t len)
{
	const u8 *s = src;

	while (len) {
		unsigned long off = va & (PAGE_SIZE - 1);
		size_t n = MIN(len, PAGE_SIZE - off);
		phys_addr_t pa = mm_lookup(mm, va);

		if (!pa) {
			struct vma *v = vma_find(mm, va);

			if (!v || map_new_page(mm, v, va - off))
				return -EFAULT;
			pa = mm_lookup(mm, va);
		}
		memcpy((u8 *)phys_to_virt(pa) + off, s, n);
		va += n;
		s += n;
		len -= n;
	}
	return 0;
}

/* ---- fork ---- */

/* Copy every present page of vma from src into dst. */
static int copy_vma_pages(struct mm *dst, struct mm *src, struct vma *v)
{
	for (unsigned long va = v->start; va < v->end; va += PAGE_SIZE) {
		phys_addr_t pa = mm_lookup(src, va);
		struct page *pg;

		if (!pa)
			continue;
		pg = alloc_pages(0, 0);
		if (!pg)
			return -ENOMEM;
		memcpy(page_address(pg), phys_to_virt(pa), PAGE_SIZE);
		if (!pt_map_range(&dst->pt, va, page_to_phys(pg), PAGE_SIZE, vma_prot(v->flags),
				  PT_LEAF(PT_LAST_LEVEL))) {
			free_pages(pg, 0);
			return -ENOMEM;
		}
	}
	return 0;
}

struct mm *mm_copy(struct mm *src)
{
	struct mm *dst = mm_create();

	if (!dst)
		return NULL;
	dst->brk_start = src->brk_start;
	dst->brk = src->brk;
	dst->mmap_base = src->mmap_base;
	dst->stack_top = src->stack_top;
	for (struct vma *v = src->vmas; v; v = v->next) {
		if (!vma_insert(dst, v->start, v->end, v->flags, v->name, v->offset) ||
		    copy_vma_pages(dst, src, v)) {
			mm_put(dst);
			return NULL;
		}
	}
	return dst;
}
