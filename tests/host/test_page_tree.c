/*
 * test_page_tree.c - host test of the page index (mm/page_tree.c): the
 * shape of small and tall trees, indexes at every level's edge and near
 * 2^64, a second insert at one index panics, injected node-allocation
 * failures (nothing stored, nothing leaked), page_tree_check() firing on
 * a corrupted tree, and random inserts, lookups, range takes and walks
 * checked against a plain array. Node pages come from the real page
 * allocator on fake RAM (tests/host/host_phys.c), so an empty tree must
 * hand every node back. Optional argument: the random seed.
 */
#include <stdlib.h>
#include <string.h>
#include "page_tree.h"
#include "page_alloc.h"
#include "memblock.h"
#include "fail_alloc.h"
#include "host_phys.h"
#include "host_env.h"

#define SLOTS ((u64)(PAGE_SIZE / sizeof(void *)))
#define BITS ((int)__builtin_ctzll(SLOTS))
#define MAXE 1500

typedef unsigned long long ull;

static u64 rng_state;

static u64 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A made-up page pointer for idx (the tree never dereferences its pages). */
static struct page *val(u64 idx, u64 gen)
{
	return (struct page *)(uintptr_t)(((idx * 0x9e3779b97f4a7c15ull) ^ gen) | 8);
}

static u64 free_pages_now(void)
{
	struct page_stats s;

	page_alloc_stats(&s);
	return s.free_pages;
}

/* The model: the entries the tree should hold, unsorted. */
static struct { u64 idx; struct page *pg; } model[MAXE];
static int nmodel;

static int model_find(u64 idx)
{
	for (int i = 0; i < nmodel; i++)
		if (model[i].idx == idx)
			return i;
	return -1;
}

/* What fn saw, in order (page_tree_take and page_tree_for_each). */
static struct { u64 idx; struct page *pg; } seen[MAXE];
static int nseen;
static bool seen_overflow;

static void record(u64 idx, struct page *pg, void *arg)
{
	(void)arg;
	if (nseen == MAXE) {
		seen_overflow = true;
		return;
	}
	seen[nseen].idx = idx;
	seen[nseen++].pg = pg;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Did fn see exactly the model's entries in [from, to), in index order? */
static bool seen_is_model_range(u64 from, u64 to)
{
	u64 want[MAXE];
	int n = 0;

	for (int i = 0; i < nmodel; i++)
		if (model[i].idx >= from && model[i].idx < to)
			want[n++] = model[i].idx;
	qsort(want, (size_t)n, sizeof(want[0]), cmp_u64);
	if (seen_overflow || n != nseen)
		return false;
	for (int i = 0; i < n; i++)
		if (seen[i].idx != want[i] || seen[i].pg != model[model_find(want[i])].pg)
			return false;
	return true;
}

static void test_shape(void)
{
	struct page_tree t = PAGE_TREE_INIT;
	u64 before = free_pages_now();

	tap_ok(!page_tree_get(&t, 0) && !page_tree_get(&t, ~0ull) && page_tree_nodes(&t) == 0 &&
	       page_tree_take(&t, 0, ~0ull, NULL, NULL) == 0 && page_tree_check(&t),
	       "page_tree: an empty tree has no pages and no nodes");
	page_tree_insert(&t, 0, val(0, 0));
	page_tree_insert(&t, SLOTS - 1, val(SLOTS - 1, 0));
	tap_ok(t.height == 1 && page_tree_nodes(&t) == 1 && page_tree_get(&t, SLOTS - 1) == val(SLOTS - 1, 0) &&
	       !page_tree_get(&t, SLOTS) && free_pages_now() == before - 1,
	       "page_tree: indexes 0 and %llu fit one leaf node (one page)", (ull)SLOTS - 1);
	page_tree_insert(&t, SLOTS, val(SLOTS, 0));
	tap_ok(t.height == 2 && page_tree_nodes(&t) == 3 && page_tree_get(&t, 0) == val(0, 0) &&
	       page_tree_get(&t, SLOTS) == val(SLOTS, 0) && t.nr == 3 && page_tree_check(&t),
	       "page_tree: index %llu makes a second level (the old leaf under a new root)", (ull)SLOTS);
	page_tree_insert(&t, 1ull << 62, val(1ull << 62, 0));
	tap_ok(t.height == (62 + BITS) / BITS && page_tree_get(&t, 1ull << 62) == val(1ull << 62, 0) &&
	       !page_tree_get(&t, (1ull << 62) + 1) && !page_tree_get(&t, 1ull << 61) &&
	       page_tree_get(&t, SLOTS) == val(SLOTS, 0) && page_tree_check(&t),
	       "page_tree: index 2^62 makes the tree %d levels tall, the small indexes stay", (62 + BITS) / BITS);
	page_tree_insert(&t, ~0ull - 1, val(~0ull - 1, 0));
	tap_ok(page_tree_get(&t, ~0ull - 1) == val(~0ull - 1, 0) && !page_tree_get(&t, ~0ull) && page_tree_check(&t),
	       "page_tree: index 2^64-2 fits (a tree as tall as 64 bits need)");
	tap_ok(EXPECT_PANIC(page_tree_insert(&t, SLOTS, val(1, 1))) && strstr(host_panic_msg, "already holds"),
	       "page_tree: a second insert at one index panics (%s)", host_panic_msg);
	nseen = 0;
	tap_ok(page_tree_take(&t, 1, (1ull << 62) + 1, record, NULL) == 3 && nseen == 3 && seen[0].idx == SLOTS - 1 &&
	       seen[1].idx == SLOTS && seen[2].idx == 1ull << 62 && page_tree_get(&t, 0) == val(0, 0) &&
	       page_tree_get(&t, ~0ull - 1) && t.nr == 2 && page_tree_check(&t),
	       "page_tree: a take hands over the pages in its range in index order and leaves the rest");
	page_tree_take(&t, 0, ~0ull, NULL, NULL);
	tap_ok(!t.root && t.height == 0 && t.nr == 0 && free_pages_now() == before,
	       "page_tree: taking every page frees every node");
}

/* Each node allocation of an insert that needs a new path, failed in turn. */
static void test_alloc_failure(void)
{
	struct page_tree t = PAGE_TREE_INIT;
	u64 far = 3ull << 40, before, nodes;
	bool ok = true;
	int k;

	page_tree_insert(&t, 5, val(5, 0));
	before = free_pages_now();
	nodes = page_tree_nodes(&t);
	for (k = 1;; k++) {
		fail_alloc_countdown = (u64)k;
		if (page_tree_insert(&t, far, val(far, 0)))
			break;
		ok = ok && t.nr == 1 && !page_tree_get(&t, far) && page_tree_get(&t, 5) == val(5, 0) &&
		     page_tree_check(&t) && free_pages_now() + (page_tree_nodes(&t) - nodes) == before;
	}
	fail_alloc_countdown = 0;
	tap_ok(ok && k > 2 && page_tree_get(&t, far) == val(far, 0) && t.nr == 2,
	       "page_tree: each of the %d node allocations of a far insert failed in turn: "
	       "nothing stored, no node left over but the taller root", k - 1);
	page_tree_take(&t, 0, ~0ull, NULL, NULL);
	tap_ok(!t.root && free_pages_now() == before + 1, "page_tree: no page leaked by the failed inserts");
}

static void test_check_fires(void)
{
	struct page_tree t = PAGE_TREE_INIT;
	void **root, **leaf;

	page_tree_insert(&t, 5 * SLOTS, val(5, 0));
	page_tree_insert(&t, 6 * SLOTS, val(6, 0));
	t.nr++;
	tap_ok(!page_tree_check(&t), "page_tree_check: fires on a page count that does not match the tree");
	t.nr--;
	root = t.root;
	leaf = root[5];
	leaf[0] = NULL;		/* the leaf of index 5*SLOTS is now empty */
	t.nr--;
	tap_ok(!page_tree_check(&t), "page_tree_check: fires on an empty node left in the tree");
	leaf[0] = val(5, 0);
	t.nr++;
	tap_ok(page_tree_check(&t), "page_tree_check: passes the tree once it is mended");
	page_tree_take(&t, 0, ~0ull, NULL, NULL);
}

static void count_page(struct page *pg, void *arg)
{
	(void)pg;
	(*(int *)arg)++;
}

/* page_tree_for_each_page checks a changed tree whole, and trusts one
 * found consistent since its last change (the walk stops at its last page). */
static void test_each_checks_changed(void)
{
	struct page_tree t = PAGE_TREE_INIT;
	int seen = 0;

	page_tree_insert(&t, 5, val(5, 0));
	page_tree_insert(&t, 6 * SLOTS, val(6, 0));
	tap_ok(page_tree_for_each_page(&t, count_page, &seen) && seen == 2 && t.checked,
	       "page_tree_for_each_page: a changed tree is walked whole, found consistent and marked checked");
	t.nr--;		/* a count gone wrong behind the tree's back: trusted until a change */
	seen = 0;
	tap_ok(page_tree_for_each_page(&t, count_page, &seen) && seen == 1,
	       "page_tree_for_each_page: a checked, unchanged tree is trusted: the walk stops at its count");
	page_tree_insert(&t, 7, val(7, 0));
	seen = 0;
	tap_ok(!page_tree_for_each_page(&t, count_page, &seen) && seen == 3 && !t.checked,
	       "page_tree_for_each_page: after an insert the tree is walked whole again and the wrong count found");
	t.nr++;		/* mended */
	seen = 0;
	bool mended = page_tree_for_each_page(&t, count_page, &seen) && t.checked;

	page_tree_take(&t, 0, 6, NULL, NULL);
	tap_ok(mended && !t.checked && page_tree_for_each_page(&t, count_page, &seen) && t.checked,
	       "page_tree_for_each_page: a take also makes the next walk a whole one");
	page_tree_take(&t, 0, ~0ull, NULL, NULL);
}

/* A random index: small, at a level's edge, or anywhere below 2^64 - 1. */
static u64 rnd_index(void)
{
	u64 idx;

	switch (rnd() % 4) {
	case 0:
		return rnd() % 3000;
	case 1: {
		int level = 1 + (int)(rnd() % 5);
		u64 edge = BITS * level >= 64 ? ~0ull : 1ull << (BITS * level);

		idx = edge - 3 + rnd() % 6;
		break;
	}
	case 2:
		idx = rnd() >> (rnd() % 64);
		break;
	default:
		idx = (rnd() % 40) << (rnd() % 50);
	}
	return idx == ~0ull ? idx - 1 : idx;
}

/* ops random operations on a tree of at most cap pages. */
static void test_random(u64 seed, int ops, int cap)
{
	struct page_tree t = PAGE_TREE_INIT;
	u64 before = free_pages_now();
	int bad = 0, takes = 0, walks = 0;
	const char *what = "";

	rng_state = seed | 1;
	nmodel = 0;
	for (int op = 0; op < ops && !bad; op++) {
		u64 r = rnd() % 100, idx = rnd_index();
		int i = model_find(idx);

		if (r < 55 && nmodel < cap) {
			if (i >= 0)
				continue;
			if (!page_tree_insert(&t, idx, val(idx, (u64)op))) {
				bad = 1, what = "an insert failed";
				break;
			}
			model[nmodel].idx = idx;
			model[nmodel++].pg = val(idx, (u64)op);
		} else if (r < 75) {
			if (page_tree_get(&t, idx) != (i >= 0 ? model[i].pg : NULL))
				bad = 1, what = "a lookup gave the wrong page";
		} else if (r < 95) {
			u64 len = rnd() % 4 ? rnd() % (4 * SLOTS) : rnd() >> (rnd() % 64);
			u64 to = idx + len < idx ? ~0ull : idx + len, n;

			nseen = 0, seen_overflow = false;
			n = page_tree_take(&t, idx, to, record, NULL);
			if (n != (u64)nseen || !seen_is_model_range(idx, to))
				bad = 1, what = "a take handed over the wrong pages";
			for (int j = 0; j < nmodel;)
				if (model[j].idx >= idx && model[j].idx < to)
					model[j] = model[--nmodel];
				else
					j++;
			takes++;
		} else {
			nseen = 0, seen_overflow = false;
			page_tree_for_each(&t, record, NULL);
			if (!seen_is_model_range(0, ~0ull))
				bad = 1, what = "a walk saw the wrong pages";
			walks++;
		}
		if (!bad && (t.nr != (u64)nmodel || (op % 64 == 0 && !page_tree_check(&t))))
			bad = 1, what = "page_tree_check failed or the count is off";
	}
	tap_ok(!bad, "page_tree: %d random operations (seed %llu, %d takes, %d walks) match the model%s%s",
	       ops, (ull)seed, takes, walks, bad ? ": " : "", what);
	page_tree_take(&t, 0, ~0ull, NULL, NULL);
	tap_ok(!t.root && free_pages_now() == before, "page_tree: the random tree, emptied, gave back every node");
}

int main(int argc, char **argv)
{
	u64 seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 12345;

	host_phys_init();
	memblock_reset();
	memblock_add(HOST_PHYS_LOW_BASE, HOST_PHYS_LOW_SIZE);
	page_alloc_init();
	test_shape();
	test_alloc_failure();
	test_check_fires();
	test_each_checks_changed();
	/* 64K pages: a node is 8192 slots and fake RAM 1024 pages, so fewer */
	if (PAGE_SIZE == 4096)
		test_random(seed, 100000, MAXE - 1);
	else
		test_random(seed, 10000, 100);
	return tap_done();
}
