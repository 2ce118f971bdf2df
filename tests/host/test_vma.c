/*
 * test_vma.c - host tests of the VMA set (mm/vma.c).
 *
 *  1. targeted edge cases: empty set, gaps that fit exactly at the floor or
 *     ceiling, lengths larger than every gap, merges on both sides and
 *     refused merges, splits at the first and last page, allocation failure;
 *  2. vma_check() fires on deliberately corrupted trees and is quiet again
 *     once they are restored;
 *  3. random operations in three address ranges (at 0, in the middle, at the
 *     top of the address space), each checked against a sorted-array model
 *     after every operation, with vma_check() (every max_gap, height, link)
 *     every CHECK_EVERY operations (1: after each one, since the tree's
 *     updates stop early once nothing above them can change); inserts go
 *     through vma_insert() or, at the place the model says, through
 *     vma_insert_before(), and every gap search's next VMA is checked;
 *  4. a micro-benchmark printed as TAP comments (not asserted).
 *
 * Usage: test_vma [seed]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "vma.h"
#include "page_alloc.h"
#include "host_env.h"

#define P PAGE_SIZE
#define CHECK_EVERY 1

/* ---- fake page allocator: whole pages from malloc ---- */

static bool fail_alloc;
static long pages_in_use;

void *alloc_page_va(unsigned gfp)
{
	void *p;

	if (fail_alloc)
		return NULL;
	p = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	if (!p)
		abort();
	memset(p, (gfp & GFP_ZERO) ? 0 : 0x5a, PAGE_SIZE);
	pages_in_use++;
	return p;
}

void free_page_va(void *va)
{
	free(va);
	pages_in_use--;
}

/* ---- random numbers (xorshift64*) ---- */

static u64 rng_state;

static u64 rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

/* Uniform-ish in [0, n); n > 0. */
static unsigned long rnd_below(unsigned long n)
{
	return (unsigned long)(rnd() % n);
}

/* ---- small helpers ---- */

static const char name_a[] = "/lib/a.so", name_b[] = "/lib/b.so";
static const char name_a2[] = "/lib/a.so";	/* same text, different pointer */

/* Insert [s, e) (in pages) and check that it worked. */
static struct vma *ins(struct mm *mm, unsigned long s, unsigned long e, unsigned flags,
		       const char *name, u64 off)
{
	struct vma *v = vma_insert(mm, s * P, e * P, flags, name, off);

	if (!v) {
		printf("# vma_insert [%lx, %lx) failed\n", s * P, e * P);
		abort();
	}
	return v;
}

static void remove_all(struct mm *mm)
{
	while (mm->vmas)
		vma_remove(mm, mm->vmas);
}

/* vma_check() with its output captured; *msg gets what it printed. */
static bool check_quiet(const struct mm *mm, const char **msg)
{
	bool ok;

	CAPTURE_START();
	ok = vma_check(mm);
	CAPTURE_STOP();
	*msg = host_capture;
	return ok;
}

/* The length of s up to its first newline, for one-line TAP descriptions. */
static int first_line(const char *s)
{
	return (int)strcspn(s, "\n");
}

/* ---- 1. targeted tests ---- */

static void test_empty(void)
{
	struct mm mm = { 0 };

	tap_ok(!vma_find(&mm, 0) && !vma_find(&mm, 0x1000) && !vma_find_from(&mm, 0) &&
	       vma_count(&mm) == 0 && vma_check(&mm), "empty set: nothing found, count 0, check ok");
	tap_ok(vma_find_gap_down(&mm, 4 * P, 100 * P, P, NULL) == 96 * P &&
	       vma_find_gap_up(&mm, 4 * P, 10 * P, 100 * P, NULL) == 10 * P,
	       "empty set: gap down ends at 'below', gap up starts at 'from'");
	tap_ok(vma_find_gap_down(&mm, 100 * P, 100 * P, P, NULL) == 0 &&
	       vma_find_gap_down(&mm, 99 * P, 100 * P, P, NULL) == P &&
	       vma_find_gap_up(&mm, 91 * P, 10 * P, 100 * P, NULL) == 0 &&
	       vma_find_gap_up(&mm, 90 * P, 10 * P, 100 * P, NULL) == 10 * P,
	       "empty set: [floor, below) and [from, ceiling) fit exactly, one page more does not");
	tap_ok(vma_find_gap_down(&mm, 0, 100 * P, P, NULL) == 0 && vma_find_gap_up(&mm, 0, P, 100 * P, NULL) == 0 &&
	       vma_find_gap_down(&mm, P, 5 * P, 10 * P, NULL) == 0 &&
	       vma_find_gap_up(&mm, P, 10 * P, 5 * P, NULL) == 0,
	       "len 0, or floor above below, finds nothing");
	tap_ok(vma_find_gap_down(&mm, P, ~0UL, P, NULL) == ~0UL - P &&
	       vma_find_gap_up(&mm, P, ~0UL - 2 * P, ~0UL, NULL) == ~0UL - 2 * P,
	       "empty set: gaps reach the top of the address space");
}

/* VMAs at pages [10,20) [30,40) [45,50) [70,80): gaps 10, 5, 20 pages between them. */
static void make_four(struct mm *mm)
{
	ins(mm, 10, 20, VM_READ, NULL, 0);
	ins(mm, 70, 80, VM_READ, NULL, 0);
	ins(mm, 30, 40, VM_READ, NULL, 0);
	ins(mm, 45, 50, VM_READ, NULL, 0);
}

static void test_find(void)
{
	struct mm mm = { 0 };

	make_four(&mm);
	tap_ok(vma_count(&mm) == 4 && mm.vmas->start == 10 * P && mm.vmas->next->start == 30 * P &&
	       vma_check(&mm), "inserts out of order give a sorted list");
	tap_ok(!vma_find(&mm, 10 * P - 1) && vma_find(&mm, 10 * P)->start == 10 * P &&
	       vma_find(&mm, 20 * P - 1)->start == 10 * P && !vma_find(&mm, 20 * P) &&
	       !vma_find(&mm, 80 * P) && vma_find(&mm, 79 * P)->start == 70 * P,
	       "vma_find at the edges of VMAs");
	tap_ok(vma_find_from(&mm, 0)->start == 10 * P && vma_find_from(&mm, 20 * P)->start == 30 * P &&
	       vma_find_from(&mm, 39 * P)->start == 30 * P && !vma_find_from(&mm, 80 * P),
	       "vma_find_from returns the first VMA ending above addr");
	remove_all(&mm);
}

/*
 * MM-15: a gap search never places a mapping in the stack guard gap below a
 * VM_GROWSDOWN VMA (G = MM_STACK_GUARD_GAP), and max_gap counts the gap so.
 */
static void test_guard_gap(void)
{
	struct mm mm = { 0 };
	unsigned long g = MM_STACK_GUARD_GAP / P;
	struct vma *next = NULL;

	ins(&mm, 10, 20, VM_READ, NULL, 0);
	ins(&mm, 1000, 1010, VM_READ | VM_GROWSDOWN, NULL, 0);
	tap_ok(vma_find_gap_down(&mm, 10 * P, 1000 * P, P, &next) == (1000 - g - 10) * P &&
	       next && next->start == 1000 * P && vma_check(&mm),
	       "MM-15: gap down stops the guard gap below a VM_GROWSDOWN VMA");
	tap_ok(vma_find_gap_up(&mm, 10 * P, (1000 - g - 5) * P, 1000 * P, NULL) == 0 &&
	       vma_find_gap_up(&mm, 10 * P, (1000 - g - 10) * P, 1000 * P, NULL) == (1000 - g - 10) * P,
	       "MM-15: gap up finds nothing that would reach into the guard gap");
	tap_ok(vma_find_gap_down(&mm, (1000 - g - 20) * P, 1000 * P, 0, NULL) == 20 * P &&
	       vma_find_gap_down(&mm, (1000 - g - 19) * P, 1000 * P, 0, NULL) == 0,
	       "MM-15: max_gap counts the gap less the guard (exact fit, none one page larger)");
	remove_all(&mm);
}

static void test_gaps(void)
{
	struct mm mm = { 0 };

	make_four(&mm);
	/* gap [50,70) is 20 pages; floor exactly at its start */
	tap_ok(vma_find_gap_down(&mm, 20 * P, 75 * P, 50 * P, NULL) == 50 * P &&
	       vma_find_gap_down(&mm, 20 * P, 75 * P, 50 * P + 1, NULL) == 0,
	       "gap down: exact fit at the floor, none one byte higher");
	tap_ok(vma_find_gap_up(&mm, 20 * P, 45 * P, 70 * P, NULL) == 50 * P &&
	       vma_find_gap_up(&mm, 20 * P, 45 * P, 70 * P - 1, NULL) == 0,
	       "gap up: exact fit under the ceiling, none one byte lower");
	tap_ok(vma_find_gap_down(&mm, 10 * P, 100 * P, P, NULL) == 90 * P &&
	       vma_find_gap_down(&mm, 10 * P, 85 * P, P, NULL) == 60 * P &&
	       vma_find_gap_down(&mm, 6 * P, 55 * P, P, NULL) == 24 * P &&
	       vma_find_gap_down(&mm, 5 * P, 60 * P, P, NULL) == 55 * P &&
	       vma_find_gap_down(&mm, 5 * P, 45 * P, 41 * P, NULL) == 0,
	       "gap down: highest fit, skipping gaps that are too small or cut by the bounds");
	tap_ok(vma_find_gap_up(&mm, 10 * P, P, 100 * P, NULL) == 20 * P &&
	       vma_find_gap_up(&mm, 11 * P, P, 100 * P, NULL) == 50 * P &&
	       vma_find_gap_up(&mm, 8 * P, 2 * P, 100 * P, NULL) == 2 * P &&
	       vma_find_gap_up(&mm, 20 * P, P, 100 * P, NULL) == 50 * P &&
	       vma_find_gap_up(&mm, 21 * P, P, 101 * P, NULL) == 80 * P,
	       "gap up: lowest fit, including the one above the last VMA");
	tap_ok(vma_find_gap_down(&mm, 30 * P, 100 * P, P, NULL) == 0 &&
	       vma_find_gap_up(&mm, 30 * P, P, 100 * P, NULL) == 0 &&
	       vma_find_gap_down(&mm, 30 * P, 110 * P, P, NULL) == 80 * P,
	       "len larger than every gap finds nothing (until 'below' leaves room at the top)");
	tap_ok(vma_find_gap_down(&mm, 10 * P, 20 * P, 0, NULL) == 0 &&
	       vma_find_gap_down(&mm, 9 * P, 20 * P, 0, NULL) == P,
	       "gap below the first VMA starts at 0 (and 0 reads as 'none')");
	remove_all(&mm);
	test_guard_gap();
}

static void test_merge(void)
{
	struct mm mm = { 0 };
	struct vma *a, *b, *c, *r;

	a = ins(&mm, 10, 20, VM_READ, NULL, 0x99000);
	c = ins(&mm, 30, 40, VM_READ, NULL, 0x99000);
	b = ins(&mm, 20, 30, VM_READ, NULL, 0x99000);
	r = vma_merge_neighbours(&mm, b);
	tap_ok(r == a && vma_count(&mm) == 1 && a->start == 10 * P && a->end == 40 * P &&
	       a->offset == 0x99000 && !a->next && !a->prev && vma_check(&mm),
	       "anonymous merge with both sides keeps the lower VMA and the common identity");
	(void)c;
	remove_all(&mm);

	a = ins(&mm, 10, 20, VM_READ, NULL, 0);
	b = ins(&mm, 20, 30, VM_READ, NULL, 10 * P);
	tap_ok(vma_merge_neighbours(&mm, b) == b && vma_count(&mm) == 2 && vma_check(&mm),
	       "merge refused: anonymous VMAs with different identities (a moved VMA)");
	remove_all(&mm);

	a = ins(&mm, 10, 20, VM_READ, name_a, 0);
	b = ins(&mm, 20, 30, VM_READ, name_a, 10 * P);
	c = ins(&mm, 30, 40, VM_READ, name_a, 20 * P);
	r = vma_merge_neighbours(&mm, a);
	tap_ok(r == a && vma_count(&mm) == 2 && a->end == 30 * P && a->next == c && vma_check(&mm),
	       "file merge with contiguous offsets (successor only)");
	r = vma_merge_neighbours(&mm, c);
	tap_ok(r == a && vma_count(&mm) == 1 && a->end == 40 * P && a->offset == 0 && vma_check(&mm),
	       "file merge with contiguous offsets (predecessor only)");
	remove_all(&mm);

	a = ins(&mm, 10, 20, VM_READ, name_a, 0);
	b = ins(&mm, 20, 30, VM_READ, name_a, 11 * P);
	c = ins(&mm, 30, 40, VM_READ | VM_WRITE, name_a, 21 * P);
	tap_ok(vma_merge_neighbours(&mm, b) == b && vma_count(&mm) == 3 && b->start == 20 * P &&
	       b->end == 30 * P && vma_check(&mm),
	       "merge refused: offset not contiguous below, flags differ above");
	remove_all(&mm);

	a = ins(&mm, 10, 20, VM_READ, name_a, 0);
	b = ins(&mm, 20, 30, VM_READ, name_a2, 10 * P);
	c = ins(&mm, 31, 40, VM_READ, name_a, 21 * P);
	tap_ok(vma_merge_neighbours(&mm, b) == b && vma_count(&mm) == 3 && vma_check(&mm),
	       "merge refused: a different name pointer below, a hole above");
	tap_ok(!vma_mergeable(a, c) && !vma_mergeable(b, a) && vma_mergeable(b, b->next) == false,
	       "vma_mergeable needs the VMAs to touch in order");
	remove_all(&mm);

	a = ins(&mm, 10, 20, VM_READ, name_b, 0);
	b = ins(&mm, 20, 30, VM_READ, NULL, 10 * P);
	tap_ok(vma_merge_neighbours(&mm, b) == b && vma_count(&mm) == 2,
	       "merge refused between a named and an anonymous VMA");
	remove_all(&mm);
}

static void test_split_adjust(void)
{
	struct mm mm = { 0 };
	struct vma *v, *hi, *lo, *lo2;

	v = ins(&mm, 10, 20, VM_READ, name_a, 5 * P);
	hi = vma_split(&mm, v, 11 * P);
	tap_ok(hi && v->end == 11 * P && hi->start == 11 * P && hi->end == 20 * P &&
	       hi->offset == 6 * P && hi->name == name_a && hi->flags == VM_READ && v->next == hi &&
	       vma_check(&mm), "split at the first page");
	lo = hi;
	hi = vma_split(&mm, lo, 19 * P);
	tap_ok(hi && lo->end == 19 * P && hi->start == 19 * P && hi->end == 20 * P &&
	       hi->offset == 14 * P && vma_count(&mm) == 3 && vma_check(&mm), "split at the last page");
	tap_ok(vma_merge_neighbours(&mm, lo) == v && vma_count(&mm) == 1 && v->end == 20 * P &&
	       v->offset == 5 * P && vma_check(&mm), "merging the pieces back gives the original VMA");
	tap_ok(EXPECT_PANIC(vma_split(&mm, v, 10 * P)) && strstr(host_panic_msg, "a000") &&
	       EXPECT_PANIC(vma_split(&mm, v, 20 * P)),
	       "split at the start or end panics, naming the values (%s)", host_panic_msg);
	tap_ok(EXPECT_PANIC(vma_insert(&mm, 19 * P, 21 * P, 0, NULL, 0)) &&
	       strstr(host_panic_msg, "[13000, 15000) overlaps [a000, 14000)") &&
	       EXPECT_PANIC(vma_insert(&mm, 5 * P, 5 * P, 0, NULL, 0)) && vma_count(&mm) == 1,
	       "overlapping or empty insert panics with the ranges (%s)", host_panic_msg);

	lo = ins(&mm, 30, 40, VM_READ, name_a, 30 * P);
	vma_adjust(&mm, lo, 25 * P, 45 * P);
	hi = ins(&mm, 60, 70, VM_READ, NULL, 7 * P);
	vma_adjust(&mm, hi, 55 * P, 70 * P);
	lo2 = vma_split(&mm, hi, 60 * P);
	tap_ok(hi->offset == 7 * P && lo2 && lo2->offset == 7 * P && vma_check(&mm),
	       "an anonymous VMA's identity stays through vma_adjust and vma_split");
	tap_ok(lo->start == 25 * P && lo->end == 45 * P && lo->offset == 25 * P && vma_check(&mm) &&
	       vma_find_gap_down(&mm, 5 * P, 25 * P, P, NULL) == 20 * P &&
	       vma_find_gap_up(&mm, 6 * P, 11 * P, 100 * P, NULL) == 45 * P,
	       "vma_adjust moves both bounds, the offset and the gaps");
	tap_ok(EXPECT_PANIC(vma_adjust(&mm, lo, 19 * P, 45 * P)) && lo->start == 25 * P &&
	       EXPECT_PANIC(vma_adjust(&mm, v, 10 * P, 26 * P)) && vma_check(&mm),
	       "vma_adjust into a neighbour panics and changes nothing");
	remove_all(&mm);
}

static void test_alloc_failure(void)
{
	struct mm mm = { 0 };
	struct vma *v = ins(&mm, 10, 20, VM_READ, NULL, 0), *r = v;
	int n = 1;

	fail_alloc = true;
	for (unsigned long s = 30; r && n < 1000; s += 2, n++)
		r = vma_insert(&mm, s * P, (s + 1) * P, VM_READ, NULL, 0);
	n--;	/* the last attempt failed */
	tap_ok(!r && vma_count(&mm) == n && vma_check(&mm),
	       "inserts fail cleanly once the slab is empty (%d VMAs made it)", n);
	tap_ok(!vma_split(&mm, v, 15 * P) && v->end == 20 * P && vma_count(&mm) == n &&
	       vma_check(&mm), "a split that cannot allocate leaves the VMA unchanged");
	fail_alloc = false;
	remove_all(&mm);
}

/* Ascending and descending inserts, the worst case for an unbalanced tree. */
static void test_shape(void)
{
	struct mm mm = { 0 };
	const int n = 10000;
	bool ok = true;

	for (int i = 0; i < n; i++)
		ins(&mm, 2 * (unsigned long)i + 1, 2 * (unsigned long)i + 2, VM_READ, NULL, 0);
	ok = vma_check(&mm);
	/* AVL: height < 1.4405 log2(n + 2) - 0.3277, i.e. at most 19 for n = 10000 */
	tap_ok(ok && mm.vma_root->height <= 19,
	       "10000 ascending inserts: tree of height %d (AVL bound 19)", mm.vma_root->height);
	for (int i = 0; i < n; i += 2)
		vma_remove(&mm, vma_find(&mm, (2 * (unsigned long)i + 1) * P));
	tap_ok(vma_check(&mm) && vma_count(&mm) == n / 2 && mm.vma_root->height <= 18,
	       "every other one removed: height %d", mm.vma_root->height);
	remove_all(&mm);
	for (int i = n; i > 0; i--)
		ins(&mm, 2 * (unsigned long)i, 2 * (unsigned long)i + 1, VM_READ, NULL, 0);
	tap_ok(vma_check(&mm) && mm.vma_root->height <= 19 && mm.vmas->start == 2 * P,
	       "10000 descending inserts: height %d", mm.vma_root->height);
	remove_all(&mm);
	tap_ok(!mm.vma_root && !mm.vmas && vma_count(&mm) == 0 && vma_check(&mm),
	       "removing everything leaves an empty set");
}

/* ---- 2. the checker fires on corrupted trees ---- */

/* Corrupt a field, expect vma_check() to fail saying 'what', restore, expect success. */
#define CORRUPT(mm, field, bad, what)                                                    \
	do {                                                                             \
		__typeof__(field) saved_ = (field);                                      \
		const char *msg_;                                                        \
		bool bad_ok_, good_ok_;                                                  \
		(field) = (bad);                                                         \
		bad_ok_ = check_quiet(mm, &msg_);                                        \
		tap_ok(!bad_ok_ && strstr(msg_, what) != NULL,                           \
		       "vma_check catches %s: %.*s", #field " = " #bad, first_line(msg_), \
		       msg_);                                                           \
		(field) = saved_;                                                        \
		good_ok_ = check_quiet(mm, &msg_);                                       \
		if (!good_ok_)                                                           \
			printf("# after restoring: %s\n", msg_);                         \
		tap_ok(good_ok_, "and is quiet once %s is restored", #field);            \
	} while (0)

static void test_check_fires(void)
{
	struct mm mm = { 0 };
	struct vma *root, *leaf, *mid, *inner;
	const char *msg;
	bool ok;

	for (int i = 0; i < 200; i++)
		ins(&mm, 4 * (unsigned long)i + 1 + (i % 2), 4 * (unsigned long)i + 3 + (i % 2),
		    VM_READ, NULL, 0);	/* gaps alternate between 3 and 1 pages */
	tap_ok(vma_check(&mm), "a 200-VMA tree passes vma_check");
	root = mm.vma_root;
	for (leaf = root; leaf->left; leaf = leaf->left)
		;
	mid = vma_find(&mm, 297 * P);	/* [297, 299), then a 3-page gap */
	inner = root->left;	/* has a parent and two children */
	CORRUPT(&mm, mid->end, mid->next->start + P, "overlaps");
	CORRUPT(&mm, mid->end, mid->start, "empty");
	CORRUPT(&mm, root->height, root->height + 1, "height");
	CORRUPT(&mm, leaf->max_gap, leaf->max_gap + 1, "max_gap");
	/* the bug vma_adjust() exists to prevent: moving an end behind the tree's back */
	CORRUPT(&mm, mid->end, mid->end - P, "max_gap");
	CORRUPT(&mm, inner->parent, NULL, "parent");
	CORRUPT(&mm, mid->next, mid->next->next, "list");
	CORRUPT(&mm, mid->prev, NULL, "prev");
	CORRUPT(&mm, mm.vmas, mm.vmas->next, "list");
	CORRUPT(&mm, mm.vma_last, mm.vma_last->prev, "vma_last");
	CORRUPT(&mm, mm.vma_last, NULL, "vma_last");
	CORRUPT(&mm, mm.nvmas, 201, "nvmas");
	CORRUPT(&mm, mm.nvmas, 199, "nvmas");
	CORRUPT(&mm, leaf->left, root, "cycle");
	CORRUPT(&mm, inner->start, inner->prev->start, "overlaps");
	remove_all(&mm);

	/*
	 * A chain of three right children: a valid BST, list, heights and gaps,
	 * but not AVL-balanced. Built by hand, since the real code cannot make it.
	 */
	struct vma n[3] = { 0 };
	struct mm fake = { 0 };

	for (int i = 0; i < 3; i++) {
		n[i].start = (10 + 10 * (unsigned long)i) * P;
		n[i].end = n[i].start + 5 * P;
		n[i].prev = i ? &n[i - 1] : NULL;
		n[i].next = i < 2 ? &n[i + 1] : NULL;
		n[i].right = i < 2 ? &n[i + 1] : NULL;
		n[i].parent = i ? &n[i - 1] : NULL;
		n[i].height = 3 - i;
		n[i].max_gap = i ? 5 * P : 10 * P;
	}
	fake.vmas = fake.vma_root = &n[0];
	fake.vma_last = &n[2];
	fake.nvmas = 3;
	ok = check_quiet(&fake, &msg);
	tap_ok(!ok && strstr(msg, "unbalanced") && !strstr(msg, "height"),
	       "vma_check catches a chain that is a valid BST but not balanced: %.*s",
	       first_line(msg), msg);
	n[1].left = &n[0];	/* rotate it into a balanced tree: n[1] at the root */
	n[1].right = &n[2];
	n[1].parent = NULL;
	n[0].right = NULL;
	n[0].parent = &n[1];
	n[0].height = 1;
	n[1].height = 2;
	n[1].max_gap = 10 * P;
	fake.vma_root = &n[1];
	ok = check_quiet(&fake, &msg);
	tap_ok(ok, "and accepts it once rotated %s", msg);
}

/* ---- 3. random operations against a model ---- */

struct mref {
	unsigned long start, end;
	unsigned flags;
	const char *name;
	u64 offset;
	struct vma *v;
};

#define MODEL_MAX 8192
static struct mref model[MODEL_MAX];
static int nmodel;
static unsigned long uni_lo, uni_hi;	/* the random VMAs live in [uni_lo, uni_hi) */

/* What a phase really exercised, printed as a TAP comment. */
static struct {
	long inserts, splits, merges, named_merges, finds, finds_hit, gaps, gaps_found;
} stats;

static void model_insert_at(int i, struct mref r)
{
	memmove(&model[i + 1], &model[i], (size_t)(nmodel - i) * sizeof(model[0]));
	model[i] = r;
	nmodel++;
}

static void model_delete_at(int i)
{
	memmove(&model[i], &model[i + 1], (size_t)(nmodel - i - 1) * sizeof(model[0]));
	nmodel--;
}

/* Index of the first model VMA that ends above addr (nmodel if none). */
static int model_from(unsigned long addr)
{
	int lo = 0, hi = nmodel;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (model[mid].end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Free range below model VMA i (i == nmodel: above the last), unbounded.
 * With search set, the range a gap search may use: it stops the stack
 * guard gap short of a VM_GROWSDOWN VMA (MM-15), so it may be empty.
 */
static void model_gap(int i, unsigned long *lo, unsigned long *hi, bool search)
{
	*lo = i ? model[i - 1].end : 0;
	*hi = i < nmodel ? model[i].start : ~0UL;
	if (search && i < nmodel && (model[i].flags & VM_GROWSDOWN))
		*hi = *hi > MM_STACK_GUARD_GAP ? *hi - MM_STACK_GUARD_GAP : 0;
}

/* [glo, ghi) cut to [lo, hi): true if it holds len bytes. */
static bool cut_fits(unsigned long *glo, unsigned long *ghi, unsigned long lo, unsigned long hi,
		     unsigned long len)
{
	*glo = MAX(*glo, lo);
	*ghi = MIN(*ghi, hi);
	return *ghi > *glo && *ghi - *glo >= len;
}

static unsigned long model_gap_down(unsigned long len, unsigned long below, unsigned long floor)
{
	unsigned long lo, hi;

	if (!len)
		return 0;
	for (int i = nmodel; i >= 0; i--) {
		model_gap(i, &lo, &hi, true);
		if (cut_fits(&lo, &hi, floor, below, len))
			return hi - len;
	}
	return 0;
}

static unsigned long model_gap_up(unsigned long len, unsigned long from, unsigned long ceiling)
{
	unsigned long lo, hi;

	if (!len)
		return 0;
	for (int i = 0; i <= nmodel; i++) {
		model_gap(i, &lo, &hi, true);
		if (cut_fits(&lo, &hi, from, ceiling, len))
			return lo;
	}
	return 0;
}

static bool model_mergeable(const struct mref *a, const struct mref *b)
{
	return a->end == b->start && a->flags == b->flags && a->name == b->name &&
	       (a->name ? a->offset + (a->end - a->start) : a->offset) == b->offset;
}

/* Does the set equal the model, field by field and pointer by pointer? */
static bool model_matches(const struct mm *mm, const char *op, long step)
{
	const struct vma *v = mm->vmas;
	int i = 0;

	for (; v && i < nmodel; v = v->next, i++) {
		const struct mref *r = &model[i];

		if (v != r->v || v->start != r->start || v->end != r->end || v->flags != r->flags ||
		    v->name != r->name || v->offset != r->offset) {
			printf("# step %ld (%s): VMA %d is [%lx, %lx) f %x off %llx, model [%lx, %lx) "
			       "f %x off %llx\n", step, op, i, v->start, v->end, v->flags,
			       (unsigned long long)v->offset, r->start, r->end, r->flags,
			       (unsigned long long)r->offset);
			return false;
		}
	}
	if (v || i != nmodel || vma_count(mm) != nmodel) {
		printf("# step %ld (%s): set has %d VMAs, model %d\n", step, op, vma_count(mm), nmodel);
		return false;
	}
	return true;
}

/* A random address near the universe, sometimes at the extremes. */
static unsigned long rnd_addr(void)
{
	unsigned long span = uni_hi - uni_lo, a;

	switch (rnd_below(20)) {
	case 0:
		return 0;
	case 1:
		return ~0UL;
	case 2:
		return (unsigned long)rnd();
	default:
		a = uni_lo + rnd_below(span + 4 * P) - 2 * P;	/* may wrap at the extremes */
		return rnd_below(2) ? a & ~(P - 1) : a;
	}
}

static unsigned long rnd_len(void)
{
	switch (rnd_below(20)) {
	case 0:
		return 0;
	case 1:
		return (unsigned long)rnd();
	case 2:
		return 1 + rnd_below(8 * P);
	case 3:
		return (1 + rnd_below((uni_hi - uni_lo) / P)) * P;
	default:
		return (1 + rnd_below(8)) * P;
	}
}

/* The outcome of one random step: false on a mismatch (already reported). */
typedef bool (*step_fn)(struct mm *mm, long step);

static bool step_insert(struct mm *mm, long step)
{
	unsigned long lo, hi, pages, s, e;
	int i = (int)rnd_below((unsigned long)nmodel + 1);
	struct mref r;
	struct vma *v;

	(void)step;
	model_gap(i, &lo, &hi, false);
	lo = MAX(lo, uni_lo);
	hi = MIN(hi, uni_hi);
	if (hi <= lo)
		return true;	/* no room there */
	pages = 1 + rnd_below(MIN(16UL, (hi - lo) / P));
	switch (rnd_below(3)) {
	case 0:
		s = lo;
		break;
	case 1:
		s = hi - pages * P;
		break;
	default:
		s = lo + rnd_below((hi - lo) / P - pages + 1) * P;
	}
	e = s + pages * P;
	r = (struct mref){ s, e, rnd_below(4) ? VM_READ : VM_READ | VM_WRITE, NULL,
			   rnd_below(2) * P, NULL };
	if (!rnd_below(8))
		r.flags |= VM_GROWSDOWN;	/* its gap is cut by the guard gap */
	if (rnd_below(5) >= 3)
		r.name = rnd_below(2) ? name_a : name_b;
	if (r.name)
		r.offset = rnd_below(64) * P;
	if (r.name && i && rnd_below(2))	/* often continue the file of the VMA below */
		r.offset = model[i - 1].offset + (s - model[i - 1].start);
	if (rnd_below(2))
		v = vma_insert(mm, s, e, r.flags, r.name, r.offset);
	else if ((v = vma_prepare()))
		v = vma_insert_before(mm, v, i < nmodel ? model[i].v : NULL, s, e, r.flags, r.name,
				      r.offset);
	if (!v) {
		printf("# step %ld: insert [%lx, %lx) failed\n", step, s, e);
		return false;
	}
	r.v = v;
	stats.inserts++;
	model_insert_at(i, r);
	return true;
}

static bool step_remove(struct mm *mm, long step)
{
	int i;

	(void)step;
	if (!nmodel)
		return true;
	i = (int)rnd_below((unsigned long)nmodel);
	vma_remove(mm, model[i].v);
	model_delete_at(i);
	return true;
}

static bool step_split(struct mm *mm, long step)
{
	int i;
	unsigned long pages, addr;
	struct mref r;
	struct vma *hi;

	if (!nmodel)
		return true;
	i = (int)rnd_below((unsigned long)nmodel);
	pages = (model[i].end - model[i].start) / P;
	if (pages < 2)
		return true;
	addr = model[i].start + (1 + rnd_below(pages - 1)) * P;
	hi = vma_split(mm, model[i].v, addr);
	if (!hi) {
		printf("# step %ld: split at %lx failed\n", step, addr);
		return false;
	}
	stats.splits++;
	r = model[i];
	r.start = addr;
	if (r.name)
		r.offset += addr - model[i].start;
	r.v = hi;
	model[i].end = addr;
	model_insert_at(i + 1, r);
	if (model[i].v->next != hi) {
		printf("# step %ld: split's upper half is not next\n", step);
		return false;
	}
	return true;
}

static bool step_merge(struct mm *mm, long step)
{
	int i;
	struct vma *got;

	if (!nmodel)
		return true;
	i = (int)rnd_below((unsigned long)nmodel);
	got = vma_merge_neighbours(mm, model[i].v);
	if (i && model_mergeable(&model[i - 1], &model[i])) {
		stats.merges++;
		stats.named_merges += model[i].name != NULL;
		model[i - 1].end = model[i].end;
		model_delete_at(i);
		i--;
	}
	if (i + 1 < nmodel && model_mergeable(&model[i], &model[i + 1])) {
		stats.merges++;
		stats.named_merges += model[i].name != NULL;
		model[i].end = model[i + 1].end;
		model_delete_at(i + 1);
	}
	if (got != model[i].v) {
		printf("# step %ld: merge returned %p, expected %p\n", step, (void *)got,
		       (void *)model[i].v);
		return false;
	}
	return true;
}

static bool step_adjust(struct mm *mm, long step)
{
	int i;
	unsigned long lo, hi, s, e;

	(void)step;
	if (!nmodel)
		return true;
	i = (int)rnd_below((unsigned long)nmodel);
	lo = MAX(i ? model[i - 1].end : 0, uni_lo);
	hi = MIN(i + 1 < nmodel ? model[i + 1].start : ~0UL, uni_hi);
	s = lo + rnd_below((model[i].end - P - lo) / P + 1) * P;
	e = s + (1 + rnd_below((hi - s) / P)) * P;
	vma_adjust(mm, model[i].v, s, e);
	if (model[i].name)
		model[i].offset += s - model[i].start;
	model[i].start = s;
	model[i].end = e;
	return true;
}

static bool step_find(struct mm *mm, long step)
{
	unsigned long addr = rnd_addr();
	int i = model_from(addr);
	struct vma *want_from = i < nmodel ? model[i].v : NULL;
	struct vma *want = want_from && want_from->start <= addr ? want_from : NULL;
	struct vma *got = vma_find(mm, addr), *got_from = vma_find_from(mm, addr);

	stats.finds++;
	stats.finds_hit += want != NULL;

	if (got != want || got_from != want_from) {
		printf("# step %ld: find(%lx) = %p, want %p; find_from = %p, want %p\n", step, addr,
		       (void *)got, (void *)want, (void *)got_from, (void *)want_from);
		return false;
	}
	return true;
}

static bool step_gap(struct mm *mm, long step)
{
	unsigned long len = rnd_len(), a = rnd_addr(), b = rnd_addr();
	unsigned long lo = MIN(a, b), hi = MAX(a, b), got, want;
	bool down = rnd_below(2);
	struct vma *next = (struct vma *)&next, *want_next;	/* a value no search returns */
	int i;

	if (!rnd_below(10)) {	/* sometimes inverted bounds */
		lo = MAX(a, b);
		hi = MIN(a, b);
	}
	got = down ? vma_find_gap_down(mm, len, hi, lo, &next) : vma_find_gap_up(mm, len, lo, hi, &next);
	want = down ? model_gap_down(len, hi, lo) : model_gap_up(len, lo, hi);
	stats.gaps++;
	stats.gaps_found += want != 0;
	if (got != want) {
		printf("# step %ld: gap_%s(len %lx, [%lx, %lx)) = %lx, want %lx\n", step,
		       down ? "down" : "up", len, lo, hi, got, want);
		return false;
	}
	if (!got)
		return true;
	i = model_from(got);	/* [got, got + len) is free: the first VMA ending above got follows it */
	want_next = i < nmodel ? model[i].v : NULL;
	if (next != want_next) {
		printf("# step %ld: gap_%s(len %lx) = %lx with next %p, want %p\n", step,
		       down ? "down" : "up", len, got, (void *)next, (void *)want_next);
		return false;
	}
	return true;
}

static const struct {
	step_fn fn;
	const char *name;
	int weight;
} steps[] = {
	{ step_insert, "insert", 26 }, { step_remove, "remove", 10 }, { step_split, "split", 10 },
	{ step_merge, "merge", 8 },    { step_adjust, "adjust", 6 },  { step_find, "find", 20 },
	{ step_gap, "gap", 20 },
};

/* Run nops random steps in [lo, lo + npages pages); returns the steps that passed. */
static long random_phase(const char *label, unsigned long lo, unsigned long npages, long nops)
{
	struct mm mm = { 0 };
	int total = 0, maxn = 0;
	long step;

	uni_lo = lo;
	uni_hi = lo + npages * P;
	nmodel = 0;
	memset(&stats, 0, sizeof(stats));
	for (size_t k = 0; k < ARRAY_SIZE(steps); k++)
		total += steps[k].weight;
	for (step = 0; step < nops; step++) {
		int w = (int)rnd_below((unsigned long)total);
		size_t k = 0;

		while (w >= steps[k].weight)
			w -= steps[k++].weight;
		if (!steps[k].fn(&mm, step) || !model_matches(&mm, steps[k].name, step))
			break;
		if (step % CHECK_EVERY == 0 && !vma_check(&mm)) {
			printf("# step %ld (%s): vma_check failed\n", step, steps[k].name);
			break;
		}
		maxn = MAX(maxn, nmodel);
	}
	tap_ok(step == nops && vma_check(&mm), "random %s: %ld/%ld steps match the model "
	       "(up to %d VMAs, height %d)", label, step, nops, maxn,
	       mm.vma_root ? mm.vma_root->height : 0);
	printf("# %ld inserts, %ld splits, %ld merges (%ld of file VMAs), %ld/%ld finds hit, "
	       "%ld/%ld gap searches found one\n", stats.inserts, stats.splits, stats.merges,
	       stats.named_merges, stats.finds_hit, stats.finds, stats.gaps_found, stats.gaps);
	remove_all(&mm);
	return step;
}

/* ---- 4. micro-benchmark ---- */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The old list search, for comparison: highest fit walking down from the top. */
static unsigned long list_gap_down(const struct mm *mm, unsigned long len, unsigned long below)
{
	const struct vma *v = mm->vmas;

	while (v && v->next)
		v = v->next;
	for (; v; v = v->prev) {
		unsigned long hi = v->next ? MIN(v->next->start, below) : below;

		if (v->end < hi && hi - v->end >= len)
			return hi - len;
	}
	return 0;
}

/*
 * n one-page VMAs at pages 2, 4, 6, ... with one-page holes, except one
 * three-page hole in the middle; time insert+remove in random holes of the
 * lower half and the search for three pages, which only that hole holds.
 */
static void bench(int n, double out[3])
{
	enum { ITER = 20000, LIST_ITER = 2000 };
	static unsigned long holes[ITER];
	struct mm mm = { 0 };
	unsigned long big = 0, pg = 2, below, sum = 0;
	double t;

	for (int i = 0; i < n; i++) {
		ins(&mm, pg, pg + 1, VM_READ, NULL, 0);
		if (i == n / 2)
			big = pg + 1;	/* the hole [pg + 1, pg + 4) */
		pg += i == n / 2 ? 4 : 2;
	}
	below = (pg - 1) * P;	/* the end of the last VMA: no room above it */
	for (int i = 0; i < ITER; i++)
		holes[i] = 3 + 2 * rnd_below((unsigned long)n / 2 - 1);
	t = now_ns();
	for (int i = 0; i < ITER; i++)
		vma_remove(&mm, vma_insert(&mm, holes[i] * P, (holes[i] + 1) * P, VM_READ, NULL, 0));
	out[0] = (now_ns() - t) / ITER;
	t = now_ns();
	for (int i = 0; i < ITER; i++)
		sum += vma_find_gap_down(&mm, 3 * P, below, P, NULL);
	out[1] = (now_ns() - t) / ITER;
	t = now_ns();
	for (int i = 0; i < LIST_ITER; i++)
		sum -= list_gap_down(&mm, 3 * P, below);
	out[2] = (now_ns() - t) / LIST_ITER;
	if (sum != (unsigned long)(ITER - LIST_ITER) * big * P || !vma_check(&mm))
		printf("# bench: unexpected result (hole at page %lu)\n", big);
	remove_all(&mm);
}

static void run_bench(void)
{
	double small[3], large[3];

#ifdef __SANITIZE_ADDRESS__
	const char *build = "ASan build";
#else
	const char *build = "no sanitizer";
#endif

	bench(10, small);
	bench(10000, large);
	printf("# bench (ns per op, %s):      10 VMAs   10000 VMAs\n", build);
	printf("#   insert + remove                  %9.0f    %9.0f\n", small[0], large[0]);
	printf("#   gap search, tree                 %9.0f    %9.0f\n", small[1], large[1]);
	printf("#   gap search, list walk (old code) %9.0f    %9.0f\n", small[2], large[2]);
}

int main(int argc, char **argv)
{
	u64 seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 0x5eed1234abcdULL;
	unsigned long top = ~0UL & ~(P - 1);	/* the highest possible end */
	long steps_done = 0;
	double t = now_ns();

	rng_state = seed ? seed : 1;
	printf("# seed %#llx\n", (unsigned long long)seed);
	test_empty();
	test_find();
	test_gaps();
	test_merge();
	test_split_adjust();
	test_alloc_failure();
	test_shape();
	test_check_fires();
	steps_done += random_phase("at 0", 0, 1024, 20000);
	steps_done += random_phase("in the middle", 0x40000000UL, 4096, 80000);
	steps_done += random_phase("at the top", top - 1024 * P, 1024, 20000);
	printf("# %ld random steps in %.2f s\n", steps_done, (now_ns() - t) / 1e9);
	run_bench();
	return tap_done();
}
