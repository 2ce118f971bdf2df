/*
 * test_memblock.c - host tests for mm/memblock.c.
 *
 * Fixed cases for merging, reservations at the edges of RAM, top-down
 * allocation and table overflow, then a randomized comparison against a
 * byte-map model of RAM and reservations.
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "types.h"
#include "printk.h"
#include "memblock.h"
#include "page_alloc.h"
#include "host_env.h"

#define MiB (1ULL << 20)
#define PG ((u64)PAGE_SIZE)

/* Collect the free ranges into arrays; returns how many. */
static int free_ranges(phys_addr_t *base, u64 *size, int max)
{
	int n = 0;

	while (n < max && memblock_free_range(n, &base[n], &size[n]))
		n++;
	return n;
}

static bool ram_is(int i, phys_addr_t base, u64 size)
{
	phys_addr_t b;
	u64 s;

	if (i >= memblock_ram_count())
		return false;
	memblock_ram_range(i, &b, &s);
	return b == base && s == size;
}

static void test_add_merge_sort(void)
{
	memblock_reset();
	memblock_add(0x80000000, 16 * MiB);
	memblock_add(0x40000000, 16 * MiB);
	memblock_add(0x800000000ULL, 32 * MiB);
	tap_ok(memblock_ram_count() == 3 && ram_is(0, 0x40000000, 16 * MiB) &&
	       ram_is(1, 0x80000000, 16 * MiB) && ram_is(2, 0x800000000ULL, 32 * MiB),
	       "banks added out of order come back sorted");

	memblock_add(0x40000000 + 8 * MiB, 16 * MiB);     /* overlaps the end of bank 0 */
	tap_ok(memblock_ram_count() == 3 && ram_is(0, 0x40000000, 24 * MiB),
	       "an overlapping add extends the bank");

	memblock_add(0x40000000 + 24 * MiB, 8 * MiB);     /* touches it */
	tap_ok(memblock_ram_count() == 3 && ram_is(0, 0x40000000, 32 * MiB),
	       "an adjacent add merges");

	memblock_add(0x40000000 + 32 * MiB, 0x80000000 - 0x40000000 - 32 * MiB); /* bridges 0 and 1 */
	tap_ok(memblock_ram_count() == 2 && ram_is(0, 0x40000000, 0x40000000 + 16 * MiB),
	       "an add bridging two banks merges all three");

	memblock_add(0x30000000, 0x60000000);             /* swallows everything below 2.25G */
	tap_ok(memblock_ram_count() == 2 && ram_is(0, 0x30000000, 0x60000000 + 0) &&
	       ram_is(1, 0x800000000ULL, 32 * MiB),
	       "an add covering a bank swallows it");
	memblock_add(0x12345, 0);
	tap_ok(memblock_ram_count() == 2, "size 0 adds nothing");

	tap_ok(memblock_start() == 0x30000000 && memblock_end() == 0x800000000ULL + 32 * MiB &&
	       memblock_ram_total() == 0x60000000 + 32 * MiB,
	       "start, end and total");
	memblock_reset();
	tap_ok(memblock_ram_count() == 0 && memblock_start() == 0 && memblock_end() == 0 &&
	       memblock_ram_total() == 0, "reset empties the tables");
}

static void test_reserve_edges(void)
{
	phys_addr_t b[8];
	u64 s[8];
	int n;

	memblock_reset();
	memblock_add(0x40000000, 64 * MiB);
	memblock_reserve(0x3ff00000, 2 * MiB, "straddles start");
	memblock_reserve(0x43f00000, 2 * MiB, "straddles end");
	memblock_reserve(0x10000000, 1 * MiB, "outside RAM");
	memblock_reserve(0x41000000, 1 * MiB, "middle");
	memblock_reserve(0x41080000, 1 * MiB, "overlaps middle");
	memblock_reserve(0x42000010, 0x10, "tiny, mid-page");
	n = free_ranges(b, s, 8);
	tap_ok(n == 3, "three free ranges around the reservations (got %d)", n);
	tap_ok(n >= 1 && b[0] == 0x40100000 && s[0] == 0x41000000 - 0x40100000,
	       "free range 0 starts after the reservation straddling RAM start");
	tap_ok(n >= 2 && b[1] == 0x41180000 && b[1] + s[1] == 0x42000000,
	       "free range 1 skips the union of two overlapping reservations");
	tap_ok(n >= 3 && b[2] == 0x42000000 + PG && b[2] + s[2] == 0x43f00000,
	       "free range 2 excludes the whole page of a tiny reservation");
	tap_ok(!memblock_free_range(3, &b[0], &s[0]) && !memblock_free_range(-1, &b[0], &s[0]),
	       "free_range returns 0 past the end");

	memblock_reserve(0x40000000, 64 * MiB, "everything");
	tap_ok(free_ranges(b, s, 8) == 0, "no free range once all RAM is reserved");
	memblock_dump();
}

/* Does memblock_alloc(size, align) panic? (A function of its own keeps
 * setjmp away from the caller's locals.) */
static int alloc_panics(u64 size, u64 align)
{
	return EXPECT_PANIC(memblock_alloc(size, align));
}

static void test_alloc(void)
{
	phys_addr_t b[8], a1, a2, a3, a4;
	u64 s[8];
	int n, i;

	memblock_reset();
	memblock_add(0x40000000, 64 * MiB);
	memblock_add(0x800000000ULL, 4 * MiB);
	memblock_reserve(0x800000000ULL + 4 * MiB - PG, PG, "top page");

	a1 = memblock_alloc(PG, PG);
	tap_ok(a1 == 0x800000000ULL + 4 * MiB - 2 * PG, "first alloc is the highest free page (0x%llx)",
	       (unsigned long long)a1);
	a2 = memblock_alloc(100, 8);
	tap_ok(a2 == ALIGN_DOWN(a1 - 100, 8), "byte alloc sits right below (0x%llx)",
	       (unsigned long long)a2);
	a3 = memblock_alloc(3 * PG, 2 * MiB);
	tap_ok(a3 == 0x800000000ULL + 2 * MiB, "2 MiB aligned alloc in the high bank (0x%llx)",
	       (unsigned long long)a3);
	a4 = memblock_alloc(8 * MiB, 2 * MiB);
	tap_ok(a4 == 0x40000000 + 56 * MiB, "alloc too big for the high bank falls to the low one (0x%llx)",
	       (unsigned long long)a4);

	n = free_ranges(b, s, 8);
	for (i = 0; i < n; i++)
		if ((b[i] < a1 + PG && b[i] + s[i] > a2) || (b[i] < a3 + 3 * PG && b[i] + s[i] > a3) ||
		    (b[i] < a4 + 8 * MiB && b[i] + s[i] > a4))
			break;
	tap_ok(n > 0 && i == n, "free ranges exclude every allocation");

	for (i = 0; i < 3 * MEMBLOCK_MAX; i++)
		memblock_alloc(PG, PG);
	tap_ok(1, "%d consecutive allocations merge and do not fill the table", 3 * MEMBLOCK_MAX);

	tap_ok(alloc_panics(128 * MiB, PG) && strstr(host_panic_msg, "no free RAM"),
	       "alloc larger than any free range panics: %s", host_panic_msg);
	tap_ok(alloc_panics(PG, 3) && strstr(host_panic_msg, "power of two"),
	       "non-power-of-two align panics");
	tap_ok(alloc_panics(0, PG), "size 0 panics");
	memblock_reset();
	tap_ok(alloc_panics(PG, PG), "alloc without RAM panics");
}

static void test_overflow(void)
{
	int i;

	memblock_reset();
	for (i = 0; i < MEMBLOCK_MAX; i++)
		memblock_add(0x40000000 + (u64)i * 2 * MiB, MiB);
	tap_ok(memblock_ram_count() == MEMBLOCK_MAX, "RAM table holds %d banks", MEMBLOCK_MAX);
	tap_ok(EXPECT_PANIC(memblock_add(0x10000000, MiB)) && strstr(host_panic_msg, "RAM table full"),
	       "one more bank panics: %s", host_panic_msg);
	memblock_reset();
	for (i = 0; i < MEMBLOCK_MAX; i++)
		memblock_add(0x40000000 + (u64)i * 2 * MiB, MiB);
	memblock_add(0x40000000 + MiB, MiB);
	tap_ok(memblock_ram_count() == MEMBLOCK_MAX - 1, "a merging add into a full table works");

	memblock_reset();
	for (i = 0; i < MEMBLOCK_MAX; i++)
		memblock_reserve(0x40000000 + (u64)i * PG, PG, i % 2 ? "odd" : "even");
	tap_ok(EXPECT_PANIC(memblock_reserve(0x10000000, PG, "x")) &&
	       strstr(host_panic_msg, "reserved table full"),
	       "one more reservation panics: %s", host_panic_msg);
	memblock_reset();
	tap_ok(EXPECT_PANIC(memblock_add(~0ULL - PG, 2 * PG)) && strstr(host_panic_msg, "wraps"),
	       "a range wrapping past 2^64 panics");
	memblock_reset();
}

/* ---- randomized comparison with a byte-map model ---- */

#define UNIT 256ULL                 /* model granularity in bytes */
#define SPACE_UNITS 4096            /* model covers 1 MiB from MODEL_BASE */
#define MODEL_BASE 0x40000000ULL

static unsigned char model_ram[SPACE_UNITS], model_rsv[SPACE_UNITS];
static u64 rng_state = 0x9e3779b97f4a7c15ULL;

static u64 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static bool model_free(u64 u)
{
	return model_ram[u] && !model_rsv[u];
}

/* Compare memblock's free ranges with the model's page-aligned free runs. */
static bool compare_free_ranges(void)
{
	u64 u = 0, upp = PG / UNIT;
	int i = 0;
	phys_addr_t b;
	u64 s;

	while (u < SPACE_UNITS) {
		u64 start, end;

		if (!model_free(u)) {
			u++;
			continue;
		}
		for (start = u; u < SPACE_UNITS && model_free(u); u++)
			;
		end = u;
		start = ALIGN_UP(start, upp);
		end = ALIGN_DOWN(end, upp);
		if (start >= end)
			continue;
		if (!memblock_free_range(i++, &b, &s))
			return false;
		if (b != MODEL_BASE + start * UNIT || s != (end - start) * UNIT)
			return false;
	}
	return !memblock_free_range(i, &b, &s);
}

/* The highest aligned spot the model would pick for memblock_alloc. */
static s64 model_alloc(u64 units, u64 align_units)
{
	s64 a, j;

	for (a = ALIGN_DOWN((s64)SPACE_UNITS - (s64)units, (s64)align_units); a >= 0;
	     a -= align_units) {
		for (j = 0; j < (s64)units && model_free(a + j); j++)
			;
		if (j == (s64)units)
			return a;
	}
	return -1;
}

static void random_round(int *bad_ranges, int *bad_alloc)
{
	static const char *names[] = { "a", "b", "c" };
	int ops = 1 + rnd() % 24, k;

	memblock_reset();
	memset(model_ram, 0, sizeof(model_ram));
	memset(model_rsv, 0, sizeof(model_rsv));
	for (k = 0; k < ops; k++) {
		u64 start = rnd() % SPACE_UNITS, len = 1 + rnd() % 400, u;
		bool add = rnd() % 2;

		len = MIN(len, SPACE_UNITS - start);
		if (add)
			memblock_add(MODEL_BASE + start * UNIT, len * UNIT);
		else
			memblock_reserve(MODEL_BASE + start * UNIT, len * UNIT, names[rnd() % 3]);
		for (u = start; u < start + len; u++)
			(add ? model_ram : model_rsv)[u] = 1;
	}
	if (!compare_free_ranges())
		(*bad_ranges)++;
	for (k = 0; k < 4; k++) {
		u64 units = 1 + rnd() % 64, align = 1ULL << (rnd() % 6);
		s64 want = model_alloc(units, align);
		phys_addr_t got;

		if (want < 0)
			continue;   /* the no-fit panic is tested in test_alloc */
		got = memblock_alloc(units * UNIT, align * UNIT);
		if (got != MODEL_BASE + (u64)want * UNIT)
			(*bad_alloc)++;
		memset(&model_rsv[want], 1, units);
		if (!compare_free_ranges())
			(*bad_ranges)++;
	}
}

static void test_random(void)
{
	int bad_ranges = 0, bad_alloc = 0, r;

	for (r = 0; r < 300; r++)
		random_round(&bad_ranges, &bad_alloc);
	tap_ok(bad_ranges == 0, "random layouts: free ranges match the model (%d mismatches)", bad_ranges);
	tap_ok(bad_alloc == 0, "random layouts: memblock_alloc picks the model's top-most fit (%d mismatches)",
	       bad_alloc);
	memblock_reset();
}

int main(void)
{
	test_add_merge_sort();
	test_reserve_edges();
	test_alloc();
	test_overflow();
	test_random();
	return tap_done();
}
