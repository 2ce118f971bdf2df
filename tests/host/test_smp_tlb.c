/*
 * test_smp_tlb.c - host tests of the linear map with several CPUs, on the
 * fake arch and the TLB model with one TLB per CPU (tlb_model.h):
 *
 *   - BBML2: set_memory_ro splits a block live (no break, no rendezvous)
 *     while another CPU holds the block in its TLB, and the model - which
 *     knows the BBML2 rule on its own - sees nothing wrong;
 *   - without BBML2 the same split breaks the block, with the other CPUs
 *     held around each break;
 *   - the repaint of the whole linear map to pages (bbml2 mode 3);
 * and the negative tests that prove the model catches what SMP gets wrong:
 *   - a split made live (the kernel believes in BBML2) on CPUs that lack it;
 *   - local-only TLBIs while another CPU caches the changed entry;
 *   - a CPU left running (not held) during the repaint.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgtable.h"
#include "fixmap.h"
#include "linear_map.h"
#include "ptdump.h"
#include "tlb_model.h"
#include "pt_test_env.h"
#include "host_env.h"

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

/* The fake kernel image, as in test_pgtable.c. */
#define RAM_BASE       0x40000000ULL
#define IMG_PA         0x40200000ULL
#define IMG_SIZE       (1 * MiB)
#define IMG_TEXT_END   0x40260000ULL
#define IMG_RO_END     0x40290000ULL
#define IMG_STATIC_OFF 0xc0000ULL
#define IMG_ROOT_OFF   0xf0000ULL

static struct pt_space kspace;
static struct env_bank bank;

static unsigned long lm(phys_addr_t pa)
{
	return pt_linear_va(pa);
}

/* Access every translation of [start, end) once, as CPU cpu. */
static void touch_range(int cpu, unsigned long start, unsigned long end)
{
	tlb_model_set_cpu(cpu);
	for (unsigned long va = start; va < end;) {
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
	tlb_model_set_cpu(0);
}

/* Every CPU touches the whole linear map and the image; then the model
 * says whether every change had its TLBI. */
static void touch_all(int ncpus)
{
	for (int cpu = 0; cpu < ncpus; cpu++) {
		touch_range(cpu, lm(bank.base), lm(bank.base + bank.size));
		touch_range(cpu, KIMAGE_VADDR, KIMAGE_VADDR + IMG_SIZE);
	}
	tlb_model_check_idle();
}

static bool clean(int ncpus)
{
	touch_all(ncpus);
	touch_all(ncpus);
	return tlb_model_total_violations() == 0;
}

/* "Boot" on one CPU with size bytes of RAM, then let ncpus CPUs run. */
static void boot(u64 size, int mode, int ncpus, bool bbml2)
{
	struct linear_map_config cfg = { RODATA_FULL, mode, IMG_PA, IMG_RO_END };

	tlb_model_reset();
	tlb_model_set_quiet(true);
	bank = (struct env_bank){ RAM_BASE, size };
	env_reset(&bank, 1, RAM_BASE + 64 * MiB);
	pt_init(IMG_PA, KIMAGE_VADDR, IMG_SIZE);
	tlb_model_set_image(IMG_PA, KIMAGE_VADDR, IMG_SIZE, IMG_STATIC_OFF);
	pt_space_init(&kspace, IMG_PA + IMG_ROOT_OFF, 0, PT_ASID_KERNEL);
	pt_map_range(&kspace, KIMAGE_VADDR, IMG_PA, IMG_SIZE, PT_KERNEL_RW, PT_LEAF_ANY);
	fixmap_init(&kspace);
	tlb_model_mmu_on(kspace.root);
	pt_mmu_enabled();
	linear_map_build(&kspace, &cfg);
	pt_use_page_allocator();
	pt_bbml2 = bbml2;
	tlb_model_set_bbml2(bbml2);
	tlb_model_set_cpus(ncpus);
	touch_all(ncpus);
}

static u64 bbm_count(void)
{
	u64 bbm, inplace;

	pte_update_counts(&bbm, &inplace);
	return bbm;
}

static int leaf_level(unsigned long va)
{
	struct pt_cursor c;

	pt_walk(&kspace, va, PT_LAST_LEVEL, false, &c);
	return c.level;
}

/* The model itself: one TLB per CPU, broadcast and local TLBIs. */
static void test_model_per_cpu_tlbs(void)
{
	unsigned long va = lm(RAM_BASE + 1 * GiB);
	unsigned long n0, n1, n_local, n_bcast;

	boot(4 * GiB, LINEAR_MAP_BLOCK, 2, false);
	arch_tlbi_va(ARCH_TLBI_LEAF, va, PT_ASID_KERNEL);	/* nobody caches va now */
	arch_dsb_ish();
	n0 = tlb_model_tlb_entries();
	tlb_model_set_cpu(1);
	tlb_model_access(va + 8 * MiB, NULL);
	tlb_model_set_cpu(0);
	n1 = tlb_model_tlb_entries();
	tap_ok(n1 == n0 + 1, "model: CPU 1's access caches one entry in its TLB (%lu -> %lu)", n0, n1);
	/* A local TLBI by CPU 0 leaves CPU 1's entry; a broadcast one removes it. */
	tlb_model_set_tlbi_local(true);
	arch_tlbi_va(ARCH_TLBI_LEAF, va, PT_ASID_KERNEL);
	arch_dsb_ish();
	tlb_model_set_tlbi_local(false);
	n_local = tlb_model_tlb_entries();
	arch_tlbi_va(ARCH_TLBI_LEAF, va, PT_ASID_KERNEL);
	arch_dsb_ish();
	n_bcast = tlb_model_tlb_entries();
	tap_ok(n_local == n1 && n_bcast == n0,
	       "model: CPU 0's local TLBI leaves CPU 1's entry (%lu), the broadcast one removes it (%lu)",
	       n_local, n_bcast);
	tap_ok(tlb_model_total_violations() == 0, "model: no violation (%s)", tlb_model_last_violation());
}

/* A walk on CPU 1 while CPU 0 is in the middle of a break: both the unheld
 * break and CPU 1's access to the invalid range are reported. */
static void test_walk_mid_sequence(void)
{
	unsigned long va = lm(RAM_BASE + 1 * GiB);
	struct pt_cursor c;

	boot(4 * GiB, LINEAR_MAP_BLOCK, 2, false);
	pt_walk(&kspace, va, PT_LAST_LEVEL, false, &c);
	arch_pte_write(c.ptep, 0);			/* break, CPU 1 not held */
	arch_dsb_ishst();
	unsigned hidden = tlb_model_violations(TLBM_HIDDEN);
	tlb_model_set_cpu(1);
	tlb_model_access(va + 5 * MiB, NULL);		/* CPU 1 walks into the range */
	tlb_model_set_cpu(0);
	tap_ok(hidden == 1 && tlb_model_violations(TLBM_HIDDEN) == 2,
	       "model: an unheld break and CPU 1's walk into it mid-sequence are both caught (%s)",
	       tlb_model_last_violation());
}

/* Mode 1: the split is live, with CPU 1 holding the 1G block in its TLB. */
static void test_bbml2_live_split(void)
{
	unsigned long va = lm(RAM_BASE + 1 * GiB) + 3 * PAGE_SIZE;
	u64 bbm0;
	unsigned long holds0;

	boot(4 * GiB, LINEAR_MAP_BLOCK, 2, true);
	bbm0 = bbm_count();
	holds0 = tlb_model_holds();
	tap_ok(leaf_level(va) == 1, "BBML2: the page lies in a 1G block (level %d)", leaf_level(va));
	int rc = set_memory_ro(va, 1);

	tap_ok(rc == 0 && leaf_level(va) == PT_LAST_LEVEL,
	       "BBML2: set_memory_ro inside it leaves a page (level %d)", leaf_level(va));
	tap_ok(bbm_count() == bbm0 && tlb_model_holds() == holds0,
	       "BBML2: no break, no rendezvous (%llu breaks, %lu holds)",
	       (unsigned long long)(bbm_count() - bbm0), tlb_model_holds() - holds0);
	tap_ok(clean(2), "BBML2: both CPUs see the split tables with zero violations (%s)",
	       tlb_model_last_violation());
}

/* Negative: the kernel splits live (pt_bbml2) on CPUs without BBML2. */
static void test_split_without_bbm_under_none(void)
{
	unsigned long va = lm(RAM_BASE + 1 * GiB) + 3 * PAGE_SIZE;

	boot(4 * GiB, LINEAR_MAP_BLOCK, 2, true);
	tlb_model_set_bbml2(false);		/* the CPUs lack it; the kernel thinks not */
	set_memory_ro(va, 1);
	tap_ok(tlb_model_violations(TLBM_CONFLICT) > 0,
	       "model: a live split without BBML2 is caught (%s)", tlb_model_last_violation());
}

/* Without BBML2 the same split breaks the blocks, the other CPU held. */
static void test_split_with_bbm_held(void)
{
	unsigned long va = lm(RAM_BASE + 1 * GiB) + 3 * PAGE_SIZE;
	u64 bbm0;
	unsigned long holds0;

	boot(4 * GiB, LINEAR_MAP_BLOCK, 2, false);
	bbm0 = bbm_count();
	holds0 = tlb_model_holds();
	tap_ok(set_memory_ro(va, 1) == 0 && leaf_level(va) == PT_LAST_LEVEL,
	       "no BBML2: set_memory_ro inside a 1G block");
	tap_ok(bbm_count() > bbm0 && tlb_model_holds() - holds0 == bbm_count() - bbm0,
	       "no BBML2: %llu breaks, each with the other CPU held (%lu holds)",
	       (unsigned long long)(bbm_count() - bbm0), tlb_model_holds() - holds0);
	tap_ok(clean(2), "no BBML2: zero violations (%s)", tlb_model_last_violation());
}

/* Negative: local-only TLBIs while CPU 1 caches the changed page. */
static void test_local_only_tlbi(void)
{
	unsigned long va = lm(RAM_BASE + 32 * MiB);

	boot(128 * MiB, LINEAR_MAP_PTE, 2, false);
	tlb_model_set_tlbi_local(true);
	set_memory_ro(va, 1);
	tlb_model_set_tlbi_local(false);
	touch_all(2);
	tap_ok(tlb_model_violations(TLBM_STALE) > 0 && tlb_model_violations(TLBM_TLBI) > 0,
	       "model: a local-only TLBI with CPU 1 caching the page is caught (%u stale, %u TLBI: %s)",
	       tlb_model_violations(TLBM_STALE), tlb_model_violations(TLBM_TLBI),
	       tlb_model_last_violation());
	boot(128 * MiB, LINEAR_MAP_PTE, 2, false);
	tap_ok(set_memory_ro(va, 1) == 0 && clean(2), "the same with broadcast TLBIs: zero violations (%s)",
	       tlb_model_last_violation());
}

/* Mode 3: repaint 512M to pages, the other CPUs held; then with one left running. */
static void test_repaint(void)
{
	struct pt_counts c;
	u64 splits = 0, unfolds = 0;
	int rc;

	boot(512 * MiB, LINEAR_MAP_BLOCK, 4, true);
	pt_bbml2 = false;			/* a CPU without BBML2 came up */
	tlb_model_set_bbml2(false);
	arch_pt_hold_others();
	rc = linear_map_repaint_pages(&splits, &unfolds);
	arch_pt_release_others();
	pt_count_linear(&kspace, &c);
	u64 big = 0;
	for (int l = 0; l < PT_LAST_LEVEL; l++)
		big += c.leaves[l] + c.cont_runs[l];
	big += c.cont_runs[PT_LAST_LEVEL];
	tap_ok(rc == 0 && big == 0 && c.leaves[PT_LAST_LEVEL] == 512 * MiB / PAGE_SIZE,
	       "repaint: %llu pages, no block or run (%llu split, %llu unfolded)",
	       (unsigned long long)c.leaves[PT_LAST_LEVEL], (unsigned long long)splits,
	       (unsigned long long)unfolds);
	tap_ok(clean(4), "repaint with the others held: zero violations on 4 CPUs (%s)",
	       tlb_model_last_violation());

	boot(512 * MiB, LINEAR_MAP_BLOCK, 4, true);
	pt_bbml2 = false;
	tlb_model_set_bbml2(false);
	tlb_model_set_hold_broken(true);	/* the rendezvous holds nobody */
	splits = unfolds = 0;
	linear_map_repaint_pages(&splits, &unfolds);
	tlb_model_set_hold_broken(false);
	tap_ok(tlb_model_violations(TLBM_HIDDEN) > 0,
	       "model: a CPU left running during the repaint is caught (%u: %s)",
	       tlb_model_violations(TLBM_HIDDEN), tlb_model_last_violation());
}

int main(void)
{
#if PAGE_SHIFT == 12 && VA_BITS == 48
	test_model_per_cpu_tlbs();
	test_walk_mid_sequence();
	test_bbml2_live_split();
	test_split_without_bbm_under_none();
	test_split_with_bbm_held();
	test_local_only_tlbi();
	test_repaint();
#endif
	tlb_model_reset();
	return tap_done();
}
