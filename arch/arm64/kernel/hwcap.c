/*
 * hwcap.c - AT_HWCAP and AT_HWCAP2 for a new program, from the CPU's ID
 * registers with Linux's bit numbers and field thresholds (its
 * arm64_elf_hwcaps table). Only the capabilities that are instructions
 * user space may simply use are reported; the ones that need the kernel's
 * help (SVE and SME state, MTE tags, pointer-authentication keys, the
 * event stream, MRS emulation of the ID registers, SSBS) are left out
 * because this kernel does not provide that help, so a program that tests
 * the bit never relies on something missing. BTI is in: PROT_BTI guards
 * pages (mm/, the descriptor's GP bit).
 */
#include "types.h"
#include "arch_arm64.h"
#include <asm/elf.h>

enum { PFR0, ISAR0, ISAR1, MMFR2, PFR1 };

/* One capability: present when the 4-bit field at shift of reg is at least min. */
struct hwcap {
	u8 reg, shift, min, word, bit;	/* word 1: AT_HWCAP, 2: AT_HWCAP2 */
	bool is_signed;			/* signed field: 0xf means absent */
};

static const struct hwcap hwcaps[] = {
	{ PFR0, 16, 0, 1, 0, true },	/* FP */
	{ PFR0, 20, 0, 1, 1, true },	/* ASIMD */
	{ ISAR0, 4, 1, 1, 3, false },	/* AES */
	{ ISAR0, 4, 2, 1, 4, false },	/* PMULL */
	{ ISAR0, 8, 1, 1, 5, false },	/* SHA1 */
	{ ISAR0, 12, 1, 1, 6, false },	/* SHA2 */
	{ ISAR0, 16, 1, 1, 7, false },	/* CRC32 */
	{ ISAR0, 20, 2, 1, 8, false },	/* ATOMICS */
	{ PFR0, 16, 1, 1, 9, true },	/* FPHP */
	{ PFR0, 20, 1, 1, 10, true },	/* ASIMDHP */
	{ ISAR0, 28, 1, 1, 12, false },	/* ASIMDRDM */
	{ ISAR1, 12, 1, 1, 13, false },	/* JSCVT */
	{ ISAR1, 16, 1, 1, 14, false },	/* FCMA */
	{ ISAR1, 20, 1, 1, 15, false },	/* LRCPC */
	{ ISAR1, 0, 1, 1, 16, false },	/* DCPOP */
	{ ISAR0, 32, 1, 1, 17, false },	/* SHA3 */
	{ ISAR0, 36, 1, 1, 18, false },	/* SM3 */
	{ ISAR0, 40, 1, 1, 19, false },	/* SM4 */
	{ ISAR0, 44, 1, 1, 20, false },	/* ASIMDDP */
	{ ISAR0, 12, 2, 1, 21, false },	/* SHA512 */
	{ ISAR0, 48, 1, 1, 23, false },	/* ASIMDFHM */
	{ PFR0, 48, 1, 1, 24, false },	/* DIT */
	{ MMFR2, 32, 1, 1, 25, false },	/* USCAT */
	{ ISAR1, 20, 2, 1, 26, false },	/* ILRCPC */
	{ ISAR0, 52, 1, 1, 27, false },	/* FLAGM */
	{ ISAR1, 36, 1, 1, 29, false },	/* SB */
	{ ISAR1, 0, 2, 2, 0, false },	/* DCPODP */
	{ ISAR0, 52, 2, 2, 7, false },	/* FLAGM2 */
	{ ISAR1, 32, 1, 2, 8, false },	/* FRINT */
	{ ISAR1, 52, 1, 2, 13, false },	/* I8MM */
	{ ISAR1, 44, 1, 2, 14, false },	/* BF16 */
	{ ISAR1, 48, 1, 2, 15, false },	/* DGH */
	{ ISAR0, 60, 1, 2, 16, false },	/* RNG */
	{ PFR1, 0, 1, 2, 17, false },	/* BTI (PROT_BTI pages: arm64_has_bti) */
};

/* The capabilities of word 1 or 2 the CPU has. */
static unsigned long hwcap_word(int word)
{
	u64 regs[] = { read_sysreg(id_aa64pfr0_el1), read_sysreg(id_aa64isar0_el1),
		       read_sysreg(id_aa64isar1_el1), read_sysreg(id_aa64mmfr2_el1),
		       read_sysreg(id_aa64pfr1_el1) };
	unsigned long w = 0;

	for (unsigned i = 0; i < sizeof(hwcaps) / sizeof(hwcaps[0]); i++) {
		const struct hwcap *h = &hwcaps[i];
		unsigned v = (unsigned)(regs[h->reg] >> h->shift) & 0xf;

		if (h->word != word)
			continue;
		if (h->is_signed ? (v != 0xf && v >= h->min) : v >= h->min)
			w |= 1UL << h->bit;
	}
	return w;
}

unsigned long arch_elf_hwcap(void)
{
	return hwcap_word(1);
}

unsigned long arch_elf_hwcap2(void)
{
	return hwcap_word(2);
}
