/*
 * linear_map.c - build the linear map, and split it live for set_memory_*().
 *
 * Splitting a live kernel mapping is the delicate part. While the old block
 * (or contiguous run) is invalid, nothing may touch its virtual range:
 *   - the table page holding the descriptor may lie inside the block: we
 *     declare the block's physical range broken first (size_change_begin), so
 *     pt_page_va() reaches that page through the fixmap (or the image
 *     alias) instead of the linear map, and re-walk to get the pointer;
 *   - the new table page may lie inside the block: it is filled before it
 *     is linked, through the same rule, and the BBM's dsb ishst makes its
 *     contents visible to the walkers before the table descriptor is;
 *   - the current stack may lie inside the block: the invalid window is a
 *     single asm sequence (arch_bbm_run) that keeps everything in
 *     registers, so no stack access happens until the new entry is live.
 * A split never changes what any address translates to, only the leaf
 * sizes, so after it the linear alias of every page is valid again.
 * With BBML2 a split or an unfold is made in place and nothing is ever
 * invalid, so none of this applies: size_change_begin() declares no break.
 */
#include "linear_map.h"
#include "memblock.h"
#include "errno.h"

static struct {
	const struct pt_space *kernel;
	struct linear_map_config cfg;
	unsigned allowed;        /* PT_LEAF / PT_ALLOW_CONT mask from cfg.mode */
	phys_addr_t base;        /* PA mapped at PAGE_OFFSET */
	unsigned long end;       /* first VA past the highest bank */
} lm;

static unsigned allowed_for_mode(int mode)
{
	switch (mode) {
	case LINEAR_MAP_PTE:
		return PT_LEAF(PT_LAST_LEVEL);
	case LINEAR_MAP_CONT:
		return PT_LEAF(PT_LAST_LEVEL) | PT_ALLOW_CONT;
	default:
		return PT_LEAF_ANY | PT_ALLOW_CONT;
	}
}

static unsigned long lm_va(phys_addr_t pa)
{
	return PAGE_OFFSET + (unsigned long)(pa - lm.base);
}

static phys_addr_t lm_pa(unsigned long va)
{
	return lm.base + (va - PAGE_OFFSET);
}

unsigned long linear_map_end(void)
{
	return lm.end;
}

/* ---- building ---- */

/* Map the physical range [start, end) (if not empty) with prot. */
static void map_piece(phys_addr_t start, phys_addr_t end, unsigned prot)
{
	if (start >= end)
		return;
	if (!pt_map_range(lm.kernel, lm_va(start), start, end - start, prot, lm.allowed))
		panic("linear map: out of memory mapping 0x%llx-0x%llx", (pt_ull)start, (pt_ull)end);
}

/*
 * Map one bank. Under rodata=full the image's text+rodata alias is its own
 * piece, read-only, so only its edges are mapped with smaller leaves.
 */
static void map_bank(phys_addr_t start, phys_addr_t end)
{
	phys_addr_t ro_s = lm.cfg.ro_start, ro_e = lm.cfg.ro_end;

	if (lm.cfg.rodata != RODATA_FULL || ro_e <= start || ro_s >= end) {
		map_piece(start, end, PT_KERNEL_RW);
		return;
	}
	map_piece(start, MAX(start, ro_s), PT_KERNEL_RW);
	map_piece(MAX(start, ro_s), MIN(end, ro_e), PT_KERNEL_RO);
	map_piece(MIN(end, ro_e), end, PT_KERNEL_RW);
}

void linear_map_build(const struct pt_space *kernel, const struct linear_map_config *cfg)
{
	int nbanks = memblock_ram_count();
	phys_addr_t base;
	u64 size;

	PT_ASSERT(nbanks > 0, "no RAM banks (%d)", nbanks);
	__builtin_memset(&lm, 0, sizeof(lm));
	lm.kernel = kernel;
	lm.cfg = *cfg;
	lm.cfg.ro_start = ALIGN_DOWN(cfg->ro_start, (u64)PAGE_SIZE);
	lm.cfg.ro_end = ALIGN_UP(cfg->ro_end, (u64)PAGE_SIZE);
	lm.allowed = allowed_for_mode(cfg->mode);
	memblock_ram_range(0, &base, &size);
	lm.base = ALIGN_DOWN(base, pt_level_size(PT_LARGEST_LEAF_LEVEL));
	for (int i = 0; i < nbanks; i++) {
		memblock_ram_range(i, &base, &size);
		phys_addr_t s = ALIGN_UP(base, (u64)PAGE_SIZE);
		phys_addr_t e = ALIGN_DOWN(base + size, (u64)PAGE_SIZE);

		PT_ASSERT(e - lm.base <= PAGE_END - PAGE_OFFSET, "bank 0x%llx-0x%llx beyond the linear map",
			  (pt_ull)base, (pt_ull)(base + size));
		map_bank(s, e);
		lm.end = MAX(lm.end, lm_va(e));
	}
	pt_linear_map_live(lm.base);
}

/* ---- splitting ---- */

/*
 * Declare that the block or run mapping [pa, pa + size) is about to change
 * size (a split or an unfold). Without BBML2 the change is a break: the
 * range is declared broken (pt_break_begin), so pt_page_va() reaches table
 * pages inside it through the fixmap. With BBML2 pte_update() makes it in
 * place (pte_bbml2_size_change), the range stays mapped throughout, and
 * nothing is declared: the linear map keeps serving the table pages inside
 * it. (Declaring it anyway would send them to a fixmap slot, and remapping
 * a slot is itself a break with the other CPUs held.) Returns whether a
 * break was declared, for size_change_end().
 */
static bool size_change_begin(phys_addr_t pa, u64 size)
{
	if (pt_bbml2)
		return false;
	pt_break_begin(pa, size);
	return true;
}

/* End what size_change_begin() declared. */
static void size_change_end(bool broken)
{
	if (broken)
		pt_break_end();
}

/* Clear the contiguous bit on the whole run holding c: BBM over all its entries. */
static void unfold_run(const struct pt_cursor *c)
{
	unsigned long n = arch_pt_cont_entries(c->level);
	u64 run = pt_run_size(c->level);
	unsigned long run_va = ALIGN_DOWN(c->va, run);
	struct pt_cursor r;
	pteval_t first;

	bool broken = size_change_begin(lm_pa(run_va), run);

	pt_walk(lm.kernel, run_va, c->level, false, &r);   /* pointer through a safe alias */
	first = arch_pte_read(r.ptep);
	PT_ASSERT(arch_pte_is_cont(first), "va 0x%lx: run start 0x%llx lost its CONT bit", run_va,
		  (pt_ull)first);
	first = arch_pte_mk_leaf(arch_pte_pa(first), arch_pte_prot(first) & ~PT_CONT, c->level);
	pte_update_run(lm.kernel, r.ptep, n, first, run_va, c->level);
	size_change_end(broken);
}

/* Fill the unlinked table t (of 'level') with leaves covering pa onwards. */
static void fill_table(phys_addr_t t, int level, phys_addr_t pa, unsigned prot)
{
	pteval_t *p = pt_page_va(t, level);
	u64 size = pt_level_size(level);

	if ((lm.allowed & PT_ALLOW_CONT) && arch_pt_cont_entries(level) > 1)
		prot |= PT_CONT;
	for (unsigned long i = 0; i < arch_pt_entries(level); i++)
		pt_write_new(&p[i], arch_pte_mk_leaf(pa + i * size, prot, level));
}

/* Replace the block at c by a table of next-level leaves mapping the same. */
static int split_block(const struct pt_cursor *c)
{
	/* LAB bbm: begin; stub: (void)c; (void)fill_table; return -ENOSYS; */
	u64 size = pt_level_size(c->level);
	phys_addr_t pa = arch_pte_pa(c->val);
	unsigned prot = arch_pte_prot(c->val) & ~PT_CONT;
	struct pt_cursor r;
	phys_addr_t t;

	bool broken = size_change_begin(pa, size);

	t = pxd_alloc(lm.kernel, c->level + 1);
	if (!t) {
		size_change_end(broken);
		return -ENOMEM;
	}
	fill_table(t, c->level + 1, pa, prot);
	pt_walk(lm.kernel, c->va, c->level, false, &r);    /* pointer through a safe alias */
	pte_update(lm.kernel, r.ptep, r.val, arch_pte_mk_table(t, false), r.va, r.level);
	size_change_end(broken);
	return 0;
	/* LAB bbm: end */
}

int linear_map_split(unsigned long addr)
{
	for (;;) {
		struct pt_cursor c;

		pt_walk(lm.kernel, addr, PT_LAST_LEVEL, false, &c);
		if (!arch_pte_valid(c.val))
			return 0;
		if (arch_pte_is_cont(c.val) && !IS_ALIGNED(addr, pt_run_size(c.level))) {
			unfold_run(&c);
			continue;
		}
		if (IS_ALIGNED(addr, pt_level_size(c.level)))
			return 0;
		int err = split_block(&c);
		if (err)
			return err;
	}
}

/* ---- repainting to pages ---- */

/*
 * Make every leaf of the linear map a page, and forbid anything larger
 * from now on (bbml2=: a CPU without BBML2 came online). Walks the map
 * once: a block is split (and re-walked: a 1 GiB block becomes 2 MiB
 * blocks first), a contiguous run unfolded, a last-level table scanned in
 * place. The caller holds the other CPUs still (arch_pt_hold_others), as
 * every change here is a live break-before-make of the linear map.
 */
int linear_map_repaint_pages(u64 *splits, u64 *unfolds)
{
	/* LAB bbml2: begin; stub: (void)splits; (void)unfolds; return -ENOSYS; */
	unsigned long va = PAGE_OFFSET;

	lm.cfg.mode = LINEAR_MAP_PTE;
	lm.allowed = allowed_for_mode(LINEAR_MAP_PTE);
	while (va < lm.end) {
		struct pt_cursor c;
		unsigned long i, n;

		pt_walk(lm.kernel, va, PT_LAST_LEVEL, false, &c);
		if (!arch_pte_valid(c.val)) {
			va = c.va + pt_level_size(c.level);
			continue;
		}
		if (arch_pte_is_cont(c.val)) {
			unfold_run(&c);
			(*unfolds)++;
			continue;
		}
		if (c.level != PT_LAST_LEVEL) {
			int err = split_block(&c);

			if (err)
				return err;
			(*splits)++;
			continue;
		}
		/* A page: skip the plain pages that follow it in its table. */
		n = arch_pt_entries(PT_LAST_LEVEL) - pt_index(va, PT_LAST_LEVEL);
		for (i = 1; i < n && va + i * PAGE_SIZE < lm.end; i++) {
			pteval_t v = arch_pte_read(c.ptep + i);

			if (!arch_pte_valid(v) || arch_pte_is_cont(v))
				break;
		}
		va += i * PAGE_SIZE;
	}
	return 0;
	/* LAB bbml2: end */
}

/* ---- re-merging ---- */

/*
 * Does the table t (of 'level') hold leaves mapping one naturally aligned,
 * physically contiguous range with the same permissions (CONT aside)?
 * Returns their generic prot in *prot and the first PA in *pa.
 */
static bool table_uniform(phys_addr_t t, int level, u64 parent_size, unsigned *prot, phys_addr_t *pa)
{
	pteval_t *p = pt_page_va(t, level);
	pteval_t first = arch_pte_read(&p[0]);

	if (!arch_pte_is_leaf(first, level) || !IS_ALIGNED(arch_pte_pa(first), parent_size))
		return false;
	*pa = arch_pte_pa(first);
	*prot = arch_pte_prot(first) & ~PT_CONT;
	for (unsigned long i = 1; i < arch_pt_entries(level); i++) {
		pteval_t v = arch_pte_read(&p[i]);

		if (!arch_pte_is_leaf(v, level) || (arch_pte_prot(v) & ~PT_CONT) != *prot ||
		    arch_pte_pa(v) != *pa + i * pt_level_size(level))
			return false;
	}
	return true;
}

/* Replace the table entry c by one block, if its table is uniform. */
static bool merge_table(const struct pt_cursor *c)
{
	u64 size = pt_level_size(c->level);
	phys_addr_t t = arch_pte_pa(c->val), pa;
	unsigned prot;
	struct pt_cursor r;

	if (!arch_pt_leaf_ok(c->level) || !(lm.allowed & PT_LEAF(c->level)) ||
	    !table_uniform(t, c->level + 1, size, &prot, &pa))
		return false;
	pt_break_begin(pa, size);
	pt_walk(lm.kernel, c->va, c->level, false, &r);    /* pointer through a safe alias */
	pte_update(lm.kernel, r.ptep, r.val, arch_pte_mk_leaf(pa, prot, r.level), r.va, r.level);
	pt_break_end();
	pxd_free(lm.kernel, t, c->level + 1);
	return true;
}

int linear_map_merge(unsigned long addr)
{
	int merged = 0;

	for (int level = PT_LAST_LEVEL - 1; level >= 0; level--) {
		struct pt_cursor c;

		pt_walk(lm.kernel, addr, level, false, &c);
		if (c.level != level || !arch_pte_is_table(c.val, level))
			continue;
		if (!merge_table(&c))
			break;
		merged++;
	}
	return merged;
}

/* Apply (prot | set) & ~clear to every leaf in [start, end), whole leaves only. */
static void change_leaves(unsigned long start, unsigned long end, unsigned set, unsigned clear)
{
	unsigned long va = start;

	while (va < end) {
		struct pt_cursor c;
		unsigned long n;
		pteval_t nv;

		pt_walk(lm.kernel, va, PT_LAST_LEVEL, false, &c);
		if (!arch_pte_valid(c.val)) {
			va = c.va + pt_level_size(c.level);   /* a hole between banks */
			continue;
		}
		n = arch_pte_is_cont(c.val) ? arch_pt_cont_entries(c.level) : 1;
		PT_ASSERT(c.va == va && end - va >= n * pt_level_size(c.level),
			  "leaf at 0x%lx (level %d, %lu entries) straddles [0x%lx, 0x%lx)", c.va,
			  c.level, n, start, end);
		nv = arch_pte_mk_leaf(arch_pte_pa(c.val), (arch_pte_prot(c.val) | set) & ~clear,
				      c.level);
		pte_update_run(lm.kernel, c.ptep, n, nv, va, c.level);
		va += n * pt_level_size(c.level);
	}
}

static int change_range(unsigned long addr, int npages, unsigned set, unsigned clear)
{
	unsigned long end;
	int err;

	/* Check the page count against the room left before multiplying: on a
	 * 32-bit kernel npages * PAGE_SIZE could wrap. */
	if (npages < 0 || !IS_ALIGNED(addr, PAGE_SIZE) || addr < PAGE_OFFSET || addr > lm.end ||
	    (unsigned long)npages > (lm.end - addr) / PAGE_SIZE || !lm.kernel)
		return -EINVAL;
	end = addr + (unsigned long)npages * PAGE_SIZE;
	if (npages == 0)
		return 0;
	err = linear_map_split(addr);
	if (!err)
		err = linear_map_split(end);
	if (err)
		return err;
	change_leaves(addr, end, set, clear);
	return 0;
}

int set_memory_ro(unsigned long addr, int npages)
{
	return change_range(addr, npages, 0, PT_WRITE);
}

int set_memory_rw(unsigned long addr, int npages)
{
	return change_range(addr, npages, PT_WRITE, 0);
}

int set_memory_nx(unsigned long addr, int npages)
{
	return change_range(addr, npages, 0, PT_EXEC);
}

int set_memory_x(unsigned long addr, int npages)
{
	return change_range(addr, npages, PT_EXEC, 0);
}
