/*
 * Fake MicroBlaze arch for host tests: the real header. Its two inline
 * functions hold MicroBlaze instructions, but nothing compiled for the host
 * calls them (arch/microblaze/kernel/mb.h only wraps them in another unused
 * inline), so the compiler never emits them.
 */
#include "../../../../arch/microblaze/include/asm/irqflags.h"
