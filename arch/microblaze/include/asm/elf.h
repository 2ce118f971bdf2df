/*
 * asm/elf.h - the executables MicroBlaze runs: ELF32, EM_MICROBLAZE, in
 * the board's byte order (ml605 little-endian, s3adsp1800 big-endian; the
 * compiler says which with __MICROBLAZEEL__).
 */
#ifndef ASM_ELF_H
#define ASM_ELF_H

#include "elf_format.h"

#define ELF_CLASS	ELFCLASS32
#ifdef __MICROBLAZEEL__
#define ELF_DATA	ELFDATA2LSB
#else
#define ELF_DATA	ELFDATA2MSB
#endif
#define ELF_MACHINE	189	/* EM_MICROBLAZE */
typedef Elf32_Ehdr elf_ehdr_t;
typedef Elf32_Phdr elf_phdr_t;

#define ELF_PLATFORM	"microblaze"

/*
 * Placement and randomisation of a new image, as Linux's MicroBlaze
 * does: no mmap or brk randomisation (it has no ARCH_HAS_ELF_RANDOMIZE),
 * the stack top moved by up to 8 MiB (the generic STACK_RND_MASK).
 * ELF_ET_DYN_BASE is where a PIE program would go (no PIE toolchain here).
 */
#define ELF_ET_DYN_BASE	0x08000000UL
#define STACK_RND_MASK	0x7ffUL
#define MMAP_RND_BITS	0
#define BRK_RND_RANGE	0UL

/* AT_HWCAP and AT_HWCAP2: none on MicroBlaze, as on Linux. */
static inline unsigned long arch_elf_hwcap(void) { return 0; }
static inline unsigned long arch_elf_hwcap2(void) { return 0; }

#endif
