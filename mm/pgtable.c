/*
 * pgtable.c - the generic page-table walker, table-page allocation and
 * accounting, and the single accessor for table pages.
 *
 * How a table page is reached (pt_page_va), in this order:
 *   1. MMU off (before pt_mmu_enabled): at its physical address.
 *   2. Inside the kernel image (static tables, the kernel root): through the
 *      image alias, which no linear-map change can ever hide.
 *   3. The linear map, once it is complete, unless the page lies in the
 *      physical range a break-before-make is about to unmap.
 *   4. Otherwise a fixmap slot, one per level, so that a walk can hold a
 *      parent and a child table at once.
 *
 * Table pages come from memblock (cleared here, memblock does not zero)
 * until pt_use_page_allocator(), then from alloc_pages(GFP_ZERO, 0), which
 * zeroes them; they are never cleared a second time.
 */
#include "pgtable.h"
#include "fixmap.h"
#include "memblock.h"
#include "page_alloc.h"

enum pt_access {
	PT_ACCESS_PHYS,     /* MMU off: VA == PA */
	PT_ACCESS_MMU,      /* MMU on, no linear map yet: image alias or fixmap */
	PT_ACCESS_LINEAR,   /* the linear map is complete */
};

static struct {
	enum pt_access access;
	bool use_buddy;
	phys_addr_t kimage_pa;
	unsigned long kimage_va;
	u64 kimage_size;
	phys_addr_t linear_base;   /* the PA mapped at PAGE_OFFSET */
	phys_addr_t break_pa;      /* range being broken by BBM, size 0 if none */
	u64 break_size;
	u64 tables[2];             /* live table pages: [0] kernel, [1] user */
	u64 early;                 /* table pages ever taken from memblock */
	u64 fixmap_uses;           /* pt_page_va answers through the fixmap */
} pt;

bool pt_bbml2;

void pt_init(phys_addr_t kimage_pa, unsigned long kimage_va, u64 kimage_size)
{
	__builtin_memset(&pt, 0, sizeof(pt));
	pt.access = PT_ACCESS_PHYS;
	pt.kimage_pa = kimage_pa;
	pt.kimage_va = kimage_va;
	pt.kimage_size = kimage_size;
	pte_update_reset_counts();
}

void pt_mmu_enabled(void)
{
	pt.access = PT_ACCESS_MMU;
}

void pt_linear_map_live(phys_addr_t base_pa)
{
	PT_ASSERT(pt.access != PT_ACCESS_PHYS, "linear map live with the MMU off (base 0x%llx)",
		  (pt_ull)base_pa);
	pt.linear_base = base_pa;
	pt.access = PT_ACCESS_LINEAR;
}

void pt_use_page_allocator(void)
{
	pt.use_buddy = true;
}

bool pt_linear_is_live(void)
{
	return pt.access == PT_ACCESS_LINEAR;
}

unsigned long pt_linear_va(phys_addr_t pa)
{
	return PAGE_OFFSET + (unsigned long)(pa - pt.linear_base);
}

phys_addr_t pt_linear_pa(unsigned long va)
{
	return pt.linear_base + (va - PAGE_OFFSET);
}

bool pt_pa_in_kimage(phys_addr_t pa)
{
	return pa >= pt.kimage_pa && pa - pt.kimage_pa < pt.kimage_size;
}

phys_addr_t pt_kimage_pa(unsigned long va)
{
	PT_ASSERT(va >= pt.kimage_va && va - pt.kimage_va < pt.kimage_size,
		  "va 0x%lx outside the image at 0x%lx (+0x%llx)", va, pt.kimage_va,
		  (pt_ull)pt.kimage_size);
	return pt.kimage_pa + (va - pt.kimage_va);
}

/* ---- the table-page accessor ---- */

static bool pa_being_broken(phys_addr_t pa)
{
	return pt.break_size && pa >= pt.break_pa && pa - pt.break_pa < pt.break_size;
}

pteval_t *pt_page_va(phys_addr_t pa, int level)
{
	PT_ASSERT(IS_ALIGNED(pa, PAGE_SIZE), "table page 0x%llx (level %d) not aligned",
		  (pt_ull)pa, level);
	if (pt.access == PT_ACCESS_PHYS)
		return (pteval_t *)(uintptr_t)pa;
	if (pt_pa_in_kimage(pa))
		return (pteval_t *)(pt.kimage_va + (unsigned long)(pa - pt.kimage_pa));
	if (pt.access == PT_ACCESS_LINEAR && !pa_being_broken(pa))
		return (pteval_t *)pt_linear_va(pa);
	pt.fixmap_uses++;
	return fixmap_map_table(level, pa);
}

pteval_t *pt_entry_ptr(phys_addr_t table, int level, unsigned long idx)
{
	u64 off = (u64)idx * sizeof(pteval_t);
	pteval_t *page = pt_page_va(table + ALIGN_DOWN(off, (u64)PAGE_SIZE), level);

	return page + (off % PAGE_SIZE) / sizeof(pteval_t);
}

void pt_break_begin(phys_addr_t pa, u64 size)
{
	PT_ASSERT(pt.break_size == 0, "nested break of 0x%llx while 0x%llx+0x%llx is broken",
		  (pt_ull)pa, (pt_ull)pt.break_pa, (pt_ull)pt.break_size);
	pt.break_pa = pa;
	pt.break_size = size;
}

void pt_break_end(void)
{
	pt.break_size = 0;
}

/* ---- allocation and accounting ---- */

static void pt_count(bool user, int delta)
{
	u64 *c = &pt.tables[user ? 1 : 0];

	PT_ASSERT(delta > 0 || *c >= (u64)-delta, "%s table count %llu delta %d", user ? "user" : "kernel",
		  (pt_ull)*c, delta);
	*c += delta;
	page_alloc_count_pt(user, delta);
}

/* Zero a table page that is not live yet (memblock memory comes dirty). */
static void pt_clear_page(phys_addr_t pa, int level)
{
	pteval_t *t = pt_page_va(pa, level);

	for (unsigned long i = 0; i < PAGE_SIZE / sizeof(pteval_t); i++)
		pt_write_new(&t[i], ARCH_PTE_INVALID);
}

/* 2^order zeroed pages for tables of 'level', or 0 when out of memory. */
static phys_addr_t pt_alloc_pages(int level, unsigned order)
{
	phys_addr_t pa;

	if (pt.use_buddy) {
		struct page *pg = alloc_pages(GFP_ZERO, order);

		return pg ? page_to_phys(pg) : 0;
	}
	pa = memblock_alloc((u64)PAGE_SIZE << order, (u64)PAGE_SIZE << order);
	for (unsigned i = 0; i < (1u << order); i++)
		pt_clear_page(pa + (u64)i * PAGE_SIZE, level);
	pt.early += 1u << order;
	return pa;
}

/*
 * Give back 2^order table pages. Pages from memblock were never given to
 * the buddy allocator (their struct page is not an allocated head): they
 * stay reserved, as memblock has no free.
 */
static void pt_free_pages(phys_addr_t pa, unsigned order)
{
	struct page *pg = phys_to_page(pa);

	if (pg && (pg->flags & PG_HEAD))
		free_pages(pg, order);
}

phys_addr_t pxd_alloc(const struct pt_space *as, int level)
{
	phys_addr_t pa;

	PT_ASSERT(level > 0 && level < PT_LEVELS, "level %d", level);
	pa = pt_alloc_pages(level, 0);
	if (pa)
		pt_count(pt_space_is_user(as), 1);
	return pa;
}

void pxd_free(const struct pt_space *as, phys_addr_t pa, int level)
{
	PT_ASSERT(level > 0 && level < PT_LEVELS, "level %d (pa 0x%llx)", level, (pt_ull)pa);
	pt_free_pages(pa, 0);
	pt_count(pt_space_is_user(as), -1);
}

bool __pgd_alloc(struct pt_space *as, unsigned order)
{
	phys_addr_t pa = pt_alloc_pages(0, order);

	if (!pa)
		return false;
	as->root = pa;
	as->root_order = order;
	pt_count(pt_space_is_user(as), 1 << order);
	return true;
}

void __pgd_free(struct pt_space *as)
{
	pt_free_pages(as->root, as->root_order);
	pt_count(pt_space_is_user(as), -(1 << as->root_order));
	as->root = 0;
}

void pt_space_init(struct pt_space *as, phys_addr_t root, unsigned order, int asid)
{
	as->root = root;
	as->root_order = order;
	as->asid = asid;
}

void pt_get_stats(struct pt_stats *out)
{
	out->kernel_tables = pt.tables[0];
	out->user_tables = pt.tables[1];
	out->early_tables = pt.early;
	pte_update_counts(&out->bbm, &out->inplace);
	out->fixmap_remaps = fixmap_remap_count();
	out->fixmap_uses = pt.fixmap_uses;
}

/* ---- walking ---- */

/* Read entry idx of table (at level) into the cursor. */
static void cursor_load(struct pt_cursor *c, phys_addr_t table, int level, unsigned long va)
{
	c->table = table;
	c->level = level;
	c->va = va & ~(unsigned long)(pt_level_size(level) - 1);
	c->ptep = pt_entry_ptr(table, level, pt_index(va, level));
	c->val = arch_pte_read(c->ptep);
}

bool pt_walk(const struct pt_space *as, unsigned long va, int level, bool alloc,
	     struct pt_cursor *c)
{
	phys_addr_t table = as->root;

	for (int l = 0;; l++) {
		cursor_load(c, table, l, va);
		if (l == level)
			return true;
		if (arch_pte_is_table(c->val, l)) {
			table = arch_pte_pa(c->val);
			continue;
		}
		if (arch_pte_valid(c->val) || !alloc)
			return true;   /* a leaf above 'level', or a hole */
		table = pxd_alloc(as, l + 1);
		if (!table)
			return false;
		pteval_t tv = arch_pte_mk_table(table, pt_space_is_user(as));
		pte_update(as, c->ptep, c->val, tv, c->va, l);
		c->val = tv;
	}
}

/* ---- mapping ---- */

/* The highest level whose leaf fits va, pa and size (pages always allowed). */
static int pick_leaf_level(unsigned long va, phys_addr_t pa, u64 size, unsigned allowed)
{
	/* LAB layout: begin; stub: (void)va; (void)pa; (void)size; (void)allowed; return PT_LAST_LEVEL; */
	for (int l = 0; l < PT_LAST_LEVEL; l++) {
		u64 sz = pt_level_size(l);

		if ((allowed & PT_LEAF(l)) && arch_pt_leaf_ok(l) && IS_ALIGNED(va, sz) &&
		    IS_ALIGNED(pa, sz) && size >= sz)
			return l;
	}
	return PT_LAST_LEVEL;
	/* LAB layout: end */
}

/* Write n leaves starting at the cursor; they must be invalid or equal already. */
static void map_leaves(const struct pt_space *as, const struct pt_cursor *c, unsigned long n,
		       pteval_t first)
{
	bool all_invalid = true, all_same = true;

	for (unsigned long i = 0; i < n; i++) {
		pteval_t cur = arch_pte_read(c->ptep + i);
		pteval_t want = arch_pte_oa_add(first, i * pt_level_size(c->level));

		all_invalid &= !arch_pte_valid(cur);
		all_same &= cur == want;
	}
	if (all_same)
		return;
	PT_ASSERT(all_invalid, "va 0x%lx level %d already mapped: 0x%llx, want 0x%llx",
		  c->va, c->level, (pt_ull)arch_pte_read(c->ptep), (pt_ull)first);
	pte_update_run(as, c->ptep, n, first, c->va, c->level);
}

bool pt_map_range(const struct pt_space *as, unsigned long va, phys_addr_t pa, u64 size,
		  unsigned prot, unsigned allowed)
{
	PT_ASSERT(IS_ALIGNED(va | pa | size, (u64)PAGE_SIZE), "va 0x%lx pa 0x%llx size 0x%llx",
		  va, (pt_ull)pa, (pt_ull)size);
	prot &= ~PT_CONT;
	while (size) {
		int level = pick_leaf_level(va, pa, size, allowed);
		unsigned long n = arch_pt_cont_entries(level);
		u64 run = pt_run_size(level);
		unsigned p = prot;
		struct pt_cursor c;

		/* LAB layout: begin; stub: (void)run; n = 1; */
		if ((allowed & PT_ALLOW_CONT) && n > 1 && IS_ALIGNED(va, run) &&
		    IS_ALIGNED(pa, run) && size >= run)
			p |= PT_CONT;
		else
			n = 1;
		/* LAB layout: end */
		if (!pt_walk(as, va, level, true, &c))
			return false;
		PT_ASSERT(c.level == level, "va 0x%lx: level-%d leaf 0x%llx already there",
			  va, c.level, (pt_ull)c.val);
		map_leaves(as, &c, n, arch_pte_mk_leaf(pa, p, level));
		va += n * pt_level_size(level);
		pa += n * pt_level_size(level);
		size -= n * pt_level_size(level);
	}
	return true;
}

void pt_unmap_range(const struct pt_space *as, unsigned long va, u64 size)
{
	unsigned long end = va + size;

	while (va < end) {
		struct pt_cursor c;
		u64 sz;
		unsigned long n;

		pt_walk(as, va, PT_LAST_LEVEL, false, &c);
		sz = pt_level_size(c.level);
		if (!arch_pte_valid(c.val)) {
			va = c.va + sz;
			continue;
		}
		n = arch_pte_is_cont(c.val) ? arch_pt_cont_entries(c.level) : 1;
		PT_ASSERT(IS_ALIGNED(va, n * sz) && end - va >= n * sz,
			  "unmap [0x%lx, 0x%lx) cuts a level-%d leaf of 0x%llx bytes", va, end,
			  c.level, (pt_ull)(n * sz));
		pte_update_run(as, c.ptep, n, ARCH_PTE_INVALID, va, c.level);
		va += n * sz;
	}
}

/* Free the table at pa (of 'level') and every table below it; none is live. */
static void free_subtree(const struct pt_space *as, phys_addr_t pa, int level)
{
	if (level < PT_LAST_LEVEL) {
		for (unsigned long i = 0; i < arch_pt_entries(level); i++) {
			pteval_t v = arch_pte_read(pt_entry_ptr(pa, level, i));

			if (arch_pte_is_table(v, level))
				free_subtree(as, arch_pte_pa(v), level + 1);
		}
	}
	pxd_free(as, pa, level);
}

bool pt_table_is_empty(phys_addr_t pa, int level)
{
	for (unsigned long i = 0; i < arch_pt_entries(level); i++) {
		pteval_t v = arch_pte_read(pt_entry_ptr(pa, level, i));

		if (level < PT_LAST_LEVEL && arch_pte_is_table(v, level)) {
			if (!pt_table_is_empty(arch_pte_pa(v), level + 1))
				return false;
		} else if (v != ARCH_PTE_INVALID) {
			return false;
		}
	}
	return true;
}

bool pt_free_empty_table(const struct pt_space *as, struct pt_cursor *c)
{
	phys_addr_t table;

	PT_ASSERT(c->level < PT_LAST_LEVEL && arch_pte_is_table(c->val, c->level),
		  "va 0x%lx level %d: 0x%llx is not a table", c->va, c->level, (pt_ull)c->val);
	table = arch_pte_pa(c->val);
	if (!pt_table_is_empty(table, c->level + 1))
		return false;
	/* Unlink first (the choke point invalidates the walk caches), then free. */
	pte_update(as, c->ptep, c->val, ARCH_PTE_INVALID, c->va, c->level);
	c->val = ARCH_PTE_INVALID;
	free_subtree(as, table, c->level + 1);
	return true;
}

void pt_destroy(struct pt_space *as)
{
	for (unsigned long i = 0; i < arch_pt_entries(0); i++) {
		pteval_t *ptep = pt_entry_ptr(as->root, 0, i);
		pteval_t v = arch_pte_read(ptep);
		unsigned long va = (unsigned long)((u64)i << arch_pt_shift(0));

		if (!arch_pte_is_table(v, 0))
			continue;
		if (!pt_space_is_user(as))
			va += KERNEL_ROOT_VA_BASE;
		pte_update(as, ptep, v, ARCH_PTE_INVALID, va, 0);
		free_subtree(as, arch_pte_pa(v), 1);
	}
	__pgd_free(as);
}
