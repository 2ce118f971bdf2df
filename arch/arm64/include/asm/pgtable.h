/*
 * asm/pgtable.h - arm64 translation-table descriptors (VMSAv8-64, the
 * granule and VA size of asm/layout.h), as pure C inline functions.
 *
 * This is the whole of what mm/ knows about the arm64 descriptor format:
 * the level geometry, how to build and decode a descriptor, and the
 * break-before-make predicate. Include it through mm/pgtable.h, which
 * defines the generic PT_* protection flags and the small structs used
 * here before including this file.
 *
 * Level numbering: 0 is the top of the walk, whatever hardware level the
 * layout starts at (asm/layout.h). With a 4 KiB granule and 48-bit VA:
 *
 *   level 0 "PGD"  VA[47:39]  table only
 *   level 1 "PUD"  VA[38:30]  table or 1 GiB block
 *   level 2 "PMD"  VA[29:21]  table or 2 MiB block (16 contiguous: 32 MiB)
 *   level 3 "PTE"  VA[20:12]  4 KiB page            (16 contiguous: 64 KiB)
 *
 * 16 KiB, 47-bit: PGD VA[46:36] (64G, table only), PMD VA[35:25] (32 MiB
 * block, 32 contiguous: 1 GiB), PTE VA[24:14] (16 KiB, 128 contiguous:
 * 2 MiB); 48-bit adds a 2-entry PGD above. 64 KiB, 42-bit: PMD VA[41:29]
 * (512 MiB block, 32 contiguous: 16 GiB), PTE VA[28:16] (64 KiB, 32
 * contiguous: 2 MiB); 48-bit adds a 64-entry PGD above. 4K/52 (FEAT_LPA2)
 * adds a 16-entry PGD VA[51:48] above 4K/48's levels, which become P4D,
 * PUD, PMD, PTE (5 levels from hardware level -1). The output address
 * is bits [47:PAGE_SHIFT] in every case (no 52-bit output addresses).
 *
 * Descriptor bits (Arm ARM D8.3, "VMSAv8-64 translation table format"):
 *
 *   [0]      valid
 *   [1]      levels 0-2: 1 = table, 0 = block; level 3: must be 1 (page)
 *   [4:2]    AttrIndx, an index into MAIR_EL1 (see MAIR_EL1_VALUE)
 *   [6]      AP[1]: EL0 may access
 *   [7]      AP[2]: read-only
 *   [9:8]    SH: shareability (3 = inner shareable); with FEAT_LPA2's
 *            TCR_EL1.DS = 1 (4K/52, 16K/52) OA[51:50] instead, always 0 here, and
 *            every mapping is inner shareable through TCR_EL1.SH0/SH1
 *   [10]     AF: access flag (we always set it; no hardware AF management)
 *   [11]     nG: not global, the TLB entry is tagged with the ASID
 *   [47:12]  output address (page, block or next-level table)
 *   [50]     GP: BTI guarded page (unused)
 *   [51]     DBM (unused)
 *   [52]     contiguous hint
 *   [53]     PXN: privileged execute-never
 *   [54]     UXN: unprivileged execute-never
 *   [58:55]  ignored by hardware, free for software
 *   [59][60] table descriptors only: PXNTable, UXNTable
 */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include "types.h"
#include <asm/memlayout.h>

#ifndef PT_READ
#error "include mm/pgtable.h, which defines the generic PT_* flags first"
#endif

typedef u64 pteval_t;

/*
 * FEAT_BTI (ID_AA64PFR1_EL1.BT), read once at boot: user pages may then be
 * guarded (PROT_BTI -> PT_GUARDED -> the descriptor's GP bit), as Linux
 * allows. Host tests define the flag themselves (false unless a test sets it).
 */
extern bool arm64_has_bti;
static inline bool arch_has_bti(void)
{
	return arm64_has_bti;
}

/*
 * PAGE_SHIFT and PAGE_SIZE come from <asm/memlayout.h>; PT_LEVELS,
 * PT_LAST_LEVEL, PT_BITS_PER_LEVEL, PT_LARGEST_LEAF_LEVEL (the largest
 * block: the linear map's base is aligned to it) from <asm/layout.h>.
 */

#define PTE_VALID          ((pteval_t)1 << 0)
#define PTE_TABLE_BIT      ((pteval_t)1 << 1)
#define PTE_ATTRINDX(i)    ((pteval_t)(i) << 2)
#define PTE_ATTRINDX_MASK  ((pteval_t)7 << 2)
#define PTE_USER           ((pteval_t)1 << 6)
#define PTE_RDONLY         ((pteval_t)1 << 7)
#if PT_LPA2
/* TCR_EL1.DS = 1: bits [9:8] are OA[51:50] (zero: PAs stay below 2^48); TCR gives SH. */
#define PTE_SH_INNER       ((pteval_t)0)
#define PTE_SH_MASK        ((pteval_t)0)
#else
#define PTE_SH_INNER       ((pteval_t)3 << 8)
#define PTE_SH_MASK        ((pteval_t)3 << 8)
#endif
#define PTE_AF             ((pteval_t)1 << 10)
#define PTE_NG             ((pteval_t)1 << 11)
#define PTE_OA_MASK        ((pteval_t)0x0000ffffffffffffULL & ~(pteval_t)(PAGE_SIZE - 1))
#define PTE_GP             ((pteval_t)1 << 50)
#define PTE_DBM            ((pteval_t)1 << 51)
#define PTE_CONT           ((pteval_t)1 << 52)
#define PTE_PXN            ((pteval_t)1 << 53)
#define PTE_UXN            ((pteval_t)1 << 54)
#define PTE_SW_MASK        ((pteval_t)0xf << 55)
#define PTE_PXNTABLE       ((pteval_t)1 << 59)
#define PTE_UXNTABLE       ((pteval_t)1 << 60)

/* MAIR_EL1 attribute indexes; the boot code loads MAIR_EL1_VALUE. */
#define MT_NORMAL          0   /* 0xff: Normal, inner/outer write-back RA/WA */
#define MT_DEVICE_nGnRE    1   /* 0x04 */
#define MT_NORMAL_NC       2   /* 0x44: Normal, non-cacheable */
#define MT_DEVICE_nGnRnE   3   /* 0x00 */
#define MAIR_EL1_VALUE     (0xffUL | (0x04UL << 8) | (0x44UL << 16) | (0x00UL << 24))

/* ---- level geometry ---- */

/* log2 of the size one entry at 'level' maps. */
static inline unsigned arch_pt_shift(int level)
{
	return PAGE_SHIFT + PT_BITS_PER_LEVEL * (PT_LAST_LEVEL - level);
}

/* Entries in a table at 'level' (the top level holds the VA bits left over). */
static inline unsigned long arch_pt_entries(int level)
{
	if (level == 0)
		return 1UL << (VA_BITS - arch_pt_shift(0));
	return 1UL << PT_BITS_PER_LEVEL;
}

/*
 * May an entry at 'level' be a leaf (block or page)? Pages at the last
 * level, blocks one level up and, with 4K only, two levels up (1 GiB).
 */
static inline bool arch_pt_leaf_ok(int level)
{
	return level >= PT_LARGEST_LEAF_LEVEL && level <= PT_LAST_LEVEL;
}

/* Entries in one contiguous run at 'level'; 1 when the level has none. */
static inline unsigned arch_pt_cont_entries(int level)
{
	if (level == PT_LAST_LEVEL)
		return PT_CONT_PTE;
	return level == PT_LAST_LEVEL - 1 ? PT_CONT_PMD : 1;
}

/*
 * Name of a level, as Linux's ptdump prints it: the top is "PGD", the
 * others are named after their hardware level (0 P4D, 1 PUD, 2 PMD,
 * 3 PTE; only 4K/52's 5-level walk has a level 0 below its top).
 */
static inline const char *arch_pt_level_name(int level)
{
	static const char *const names[4] = { "P4D", "PUD", "PMD", "PTE" };

	if (level == 0)
		return "PGD";
	return (level > 0 && level < PT_LEVELS) ? names[level + PT_HW_FIRST_LEVEL] : "???";
}

/* ---- decoding ---- */

static inline bool arch_pte_valid(pteval_t v)
{
	return (v & PTE_VALID) != 0;
}

/* A valid table descriptor (only levels above the last have tables). */
static inline bool arch_pte_is_table(pteval_t v, int level)
{
	return level < PT_LAST_LEVEL && (v & (PTE_VALID | PTE_TABLE_BIT)) == (PTE_VALID | PTE_TABLE_BIT);
}

/* A valid block or page descriptor. */
static inline bool arch_pte_is_leaf(pteval_t v, int level)
{
	return arch_pte_valid(v) && !arch_pte_is_table(v, level);
}

static inline bool arch_pte_is_cont(pteval_t v)
{
	return (v & PTE_CONT) != 0;
}

/* Output address: the page, block or next-level table. */
static inline phys_addr_t arch_pte_pa(pteval_t v)
{
	return v & PTE_OA_MASK;
}

/* The same descriptor with its output address moved by 'delta' bytes. */
static inline pteval_t arch_pte_oa_add(pteval_t v, u64 delta)
{
	return v + delta;   /* the OA field holds the address in place */
}

/* Generic PT_* flags of a valid leaf. */
static inline unsigned arch_pte_prot(pteval_t v)
{
	unsigned prot = PT_READ;

	if (!(v & PTE_RDONLY))
		prot |= PT_WRITE;
	if (v & PTE_USER) {
		prot |= PT_USER;
		if (!(v & PTE_UXN))
			prot |= PT_EXEC;
	} else if (!(v & PTE_PXN)) {
		prot |= PT_EXEC;
	}
	if ((v & PTE_ATTRINDX_MASK) == PTE_ATTRINDX(MT_DEVICE_nGnRE))
		prot |= PT_DEVICE;
	if (v & PTE_CONT)
		prot |= PT_CONT;
	if (v & PTE_NG)
		prot |= PT_NG;
	if (v & PTE_GP)
		prot |= PT_GUARDED;
	return prot;
}

/* Attribute bits of a descriptor: everything except the output address. */
static inline pteval_t arch_pte_attrs(pteval_t v)
{
	return v & ~PTE_OA_MASK;
}

/* ---- encoding ---- */

#define ARCH_PTE_INVALID ((pteval_t)0)

/*
 * Software entries: descriptors with the valid bit clear, which the MMU
 * ignores, used by mm/ to remember a user page that is kept but not
 * accessible (PROT_NONE) or a guard marker (MADV_GUARD_INSTALL). The kind
 * sits in bits [3:2] and a page's address in the usual output-address
 * bits. ARCH_SWP_NONE means "not a software entry" (empty or valid).
 */
#define ARCH_SWP_NONE      0u
#define ARCH_SWP_PROTNONE  1u
#define ARCH_SWP_GUARD     2u

static inline pteval_t arch_pte_mk_swp(unsigned kind, phys_addr_t pa)
{
	return ((pteval_t)kind << 2) | (pa & PTE_OA_MASK);
}

static inline unsigned arch_pte_swp_kind(pteval_t v)
{
	return (v & PTE_VALID) ? ARCH_SWP_NONE : (unsigned)(v >> 2) & 3;
}

static inline phys_addr_t arch_pte_swp_pa(pteval_t v)
{
	return v & PTE_OA_MASK;
}

/*
 * A leaf at 'level' mapping pa with the generic flags in prot. Kernel
 * mappings are never executable at EL0 (UXN), user mappings never at EL1
 * (PXN) and are always not-global; device memory is never executable.
 */
static inline pteval_t arch_pte_mk_leaf(phys_addr_t pa, unsigned prot, int level)
{
	pteval_t v = PTE_VALID | PTE_AF | PTE_SH_INNER | (pa & PTE_OA_MASK);

	if (level == PT_LAST_LEVEL)
		v |= PTE_TABLE_BIT;   /* "page" encoding at the last level */
	v |= PTE_ATTRINDX((prot & PT_DEVICE) ? MT_DEVICE_nGnRE : MT_NORMAL);
	if (!(prot & PT_WRITE))
		v |= PTE_RDONLY;
	if (prot & PT_USER) {
		v |= PTE_USER | PTE_PXN | PTE_NG;
		if (!(prot & PT_EXEC) || (prot & PT_DEVICE))
			v |= PTE_UXN;
		if (prot & PT_GUARDED)
			v |= PTE_GP;	/* BTI: EL0 indirect branches here must land on a BTI */
	} else {
		v |= PTE_UXN;
		if (!(prot & PT_EXEC) || (prot & PT_DEVICE))
			v |= PTE_PXN;
	}
	if (prot & PT_NG)
		v |= PTE_NG;
	if (prot & PT_CONT)
		v |= PTE_CONT;
	return v;
}

/*
 * A table descriptor pointing at the table page 'pa'. Kernel tables carry
 * UXNTable (nothing below is EL0-executable), user tables PXNTable
 * (nothing below is EL1-executable).
 */
static inline pteval_t arch_pte_mk_table(phys_addr_t pa, bool user)
{
	return (pa & PTE_OA_MASK) | PTE_VALID | PTE_TABLE_BIT | (user ? PTE_PXNTABLE : PTE_UXNTABLE);
}

/*
 * Does changing a live descriptor from 'old' to 'new' need break-before-make?
 *
 * Wider than Linux's pgattr_change_is_safe() (docs/DESIGN.md says why):
 * safe in place are invalid -> anything, anything -> invalid, and a change
 * between two valid leaves with the same output address, the same type
 * (block/page), the same memory type and shareability and the same
 * contiguous bit, where only permissions (AP, PXN, UXN, DBM, GP), AF,
 * software bits, or global -> not-global change. Everything else - a new output
 * address, block <-> table, a memory-type or CONT change, not-global ->
 * global, any change to a table descriptor - needs BBM (Arm ARM RWHZWS).
 * A contiguous run whose entries all pass this changes in place as a whole
 * (Arm ARM RJQQTC: a lookup sees one entry's old or new values).
 */
static inline bool arch_pte_change_needs_bbm(pteval_t old, pteval_t new, int level)
{
	const pteval_t safe = PTE_RDONLY | PTE_USER | PTE_PXN | PTE_UXN | PTE_DBM | PTE_GP |
			      PTE_AF | PTE_NG | PTE_SW_MASK;

	if (!arch_pte_valid(old) || !arch_pte_valid(new))
		return false;
	if (arch_pte_is_table(old, level) || arch_pte_is_table(new, level))
		return old != new;
	if ((old & PTE_NG) && !(new & PTE_NG))
		return true;
	return ((old ^ new) & ~safe) != 0;
}

/* ---- ptdump tables ---- */

/*
 * Attribute tokens in Linux's arm64 ptdump order. For each entry the
 * token is 'set' when (attrs & mask) == val, else 'clear' (NULL: nothing).
 */
static inline const struct pt_attr_name *arch_ptdump_attr_names(unsigned *n)
{
	static const struct pt_attr_name names[] = {
		{ PTE_VALID, PTE_VALID, " ", "F" },
		{ PTE_USER, PTE_USER, "USR", "   " },
		{ PTE_RDONLY, PTE_RDONLY, "ro", "RW" },
		{ PTE_PXN, PTE_PXN, "NX", "x " },
		{ PTE_SH_MASK, PTE_SH_INNER, "SHD", "   " },
		{ PTE_AF, PTE_AF, "AF", "  " },
		{ PTE_NG, PTE_NG, "NG", "  " },
		{ PTE_CONT, PTE_CONT, "CON", "   " },
		{ PTE_TABLE_BIT, PTE_TABLE_BIT, "   ", "BLK" },
		{ PTE_UXN, PTE_UXN, "UXN", "   " },
		{ PTE_GP, PTE_GP, "GP", "  " },
		{ PTE_ATTRINDX_MASK, PTE_ATTRINDX(MT_DEVICE_nGnRnE), "DEVICE/nGnRnE", NULL },
		{ PTE_ATTRINDX_MASK, PTE_ATTRINDX(MT_DEVICE_nGnRE), "DEVICE/nGnRE", NULL },
		{ PTE_ATTRINDX_MASK, PTE_ATTRINDX(MT_NORMAL_NC), "MEM/NORMAL-NC", NULL },
		{ PTE_ATTRINDX_MASK, PTE_ATTRINDX(MT_NORMAL), "MEM/NORMAL", NULL },
	};

	*n = sizeof(names) / sizeof(names[0]);
	return names;
}

/* Section markers of the kernel address space, in ascending order. */
static inline const struct pt_marker *arch_ptdump_markers(unsigned *n)
{
	static const struct pt_marker markers[] = {
		{ PAGE_OFFSET, "Linear Mapping start" },
		{ PAGE_END, "Linear Mapping end" },
		{ KIMAGE_VADDR, "Kernel Image start" },
		{ KIMAGE_END, "Kernel Image end" },
		{ FIXMAP_BASE, "Fixmap start" },
		{ FIXMAP_END, "Fixmap end" },
		{ IOREMAP_BASE, "ioremap start" },
		{ IOREMAP_END, "ioremap end" },
	};

	*n = sizeof(markers) / sizeof(markers[0]);
	return markers;
}

#endif
