/*
 * test_boot.c - in-kernel tests of the boot foundation: the page allocator
 * and the device tree against the QEMU configuration we were started with.
 */
#include "ktest.h"
#include "printk.h"
#include "kstring.h"
#include "page_alloc.h"
#include "kernel.h"
#include "params.h"
#include "arch.h"

/* Allocate every order up to 10, fill, verify, free: nothing may leak. */
KTEST(alloc_smoke)
{
	struct page_stats before, after;
	struct page *pg[11];
	bool ok = true;

	page_alloc_stats(&before);
	for (unsigned o = 0; o <= 10; o++) {
		pg[o] = alloc_pages(GFP_ZERO, o);
		if (!pg[o]) {
			ktest_ok(false, "alloc_pages(order %u) failed", o);
			return;
		}
		u64 *p = page_address(pg[o]);
		size_t words = (PAGE_SIZE << o) / sizeof(u64);

		ok = ok && IS_ALIGNED(page_to_phys(pg[o]), PAGE_SIZE << o);
		for (size_t i = 0; i < words; i++)
			ok = ok && p[i] == 0;
		for (size_t i = 0; i < words; i++)
			p[i] = page_to_phys(pg[o]) + i;
	}
	ktest_ok(ok, "orders 0..10 allocated naturally aligned and zeroed");
	for (unsigned o = 0; o <= 10; o++) {
		u64 *p = page_address(pg[o]);
		size_t words = (PAGE_SIZE << o) / sizeof(u64);

		for (size_t i = 0; i < words; i++)
			ok = ok && p[i] == page_to_phys(pg[o]) + i;
	}
	ktest_ok(ok, "no block overwrote another");
	for (unsigned o = 0; o <= 10; o++)
		free_pages(pg[o], o);
	page_alloc_stats(&after);
	ktest_ok(after.free_pages == before.free_pages, "free pages back to %llu (now %llu)",
		 (unsigned long long)before.free_pages, (unsigned long long)after.free_pages);
	ktest_ok(page_alloc_check(), "free lists consistent");
	ktest_ok(before.free_pages > 0 && before.free_pages <= before.total_pages,
		 "counters sane: %llu free of %llu", (unsigned long long)before.free_pages,
		 (unsigned long long)before.total_pages);
}

/* Exhaust order 0 through a chain of pages, then give all back. */
KTEST(alloc_exhaust)
{
	struct page_stats before, after;
	void *head = NULL;
	u64 n = 0;

	page_alloc_stats(&before);
	for (void *p; (p = alloc_page_va(0)); n++) {
		*(void **)p = head;
		head = p;
	}
	ktest_ok(n == before.free_pages, "allocated every free page (%llu of %llu)",
		 (unsigned long long)n, (unsigned long long)before.free_pages);
	ktest_ok(alloc_pages(0, 0) == NULL, "allocation fails cleanly when memory is exhausted");
	while (head) {
		void *next = *(void **)head;

		free_page_va(head);
		head = next;
	}
	page_alloc_stats(&after);
	ktest_ok(after.free_pages == before.free_pages && page_alloc_check(),
		 "all pages back and coalesced");
	ktest_ok(after.free_by_order[MAX_ORDER - 1] == before.free_by_order[MAX_ORDER - 1],
		 "largest blocks re-formed (%llu)", (unsigned long long)after.free_by_order[MAX_ORDER - 1]);
}

/* Parse a size like 512M or 4G. */
static u64 parse_size(const char *s, size_t len)
{
	u64 v = 0;
	size_t i = 0;

	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (s[i] - '0');
	if (i < len && (s[i] == 'G' || s[i] == 'g'))
		v <<= 30;
	else if (i < len && (s[i] == 'M' || s[i] == 'm'))
		v <<= 20;
	return v;
}

/*
 * The device tree describes the machine QEMU was asked for. The Makefile
 * passes what it asked for as expect=key:value,... (mem, plus arch keys
 * such as cpu, el, gic that arch_ktest_expect() checks).
 */
KTEST(dt_matches_qemu)
{
	const struct fdt_boot_info *bi = kernel_boot_info();
	const char *e = opt_expect;
	u64 total = 0;

	for (int i = 0; i < bi->nmem; i++)
		total += bi->mem[i].size;
	ktest_ok(bi->nmem >= 1, "%d memory bank(s) found", bi->nmem);
	ktest_ok(fdt_stdout_node(kernel_fdt()) >= 0, "stdout-path names a node");
	if (!e || !*e) {
		ktest_ok(false, "no expect= bootarg: nothing to compare the device tree with");
		return;
	}
	while (*e) {
		const char *colon = strchr(e, ':');
		const char *comma = strchr(e, ',');
		size_t len = comma ? (size_t)(comma - e) : strlen(e);
		char key[16], val[32];

		if (!colon || (comma && colon > comma)) {
			ktest_ok(false, "malformed expect entry");
			return;
		}
		snprintk(key, MIN((size_t)(colon - e) + 1, sizeof(key)), "%s", e);
		snprintk(val, MIN(len - (colon - e), sizeof(val)), "%s", colon + 1);
		if (strcmp(key, "mem") == 0)
			ktest_ok(total == parse_size(val, strlen(val)),
				 "memory in the device tree (%llu MiB) is what QEMU was given (%s)",
				 (unsigned long long)(total >> 20), val);
		else
			arch_ktest_expect(key, val);
		e += len + (comma ? 1 : 0);
	}
}
