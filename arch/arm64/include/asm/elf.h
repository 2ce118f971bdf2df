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
#define ELF_HWCAP	((1ul << 0) | (1ul << 1))	/* FP, ASIMD */
extern bool arm64_has_bti;
#define ELF_HWCAP2	(arm64_has_bti ? 1ul << 17 : 0)	/* HWCAP2_BTI */
#define ELF_MINSIGSTKSZ	5120	/* the signal frame with FP/SIMD state, as Linux reports */

#endif
