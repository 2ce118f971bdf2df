/*
 * asm/layout.h - the arm64 translation layout chosen at build time: the
 * granule (GRANULE_SHIFT: 12, 14 or 16 for 4K, 16K, 64K) and the
 * virtual-address size (VA_BITS), given by the Makefile (arch.mk:
 * GRANULE=, VA_BITS=). Everything else is derived here: the level count,
 * the hardware level the walk starts at, which levels may hold blocks,
 * the contiguous-run lengths and the TCR_EL1 fields. Pure preprocessor,
 * usable from C and assembly.
 *
 * The valid pairs (Arm ARM D8.2, "Translation table walk", the tables of
 * initial lookup level per granule and TnSZ), restricted to those we
 * support with physical addresses of at most 48 bits (no FEAT_LPA) and no
 * level-0/1 blocks for 16K/64K (nor 4K's level-0 block under DS); a 52-bit
 * VA needs FEAT_LVA with 64K pages, FEAT_LPA2 (TCR_EL1.DS) with 4K and 16K:
 *
 *   granule  VA_BITS  levels  first level  blocks
 *   4K       39       3       1            1G (L1), 2M (L2)
 *   4K       48       4       0            1G (L1), 2M (L2)
 *   4K       52       5      -1 (16 entries; FEAT_LPA2, DS = 1) 1G (L1), 2M (L2)
 *   16K      47       3       1            32M (L2)
 *   16K      48       4       0 (2 entries) 32M (L2)
 *   16K      52       4       0 (32 entries; FEAT_LPA2, DS = 1) 32M (L2)
 *   64K      42       2       2            512M (L2)
 *   64K      48       3       1 (64 entries) 512M (L2)
 *   64K      52       3       1 (1024 entries, an 8 KiB table; FEAT_LVA) 512M (L2)
 *
 * Software level numbers (mm/) count from 0 at the top of the walk, so
 * software level l is hardware level l + PT_HW_FIRST_LEVEL.
 */
#ifndef ASM_LAYOUT_H
#define ASM_LAYOUT_H

#ifndef GRANULE_SHIFT
#define GRANULE_SHIFT 12
#endif
#ifndef VA_BITS
#define VA_BITS 48
#endif

#if !((GRANULE_SHIFT == 12 && (VA_BITS == 39 || VA_BITS == 48 || VA_BITS == 52)) || \
      (GRANULE_SHIFT == 14 && (VA_BITS == 47 || VA_BITS == 48 || VA_BITS == 52)) || \
      (GRANULE_SHIFT == 16 && (VA_BITS == 42 || VA_BITS == 48 || VA_BITS == 52)))
#error "unsupported GRANULE/VA_BITS pair; valid: 4K 39|48|52, 16K 47|48|52, 64K 42|48|52"
#endif

/*
 * A VA wider than 48 bits needs FEAT_LVA with the 64K granule (head.S
 * checks ID_AA64MMFR2_EL1.VARange at boot) and FEAT_LPA2 with 4K and 16K
 * (ID_AA64MMFR0_EL1.TGran4 == 1, TGran16 == 2: ID_TGRAN_LPA2). LPA2 is used with TCR_EL1.DS = 1, which
 * turns descriptor bits [9:8] from SH into OA[51:50]: shareability then
 * comes from TCR_EL1.SH0/SH1 (PTE_SH_INNER is 0). User mappings stay below
 * USER_VA_WINDOW_BITS unless asked for higher (asm/memlayout.h).
 */
#define PT_VA_52           (VA_BITS > 48)
#define PT_LPA2            (VA_BITS > 48 && GRANULE_SHIFT != 16)
#define USER_VA_WINDOW_BITS (VA_BITS > 48 ? 48 : VA_BITS)

#define PAGE_SHIFT         GRANULE_SHIFT

/* Bits of VA resolved per table (8-byte descriptors fill one page). */
#define PT_BITS_PER_LEVEL  (PAGE_SHIFT - 3)

/*
 * Levels needed to resolve VA_BITS - PAGE_SHIFT bits (rounded up): 5 for
 * 4K/52, whose walk starts at hardware level -1 (PT_HW_FIRST_LEVEL).
 */
#define PT_LEVELS          ((VA_BITS - PAGE_SHIFT + PT_BITS_PER_LEVEL - 1) / PT_BITS_PER_LEVEL)
#define PT_LAST_LEVEL      (PT_LEVELS - 1)
#define PT_HW_FIRST_LEVEL  (4 - PT_LEVELS)

/* log2 of what one entry at software level l maps (usable in #if). */
#define PT_SHIFT(l)        (PAGE_SHIFT + PT_BITS_PER_LEVEL * (PT_LAST_LEVEL - (l)))

/* The level of 2nd-to-last ("PMD") blocks, and of 4K's 1 GiB ("PUD") blocks. */
#define PT_PMD_LEVEL       (PT_LAST_LEVEL - 1)
#if GRANULE_SHIFT == 12
#define PT_LARGEST_LEAF_LEVEL (PT_LAST_LEVEL - 2)   /* 1 GiB */
#else
#define PT_LARGEST_LEAF_LEVEL PT_PMD_LEVEL          /* 32 MiB or 512 MiB */
#endif

/* Contiguous-run lengths (Arm ARM D8.7.1, "The Contiguous bit"). */
#if GRANULE_SHIFT == 12
#define PT_CONT_PTE        16   /* 64 KiB */
#define PT_CONT_PMD        16   /* 32 MiB */
#elif GRANULE_SHIFT == 14
#define PT_CONT_PTE        128  /* 2 MiB */
#define PT_CONT_PMD        32   /* 1 GiB */
#else
#define PT_CONT_PTE        32   /* 2 MiB */
#define PT_CONT_PMD        32   /* 16 GiB */
#endif

/* TCR_EL1 granule encodings differ between the halves (Arm ARM D19.2, TCR_EL1). */
#if GRANULE_SHIFT == 12
#define TCR_TG0_BITS       0
#define TCR_TG1_BITS       2
#define ID_TGRAN_SHIFT     28   /* ID_AA64MMFR0_EL1.TGran4: 0 or 1 supported, 0xf not */
#define ID_TGRAN_LPA2      1    /* TGran4 == 1: 52-bit with LPA2 */
#define ID_TGRAN_LPA2_STR  "1"
#elif GRANULE_SHIFT == 14
#define TCR_TG0_BITS       2
#define TCR_TG1_BITS       1
#define ID_TGRAN_SHIFT     20   /* TGran16: 0 not supported, 1 or 2 supported (2: with 52-bit, LPA2) */
#define ID_TGRAN_LPA2      2
#define ID_TGRAN_LPA2_STR  "2"
#else
#define TCR_TG0_BITS       1
#define TCR_TG1_BITS       3
#define ID_TGRAN_SHIFT     24   /* TGran64: 0 supported, 0xf not */
#endif
#define TCR_TSZ            (64 - VA_BITS)

/* The granule's name, and its ID_AA64MMFR0_EL1 field, for messages. */
#if GRANULE_SHIFT == 12
#define GRANULE_NAME       "4K"
#define TGRAN_FIELD        "TGran4"
#elif GRANULE_SHIFT == 14
#define GRANULE_NAME       "16K"
#define TGRAN_FIELD        "TGran16"
#else
#define GRANULE_NAME       "64K"
#define TGRAN_FIELD        "TGran64"
#endif

#endif
