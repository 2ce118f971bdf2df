/*
 * Fake arch for host tests: the arm64 virtual layout, unchanged.
 */
#include "../../../../arch/arm64/include/asm/memlayout.h"
