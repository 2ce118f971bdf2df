/*
 * Fake MicroBlaze arch for host tests: the real MMU constants and software
 * descriptor format (pure #defines), unchanged.
 */
#include "../../../../arch/microblaze/include/asm/mmu.h"
