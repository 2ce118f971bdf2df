/*
 * test_page_alloc.c - host tests for the buddy allocator (mm/page_alloc.c).
 *
 * Memory comes from tests/host/host_phys.c: 64 MiB of fake RAM at 1 GiB and
 * 16 MiB at 32 GiB. Each test builds its own memblock layout and calls
 * page_alloc_init() again. Layouts:
 *   one bank   all 64 MiB at 1 GiB;
 *   tiny       17 pages: the top page holds the page array, leaving exactly
 *              one free order-4 block, so split/merge/zeroing are exact;
 *   multi      two banks with a one-page hole between them, a reservation,
 *              and a bank at 32 GiB that starts at an odd page.
 * Usage: test_page_alloc [seed] (seed of the random stress test).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "types.h"
#include "printk.h"
#include "memblock.h"
#include "page_alloc.h"
#include "host_phys.h"
#include "host_env.h"

#define MiB (1ULL << 20)
#define PG ((u64)PAGE_SIZE)
#define LOW HOST_PHYS_LOW_BASE
#define HIGH HOST_PHYS_HIGH_BASE

typedef unsigned long long ull;

static u64 rng_state = 0x2545f4914f6cdd1dULL;

static u64 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static struct page_stats stats(void)
{
	struct page_stats s;

	page_alloc_stats(&s);
	return s;
}

static bool same_free_blocks(const struct page_stats *a, const struct page_stats *b)
{
	return a->free_pages == b->free_pages &&
	       !memcmp(a->free_by_order, b->free_by_order, sizeof(a->free_by_order));
}

/* Are the free blocks now exactly those recorded in 'then'? */
static bool free_blocks_as(const struct page_stats *then)
{
	struct page_stats now = stats();

	return same_free_blocks(then, &now);
}

static void setup_one_bank(void)
{
	memblock_reset();
	memblock_add(LOW, HOST_PHYS_LOW_SIZE);
	page_alloc_init();
}

static void setup_tiny(void)
{
	memblock_reset();
	memblock_add(LOW, 17 * PG);
	page_alloc_init();
}

static void setup_multi(void)
{
	memblock_reset();
	memblock_add(LOW, 8 * MiB);
	memblock_add(LOW + 8 * MiB + PG, 16 * MiB - PG);
	memblock_add(HIGH + 3 * PG, HOST_PHYS_HIGH_SIZE - 3 * PG);
	memblock_reserve(HIGH + MiB + 0x123, 0x5000, "kernel");
	page_alloc_init();
}

/* Does [pa, pa + size) lie inside one memblock RAM bank? */
static bool in_one_bank(phys_addr_t pa, u64 size)
{
	int i;

	for (i = 0; i < memblock_ram_count(); i++) {
		phys_addr_t b;
		u64 s;

		memblock_ram_range(i, &b, &s);
		if (pa >= b && pa + size <= b + s)
			return true;
	}
	return false;
}

static bool block_is(struct page *pg, unsigned order, int byte)
{
	const unsigned char *p = page_address(pg);
	u64 i, n = PG << order;

	for (i = 0; i < n; i++)
		if (p[i] != byte)
			return false;
	return true;
}

static void dirty(struct page *pg, unsigned order)
{
	memset(page_address(pg), 0xAA, PG << order);
}

/* ---- layout and basic behaviour ---- */

static void test_init(void)
{
	struct page_stats s;
	u64 array_pages;

	setup_one_bank();
	s = stats();
	array_pages = (HOST_PHYS_LOW_SIZE / PG * sizeof(struct page) + PG - 1) / PG;
	tap_ok(s.total_pages == HOST_PHYS_LOW_SIZE / PG - array_pages && s.free_pages == s.total_pages,
	       "one bank: %llu pages free, all but the %llu-page struct page array",
	       (ull)s.total_pages, (ull)array_pages);
	tap_ok(s.free_by_order[13] == 1 && s.free_by_order[14] == 0,
	       "one bank: the low 32 MiB is one order-13 block");
	tap_ok(page_alloc_check(), "one bank: page_alloc_check passes after init");
	tap_ok(phys_to_page(LOW) && page_to_phys(phys_to_page(LOW + 5 * PG)) == LOW + 5 * PG &&
	       page_address(phys_to_page(LOW)) == phys_to_virt(LOW) && !phys_to_page(LOW - PG) &&
	       !phys_to_page(HIGH),
	       "phys_to_page / page_to_phys / page_address agree; NULL outside RAM");
}

static void test_tiny_split_merge(void)
{
	struct page *a, *b;
	struct page_stats s;

	setup_tiny();
	s = stats();
	tap_ok(s.total_pages == 16 && s.free_by_order[4] == 1, "tiny: one order-4 block of 16 pages");
	a = alloc_pages(0, 0);
	s = stats();
	tap_ok(a && page_to_phys(a) == LOW && s.free_by_order[0] == 1 && s.free_by_order[1] == 1 &&
	       s.free_by_order[2] == 1 && s.free_by_order[3] == 1 && s.free_by_order[4] == 0,
	       "tiny: an order-0 alloc splits 16 into 8+4+2+1 and returns the lowest page");
	b = alloc_pages(0, 0);
	tap_ok(b && page_to_phys(b) == LOW + PG && stats().free_by_order[0] == 0,
	       "tiny: the next order-0 alloc takes the buddy");
	tap_ok(page_alloc_check(), "tiny: check passes with two pages allocated");
	free_pages(b, 0);
	free_pages(a, 0);
	s = stats();
	tap_ok(s.free_pages == 16 && s.free_by_order[4] == 1 && s.free_by_order[0] == 0 &&
	       s.free_by_order[3] == 0, "tiny: freeing both merges back into one order-4 block");
	a = alloc_pages(0, 4);
	tap_ok(a && !alloc_pages(0, 0) && !alloc_pages(0, 4) && !alloc_pages(0, 5),
	       "tiny: empty allocator returns NULL at every order");
	free_pages(a, 0 + 4);
	tap_ok(page_alloc_check() && stats().free_pages == 16, "tiny: full again");
}

/* page_alloc_check must notice each kind of damage (then it is undone). */
static void test_check_detects(void)
{
	struct page *head, *a;
	int caught = 0;

	setup_tiny();
	head = phys_to_page(LOW);   /* the one free order-4 block */
	a = alloc_pages(0, 2);      /* pages 0-3 */
	printf("# the next lines are page_alloc_check reporting damage on purpose\n");
	a[1].flags = PG_HEAD;
	caught += !page_alloc_check();
	a[1].flags = 0;
	head[8].order = 2;          /* the free order-3 block at page 8 */
	caught += !page_alloc_check();
	head[8].order = 3;
	head[9].flags = PG_FREE;
	caught += !page_alloc_check();
	head[9].flags = 0;
	head[8].flags = 0;          /* free, but no longer marked as such */
	caught += !page_alloc_check();
	head[8].flags = PG_FREE;
	a->flags = PG_RESERVED;     /* an allocated head is lost: its tail pages are orphans */
	caught += !page_alloc_check();
	a->flags = PG_HEAD;
	tap_ok(caught == 5, "page_alloc_check catches 5 kinds of damage (%d caught)", caught);
	tap_ok(page_alloc_check(), "and passes again once the damage is undone");
	free_pages(a, 2);
}

/* ---- coalescing, exhaustion, alignment ---- */

#define MAX_LIVE 20000
static struct page *live[MAX_LIVE];

static void shuffle(struct page **v, int n)
{
	int i;

	for (i = n - 1; i > 0; i--) {
		int j = rnd() % (i + 1);
		struct page *t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

static void test_coalesce_random_order(void)
{
	struct page_stats before = stats(), mid;
	int n, i;

	for (n = 0; n < 5000; n++)
		live[n] = alloc_pages(0, rnd() % 3);
	mid = stats();
	shuffle(live, n);
	for (i = 0; i < n; i++)
		free_pages(live[i], live[i]->order);
	tap_ok(mid.free_pages < before.free_pages && free_blocks_as(&before),
	       "5000 mixed small blocks freed in random order merge back to the original blocks");
	tap_ok(page_alloc_check(), "check passes after the merge");
}

/* Allocate order k until NULL; check nothing >= k is left, free all. */
static bool exhaust_order(unsigned k)
{
	struct page_stats before = stats(), s;
	bool ok = true;
	int n = 0, i, j;

	while (n < MAX_LIVE && (live[n] = alloc_pages(0, k)) != NULL) {
		if (page_to_phys(live[n]) & ((PG << k) - 1))
			ok = false;
		n++;
	}
	s = stats();
	for (j = k; j < MAX_ORDER; j++)
		if (s.free_by_order[j])
			ok = false;
	if (s.free_pages + ((u64)n << k) != s.total_pages || !page_alloc_check())
		ok = false;
	shuffle(live, n);
	for (i = 0; i < n; i++)
		free_pages(live[i], k);
	return ok && free_blocks_as(&before);
}

static void test_exhaustion(void)
{
	unsigned k, bad = 0;

	for (k = 0; k < MAX_ORDER; k++)
		if (!exhaust_order(k)) {
			bad++;
			tap_ok(0, "exhaustion at order %u", k);
		}
	tap_ok(bad == 0, "exhausting each order 0..%d returns NULL only when no block >= it is left, then recovers",
	       MAX_ORDER - 1);
}

static void test_big_orders(void)
{
	struct page *p9[4], *p10[4];
	bool ok = true;
	int i;

	for (i = 0; i < 4; i++) {
		p9[i] = alloc_pages(0, 9);
		p10[i] = alloc_pages(0, 10);
		ok = ok && p9[i] && p10[i] && !(page_to_phys(p9[i]) & (2 * MiB - 1)) &&
		     !(page_to_phys(p10[i]) & (4 * MiB - 1));
	}
	tap_ok(ok, "order 9 blocks are 2 MiB aligned, order 10 blocks 4 MiB aligned");
	for (i = 0; i < 4; i++) {
		free_pages(p9[i], 9);
		free_pages(p10[i], 10);
	}
	tap_ok(stats().free_pages == stats().total_pages, "no leak after the big blocks");
}

/* ---- several banks ---- */

static void test_multi_bank(void)
{
	struct page_stats before, s;
	phys_addr_t b;
	u64 sz, want = 0;
	bool ok = true;
	int n = 0, i;

	setup_multi();
	for (i = 0; memblock_free_range(i, &b, &sz); i++)
		want += sz / PG;
	before = s = stats();
	tap_ok(s.total_pages == want && page_alloc_check(),
	       "multi: %llu free pages = the memblock free ranges", (ull)want);
	tap_ok(s.free_by_order[11] == 2 && s.free_by_order[12] == 0,
	       "multi: 8 MiB blocks on both sides of the hole are not merged across it");
	tap_ok(!phys_to_page(LOW + 8 * MiB) && phys_to_page(LOW + 8 * MiB + PG) &&
	       page_to_phys(phys_to_page(HIGH + 3 * PG)) == HIGH + 3 * PG && !phys_to_page(HIGH),
	       "multi: the hole and the skipped pages have no struct page");
	for (i = 11; i >= 0; i--) {
		struct page *pg;

		while ((pg = alloc_pages(0, i)) != NULL) {
			ok = ok && in_one_bank(page_to_phys(pg), PG << i);
			live[n++] = pg;
		}
	}
	tap_ok(ok && stats().free_pages == 0, "multi: all %d blocks allocated largest first lie in one bank", n);
	shuffle(live, n);
	for (i = 0; i < n; i++)
		free_pages(live[i], live[i]->order);
	tap_ok(free_blocks_as(&before) && page_alloc_check(),
	       "multi: freed in random order, blocks merge back exactly and never across banks");
}

/* ---- misuse ---- */

static int free_panics(struct page *pg, unsigned order)
{
	return EXPECT_PANIC(free_pages(pg, order));
}

static int alloc_panics(unsigned gfp, unsigned order)
{
	return EXPECT_PANIC(alloc_pages(gfp, order));
}

static void test_misuse(void)
{
	static struct page bogus;
	struct page *a, *b, *c;

	setup_one_bank();
	a = alloc_pages(0, 0);
	b = alloc_pages(0, 2);
	c = alloc_pages(0, 0);
	free_pages(a, 0);
	tap_ok(free_panics(a, 0) && strstr(host_panic_msg, "double free"),
	       "double free panics: %s", host_panic_msg);
	free_pages(c, 0);   /* c merges with a: a is now inside a larger free block */
	tap_ok(free_panics(a, 0) && strstr(host_panic_msg, "double free") &&
	       free_panics(c, 0) && strstr(host_panic_msg, "double free"),
	       "double free of the head or a page inside a merged block panics");
	tap_ok(free_panics(b, 1) && strstr(host_panic_msg, "allocated with order 2"),
	       "wrong order panics: %s", host_panic_msg);
	tap_ok(free_panics(b + 1, 0) && strstr(host_panic_msg, "not the head"),
	       "freeing a tail page panics: %s", host_panic_msg);
	tap_ok(free_panics(b + 1, 1) && strstr(host_panic_msg, "not aligned"),
	       "freeing an unaligned head panics: %s", host_panic_msg);
	tap_ok(free_panics(phys_to_page(LOW + HOST_PHYS_LOW_SIZE - PG), 0) &&
	       strstr(host_panic_msg, "not the head"),
	       "freeing a reserved page panics");
	tap_ok(free_panics(&bogus, 0) && strstr(host_panic_msg, "not a struct page"),
	       "freeing a random pointer panics");
	tap_ok(alloc_panics(0, MAX_ORDER) && alloc_panics(0x80, 0), "bad order or gfp bits panic");
	free_pages(b, 2);
	tap_ok(page_alloc_check() && stats().free_pages == stats().total_pages,
	       "the allocator is intact after the caught panics");
	tap_ok(free_panics(b, 2) && page_alloc_check(), "a second free of that block panics too, allocator intact");
}

/* ---- zeroing ---- */

static void test_gfp_zero(void)
{
	struct page *p, *q;
	void *va;

	init_on_alloc = init_on_free = false;
	host_phys_fill(0x5A);
	setup_one_bank();
	p = alloc_pages(GFP_ZERO, 3);
	tap_ok(p && block_is(p, 3, 0), "GFP_ZERO clears fresh memory");
	dirty(p, 3);
	free_pages(p, 3);
	q = alloc_pages(0, 3);
	tap_ok(q == p && block_is(q, 3, 0xAA), "without GFP_ZERO nor init_on_*, the dirt stays (LIFO reuse)");
	free_pages(q, 3);
	q = alloc_pages(GFP_ZERO, 3);
	tap_ok(q == p && block_is(q, 3, 0), "GFP_ZERO clears a dirtied, reused block");
	free_pages(q, 3);
	va = alloc_page_va(GFP_ZERO);
	tap_ok(va && block_is(phys_to_page(virt_to_phys(va)), 0, 0), "alloc_page_va(GFP_ZERO) is zeroed");
	free_page_va(va);
	tap_ok(stats().free_pages == stats().total_pages, "free_page_va gives it back");
}

/*
 * Exact zeroing on the tiny layout (one order-4 block). 'ia'/'if' are the
 * policy. Each step's expected bytes_zeroed delta is spelled out; returns
 * the number of steps that disagreed.
 */
static int zero_once_scenario(bool ia, bool iff)
{
	struct page *a, *b, *c, *d, *e, *f;
	u64 z;
	int bad = 0;

#define STEP(stmt, expect_pages)                                                       \
	do {                                                                           \
		z = stats().bytes_zeroed;                                              \
		stmt;                                                                  \
		if (stats().bytes_zeroed - z != (u64)(expect_pages) * PG) {           \
			printf("# ia=%d if=%d: %s zeroed %llu bytes, expected %llu\n", \
			       ia, iff, #stmt, (ull)(stats().bytes_zeroed - z),        \
			       (ull)(expect_pages) * PG);                              \
			bad++;                                                         \
		}                                                                      \
	} while (0)

	init_on_alloc = init_on_free = false;
	host_phys_fill(0x5A);
	setup_tiny();
	init_on_alloc = ia;
	init_on_free = iff;
	STEP(a = alloc_pages(0, 0), ia ? 1 : 0);             /* fresh, contents unknown */
	STEP(b = alloc_pages(GFP_ZERO, 0), 1);               /* fresh: must zero */
	bad += !block_is(b, 0, 0) + (ia && !block_is(a, 0, 0));
	dirty(a, 0);
	dirty(b, 0);
	STEP(free_pages(a, 0), iff ? 1 : 0);
	STEP(free_pages(b, 0), iff ? 1 : 0);                 /* merges with unknown halves */
	STEP(c = alloc_pages(GFP_ZERO, 1), 2);               /* merged block not known zero */
	bad += !block_is(c, 1, 0);
	STEP(free_pages(c, 1), iff ? 2 : 0);
	STEP(d = alloc_pages(0, 4), ia ? 16 : 0);            /* not known zero */
	dirty(d, 4);
	STEP(free_pages(d, 4), iff ? 16 : 0);                /* now known zero iff init_on_free */
	STEP(e = alloc_pages(GFP_ZERO, 0), iff ? 0 : 1);     /* split keeps the known-zero flag */
	STEP(f = alloc_pages(0, 0), (ia && !iff) ? 1 : 0);
	bad += !block_is(e, 0, 0) + ((ia || iff) && !block_is(f, 0, 0));
	dirty(e, 0);
	dirty(f, 0);
	STEP(free_pages(e, 0), iff ? 1 : 0);
	STEP(free_pages(f, 0), iff ? 1 : 0);
	STEP(d = alloc_pages(GFP_ZERO, 4), iff ? 0 : 16);    /* merged from all-zero halves */
	bad += !block_is(d, 4, 0);
	free_pages(d, 4);
	bad += !page_alloc_check();
#undef STEP
	init_on_alloc = init_on_free = false;
	return bad;
}

static void test_zero_once(void)
{
	int ia, iff;

	for (ia = 0; ia < 2; ia++)
		for (iff = 0; iff < 2; iff++)
			tap_ok(zero_once_scenario(ia, iff) == 0,
			       "init_on_alloc=%d init_on_free=%d: every byte zeroed at most once, bytes_zeroed exact",
			       ia, iff);
}

/* A merged block is known zero only if both halves were. */
static void test_zero_merge_mixed(void)
{
	struct page *g, *h, *all;
	u64 z;

	setup_tiny();
	init_on_free = true;
	all = alloc_pages(0, 4);
	free_pages(all, 4);                 /* the whole block is now known zero */
	g = alloc_pages(0, 0);
	h = alloc_pages(0, 0);
	dirty(g, 0);
	dirty(h, 0);
	init_on_free = false;
	free_pages(g, 0);                   /* dirty, not known zero */
	init_on_free = true;
	free_pages(h, 0);                   /* zeroed, but its buddy is not */
	init_on_free = false;
	z = stats().bytes_zeroed;
	all = alloc_pages(GFP_ZERO, 4);
	tap_ok(stats().bytes_zeroed - z == 16 * PG && block_is(all, 4, 0),
	       "a block merged from a known-zero and a dirty half is zeroed again on GFP_ZERO");
	free_pages(all, 4);
}

/* ---- random stress against a shadow model ---- */

#define LOW_PAGES (HOST_PHYS_LOW_SIZE / PAGE_SIZE)
#define SHADOW_PAGES (LOW_PAGES + HOST_PHYS_HIGH_SIZE / PAGE_SIZE)

static unsigned char owned[SHADOW_PAGES];

static u64 shadow_idx(phys_addr_t pa)
{
	if (pa >= HIGH)
		return LOW_PAGES + (pa - HIGH) / PG;
	return (pa - LOW) / PG;
}

struct live_block {
	struct page *pg;
	unsigned order;
	u64 tag;
};

static struct live_block blocks[MAX_LIVE];
static int nblocks;

static unsigned random_order(void)
{
	unsigned r = rnd() % 100;

	if (r < 60)
		return 0;
	if (r < 82)
		return 1 + rnd() % 3;
	if (r < 97)
		return 4 + rnd() % 5;
	return 9 + rnd() % 4;
}

/* Take ownership of every page of a new block; false on any overlap. Each
 * page's first word gets a tag checked again at free time. */
static bool stress_alloc(unsigned gfp, unsigned order, int *nulls)
{
	struct page *pg = alloc_pages(gfp, order);
	struct page_stats s;
	u64 i, idx, tag = rnd();
	unsigned k;

	if (!pg) {
		s = stats();
		for (k = order; k < MAX_ORDER; k++)
			if (s.free_by_order[k])
				return false;   /* NULL although a big enough block was free */
		(*nulls)++;
		return true;
	}
	if ((page_to_phys(pg) & ((PG << order) - 1)) || !in_one_bank(page_to_phys(pg), PG << order))
		return false;
	if ((gfp & GFP_ZERO) && !block_is(pg, order > 2 ? 0 : order, 0))
		return false;
	idx = shadow_idx(page_to_phys(pg));
	for (i = 0; i < (1ULL << order); i++) {
		if (owned[idx + i])
			return false;
		owned[idx + i] = 1;
		memcpy((char *)page_address(pg) + i * PG, &tag, sizeof(tag));
	}
	blocks[nblocks++] = (struct live_block){ pg, order, tag };
	return true;
}

static bool stress_free(int which)
{
	struct live_block lb = blocks[which];
	u64 i, idx = shadow_idx(page_to_phys(lb.pg)), t;

	for (i = 0; i < (1ULL << lb.order); i++) {
		memcpy(&t, (char *)page_address(lb.pg) + i * PG, sizeof(t));
		if (t != lb.tag || !owned[idx + i])
			return false;
		owned[idx + i] = 0;
	}
	blocks[which] = blocks[--nblocks];
	free_pages(lb.pg, lb.order);
	return true;
}

static void test_stress(u64 seed)
{
	struct page_stats before;
	int op, bad = 0, checks_failed = 0, nulls = 0, peak = 0;

	rng_state = seed ? seed : 1;
	setup_multi();
	before = stats();
	memset(owned, 0, sizeof(owned));
	nblocks = 0;
	for (op = 0; op < 100000; op++) {
		bool do_alloc = nblocks == 0 || (nblocks < MAX_LIVE && rnd() % 100 < 52);

		if (op % 5000 == 0) {
			init_on_alloc = rnd() % 2;
			init_on_free = rnd() % 2;
		}
		if (do_alloc)
			bad += !stress_alloc(rnd() % 4 ? 0 : GFP_ZERO, random_order(), &nulls);
		else
			bad += !stress_free(rnd() % nblocks);
		peak = MAX(peak, nblocks);
		if (op % 1000 == 999)
			checks_failed += !page_alloc_check();
	}
	while (nblocks)
		bad += !stress_free(nblocks - 1);
	init_on_alloc = init_on_free = false;
	tap_ok(bad == 0, "stress (seed %llu): 100000 ops, no overlap, alignment, tags intact (%d bad, %d NULLs, peak %d live)",
	       (ull)seed, bad, nulls, peak);
	tap_ok(checks_failed == 0 && page_alloc_check(), "stress: page_alloc_check passed 100 times and at the end");
	tap_ok(free_blocks_as(&before), "stress: every page came back, blocks fully merged");
}

/* ---- counters ---- */

static void test_pt_counters(void)
{
	struct page_stats s;

	page_alloc_count_pt(false, 3);
	page_alloc_count_pt(true, 2);
	page_alloc_count_pt(false, -1);
	s = stats();
	tap_ok(s.pt_kernel_pages == 2 && s.pt_user_pages == 2, "page-table page counters");
	tap_ok(EXPECT_PANIC(page_alloc_count_pt(true, -3)) && strstr(host_panic_msg, "negative"),
	       "a page-table counter going negative panics");
	page_alloc_count_pt(false, -2);
	page_alloc_count_pt(true, -2);
}

int main(int argc, char **argv)
{
	u64 seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 12345;

	host_phys_init();
	test_init();
	test_tiny_split_merge();
	test_check_detects();
	setup_one_bank();
	test_coalesce_random_order();
	test_exhaustion();
	test_big_orders();
	test_multi_bank();
	test_misuse();
	test_gfp_zero();
	test_zero_once();
	test_zero_merge_mixed();
	test_stress(seed);
	test_pt_counters();
	return tap_done();
}
