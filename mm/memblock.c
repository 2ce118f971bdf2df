/*
 * memblock.c - early physical memory: RAM banks and reserved ranges.
 *
 * Two small sorted tables. RAM banks never overlap or touch (they are merged
 * on insertion). Reserved ranges may overlap each other when their names
 * differ, so the code that computes free memory walks them as a union.
 * Everything here is O(n^2) in at most 64 entries: simple beats fast at boot.
 */
#include "types.h"
#include "printk.h"
#include "memblock.h"
#include "page_alloc.h"   /* PAGE_SIZE */

struct mb_region {
	phys_addr_t base;
	u64 size;
	const char *name;     /* reserved ranges only */
};

struct mb_table {
	const char *what;     /* table name for messages */
	bool merge_any_name;  /* RAM: merge regardless of name */
	int count;
	struct mb_region r[MEMBLOCK_MAX];
};

static struct mb_table ram_table = { .what = "RAM", .merge_any_name = true };
static struct mb_table rsv_table = { .what = "reserved" };

typedef unsigned long long ull;   /* for printk %llx */

static phys_addr_t region_end(const struct mb_region *r)
{
	return r->base + r->size;
}

static bool str_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* Remove entry i, keeping the table sorted. */
static void table_remove(struct mb_table *t, int i)
{
	for (; i < t->count - 1; i++)
		t->r[i] = t->r[i + 1];
	t->count--;
}

/* Insert a region at its sorted position; panics when the table is full. */
static void table_insert(struct mb_table *t, phys_addr_t base, phys_addr_t end,
			 const char *name)
{
	int i;

	if (t->count == MEMBLOCK_MAX)
		panic("memblock: %s table full (%d entries) adding [0x%llx-0x%llx) %s",
		      t->what, MEMBLOCK_MAX, (ull)base, (ull)end, name ? name : "");
	for (i = t->count; i > 0 && t->r[i - 1].base > base; i--)
		t->r[i] = t->r[i - 1];
	t->r[i].base = base;
	t->r[i].size = end - base;
	t->r[i].name = name;
	t->count++;
}

/*
 * Add [base, base + size) to table t. Every entry that overlaps or touches
 * the new range (and, for reserved ranges, has the same name) is absorbed
 * into it first, so the insert itself only fails when the table really is
 * full of unrelated ranges.
 */
static void table_add(struct mb_table *t, phys_addr_t base, u64 size, const char *name)
{
	phys_addr_t end = base + size;
	int i = 0;

	if (size == 0)
		return;
	if (end < base)
		panic("memblock: %s range at 0x%llx size 0x%llx wraps past the top of the address space",
		      t->what, (ull)base, (ull)size);
	while (i < t->count) {
		struct mb_region *r = &t->r[i];
		bool same = t->merge_any_name || str_eq(r->name, name);

		if (same && r->base <= end && region_end(r) >= base) {
			base = MIN(base, r->base);
			end = MAX(end, region_end(r));
			table_remove(t, i);
			i = 0;   /* the grown range may now touch an earlier entry */
			continue;
		}
		i++;
	}
	table_insert(t, base, end, name);
}

void memblock_add(phys_addr_t base, u64 size)
{
	table_add(&ram_table, base, size, NULL);
}

void memblock_reserve(phys_addr_t base, u64 size, const char *what)
{
	table_add(&rsv_table, base, size, what ? what : "reserved");
}

void memblock_reset(void)
{
	ram_table.count = 0;
	rsv_table.count = 0;
}

/*
 * Walking free memory. A free_walk asks for the want-th free piece; the
 * walker calls walk_emit() for every piece of RAM that no reservation
 * covers, in ascending order, and stops once the wanted one is found.
 */
struct free_walk {
	int want;
	int seen;
	bool page_align;   /* shrink pieces inwards to whole pages */
	phys_addr_t base, end;
};

static bool walk_emit(struct free_walk *w, phys_addr_t base, phys_addr_t end)
{
	if (w->page_align) {
		base = ALIGN_UP(base, (phys_addr_t)PAGE_SIZE);
		end = ALIGN_DOWN(end, (phys_addr_t)PAGE_SIZE);
	}
	if (base >= end)
		return false;
	if (w->seen++ != w->want)
		return false;
	w->base = base;
	w->end = end;
	return true;
}

/* Emit the free pieces of one RAM bank; true once the wanted piece is found. */
static bool walk_bank(struct free_walk *w, const struct mb_region *bank)
{
	phys_addr_t cur = bank->base, bank_end = region_end(bank);
	int j;

	/* Reserved ranges are sorted by base and may overlap: track the
	 * furthest end seen so far in 'cur'. */
	for (j = 0; j < rsv_table.count && cur < bank_end; j++) {
		const struct mb_region *r = &rsv_table.r[j];

		if (region_end(r) <= cur)
			continue;
		if (r->base >= bank_end)
			break;
		if (r->base > cur && walk_emit(w, cur, r->base))
			return true;
		cur = region_end(r);
	}
	return cur < bank_end && walk_emit(w, cur, bank_end);
}

/* Find the want-th free piece; false when there are fewer pieces. */
static bool nth_free(int want, bool page_align, phys_addr_t *base, phys_addr_t *end)
{
	struct free_walk w = { .want = want, .page_align = page_align };
	int b;

	for (b = 0; b < ram_table.count; b++) {
		if (walk_bank(&w, &ram_table.r[b])) {
			*base = w.base;
			*end = w.end;
			return true;
		}
	}
	return false;
}

int memblock_free_range(int i, phys_addr_t *base, u64 *size)
{
	phys_addr_t b, e;

	if (i < 0 || !nth_free(i, true, &b, &e))
		return 0;
	*base = b;
	*size = e - b;
	return 1;
}

/*
 * Contract: see memblock.h. Walks the byte-exact free pieces from the top
 * down and takes the highest aligned spot that fits in one of them.
 */
phys_addr_t memblock_alloc(u64 size, u64 align)
{
	phys_addr_t b, e, pa;
	int n = 0, i;

	if (size == 0 || align == 0 || (align & (align - 1)))
		panic("memblock_alloc: bad request size 0x%llx align 0x%llx (size must be > 0, align a power of two)",
		      (ull)size, (ull)align);
	while (nth_free(n, false, &b, &e))
		n++;
	for (i = n - 1; i >= 0; i--) {
		nth_free(i, false, &b, &e);
		if (e - b < size)
			continue;
		pa = ALIGN_DOWN(e - size, align);
		if (pa < b)
			continue;
		memblock_reserve(pa, size, "memblock");
		return pa;
	}
	memblock_dump();
	panic("memblock_alloc: no free RAM for 0x%llx bytes aligned to 0x%llx (RAM total 0x%llx)",
	      (ull)size, (ull)align, (ull)memblock_ram_total());
}

u64 memblock_ram_total(void)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < ram_table.count; i++)
		sum += ram_table.r[i].size;
	return sum;
}

phys_addr_t memblock_start(void)
{
	return ram_table.count ? ram_table.r[0].base : 0;
}

phys_addr_t memblock_end(void)
{
	return ram_table.count ? region_end(&ram_table.r[ram_table.count - 1]) : 0;
}

int memblock_ram_count(void)
{
	return ram_table.count;
}

void memblock_ram_range(int i, phys_addr_t *base, u64 *size)
{
	if (i < 0 || i >= ram_table.count)
		panic("memblock_ram_range: bank %d out of range (%d banks)", i, ram_table.count);
	*base = ram_table.r[i].base;
	*size = ram_table.r[i].size;
}

static void dump_line(const char *kind, const struct mb_region *r)
{
	printk("memblock: %-8s [0x%016llx-0x%016llx] size 0x%09llx %s\n", kind,
	       (ull)r->base, (ull)(region_end(r) - 1), (ull)r->size,
	       r->name ? r->name : "");
}

void memblock_dump(void)
{
	int i;

	printk("memblock: %d RAM bank(s), %llu KiB; %d reserved range(s)\n",
	       ram_table.count, (ull)(memblock_ram_total() >> 10), rsv_table.count);
	for (i = 0; i < ram_table.count; i++)
		dump_line("RAM", &ram_table.r[i]);
	for (i = 0; i < rsv_table.count; i++)
		dump_line("reserved", &rsv_table.r[i]);
}
