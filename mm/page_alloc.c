/*
 * page_alloc.c - buddy allocator over every free memblock range.
 *
 * Data structures:
 *   banks[]       one per memblock RAM bank: first PFN, page count and the
 *                 struct page array describing it (allocated by memblock).
 *   free_area[k]  a doubly linked list of free blocks of 2^k pages, linked
 *                 through their head pages, and the number of blocks on it.
 *
 * Invariants (page_alloc_check verifies them):
 *   - a block of order k starts at a PFN that is a multiple of 2^k and lies
 *     inside one bank;
 *   - only a block's head page carries flags: PG_FREE (on free list 'order'),
 *     PG_HEAD (allocated with 'order'); pages inside a block have flags 0;
 *     pages never given to the allocator are PG_RESERVED;
 *   - PG_ZERO on a free head means the whole block is known to hold zeros.
 */
#include "types.h"
#include "printk.h"
#include "memblock.h"
#include "page_alloc.h"
#include "fail_alloc.h"
#include <asm/page_ops.h>

_Static_assert(MEMBLOCK_MAX <= 256, "struct page.bank is a u8");
_Static_assert(MAX_ORDER <= 256, "struct page.order is a u8");

typedef unsigned long long ull;   /* for printk %llx */

struct pa_bank {
	u64 base_pfn;          /* first page frame of the bank */
	unsigned long npages;  /* page frames in the bank */
	struct page *pages;    /* npages entries, in the linear map */
};

struct free_area {
	struct page *head;     /* NULL-terminated, doubly linked */
	u64 nr_blocks;
};

static struct pa_bank banks[MEMBLOCK_MAX];
static int nbanks;
static struct free_area free_area[MAX_ORDER];

static u64 total_pages;    /* pages freed into the allocator by init */
static u64 nr_free_pages;  /* pages on the free lists now */
static u64 bytes_zeroed;
static s64 pt_pages[2];    /* [0] kernel, [1] user page-table pages */

bool init_on_alloc;
bool init_on_free;

/* ---- page <-> PFN <-> physical address ---- */

static u64 page_pfn(const struct page *pg)
{
	const struct pa_bank *b = &banks[pg->bank];

	return b->base_pfn + (u64)(pg - b->pages);
}

/* The struct page for pfn if it lies in bank b, else NULL. */
static struct page *bank_page(const struct pa_bank *b, u64 pfn)
{
	if (pfn < b->base_pfn || pfn - b->base_pfn >= b->npages)
		return NULL;
	return &b->pages[pfn - b->base_pfn];
}

static struct page *pfn_to_page(u64 pfn)
{
	int i;

	for (i = 0; i < nbanks; i++) {
		struct page *pg = bank_page(&banks[i], pfn);

		if (pg)
			return pg;
	}
	return NULL;
}

/* Is pg a pointer into one of the bank arrays (and consistent with it)? */
static bool page_valid(const struct page *pg)
{
	const struct pa_bank *b;

	if (!pg || pg->bank >= nbanks)
		return false;
	b = &banks[pg->bank];
	return pg >= b->pages && pg < b->pages + b->npages;
}

phys_addr_t page_to_phys(const struct page *pg)
{
	return (phys_addr_t)page_pfn(pg) << PAGE_SHIFT;
}

struct page *phys_to_page(phys_addr_t pa)
{
	return pfn_to_page(pa >> PAGE_SHIFT);
}

void *page_address(const struct page *pg)
{
	return phys_to_virt(page_to_phys(pg));
}

unsigned long page_frame_index(const struct page *pg)
{
	unsigned long idx = (unsigned long)(pg - banks[pg->bank].pages);

	for (int i = 0; i < pg->bank; i++)
		idx += banks[i].npages;
	return idx;
}

unsigned long page_frame_count(void)
{
	unsigned long n = 0;

	for (int i = 0; i < nbanks; i++)
		n += banks[i].npages;
	return n;
}

/* ---- free lists ---- */

/* Make pg the head of a free block of 'order' and put it on its list. */
static void free_list_add(struct page *pg, unsigned order, bool zero)
{
	struct free_area *fa = &free_area[order];

	pg->flags = PG_FREE | (zero ? PG_ZERO : 0);
	pg->order = order;
	pg->refcount = 0;
	pg->prev = NULL;
	pg->next = fa->head;
	if (fa->head)
		fa->head->prev = pg;
	fa->head = pg;
	fa->nr_blocks++;
}

/* Take the free block headed by pg off list 'order'; pg's flags become 0. */
static void free_list_del(struct page *pg, unsigned order)
{
	struct free_area *fa = &free_area[order];

	if (pg->prev)
		pg->prev->next = pg->next;
	else
		fa->head = pg->next;
	if (pg->next)
		pg->next->prev = pg->prev;
	pg->next = pg->prev = NULL;
	pg->flags = 0;
	fa->nr_blocks--;
}

/* ---- zeroing ---- */

/* Zero the 2^order pages of a block, one page at a time through the arch's
 * clear (asm/page_ops.h: dc zva on arm64, word stores on MicroBlaze; a
 * block may be larger than size_t can express on 32-bit with big granules).
 * Every clear the allocator makes goes through here, and only here is
 * bytes_zeroed counted, so /proc/zeroed_bytes counts each clear once. */
static void zero_block(struct page *pg, unsigned order)
{
	unsigned long i, n = 1UL << order;

	for (i = 0; i < n; i++)
		arch_clear_page(page_address(pg + i));
	bytes_zeroed += (u64)PAGE_SIZE << order;
}

/* ---- the buddy core ---- */

/*
 * Give the 2^order pages at pg back to the lists, merging with free buddies
 * of the same order inside the same bank. 'zero' says the block is known to
 * be zero; a merged block is known zero only if both halves are.
 */
static void buddy_free(struct page *pg, unsigned order, bool zero)
{
	const struct pa_bank *b = &banks[pg->bank];
	u64 pfn = page_pfn(pg);

	nr_free_pages += 1UL << order;
	while (order < MAX_ORDER - 1) {
		struct page *buddy = bank_page(b, pfn ^ ((u64)1 << order));

		if (!buddy || !(buddy->flags & PG_FREE) || buddy->order != order)
			break;
		zero = zero && (buddy->flags & PG_ZERO);
		free_list_del(buddy, order);
		pfn &= ~((u64)1 << order);
		order++;
	}
	free_list_add(bank_page(b, pfn), order, zero);
}

/*
 * Contract: see page_alloc.h. Takes the first block of the smallest order
 * >= 'order' that is free, gives its upper halves back as smaller blocks
 * (they inherit its known-zero state), and zeroes the result if asked to
 * and not already known zero.
 */
struct page *alloc_pages(unsigned gfp, unsigned order)
{
	return alloc_pages_zero_state(gfp, order, NULL);
}

struct page *alloc_pages_zero_state(unsigned gfp, unsigned order, bool *is_zero)
{
	struct page *pg;
	unsigned k;
	bool zero;

	if (order >= MAX_ORDER)
		panic("alloc_pages: order %u too big (MAX_ORDER %u)", order, MAX_ORDER);
	if (gfp & ~GFP_ZERO)
		panic("alloc_pages: unknown gfp bits 0x%x", gfp & ~GFP_ZERO);
	if (fail_alloc_now())
		return NULL;	/* injected for a test (fail_alloc.h) */
	for (k = order; k < MAX_ORDER && !free_area[k].head; k++)
		;
	if (k == MAX_ORDER)
		return NULL;
	pg = free_area[k].head;
	zero = pg->flags & PG_ZERO;
	free_list_del(pg, k);
	while (k > order) {
		k--;
		free_list_add(pg + (1UL << k), k, zero);
	}
	nr_free_pages -= 1UL << order;
	pg->flags = PG_HEAD;
	pg->order = order;
	pg->refcount = 1;
	if (((gfp & GFP_ZERO) || init_on_alloc) && !zero) {
		zero_block(pg, order);
		zero = true;
	}
	if (is_zero)
		*is_zero = zero;
	return pg;
}

/* Is the page at pfn (in bank b) inside a block on a free list? */
static bool in_free_block(const struct pa_bank *b, u64 pfn)
{
	unsigned k;

	for (k = 0; k < MAX_ORDER; k++) {
		struct page *head = bank_page(b, pfn & ~(((u64)1 << k) - 1));

		if (head && (head->flags & PG_FREE) && head->order == k)
			return true;
	}
	return false;
}

/* Panic unless pg is the head of an allocated block of exactly 'order'. */
static void check_freeable(struct page *pg, unsigned order)
{
	u64 pfn;

	if (!page_valid(pg))
		panic("free_pages: %p is not a struct page of any bank", (void *)pg);
	pfn = page_pfn(pg);
	if (order >= MAX_ORDER)
		panic("free_pages: pfn 0x%llx: order %u too big (MAX_ORDER %u)",
		      (ull)pfn, order, MAX_ORDER);
	if (in_free_block(&banks[pg->bank], pfn))
		panic("free_pages: double free of pfn 0x%llx (order %u): page is already free",
		      (ull)pfn, order);
	if (pfn & (((u64)1 << order) - 1))
		panic("free_pages: pfn 0x%llx is not aligned to order %u", (ull)pfn, order);
	if (!(pg->flags & PG_HEAD))
		panic("free_pages: pfn 0x%llx is not the head of an allocated block (flags 0x%x)",
		      (ull)pfn, pg->flags);
	if (pg->order != order)
		panic("free_pages: pfn 0x%llx was allocated with order %u but freed with order %u",
		      (ull)pfn, pg->order, order);
}

/* Contract: see page_alloc.h. */
void free_pages(struct page *pg, unsigned order)
{
	check_freeable(pg, order);
	pg->flags = 0;
	pg->refcount = 0;
	if (init_on_free)
		zero_block(pg, order);
	buddy_free(pg, order, init_on_free);
}

void *alloc_page_va(unsigned gfp)
{
	struct page *pg = alloc_pages(gfp, 0);

	return pg ? page_address(pg) : NULL;
}

void free_page_va(void *va)
{
	phys_addr_t pa = virt_to_phys(va);
	struct page *pg = phys_to_page(pa);

	if (!pg)
		panic("free_page_va: %p (pa 0x%llx) is not managed RAM", va, (ull)pa);
	if (pa & (PAGE_SIZE - 1))
		panic("free_page_va: %p (pa 0x%llx) is not page aligned", va, (ull)pa);
	free_pages(pg, 0);
}

/* ---- initialisation ---- */

/* Describe memblock RAM bank i: allocate and fill its struct page array. */
static void bank_init(int i)
{
	struct pa_bank *b = &banks[nbanks];
	phys_addr_t base, end;
	u64 size, npages, bytes;
	unsigned long j;

	memblock_ram_range(i, &base, &size);
	end = ALIGN_DOWN(base + size, (phys_addr_t)PAGE_SIZE);
	base = ALIGN_UP(base, (phys_addr_t)PAGE_SIZE);
	if (base >= end)
		return;   /* smaller than a page: nothing to manage */
	npages = (end - base) >> PAGE_SHIFT;
	bytes = npages * sizeof(struct page);
	if (bytes != (unsigned long)bytes)
		panic("page_alloc: bank [0x%llx-0x%llx) needs 0x%llx bytes of struct page, more than the address space",
		      (ull)base, (ull)end, (ull)bytes);
	b->base_pfn = base >> PAGE_SHIFT;
	b->npages = npages;
	b->pages = phys_to_virt(memblock_alloc(bytes, 64));
	for (j = 0; j < npages; j++) {
		b->pages[j] = (struct page){ .flags = PG_RESERVED, .bank = nbanks };
	}
	nbanks++;
}

/* Largest order for a block starting at pfn that ends at or before end. */
static unsigned block_order(u64 pfn, u64 end)
{
	unsigned k = 0;

	while (k + 1 < MAX_ORDER && !(pfn & (((u64)1 << (k + 1)) - 1)) &&
	       pfn + ((u64)1 << (k + 1)) <= end)
		k++;
	return k;
}

/* Hand the page-aligned free range [base, base + size) to the buddy lists. */
static void free_range_init(phys_addr_t base, u64 size)
{
	u64 pfn = base >> PAGE_SHIFT, end = (base + size) >> PAGE_SHIFT;
	struct page *first = pfn_to_page(pfn), *last = pfn_to_page(end - 1), *pg;

	if (!first || !last || first->bank != last->bank)
		panic("page_alloc: free range [0x%llx-0x%llx) is not inside one RAM bank",
		      (ull)base, (ull)(base + size));
	for (pg = first; pg <= last; pg++)
		pg->flags = 0;   /* no longer reserved: about to be free */
	for (pg = first; pfn < end;) {
		unsigned k = block_order(pfn, end);

		buddy_free(pg, k, false);
		pfn += (u64)1 << k;
		pg += 1UL << k;
	}
}

/* Contract: see page_alloc.h. */
void page_alloc_init(void)
{
	phys_addr_t base;
	u64 size;
	int i;

	nbanks = 0;
	nr_free_pages = total_pages = 0;
	for (i = 0; i < MAX_ORDER; i++)
		free_area[i] = (struct free_area){ 0 };
	for (i = 0; i < memblock_ram_count(); i++)
		bank_init(i);
	for (i = 0; memblock_free_range(i, &base, &size); i++)
		free_range_init(base, size);
	total_pages = nr_free_pages;
	printk("page_alloc: %d bank(s), %llu pages free (%llu KiB), page size %lu\n",
	       nbanks, (ull)total_pages, (ull)((total_pages * PAGE_SIZE) >> 10),
	       (unsigned long)PAGE_SIZE);
}

/* ---- statistics ---- */

void page_alloc_stats(struct page_stats *out)
{
	int k;

	out->total_pages = total_pages;
	out->free_pages = nr_free_pages;
	out->pt_kernel_pages = (u64)pt_pages[0];
	out->pt_user_pages = (u64)pt_pages[1];
	out->bytes_zeroed = bytes_zeroed;
	for (k = 0; k < MAX_ORDER; k++)
		out->free_by_order[k] = free_area[k].nr_blocks;
}

void page_alloc_count_pt(bool user, int delta)
{
	s64 *c = &pt_pages[user ? 1 : 0];

	if (*c + delta < 0)
		panic("page_alloc_count_pt: %s page-table pages would go negative (%lld + %d)",
		      user ? "user" : "kernel", (long long)*c, delta);
	*c += delta;
}

/* ---- consistency check ---- */

#define CHECK(cond, fmt, ...)                                                 \
	do {                                                                  \
		if (!(cond)) {                                                \
			printk("page_alloc_check: " fmt "\n", ##__VA_ARGS__); \
			return false;                                         \
		}                                                             \
	} while (0)

/* Walk free list k, marking every head PG_CHECKED; *pages += its pages. */
static bool check_list(unsigned k, u64 *pages)
{
	struct page *pg, *prev = NULL;
	u64 n = 0;

	for (pg = free_area[k].head; pg; prev = pg, pg = pg->next) {
		u64 pfn;

		CHECK(n <= total_pages, "list %u: loop or more blocks than pages", k);
		CHECK(page_valid(pg), "list %u: %p is not a struct page", k, (void *)pg);
		pfn = page_pfn(pg);
		CHECK(pg->prev == prev, "list %u: pfn 0x%llx has a bad prev link", k, (ull)pfn);
		CHECK((pg->flags & ~PG_ZERO) == PG_FREE, "list %u: pfn 0x%llx has flags 0x%x%s",
		      k, (ull)pfn, pg->flags,
		      (pg->flags & PG_CHECKED) ? " (listed twice)" : "");
		CHECK(pg->order == k, "list %u: pfn 0x%llx has order %u", k, (ull)pfn, pg->order);
		CHECK(!(pfn & (((u64)1 << k) - 1)), "list %u: pfn 0x%llx is not aligned", k, (ull)pfn);
		CHECK(bank_page(&banks[pg->bank], pfn + ((u64)1 << k) - 1),
		      "list %u: block at pfn 0x%llx runs past its bank", k, (ull)pfn);
		pg->flags |= PG_CHECKED;
		n++;
	}
	CHECK(n == free_area[k].nr_blocks, "list %u holds %llu blocks, counter says %llu",
	      k, (ull)n, (ull)free_area[k].nr_blocks);
	*pages += n << k;
	return true;
}

/* Scan bank b: every page is reserved or inside exactly one block. */
static bool check_bank(const struct pa_bank *b, u64 *used)
{
	unsigned long i = 0, j, n;

	while (i < b->npages) {
		const struct page *pg = &b->pages[i];
		u64 pfn = b->base_pfn + i;

		if (pg->flags == PG_RESERVED) {
			i++;
			continue;
		}
		if (pg->flags & PG_FREE) {
			CHECK(pg->flags & PG_CHECKED, "pfn 0x%llx is free but on no list", (ull)pfn);
		} else {
			CHECK((pg->flags & ~PG_PREZEROED) == PG_HEAD, "pfn 0x%llx (flags 0x%x) belongs to no block",
			      (ull)pfn, pg->flags);
			*used += 1UL << pg->order;
		}
		CHECK(pg->order < MAX_ORDER, "pfn 0x%llx has order %u", (ull)pfn, pg->order);
		n = 1UL << pg->order;
		CHECK(!(pfn & (n - 1)) && i + n <= b->npages,
		      "block at pfn 0x%llx order %u is unaligned or past its bank", (ull)pfn, pg->order);
		for (j = 1; j < n; j++)
			CHECK(pg[j].flags == 0, "pfn 0x%llx inside the order-%u block at 0x%llx has flags 0x%x",
			      (ull)(pfn + j), pg->order, (ull)pfn, pg[j].flags);
		i += n;
	}
	return true;
}

static void clear_marks(void)
{
	unsigned long j;
	int i;

	for (i = 0; i < nbanks; i++)
		for (j = 0; j < banks[i].npages; j++)
			banks[i].pages[j].flags &= ~PG_CHECKED;
}

static bool check_all(void)
{
	u64 listed = 0, used = 0;
	unsigned k;
	int i;

	for (k = 0; k < MAX_ORDER; k++)
		if (!check_list(k, &listed))
			return false;
	CHECK(listed == nr_free_pages, "lists hold %llu pages, free counter says %llu",
	      (ull)listed, (ull)nr_free_pages);
	for (i = 0; i < nbanks; i++)
		if (!check_bank(&banks[i], &used))
			return false;
	CHECK(listed + used == total_pages, "free %llu + allocated %llu != total %llu pages",
	      (ull)listed, (ull)used, (ull)total_pages);
	return true;
}

/* Contract: see page_alloc.h. */
bool page_alloc_check(void)
{
	bool ok = check_all();

	clear_marks();
	return ok;
}

void page_get(struct page *pg)
{
	BUG_ON(!(pg->flags & PG_HEAD) || pg->refcount <= 0);
	pg->refcount++;
}

void page_put(struct page *pg)
{
	BUG_ON(!(pg->flags & PG_HEAD) || pg->refcount <= 0);
	if (--pg->refcount == 0) {
		pg->refcount = 1;	/* free_pages() expects an allocated block */
		free_pages(pg, pg->order);
	}
}

void page_get_many(struct page *const *pgs, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		BUG_ON(!(pgs[i]->flags & PG_HEAD) || pgs[i]->refcount <= 0);
		pgs[i]->refcount++;
	}
}

void page_put_many(struct page *const *pgs, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		page_put(pgs[i]);
}

int page_count(const struct page *pg)
{
	return pg->refcount;
}

void zero_pages(struct page *pg, unsigned order)
{
	zero_block(pg, order);
}

void free_pages_zeroed(struct page *pg, unsigned order)
{
	check_freeable(pg, order);
	pg->flags = 0;
	pg->refcount = 0;
	buddy_free(pg, order, true);	/* known zero: init_on_free has nothing to do */
}

void split_page(struct page *pg, unsigned order)
{
	BUG_ON(!(pg->flags & PG_HEAD) || pg->order != order || pg->refcount != 1);
	for (unsigned long i = 0; i < (1UL << order); i++) {
		pg[i].flags = PG_HEAD;
		pg[i].order = 0;
		pg[i].refcount = 1;
	}
}
