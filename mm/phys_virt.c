/*
 * phys_virt.c - the kernel's linear-map translation, the same on every
 * arch: RAM at physical pa is at PAGE_OFFSET + (pa - the linear base). Kept
 * out of pgtable.c because the host tests provide their own versions over
 * fake physical memory.
 */
#include "pgtable.h"
#include "page_alloc.h"

void *phys_to_virt(phys_addr_t pa)
{
	return (void *)pt_linear_va(pa);
}

phys_addr_t virt_to_phys(const void *va)
{
	return pt_linear_pa((unsigned long)va);
}
