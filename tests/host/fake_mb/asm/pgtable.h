/*
 * Fake MicroBlaze arch for host tests: the real descriptor encoding
 * (32-bit pteval_t, two levels split by the page size: -DMB_PAGE_SHIFT from
 * tests/host/mb.mk, 4 KiB without it), pure C, included unchanged so the
 * host tests exercise exactly what the kernel uses. Only the hardware hooks in asm/tlb.h differ.
 */
#include "../../../../arch/microblaze/include/asm/pgtable.h"
