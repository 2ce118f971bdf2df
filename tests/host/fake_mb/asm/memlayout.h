/*
 * Fake MicroBlaze arch for host tests: the real virtual layout, unchanged
 * (pure #defines; KIMAGE_PHYS is left undefined, so TOPHYS() is not).
 */
#include "../../../../arch/microblaze/include/asm/memlayout.h"
