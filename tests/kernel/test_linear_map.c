/*
 * test_linear_map.c - in-kernel tests of the linear map and of splitting it
 * at run time under break-before-make.
 *
 * The tests find where things are by walking the live tables, so they hold
 * for any RAM size: with 4 GiB most of RAM is 1 GiB blocks and the split
 * tests split a 1 GiB block; with 128 MiB they split a 2 MiB block.
 */
#include "ktest.h"
#include "printk.h"
#include "arch.h"
#include "kernel.h"
#include "memblock.h"
#include "page_alloc.h"
#include "pgtable.h"
#include "linear_map.h"
#include "ptdump.h"
#include "params.h"
#include <asm/extable.h>
#include <asm/memlayout.h>

#define EFAULT 14

/* The level of the leaf that maps va in the kernel tables (-1 if none). */
static int leaf_level(unsigned long va, pteval_t *val)
{
	struct pt_cursor c;

	pt_walk(arch_kernel_space(), va, PT_LAST_LEVEL, false, &c);
	if (val)
		*val = c.val;
	if (!arch_pte_valid(c.val) || arch_pte_is_table(c.val, c.level))
		return -1;
	return c.level;
}

static bool va_writable(unsigned long va)
{
	pteval_t v;

	return leaf_level(va, &v) >= 0 && (arch_pte_prot(v) & PT_WRITE);
}

/* A whole linear-map leaf of our own, taken from the page allocator. */
struct leaf_block {
	struct page *pg;
	unsigned order;
	unsigned long va;
	int level;	/* the level of the leaf that maps it */
};

static unsigned order_of(u64 size)
{
	unsigned order = 0;

	while (((u64)PAGE_SIZE << order) < size)
		order++;
	return order;
}

/*
 * Allocate a block that is exactly one leaf of the linear map, the largest
 * leaf size for which that works (a 1 GiB block when RAM has one free, else
 * 2 MiB); when the linear map has no blocks at all, a 2 MiB block of pages.
 * The block is ours, so making its pages read-only or splitting it disturbs
 * nobody. Returns false if no block could be had.
 */
static bool alloc_leaf_block(struct leaf_block *b)
{
	for (int lvl = 0; lvl < PT_LAST_LEVEL; lvl++) {
		unsigned order = order_of(pt_level_size(lvl));
		struct page *tried[32];
		int n = 0;
		bool found = false;

		if (!arch_pt_leaf_ok(lvl) || order >= MAX_ORDER)
			continue;
		/* Earlier tests may have split some blocks: skip those. */
		while (!found && n < (int)ARRAY_SIZE(tried) && (b->pg = alloc_pages(0, order))) {
			b->order = order;
			b->va = (unsigned long)page_address(b->pg);
			b->level = leaf_level(b->va, NULL);
			found = b->level == lvl;
			if (!found)
				tried[n++] = b->pg;
		}
		while (n--)
			free_pages(tried[n], order);
		if (found)
			return true;
	}
	/* No block leaves (linear_map=pte|cont, or MicroBlaze with 64K pages):
	 * one last-level table's span of pages, or one contiguous run of pages
	 * where the level above has no leaves (MicroBlaze 64K: a 1 GiB span). */
	b->order = order_of(arch_pt_leaf_ok(PT_LAST_LEVEL - 1) ? pt_level_size(PT_LAST_LEVEL - 1)
							       : pt_run_size(PT_LAST_LEVEL));
	b->pg = alloc_pages(0, b->order);
	if (!b->pg)
		return false;
	b->va = (unsigned long)page_address(b->pg);
	b->level = leaf_level(b->va, NULL);
	return true;
}

static void free_leaf_block(struct leaf_block *b)
{
	free_pages(b->pg, b->order);
}

/* Leaves above the last level (blocks), and contiguous runs at any level. */
static u64 block_count(const struct pt_counts *c)
{
	u64 n = 0;

	for (int l = 0; l < PT_LAST_LEVEL; l++)
		n += c->leaves[l] + c->cont_runs[l];
	/* Without blocks (MicroBlaze with 64K pages) the runs of pages are the largest leaves. */
	if (PT_LARGEST_LEAF_LEVEL == PT_LAST_LEVEL)
		n += c->cont_runs[PT_LAST_LEVEL];
	return n;
}

/* The linear map as built at boot: largest blocks, and few table pages. */
KTEST(linear_map_blocks)
{
	const struct pt_counts *c = &linear_map_boot_counts;
	u64 ram = memblock_ram_total();

	if (opt_linear_map != LINEAR_MAP_BLOCK) {
		ktest_ok(block_count(c) == 0, "linear_map=%s: no blocks, %llu page-table pages",
			 opt_linear_map == LINEAR_MAP_PTE ? "pte" : "cont", (unsigned long long)c->tables);
		return;
	}
	ktest_ok(c->tables <= 6, "linear map uses %llu page-table pages (target: at most 6)",
		 (unsigned long long)c->tables);
	/* With at least two of the largest blocks of RAM, one is used (4K: 1G, 16K: 32M, 64K: 512M). */
	if (ram >= 2 * pt_level_size(PT_LARGEST_LEAF_LEVEL) && PT_LEVELS > 2)
		ktest_ok(c->leaves[PT_LARGEST_LEAF_LEVEL] >= 1, "%llu MiB of RAM: %llu level-%d block(s)",
			 (unsigned long long)(ram >> 20), (unsigned long long)c->leaves[PT_LARGEST_LEAF_LEVEL],
			 PT_LARGEST_LEAF_LEVEL);
	ktest_ok(block_count(c) >= 1, "%llu MiB of RAM mapped with %llu blocks and runs",
		 (unsigned long long)(ram >> 20), (unsigned long long)block_count(c));
}

/* The kernel image's linear alias is read-only under rodata=full. */
KTEST(linear_map_rodata_alias)
{
	extern char _text[], _data[];
	unsigned long text_alias = (unsigned long)phys_to_virt(pt_kimage_pa((unsigned long)_text));
	unsigned long data_alias = (unsigned long)phys_to_virt(pt_kimage_pa((unsigned long)_data));

	if (opt_rodata != RODATA_FULL) {
		ktest_ok(va_writable(text_alias), "rodata!=full: the text alias stays writable");
		return;
	}
	ktest_ok(!va_writable(text_alias), "text alias 0x%lx is read-only", text_alias);
	ktest_ok(va_writable(data_alias), "data alias 0x%lx is writable", data_alias);
	ktest_ok(!va_writable((unsigned long)_text), "image text 0x%lx is read-only", (unsigned long)_text);
}

/*
 * set_memory_ro() on one page splits only what it must: the page's 2 MiB
 * region becomes pages, the rest of a split 1 GiB block stays 2 MiB blocks,
 * and a write to the page takes a permission fault we recover from.
 */
KTEST(linear_map_split_one_page)
{
	struct pt_counts before, after;
	const struct pt_space *ks = arch_kernel_space();
	struct leaf_block b;

	if (!alloc_leaf_block(&b)) {
		ktest_ok(false, "no block mapped by one leaf could be allocated");
		return;
	}
	unsigned long blk = b.va, target = blk + 3 * PAGE_SIZE;
	unsigned long other = blk + pt_level_size(b.level + 1);	/* next leaf after a split */
	int level = b.level;
	u64 val;

	pt_count_linear(ks, &before);
	ktest_ok(level < PT_LAST_LEVEL || opt_linear_map != LINEAR_MAP_BLOCK || PT_LARGEST_LEAF_LEVEL == PT_LAST_LEVEL,
		 "block 0x%lx (order %u) is mapped by a level-%d leaf", blk, b.order, level);
	ktest_ok(set_memory_ro(target, 1) == 0, "set_memory_ro(0x%lx, 1)", target);
	ktest_ok(leaf_level(target, NULL) == PT_LAST_LEVEL && !va_writable(target),
		 "the page is now a read-only page");
	ktest_ok(leaf_level(target + PAGE_SIZE, NULL) == PT_LAST_LEVEL && va_writable(target + PAGE_SIZE),
		 "its neighbour is a writable page");
	if (level < PT_LAST_LEVEL - 1)
		ktest_ok(leaf_level(other, NULL) == level + 1,
			 "the rest of the split level-%d block stays level-%d blocks", level, level + 1);
	pt_count_linear(ks, &after);
	ktest_ok(after.tables == before.tables + (PT_LAST_LEVEL - level),
		 "page-table pages %llu -> %llu", (unsigned long long)before.tables,
		 (unsigned long long)after.tables);

	u64 faults = last_fixup_fault()->count;
	int rc = probe_write_u64((void *)target, 0x1234);

	ktest_ok(rc == -EFAULT && last_fixup_fault()->count == faults + 1 &&
		 last_fixup_fault()->far == target,
		 "a write to it faults (rc %d, FAR 0x%llx) and the kernel recovers", rc,
		 (unsigned long long)last_fixup_fault()->far);
	ktest_ok(probe_read_u64((void *)target, &val) == 0, "it can still be read");
	ktest_ok(set_memory_rw(target, 1) == 0 && probe_write_u64((void *)target, 0x1234) == 0,
		 "set_memory_rw makes it writable again");
	free_leaf_block(&b);
}

/*
 * Re-merge: after set_memory_ro and set_memory_rw on one page, its tables
 * hold uniform leaves again and linear_map_merge() folds them back into the
 * block they came from (set_memory_* never do this by themselves, as on
 * Linux). The page-table pages the split took are given back.
 */
KTEST(linear_map_remerge)
{
	const struct pt_space *ks = arch_kernel_space();
	struct pt_counts before, split, after;
	struct leaf_block b;
	bool got = alloc_leaf_block(&b);
	int merged;

	if (!got || b.level == PT_LAST_LEVEL) {
		ktest_ok(true, "# SKIP no block leaf to split (linear_map=%s)",
			 opt_linear_map == LINEAR_MAP_PTE ? "pte" : "cont");
		if (got)
			free_leaf_block(&b);
		return;
	}
	pt_count_linear(ks, &before);
	ktest_ok(set_memory_ro(b.va + PAGE_SIZE, 1) == 0 && set_memory_rw(b.va + PAGE_SIZE, 1) == 0,
		 "split a level-%d block to pages and restore the page", b.level);
	pt_count_linear(ks, &split);
	merged = linear_map_merge(b.va + PAGE_SIZE);
	pt_count_linear(ks, &after);
	ktest_ok(merged == PT_LAST_LEVEL - b.level && leaf_level(b.va, NULL) == b.level && va_writable(b.va),
		 "linear_map_merge folded %d level(s): a level-%d leaf again", merged, leaf_level(b.va, NULL));
	ktest_ok(after.tables == before.tables && split.tables > before.tables,
		 "page-table pages %llu -> %llu -> %llu", (unsigned long long)before.tables,
		 (unsigned long long)split.tables, (unsigned long long)after.tables);
	free_leaf_block(&b);
}

struct on_stack_args {
	unsigned long target;
	int rc_ro, rc_rw;
	int marker;
};

/* Runs on a stack inside the block being split. */
static void split_from_own_block(void *p)
{
	struct on_stack_args *a = p;
	volatile int local = 42;	/* lives on the stack in the block */

	a->rc_ro = set_memory_ro(a->target, 1);
	a->marker = local;
	a->rc_rw = set_memory_rw(a->target, 1);
}

/* Split the linear-map block that holds the current stack. */
KTEST(linear_map_split_under_stack)
{
	struct leaf_block b;
	struct on_stack_args a;

	if (!alloc_leaf_block(&b)) {
		ktest_ok(false, "no block mapped by one leaf could be allocated");
		return;
	}
	/* The stack is the block's first 16 KiB; the target page is 1 MiB in. */
	a.target = b.va + (1ul << 20);
	arch_call_on_stack(split_from_own_block, &a, (void *)(b.va + 4 * PAGE_SIZE));
	ktest_ok(a.rc_ro == 0 && a.rc_rw == 0 && a.marker == 42,
		 "split the level-%d block holding the stack at 0x%lx (rc %d/%d)", b.level, b.va,
		 a.rc_ro, a.rc_rw);
	ktest_ok(leaf_level(b.va, NULL) == PT_LAST_LEVEL && va_writable(b.va),
		 "the stack pages are writable pages now");
	free_leaf_block(&b);
}

/*
 * Split the block that holds a page-table page of the linear map itself:
 * while the block's entry is invalid, the table page holding that entry is
 * hidden too, so the splitter must reach it through another mapping.
 */
KTEST(linear_map_split_holding_table)
{
	const struct pt_space *ks = arch_kernel_space();
	unsigned long top = (unsigned long)phys_to_virt(memblock_end() - 1);
	struct pt_cursor c;
	unsigned long tva;
	int lvl;

	/* The table page holding the leaf that maps the top of RAM. */
	pt_walk(ks, top, PT_LAST_LEVEL, false, &c);
	tva = (unsigned long)phys_to_virt(c.table);
	lvl = leaf_level(tva, NULL);
	ktest_ok(lvl >= 0, "table page for 0x%lx (level %d) is at 0x%lx, mapped by a level-%d leaf",
		 top, c.level, tva, lvl);
	if (lvl == PT_LAST_LEVEL) {
		ktest_ok(true, "# SKIP the table page is already mapped by a page: nothing to split");
		return;
	}
	/* A leaf boundary just after the table page splits the block holding it. */
	ktest_ok(linear_map_split(tva + PAGE_SIZE) == 0, "split the level-%d block holding it", lvl);
	ktest_ok(leaf_level(tva, NULL) > lvl && va_writable(tva),
		 "the table page is now mapped by a level-%d leaf, still writable", leaf_level(tva, NULL));
	ktest_ok(leaf_level(top, NULL) >= 0, "the top of RAM is still mapped");
}

/*
 * The checker: an in-place change of a live leaf's output address is unsafe
 * and must panic with old, new, VA and level. Boots with ktest=bbm_checker.
 */
KTEST_PANICS(bbm_checker)
{
	struct leaf_block b;
	struct pt_cursor c;

	if (!alloc_leaf_block(&b)) {
		ktest_ok(false, "no block mapped by one leaf could be allocated");
		return;
	}
	set_memory_ro(b.va, 1);	/* make it a page so the change is at the last level */
	pt_walk(arch_kernel_space(), b.va, PT_LAST_LEVEL, false, &c);
	ktest_expect_panic("changing a live page's output address in place is refused");
	pte_update_inplace(arch_kernel_space(), c.ptep, c.val,
			   arch_pte_oa_add(c.val, PAGE_SIZE), c.va, c.level);
}
