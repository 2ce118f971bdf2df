/*
 * Fake MicroBlaze arch for host tests: the real descriptor encoding
 * (32-bit pteval_t, two levels of 10 bits, 4 MiB level-0 leaves, runs of
 * four), pure C, included unchanged so the host tests exercise exactly what
 * the kernel uses. Only the hardware hooks in asm/tlb.h differ.
 */
#include "../../../../arch/microblaze/include/asm/pgtable.h"
