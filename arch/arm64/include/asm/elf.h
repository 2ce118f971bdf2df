/*
 * asm/elf.h - the executables arm64 runs: ELF64, little-endian, EM_AARCH64.
 */
#ifndef ASM_ELF_H
#define ASM_ELF_H

#include "elf_format.h"

#define ELF_CLASS	ELFCLASS64
#define ELF_DATA	ELFDATA2LSB
#define ELF_MACHINE	183	/* EM_AARCH64 */
typedef Elf64_Ehdr elf_ehdr_t;
typedef Elf64_Phdr elf_phdr_t;

#define ELF_PLATFORM	"aarch64"

/*
 * Placement and randomisation of a new image, Linux's arm64 values:
 * ELF_ET_DYN_BASE (2/3 of the default mmap window: 48 bits at most) is where a PIE program
 * goes; STACK_RND_MASK the pages the stack top moves by (1 GiB), the
 * mmap base's random bits (Linux's default mmap_rnd_bits: 1 GiB too) and
 * the brk's random range (arch_randomize_brk: 1 GiB).
 */
#define ELF_ET_DYN_BASE	(2 * (USER_VA_WINDOW / 3))
#define STACK_RND_MASK	(0x3ffffUL >> (PAGE_SHIFT - 12))
#define MMAP_RND_BITS	(30 - PAGE_SHIFT)
#define BRK_RND_RANGE	(1UL << 30)

/* AT_HWCAP and AT_HWCAP2: what the ID registers show (hwcap.c). */
unsigned long arch_elf_hwcap(void);
unsigned long arch_elf_hwcap2(void);
#define ELF_MINSIGSTKSZ	5120	/* the signal frame with FP/SIMD state, as Linux reports */

#endif
