/*
 * asm/pkeys.h - what the memory-protection-key calls look like on arm64
 * (kernel/pkeys.c). Linux 6.12 builds arm64 with ARCH_HAS_PKEYS (FEAT_POE):
 * the rights mask has four bits, there are eight keys, and key 0, allocated
 * in every address space, can be freed. Without POE in the CPU no further
 * key is ever handed out.
 */
#ifndef ASM_PKEYS_H
#define ASM_PKEYS_H

#define ARCH_PKEY_ACCESS_MASK	0xful	/* DISABLE_ACCESS, _WRITE, _EXECUTE, _READ */
#define ARCH_MAX_PKEY		8
#define ARCH_PKEY0_FREEABLE	1

#endif
