/*
 * sysregs.h - arm64 system register values used by the boot code.
 * Usable from C and assembly. Field names follow the Arm ARM.
 */
#ifndef ASM_SYSREGS_H
#define ASM_SYSREGS_H

#include <asm/layout.h>

#ifdef __ASSEMBLER__
#define _UL(x)	x
#else
#define _UL(x)	x##UL
#endif

/*
 * Abort fault status codes (ESR_ELx.DFSC/IFSC, bits [5:0]) of a walk's
 * level -1, which only FEAT_LPA2's 4K/52 walk has (asm/layout.h): a
 * translation fault there is 0x2b, an address size fault 0x29; levels 0-3
 * use 0x04-0x07 and 0x00-0x03 (the level in bits [1:0]).
 */
#define FSC_TRANS_LEVEL_M1	0x2b
#define FSC_ADDR_LEVEL_M1	0x29
/* Is fsc (bits [5:0]) a translation fault at any level? */
#define FSC_IS_TRANSLATION(fsc)	((((fsc) & 0x3c) == 0x04) || (fsc) == FSC_TRANS_LEVEL_M1)

#define HCR_EL2_RW		(1 << 31)	/* EL1 is AArch64 */
#define CNTHCTL_EL1PCTEN	(1 << 0)	/* EL1 may read CNTPCT_EL0 */
#define CNTHCTL_EL1PCEN		(1 << 1)	/* EL1 may use the EL1 physical timer */
#define SPSR_EL1H_MASKED	0x3c5		/* EL1h, D A I F masked */

/* SCTLR_EL1: RES1 bits of ARMv8.0 (11, 20, 22, 23, 28, 29). */
#define SCTLR_EL1_RES1		0x30d00800
/*
 * EL0 may use the cache-maintenance and cache-information interface that
 * Linux gives it, so __builtin___clear_cache and JITs work:
 *   DZE (14): DC ZVA at EL0 (DCZID_EL0.DZP reads 0);
 *   UCT (15): EL0 reads of CTR_EL0;
 *   UCI (26): DC CVAU, DC CIVAC, DC CVAC and IC IVAU at EL0.
 */
#define SCTLR_EL1_DZE		(1 << 14)
#define SCTLR_EL1_UCT		(1 << 15)
#define SCTLR_EL1_UCI		(1 << 26)
/*
 * SPAN (23): RES1 before ARMv8.1. Where FEAT_PAN exists, 0 means "set
 * PSTATE.PAN on every exception taken to EL1"; setup.c clears it then.
 */
#define SCTLR_EL1_SPAN		(1 << 23)
/* MMU on: RES1, then M, C, SA, SA0, I, and the EL0 cache interface above. */
#define SCTLR_EL1_MMU_ON	(SCTLR_EL1_RES1 | (1 << 0) | (1 << 2) | (1 << 3) | (1 << 4) | (1 << 12) | \
				 SCTLR_EL1_DZE | SCTLR_EL1_UCT | SCTLR_EL1_UCI)

/* ID_AA64MMFR1_EL1.PAN, bits [23:20]: non-zero when FEAT_PAN is implemented. */
#define ID_AA64MMFR1_PAN_SHIFT	20
/* MSR PAN, #imm (ARMv8.1), encoded so that any assembler accepts it. */
#define MSR_PAN_1		0xd500419f
/* PSTATE.PAN in SPSR_EL1. */
#define PSR_PAN			(1 << 22)

/*
 * MAIR_EL1 as the boot code loads it. The indices are MT_* in asm/pgtable.h
 * (setup.c checks the two agree):
 *   0: Normal write-back RA/WA   1: Device-nGnRE   2: Normal non-cacheable
 *   3: Device-nGnRnE
 */
#define MAIR_EL1_BOOT		0x004404ff

/*
 * TCR_EL1: VA_BITS in both halves (T0SZ = T1SZ = 64 - VA_BITS), the
 * build's granule (asm/layout.h), table walks inner/outer write-back
 * cacheable and inner shareable, 16-bit ASIDs taken from TTBR0 (AS = 1,
 * A1 = 0). IPS is filled in at run time.
 */
#define TCR_T0SZ		(_UL(TCR_TSZ) << 0)
#define TCR_IRGN0_WBWA		(_UL(1) << 8)
#define TCR_ORGN0_WBWA		(_UL(1) << 10)
#define TCR_SH0_INNER		(_UL(3) << 12)
#define TCR_TG0			(_UL(TCR_TG0_BITS) << 14)
#define TCR_T1SZ		(_UL(TCR_TSZ) << 16)
#define TCR_IRGN1_WBWA		(_UL(1) << 24)
#define TCR_ORGN1_WBWA		(_UL(1) << 26)
#define TCR_SH1_INNER		(_UL(3) << 28)
#define TCR_TG1			(_UL(TCR_TG1_BITS) << 30)
#define TCR_AS16		(_UL(1) << 36)
/* FEAT_LPA2's descriptor format (52-bit VA with 4K or 16K pages: PT_LPA2). */
#define TCR_DS			(_UL(PT_LPA2) << 59)
#define TCR_EL1_VALUE		(TCR_T0SZ | TCR_IRGN0_WBWA | TCR_ORGN0_WBWA | TCR_SH0_INNER | \
				 TCR_TG0 | TCR_T1SZ | TCR_IRGN1_WBWA | TCR_ORGN1_WBWA |   \
				 TCR_SH1_INNER | TCR_TG1 | TCR_AS16 | TCR_DS)

/* Boot-table descriptors (the full format lives in asm/pgtable.h). */
#define PTE_TABLE		3		/* valid table descriptor */
/* A block: valid block (1), AttrIndx 0 (Normal WB), SH inner (3 << 8; with
 * LPA2 those bits are OA[51:50] and TCR gives SH), AF (1 << 10). */
#if PT_LPA2
#define BOOT_BLOCK_ATTRS	(1 | (0 << 2) | (1 << 10))
#else
#define BOOT_BLOCK_ATTRS	(1 | (0 << 2) | (3 << 8) | (1 << 10))
#endif

#define BOOT_STACK_SIZE		16384

#endif
