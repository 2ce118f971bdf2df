/*
 * page_alloc.h - the buddy allocator for physical page frames.
 *
 * Every page frame of every RAM bank has a struct page, kept in one array
 * per bank (banks may be far apart, so there is no global array). Free
 * memory is kept as blocks of 2^order pages, aligned to their size in PFN
 * space, on one doubly linked list per order. Two free blocks of order k
 * whose PFNs differ only in bit k ("buddies") merge into one of order k+1.
 * A block never crosses a bank boundary.
 *
 * Zeroing policy (see alloc_pages / free_pages): a block is zeroed at most
 * once per allocation. Each free block carries a "known zero" flag so that
 * memory cleared by init_on_free is not cleared again on allocation.
 */
#ifndef MM_PAGE_ALLOC_H
#define MM_PAGE_ALLOC_H

#include "types.h"
#include <asm/memlayout.h>	/* PAGE_SHIFT, PAGE_SIZE: nothing may assume 4096 */

/*
 * Orders 0 .. MAX_ORDER-1. With 4K pages order 9 is 2 MiB and order 18 is
 * 1 GiB, the two hugepage sizes.
 */
#define MAX_ORDER 19

/* struct page flags */
#define PG_RESERVED 0x01u  /* never handed to the allocator (reserved, hole edge) */
#define PG_FREE     0x02u  /* head of a free block; 'order' is valid */
#define PG_ZERO     0x04u  /* with PG_FREE: the whole block is known to be zero */
#define PG_HEAD     0x08u  /* head of an allocated block; 'order' is valid */
#define PG_PREZEROED 0x10u /* allocated head (hugetlb pool): contents known to be zero */
#define PG_CHECKED  0x80u  /* scratch mark used only inside page_alloc_check() */

/*
 * One per page frame. Pages inside a block (not its head) have flags == 0;
 * only the head of a block says what the block is.
 */
struct page {
	struct page *next, *prev;  /* free-list links while PG_FREE */
	int refcount;              /* allocated head: 1 after alloc (for copy-on-write later) */
	u16 flags;                 /* PG_* */
	u8 order;                  /* block order of a PG_FREE or PG_HEAD page */
	u8 bank;                   /* which bank array holds this struct page */
};

/* gfp: what the caller wants from alloc_pages() */
#define GFP_ZERO 0x1u   /* the caller wants zeroed memory */

/* Zeroing policy, set from the bootargs init_on_alloc= / init_on_free=. */
extern bool init_on_alloc;  /* zero every allocation, as if GFP_ZERO were always given */
extern bool init_on_free;   /* zero every block when it is freed */

/* Provided by the arch (host tests: tests/host/host_phys.c). Valid for RAM
 * once the linear map exists. */
void *phys_to_virt(phys_addr_t pa);
phys_addr_t virt_to_phys(const void *va);

/*
 * Build the page arrays from memblock's RAM banks (allocated with
 * memblock_alloc) and give every memblock free range to the buddy lists.
 * Call once the linear map exists and after the last memblock_alloc().
 * Calling it again (host tests, after memblock_reset) starts over.
 */
void page_alloc_init(void);

/*
 * Allocate 2^order contiguous pages, aligned to their size. Returns the head
 * page, or NULL when no block of that order is free. Zeroes the block when
 * GFP_ZERO is given or init_on_alloc is set, unless it is known to be zero.
 * Panics on order >= MAX_ORDER or unknown gfp bits (caller bugs).
 */
struct page *alloc_pages(unsigned gfp, unsigned order);

/*
 * Free a block obtained from alloc_pages() with the same order. Zeroes it
 * first when init_on_free is set. Panics on a double free, an order that
 * differs from the allocation's, or a page that is not an allocated head.
 */
void free_pages(struct page *pg, unsigned order);

phys_addr_t page_to_phys(const struct page *pg);
/* The struct page of a managed page frame, or NULL if pa is in no bank. */
struct page *phys_to_page(phys_addr_t pa);
/* The linear-map address of the page. */
void *page_address(const struct page *pg);

/*
 * A dense number for every struct page: 0 .. page_frame_count() - 1, bank
 * after bank (for checkers that keep one counter per page frame).
 */
unsigned long page_frame_index(const struct page *pg);
unsigned long page_frame_count(void);

/* Order-0 conveniences working with linear-map addresses; NULL when full. */
/*
 * Reference counts of order-0 pages shared between address spaces
 * (copy-on-write after fork, shared anonymous memory). A page comes from
 * alloc_pages() with a count of 1; page_put() frees it when the count
 * drops to 0.
 */
void page_get(struct page *pg);
void page_put(struct page *pg);

/* page_get() / page_put() of each of the n pages in pgs (a page may appear
 * more than once): one call for a batch, e.g. a page table's worth at fork. */
void page_get_many(struct page *const *pgs, unsigned long n);
void page_put_many(struct page *const *pgs, unsigned long n);
int page_count(const struct page *pg);

/* alloc_pages() that also says whether the block holds only zeros (because
 * it was zeroed now, or was known to be zero already). */
struct page *alloc_pages_zero_state(unsigned gfp, unsigned order, bool *is_zero);

/* Turn an allocated block of 2^order pages (count 1) into 2^order separately
 * allocated order-0 pages, each with a count of 1 (splitting a huge page). */
void split_page(struct page *pg, unsigned order);

/* Zero a block now (counted in bytes_zeroed), e.g. a hugepage at first fault. */
void zero_pages(struct page *pg, unsigned order);

/* Free a block the caller knows holds only zeros: init_on_free skips it. */
void free_pages_zeroed(struct page *pg, unsigned order);

void *alloc_page_va(unsigned gfp);
void free_page_va(void *va);

struct page_stats {
	u64 total_pages;              /* pages given to the allocator at init */
	u64 free_pages;               /* pages free now */
	u64 pt_kernel_pages;          /* page-table pages of the kernel */
	u64 pt_user_pages;            /* page-table pages of user address spaces */
	u64 bytes_zeroed;             /* every byte ever zeroed by the allocator */
	u64 free_by_order[MAX_ORDER]; /* number of free BLOCKS of each order */
};

void page_alloc_stats(struct page_stats *out);

/* Page-table page accounting, called by the page-table code (+1 / -1). */
void page_alloc_count_pt(bool user, int delta);

/*
 * Verify the allocator's invariants: every block on list k is a free head
 * of order k, aligned, inside its bank, listed once; the counters match the
 * lists; a scan of every bank finds each page inside exactly one free block,
 * one allocated block, or reserved. Prints what is wrong and returns false.
 * O(number of pages): for tests and debug builds.
 */
bool page_alloc_check(void);

#endif
