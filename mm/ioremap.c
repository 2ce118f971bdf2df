/*
 * ioremap.c - map device registers (Device-nGnRE, never executable) into
 * [IOREMAP_BASE, IOREMAP_END), page by page, through pt_map_range() and so
 * through the choke point. Mappings are never removed: devices stay for the
 * life of the kernel. Asking twice for the same page gives the same address.
 */
#include "printk.h"
#include "ioremap.h"
#include <asm/memlayout.h>

#define IOREMAP_MAX 32

static const struct pt_space *space;
static unsigned long next_va = IOREMAP_BASE;
static struct { phys_addr_t pa; unsigned long va; u64 size; } maps[IOREMAP_MAX];
static int nmaps;

void ioremap_set_space(const struct pt_space *kernel)
{
	space = kernel;
}

/* An existing mapping that covers [pa, pa + size), or 0. */
static unsigned long find(phys_addr_t pa, u64 size)
{
	for (int i = 0; i < nmaps; i++)
		if (pa >= maps[i].pa && pa + size <= maps[i].pa + maps[i].size)
			return maps[i].va + (unsigned long)(pa - maps[i].pa);
	return 0;
}

void *ioremap(phys_addr_t pa, u64 size)
{
	phys_addr_t base = ALIGN_DOWN(pa, (phys_addr_t)PAGE_SIZE);
	u64 len = ALIGN_UP(pa + size, (phys_addr_t)PAGE_SIZE) - base;
	unsigned long va = find(pa, size);

	if (va)
		return (void *)va;
	if (!space)
		panic("ioremap(0x%llx): no kernel address space yet", (pt_ull)pa);
	if (nmaps == IOREMAP_MAX || next_va + len > IOREMAP_END)
		panic("ioremap(0x%llx, 0x%llx): ioremap area full", (pt_ull)pa, (pt_ull)size);
	if (!pt_map_range(space, next_va, base, len, PT_READ | PT_WRITE | PT_DEVICE, PT_LEAF(PT_LEVELS - 1)))
		panic("ioremap(0x%llx): out of page-table pages", (pt_ull)pa);
	maps[nmaps].pa = base;
	maps[nmaps].va = next_va;
	maps[nmaps].size = len;
	nmaps++;
	va = next_va + (unsigned long)(pa - base);
	next_va += len + PAGE_SIZE;	/* an unmapped page between mappings catches overruns */
	return (void *)va;
}
