/*
 * test_mb_pgtable.c - host tests of the page-table core on the MicroBlaze
 * descriptor format: the real asm/pgtable.h (32-bit descriptors, two levels
 * of 10 bits, 4 MiB level-0 leaves, runs of four loaded as one 16 MiB TLB
 * page), the real mm/ (pgtable.c, pte_update.c, fixmap.c, linear_map.c,
 * ptdump.c) and the real arch/microblaze/kernel/tlb.c, against a model of
 * the 64-slot UTLB and of entry.S's refill handler (mb_tlb_model.c).
 *
 * Each scenario "boots" like head.S + setup.c: slot 0 pinned over the image
 * window, the kernel root static in the image, the fixmap, the image mapped
 * in 4 KiB pages with W^X, the pinned slot dropped, the linear map built at
 * 0xC0000000, then the (fake) buddy allocator. After each operation the
 * test touches the linear map, the image and every table page, so the UTLB
 * fills and churns like a CPU's, and asks the model whether any slot is
 * stale, any two overlap, or the shadow disagrees with the hardware.
 *
 * The "model:" group feeds deliberately wrong sequences and checks the
 * model notices; the rest prove the real code runs with zero violations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgtable.h"
#include "fixmap.h"
#include "linear_map.h"
#include "errno.h"
#include "ptdump.h"
#include "mb_tlb_model.h"
#include "pt_test_env.h"
#include "host_env.h"
#include "../../arch/microblaze/kernel/mb.h"

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)

/* Hardware TLBLO bits, written from the MicroBlaze reference (not asm/mmu.h). */
#define LO_EX   0x200u
#define LO_WR   0x100u
#define LO_ZONE(lo) (((lo) >> 4) & 15u)
#define LO_W    0x008u
#define LO_I    0x004u
#define LO_M    0x002u
#define LO_G    0x001u

/* The fake image, at the board's RAM base like the real one (offsets). */
#define IMG_SIZE       (1 * MiB)
#define IMG_TEXT_END   0x60000ULL    /* text [0, 0x60000) RX */
#define IMG_RO_END     0x90000ULL    /* rodata [0x60000, 0x90000) R; data+bss RW */
#define IMG_STATIC_OFF 0xc0000ULL    /* the fixmap's static table */
#define IMG_SHADOW_OFF 0xd0000ULL    /* where mb_tlb_shadow "is" */
#define IMG_ROOT_OFF   0xf0000ULL    /* swapper_pg_dir */
#define EARLYCON_PA    0x83e01000ULL /* ml605's 16550 */

struct board {
	const char *name;
	phys_addr_t ram;
};
static const struct board ml605 = { "ml605", 0x50000000ULL };
static const struct board s3a = { "s3adsp1800", 0x90000000ULL };

static struct pt_space kspace;
static phys_addr_t ram_base;
static u64 ram_size;

static unsigned long lm(phys_addr_t pa)
{
	return pt_linear_va(pa);
}

/* ---- touching, like a CPU would ---- */

/* Read every translation in [start, end) once (one access per slot). */
static void touch_range(unsigned long start, unsigned long end)
{
	unsigned long va = start;

	while (va < end) {
		struct mbm_slot s;
		unsigned long next;

		mbm_access(va, MBM_READ, &s);
		next = s.valid ? (unsigned long)s.tag + s.size : ALIGN_DOWN(va, PAGE_SIZE) + PAGE_SIZE;
		if (next <= va)
			break;
		va = next;
	}
}

static void touch_table(phys_addr_t pa)
{
	if (pt_pa_in_kimage(pa))
		mbm_access(KIMAGE_VADDR + (unsigned long)(pa - ram_base), MBM_READ, NULL);
	else if (pt_linear_is_live() && pa >= ram_base && pa - ram_base < ram_size)
		mbm_access(lm(pa), MBM_READ, NULL);
}

/* Touch the root and every level-1 table of the kernel through its usual alias. */
static void touch_tables(void)
{
	touch_table(kspace.root);
	for (unsigned long i = KERNEL_VA_START >> PT_L0_SHIFT; i < arch_pt_entries(0); i++) {
		u32 d = mbm_phys_read32(kspace.root + i * 4);

		if (arch_pte_is_table(d, 0))
			touch_table(arch_pte_pa(d));
	}
}

static void touch_all(void)
{
	touch_range(PAGE_OFFSET, linear_map_end());
	touch_range(KIMAGE_VADDR, KIMAGE_VADDR + IMG_SIZE);
	touch_tables();
	mbm_check_idle();
}

/*
 * The operation just ended: check the UTLB as it is now (before touching
 * evicts anything), then touch everything twice (the second pass hits what
 * the first loaded).
 */
static bool clean(void)
{
	mbm_check_idle();
	touch_all();
	touch_all();
	return mbm_total_violations() == 0;
}

/* ---- booting: head.S, start_kernel, arch_mm_init ---- */

static void map_image_part(u64 start, u64 end, unsigned prot)
{
	pt_map_range(&kspace, KIMAGE_VADDR + (unsigned long)start, ram_base + start, end - start, prot,
		     PT_LEAF(PT_LAST_LEVEL));
}

static void boot(const struct board *b, u64 ram, int rodata, int mode)
{
	struct env_bank bank = { b->ram, ram };
	struct linear_map_config cfg = { rodata, mode, b->ram, b->ram + IMG_RO_END };

	mbm_reset();
	mbm_set_quiet(false);
	ram_base = b->ram;
	ram_size = ram;
	env_reset(&bank, 1, b->ram + 64 * MiB);
	mbm_set_image(ram_base, KIMAGE_VADDR, IMG_SIZE, IMG_STATIC_OFF, IMG_SHADOW_OFF);
	mbm_head_boot();

	/* start_kernel */
	pt_init(ram_base, KIMAGE_VADDR, IMG_SIZE);
	pt_mmu_enabled();
	pt_space_init(&kspace, ram_base + IMG_ROOT_OFF, 0, PT_ASID_KERNEL);
	mb_kernel_pgd_pa = (u32)kspace.root;
	fixmap_init(&kspace);
	fixmap_map(FIX_CONSOLE, EARLYCON_PA, PT_READ | PT_WRITE | PT_DEVICE);

	/* arch_mm_init */
	if (rodata == RODATA_OFF) {
		map_image_part(0, IMG_SIZE, PT_READ | PT_WRITE | PT_EXEC);
	} else {
		map_image_part(0, IMG_TEXT_END, PT_READ | PT_EXEC);
		map_image_part(IMG_TEXT_END, IMG_RO_END, PT_READ);
		map_image_part(IMG_RO_END, IMG_SIZE, PT_READ | PT_WRITE);
	}
	mb_tlb_unpin_boot();
	linear_map_build(&kspace, &cfg);
	mb_linear_offset = (u32)(pt_linear_pa(PAGE_OFFSET) - PAGE_OFFSET);
	pt_use_page_allocator();
}

static void boot_default(const struct board *b, u64 ram)
{
	boot(b, ram, RODATA_FULL, LINEAR_MAP_BLOCK);
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

static bool counts_are(const struct pt_counts *c, u64 tables, u64 blk4m, u64 runs16m, u64 pages)
{
	bool ok = c->tables == tables && c->leaves[0] == blk4m && c->cont_runs[0] == runs16m &&
		  c->leaves[1] == pages && c->cont_runs[1] == 0;

	if (!ok)
		printf("# counts: tables %llu, 4M %llu, 16M runs %llu, 4K %llu\n", (unsigned long long)c->tables,
		       (unsigned long long)c->leaves[0], (unsigned long long)c->cont_runs[0],
		       (unsigned long long)c->leaves[1]);
	return ok;
}

/* The slot a kernel read of va uses (loading it if needed). */
static struct mbm_slot slot_for(unsigned long va)
{
	struct mbm_slot s;

	mbm_access(va, MBM_READ, &s);
	return s;
}

/*
 * Load the slots for [va - 1 page, va + n pages] right before an operation,
 * as a CPU that just used them would: the UTLB has only 64 slots and
 * touch_all() leaves it full of image pages, so without this a missing
 * slot removal would have nothing to leave stale.
 */
static void warm(unsigned long va, int npages)
{
	for (int i = -1; i <= npages && i < 48; i++)
		mbm_access(va + (long)i * (long)PAGE_SIZE, MBM_READ, NULL);
}

/* ==== 1. the descriptor format ==== */

/* The generic prot flags, one bit each, in the order of the loop below. */
static const unsigned prot_bits[] = { PT_READ, PT_WRITE, PT_EXEC, PT_USER, PT_DEVICE, PT_CONT, PT_NG };

static unsigned prot_from_index(unsigned i)
{
	unsigned p = 0;

	for (unsigned b = 0; b < ARRAY_SIZE(prot_bits); b++)
		if (i & (1u << b))
			p |= prot_bits[b];
	return p;
}

/* What arch_pte_prot() must give back for a leaf made with prot at level. */
static unsigned expected_prot(unsigned prot, int level)
{
	unsigned p = PT_READ;

	p |= prot & (PT_WRITE | PT_USER | PT_DEVICE);
	if ((prot & PT_EXEC) && !(prot & PT_DEVICE))
		p |= PT_EXEC;
	if ((prot & PT_CONT) && level == 0)
		p |= PT_CONT;
	if (prot & (PT_NG | PT_USER))
		p |= PT_NG;
	return p;
}

static const phys_addr_t some_pas[] = { 0x50000000ULL, 0x90000000ULL, 0x5fc00000ULL, 0x00400000ULL,
					0xffc00000ULL, 0x50401000ULL, 0x9abcd000ULL, 0xfffff000ULL, 0 };

static void test_geometry(void)
{
	tap_ok(PT_LEVELS == 2 && sizeof(pteval_t) == 4 && arch_pt_shift(0) == 22 && arch_pt_shift(1) == 12 &&
	       arch_pt_entries(0) == 1024 && arch_pt_entries(1) == 1024,
	       "geometry: 32-bit descriptors, 2 levels of 10 bits (shifts 22, 12)");
	tap_ok(pt_level_size(0) == 4 * MiB && pt_run_size(0) == 16 * MiB && arch_pt_cont_entries(1) == 1 &&
	       pt_run_size(1) == 4 * KiB && arch_pt_leaf_ok(0) && arch_pt_leaf_ok(1) &&
	       PT_LARGEST_LEAF_LEVEL == 0,
	       "geometry: 4M level-0 leaves, runs of 4 (16M), 4K pages, no level-1 runs");
	tap_ok(!strcmp(arch_pt_level_name(0), "PGD") && !strcmp(arch_pt_level_name(1), "PTE"),
	       "level names PGD, PTE");
}

static void test_encoding_roundtrip(void)
{
	for (int level = 0; level < PT_LEVELS; level++) {
		unsigned bad = 0, n = 0;
		char first[256] = "";

		for (unsigned i = 0; i < (1u << ARRAY_SIZE(prot_bits)); i++) {
			unsigned prot = prot_from_index(i);

			for (unsigned k = 0; k < ARRAY_SIZE(some_pas); k++) {
				phys_addr_t pa = some_pas[k];
				pteval_t v = arch_pte_mk_leaf(pa, prot, level);
				phys_addr_t want_pa = pa & (level == 0 ? PTE_OA_L0 : PTE_OA_MASK);
				u64 sz = pt_level_size(level);
				bool ok = arch_pte_valid(v) && arch_pte_is_leaf(v, level) &&
					  !arch_pte_is_table(v, level) && arch_pte_pa(v) == want_pa &&
					  arch_pte_prot(v) == expected_prot(prot, level) &&
					  arch_pte_is_cont(v) == (level == 0 && (prot & PT_CONT)) &&
					  arch_pte_swp_kind(v) == ARCH_SWP_NONE &&
					  arch_pte_attrs(v) == (v & ~(pteval_t)PTE_OA_MASK) &&
					  arch_pte_mk_leaf(arch_pte_pa(v), arch_pte_prot(v), level) == v &&
					  (want_pa + sz > 0xffffffffULL ||
					   arch_pte_pa(arch_pte_oa_add(v, sz)) == want_pa + sz);

				n++;
				if (!ok && !bad++)
					snprintf(first, sizeof(first), " (first: prot 0x%x pa 0x%llx -> 0x%08x, prot back 0x%x)",
						 prot, (unsigned long long)pa, v, arch_pte_prot(v));
			}
		}
		tap_ok(bad == 0, "level %d: %u leaves (every prot combination x %zu addresses) decode and re-encode "
		       "exactly%s", level, n, ARRAY_SIZE(some_pas), first);
	}
	for (unsigned k = 0; k < ARRAY_SIZE(some_pas); k++) {
		pteval_t t = arch_pte_mk_table(some_pas[k] & PTE_OA_MASK, k & 1);

		if (!arch_pte_is_table(t, 0) || arch_pte_is_leaf(t, 0) || arch_pte_is_table(t, 1) ||
		    arch_pte_pa(t) != (some_pas[k] & PTE_OA_MASK) || arch_pte_is_cont(t)) {
			tap_ok(false, "table descriptor for 0x%llx: 0x%08x", (unsigned long long)some_pas[k], t);
			return;
		}
	}
	tap_ok(!arch_pte_valid(ARCH_PTE_INVALID) && !arch_pte_is_table(ARCH_PTE_INVALID, 0) &&
	       !arch_pte_is_leaf(ARCH_PTE_INVALID, 1),
	       "table descriptors: a table at level 0 only, address round-trips; invalid is neither");
}

/*
 * What the refill handler makes of every leaf: the slot size, the TLBLO
 * bits read with the hardware's meaning, the TID. This is the contract
 * between <asm/mmu.h>'s descriptor bits and the UTLB.
 */
static void test_refill_view(void)
{
	for (int level = 0; level < PT_LEVELS; level++) {
		unsigned bad = 0;
		char first[256] = "";

		for (unsigned i = 0; i < (1u << ARRAY_SIZE(prot_bits)); i++) {
			unsigned prot = prot_from_index(i);
			phys_addr_t pa = level == 0 ? 0x5c000000ULL : 0x5c123000ULL;
			pteval_t v = arch_pte_mk_leaf(pa, prot, level);
			struct mbm_slot s;
			u32 want_size = level == 1 ? 4 * KiB : (prot & PT_CONT) ? 16 * MiB : 4 * MiB;
			bool dev = prot & PT_DEVICE;
			bool ok;

			mbm_slot_for_desc(v, level, 0xc5432000UL, 9, &s);
			ok = s.valid && s.size == want_size && s.tag == (0xc5432000u & ~(want_size - 1)) &&
			     (s.lo & ~(want_size - 1) & 0xfffffc00u) == (pa & ~(u64)(want_size - 1)) &&
			     !!(s.lo & LO_WR) == !!(prot & PT_WRITE) &&
			     !!(s.lo & LO_EX) == ((prot & PT_EXEC) && !dev) &&
			     LO_ZONE(s.lo) == ((prot & PT_USER) ? 1u : 0u) &&
			     !!(s.lo & LO_I) == dev && !!(s.lo & LO_G) == dev && !(s.lo & (LO_W | LO_M)) &&
			     s.tid == ((prot & (PT_USER | PT_NG)) || level == 1 ? 9u : 0u);
			if (!ok && !bad++)
				snprintf(first, sizeof(first), " (first: prot 0x%x -> desc 0x%08x: hi 0x%08x lo 0x%08x tid %u)",
					 prot, v, s.hi, s.lo, s.tid);
		}
		tap_ok(bad == 0, "level %d: the refill turns every prot combination into the right slot size, "
		       "WR/EX/zone/I/G bits and TID%s", level, first);
	}
}

/* ==== 2. software entries ==== */

static void test_swp_encoding(void)
{
	static const unsigned kinds[] = { ARCH_SWP_PROTNONE, ARCH_SWP_GUARD };
	unsigned bad = 0;

	for (unsigned k = 0; k < ARRAY_SIZE(kinds); k++)
		for (unsigned j = 0; j < ARRAY_SIZE(some_pas); j++) {
			pteval_t v = arch_pte_mk_swp(kinds[k], some_pas[j]);

			if (arch_pte_swp_kind(v) != kinds[k] || arch_pte_swp_pa(v) != (some_pas[j] & PTE_OA_MASK) ||
			    arch_pte_valid(v) || arch_pte_is_leaf(v, 0) || arch_pte_is_leaf(v, 1) ||
			    arch_pte_is_table(v, 0) || v == ARCH_PTE_INVALID ||
			    arch_pte_change_needs_bbm(v, arch_pte_mk_leaf(some_pas[j], PT_KERNEL_RW, 1), 1))
				bad++;
		}
	tap_ok(bad == 0, "software entries: kind and address round-trip, never valid, never empty, "
	       "replaced in place (%u bad)", bad);
	tap_ok(arch_pte_swp_kind(ARCH_PTE_INVALID) == ARCH_SWP_NONE &&
	       arch_pte_swp_kind(arch_pte_mk_leaf(0x50000000ULL, PT_KERNEL_RW, 1)) == ARCH_SWP_NONE &&
	       arch_pte_swp_kind(arch_pte_mk_leaf(0x50000000ULL, PT_KERNEL_RW | PT_CONT, 0)) == ARCH_SWP_NONE,
	       "software entries: empty and valid descriptors are not software entries");
}

/* ==== 3. the break-before-make predicate ==== */

static void test_bbm_predicate(void)
{
	pteval_t rw = arch_pte_mk_leaf(0x50000000ULL, PT_KERNEL_RW, 0);
	pteval_t ro = arch_pte_mk_leaf(0x50000000ULL, PT_KERNEL_RO, 0);
	pteval_t rx = arch_pte_mk_leaf(0x50000000ULL, PT_KERNEL_RX, 0);
	pteval_t moved = arch_pte_mk_leaf(0x50400000ULL, PT_KERNEL_RW, 0);
	pteval_t cont = arch_pte_mk_leaf(0x50000000ULL, PT_KERNEL_RW | PT_CONT, 0);
	pteval_t dev = arch_pte_mk_leaf(0x50000000ULL, PT_KERNEL_RW | PT_DEVICE, 0);
	pteval_t ng = arch_pte_mk_leaf(0x50000000ULL, PT_KERNEL_RW | PT_NG, 0);
	pteval_t tbl = arch_pte_mk_table(0x51000000ULL, false);
	pteval_t pg = arch_pte_mk_leaf(0x50001000ULL, PT_KERNEL_RW, 1);
	pteval_t pg_ro = arch_pte_mk_leaf(0x50001000ULL, PT_KERNEL_RO, 1);
	pteval_t pg_moved = arch_pte_mk_leaf(0x50002000ULL, PT_KERNEL_RW, 1);

	tap_ok(!arch_pte_change_needs_bbm(0, rw, 0) && !arch_pte_change_needs_bbm(rw, 0, 0) &&
	       !arch_pte_change_needs_bbm(0, tbl, 0) && !arch_pte_change_needs_bbm(tbl, 0, 0),
	       "bbm: invalid -> leaf/table and back are safe in place");
	tap_ok(!arch_pte_change_needs_bbm(rw, ro, 0) && !arch_pte_change_needs_bbm(ro, rw, 0) &&
	       !arch_pte_change_needs_bbm(ro, rx, 0) && !arch_pte_change_needs_bbm(pg, pg_ro, 1) &&
	       !arch_pte_change_needs_bbm(cont, cont & ~(pteval_t)PTE_WR, 0) &&
	       !arch_pte_change_needs_bbm(pg, pg | PTE_USER, 1),
	       "bbm: WR, EX and USER (zone) changes are safe in place, also on a whole run");
	tap_ok(!arch_pte_change_needs_bbm(tbl, tbl, 0), "bbm: an unchanged table is safe");
	tap_ok(arch_pte_change_needs_bbm(rw, moved, 0) && arch_pte_change_needs_bbm(pg, pg_moved, 1),
	       "bbm: an output-address change needs BBM (4M leaf and page)");
	tap_ok(arch_pte_change_needs_bbm(rw, tbl, 0) && arch_pte_change_needs_bbm(tbl, rw, 0),
	       "bbm: 4M leaf <-> table needs BBM");
	tap_ok(arch_pte_change_needs_bbm(rw, cont, 0) && arch_pte_change_needs_bbm(cont, rw, 0),
	       "bbm: CONT (4M <-> 16M slot) changes need BBM");
	tap_ok(arch_pte_change_needs_bbm(rw, dev, 0) && arch_pte_change_needs_bbm(rw, ng, 0) &&
	       arch_pte_change_needs_bbm(ng, rw, 0),
	       "bbm: cache attributes (I/G) and the TID (NG) need BBM");
	tap_ok(arch_pte_change_needs_bbm(tbl, arch_pte_mk_table(0x51001000ULL, false), 0),
	       "bbm: a table pointing elsewhere needs BBM");
}

/*
 * Every pair of descriptors from a large set: wherever the arch predicate
 * allows an in-place change, the model's own rule (same slot size, address,
 * cache attributes and TID) must agree.
 */
static void test_bbm_predicate_vs_model(void)
{
	for (int level = 0; level < PT_LEVELS; level++) {
		static pteval_t set[400];
		unsigned n = 0, unsafe_allowed = 0, stricter = 0;
		char first[160] = "";

		set[n++] = ARCH_PTE_INVALID;
		set[n++] = arch_pte_mk_swp(ARCH_SWP_PROTNONE, 0x50000000ULL);
		set[n++] = arch_pte_mk_swp(ARCH_SWP_GUARD, 0x50400000ULL);
		if (level == 0) {
			set[n++] = arch_pte_mk_table(0x51000000ULL, false);
			set[n++] = arch_pte_mk_table(0x51001000ULL, true);
		}
		for (unsigned i = 0; i < (1u << ARRAY_SIZE(prot_bits)); i++) {
			set[n++] = arch_pte_mk_leaf(0x50000000ULL, prot_from_index(i), level);
			set[n++] = arch_pte_mk_leaf(0x50400000ULL, prot_from_index(i), level);
		}
		for (unsigned a = 0; a < n; a++)
			for (unsigned b = 0; b < n; b++) {
				bool arch_bbm = arch_pte_change_needs_bbm(set[a], set[b], level);
				bool model_safe = mbm_change_is_safe(set[a], set[b], level);

				if (!arch_bbm && !model_safe && !unsafe_allowed++)
					snprintf(first, sizeof(first), " (first: 0x%08x -> 0x%08x)", set[a], set[b]);
				stricter += arch_bbm && model_safe && set[a] != set[b];
			}
		tap_ok(unsafe_allowed == 0, "level %d: of %u x %u descriptor pairs the predicate never allows an "
		       "in-place change the UTLB model calls unsafe%s (%u pairs it breaks more than needed)",
		       level, n, n, first, stricter);
	}
}

/* ==== 4. the model catches wrong sequences ==== */

static void model_begin_bad(void)
{
	boot_default(&ml605, 128 * MiB);
	touch_all();
	mbm_clear_violations();
	mbm_set_quiet(true);
}

/* The level-0 entry translating va. */
static struct pt_cursor l0_at(unsigned long va)
{
	struct pt_cursor c;

	pt_walk(&kspace, va, 0, false, &c);
	return c;
}

/* A new level-1 table of pages mapping what the 4M leaf at c maps (not live). */
static pteval_t page_table_for(const struct pt_cursor *c, unsigned prot)
{
	phys_addr_t t = pxd_alloc(&kspace, 1);
	pteval_t *p = pt_page_va(t, 1);

	for (unsigned long i = 0; i < 1024; i++)
		pt_write_new(&p[i], arch_pte_mk_leaf(arch_pte_pa(c->val) + i * PAGE_SIZE, prot, 1));
	return arch_pte_mk_table(t, false);
}

static void test_model_table_over_leaf(void)
{
	unsigned long va;
	struct pt_cursor c;
	pteval_t tv;

	model_begin_bad();
	va = lm(ram_base + 4 * MiB);
	c = l0_at(va);
	tap_ok(slot_for(va + 0x3000).size == 4 * MiB, "model: the plain 4M leaf is loaded as one 4M slot");
	tv = page_table_for(&c, PT_KERNEL_RW);
	arch_pte_write(c.ptep, tv);             /* no break, no slot removal */
	tap_ok(mbm_violations(MBM_UNSAFE) == 1, "model: a table written over a live 4M leaf in place -> unsafe (%s)",
	       mbm_last_violation());
	mbm_access(va + 0x3000, MBM_READ, NULL);
	tap_ok(mbm_violations(MBM_STALE) == 1, "model: ...the old 4M slot is still hit -> stale (%s)",
	       mbm_last_violation());
	mbm_check_idle();
	tap_ok(mbm_violations(MBM_STALE) == 2 && mbm_violations(MBM_HIDDEN) == 0,
	       "model: ...and still there when the operation ends");
}

static void test_model_permission_without_removal(void)
{
	unsigned long va;
	struct pt_cursor c;

	model_begin_bad();
	va = lm(ram_base + 8 * MiB);
	c = l0_at(va);
	slot_for(va);
	arch_pte_write(c.ptep, c.val & ~(pteval_t)PTE_WR);   /* safe in place, but no removal */
	tap_ok(mbm_total_violations() == 0, "model: a permission change in place is not unsafe by itself");
	mbm_access(va + 0x1000, MBM_READ, NULL);
	tap_ok(mbm_violations(MBM_STALE) == 1 && mbm_violations(MBM_OVERLAP) == 0,
	       "model: ...but without the slot removal the old slot is stale (%s)", mbm_last_violation());
	mbm_clear_violations();
	mb_tlb_flush_range(va, 1, PT_ASID_KERNEL);
	tap_ok(mbm_access(va + 0x1000, MBM_READ, NULL) && !mbm_access(va + 0x1000, MBM_WRITE, NULL) &&
	       mbm_violations(MBM_FAULT) == 1 && mbm_violations(MBM_STALE) == 0,
	       "model: after the removal the reloaded slot is read-only: a kernel write faults");
}

static void test_model_unmap_without_removal(void)
{
	struct pt_cursor c;

	model_begin_bad();
	c = l0_at(lm(ram_base + 12 * MiB));
	slot_for(c.va);
	arch_pte_write(c.ptep, ARCH_PTE_INVALID);
	mbm_check_idle();
	tap_ok(mbm_violations(MBM_STALE) == 1, "model: unmap without slot removal -> stale slot at the end (%s)",
	       mbm_last_violation());
}

static void test_model_make_before_removal(void)
{
	struct pt_cursor c;
	pteval_t tv;

	model_begin_bad();
	c = l0_at(lm(ram_base + 4 * MiB));
	slot_for(c.va);
	tv = page_table_for(&c, PT_KERNEL_RW);
	arch_pte_write(c.ptep, ARCH_PTE_INVALID);   /* break ... */
	arch_pte_write(c.ptep, tv);                 /* ... make, the slot never removed */
	tap_ok(mbm_violations(MBM_UNSAFE) == 1,
	       "model: break then make without removing the slot -> unsafe at the make (%s)", mbm_last_violation());
}

static void test_model_hidden_access(void)
{
	struct pt_cursor c;

	model_begin_bad();
	c = l0_at(lm(ram_base + 4 * MiB));
	slot_for(c.va);
	arch_pte_write(c.ptep, ARCH_PTE_INVALID);             /* break */
	mb_tlb_flush_range(c.va, 4 * MiB, PT_ASID_KERNEL);    /* slots removed */
	mbm_access(c.va + 0x5000, MBM_READ, NULL);            /* touch the hole */
	tap_ok(mbm_violations(MBM_HIDDEN) == 1 && mbm_violations(MBM_STALE) == 0,
	       "model: an access inside a broken range -> hidden (%s)", mbm_last_violation());
}

/* Small slots live, a 4M leaf written over their table in place: a miss loads an overlapping 4M slot. */
static void test_model_overlap_on_merge(void)
{
	unsigned long va;
	struct pt_cursor c;

	model_begin_bad();
	va = lm(ram_base + 8 * MiB);
	tap_ok(linear_map_split(va + PAGE_SIZE) == 0 && mbm_total_violations() == 0,
	       "model: (a correct split of a 4M leaf into pages)");
	for (int i = 0; i < 4; i++)
		slot_for(va + i * PAGE_SIZE);
	c = l0_at(va);
	arch_pte_write(c.ptep, arch_pte_mk_leaf(ram_base + 8 * MiB, PT_KERNEL_RW, 0));   /* merge, no break */
	mbm_access(va + 100 * PAGE_SIZE, MBM_READ, NULL);
	tap_ok(mbm_violations(MBM_UNSAFE) == 1 && mbm_violations(MBM_OVERLAP) >= 1,
	       "model: table -> 4M leaf in place while 4K slots are loaded -> the refill loads an "
	       "overlapping 4M slot (%s)", mbm_last_violation());
	mbm_access(va + PAGE_SIZE, MBM_READ, NULL);
	tap_ok(mbm_violations(MBM_OVERLAP) >= 2, "model: ...and a lookup there finds two slots");
}

/* 4M slots live, their four leaves made a run in place: a miss loads an overlapping 16M slot. */
static void test_model_overlap_on_fold(void)
{
	unsigned long va;
	struct pt_cursor c;

	model_begin_bad();
	va = lm(ram_base + 16 * MiB);
	tap_ok(linear_map_split(va + 4 * MiB) == 0 && counts().cont_runs[0] == 6 && mbm_total_violations() == 0,
	       "model: (a correct unfold of a 16M run into four 4M leaves)");
	slot_for(va);
	c = l0_at(va);
	for (int i = 0; i < 4; i++)
		arch_pte_write(c.ptep + i, arch_pte_mk_leaf(ram_base + (16 + 4 * i) * MiB,
							    PT_KERNEL_RW | PT_CONT, 0));
	tap_ok(mbm_violations(MBM_UNSAFE) == 4, "model: setting CONT on live leaves in place -> unsafe x4");
	mbm_access(va + 9 * MiB, MBM_READ, NULL);
	tap_ok(mbm_violations(MBM_OVERLAP) == 1, "model: a miss in the run loads a 16M slot over the live 4M "
	       "one -> overlap (%s)", mbm_last_violation());
}

static void test_model_misprogrammed_run(void)
{
	unsigned long va;
	struct pt_cursor c;

	model_begin_bad();
	va = lm(ram_base + 32 * MiB);
	c = l0_at(va + 4 * MiB);
	arch_pte_write(c.ptep, c.val & ~(pteval_t)PTE_CONT);   /* one member of the run alone */
	mb_tlb_flush_range(va, 16 * MiB, PT_ASID_KERNEL);
	mbm_clear_violations();
	mbm_access(va, MBM_READ, NULL);
	tap_ok(mbm_violations(MBM_UNSAFE) == 1 && strstr(mbm_last_violation(), "misprogrammed"),
	       "model: a 16M slot loaded from a run with one member changed -> unsafe (%s)", mbm_last_violation());
}

static void test_model_shadow(void)
{
	int i;
	struct mbm_slot s;

	model_begin_bad();
	mbm_matches(lm(ram_base + 16 * MiB), 0, &i);
	if (i < 0) {
		slot_for(lm(ram_base + 16 * MiB));
		mbm_matches(lm(ram_base + 16 * MiB), 0, &i);
	}
	mbm_slot_get(i, &s);
	mbm_hw_set_slot(i, 0, 0, 0);   /* the hardware slot goes, the shadow keeps it */
	mbm_check_idle();
	tap_ok(mbm_violations(MBM_SHADOW) == 1, "model: a slot removed without its shadow entry -> shadow (%s)",
	       mbm_last_violation());
	mbm_hw_set_slot(i, s.hi, s.lo, s.tid);
	mbm_clear_violations();
	mbm_check_idle();
	tap_ok(mbm_total_violations() == 0, "model: hardware and shadow agree again");
}

/*
 * Removing a slot TLBLO first leaves a valid tag over TLBLO = 0 for an
 * instant. Writing TLBLO = 0 after TLBHI = 0 tears a slot too when a refill
 * comes in between and takes the same slot (the removal's own code page
 * missed; the handler restores TLBX): so a removal ends with TLBHI = 0.
 */
static void test_model_torn_removal(void)
{
	unsigned long va = lm(ram_base + 16 * MiB);
	int i;
	struct mbm_slot s, t;

	model_begin_bad();
	slot_for(va);
	mbm_matches(va, 0, &i);
	mbm_slot_get(i, &s);
	mbm_mts_tlbx((u32)i);
	mbm_mts_tlblo(0);		/* the wrong order */
	mbm_mts_tlbhi(0);
	tap_ok(mbm_violations(MBM_TORN) == 1, "model: TLBLO cleared before TLBHI -> torn slot (%s)",
	       mbm_last_violation());
	mbm_hw_set_slot(i, s.hi, s.lo, s.tid);
	mbm_clear_violations();
	mbm_mts_tlbx((u32)i);
	mbm_mts_tlbhi(0);		/* V clear ... */
	mb_tlb_next_block = (u32)i;
	slot_for(va);			/* ... a refill takes slot i again, TLBX stays i ... */
	mbm_mts_tlblo(0);		/* ... and this write tears it */
	tap_ok(mbm_violations(MBM_TORN) == 1, "model: a refill between TLBHI = 0 and TLBLO = 0 into the same "
	       "slot -> torn slot (%s)", mbm_last_violation());
	mbm_hw_set_slot(i, s.hi, s.lo, s.tid);
	mbm_clear_violations();
	mbm_mts_tlbx((u32)i);
	mbm_mts_tlbhi(0);		/* TLBHI = 0 as the last write */
	mbm_slot_get(i, &t);
	tap_ok(!t.valid, "model: TLBHI = 0 alone empties the slot");
	mb_tlb_next_block = (u32)i;
	slot_for(va);
	mbm_slot_get(i, &t);
	tap_ok(mbm_violations(MBM_TORN) == 0 && t.valid && t.lo == s.lo,
	       "model: the same refill after a removal that ends with TLBHI = 0 leaves a whole slot");
	mbm_hw_set_slot(i, s.hi, s.lo, s.tid);
}

static void test_model_user_to_kernel(void)
{
	unsigned before;

	model_begin_bad();
	slot_for(PAGE_OFFSET);   /* the kernel's slot for it is loaded */
	before = mbm_valid_slots();
	tap_ok(!mbm_access(PAGE_OFFSET, MBM_USER | MBM_READ, NULL) && mbm_violations(MBM_FAULT) == 1 &&
	       mbm_valid_slots() == before && mbm_walk(PAGE_OFFSET, true, NULL) == MBW_USER_KERNEL,
	       "model: a user access to a kernel address faults, with the kernel slot loaded, and loads nothing");
	tap_ok(!mbm_access(KIMAGE_VADDR, MBM_USER | MBM_READ, NULL) &&
	       !mbm_access(0x10000000UL, MBM_USER | MBM_READ, NULL) && mbm_violations(MBM_FAULT) == 3,
	       "model: user access to the image faults; a user address with no user space faults");
}

/* ==== 5. the checker ==== */

static void test_checker(void)
{
	struct pt_cursor c;
	pteval_t moved;
	char want[160];

	boot_default(&ml605, 128 * MiB);
	touch_all();
	c = l0_at(lm(ram_base + 4 * MiB));
	moved = arch_pte_mk_leaf(arch_pte_pa(c.val) + 4 * MiB, PT_KERNEL_RW, 0);
	tap_ok(EXPECT_PANIC(pte_update_inplace(&kspace, c.ptep, c.val, moved, c.va, c.level)),
	       "checker: moving a live 4M leaf in place panics");
	snprintf(want, sizeof(want), "unsafe in-place change: old 0x%llx new 0x%llx va 0x%lx level 0",
		 (unsigned long long)c.val, (unsigned long long)moved, c.va);
	tap_ok(strstr(host_panic_msg, want) != NULL, "checker message names old, new, va, level: %s",
	       host_panic_msg);
	tap_ok(EXPECT_PANIC(pte_update_inplace(&kspace, c.ptep, c.val, arch_pte_mk_table(ram_base + 0x200000, false),
					       c.va, c.level)),
	       "checker: 4M leaf -> table claimed in place panics");
	tap_ok(EXPECT_PANIC(pte_update_inplace(&kspace, c.ptep, c.val, c.val | PTE_NG, c.va, c.level)) &&
	       EXPECT_PANIC(pte_update_inplace(&kspace, c.ptep, c.val, c.val | PTE_I | PTE_G, c.va, c.level)),
	       "checker: TID (NG) and cache-attribute changes claimed in place panic");
	c = l0_at(lm(ram_base + 16 * MiB));
	tap_ok(EXPECT_PANIC(pte_update_inplace(&kspace, c.ptep, c.val, c.val & ~(pteval_t)PTE_WR, c.va, c.level)),
	       "checker: a member of a 16M run changed in place alone panics");
	tap_ok(EXPECT_PANIC(pte_update(&kspace, c.ptep, c.val, c.val & ~(pteval_t)PTE_WR, c.va, c.level)) &&
	       strstr(host_panic_msg, "contiguous run"), "pte_update refuses to change one member of a run");
	c = l0_at(lm(ram_base + 4 * MiB));
	tap_ok(EXPECT_PANIC(pte_update(&kspace, c.ptep, c.val ^ PTE_WR, c.val, c.va, c.level)) &&
	       strstr(host_panic_msg, "caller expected"), "pte_update panics when the old value is not what is there");
	tap_ok(mbm_total_violations() == 0 && clean(), "after the refused changes the tables and UTLB are intact");
	warm(c.va, 4);
	pte_update_inplace(&kspace, c.ptep, c.val, c.val & ~(pteval_t)PTE_WR, c.va, c.level);
	tap_ok(clean() && prot_at(c.va) == PT_KERNEL_RO && !(slot_for(c.va + 0x2000).lo & LO_WR),
	       "checker: a safe in-place change passes; the reloaded 4M slot is read-only; model clean");
}

/* ==== 6. building the linear map ==== */

static void test_build(const struct board *b, u64 ram)
{
	struct pt_stats st;
	struct pt_counts c;
	struct mbm_slot s0, s1, s2;
	unsigned mib = (unsigned)(ram / MiB);
	unsigned runs = (unsigned)(ram / (16 * MiB)) - 1;

	boot_default(b, ram);
	pt_get_stats(&st);
	c = counts();
	tap_ok(clean(), "%s %uM: build, zero model violations", b->name, mib);
	tap_ok(lm(b->ram) == 0xc0000000UL && linear_map_end() == 0xc0000000UL + ram &&
	       pt_linear_pa(0xc0000000UL) == b->ram,
	       "%s %uM: RAM at 0x%llx is mapped at 0xC0000000..0x%lx", b->name, mib,
	       (unsigned long long)b->ram, linear_map_end());
	tap_ok(counts_are(&c, 1, 3, runs, 1024),
	       "%s %uM: %u x 16M runs, 3 x 4M leaves, 1024 pages in one table (the 4M holding the image)",
	       b->name, mib, runs);
	tap_ok(prot_at(lm(b->ram)) == PT_KERNEL_RO && prot_at(lm(b->ram + IMG_RO_END - PAGE_SIZE)) == PT_KERNEL_RO &&
	       prot_at(lm(b->ram + IMG_RO_END)) == PT_KERNEL_RW && prot_at(lm(b->ram + 4 * MiB)) == PT_KERNEL_RW &&
	       prot_at(lm(b->ram + ram - PAGE_SIZE)) == PT_KERNEL_RW,
	       "%s %uM: the image's text+rodata alias is read-only to the page, the rest RW NX", b->name, mib);
	s0 = slot_for(lm(b->ram + 0x1000));
	s1 = slot_for(lm(b->ram + 5 * MiB));
	s2 = slot_for(lm(b->ram + ram - 5 * MiB));
	tap_ok(s0.size == 4 * KiB && !(s0.lo & LO_WR) && s1.size == 4 * MiB && s1.tag == lm(b->ram + 4 * MiB) &&
	       (s1.lo & LO_WR) && s2.size == 16 * MiB && s2.tag == lm(b->ram + ram - 16 * MiB) &&
	       (s2.lo & ~(16 * MiB - 1)) == (u32)(b->ram + ram - 16 * MiB) && s0.tid == 0 && s1.tid == 0 &&
	       s2.tid == 0 && !(s2.lo & LO_EX) && LO_ZONE(s2.lo) == 0,
	       "%s %uM: the refill loads 4K, 4M and 16M slots (global, zone 0, NX)", b->name, mib);
	tap_ok(st.bbm == st.fixmap_remaps, "%s %uM: only fixmap slot remaps needed BBM (%llu)", b->name, mib,
	       (unsigned long long)st.bbm);
}

static void test_build_modes(void)
{
	struct pt_counts c;

	boot(&ml605, 128 * MiB, RODATA_ON, LINEAR_MAP_BLOCK);
	c = counts();
	tap_ok(counts_are(&c, 0, 0, 8, 0) && clean() && slot_for(PAGE_OFFSET).size == 16 * MiB,
	       "rodata=on: 8 x 16M runs, no table");
	boot(&ml605, 128 * MiB, RODATA_OFF, LINEAR_MAP_BLOCK);
	c = counts();
	tap_ok(counts_are(&c, 0, 0, 8, 0) && clean() && (slot_for(KIMAGE_VADDR).lo & LO_WR),
	       "rodata=off: 8 x 16M runs; the image is writable");
	boot(&s3a, 128 * MiB, RODATA_FULL, LINEAR_MAP_CONT);
	c = counts();
	tap_ok(counts_are(&c, 32, 0, 0, 32768) && clean(), "linear_map=cont: 32768 pages (no level-1 runs)");
	boot(&s3a, 128 * MiB, RODATA_FULL, LINEAR_MAP_PTE);
	c = counts();
	tap_ok(counts_are(&c, 32, 0, 0, 32768) && clean() && slot_for(lm(s3a.ram + 64 * MiB)).size == 4 * KiB,
	       "linear_map=pte: 32768 pages in 32 tables, 4K slots");
	tap_ok(prot_at(lm(s3a.ram)) == PT_KERNEL_RO && prot_at(lm(s3a.ram + IMG_RO_END)) == PT_KERNEL_RW,
	       "linear_map=pte keeps the read-only alias exact");
}

static void test_image(void)
{
	boot_default(&ml605, 128 * MiB);
	mbm_set_quiet(true);
	tap_ok(mbm_access(KIMAGE_VADDR, MBM_EXEC, NULL) && !mbm_access(KIMAGE_VADDR, MBM_WRITE, NULL) &&
	       mbm_access(KIMAGE_VADDR + IMG_TEXT_END, MBM_READ, NULL) &&
	       !mbm_access(KIMAGE_VADDR + IMG_TEXT_END, MBM_EXEC, NULL) &&
	       !mbm_access(KIMAGE_VADDR + IMG_TEXT_END, MBM_WRITE, NULL) &&
	       mbm_access(KIMAGE_VADDR + IMG_RO_END, MBM_WRITE, NULL) &&
	       !mbm_access(KIMAGE_VADDR + IMG_RO_END, MBM_EXEC, NULL) && mbm_violations(MBM_FAULT) == 4,
	       "image in 4K slots with W^X: text RX, rodata R, data RW NX");
	tap_ok(slot_for(KIMAGE_VADDR).size == 4 * KiB && mb_tlb_first == 0 &&
	       mbm_matches(KIMAGE_VADDR + 0x800000UL, 0, NULL) == 0,
	       "the pinned 16M boot slot is gone after mb_tlb_unpin_boot");
}

/*
 * Page-sized slots and blocks have victims of their own (entry.S step 4):
 * 96 image pages read one after another replace only page slots, so the
 * 16M linear-map slot loaded before them stays; a refill victim outside
 * its class is reported.
 */
static void test_victim_classes(void)
{
	int blk, again, outside = 0;
	unsigned long lin = lm(ram_base + 16 * MiB);

	boot_default(&ml605, 128 * MiB);
	slot_for(lin);
	mbm_matches(lin, 0, &blk);
	for (int k = 0; k < 96; k++) {
		int i;

		slot_for(KIMAGE_VADDR + (unsigned long)k * PAGE_SIZE);
		mbm_matches(KIMAGE_VADDR + (unsigned long)k * PAGE_SIZE, 0, &i);
		outside += i < TLB_PAGE_FIRST;
	}
	mbm_matches(lin, 0, &again);
	tap_ok(blk >= 0 && blk < TLB_PAGE_FIRST && again == blk && outside == 0 && mbm_total_violations() == 0,
	       "96 page refills use slots [%d, 64) only (%d below); the 16M slot %d stays (now %d)",
	       TLB_PAGE_FIRST, outside, blk, again);
	model_begin_bad();
	mb_tlb_next = TLB_PAGE_FIRST - 1;
	slot_for(KIMAGE_VADDR + 200 * PAGE_SIZE);
	tap_ok(mbm_violations(MBM_UNSAFE) == 1, "model: a page refill into a block slot -> unsafe (%s)",
	       mbm_last_violation());
	mbm_clear_violations();
	mb_tlb_next = TLB_PAGE_FIRST;
}

/* ==== 7. splitting ==== */

static bool bbm_was(unsigned i, unsigned long start, u64 size, unsigned long n)
{
	unsigned long s, l, k;

	mbm_bbm_get(i, &s, &l, &k);
	if (s != start || l != start + (size - 1) || k != n)
		printf("# bbm %u: [0x%lx, 0x%lx] n %lu\n", i, s, l, k);
	return s == start && l == start + (size - 1) && k == n;
}

static void test_split_run(const struct board *b)
{
	unsigned long run, leaf, target;
	struct pt_counts before, after;
	struct pt_stats s0, s1;
	unsigned nbbm;
	bool others;

	boot_default(b, 128 * MiB);
	run = lm(b->ram + 32 * MiB);
	leaf = run + 4 * MiB;
	target = leaf + 5 * PAGE_SIZE;
	touch_all();
	before = counts();
	pt_get_stats(&s0);
	nbbm = mbm_bbm_count();
	tap_ok(slot_for(target).size == 16 * MiB, "%s: the target page is inside a 16M slot", b->name);
	tap_ok(set_memory_ro(target, 1) == 0, "%s: set_memory_ro on one page of a 16M run", b->name);
	pt_get_stats(&s1);
	after = counts();
	tap_ok(counts_are(&after, before.tables + 1, before.leaves[0] + 3, before.cont_runs[0] - 1, 1024 + 1024),
	       "%s: the run unfolds into 4 leaves, only the target's 4M leaf becomes 1024 pages", b->name);
	tap_ok(mbm_bbm_count() == nbbm + 2 && s1.bbm == s0.bbm + 2 && bbm_was(nbbm, run, 16 * MiB, 4) &&
	       bbm_was(nbbm + 1, leaf, 4 * MiB, 1),
	       "%s: two breaks: the whole 16M run (4 entries) first, then the 4M leaf", b->name);
	tap_ok(prot_at(target) == PT_KERNEL_RO && prot_at(target - PAGE_SIZE) == PT_KERNEL_RW &&
	       prot_at(target + PAGE_SIZE) == PT_KERNEL_RW, "%s: exactly one page read-only", b->name);
	others = true;
	for (int i = 0; i < 4; i++) {
		struct pt_cursor c = l0_at(run + i * 4 * MiB);

		others &= i == 1 ? arch_pte_is_table(c.val, 0)
				 : arch_pte_is_leaf(c.val, 0) && !arch_pte_is_cont(c.val) &&
				   arch_pte_pa(c.val) == b->ram + (32 + 4 * i) * MiB;
	}
	tap_ok(others, "%s: the other three members are plain 4M leaves mapping the same memory", b->name);
	tap_ok(clean(), "%s: split: zero model violations", b->name);
	tap_ok(slot_for(run).size == 4 * MiB && slot_for(target).size == 4 * KiB &&
	       !(slot_for(target).lo & LO_WR) && (slot_for(target + PAGE_SIZE).lo & LO_WR) &&
	       slot_for(run + 16 * MiB).size == 16 * MiB,
	       "%s: the refill now loads 4M and 4K slots there, 16M next door", b->name);
	mbm_set_quiet(true);
	tap_ok(!mbm_access(target, MBM_WRITE, NULL) && mbm_violations(MBM_FAULT) == 1 &&
	       mbm_access(target + PAGE_SIZE, MBM_WRITE, NULL),
	       "%s: a kernel write to the page faults, its neighbour is writable", b->name);
	mbm_set_quiet(false);
	mbm_clear_violations();

	warm(target, 2);
	tap_ok(set_memory_rw(target, 1) == 0 && clean() && prot_at(target) == PT_KERNEL_RW,
	       "%s: set_memory_rw restores it, zero violations", b->name);
	pt_get_stats(&s0);
	warm(target, 40);
	tap_ok(linear_map_merge(target) == 1 && clean(), "%s: linear_map_merge folds the pages back into a 4M leaf",
	       b->name);
	pt_get_stats(&s1);
	after = counts();
	tap_ok(counts_are(&after, before.tables, before.leaves[0] + 4, before.cont_runs[0] - 1, 1024) &&
	       s1.kernel_tables == s0.kernel_tables - 1 && slot_for(target).size == 4 * MiB,
	       "%s: merge: table freed, 4M slot again (the run is not re-created)", b->name);
}

static void test_split_leaf_only(void)
{
	unsigned long target;
	struct pt_counts before, after;
	unsigned nbbm;

	boot_default(&ml605, 256 * MiB);
	target = lm(ml605.ram + 8 * MiB) + 17 * PAGE_SIZE;   /* a plain 4M leaf */
	touch_all();
	before = counts();
	nbbm = mbm_bbm_count();
	warm(target, 1);
	tap_ok(set_memory_ro(target, 1) == 0 && clean(), "4M leaf (no run): set_memory_ro, zero violations");
	after = counts();
	tap_ok(counts_are(&after, before.tables + 1, before.leaves[0] - 1, before.cont_runs[0], 2048) &&
	       mbm_bbm_count() == nbbm + 1 && bbm_was(nbbm, lm(ml605.ram + 8 * MiB), 4 * MiB, 1),
	       "4M leaf: one break, the runs untouched");
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
	unsigned long va;
	int n = 512;   /* 2 MiB */
	struct pt_counts c;

	boot_default(&ml605, 128 * MiB);
	va = lm(ml605.ram + 31 * MiB);   /* crosses a 16M run boundary */
	touch_all();
	warm(va, 1);
	warm(va + (n - 1) * PAGE_SIZE, 1);
	tap_ok(set_memory_ro(va, n) == 0 && clean(), "set_memory_ro over 2M across two 16M runs: clean");
	c = counts();
	tap_ok(counts_are(&c, 3, 3 + 6, 7 - 2, 1024 * 3) && range_prot_is(va, n, PT_WRITE, 0) &&
	       (prot_at(va - PAGE_SIZE) & PT_WRITE) && (prot_at(va + n * PAGE_SIZE) & PT_WRITE),
	       "set_memory_ro: both runs unfolded, two 4M leaves split, exactly the range read-only");
	warm(va + 16 * PAGE_SIZE, 3);
	mbm_set_quiet(true);
	tap_ok(set_memory_x(va + 16 * PAGE_SIZE, 3) == 0 && range_prot_is(va + 16 * PAGE_SIZE, 3, PT_EXEC, PT_EXEC) &&
	       !(prot_at(va + 19 * PAGE_SIZE) & PT_EXEC) && mbm_access(va + 17 * PAGE_SIZE, MBM_EXEC, NULL) &&
	       !mbm_access(va + 19 * PAGE_SIZE, MBM_EXEC, NULL) && mbm_violations(MBM_FAULT) == 1,
	       "set_memory_x on 3 pages: fetch allowed there only");
	mbm_set_quiet(false);
	mbm_clear_violations();
	warm(va + 16 * PAGE_SIZE, 3);
	tap_ok(set_memory_nx(va + 16 * PAGE_SIZE, 3) == 0 && clean() && range_prot_is(va, n, PT_EXEC, 0),
	       "set_memory_nx restores NX");
	warm(va, 40);
	tap_ok(set_memory_rw(va, n) == 0 && clean() && range_prot_is(va, n, PT_WRITE, PT_WRITE),
	       "set_memory_rw restores RW");
	tap_ok(set_memory_ro(lm(ml605.ram + 128 * MiB) - 16 * PAGE_SIZE, 16) == 0 && clean() &&
	       range_prot_is(lm(ml605.ram + 128 * MiB) - 16 * PAGE_SIZE, 16, PT_WRITE, 0),
	       "set_memory_ro up to the end of RAM");
	tap_ok(set_memory_ro(va + 1, 1) == -EINVAL && set_memory_ro(lm(ml605.ram + 128 * MiB), 1) == -EINVAL &&
	       set_memory_ro(va, -1) == -EINVAL && set_memory_ro(va, 0) == 0 &&
	       set_memory_ro(0x10000000UL, 1) == -EINVAL,
	       "set_memory_*: unaligned, out-of-range and negative requests give -EINVAL");
	env_alloc_fail(true);
	tap_ok(set_memory_ro(lm(ml605.ram + 64 * MiB) + PAGE_SIZE, 1) == -ENOMEM,
	       "set_memory_ro: -ENOMEM when the split cannot get a table");
	env_alloc_fail(false);
	tap_ok(clean() && (prot_at(lm(ml605.ram + 64 * MiB) + PAGE_SIZE) & PT_WRITE),
	       "after -ENOMEM the map is intact and consistent (the run stays unfolded)");
}

/*
 * The new level-1 table lies inside the 4M leaf it replaces: it is filled
 * and linked while that range is declared broken, so pt_page_va() must go
 * through the fixmap. Afterwards it maps itself.
 */
static void test_split_table_inside(void)
{
	phys_addr_t newt = ml605.ram + 56 * MiB + 0x9000;
	unsigned long target;
	struct pt_stats s0, s1;
	struct pt_cursor c;

	boot_default(&ml605, 128 * MiB);
	target = lm(ml605.ram + 56 * MiB) + 3 * PAGE_SIZE;
	touch_all();
	pt_get_stats(&s0);
	env_force_next_alloc(newt);
	warm(target, 1);
	tap_ok(set_memory_ro(target, 1) == 0 && clean(), "split whose new table lies in the leaf being split: clean");
	pt_get_stats(&s1);
	c = l0_at(target);
	tap_ok(arch_pte_is_table(c.val, 0) && arch_pte_pa(c.val) == newt && s1.fixmap_uses > s0.fixmap_uses,
	       "...the table is that page, reached through the fixmap while hidden");
	c = leaf_at(lm(newt));
	tap_ok(EXPECT_PANIC(pte_update(&kspace, c.ptep, c.val, arch_pte_oa_add(c.val, PAGE_SIZE), c.va, c.level)) &&
	       strstr(host_panic_msg, "would hide its own descriptor"),
	       "pte_update refuses a break that would hide its own descriptor (%s)", host_panic_msg);
	tap_ok(clean(), "...and nothing was changed");
}

/* ==== 8. ptdump ==== */

static void test_ptdump(void)
{
	static char buf[65536];
	char sum[256];
	struct pt_counts c;
	size_t n;
	static const char *const want[] = {
		"---[ Linear Mapping start ]---\n"
		"0x00000000c0000000-0x00000000c0090000         576K PTE       ro NX            MEM/CACHED\n"
		"0x00000000c0090000-0x00000000c0400000        3520K PTE       RW NX            MEM/CACHED\n"
		"0x00000000c0400000-0x00000000c1000000          12M PGD       RW NX        BLK MEM/CACHED\n"
		"0x00000000c1000000-0x00000000c8000000         112M PGD       RW NX    CON BLK MEM/CACHED\n"
		"0x00000000c8000000-0x00000000e0000000         384M PGD\n"
		"---[ Linear Mapping end ]---\n"
		"---[ Kernel Image start ]---\n"
		"0x00000000e0000000-0x00000000e0060000         384K PTE       ro x             MEM/CACHED\n"
		"0x00000000e0060000-0x00000000e0090000         192K PTE       ro NX            MEM/CACHED\n"
		"0x00000000e0090000-0x00000000e0100000         448K PTE       RW NX            MEM/CACHED\n",
		"---[ Fixmap start ]---\n",
		"0x00000000f0002000-0x00000000f0003000           4K PTE       RW NX            DEVICE/IG\n",
		"---[ ioremap start ]---\n",
	};
	bool all = true;

	boot_default(&ml605, 128 * MiB);
	n = ptdump_kernel_buf(&kspace, buf, sizeof(buf));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		if (!strstr(buf, want[i])) {
			printf("# missing: %s", want[i]);
			all = false;
		}
	tap_ok(n < sizeof(buf) && all, "ptdump of ml605 128M rodata=full has the expected lines");
	if (!all || getenv("PTDUMP"))
		fputs(buf, stdout);
	pt_count_linear(&kspace, &c);
	ptdump_summary(&c, sum, sizeof(sum));
	tap_ok(!strcmp(sum, "ptdump: linear map: 1 page-table pages; 4M blocks: 3, 16M cont runs: 7, 4K pages: 1024") &&
	       strstr(buf, sum), "ptdump summary: %s", sum);
	tap_ok(clean(), "ptdump: zero model violations");
	boot_default(&s3a, 256 * MiB);
	pt_count_linear(&kspace, &c);
	ptdump_summary(&c, sum, sizeof(sum));
	tap_ok(!strcmp(sum, "ptdump: linear map: 1 page-table pages; 4M blocks: 3, 16M cont runs: 15, 4K pages: 1024"),
	       "ptdump summary s3adsp1800 256M: %s", sum);
}

/* ==== 9. user space ==== */

static void test_user(void)
{
	struct pt_space us = { .asid = 7 }, other = { .asid = 8 };
	struct mbm_slot s;
	struct pt_cursor c;
	struct pt_stats st;
	long pages;
	phys_addr_t upa = ml605.ram + 40 * MiB;

	boot_default(&ml605, 128 * MiB);
	touch_all();
	pages = env_pages_in_use();
	tap_ok(__pgd_alloc(&us, 0) && __pgd_alloc(&other, 0), "user: two roots");
	mbm_switch_user(us.root, 7);
	tap_ok(pt_map_range(&us, 0x10000000UL, upa, 64 * KiB, PT_READ | PT_WRITE | PT_USER,
			    PT_LEAF_ANY | PT_ALLOW_CONT) &&
	       pt_map_range(&us, 0x20000000UL, ml605.ram + 44 * MiB, 4 * MiB, PT_READ | PT_USER | PT_EXEC,
			    PT_LEAF_ANY),
	       "user: map 16 pages and one 4M leaf (huge page)");
	tap_ok(mbm_access(0x10003000UL, MBM_USER | MBM_WRITE, &s) && s.size == 4 * KiB && s.tid == 7 &&
	       LO_ZONE(s.lo) == 1 && (s.lo & ~0xfffu) == (u32)(upa + 0x3000),
	       "user: a user write loads a 4K slot tagged TID 7 in zone 1");
	tap_ok(mbm_access(0x20123000UL, MBM_USER | MBM_EXEC, &s) && s.size == 4 * MiB && s.tid == 7 &&
	       s.tag == 0x20000000u, "user: the 4M leaf loads one 4M slot tagged TID 7");
	mbm_set_quiet(true);
	tap_ok(!mbm_access(0x20123000UL, MBM_USER | MBM_WRITE, NULL) && !mbm_access(PAGE_OFFSET, MBM_USER, NULL) &&
	       mbm_violations(MBM_FAULT) == 2 && mbm_access(0x10003000UL, MBM_READ, NULL),
	       "user: write to a read-only huge page and access to the kernel fault; the kernel may read user pages");
	mbm_clear_violations();
	mbm_switch_user(other.root, 8);
	tap_ok(!mbm_access(0x10003000UL, MBM_USER, NULL) && mbm_violations(MBM_FAULT) == 1 &&
	       mbm_matches(0x10003000UL, 8, NULL) == 0 && mbm_matches(0x10003000UL, 7, NULL) == 1,
	       "user: PID 8 does not hit PID 7's slots (nothing mapped for it there)");
	mbm_set_quiet(false);
	mbm_clear_violations();
	mbm_switch_user(us.root, 7);

	/* PROT_NONE: a software entry replaces the page, and the refill never loads it */
	pt_walk(&us, 0x10003000UL, 1, false, &c);
	pte_update(&us, c.ptep, c.val, arch_pte_mk_swp(ARCH_SWP_PROTNONE, upa + 0x3000), c.va, 1);
	mbm_check_idle();
	tap_ok(mbm_total_violations() == 0 && mbm_matches(0x10003000UL, 7, NULL) == 0,
	       "user: valid -> software entry removes the slot, zero violations");
	mbm_set_quiet(true);
	tap_ok(!mbm_access(0x10003000UL, MBM_USER, NULL) && !mbm_access(0x10003000UL, MBM_READ, NULL) &&
	       mbm_walk(0x10003000UL, false, NULL) == MBW_L1_INVALID && mbm_violations(MBM_FAULT) == 2,
	       "user: a PROT_NONE entry faults for user and kernel accesses");
	mbm_set_quiet(false);
	mbm_clear_violations();
	c.val = arch_pte_read(c.ptep);
	tap_ok(arch_pte_swp_kind(c.val) == ARCH_SWP_PROTNONE && arch_pte_swp_pa(c.val) == upa + 0x3000,
	       "user: the software entry remembers its page");
	pte_update(&us, c.ptep, c.val, arch_pte_mk_leaf(upa + 0x3000, PT_READ | PT_USER, 1), c.va, 1);
	tap_ok(mbm_access(0x10003000UL, MBM_USER, NULL) && mbm_total_violations() == 0,
	       "user: made accessible again");

	/* a guard marker at level 0 is invalid to the refill too */
	pt_walk(&us, 0x30000000UL, 0, false, &c);
	pte_update(&us, c.ptep, c.val, arch_pte_mk_swp(ARCH_SWP_GUARD, 0), c.va, 0);
	mbm_set_quiet(true);
	tap_ok(!mbm_access(0x30000000UL, MBM_USER, NULL) && mbm_walk(0x30000000UL, true, NULL) == MBW_L0_INVALID,
	       "user: a software entry at level 0 faults too");
	mbm_set_quiet(false);
	mbm_clear_violations();
	pte_update(&us, c.ptep, arch_pte_read(c.ptep), ARCH_PTE_INVALID, c.va, 0);

	/*
	 * A huge-page collapse and split by BBM: table -> 4M leaf removes every
	 * slot (the old table's pages may be loaded anywhere), including the
	 * kernel's slot for the root page being written; leaf -> table.
	 */
	pt_map_range(&us, 0x28000000UL, ml605.ram + 48 * MiB, 4 * MiB, PT_READ | PT_WRITE | PT_USER,
		     PT_LEAF(PT_LAST_LEVEL));
	touch_range(0x28000000UL, 0x28010000UL);
	for (unsigned long va = 0x28000000UL; va < 0x28010000UL; va += PAGE_SIZE)
		mbm_access(va, MBM_USER | MBM_WRITE, NULL);
	pt_walk(&us, 0x28000000UL, 0, false, &c);
	{
		phys_addr_t t = arch_pte_pa(c.val);

		pte_update(&us, c.ptep, c.val, arch_pte_mk_leaf(ml605.ram + 48 * MiB, PT_READ | PT_WRITE | PT_USER, 0),
			   c.va, 0);
		pxd_free(&us, t, 1);
	}
	mbm_check_idle();
	tap_ok(mbm_total_violations() == 0 && bbm_was(mbm_bbm_count() - 1, 0, (u64)~0UL + 1, 1) &&
	       mbm_access(0x28005000UL, MBM_USER | MBM_WRITE, &s) && s.size == 4 * MiB && s.tid == 7,
	       "user: collapse of 1024 loaded pages into a 4M leaf by BBM (every slot removed): clean");
	pt_walk(&us, 0x28000000UL, 0, false, &c);
	{
		phys_addr_t t = pxd_alloc(&us, 1);
		pteval_t *p = pt_page_va(t, 1);

		for (unsigned long i = 0; i < 1024; i++)
			pt_write_new(&p[i], arch_pte_mk_leaf(ml605.ram + 48 * MiB + i * PAGE_SIZE,
							     PT_READ | PT_WRITE | PT_USER, 1));
		pte_update(&us, c.ptep, c.val, arch_pte_mk_table(t, true), c.va, 0);
	}
	mbm_check_idle();
	tap_ok(mbm_total_violations() == 0 && mbm_access(0x28005000UL, MBM_USER | MBM_WRITE, &s) &&
	       s.size == 4 * KiB && s.tid == 7, "user: split of a live 4M leaf into pages by BBM: clean");
	pt_unmap_range(&us, 0x28000000UL, 4 * MiB);
	pt_unmap_range(&us, 0x10000000UL, 64 * KiB);
	pt_unmap_range(&us, 0x20000000UL, 4 * MiB);
	mbm_check_idle();
	tap_ok(mbm_total_violations() == 0 && mbm_matches(0x20000000UL, 7, NULL) == 0,
	       "user: unmap of pages and the huge page: slots removed, zero violations");
	pt_map_range(&us, 0x10000000UL, upa, 16 * KiB, PT_READ | PT_WRITE | PT_USER, PT_LEAF_ANY);
	touch_range(0x10000000UL, 0x10004000UL);
	pt_destroy(&us);
	mbm_forget_user(7);
	mbm_switch_user(0, 0);
	mbm_check_idle();
	pt_get_stats(&st);
	tap_ok(mbm_total_violations() == 0 && mbm_matches(0x10000000UL, 7, NULL) == 0,
	       "user: pt_destroy removes every slot of TID 7 (zero violations)");
	__pgd_free(&other);
	pt_get_stats(&st);
	tap_ok(st.user_tables == 0 && env_pages_in_use() == pages, "user: table pages all given back");
	tap_ok(clean(), "user: the kernel side is clean afterwards");
}

/* ==== 10. the fake header still mirrors the real one ==== */

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	static char bufs[2][16384];
	static int which;
	char *b = bufs[which++ & 1];
	size_t n;

	if (!f)
		return NULL;
	n = fread(b, 1, sizeof(bufs[0]) - 1, f);
	b[n] = '\0';
	fclose(f);
	return b;
}

/* The body of "static inline void name(" up to the closing "\n}\n", whitespace squeezed. */
static bool fn_text(const char *src, const char *name, char *out, size_t size)
{
	char head[96];
	const char *p, *e;
	size_t n = 0;

	snprintf(head, sizeof(head), "static inline void %s(", name);
	p = src ? strstr(src, head) : NULL;
	e = p ? strstr(p, "\n}\n") : NULL;
	if (!e)
		return false;
	for (; p < e && n + 1 < size; p++)
		if (!(*p == ' ' || *p == '\t' || *p == '\n'))
			out[n++] = *p;
	out[n] = '\0';
	return true;
}

static void test_mirror(void)
{
	static const char *const fns[] = { "arch_tlbi_va", "arch_tlbi_space", "arch_bbm_run" };
	char *real = read_text("arch/microblaze/include/asm/tlb.h");
	char *fake = read_text("tests/host/fake_mb/asm/tlb.h");
	bool same = true;

	if (!real || !fake) {
		tap_ok(true, "# SKIP not run from the repository root");
		return;
	}
	for (unsigned i = 0; i < ARRAY_SIZE(fns); i++) {
		char a[2048], b[2048];

		if (!fn_text(real, fns[i], a, sizeof(a)) || !fn_text(fake, fns[i], b, sizeof(b)) || strcmp(a, b)) {
			printf("# %s differs between the real and the fake asm/tlb.h\n", fns[i]);
			same = false;
		}
	}
	tap_ok(same && strstr(real, "#define ARCH_TLBI_LEAF       0") && strstr(real, "#define ARCH_TLBI_ALL_LEVELS 1") &&
	       strstr(real, "#define ARCH_TLBI_SPACE      2"),
	       "the fake asm/tlb.h mirrors the real arch_tlbi_va, arch_tlbi_space, arch_bbm_run and ARCH_TLBI_*");
}

/*
 * The model removes slots as tlb_asm.S must (mb_tlb_model.c remove_slot):
 * in tlb_asm.S, which runs in virtual mode where a refill can come between
 * two writes, a removal is "mts rtlbhi, r0" and no TLBLO write at all; in
 * head.S (real mode at boot, no refill) "mts rtlblo, r0" comes right after
 * "mts rtlbhi, r0".
 */
static void test_removal_order_in_asm(void)
{
	const char *tlb = read_text("arch/microblaze/kernel/tlb_asm.S");
	const char *head = read_text("arch/microblaze/kernel/head.S"), *p;
	int removals = 0, lo_writes = 0, head_seqs = 0;
	bool ok = true;

	if (!tlb || !head) {
		tap_ok(true, "# SKIP not run from the repository root");
		return;
	}
	for (p = strstr(tlb, "mts\trtlbhi, r0"); p; p = strstr(p + 1, "mts\trtlbhi, r0"))
		removals++;
	for (p = strstr(tlb, "mts\trtlblo"); p; p = strstr(p + 1, "mts\trtlblo"))
		lo_writes++;
	for (p = strstr(head, "mts\trtlblo, r0"); p; p = strstr(p + 1, "mts\trtlblo, r0")) {
		const char *prev = p - 1;

		while (prev > head && prev[-1] != '\n')
			prev--;				/* start of this line */
		do
			prev--;
		while (prev > head && prev[-1] != '\n');	/* start of the line before */
		head_seqs++;
		if (!strstr(prev, "mts\trtlbhi, r0") || strstr(prev, "mts\trtlbhi, r0") > p) {
			printf("# head.S: TLBLO cleared before TLBHI\n");
			ok = false;
		}
	}
	tap_ok(removals == 2 && lo_writes == 0, "tlb_asm.S: %d slot removals end with TLBHI = 0, %d TLBLO writes",
	       removals, lo_writes);
	tap_ok(ok && head_seqs == 1, "head.S clears TLBHI before TLBLO (%d sequence)", head_seqs);
}


/* ---- 16K and 64K pages (PAGE_SIZE=16K|64K): the layout-specific tests ---- */

/* The split of asm/mmu.h's table, checked against the numbers it states. */
static void test_geometry_layout(void)
{
	const bool p16 = PAGE_SHIFT == 14;

	tap_ok(PT_LEVELS == 2 && sizeof(pteval_t) == 4 && arch_pt_shift(0) == (p16 ? 26u : 30u) &&
	       arch_pt_shift(1) == PAGE_SHIFT && arch_pt_entries(0) == (p16 ? 64u : 4u) &&
	       arch_pt_entries(1) == PAGE_SIZE / 4,
	       "geometry %luK: 32-bit descriptors, root of %lu entries, last level of %lu (one page)",
	       (unsigned long)(PAGE_SIZE >> 10), arch_pt_entries(0), arch_pt_entries(1));
	tap_ok(arch_pt_cont_entries(0) == 1 && arch_pt_cont_entries(1) == 16 * MiB / PAGE_SIZE &&
	       pt_run_size(1) == 16 * MiB && arch_pt_leaf_ok(1) && arch_pt_leaf_ok(0) == p16 &&
	       PT_LARGEST_LEAF_LEVEL == (p16 ? 0 : 1) && (!p16 || pt_level_size(0) == 64 * MiB),
	       "geometry %luK: %s, 16M runs of %u pages, no level-0 runs", (unsigned long)(PAGE_SIZE >> 10),
	       p16 ? "64M level-0 blocks" : "no level-0 blocks (1G)", arch_pt_cont_entries(1));
}

/*
 * Boot with rodata=full: the first 16 MiB of RAM (holding the read-only
 * alias of text+rodata) in pages, the rest of its level-0 block in 16M
 * runs (16K), or all the rest in 16M runs (64K); whole 64M blocks after it
 * (16K). Every read loads the slot the layout says, with no model
 * violation; a page of a run goes read-only and back cleanly.
 */
static void test_build_layout(const struct board *b, u64 ram)
{
	const u64 l0 = pt_level_size(0);
	unsigned mib = (unsigned)(ram / MiB);
	u64 blocks = PT_L0_LEAVES ? ram / l0 - 1 : 0;
	u64 runs = PT_L0_LEAVES ? l0 / (16 * MiB) - 1 : ram / (16 * MiB) - 1;
	struct mbm_slot s0, s1, s2;
	struct pt_counts c;
	unsigned long target;

	boot_default(b, ram);
	c = counts();
	tap_ok(clean(), "%s %uM: build, zero model violations", b->name, mib);
	tap_ok(c.tables == 1 && c.leaves[0] == blocks && c.cont_runs[0] == 0 &&
	       c.leaves[1] == 16 * MiB / PAGE_SIZE && c.cont_runs[1] == runs,
	       "%s %uM: %llu blocks, %llu 16M runs, %llu pages, one table (got %llu, %llu, %llu, %llu)", b->name, mib,
	       (unsigned long long)blocks, (unsigned long long)runs, (unsigned long long)(16 * MiB / PAGE_SIZE),
	       (unsigned long long)c.leaves[0], (unsigned long long)c.cont_runs[1],
	       (unsigned long long)c.leaves[1], (unsigned long long)c.tables);
	s0 = slot_for(lm(b->ram + PAGE_SIZE));
	s1 = slot_for(lm(b->ram + 21 * MiB));
	s2 = slot_for(lm(b->ram + ram - 5 * MiB));
	tap_ok(s0.size == PAGE_SIZE && !(s0.lo & LO_WR) && s1.size == 16 * MiB && s1.tag == lm(b->ram + 16 * MiB) &&
	       (s1.lo & LO_WR) && s2.size == 16 * MiB && s2.tag == lm(b->ram + ram - 16 * MiB) &&
	       (s2.lo & ~(16 * MiB - 1)) == (u32)(b->ram + ram - 16 * MiB) && s0.tid == 0 && s2.tid == 0 &&
	       !(s2.lo & LO_EX) && LO_ZONE(s2.lo) == 0,
	       "%s %uM: the refill loads page, run and %s slots (16M, global, zone 0, NX)", b->name, mib,
	       PT_L0_LEAVES ? "64M-block" : "run");
	target = lm(b->ram + 21 * MiB);
	touch_all();
	tap_ok(set_memory_ro(target, 1) == 0 && clean() && prot_at(target) == PT_KERNEL_RO &&
	       prot_at(target - PAGE_SIZE) == PT_KERNEL_RW && prot_at(target + PAGE_SIZE) == PT_KERNEL_RW &&
	       slot_for(target).size == PAGE_SIZE && !(slot_for(target).lo & LO_WR),
	       "%s %uM: set_memory_ro on one page of a 16M run: that page alone, clean", b->name, mib);
	warm(target, 2);
	tap_ok(set_memory_rw(target, 1) == 0 && clean() && prot_at(target) == PT_KERNEL_RW,
	       "%s %uM: set_memory_rw restores it, zero violations", b->name, mib);
	if (PT_L0_LEAVES) {
		target = lm(b->ram + l0 + 5 * PAGE_SIZE);
		touch_all();
		tap_ok(set_memory_ro(target, 1) == 0 && clean() && prot_at(target) == PT_KERNEL_RO &&
		       prot_at(target + PAGE_SIZE) == PT_KERNEL_RW && slot_for(target + 32 * MiB).size == 16 * MiB,
		       "%s %uM: set_memory_ro on one page of a 64M block: clean, the rest still in 16M slots",
		       b->name, mib);
	}
}

/* The model notices a 16M slot loaded from a run of pages with one member changed. */
static void test_model_misprogrammed_page_run(void)
{
	unsigned long va;
	struct pt_cursor c;

	model_begin_bad();
	va = lm(ram_base + 32 * MiB);
	pt_walk(&kspace, va + 3 * PAGE_SIZE, PT_LAST_LEVEL, false, &c);
	tap_ok(c.level == 1 && arch_pte_is_cont(c.val), "model: 0x%lx is in a run of pages (level %d, desc 0x%llx)",
	       va, c.level, (unsigned long long)c.val);
	arch_pte_write(c.ptep, c.val & ~(pteval_t)PTE_CONT);   /* one member of the run alone */
	mb_tlb_flush_range(va, 16 * MiB, PT_ASID_KERNEL);
	mbm_clear_violations();
	mbm_access(va, MBM_READ, NULL);
	tap_ok(mbm_violations(MBM_UNSAFE) == 1 && strstr(mbm_last_violation(), "misprogrammed"),
	       "model: a 16M slot loaded from a run of pages with one member changed -> unsafe (%s)",
	       mbm_last_violation());
	mbm_set_quiet(false);
	mbm_clear_violations();
}

int main(void)
{
	if (PAGE_SHIFT != 12) {
		/* 16K, 64K pages: what does not assume 4K pages, and the layout's own tests */
		test_geometry_layout();
		test_swp_encoding();
		test_bbm_predicate_vs_model();
		test_model_shadow();
		test_model_torn_removal();
		test_model_user_to_kernel();
		test_model_misprogrammed_page_run();
		test_build_layout(&ml605, 128 * MiB);
		test_build_layout(&ml605, 256 * MiB);
		test_build_layout(&s3a, 128 * MiB);
		test_build_layout(&s3a, 256 * MiB);
		test_mirror();
		test_removal_order_in_asm();
		mbm_reset();
		return tap_done();
	}

	test_geometry();
	test_encoding_roundtrip();
	test_refill_view();
	test_swp_encoding();
	test_bbm_predicate();
	test_bbm_predicate_vs_model();

	test_model_table_over_leaf();
	test_model_permission_without_removal();
	test_model_unmap_without_removal();
	test_model_make_before_removal();
	test_model_hidden_access();
	test_model_overlap_on_merge();
	test_model_overlap_on_fold();
	test_model_misprogrammed_run();
	test_model_shadow();
	test_model_torn_removal();
	test_model_user_to_kernel();

	test_checker();

	test_build(&ml605, 128 * MiB);
	test_build(&ml605, 256 * MiB);
	test_build(&s3a, 128 * MiB);
	test_build(&s3a, 256 * MiB);
	test_build_modes();
	test_image();
	test_victim_classes();

	test_split_run(&ml605);
	test_split_run(&s3a);
	test_split_leaf_only();
	test_set_memory_ranges();
	test_split_table_inside();

	test_ptdump();
	test_user();
	test_mirror();
	test_removal_order_in_asm();

	mbm_reset();
	return tap_done();
}
