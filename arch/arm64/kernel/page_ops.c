/*
 * page_ops.c - arm64 page clearing (for the page allocator) and page copying
 * (for copy-on-write), asm/page_ops.h.
 *
 * DCZID_EL0 says whether `dc zva` may be used (DZP, bit 4, set means
 * prohibited, e.g. trapped by a hypervisor) and how many bytes one
 * `dc zva` zeroes: 4 << BS (bits 3:0), at most 2 KiB, so always a whole
 * fraction of a 4 KiB page. The register is read on every call: it costs
 * one instruction and can never be stale.
 */
#include "types.h"
#include <asm/page_ops.h>
#include <asm/memlayout.h>

#define DCZID_DZP (1UL << 4)
#define DCZID_BS_MASK 0xfUL

_Static_assert(PAGE_SIZE >= 2048, "one dc zva block (at most 2 KiB) fits in a page");

/* Contract: see asm/page_ops.h. */
void arm64_clear_page_dczid(void *va, unsigned long dczid)
{
	unsigned long p = (unsigned long)va, end = p + PAGE_SIZE;

	if (!(dczid & DCZID_DZP)) {
		unsigned long block = 4UL << (dczid & DCZID_BS_MASK);

		for (; p < end; p += block)
			__asm__ volatile("dc zva, %0" : : "r"(p) : "memory");
		return;
	}
	/* Prohibited: 64 bytes per step with stores of the zero register. */
	for (; p < end; p += 64)
		__asm__ volatile("stp xzr, xzr, [%0]\n\t"
				 "stp xzr, xzr, [%0, #16]\n\t"
				 "stp xzr, xzr, [%0, #32]\n\t"
				 "stp xzr, xzr, [%0, #48]"
				 : : "r"(p) : "memory");
}

/* Contract: see asm/page_ops.h. */
void arch_clear_page(void *va)
{
	unsigned long dczid;

	__asm__("mrs %0, dczid_el0" : "=r"(dczid));
	arm64_clear_page_dczid(va, dczid);
}

/* Contract: see asm/page_ops.h. */
void arch_copy_page(void *dst, const void *src)
{
	unsigned long d = (unsigned long)dst, s = (unsigned long)src, end = s + PAGE_SIZE;
	unsigned long a, b, c, e, f, g, h, i;

	for (; s < end; s += 64, d += 64)
		__asm__ volatile("ldp %0, %1, [%8]\n\t"
				 "ldp %2, %3, [%8, #16]\n\t"
				 "ldp %4, %5, [%8, #32]\n\t"
				 "ldp %6, %7, [%8, #48]\n\t"
				 "stp %0, %1, [%9]\n\t"
				 "stp %2, %3, [%9, #16]\n\t"
				 "stp %4, %5, [%9, #32]\n\t"
				 "stp %6, %7, [%9, #48]"
				 : "=&r"(a), "=&r"(b), "=&r"(c), "=&r"(e), "=&r"(f), "=&r"(g), "=&r"(h), "=&r"(i)
				 : "r"(s), "r"(d) : "memory");
}
