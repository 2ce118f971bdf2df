/*
 * ktests_smp.c - in-kernel tests of the secondary CPUs: they all came up,
 * a call runs on each and completes, spinlocks hold when every CPU hammers
 * one, each CPU's timer ticks, the rendezvous holds them still, and the
 * linear map has the shape of its BBML2 mode and splits as that mode says.
 * With one CPU the cross-CPU points check what one CPU can.
 */
#include "ktest.h"
#include "printk.h"
#include "arch.h"
#include "arch_proc.h"
#include "arch_arm64.h"
#include "smp.h"
#include "spinlock.h"
#include "bbml2.h"
#include "kernel.h"
#include "params.h"
#include "pgtable.h"
#include "ptdump.h"
#include "linear_map.h"
#include "page_alloc.h"
#include "fixmap.h"
#include <asm/spinlock.h>

/* The level of the linear-map leaf mapping va. */
static int leaf_level_of(unsigned long va)
{
	struct pt_cursor c;

	pt_walk(arch_kernel_space(), va, PT_LAST_LEVEL, false, &c);
	return c.level;
}

struct call_record {
	int ran_on;
	u64 mpidr;
	u32 token, echo;
};

static void record_call(void *p)
{
	struct call_record *r = p;

	r->ran_on = arch_cpu_id();
	r->mpidr = read_sysreg(mpidr_el1);
	r->echo = r->token * 3 + 1;
}

/* Every CPU the device tree names is online, each knows its own index. */
KTEST(smp_cpus_online)
{
	int n = smp_num_present();

	ktest_ok(smp_num_online() == n, "%d of %d CPUs online", smp_num_online(), n);
	for (int cpu = 0; cpu < n; cpu++)
		ktest_ok(smp_cpu_online(cpu), "CPU %d is online", cpu);
	ktest_ok(!smp_cpu_online(n) && !smp_cpu_online(-1), "no CPU %d, no CPU -1", n);
	ktest_ok(arch_cpu_id() == 0, "the tests run on CPU 0 (TPIDR_EL1 %d)", arch_cpu_id());
}

/* A call on each CPU runs there, and its result is visible when it returns. */
KTEST(smp_call_each_cpu)
{
	u64 seen = 0;

	for (int cpu = 0; cpu < smp_num_online(); cpu++) {
		struct call_record r = { .ran_on = -1, .token = 100u + (u32)cpu };
		int rc = smp_call_on_cpu(cpu, record_call, &r);

		ktest_ok(rc == 0 && r.ran_on == cpu && r.echo == r.token * 3 + 1,
			 "call on CPU %d ran on CPU %d (MPIDR 0x%llx), result %u", cpu, r.ran_on,
			 (unsigned long long)r.mpidr, r.echo);
		seen |= 1ull << (r.mpidr & 0xff);
	}
	ktest_ok(__builtin_popcountll(seen) == smp_num_online(), "%d distinct MPIDRs answered",
		 __builtin_popcountll(seen));
	ktest_ok(smp_call_on_cpu(smp_num_online(), record_call, &(struct call_record){ 0 }) == -1,
		 "a call to an offline CPU is refused");
}

#define HAMMER_ITERS 20000

static struct spinlock hammer_lock = SPINLOCK_INIT("ktest hammer");
static u64 hammer_count;
static u32 hammer_go;

/* Wait for the start signal, then add HAMMER_ITERS to the counter, each
 * increment a read, a short delay and a write under the lock (a lost
 * update shows if the lock does not exclude). */
static void hammer(void *p)
{
	bool locked = p != NULL;

	while (!__atomic_load_n(&hammer_go, __ATOMIC_ACQUIRE))
		;
	for (int i = 0; i < HAMMER_ITERS; i++) {
		if (locked)
			spin_lock(&hammer_lock);
		u64 v = *(volatile u64 *)&hammer_count;
		for (int d = 0; d < 8; d++)
			__asm__ volatile("" ::: "memory");
		*(volatile u64 *)&hammer_count = v + 1;
		if (locked)
			spin_unlock(&hammer_lock);
	}
}

/* Run hammer(locked) on every CPU at once; returns the counter. */
static u64 hammer_all(bool locked)
{
	int n = smp_num_online();

	hammer_count = 0;
	__atomic_store_n(&hammer_go, 0, __ATOMIC_RELEASE);
	for (int cpu = 1; cpu < n; cpu++)
		smp_call_start(cpu, hammer, locked ? (void *)1 : NULL);
	__atomic_store_n(&hammer_go, 1, __ATOMIC_RELEASE);
	hammer(locked ? (void *)1 : NULL);
	for (int cpu = 1; cpu < n; cpu++)
		smp_call_wait(cpu);
	return hammer_count;
}

/* Every CPU increments one counter under one spinlock: nothing is lost. */
KTEST(smp_spinlock_contention)
{
	int n = smp_num_online();
	u64 want = (u64)n * HAMMER_ITERS, got, unlocked;

	got = hammer_all(true);
	ktest_ok(got == want, "%d CPUs x %d locked increments: counter %llu (want %llu), %s atomics",
		 n, HAMMER_ITERS, (unsigned long long)got, (unsigned long long)want,
		 arm64_has_lse ? "LSE" : "LL/SC");
	ktest_ok(!spin_is_locked(&hammer_lock) && hammer_lock.owner == -1, "the lock is free afterwards");
	/* The same without the lock, for contrast: updates may be lost. */
	unlocked = hammer_all(false);
	printk("# without the lock the counter reached %llu of %llu (%llu updates lost)\n",
	       (unsigned long long)unlocked, (unsigned long long)want,
	       (unsigned long long)(want - unlocked));
}

/* Each CPU's own timer delivers ticks. */
KTEST(smp_timer_each_cpu)
{
	int n = smp_num_online();
	u64 before[NR_CPUS], t0;

	for (int cpu = 0; cpu < n; cpu++)
		before[cpu] = arch_timer_cpu_ticks(cpu);
	arch_irq_enable();
	t0 = arch_time_ns();
	while (arch_time_ns() - t0 < 60 * 1000000ull)
		arch_wait_for_interrupt();
	arch_irq_disable();
	for (int cpu = 0; cpu < n; cpu++)
		ktest_ok(arch_timer_cpu_ticks(cpu) > before[cpu], "CPU %d's timer ticked (%llu -> %llu)", cpu,
			 (unsigned long long)before[cpu], (unsigned long long)arch_timer_cpu_ticks(cpu));
}

/* While held, the other CPUs take no interrupt (their tick stops); once
 * released they run on; the hold nests. */
KTEST(smp_rendezvous_holds)
{
	int n = smp_num_online();
	u64 before[NR_CPUS], during[NR_CPUS], t0, holds = smp_hold_count();
	bool still = true, moved = true;

	smp_hold_others();
	smp_hold_others();	/* nested: no second rendezvous */
	ktest_ok(smp_others_held(), "the others are held (nested twice)");
	for (int cpu = 1; cpu < n; cpu++)
		before[cpu] = arch_timer_cpu_ticks(cpu);
	t0 = arch_time_ns();
	while (arch_time_ns() - t0 < 40 * 1000000ull)
		;
	for (int cpu = 1; cpu < n; cpu++) {
		during[cpu] = arch_timer_cpu_ticks(cpu);
		still &= during[cpu] == before[cpu];
	}
	smp_release_others();
	ktest_ok(smp_others_held(), "still held after the inner release");
	smp_release_others();
	ktest_ok(!smp_others_held() && smp_hold_count() == holds + 1,
		 "released; one rendezvous made (%llu -> %llu)", (unsigned long long)holds,
		 (unsigned long long)smp_hold_count());
	ktest_ok(still, "no held CPU took its timer interrupt for 40 ms");
	arch_irq_enable();
	t0 = arch_time_ns();
	while (arch_time_ns() - t0 < 40 * 1000000ull)
		arch_wait_for_interrupt();
	arch_irq_disable();
	for (int cpu = 1; cpu < n; cpu++)
		moved &= arch_timer_cpu_ticks(cpu) > during[cpu];
	ktest_ok(moved, "after the release every CPU's timer ticks again");
}

/* Writable blocks (leaves above the last level) and contiguous runs of the linear map. */
static u64 writable_blocks(const struct pt_space *ks, u64 *blocks)
{
	u64 wr = 0;

	*blocks = 0;
	for (unsigned long va = PAGE_OFFSET; va < linear_map_end();) {
		struct pt_cursor c;

		pt_walk(ks, va, PT_LAST_LEVEL, false, &c);
		if (arch_pte_valid(c.val) && (c.level < PT_LAST_LEVEL || arch_pte_is_cont(c.val))) {
			(*blocks)++;
			if (arch_pte_prot(c.val) & PT_WRITE)
				wr++;
		}
		va = c.va + pt_level_size(c.level);
	}
	return wr;
}

/* The linear map has the shape of the BBML2 mode this boot is in. */
KTEST(bbml2_mode_shape)
{
	u64 blocks, wr = writable_blocks(arch_kernel_space(), &blocks);
	const struct bbml2_repaint_stats *r = bbml2_repaint_stats();
	bool all = true;

	for (int cpu = 0; cpu < smp_num_online(); cpu++)
		all &= cpu == 0 ? true : arm64_cpu_caps(cpu)->bbml2;
	if (opt_rodata != RODATA_FULL) {
		ktest_ok(true, "# SKIP rodata is not full: the modes do not apply");
		return;
	}
	if (pt_bbml2) {
		ktest_ok(all, "mode 1: every CPU has BBML2");
		ktest_ok(opt_linear_map != LINEAR_MAP_BLOCK || wr > 0,
			 "mode 1: %llu writable blocks and runs in the linear map", (unsigned long long)wr);
	} else {
		ktest_ok(wr == 0 && blocks == 0, "mode %d: no block or run in the linear map (%llu, %llu writable)",
			 r->done ? 3 : 2, (unsigned long long)blocks, (unsigned long long)wr);
		if (r->done)
			ktest_ok(r->splits > 0, "mode 3: the repaint split %llu blocks, unfolded %llu runs in %llu us",
				 (unsigned long long)r->splits, (unsigned long long)r->unfolds,
				 (unsigned long long)(r->ns / 1000));
	}
}

struct reader {
	unsigned long va;
	u64 size;
	u32 stop;
	u64 reads;
	u64 sum;
};

/* Read the block over and over until told to stop, serving IPIs (a
 * rendezvous) between rounds; a fault here would panic the kernel. */
static void read_block(void *p)
{
	struct reader *r = p;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		for (u64 off = 0; off < r->size; off += PAGE_SIZE)
			r->sum += *(volatile u64 *)(r->va + off);
		r->reads++;
		smp_poll();
	}
}

/*
 * set_memory_ro on one page inside a 2 MiB block while every other CPU
 * reads the whole block: with BBML2 the block becomes a table live, no
 * break and no rendezvous; without it the split breaks the block with the
 * readers held. Either way no reader faults and the readers keep reading.
 */
/* A free 2^order-page block mapped by one linear-map leaf (a block or a
 * contiguous run), or NULL: earlier tests split some, so try several. */
static struct page *alloc_mapped_block(unsigned order)
{
	for (int pass = 0; pass < 2; pass++) {	/* a lone block first, else any run */
		struct page *tried[32], *pg = NULL;
		int n = 0;

		while (n < (int)ARRAY_SIZE(tried) && (pg = alloc_pages(0, order))) {
			struct pt_cursor c;

			pt_walk(arch_kernel_space(), (unsigned long)page_address(pg), PT_LAST_LEVEL, false, &c);
			if ((c.level < PT_LAST_LEVEL && !arch_pte_is_cont(c.val)) ||
			    (pass == 1 && (c.level < PT_LAST_LEVEL || arch_pte_is_cont(c.val))))
				break;
			tried[n++] = pg;
			pg = NULL;
		}
		while (n--)
			free_pages(tried[n], order);
		if (pg)
			return pg;
	}
	return NULL;
}

KTEST(bbml2_split_live)
{
	unsigned order = 9;	/* 2 MiB with 4K pages */
	struct page *pg = PAGE_SIZE == 4096 ? alloc_mapped_block(order) : NULL;
	struct reader rd[NR_CPUS];
	int n = smp_num_online();
	u64 bbm0, inp0, bbm1, inp1, holds0;
	struct pt_cursor c;
	unsigned long va;
	int rc;

	if (!pg) {
		ktest_ok(true, "# SKIP needs 4K pages and a free 2 MiB block mapped by one leaf");
		if (pg)
			free_pages(pg, order);
		return;
	}
	va = (unsigned long)page_address(pg);
	pt_walk(arch_kernel_space(), va, PT_LAST_LEVEL, false, &c);
	if (c.level == PT_LAST_LEVEL && !arch_pte_is_cont(c.val)) {
		ktest_ok(true, "# SKIP the block is mapped by pages already (no block to split)");
		free_pages(pg, order);
		return;
	}
	for (int cpu = 1; cpu < n; cpu++) {
		rd[cpu] = (struct reader){ .va = va, .size = (u64)PAGE_SIZE << order };
		smp_call_start(cpu, read_block, &rd[cpu]);
	}
	for (int cpu = 1; cpu < n; cpu++)	/* every reader has started */
		while (!__atomic_load_n(&rd[cpu].reads, __ATOMIC_ACQUIRE))
			;
	pte_update_counts(&bbm0, &inp0);
	holds0 = smp_hold_count();
	rc = set_memory_ro(va + 5 * PAGE_SIZE, 1);
	pte_update_counts(&bbm1, &inp1);
	u64 holds = smp_hold_count() - holds0;
	for (int cpu = 1; cpu < n; cpu++) {
		u64 r0 = __atomic_load_n(&rd[cpu].reads, __ATOMIC_ACQUIRE);

		while (__atomic_load_n(&rd[cpu].reads, __ATOMIC_ACQUIRE) < r0 + 2)
			;
		__atomic_store_n(&rd[cpu].stop, 1, __ATOMIC_RELEASE);
		smp_call_wait(cpu);
	}
	ktest_ok(rc == 0, "set_memory_ro on a page inside the level-%d leaf at 0x%lx", c.level, va);
	if (pt_bbml2)
		ktest_ok(bbm1 == bbm0 && holds == 0,
			 "BBML2: split live, %llu break(s), %llu rendezvous, %llu in-place updates",
			 (unsigned long long)(bbm1 - bbm0), (unsigned long long)holds,
			 (unsigned long long)(inp1 - inp0));
	else
		ktest_ok(bbm1 > bbm0 && (n == 1 || holds == bbm1 - bbm0),
			 "no BBML2: %llu break(s), each with the other CPUs held (%llu rendezvous)",
			 (unsigned long long)(bbm1 - bbm0), (unsigned long long)holds);
	for (int cpu = 1; cpu < n; cpu++)
		ktest_ok(rd[cpu].reads >= 2, "CPU %d read the block %llu times without a fault", cpu,
			 (unsigned long long)rd[cpu].reads);
	set_memory_rw(va + 5 * PAGE_SIZE, 1);
	free_pages(pg, order);
}

/*
 * Two allocated buddy pages (*a and its buddy, returned) mapped by one
 * linear-map leaf above the last level, or NULL: the pages tried on the way
 * are freed again.
 */
static struct page *alloc_buddies_in_block(struct page **a)
{
	struct page *tried[64], *b = NULL;
	int n = 0;

	while (!b && n < (int)ARRAY_SIZE(tried) && (tried[n] = alloc_pages(0, 0))) {
		phys_addr_t pa = page_to_phys(tried[n]);

		for (int i = 0; i < n && !b; i++)
			if ((page_to_phys(tried[i]) ^ pa) == PAGE_SIZE &&
			    leaf_level_of((unsigned long)page_address(tried[n])) < PT_LAST_LEVEL) {
				*a = tried[i];
				b = tried[n];
				tried[i] = tried[n] = NULL;
			}
		n++;
	}
	while (n--)
		if (tried[n])
			free_pages(tried[n], 0);
	return b;
}

/*
 * A split whose new table page lies inside the block being split. With
 * BBML2 the split is made in place and nothing is broken, so that page is
 * reached through the linear map: no fixmap slot is used, and no break is
 * made (remapping a slot would be one). Without BBML2 the block is broken,
 * so the page must be reached through the fixmap. The buddy b of page a is
 * freed last, so the split's first table page is b (the free lists are
 * LIFO and b cannot merge while a is held).
 */
KTEST(bbml2_split_table_inside)
{
	struct page *a, *b = alloc_buddies_in_block(&a);
	struct pt_stats s0, s1;
	struct pt_cursor c;
	unsigned long va;
	int lvl;

	if (!b) {
		ktest_ok(true, "# SKIP needs two buddy pages inside a linear-map block");
		return;
	}
	va = (unsigned long)page_address(a);
	lvl = leaf_level_of(va);
	free_pages(b, 0);
	fixmap_map_table(lvl + 1, page_to_phys(a));	/* the slot points elsewhere */
	pt_get_stats(&s0);
	int rc = set_memory_ro(va, 1);
	pt_get_stats(&s1);
	pt_walk(arch_kernel_space(), va, lvl + 1, false, &c);
	ktest_ok(rc == 0 && c.level == lvl + 1 && c.table == page_to_phys(b),
		 "set_memory_ro split the level-%d leaf at 0x%lx; its new table is the page freed inside it",
		 lvl, va);
	if (pt_bbml2)
		ktest_ok(s1.bbm == s0.bbm && s1.fixmap_uses == s0.fixmap_uses,
			 "BBML2: %llu break(s), %llu fixmap use(s): the table page was reached through the linear map",
			 (unsigned long long)(s1.bbm - s0.bbm),
			 (unsigned long long)(s1.fixmap_uses - s0.fixmap_uses));
	else
		ktest_ok(s1.bbm > s0.bbm && s1.fixmap_uses > s0.fixmap_uses,
			 "no BBML2: %llu break(s), %llu fixmap use(s): the table page was reached through the fixmap",
			 (unsigned long long)(s1.bbm - s0.bbm),
			 (unsigned long long)(s1.fixmap_uses - s0.fixmap_uses));
	set_memory_rw(va, 1);
	free_pages(a, 0);
}

/* A block leaf (above the last level) mapping a free 2 MiB block, or NULL. */
static struct page *alloc_block_leaf(struct pt_cursor *c)
{
	struct page *pg = alloc_mapped_block(9);

	if (!pg)
		return NULL;
	pt_walk(arch_kernel_space(), (unsigned long)page_address(pg), PT_LAST_LEVEL, false, c);
	if (c->level < PT_LAST_LEVEL && !arch_pte_is_cont(c->val))
		return pg;
	free_pages(pg, 9);
	return NULL;
}

/* An unlinked table of next-level leaves mapping exactly what block c maps. */
static phys_addr_t identical_table(const struct pt_cursor *c)
{
	const struct pt_space *ks = arch_kernel_space();
	phys_addr_t t = pxd_alloc(ks, c->level + 1);
	u64 size = pt_level_size(c->level + 1);
	unsigned prot = arch_pte_prot(c->val) & ~PT_CONT;
	pteval_t *p;

	if (!t)
		return 0;
	p = pt_page_va(t, c->level + 1);
	for (unsigned long i = 0; i < arch_pt_entries(c->level + 1); i++)
		pt_write_new(&p[i], arch_pte_mk_leaf(arch_pte_pa(c->val) + i * size, prot, c->level + 1));
	return t;
}

/*
 * With BBML2 the choke point accepts a live block -> table of identical
 * leaves in place (pte_update_inplace's checker agrees), and a table whose
 * leaves differ from the block is still refused as a size change.
 */
KTEST(bbml2_inplace_split)
{
	struct pt_cursor c, after;
	struct page *pg;
	phys_addr_t t;
	u64 bbm0, inp0, bbm1, inp1;

	if (!pt_bbml2 || !(pg = alloc_block_leaf(&c))) {
		ktest_ok(true, "# SKIP needs BBML2 and a block leaf in the linear map");
		return;
	}
	t = identical_table(&c);
	ktest_ok(t != 0, "a table of identical level-%d leaves for the block at 0x%lx", c.level + 1, c.va);
	if (!t) {
		free_pages(pg, 9);
		return;
	}
	ktest_ok(pte_bbml2_size_change(c.val, arch_pte_mk_table(t, false), c.level),
		 "the rule calls block -> identical table a BBML2 size change");
	ktest_ok(!pte_bbml2_size_change(c.val, arch_pte_oa_add(c.val, pt_level_size(c.level)), c.level),
		 "and a new output address not");
	pte_update_counts(&bbm0, &inp0);
	pte_update_inplace(arch_kernel_space(), c.ptep, c.val, arch_pte_mk_table(t, false), c.va, c.level);
	pte_update_counts(&bbm1, &inp1);
	pt_walk(arch_kernel_space(), c.va, PT_LAST_LEVEL, false, &after);
	ktest_ok(bbm1 == bbm0 && inp1 == inp0 + 1 && after.level == c.level + 1 &&
		 arch_pte_pa(after.val) == arch_pte_pa(c.val),
		 "pte_update_inplace made the split live: level-%d leaf now, %llu break(s)", after.level,
		 (unsigned long long)(bbm1 - bbm0));
	linear_map_merge(c.va);
	free_pages(pg, 9);
}

/*
 * The checker without BBML2: the same in-place split must panic, naming
 * old, new, VA and level. Boot with ktest=bbml2_checker and a linear map
 * that keeps blocks without BBML2 (bbml2=none rodata=on).
 */
KTEST_PANICS(bbml2_checker)
{
	struct pt_cursor c;
	struct page *pg;
	phys_addr_t t;

	if (pt_bbml2 || !(pg = alloc_block_leaf(&c)) || !(t = identical_table(&c))) {
		ktest_ok(false, "needs no BBML2 and a block leaf (boot with bbml2=none rodata=on)");
		return;
	}
	ktest_expect_panic("a live block -> identical table in place without BBML2 is refused");
	pte_update_inplace(arch_kernel_space(), c.ptep, c.val, arch_pte_mk_table(t, false), c.va, c.level);
}

/* ---- figures for `make bench` (guest instructions under -icount shift=0) ---- */

static void nop_call(void *unused)
{
	(void)unused;
}

/* set_memory_ro on one page inside the 1 GiB leaf at va, timed; then put
 * the block back (rw, merged) so the next measurement starts the same. */
static u64 time_split_1g(unsigned long va, u64 *breaks)
{
	u64 bbm0, inp0, bbm1, inp1, t0, t;

	pte_update_counts(&bbm0, &inp0);
	t0 = arch_time_ns();
	set_memory_ro(va + 7 * PAGE_SIZE, 1);
	t = arch_time_ns() - t0;
	pte_update_counts(&bbm1, &inp1);
	*breaks = bbm1 - bbm0;
	set_memory_rw(va + 7 * PAGE_SIZE, 1);
	linear_map_merge(va + 7 * PAGE_SIZE);
	return t;
}

/*
 * Not a check: prints "bench: key value" lines for tools/bench.sh. The
 * times are guest nanoseconds, one instruction each under -icount shift=0
 * (all CPUs' instructions count, the waiting ones' spinning included).
 */
KTEST(smp_bench)
{
	int n = smp_num_online(), reps = 64;
	const struct bbml2_repaint_stats *r = bbml2_repaint_stats();
	struct page *g = PAGE_SIZE == 4096 ? alloc_pages(0, 18) : NULL;	/* 1 GiB */
	u64 t0, breaks;

	printk("bench: smp_cpus %d\n", n);
	if (r->done)
		printk("bench: repaint_linear_map_ns %llu\nbench: repaint_blocks_split %llu\n",
		       (unsigned long long)r->ns, (unsigned long long)r->splits);
	if (g && leaf_level_of((unsigned long)page_address(g)) == 1) {
		unsigned long va = (unsigned long)page_address(g);
		bool saved = pt_bbml2;

		if (saved) {
			u64 t = time_split_1g(va, &breaks);	/* warm-up: first table allocations */

			t = time_split_1g(va, &breaks);

			printk("bench: set_memory_ro_in_1g_bbml2 %llu\nbench: set_memory_ro_in_1g_bbml2_breaks %llu\n",
			       (unsigned long long)t, (unsigned long long)breaks);
		}
		pt_bbml2 = false;	/* always safe: every split breaks, the others held */
		u64 t = time_split_1g(va, &breaks);

		t = time_split_1g(va, &breaks);
		pt_bbml2 = saved;
		printk("bench: set_memory_ro_in_1g_nobbml2 %llu\nbench: set_memory_ro_in_1g_nobbml2_breaks %llu\n",
		       (unsigned long long)t, (unsigned long long)breaks);
		/* A page already split: an in-place permission change, one broadcast TLBI. */
		set_memory_ro(va, 1);
		set_memory_rw(va, 1);
		t0 = arch_time_ns();
		for (int i = 0; i < reps; i++) {
			set_memory_ro(va, 1);
			set_memory_rw(va, 1);
		}
		printk("bench: set_memory_page_tlbi_is %llu\n",
		       (unsigned long long)((arch_time_ns() - t0) / (2 * (u64)reps)));
		linear_map_merge(va);
	} else {
		printk("# smp_bench: no free 1 GiB leaf (MEM=4G and a linear map with blocks needed)\n");
	}
	if (g)
		free_pages(g, 18);
	if (n > 1) {
		t0 = arch_time_ns();
		for (int i = 0; i < reps; i++)
			smp_call_on_cpu(1, nop_call, NULL);
		printk("bench: ipi_call_roundtrip %llu\n", (unsigned long long)((arch_time_ns() - t0) / reps));
		t0 = arch_time_ns();
		for (int i = 0; i < reps; i++) {
			smp_hold_others();
			smp_release_others();
		}
		printk("bench: rendezvous_hold_release %llu\n", (unsigned long long)((arch_time_ns() - t0) / reps));
	}
	ktest_ok(n >= 1, "figures printed for %d CPU(s)", n);
}

/* The per-CPU rule: BBM level >= 2 and a MIDR on the list (with its revisions). */
KTEST(bbml2_allow_list)
{
	const u64 bbm2 = 2ull << 52, bbm1 = 1ull << 52;

	ktest_ok(bbml2_noabort(0x000f0510, bbm2), "QEMU max with BBM level 2 qualifies");
	ktest_ok(!bbml2_noabort(0x000f0510, bbm1), "QEMU max with BBM level 1 does not");
	ktest_ok(!bbml2_noabort(0x410fd083, bbm2), "Cortex-A72 (0xd08) is not on the list");
	ktest_ok(bbml2_noabort(0x410fd823, bbm2) && !bbml2_noabort(0x410fd822, bbm2),
		 "Cortex-X4: r0p3 qualifies, r0p2 does not");
	ktest_ok(bbml2_noabort(0x410fd842, bbm2) && !bbml2_noabort(0x410fd841, bbm2),
		 "Neoverse-V3: r0p2 qualifies, r0p1 does not");
	ktest_ok(bbml2_noabort(0xc00fac30, bbm2), "AmpereOne qualifies");
	ktest_ok(bbml2_noabort(read_sysreg(midr_el1), read_sysreg(id_aa64mmfr2_el1)) ==
		 arm64_cpu_caps(0)->bbml2_hw, "this CPU's recorded verdict matches the rule");
}
