/*
 * page_tree.h - a sparse index from a 64-bit page number to a struct page:
 * the pages of a file (fs/pagecache.c) or a memfd (kernel/memfd.c).
 *
 * A radix tree of one-page nodes, each a table of PAGE_SIZE / sizeof(void *)
 * pointers (512 with 4 KiB pages and 8-byte pointers): a leaf node's slots
 * hold pages, an inner node's slots hold nodes. The tree is as tall as its
 * largest index needs, so a file of one page costs one node and any index
 * up to 2^64 - 2 fits (a take's end is exclusive), as in Linux's page cache (an xarray). A node is freed
 * when its last slot empties. No lock of its own: the kernel lock keeps
 * the kernel on one CPU at a time (docs/DESIGN.md).
 */
#ifndef MM_PAGE_TREE_H
#define MM_PAGE_TREE_H

#include "types.h"

struct page;

struct page_tree {
	void *root;	/* the top node, NULL when the tree is empty */
	int height;	/* levels of nodes under root (1: root is a leaf) */
	u64 nr;		/* pages present */
	bool checked;	/* found consistent by a walk, and not changed since */
};

/* An empty tree (a zeroed struct page_tree is one too). */
#define PAGE_TREE_INIT { NULL, 0, 0, false }

/* The page at idx, or NULL for a hole. */
struct page *page_tree_get(const struct page_tree *t, u64 idx);

/*
 * Store pg at idx, which must be a hole (panics if not). Makes the nodes
 * on the way; false, with nothing stored, when one cannot be allocated
 * (nodes made on the way stay until the tree empties).
 */
bool page_tree_insert(struct page_tree *t, u64 idx, struct page *pg);

/*
 * Take every page in [from, to) out of the tree, lowest index first, and
 * hand each to fn(idx, pg, arg) after its slot is emptied (fn must not
 * change the tree). Nodes left empty are freed. Returns how many pages
 * were taken.
 */
u64 page_tree_take(struct page_tree *t, u64 from, u64 to,
		   void (*fn)(u64 idx, struct page *pg, void *arg), void *arg);

/*
 * A hole punched in the bytes [off, end) of a file whose pages t holds:
 * the parts of pages at the hole's ends are zeroed in place, the whole
 * pages inside it are taken out (page_tree_take(), fn as there).
 */
void page_tree_punch(struct page_tree *t, u64 off, u64 end,
		     void (*fn)(u64 idx, struct page *pg, void *arg), void *arg);

/* Call fn(idx, pg, arg) for every page in the tree, lowest index first. */
void page_tree_for_each(const struct page_tree *t,
			void (*fn)(u64 idx, struct page *pg, void *arg), void *arg);

/*
 * The same with fn(pg, arg): the index left out, for the address-space
 * checker. It checks the tree as page_tree_check() does, in the same one
 * pass, and returns what that would; a tree already found consistent and
 * not changed since is trusted instead: the walk stops at its last page.
 */
bool page_tree_for_each_page(struct page_tree *t, void (*fn)(struct page *pg, void *arg), void *arg);

/* How many nodes the tree holds (its own memory, in pages). */
u64 page_tree_nodes(const struct page_tree *t);

/* Is the tree consistent: nr counts its pages, no node is empty, an empty
 * tree has no root? Always a whole walk; a consistent tree is marked
 * checked. (tests/host/test_page_tree.c proves it fires.) */
bool page_tree_check(struct page_tree *t);

#endif
