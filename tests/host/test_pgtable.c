/*
 * test_pgtable.c - host tests of the page-table core, the choke point, the
 * linear map (build, split, set_memory_*), the fixmap and ptdump, run on the
 * fake arch whose every descriptor access, barrier and TLBI goes through
 * the TLB model (tlb_model.c).
 *
 * Each scenario "boots": MMU off, map a fake kernel image, fixmap_init,
 * MMU on, linear_map_build, then switch to the (fake) buddy allocator.
 * After every operation the test touches every page of the linear map, the
 * image and every table page, so the model caches translations like a CPU,
 * and then asks the model whether every change got the TLBI it needed.
 *
 * The first group proves the model catches deliberately wrong sequences;
 * the rest prove the real code runs with zero violations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgtable.h"
#include "fixmap.h"
#include "linear_map.h"
#include "errno.h"
#include "ptdump.h"
#include "tlb_model.h"
#include "pt_test_env.h"
#include "host_env.h"

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

/* The fake kernel image: text+rodata read-only alias, data+bss after. */
#define RAM_BASE       0x40000000ULL
#define IMG_PA         0x40200000ULL
#define IMG_SIZE       (1 * MiB)
#define IMG_TEXT_END   0x40260000ULL
#define IMG_RO_END     0x40290000ULL
#define IMG_STATIC_OFF 0xc0000ULL    /* the fixmap's static tables ("bss") */
#define IMG_ROOT_OFF   0xf0000ULL    /* the kernel's root table */

static struct pt_space kspace;
static struct env_bank cur_banks[2];
static int cur_nbanks;

static unsigned long lm(phys_addr_t pa)
{
	return pt_linear_va(pa);
}

/* ---- touching, like a CPU would ---- */

/* Access every translation in [start, end) once (one access per leaf). */
static void touch_range(unsigned long start, unsigned long end)
{
	unsigned long va = start;

	while (va < end) {
		u64 size;
		unsigned long next;

		tlb_model_access(va, &size);
		if (!size)
			size = PAGE_SIZE;
		next = ALIGN_DOWN(va, size) + size;
		if (next <= va)
			break;
		va = next;
	}
}

static void touch_pa(phys_addr_t pa)
{
	if (pt_pa_in_kimage(pa))
		tlb_model_access(KIMAGE_VADDR + (unsigned long)(pa - IMG_PA), NULL);
	else if (pt_linear_is_live())
		tlb_model_access(lm(pa), NULL);
}

/* Touch every table page of the tree at t through its usual alias. */
static void touch_tables(phys_addr_t t, int level)
{
	touch_pa(t);
	for (unsigned long i = 0; level < PT_LAST_LEVEL && i < arch_pt_entries(level); i++) {
		pteval_t d = tlb_model_phys_read64(t + i * sizeof(pteval_t));

		if (arch_pte_is_table(d, level))
			touch_tables(arch_pte_pa(d), level + 1);
	}
}

/* Touch all of RAM through the linear map, the image and all table pages. */
static void touch_all(void)
{
	for (int i = 0; i < cur_nbanks; i++)
		touch_range(lm(cur_banks[i].base), lm(cur_banks[i].base + cur_banks[i].size));
	touch_range(KIMAGE_VADDR, KIMAGE_VADDR + IMG_SIZE);
	touch_tables(kspace.root, 0);
	tlb_model_check_idle();
}

/* Touch everything, then report whether the model saw no violation at all. */
static bool clean(void)
{
	touch_all();
	touch_all();   /* a second pass compares the cached translations */
	return tlb_model_total_violations() == 0;
}

/* ---- booting ---- */

static void boot(const struct env_bank *banks, int n, int rodata, int mode)
{
	struct linear_map_config cfg = { rodata, mode, IMG_PA, IMG_RO_END };

	tlb_model_reset();
	tlb_model_set_quiet(false);
	memcpy(cur_banks, banks, n * sizeof(*banks));
	cur_nbanks = n;
	env_reset(banks, n, banks[0].base + 64 * MiB);
	pt_init(IMG_PA, KIMAGE_VADDR, IMG_SIZE);
	tlb_model_set_image(IMG_PA, KIMAGE_VADDR, IMG_SIZE, IMG_STATIC_OFF);
	pt_space_init(&kspace, IMG_PA + IMG_ROOT_OFF, 0, PT_ASID_KERNEL);

	/* MMU off: the image at its link address, with per-section permissions. */
	pt_map_range(&kspace, KIMAGE_VADDR, IMG_PA, IMG_TEXT_END - IMG_PA, PT_KERNEL_RX, PT_LEAF_ANY);
	pt_map_range(&kspace, KIMAGE_VADDR + (IMG_TEXT_END - IMG_PA), IMG_TEXT_END,
		     IMG_RO_END - IMG_TEXT_END, PT_KERNEL_RO, PT_LEAF_ANY);
	pt_map_range(&kspace, KIMAGE_VADDR + (IMG_RO_END - IMG_PA), IMG_RO_END,
		     IMG_PA + IMG_SIZE - IMG_RO_END, PT_KERNEL_RW, PT_LEAF_ANY);
	fixmap_init(&kspace);

	tlb_model_mmu_on(kspace.root);
	pt_mmu_enabled();
	linear_map_build(&kspace, &cfg);
	pt_use_page_allocator();
}

static const struct env_bank bank_128m[] = { { RAM_BASE, 128 * MiB } };
static const struct env_bank bank_512m[] = { { RAM_BASE, 512 * MiB } };
static const struct env_bank bank_4g[] = { { RAM_BASE, 4 * GiB } };
static const struct env_bank banks_two[] = { { RAM_BASE, 256 * MiB },
					     { 0xc0000000ULL, 1536 * MiB } };

static void boot_default(const struct env_bank *b, int n)
{
	boot(b, n, RODATA_FULL, LINEAR_MAP_BLOCK);
}

/* ---- inspection ---- */

static struct pt_cursor leaf_at(unsigned long va)
{
	struct pt_cursor c;

	pt_walk(&kspace, va, PT_LAST_LEVEL, false, &c);
	return c;
}

static unsigned prot_at(unsigned long va)
{
	struct pt_cursor c = leaf_at(va);

	return arch_pte_valid(c.val) ? arch_pte_prot(c.val) & ~PT_CONT : 0;
}

static struct pt_counts counts(void)
{
	struct pt_counts c;

	pt_count_linear(&kspace, &c);
	return c;
}

static bool counts_are(const struct pt_counts *c, u64 tables, u64 g1, u64 m2, u64 r32, u64 r64,
		       u64 k4)
{
	bool ok = c->tables == tables && c->leaves[1] == g1 && c->leaves[2] == m2 &&
		  c->cont_runs[2] == r32 && c->cont_runs[3] == r64 && c->leaves[3] == k4;

	if (!ok)
		printf("# counts: tables %llu, 1G %llu, 2M %llu, 32M runs %llu, 64K runs %llu, 4K %llu\n",
		       (unsigned long long)c->tables, (unsigned long long)c->leaves[1],
		       (unsigned long long)c->leaves[2], (unsigned long long)c->cont_runs[2],
		       (unsigned long long)c->cont_runs[3], (unsigned long long)c->leaves[3]);
	return ok;
}

/* ==== 1. the arm64 encoding and the BBM predicate ==== */

static void test_encoding(void)
{
	pteval_t blk = arch_pte_mk_leaf(0x40200000, PT_KERNEL_RW, 2);
	pteval_t pg = arch_pte_mk_leaf(0x40201000, PT_KERNEL_RO, 3);
	pteval_t upg = arch_pte_mk_leaf(0x80000000, PT_READ | PT_WRITE | PT_USER, 3);
	pteval_t dev = arch_pte_mk_leaf(0x09000000, PT_KERNEL_RW | PT_DEVICE, 3);

	tap_ok(blk == (0x40200000 | PTE_VALID | PTE_AF | PTE_SH_INNER | PTE_PXN | PTE_UXN),
	       "kernel RW NX 2M block encodes as 0x%llx", (unsigned long long)blk);
	tap_ok((pg & PTE_TABLE_BIT) && (pg & PTE_RDONLY) && arch_pte_pa(pg) == 0x40201000,
	       "level-3 page has the page bit, RO, and its output address");
	tap_ok((upg & PTE_USER) && (upg & PTE_NG) && (upg & PTE_PXN) && (upg & PTE_UXN) &&
	       !(upg & PTE_RDONLY), "user RW page: EL0 access, nG, PXN, UXN");
	tap_ok((dev & PTE_ATTRINDX_MASK) == PTE_ATTRINDX(MT_DEVICE_nGnRE) && (dev & PTE_PXN),
	       "device page: nGnRE index, never executable");
	tap_ok(arch_pte_prot(arch_pte_mk_leaf(0, PT_KERNEL_RX, 2)) == PT_KERNEL_RX &&
	       arch_pte_prot(upg) == (PT_READ | PT_WRITE | PT_USER | PT_NG) &&
	       arch_pte_prot(arch_pte_mk_leaf(0, PT_KERNEL_RW | PT_CONT, 3)) == (PT_KERNEL_RW | PT_CONT),
	       "generic prot flags round-trip");
	tap_ok(arch_pte_is_table(arch_pte_mk_table(0x1000, false), 2) &&
	       !arch_pte_is_table(pg, 3) && arch_pte_is_leaf(blk, 2),
	       "table / block / page classification");
	tap_ok(pt_level_size(1) == GiB && pt_level_size(2) == 2 * MiB && pt_run_size(2) == 32 * MiB &&
	       pt_run_size(3) == 64 * KiB && arch_pt_entries(0) == 512,
	       "level geometry: 1G, 2M, 32M and 64K runs, 512 entries");
}

static void test_bbm_predicate(void)
{
	pteval_t rw = arch_pte_mk_leaf(0x40000000, PT_KERNEL_RW, 2);
	pteval_t ro = arch_pte_mk_leaf(0x40000000, PT_KERNEL_RO, 2);
	pteval_t moved = arch_pte_mk_leaf(0x40200000, PT_KERNEL_RW, 2);
	pteval_t tbl = arch_pte_mk_table(0x50000000, false);
	pteval_t cont = arch_pte_mk_leaf(0x40000000, PT_KERNEL_RW | PT_CONT, 2);
	pteval_t dev = arch_pte_mk_leaf(0x40000000, PT_KERNEL_RW | PT_DEVICE, 2);
	pteval_t ng = rw | PTE_NG;

	tap_ok(!arch_pte_change_needs_bbm(0, rw, 2) && !arch_pte_change_needs_bbm(rw, 0, 2),
	       "bbm: invalid -> valid and valid -> invalid are safe in place");
	tap_ok(!arch_pte_change_needs_bbm(rw, ro, 2) && !arch_pte_change_needs_bbm(ro, rw, 2) &&
	       !arch_pte_change_needs_bbm(rw, rw & ~PTE_PXN, 2),
	       "bbm: permission-only changes are safe in place");
	tap_ok(!arch_pte_change_needs_bbm(rw, rw & ~PTE_AF, 2) && !arch_pte_change_needs_bbm(rw, ng, 2),
	       "bbm: AF and global -> not-global are safe in place");
	tap_ok(!arch_pte_change_needs_bbm(rw, rw | PTE_USER, 2) && !arch_pte_change_needs_bbm(rw, rw & ~PTE_UXN, 2),
	       "bbm: AP[1] (EL0 access) and UXN changes are safe in place (Linux's predicate refuses them)");
	tap_ok(arch_pte_change_needs_bbm(rw, rw & ~PTE_SH_MASK, 2), "bbm: shareability change needs BBM");
	tap_ok(arch_pte_change_needs_bbm(rw, moved, 2), "bbm: output address change needs BBM");
	tap_ok(arch_pte_change_needs_bbm(rw, tbl, 2) && arch_pte_change_needs_bbm(tbl, rw, 2),
	       "bbm: block <-> table needs BBM");
	tap_ok(arch_pte_change_needs_bbm(rw, cont, 2) && arch_pte_change_needs_bbm(cont, rw, 2),
	       "bbm: changing the contiguous bit needs BBM");
	tap_ok(!arch_pte_change_needs_bbm(cont, cont | PTE_RDONLY, 2),
	       "bbm: permission change keeping CONT is safe (whole run)");
	tap_ok(arch_pte_change_needs_bbm(rw, dev, 2), "bbm: memory type change needs BBM");
	tap_ok(arch_pte_change_needs_bbm(ng, rw, 2), "bbm: not-global -> global needs BBM");
	tap_ok(arch_pte_change_needs_bbm(tbl, arch_pte_mk_table(0x50001000, false), 2),
	       "bbm: a table pointing elsewhere needs BBM");
}

/* ==== 2. the model catches wrong sequences ==== */

/* A plain (non-contiguous) 2 MiB block of the 512 MiB boot: PA 0x40000000. */
#define VA_BLK PAGE_OFFSET

/* The level-2 entry mapping VA_BLK, through its usual (linear) alias. */
static struct pt_cursor blk_entry(void)
{
	struct pt_cursor c;

	pt_walk(&kspace, VA_BLK, 2, false, &c);
	return c;
}

/* A new table of pages mapping what the block at c maps (not live). */
static pteval_t page_table_for(const struct pt_cursor *c)
{
	phys_addr_t t = pxd_alloc(&kspace, 3);
	pteval_t *p = pt_page_va(t, 3);

	for (unsigned long i = 0; i < 512; i++)
		pt_write_new(&p[i], arch_pte_mk_leaf(arch_pte_pa(c->val) + i * PAGE_SIZE, PT_KERNEL_RW, 3));
	return arch_pte_mk_table(t, false);
}

static void model_begin_bad(void)
{
	boot_default(bank_512m, 1);
	touch_all();
	tlb_model_clear_violations();
	tlb_model_set_quiet(true);
}

static void test_model_table_over_block(void)
{
	struct pt_cursor c;
	pteval_t tv;

	model_begin_bad();
	c = blk_entry();
	tv = page_table_for(&c);
	arch_pte_write(c.ptep, tv);             /* no BBM at all */
	arch_dsb_ishst();
	touch_range(VA_BLK, VA_BLK + 2 * MiB);
	tap_ok(tlb_model_violations(TLBM_CONFLICT) >= 2,
	       "model: table written over a live, cached block -> conflict (%s)",
	       tlb_model_last_violation());
}

static void test_model_skip_tlbi_permission(void)
{
	struct pt_cursor c;

	model_begin_bad();
	c = blk_entry();
	arch_pte_write(c.ptep, c.val | PTE_RDONLY);   /* in place, safe, but no TLBI */
	arch_dsb_ishst();
	tlb_model_access(VA_BLK, NULL);
	tap_ok(tlb_model_violations(TLBM_STALE) == 1 && tlb_model_violations(TLBM_CONFLICT) == 0,
	       "model: permission change without TLBI -> stale translation seen (%s)",
	       tlb_model_last_violation());
	tlb_model_check_idle();
	tap_ok(tlb_model_violations(TLBM_STALE) == 2, "model: ...and reported at the end of the operation");
}

static void test_model_skip_tlbi_in_bbm(void)
{
	struct pt_cursor c;
	pteval_t tv;

	model_begin_bad();
	c = blk_entry();
	tv = page_table_for(&c);
	arch_pte_write(c.ptep, 0);
	arch_dsb_ishst();
	arch_dsb_ish();                         /* the TLBI is missing */
	arch_pte_write(c.ptep, tv);
	arch_dsb_ishst();
	tap_ok(tlb_model_violations(TLBM_CONFLICT) == 1, "model: BBM without TLBI -> conflict at the make (%s)",
	       tlb_model_last_violation());
	tlb_model_access(VA_BLK + PAGE_SIZE, NULL);
	tap_ok(tlb_model_violations(TLBM_CONFLICT) == 2,
	       "model: ...and the cached 2M block meets the walkable 4K page (%s)",
	       tlb_model_last_violation());
}

static void test_model_tlbi_before_publish(void)
{
	struct pt_cursor c;
	pteval_t tv;

	model_begin_bad();
	c = blk_entry();
	tv = page_table_for(&c);
	arch_pte_write(c.ptep, 0);
	arch_tlbi_va(ARCH_TLBI_ALL_LEVELS, VA_BLK, PT_ASID_KERNEL);   /* before dsb ishst */
	arch_dsb_ish();
	arch_pte_write(c.ptep, tv);
	tap_ok(tlb_model_violations(TLBM_CONFLICT) == 1,
	       "model: TLBI before the invalid entry was published (no dsb ishst) -> conflict");
}

static void test_model_tlbi_without_dsb(void)
{
	struct pt_cursor c;

	model_begin_bad();
	c = blk_entry();
	arch_pte_write(c.ptep, c.val | PTE_RDONLY);
	arch_dsb_ishst();
	arch_tlbi_va(ARCH_TLBI_LEAF, VA_BLK, PT_ASID_KERNEL);   /* never completed */
	tlb_model_check_idle();
	tap_ok(tlb_model_violations(TLBM_SEQUENCE) == 1 && tlb_model_violations(TLBM_STALE) == 1,
	       "model: TLBI not completed by dsb ish -> sequence + stale");
}

static void test_model_hidden_access(void)
{
	struct pt_cursor c;

	model_begin_bad();
	c = blk_entry();
	arch_pte_write(c.ptep, 0);              /* break ... */
	arch_dsb_ishst();
	arch_tlbi_va(ARCH_TLBI_ALL_LEVELS, VA_BLK, PT_ASID_KERNEL);
	arch_dsb_ish();
	tlb_model_access(VA_BLK + 0x3000, NULL); /* ... and touch the hidden range */
	tap_ok(tlb_model_violations(TLBM_HIDDEN) == 1, "model: access inside a broken range -> hidden (%s)",
	       tlb_model_last_violation());
}

/*
 * What the split would do wrong if pt_page_va used the linear alias of a
 * table page lying in the block being split: the "make" write goes through
 * the hidden alias.
 */
static void test_model_table_page_through_hidden_alias(void)
{
	struct pt_cursor c;
	phys_addr_t l2 = blk_entry().table;
	unsigned long blk_va;
	pteval_t *ptep;

	model_begin_bad();
	c = blk_entry();
	l2 = c.table;
	blk_va = ALIGN_DOWN(lm(l2), 2 * MiB);
	pt_walk(&kspace, blk_va, 2, false, &c);       /* run of 2M blocks holding the L2 page */
	ptep = (pteval_t *)lm(l2) + pt_index(blk_va, 2);
	/* break the whole 32M run (it is contiguous), then write through the linear alias */
	for (int i = 0; i < 16; i++)
		arch_pte_write(ptep - pt_index(blk_va, 2) % 16 + i, 0);
	arch_dsb_ishst();
	for (int i = 0; i < 16; i++)
		arch_tlbi_va(ARCH_TLBI_LEAF, ALIGN_DOWN(blk_va, 32 * MiB) + i * 2 * MiB, PT_ASID_KERNEL);
	arch_dsb_ish();
	arch_pte_write(ptep, c.val & ~PTE_CONT);
	tap_ok(tlb_model_violations(TLBM_HIDDEN) >= 1,
	       "model: writing a table page through its broken linear alias -> hidden (%s)",
	       tlb_model_last_violation());
	tlb_model_set_quiet(false);
	tlb_model_clear_violations();
	boot_default(bank_512m, 1);
	c = blk_entry();
	l2 = c.table;
	blk_va = ALIGN_DOWN(lm(l2), 2 * MiB);
	pt_walk(&kspace, blk_va, 2, false, &c);
	ptep = (pteval_t *)lm(l2) + pt_index(blk_va, 2);
	tap_ok(EXPECT_PANIC(pte_update_run(&kspace, ptep - pt_index(blk_va, 2) % 16, 16,
					   arch_pte_mk_leaf(arch_pte_pa(c.val) & ~(32 * MiB - 1),
							    PT_KERNEL_RW, 2),
					   ALIGN_DOWN(blk_va, 32 * MiB), 2)) &&
	       strstr(host_panic_msg, "would hide its own descriptor"),
	       "pte_update refuses a BBM that would hide its own descriptor (%s)", host_panic_msg);
}

static void test_model_misprogrammed_run(void)
{
	struct pt_cursor c;
	unsigned long va = lm(0x402a0000);   /* inside a 64K run of pages */

	model_begin_bad();
	c = leaf_at(va);
	arch_pte_write(c.ptep, c.val | PTE_RDONLY);   /* one member changes alone */
	arch_dsb_ishst();
	arch_tlbi_va(ARCH_TLBI_LEAF, va, PT_ASID_KERNEL);
	arch_dsb_ish();
	tlb_model_access(va + PAGE_SIZE, NULL);
	tap_ok(tlb_model_violations(TLBM_CONFLICT) >= 1, "model: one member of a contiguous run changed -> conflict (%s)",
	       tlb_model_last_violation());
}

/* An invalid level-2 entry of the 512 MiB boot's linear-map table (VA 512M up). */
#define VA_HOLE (PAGE_OFFSET + 512 * MiB)

static void test_model_unpublished_table(void)
{
	struct pt_cursor c, blk;
	pteval_t tv;
	unsigned long before, n;
	bool ok;

	model_begin_bad();
	blk = blk_entry();
	pt_walk(&kspace, VA_HOLE, 2, false, &c);
	tv = page_table_for(&blk);              /* zeroed and filled ... */
	arch_pte_write(c.ptep, tv);             /* ... and linked with no barrier between */
	tap_ok(tlb_model_violations(TLBM_ORDER) == 1,
	       "model: table linked before its contents were published -> order (%s)", tlb_model_last_violation());
	model_begin_bad();
	pt_walk(&kspace, VA_HOLE, 2, false, &c);
	tv = page_table_for(&blk);
	arch_pt_publish_barrier();
	arch_pte_write(c.ptep, tv);
	arch_dsb_ishst();
	tap_ok(tlb_model_total_violations() == 0, "model: the same with arch_pt_publish_barrier() first -> clean");
	tlb_model_set_quiet(false);
	before = tlb_model_publish_barriers();
	ok = pt_map_range(&kspace, 0xffff100000000000UL, 0x41000000ULL, PAGE_SIZE, PT_KERNEL_RW, PT_LEAF_ANY);
	n = tlb_model_publish_barriers() - before;
	tap_ok(ok && n == 3 && clean(),
	       "pt_map_range links three new tables, each after a publish barrier (%lu), model clean", n);
}

/* Write v into the invalid level-2 entry at VA_HOLE of a fresh boot: a FORMAT report? */
static bool format_reported(pteval_t v)
{
	struct pt_cursor c;

	model_begin_bad();
	pt_walk(&kspace, VA_HOLE, 2, false, &c);
	arch_pte_write(c.ptep, v);
	return tlb_model_violations(TLBM_FORMAT) == 1 && tlb_model_total_violations() == 1;
}

static void test_model_bad_format(void)
{
	pteval_t blk = arch_pte_mk_leaf(0x50000000ULL, PT_KERNEL_RW, 2);

	tap_ok(format_reported(blk | 0x1000), "model: misaligned block output address -> format (%s)",
	       tlb_model_last_violation());
	tap_ok(format_reported(blk | (1ULL << 48)), "model: RES0 bit 48 set in a block -> format (%s)",
	       tlb_model_last_violation());
	tap_ok(format_reported(arch_pte_mk_table(0x50000000ULL, false) | (1ULL << 50)),
	       "model: RES0 bit 50 set in a table -> format (%s)", tlb_model_last_violation());
	tap_ok(!format_reported(blk), "model: the aligned block itself -> no format report");
}

/* A page at VA_FAR with its own level-1, -2 and -3 tables. */
#define VA_FAR 0xffff100000000000UL

static void map_far_page(struct pt_cursor *l2)
{
	tlb_model_set_quiet(false);
	pt_map_range(&kspace, VA_FAR, 0x41000000ULL, PAGE_SIZE, PT_KERNEL_RW, PT_LEAF_ANY);
	tlb_model_access(VA_FAR, NULL);         /* leaf and walk caches loaded */
	tlb_model_set_quiet(true);
	pt_walk(&kspace, VA_FAR, 2, false, l2);
}

static void test_model_leaf_tlbi_for_table(void)
{
	struct pt_cursor c;

	model_begin_bad();
	map_far_page(&c);
	arch_pte_write(c.ptep, 0);              /* the level-2 table descriptor goes */
	arch_dsb_ishst();
	arch_tlbi_va(ARCH_TLBI_LEAF, VA_FAR, PT_ASID_KERNEL);
	arch_dsb_ish();
	tlb_model_check_idle();
	tap_ok(tlb_model_violations(TLBM_TLBI) == 1,
	       "model: leaf-only TLBI after a table removal -> tlbi (%s)", tlb_model_last_violation());
	model_begin_bad();
	map_far_page(&c);
	arch_pte_write(c.ptep, 0);
	arch_dsb_ishst();
	arch_tlbi_va(ARCH_TLBI_ALL_LEVELS, VA_FAR, PT_ASID_KERNEL);
	arch_dsb_ish();
	tlb_model_check_idle();
	tap_ok(tlb_model_total_violations() == 0, "model: the same with an all-levels TLBI -> clean");
}

/* A user space (ASID 5) with one page at 0x400000; *c is its leaf. */
static void user_page(struct pt_space *us, struct pt_cursor *c)
{
	us->asid = 5;
	__pgd_alloc(us, 0);
	tlb_model_set_user(us->root, us->asid);
	tlb_model_set_quiet(false);
	pt_map_range(us, 0x400000UL, 0x44000000ULL, PAGE_SIZE, PT_READ | PT_WRITE | PT_USER, PT_LEAF_ANY);
	tlb_model_access(0x400000UL, NULL);
	tlb_model_set_quiet(true);
	pt_walk(us, 0x400000UL, PT_LAST_LEVEL, false, c);
}

static void test_model_wrong_asid(void)
{
	struct pt_space us = { 0 };
	struct pt_cursor c;

	model_begin_bad();
	user_page(&us, &c);
	arch_pte_write(c.ptep, c.val | PTE_RDONLY);
	arch_dsb_ishst();
	arch_tlbi_va(ARCH_TLBI_LEAF, 0x400000UL, 6);   /* not the space's ASID */
	arch_dsb_ish();
	tlb_model_check_idle();
	tap_ok(tlb_model_violations(TLBM_TLBI) == 1, "model: TLBI with the wrong ASID -> tlbi (%s)",
	       tlb_model_last_violation());
	model_begin_bad();
	user_page(&us, &c);
	arch_pte_write(c.ptep, c.val | PTE_RDONLY);
	arch_dsb_ishst();
	arch_tlbi_va(ARCH_TLBI_LEAF, 0x400000UL, 5);
	arch_dsb_ish();
	tlb_model_check_idle();
	tap_ok(tlb_model_total_violations() == 0, "model: the same with ASID 5 -> clean");
}

static void test_model_ng_to_global(void)
{
	struct pt_space us = { 0 };
	struct pt_cursor c;

	model_begin_bad();
	user_page(&us, &c);
	arch_pte_write(c.ptep, c.val & ~PTE_NG);   /* in place */
	tap_ok(tlb_model_violations(TLBM_CONFLICT) == 1 && strstr(tlb_model_last_violation(), "made global"),
	       "model: not-global -> global in place -> conflict (%s)", tlb_model_last_violation());
	model_begin_bad();
	user_page(&us, &c);
	tap_ok(EXPECT_PANIC(pte_update_inplace(&us, c.ptep, c.val, c.val & ~PTE_NG, c.va, c.level)),
	       "checker: not-global -> global claimed in place panics");
}

/* ==== 3. the checker ==== */

static void test_checker(void)
{
	struct pt_cursor c;
	pteval_t moved;
	char want[128];

	boot_default(bank_512m, 1);
	c = blk_entry();
	moved = arch_pte_mk_leaf(arch_pte_pa(c.val) + 2 * MiB, PT_KERNEL_RW, 2);
	tap_ok(EXPECT_PANIC(pte_update_inplace(&kspace, c.ptep, c.val, moved, c.va, c.level)),
	       "checker: unsafe in-place change panics");
	snprintf(want, sizeof(want), "old 0x%llx new 0x%llx va 0x%lx level 2",
		 (unsigned long long)c.val, (unsigned long long)moved, c.va);
	tap_ok(strstr(host_panic_msg, want) != NULL, "checker message names old, new, va, level: %s",
	       host_panic_msg);
	tap_ok(EXPECT_PANIC(pte_update_inplace(&kspace, c.ptep, c.val, arch_pte_mk_table(0x41000000, false),
					       c.va, c.level)),
	       "checker: block -> table claimed in place panics");
	tap_ok(EXPECT_PANIC(pte_update(&kspace, c.ptep, c.val ^ PTE_RDONLY, c.val, c.va, c.level)) &&
	       strstr(host_panic_msg, "caller expected"), "pte_update panics when the old value is not what is there");
	c = leaf_at(lm(0x402a0000));
	tap_ok(EXPECT_PANIC(pte_update(&kspace, c.ptep, c.val, c.val | PTE_RDONLY, c.va, c.level)) &&
	       strstr(host_panic_msg, "contiguous run"), "pte_update refuses to change one member of a run");
	c = blk_entry();
	pte_update_inplace(&kspace, c.ptep, c.val, c.val | PTE_RDONLY, c.va, c.level);
	tap_ok(clean() && prot_at(VA_BLK) == PT_KERNEL_RO, "checker: a safe in-place change passes, model clean");
}

/* ==== 4. building the linear map ==== */

static void test_build(const char *name, const struct env_bank *b, int n)
{
	struct pt_stats st;

	boot_default(b, n);
	pt_get_stats(&st);
	tap_ok(clean(), "build %s: zero model violations", name);
	tap_ok(prot_at(lm(IMG_PA)) == PT_KERNEL_RO && prot_at(lm(IMG_RO_END)) == PT_KERNEL_RW &&
	       prot_at(lm(b[0].base)) == PT_KERNEL_RW,
	       "build %s: text+rodata alias RO, the rest RW NX", name);
	tap_ok(st.bbm == 0 || st.bbm == st.fixmap_remaps,
	       "build %s: only fixmap slot remaps needed BBM (%llu BBM, %llu remaps)", name,
	       (unsigned long long)st.bbm, (unsigned long long)st.fixmap_remaps);
}

static void test_build_counts(void)
{
	struct pt_counts c;

	boot_default(bank_4g, 1);
	c = counts();
	tap_ok(counts_are(&c, 3, 3, 15, 31, 32, 0),
	       "4G rodata=full: 3 x 1G, 15 x 2M, 31 x 32M runs, 32 x 64K runs, 3 tables");
	tap_ok(c.tables <= 6, "4G: linear map uses %llu <= 6 page-table pages", (unsigned long long)c.tables);

	boot(bank_4g, 1, RODATA_ON, LINEAR_MAP_BLOCK);
	c = counts();
	tap_ok(counts_are(&c, 1, 4, 0, 0, 0, 0), "4G rodata=on: 4 x 1G blocks, 1 table");

	boot(bank_128m, 1, RODATA_FULL, LINEAR_MAP_BLOCK);
	c = counts();
	tap_ok(counts_are(&c, 3, 0, 15, 3, 32, 0) && clean(), "128M linear_map=block counts");
	boot(bank_128m, 1, RODATA_FULL, LINEAR_MAP_CONT);
	c = counts();
	tap_ok(counts_are(&c, 66, 0, 0, 0, 2048, 0) && clean(), "128M linear_map=cont: 2048 x 64K runs");
	boot(bank_128m, 1, RODATA_FULL, LINEAR_MAP_PTE);
	c = counts();
	tap_ok(counts_are(&c, 66, 0, 0, 0, 0, 32768) && clean(), "128M linear_map=pte: 32768 pages");
	tap_ok(prot_at(lm(IMG_PA)) == PT_KERNEL_RO && prot_at(lm(IMG_RO_END - PAGE_SIZE)) == PT_KERNEL_RO &&
	       prot_at(lm(IMG_RO_END)) == PT_KERNEL_RW, "linear_map=pte keeps the RO alias exact");

	boot_default(banks_two, 2);
	c = counts();
	tap_ok(counts_are(&c, 4, 1, 15, 7 + 16, 32, 0) && clean(), "two banks: hole left unmapped, counts");
	tap_ok(prot_at(lm(0xc0000000ULL)) == PT_KERNEL_RW && prot_at(lm(0x50000000ULL)) == 0,
	       "two banks: second bank mapped, the hole is not");
}

/* ==== 5. splitting ==== */

static void test_split_1g(void)
{
	struct pt_counts c;
	unsigned long va = lm(0x80000000ULL) + PAGE_SIZE;

	boot_default(bank_4g, 1);
	touch_all();
	tap_ok(set_memory_ro(va, 1) == 0, "1G split: set_memory_ro inside a 1G block");
	c = counts();
	tap_ok(counts_are(&c, 5, 2, 15 + 15, 31 + 31, 32 + 31, 16),
	       "1G split: 1G -> 2M blocks (runs), one run unfolded, one 2M -> pages, one 64K run unfolded");
	tap_ok(prot_at(va) == PT_KERNEL_RO && prot_at(va - PAGE_SIZE) == PT_KERNEL_RW &&
	       prot_at(va + PAGE_SIZE) == PT_KERNEL_RW, "1G split: exactly one page read-only");
	tap_ok(clean(), "1G split: zero model violations");
}

static void test_split_only_to_needed_level(void)
{
	struct pt_counts before, after;
	unsigned long va = lm(0x40400000ULL) + 5 * PAGE_SIZE;   /* a plain 2M block */

	boot_default(bank_512m, 1);
	touch_all();
	before = counts();
	tap_ok(set_memory_ro(va, 1) == 0, "2M split: set_memory_ro on one page");
	after = counts();
	tap_ok(after.leaves[2] == before.leaves[2] - 1 && after.cont_runs[2] == before.cont_runs[2] &&
	       after.cont_runs[3] == before.cont_runs[3] + 31 && after.leaves[3] == 16 &&
	       after.tables == before.tables + 1,
	       "2M split: only its 2M region becomes pages (31 x 64K runs + 16 pages)");
	tap_ok(prot_at(va) == PT_KERNEL_RO && prot_at(va + PAGE_SIZE) == PT_KERNEL_RW, "2M split: one page RO");
	tap_ok(clean(), "2M split: zero model violations");
	tap_ok(linear_map_split(lm(0x44000000ULL) + 2 * MiB) == 0 && clean(),
	       "unfolding a 32M run of 2M blocks: zero violations");
	after = counts();
	tap_ok(after.cont_runs[2] == before.cont_runs[2] - 1 && after.leaves[2] == before.leaves[2] - 1 + 16,
	       "unfold: 32M run -> 16 plain 2M blocks");
}

static void test_merge(void)
{
	struct pt_counts before, after;
	struct pt_stats st0, st1;
	unsigned long va = lm(0x80000000ULL) + 64 * MiB + 5 * PAGE_SIZE;   /* in a 1G block */

	boot_default(bank_4g, 1);
	touch_all();
	before = counts();
	tap_ok(set_memory_ro(va, 1) == 0 && set_memory_rw(va, 1) == 0 && clean(),
	       "merge: split a 1G block down to a page and restore its permission");
	tap_ok(linear_map_merge(lm(IMG_PA)) == 0,
	       "merge: a table with a read-only page (the image alias) is not merged");
	pt_get_stats(&st0);
	tap_ok(linear_map_merge(va) == 2 && clean(), "merge: pages -> 2M block -> 1G block, zero violations");
	pt_get_stats(&st1);
	after = counts();
	tap_ok(counts_are(&after, before.tables, before.leaves[1], before.leaves[2], before.cont_runs[2],
			  before.cont_runs[3], before.leaves[3]) &&
	       st1.kernel_tables == st0.kernel_tables - 2 && prot_at(va) == PT_KERNEL_RW,
	       "merge: counts back to the freshly built map, two tables freed");
}

static void test_cont_unfold(void)
{
	unsigned long va = lm(0x402a0000ULL) + 3 * PAGE_SIZE;   /* inside a 64K run */
	struct pt_counts c;

	boot_default(bank_512m, 1);
	touch_all();
	tap_ok(set_memory_ro(va, 1) == 0 && clean(), "64K run unfold + permission change: zero violations");
	c = counts();
	tap_ok(c.cont_runs[3] == 31 && c.leaves[3] == 16, "64K unfold: 31 runs left, 16 pages");
	tap_ok(prot_at(va) == PT_KERNEL_RO && prot_at(va - PAGE_SIZE) == PT_KERNEL_RW,
	       "64K unfold: only the requested page changed");
}

static bool range_prot_is(unsigned long va, int npages, unsigned mask, unsigned want)
{
	for (int i = 0; i < npages; i++)
		if ((prot_at(va + (unsigned long)i * PAGE_SIZE) & mask) != want)
			return false;
	return true;
}

static void test_set_memory_ranges(void)
{
	unsigned long va = lm(0x403f0000ULL);   /* crosses 64K runs, a 2M and a 32M boundary */
	int n = 8 * 1024;                       /* 32 MiB */

	boot_default(bank_512m, 1);
	touch_all();
	tap_ok(set_memory_ro(va, n) == 0 && clean(), "set_memory_ro over 32M across boundaries: clean");
	tap_ok(range_prot_is(va, n, PT_WRITE, 0) && (prot_at(va - PAGE_SIZE) & PT_WRITE) &&
	       (prot_at(va + (unsigned long)n * PAGE_SIZE) & PT_WRITE), "set_memory_ro: exactly the range");
	tap_ok(set_memory_x(va + 16 * PAGE_SIZE, 3) == 0 && clean() &&
	       range_prot_is(va + 16 * PAGE_SIZE, 3, PT_EXEC, PT_EXEC) &&
	       !(prot_at(va + 19 * PAGE_SIZE) & PT_EXEC), "set_memory_x on 3 pages");
	tap_ok(set_memory_nx(va + 16 * PAGE_SIZE, 3) == 0 && clean() &&
	       range_prot_is(va, n, PT_EXEC, 0), "set_memory_nx restores NX");
	tap_ok(set_memory_rw(va, n) == 0 && clean() && range_prot_is(va, n, PT_WRITE, PT_WRITE),
	       "set_memory_rw restores RW");
	tap_ok(set_memory_ro(lm(0x5ff00000ULL), 256) == 0 && clean() &&
	       range_prot_is(lm(0x5ff00000ULL), 256, PT_WRITE, 0), "set_memory_ro up to the end of RAM");
	tap_ok(set_memory_ro(va + 1, 1) == -EINVAL && set_memory_ro(lm(0x60000000ULL), 1) == -EINVAL &&
	       set_memory_ro(va, -1) == -EINVAL && set_memory_ro(va, 0) == 0,
	       "set_memory_*: unaligned, out-of-range and negative requests give -EINVAL");
	env_alloc_fail(true);
	tap_ok(set_memory_ro(lm(0x48000000ULL) + PAGE_SIZE, 1) == -ENOMEM, "set_memory_ro: -ENOMEM when a split cannot allocate");
	env_alloc_fail(false);
	tap_ok(clean() && (prot_at(lm(0x48000000ULL) + PAGE_SIZE) & PT_WRITE),
	       "after -ENOMEM the map is intact and consistent");

	boot_default(banks_two, 2);
	touch_all();
	tap_ok(set_memory_ro(lm(0x4ff00000ULL), (int)((0xc0100000ULL - 0x4ff00000ULL) / PAGE_SIZE)) == 0 &&
	       clean() && !(prot_at(lm(0xc0000000ULL)) & PT_WRITE) && (prot_at(lm(0xc0100000ULL)) & PT_WRITE),
	       "set_memory_ro across the hole between two banks");
}

static void test_split_own_table_page(void)
{
	struct pt_cursor c;
	struct pt_stats before, after;
	phys_addr_t l2, l1;

	boot_default(bank_512m, 1);
	touch_all();
	c = blk_entry();
	l2 = c.table;   /* from memblock, at the top of RAM: inside its own 32M run */
	pt_get_stats(&before);
	tap_ok(set_memory_ro(lm(l2), 1) == 0 && clean(),
	       "split of the block holding the table page being written: zero violations");
	pt_get_stats(&after);
	tap_ok(after.fixmap_uses > before.fixmap_uses && !(prot_at(lm(l2)) & PT_WRITE),
	       "...the table page was reached through the fixmap during the split");

	boot_default(bank_4g, 1);
	touch_all();
	pt_walk(&kspace, PAGE_OFFSET, 1, false, &c);
	l1 = c.table;   /* the level-1 table, at the top of RAM, in a 1G block it maps */
	tap_ok(set_memory_ro(lm(l1), 1) == 0 && clean(),
	       "1G split of the block holding the level-1 table itself: zero violations");
	tap_ok(!(prot_at(lm(l1)) & PT_WRITE) && (prot_at(lm(l1) + PAGE_SIZE) & PT_WRITE),
	       "...and only that page became read-only");
}

static void test_split_new_table_inside(void)
{
	unsigned long va = lm(0x40600000ULL) + 7 * PAGE_SIZE;   /* plain 2M block */
	phys_addr_t newt = 0x40600000ULL + 0x5000;               /* inside that block */
	struct pt_cursor c;

	boot_default(bank_512m, 1);
	touch_all();
	env_force_next_alloc(newt);
	tap_ok(set_memory_ro(va, 1) == 0 && clean(), "split whose new table page lies in the block: zero violations");
	pt_walk(&kspace, va, 2, false, &c);
	tap_ok(arch_pte_is_table(c.val, 2) && arch_pte_pa(c.val) == newt, "...the new table is that page");
	tap_ok(set_memory_ro(lm(newt), 1) == 0 && clean() && !(prot_at(lm(newt)) & PT_WRITE),
	       "the table page can then make itself read-only (its own run unfolds)");
}

/* ==== 6. fixmap, ioremap-style device mapping, user space ==== */

static void test_fixmap(void)
{
	unsigned char *p;
	phys_addr_t dtb = 0x48000100ULL;

	boot_default(bank_128m, 1);
	tlb_model_phys_write64(0x48000100ULL, 0xd00dfeedULL);
	p = fixmap_map_dtb(dtb, 12 * KiB);
	tap_ok((unsigned long)p == fixmap_slot_va(FIX_DTB) + 0x100 &&
	       tlb_model_read((unsigned long)p) == 0xd00dfeedULL, "fixmap_map_dtb: window reads the DTB");
	tap_ok(clean(), "fixmap: zero violations");
	fixmap_unmap(FIX_DTB);
	tlb_model_check_idle();
	tlb_model_set_quiet(true);
	tlb_model_access((unsigned long)p, NULL);
	tap_ok(tlb_model_violations(TLBM_FAULT) == 1 && tlb_model_violations(TLBM_STALE) == 0,
	       "fixmap_unmap: slot invalidated (access faults, nothing stale)");
}

static void test_device_map(void)
{
	char buf[16384];

	boot_default(bank_128m, 1);
	tap_ok(pt_map_range(&kspace, IOREMAP_BASE, 0x09000000ULL, 64 * KiB, PT_KERNEL_RW | PT_DEVICE,
			    PT_LEAF_ANY | PT_ALLOW_CONT), "ioremap-style device mapping");
	tlb_model_access(IOREMAP_BASE, NULL);
	tap_ok(clean(), "device mapping: zero violations");
	ptdump_kernel_buf(&kspace, buf, sizeof(buf));
	tap_ok(strstr(buf, "---[ ioremap start ]---\n0xfffffc0000000000-0xfffffc0000010000          64K PTE       "
			   "RW NX SHD AF    CON     UXN    DEVICE/nGnRE\n") != NULL,
	       "ptdump shows the device run");
	tap_ok(EXPECT_PANIC(pt_map_range(&kspace, IOREMAP_BASE, 0x0a000000ULL, 4 * KiB, PT_KERNEL_RW, PT_LEAF_ANY)),
	       "pt_map_range over an existing different mapping panics");
}

static void test_accounting(void)
{
	struct pt_space us = { .asid = 5 };
	struct pt_stats st;
	long pages = 0;
	phys_addr_t t;
	struct pt_cursor c;

	boot_default(bank_128m, 1);
	pages = env_pages_in_use();
	tap_ok(__pgd_alloc(&us, 0), "__pgd_alloc for a user space");
	tlb_model_set_user(us.root, us.asid);
	tap_ok(pt_map_range(&us, 0x400000UL, 0x44000000ULL, 64 * KiB, PT_READ | PT_WRITE | PT_USER,
			    PT_LEAF_ANY | PT_ALLOW_CONT) &&
	       pt_map_range(&us, 0x410000UL, 0x44010000ULL, 64 * KiB, PT_READ | PT_WRITE | PT_USER,
			    PT_LEAF_ANY), "map 128K of user memory (a 64K run and 16 pages)");
	pt_get_stats(&st);
	tap_ok(st.user_tables == 4 && env_pt_count(true) == 4, "user page-table pages counted: 4 (root + 3)");
	touch_range(0x400000UL, 0x420000UL);
	pt_walk(&us, 0x400000UL, 3, false, &c);
	tap_ok((arch_pte_prot(c.val) & (PT_USER | PT_NG)) == (PT_USER | PT_NG), "user leaves are USR and nG");
	pt_unmap_range(&us, 0x400000UL, 64 * KiB);
	pte_update(&us, c.ptep + 16, arch_pte_read(c.ptep + 16), ARCH_PTE_INVALID, 0x410000UL, 3);
	tap_ok(tlb_model_violations(TLBM_STALE) == 0, "user unmap of a run and a page (ASID TLBIs)");
	touch_range(0x411000UL, 0x420000UL);
	tlb_model_check_idle();
	tap_ok(tlb_model_total_violations() == 0, "user space: zero violations");
	pt_destroy(&us);
	pt_get_stats(&st);
	tap_ok(st.user_tables == 0 && env_pt_count(true) == 0 && env_pages_in_use() == pages,
	       "pt_destroy: user counters and pages back to where they were");
	tlb_model_check_idle();
	tap_ok(tlb_model_total_violations() == 0, "pt_destroy: no violations");

	pt_get_stats(&st);
	u64 k = st.kernel_tables;
	long kc = env_pt_count(false);
	t = pxd_alloc(&kspace, 2);
	pt_get_stats(&st);
	tap_ok(t && st.kernel_tables == k + 1 && env_pt_count(false) == kc + 1, "pxd_alloc counts a kernel table");
	pxd_free(&kspace, t, 2);
	pt_get_stats(&st);
	tap_ok(st.kernel_tables == k && env_pt_count(false) == kc && env_pages_in_use() == pages,
	       "pxd_free returns the kernel counter");
	for (int l = 1; l < PT_LEVELS; l++) {
		t = pxd_alloc(&us, l);
		pxd_free(&us, t, l);
	}
	pt_get_stats(&st);
	tap_ok(st.user_tables == 0 && env_pt_count(true) == 0, "pxd_alloc/free at every level balance");
}

/* ==== 7. ptdump ==== */

static void test_ptdump(void)
{
	static char buf[65536];
	size_t n;
	char sum[256];
	struct pt_counts c;
	static const char *const want[] = {
		"---[ Linear Mapping start ]---\n"
		"0xffff000000000000-0xffff000000200000           2M PMD       RW NX SHD AF        BLK UXN    MEM/NORMAL\n"
		"0xffff000000200000-0xffff000000290000         576K PTE       ro NX SHD AF    CON     UXN    MEM/NORMAL\n"
		"0xffff000000290000-0xffff000000400000        1472K PTE       RW NX SHD AF    CON     UXN    MEM/NORMAL\n"
		"0xffff000000400000-0xffff000002000000          28M PMD       RW NX SHD AF        BLK UXN    MEM/NORMAL\n"
		"0xffff000002000000-0xffff000008000000          96M PMD       RW NX SHD AF    CON BLK UXN    MEM/NORMAL\n"
		"0xffff000008000000-0xffff000040000000         896M PMD\n"
		"0xffff000040000000-0xffff008000000000         511G PUD\n",
		"---[ Linear Mapping end ]---\n",
		"---[ Kernel Image start ]---\n",
		"0xffff800080000000-0xffff800080060000         384K PTE       ro x  SHD AF            UXN    MEM/NORMAL\n",
		"0xffff800080060000-0xffff800080090000         192K PTE       ro NX SHD AF            UXN    MEM/NORMAL\n",
		"0xffff800080090000-0xffff800080100000         448K PTE       RW NX SHD AF            UXN    MEM/NORMAL\n",
		"---[ Fixmap start ]---\n",
		"---[ Fixmap end ]---\n",
		"---[ ioremap start ]---\n",
	};
	bool all = true;

	boot_default(bank_128m, 1);
	n = ptdump_kernel_buf(&kspace, buf, sizeof(buf));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		if (!strstr(buf, want[i])) {
			printf("# missing: %s", want[i]);
			all = false;
		}
	}
	tap_ok(n < sizeof(buf) && all, "ptdump of 128M rodata=full has the expected lines");
	if (!all)
		fputs(buf, stdout);
	pt_count_linear(&kspace, &c);
	ptdump_summary(&c, sum, sizeof(sum));
	tap_ok(strcmp(sum, "ptdump: linear map: 3 page-table pages; 1G blocks: 0, 2M blocks: 15, "
			   "32M cont runs: 3, 64K cont runs: 32, 4K pages: 0") == 0 && strstr(buf, sum),
	       "ptdump summary line: %s", sum);
	tap_ok(ptdump_kernel_buf(&kspace, buf, 64) == n && strlen(buf) == 63,
	       "ptdump_kernel_buf truncates safely and reports the full length");
	tap_ok(clean(), "ptdump: zero violations");
	if (getenv("PTDUMP")) {
		ptdump_kernel_buf(&kspace, buf, sizeof(buf));
		fputs(buf, stdout);
	}
}

/* ==== 9. the layout (GRANULE_SHIFT/VA_BITS; pgtable.mk builds one test per layout) ==== */

/* The Arm ARM's numbers for each supported layout (D8.2, D8.7.1), not derived. */
static const struct {
	unsigned page_shift, va_bits, levels;
	unsigned long root_entries, cont_pages, cont_blocks;
	u64 largest;
} layouts[] = {
	{ 12, 39, 3, 512, 16, 16, 1ULL << 30 },  { 12, 48, 4, 512, 16, 16, 1ULL << 30 },
	{ 14, 47, 3, 2048, 128, 32, 32ULL << 20 }, { 14, 48, 4, 2, 128, 32, 32ULL << 20 },
	{ 16, 42, 2, 8192, 32, 32, 512ULL << 20 }, { 16, 48, 3, 64, 32, 32, 512ULL << 20 },
	{ 14, 52, 4, 32, 128, 32, 32ULL << 20 }, { 16, 52, 3, 1024, 32, 32, 512ULL << 20 },
	{ 12, 52, 5, 16, 16, 16, 1ULL << 30 },
};

static void test_layout(void)
{
	unsigned i;
	u64 big = pt_level_size(PT_LARGEST_LEAF_LEVEL);
	unsigned long va, run_va;
	struct pt_counts c;
	struct pt_cursor cur;

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (layouts[i].page_shift == PAGE_SHIFT && layouts[i].va_bits == VA_BITS)
			break;
	tap_ok(i < sizeof(layouts) / sizeof(layouts[0]) && layouts[i].levels == PT_LEVELS &&
	       arch_pt_entries(0) == layouts[i].root_entries && arch_pt_entries(PT_LAST_LEVEL) == PAGE_SIZE / 8 &&
	       arch_pt_cont_entries(PT_LAST_LEVEL) == layouts[i].cont_pages &&
	       arch_pt_cont_entries(PT_LAST_LEVEL - 1) == layouts[i].cont_blocks && big == layouts[i].largest,
	       "layout %luK/%d-bit: %d levels, %lu root entries, runs of %u pages and %u blocks, largest leaf %llu MiB",
	       PAGE_SIZE >> 10, VA_BITS, PT_LEVELS, arch_pt_entries(0), arch_pt_cont_entries(PT_LAST_LEVEL),
	       arch_pt_cont_entries(PT_LAST_LEVEL - 1), (unsigned long long)(big >> 20));
	tap_ok(!arch_pt_leaf_ok(PT_LARGEST_LEAF_LEVEL - 1) && arch_pt_leaf_ok(PT_LAST_LEVEL - 1),
	       "no block above the largest leaf level, blocks one level above the pages");

	boot_default(bank_4g, 1);
	c = counts();
	tap_ok(c.leaves[PT_LARGEST_LEAF_LEVEL] >= 1 && clean(),
	       "4G build: %llu largest blocks, %llu tables, zero model violations",
	       (unsigned long long)c.leaves[PT_LARGEST_LEAF_LEVEL], (unsigned long long)c.tables);

	va = lm(RAM_BASE + 2 * big) + 5 * PAGE_SIZE;   /* inside a largest block */
	tap_ok(leaf_at(va).level == PT_LARGEST_LEAF_LEVEL, "va 0x%lx is in a largest block", va);
	tap_ok(set_memory_ro(va, 1) == 0 && prot_at(va) == PT_KERNEL_RO && prot_at(va - PAGE_SIZE) == PT_KERNEL_RW &&
	       prot_at(va + PAGE_SIZE) == PT_KERNEL_RW && leaf_at(va).level == PT_LAST_LEVEL && clean(),
	       "split: exactly one page read-only, zero model violations");
	tap_ok(set_memory_rw(va, 1) == 0 && linear_map_merge(va) >= 1 &&
	       leaf_at(va).level == PT_LARGEST_LEAF_LEVEL && prot_at(va) == PT_KERNEL_RW && clean(),
	       "merge: back to one largest block, zero model violations");

	/* The model knows this layout's runs: one member changed alone is a conflict. */
	set_memory_ro(va, 1);
	run_va = ALIGN_DOWN(va, pt_run_size(PT_LAST_LEVEL)) + 2 * pt_run_size(PT_LAST_LEVEL);
	cur = leaf_at(run_va);
	tap_ok(cur.level == PT_LAST_LEVEL && arch_pte_is_cont(cur.val), "0x%lx is in a contiguous run of pages", run_va);
	touch_all();
	tlb_model_clear_violations();
	tlb_model_set_quiet(true);
	arch_pte_write(cur.ptep, cur.val | PTE_RDONLY);
	arch_dsb_ishst();
	arch_tlbi_va(ARCH_TLBI_LEAF, run_va, PT_ASID_KERNEL);
	arch_dsb_ish();
	tlb_model_access(run_va + PAGE_SIZE, NULL);
	tap_ok(tlb_model_violations(TLBM_CONFLICT) >= 1,
	       "model: one member of a %u-page run changed -> conflict (%s)", arch_pt_cont_entries(PT_LAST_LEVEL),
	       tlb_model_last_violation());
#if PT_LPA2
	/* TCR_EL1.DS = 1: bits [9:8] are OA[51:50]; our leaves leave them 0 and the model flags them. */
	tap_ok((arch_pte_mk_leaf(RAM_BASE, PT_KERNEL_RW, PT_PMD_LEVEL) & (3ULL << 8)) == 0 &&
	       (arch_pte_mk_leaf(RAM_BASE, PT_READ | PT_USER, PT_LAST_LEVEL) & (3ULL << 8)) == 0,
	       "LPA2: leaves carry no SH bits (descriptor bits [9:8] are OA[51:50])");
	tlb_model_clear_violations();
	cur = leaf_at(run_va + pt_run_size(PT_LAST_LEVEL));
	arch_pte_write(cur.ptep, cur.val | (1ULL << 8));
	tap_ok(tlb_model_violations(TLBM_FORMAT) >= 1, "model: bit 8 set with DS = 1 -> format (%s)",
	       tlb_model_last_violation());
#endif
}

int main(void)
{
	test_layout();
#if PAGE_SHIFT != 12 || VA_BITS != 48
	/*
	 * Another layout: what follows names addresses and counts of the
	 * 4K/48-bit layout, except these, which hold for any.
	 */
	test_model_hidden_access();
	test_model_wrong_asid();
	test_model_ng_to_global();
	test_build("128M", bank_128m, 1);
	test_build("512M", bank_512m, 1);
	test_build("4G", bank_4g, 1);
	test_build("two banks", banks_two, 2);
	test_split_own_table_page();
	test_fixmap();
	tlb_model_reset();
	return tap_done();
#endif
	test_encoding();
	test_bbm_predicate();

	test_model_table_over_block();
	test_model_skip_tlbi_permission();
	test_model_skip_tlbi_in_bbm();
	test_model_tlbi_before_publish();
	test_model_tlbi_without_dsb();
	test_model_hidden_access();
	test_model_table_page_through_hidden_alias();
	test_model_misprogrammed_run();
	test_model_unpublished_table();
	test_model_bad_format();
	test_model_leaf_tlbi_for_table();
	test_model_wrong_asid();
	test_model_ng_to_global();

	test_checker();

	test_build("128M", bank_128m, 1);
	test_build("512M", bank_512m, 1);
	test_build("4G", bank_4g, 1);
	test_build("two banks", banks_two, 2);
	test_build_counts();

	test_split_1g();
	test_split_only_to_needed_level();
	test_cont_unfold();
	test_merge();
	test_set_memory_ranges();
	test_split_own_table_page();
	test_split_new_table_inside();

	test_fixmap();
	test_device_map();
	test_accounting();
	test_ptdump();

	tlb_model_reset();
	return tap_done();
}
