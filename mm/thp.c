/*
 * thp.c - transparent huge pages (see thp.h).
 */
#include "thp.h"
#include "page_alloc.h"
#include "printk.h"
#include "errno.h"
#include "kstring.h"

int opt_thp = THP_MADVISE;
static u64 thp_leaves;	/* huge leaves mapped now, system-wide */

static unsigned thp_order(void)
{
	unsigned order = 0;

	while (((u64)PAGE_SIZE << order) < pt_level_size(THP_LEVEL))
		order++;
	return order;
}

/* Does policy allow huge leaves in v (private anonymous memory only)? */
static bool thp_allowed(const struct vma *v)
{
	if (!arch_pt_leaf_ok(THP_LEVEL) || thp_order() >= MAX_ORDER)
		return false;
	if (v->flags & (VM_SHARED | VM_HUGETLB | VM_NOHUGEPAGE) || v->name || v->file)
		return false;
	return opt_thp == THP_ALWAYS || (opt_thp == THP_MADVISE && (v->flags & VM_HUGEPAGE));
}

int thp_fault(struct mm *mm, struct vma *v, unsigned long addr)
{
	u64 size = pt_level_size(THP_LEVEL);
	unsigned long base = ALIGN_DOWN(addr, size);
	struct pt_cursor c;
	struct page *pg;
	phys_addr_t table;
	unsigned prot;

	if (!thp_allowed(v) || base < v->start || base + size > v->end || base + size < base)
		return 1;
	if (!(v->flags & VM_ACCESS))
		return 1;
	if (!pt_walk(&mm->pt, base, THP_LEVEL, true, &c) || c.level != THP_LEVEL ||
	    c.val != ARCH_PTE_INVALID)
		return 1;	/* a table or something else is there already */
	vma_anon_prepare(v);	/* MF-7: Linux prepares the anon_vma first, read or write */
	table = pxd_alloc(&mm->pt, THP_LEVEL + 1);	/* the deposit thp_split() will use */
	if (!table)
		return 1;
	pg = alloc_pages(GFP_ZERO, thp_order());
	if (!pg) {
		pxd_free(&mm->pt, table, THP_LEVEL + 1);
		return 1;	/* no free block: small pages will do */
	}
	pg->next = phys_to_page(table);	/* unused in an allocated block: the deposit */
	prot = vma_prot(v->flags);
	pte_update(&mm->pt, c.ptep, c.val, arch_pte_mk_leaf(page_to_phys(pg), prot, THP_LEVEL), base,
		   THP_LEVEL);
	thp_leaves++;
	return 0;
}

void thp_split(struct mm *mm, struct pt_cursor *c)
{
	struct page *pg = phys_to_page(arch_pte_pa(c->val));
	unsigned prot = arch_pte_prot(c->val) & ~PT_CONT;
	phys_addr_t table;
	unsigned long n = arch_pt_entries(c->level + 1);

	BUG_ON(c->level != THP_LEVEL || !pg || !pg->next);
	table = page_to_phys(pg->next);	/* deposited by thp_fault(): a split never needs memory */
	pg->next = NULL;
	/* The new table is not reachable yet: fill it, then swap it in. */
	for (unsigned long i = 0; i < n; i++)
		pt_write_new(pt_entry_ptr(table, c->level + 1, i),
			     arch_pte_mk_leaf(page_to_phys(pg) + i * PAGE_SIZE, prot, c->level + 1));
	split_page(pg, thp_order());	/* from now on 512 pages, each with its own count */
	pte_update(&mm->pt, c->ptep, c->val, arch_pte_mk_table(table, true), c->va, c->level);
	thp_leaves--;
}

bool thp_collapse_allowed(const struct vma *v)
{
	u64 size = pt_level_size(THP_LEVEL);

	if (!arch_pt_leaf_ok(THP_LEVEL) || thp_order() >= MAX_ORDER)
		return false;
	if (v->flags & (VM_SHARED | VM_HUGETLB | VM_NOHUGEPAGE) || v->name || v->file)
		return false;
	return v->end - v->start >= size && ALIGN_DOWN(v->end - size, size) >= v->start;
}

/* The page a last-level entry holds (a leaf or a PROT_NONE entry), or NULL. */
static struct page *held_page(pteval_t e)
{
	if (arch_pte_valid(e))
		return phys_to_page(arch_pte_pa(e));
	if (arch_pte_swp_kind(e) == ARCH_SWP_PROTNONE)
		return phys_to_page(arch_pte_swp_pa(e));
	return NULL;
}

int thp_collapse(struct mm *mm, struct vma *v, unsigned long base)
{
	u64 size = pt_level_size(THP_LEVEL);
	unsigned long n = arch_pt_entries(PT_LAST_LEVEL);
	bool writable = false;
	struct pt_cursor c;
	phys_addr_t table, deposit;
	struct page *pg;

	pt_walk(&mm->pt, base, THP_LEVEL, false, &c);
	if (c.level != THP_LEVEL || c.val == ARCH_PTE_INVALID)
		return 1;	/* nothing mapped there */
	if (!arch_pte_is_table(c.val, c.level))
		return 0;	/* a huge leaf already */
	table = arch_pte_pa(c.val);
	for (unsigned long i = 0; i < n; i++) {
		pteval_t e = arch_pte_read(pt_entry_ptr(table, PT_LAST_LEVEL, i));

		if (arch_pte_swp_kind(e) == ARCH_SWP_GUARD)
			return 1;
		writable |= arch_pte_valid(e) && (arch_pte_prot(e) & PT_WRITE);
	}
	if (!writable)
		return 1;	/* Linux's scan wants one writable entry */
	deposit = pxd_alloc(&mm->pt, PT_LAST_LEVEL);
	pg = deposit ? alloc_pages(0, thp_order()) : NULL;
	if (!pg) {
		if (deposit)
			pxd_free(&mm->pt, deposit, PT_LAST_LEVEL);
		return -ENOMEM;
	}
	for (unsigned long i = 0; i < n; i++) {
		struct page *old = held_page(arch_pte_read(pt_entry_ptr(table, PT_LAST_LEVEL, i)));
		u8 *to = (u8 *)page_address(pg) + i * PAGE_SIZE;

		if (old)
			memcpy(to, page_address(old), PAGE_SIZE);
		else
			memset(to, 0, PAGE_SIZE);
	}
	/* The small pages go first (their TLB entries with them), then the empty table. */
	mm_zap_range(mm, base, base + size, true);
	pt_walk(&mm->pt, base, THP_LEVEL, false, &c);
	if (!pt_free_empty_table(&mm->pt, &c))
		panic("thp: va 0x%lx: the table still maps something after the collapse's zap", base);
	pg->next = phys_to_page(deposit);
	pte_update(&mm->pt, c.ptep, c.val, arch_pte_mk_leaf(page_to_phys(pg), vma_prot(v->flags), THP_LEVEL), base,
		   THP_LEVEL);
	thp_leaves++;
	return 0;
}

u64 thp_total_bytes(void)
{
	return thp_leaves * pt_level_size(THP_LEVEL);
}

u64 thp_range_bytes(struct mm *mm, unsigned long start, unsigned long end)
{
	u64 size = pt_level_size(THP_LEVEL), n = 0;

	for (unsigned long va = ALIGN_DOWN(start, size); va < end && va >= ALIGN_DOWN(start, size); va += size) {
		struct pt_cursor c;

		pt_walk(&mm->pt, va, THP_LEVEL, false, &c);
		if (c.level == THP_LEVEL && arch_pte_valid(c.val) && !arch_pte_is_table(c.val, c.level))
			n += size;
	}
	return n;
}
