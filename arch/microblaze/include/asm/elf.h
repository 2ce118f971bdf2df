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
#define ELF_HWCAP	0
#define ELF_HWCAP2	0

#endif
