/*
 * asm/pkeys.h - what the memory-protection-key calls look like on
 * MicroBlaze (kernel/pkeys.c). Linux has no ARCH_HAS_PKEYS there, so the
 * generic answers apply: the rights mask is PKEY_DISABLE_ACCESS |
 * PKEY_DISABLE_WRITE, key 0 is the only key and counts as allocated, and
 * pkey_free refuses every key (mm_pkey_free() is -EINVAL).
 */
#ifndef ASM_PKEYS_H
#define ASM_PKEYS_H

#define ARCH_PKEY_ACCESS_MASK	0x3ul
#define ARCH_MAX_PKEY		1
#define ARCH_PKEY0_FREEABLE	0

#endif
