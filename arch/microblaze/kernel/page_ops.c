/*
 * page_ops.c - MicroBlaze page clearing for the page allocator
 * (asm/page_ops.h). MicroBlaze has no cache-line zeroing instruction, so
 * the fastest clear is word stores: sixteen `swi r0, rA, imm` per loop step
 * (the offsets fit the 16-bit immediate), so the loop's add, compare and
 * branch are spent once per 64 bytes.
 */
#include "types.h"
#include <asm/page_ops.h>
#include <asm/memlayout.h>

/* Contract: see asm/page_ops.h. */
void arch_clear_page(void *va)
{
	volatile u32 *p = va, *end = (volatile u32 *)((u8 *)va + PAGE_SIZE);

	for (; p < end; p += 16) {
		p[0] = 0; p[1] = 0; p[2] = 0; p[3] = 0;
		p[4] = 0; p[5] = 0; p[6] = 0; p[7] = 0;
		p[8] = 0; p[9] = 0; p[10] = 0; p[11] = 0;
		p[12] = 0; p[13] = 0; p[14] = 0; p[15] = 0;
	}
}
