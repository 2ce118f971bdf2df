/*
 * page_tree.c - the radix tree of page_tree.h.
 *
 * A node at level L (1 = leaf) covers 2^(BITS*L) indexes from its base:
 * slot s of it covers the 2^(BITS*(L-1)) indexes from base + s * that.
 * The root's base is 0, so an index's slot at level L is its bits
 * [BITS*(L-1), BITS*L). With 9 bits a level, 3 levels cover 1 GiB of
 * 4 KiB pages and 8 levels every 64-bit index.
 */
#include "page_tree.h"
#include "page_alloc.h"
#include "printk.h"
#include "kstring.h"

#define SLOTS	((u64)(PAGE_SIZE / sizeof(void *)))
#define BITS	((int)__builtin_ctzll(SLOTS))

_Static_assert((SLOTS & (SLOTS - 1)) == 0, "a node holds a power of two of slots");

/* Does a tree of this height hold index idx? */
static bool fits(int height, u64 idx)
{
	return height > 0 && (BITS * height >= 64 || (idx >> (BITS * height)) == 0);
}

/* idx's slot in a node at level (BITS * (level - 1) < 64 in every tree). */
static u64 slot_of(u64 idx, int level)
{
	return (idx >> (BITS * (level - 1))) & (SLOTS - 1);
}

static bool node_empty(void *const *node)
{
	for (u64 s = 0; s < SLOTS; s++)
		if (node[s])
			return false;
	return true;
}

struct page *page_tree_get(const struct page_tree *t, u64 idx)
{
	void *const *node = t->root;

	if (!node || !fits(t->height, idx))
		return NULL;
	for (int level = t->height; level > 1; level--) {
		node = node[slot_of(idx, level)];
		if (!node)
			return NULL;
	}
	return node[slot_of(idx, 1)];
}

/* Make the tree tall enough for idx: each new root has the old one in
 * slot 0 (an empty tree only records the height). False when out of memory. */
static bool grow(struct page_tree *t, u64 idx)
{
	while (!fits(t->height, idx)) {
		if (t->root) {
			void **top = alloc_page_va(GFP_ZERO);

			if (!top)
				return false;
			top[0] = t->root;
			t->root = top;
		}
		t->height++;
	}
	return true;
}

bool page_tree_insert(struct page_tree *t, u64 idx, struct page *pg)
{
	void **where = &t->root;	/* the slot that holds the next node down */

	t->checked = false;
	if (!grow(t, idx))
		return false;
	for (int level = t->height; level >= 1; level--) {
		if (!*where && !(*where = alloc_page_va(GFP_ZERO))) {
			page_tree_take(t, idx, idx + 1, NULL, NULL);	/* free the path made so far */
			return false;
		}
		where = (void **)*where + slot_of(idx, level);
	}
	if (*where)
		panic("page_tree_insert: index %llu already holds a page", (unsigned long long)idx);
	*where = pg;
	t->nr++;
	return true;
}

/* page_tree_take() inside node (at level, covering indexes from base) for
 * [from, last], which overlaps it: empties the slots, frees child nodes
 * left empty. Returns how many pages it took. */
static u64 take_node(struct page_tree *t, void **node, int level, u64 base, u64 from, u64 last,
		     void (*fn)(u64, struct page *, void *), void *arg)
{
	int shift = BITS * (level - 1);
	u64 s0 = from > base ? (from - base) >> shift : 0;
	u64 s1 = MIN((last - base) >> shift, SLOTS - 1);
	u64 n = 0;

	for (u64 s = s0; s <= s1; s++) {
		void *e = node[s];
		u64 lo = base + (s << shift);

		if (!e)
			continue;
		if (level == 1) {
			node[s] = NULL;
			t->nr--;
			n++;
			if (fn)
				fn(lo, e, arg);
			continue;
		}
		n += take_node(t, e, level - 1, lo, from, last, fn, arg);
		if (node_empty(e)) {
			node[s] = NULL;
			free_page_va(e);
		}
	}
	return n;
}

u64 page_tree_take(struct page_tree *t, u64 from, u64 to,
		   void (*fn)(u64 idx, struct page *pg, void *arg), void *arg)
{
	u64 n;

	if (!t->root || from >= to || !fits(t->height, from))
		return 0;
	t->checked = false;
	n = take_node(t, t->root, t->height, 0, from, to - 1, fn, arg);
	if (node_empty(t->root)) {
		free_page_va(t->root);
		t->root = NULL;
		t->height = 0;
	}
	return n;
}

/* Zero [off, off + n) inside one page, if the tree has that page. */
static void zero_in_page(const struct page_tree *t, u64 off, u64 n)
{
	struct page *pg = page_tree_get(t, off / PAGE_SIZE);

	if (pg && n)
		memset((u8 *)page_address(pg) + off % PAGE_SIZE, 0, n);
}

void page_tree_punch(struct page_tree *t, u64 off, u64 end,
		     void (*fn)(u64 idx, struct page *pg, void *arg), void *arg)
{
	u64 first = (off + PAGE_SIZE - 1) / PAGE_SIZE, last = end / PAGE_SIZE;

	if (off >= end)
		return;
	if (first > last) {	/* inside one page */
		zero_in_page(t, off, end - off);
		return;
	}
	zero_in_page(t, off, first * PAGE_SIZE - off);
	page_tree_take(t, first, last, fn, arg);
	zero_in_page(t, last * PAGE_SIZE, end - last * PAGE_SIZE);
}

/*
 * Call fn (if any) for every page under node, lowest index first, until
 * *left pages have been seen (a trusted tree's count), or all of them if
 * left is NULL. Returns how many there are, or -1 if node or a node under
 * it is empty (every page is visited all the same). One pass over each
 * node's slots.
 */
static s64 walk_node(void *const *node, int level, u64 base, u64 *left,
		     void (*fn)(u64, struct page *, void *), void *arg)
{
	int shift = BITS * (level - 1);
	bool holey = false;
	s64 n = 0;

	for (u64 s = 0; s < SLOTS && (!left || *left); s++) {
		if (!node[s])
			continue;
		if (level == 1) {
			if (fn)
				fn(base + s, node[s], arg);
			if (left)
				(*left)--;
			n++;
		} else {
			s64 k = walk_node(node[s], level - 1, base + (s << shift), left, fn, arg);

			holey |= k < 0;
			n += k < 0 ? 0 : k;
		}
	}
	return holey || n == 0 ? -1 : n;
}

/*
 * Walk the tree; true if it is consistent (see page_tree_check). With
 * trust, a tree marked checked is walked only up to its last page and
 * taken as consistent; a whole walk that finds it so marks it checked.
 */
static bool walk_tree(struct page_tree *t, bool trust, void (*fn)(u64, struct page *, void *), void *arg)
{
	u64 left = t->nr;

	if (!t->root)
		return t->nr == 0;
	if (trust && t->checked) {
		walk_node(t->root, t->height, 0, &left, fn, arg);
		return true;
	}
	t->checked = t->height > 0 && walk_node(t->root, t->height, 0, NULL, fn, arg) == (s64)t->nr;
	return t->checked;
}

void page_tree_for_each(const struct page_tree *t,
			void (*fn)(u64 idx, struct page *pg, void *arg), void *arg)
{
	if (t->root)
		walk_node(t->root, t->height, 0, NULL, fn, arg);
}

struct each_page {
	void (*fn)(struct page *pg, void *arg);
	void *arg;
};

static void each_page(u64 idx, struct page *pg, void *arg)
{
	struct each_page *e = arg;

	(void)idx;
	e->fn(pg, e->arg);
}

bool page_tree_for_each_page(struct page_tree *t, void (*fn)(struct page *pg, void *arg), void *arg)
{
	struct each_page e = { fn, arg };

	return walk_tree(t, true, each_page, &e);
}

static u64 count_nodes(void *const *node, int level)
{
	u64 n = 1;

	if (level > 1)
		for (u64 s = 0; s < SLOTS; s++)
			if (node[s])
				n += count_nodes(node[s], level - 1);
	return n;
}

u64 page_tree_nodes(const struct page_tree *t)
{
	return t->root ? count_nodes(t->root, t->height) : 0;
}

bool page_tree_check(struct page_tree *t)
{
	return walk_tree(t, false, NULL, NULL);
}
