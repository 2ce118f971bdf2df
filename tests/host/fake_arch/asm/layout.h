/*
 * Fake arch for host tests: the real arm64 layout (granule and VA size
 * from -DGRANULE_SHIFT/-DVA_BITS, 4K/48 by default).
 */
#include "../../../../arch/arm64/include/asm/layout.h"
