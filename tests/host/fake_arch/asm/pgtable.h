/*
 * Fake arch for host tests: the real arm64 descriptor encoding (pure C),
 * so the host tests exercise exactly what the kernel uses. Only the
 * hardware hooks in asm/tlb.h differ.
 */
#include "../../../../arch/arm64/include/asm/pgtable.h"
