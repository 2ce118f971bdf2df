/*
 * asm/pgtable.h - MicroBlaze page-table descriptors (software format read
 * by our TLB refill handler), as pure C inline functions.
 *
 * MicroBlaze has no hardware table walker: a TLB miss traps to the refill
 * handler (arch/microblaze/kernel/entry.S), which walks these tables at
 * physical addresses and loads one UTLB entry. The format is therefore
 * ours; it is described bit by bit in <asm/mmu.h>.
 *
 *   level 0 "PGD"  VA[31:PT_L0_SHIFT]  table, or a block leaf
 *   level 1 "PTE"  the next PT_L1_BITS  a page
 *
 * The split follows the page size (table in <asm/mmu.h>): 4 KiB pages:
 * 10 + 10 bits, 4 MiB blocks, runs of 4 blocks with PTE_CONT = one 16 MiB
 * TLB entry; 16 KiB: 6 + 12 bits, 64 MiB blocks, runs of 1024 pages = one
 * 16 MiB entry; 64 KiB: 2 + 14 bits, no blocks, runs of 256 pages.
 *
 * Include it through mm/pgtable.h, which defines the generic PT_* flags.
 */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include "types.h"
#include <asm/memlayout.h>
#include <asm/mmu.h>

#ifndef PT_READ
#error "include mm/pgtable.h, which defines the generic PT_* flags first"
#endif

typedef u32 pteval_t;

/* Guarded pages (PROT_BTI) are arm64's: mprotect refuses the bit here. */
static inline bool arch_has_bti(void)
{
	return false;
}

/* PAGE_SHIFT and PAGE_SIZE come from <asm/memlayout.h>. */

#define PT_LEVELS      2
#define PT_LAST_LEVEL  (PT_LEVELS - 1)

/* Largest leaf: the linear map's base is aligned to it (4K: 4 MiB, 16K: 64 MiB, 64K: a page). */
#define PT_LARGEST_LEAF_LEVEL (PT_L0_LEAVES ? 0 : 1)

/* ---- level geometry ---- */

static inline unsigned arch_pt_shift(int level)
{
	return level == 0 ? PT_L0_SHIFT : PT_L1_SHIFT;
}

static inline unsigned long arch_pt_entries(int level)
{
	return 1UL << (level == 0 ? PT_L0_BITS : PT_L1_BITS);
}

/* Pages always; blocks at level 0 with 4K and 16K pages (PT_L0_LEAVES). */
static inline bool arch_pt_leaf_ok(int level)
{
	return (level == 0 && PT_L0_LEAVES) || level == 1;
}

static inline unsigned arch_pt_cont_entries(int level)
{
	return level == 0 ? PT_L0_CONT_ENTRIES : PT_L1_CONT_ENTRIES;
}

/*
 * The size (log2) of the UTLB slot the refill handler (entry.S) loads for
 * the leaf v at 'level': 16 MiB for a PTE_CONT run and for a block larger
 * than 16 MiB, else the leaf's own size.
 */
static inline unsigned arch_mb_slot_shift(pteval_t v, int level)
{
	unsigned shift = arch_pt_shift(level);

	if ((v & PTE_CONT) || shift > PT_CONT_SHIFT)
		return PT_CONT_SHIFT;
	return shift;
}

static inline const char *arch_pt_level_name(int level)
{
	return level == 0 ? "PGD" : level == 1 ? "PTE" : "???";
}

/* ---- decoding ---- */

static inline bool arch_pte_valid(pteval_t v)
{
	return (v & PTE_VALID) != 0;
}

static inline bool arch_pte_is_table(pteval_t v, int level)
{
	return level == 0 && (v & (PTE_VALID | PTE_LEAF)) == PTE_VALID;
}

static inline bool arch_pte_is_leaf(pteval_t v, int level)
{
	return arch_pte_valid(v) && !arch_pte_is_table(v, level);
}

static inline bool arch_pte_is_cont(pteval_t v)
{
	return (v & PTE_CONT) != 0;
}

static inline phys_addr_t arch_pte_pa(pteval_t v)
{
	return v & PTE_OA_MASK;
}

static inline pteval_t arch_pte_oa_add(pteval_t v, u64 delta)
{
	return v + (pteval_t)delta;   /* the address field holds the address in place */
}

static inline unsigned arch_pte_prot(pteval_t v)
{
	unsigned prot = PT_READ;

	if (v & PTE_WR)
		prot |= PT_WRITE;
	if (v & PTE_EX)
		prot |= PT_EXEC;
	if (v & PTE_USER)
		prot |= PT_USER;
	if (v & (PTE_I | PTE_G))
		prot |= PT_DEVICE;
	if (v & PTE_CONT)
		prot |= PT_CONT;
	if (v & PTE_NG)
		prot |= PT_NG;
	return prot;
}

static inline pteval_t arch_pte_attrs(pteval_t v)
{
	return v & ~(pteval_t)PTE_OA_MASK;
}

/* ---- encoding ---- */

#define ARCH_PTE_INVALID ((pteval_t)0)

/*
 * Software entries: last-level descriptors with PTE_VALID clear, which the
 * refill handler treats as "no translation" (a fault), used by mm/ to
 * remember a user page that is kept but not accessible (PROT_NONE) or a
 * guard marker (MADV_GUARD_INSTALL). The kind sits in bits [3:2] and the
 * page's address in the usual output-address bits [31:PAGE_SHIFT].
 * ARCH_SWP_NONE means "not a software entry" (empty or valid).
 */
#define ARCH_SWP_NONE      0u
#define ARCH_SWP_PROTNONE  1u
#define ARCH_SWP_GUARD     2u

static inline pteval_t arch_pte_mk_swp(unsigned kind, phys_addr_t pa)
{
	return ((pteval_t)kind << 2) | ((pteval_t)pa & PTE_OA_MASK);
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
 * A leaf at 'level' mapping pa with the generic flags in prot. Device
 * memory is cache-inhibited and guarded and never executable; user
 * mappings live in zone 1 and are tagged with the PID (not global).
 */
static inline pteval_t arch_pte_mk_leaf(phys_addr_t pa, unsigned prot, int level)
{
	pteval_t v = PTE_VALID | ((pteval_t)pa & (level == 0 ? PTE_OA_L0 : PTE_OA_MASK));

	if (level == 0)
		v |= PTE_LEAF;
	if (prot & PT_WRITE)
		v |= PTE_WR;
	if ((prot & PT_EXEC) && !(prot & PT_DEVICE))
		v |= PTE_EX;
	if (prot & PT_DEVICE)
		v |= PTE_I | PTE_G;
	if (prot & PT_USER)
		v |= PTE_USER | PTE_NG;
	if (prot & PT_NG)
		v |= PTE_NG;
	if ((prot & PT_CONT) && arch_pt_cont_entries(level) > 1)
		v |= PTE_CONT;
	return v;
}

/* A level-0 descriptor pointing at the level-1 table page 'pa'. */
static inline pteval_t arch_pte_mk_table(phys_addr_t pa, bool user)
{
	(void)user;
	return ((pteval_t)pa & PTE_OA_MASK) | PTE_VALID;
}

/*
 * Does changing a live descriptor from 'old' to 'new' need the MicroBlaze
 * form of break-before-make (invalid; remove every TLB slot covering the
 * range; new)?
 *
 * The UTLB is filled only by our refill handler, on a miss. If the old
 * translation may still sit in a slot while the new descriptor is live, a
 * miss elsewhere in the range can load a second, overlapping slot - QEMU
 * then uses whichever has the lower index, hardware may do worse. That
 * happens whenever the size or shape changes (table <-> leaf, a CONT
 * change), and we also refuse two slots giving different output
 * addresses, cache attributes or TIDs for one VA. Safe in place, followed
 * by the slot removal: invalid -> anything, anything -> invalid, and a
 * change of WR, EX or USER alone (permissions: a stale slot is only as
 * permissive as the old descriptor until it is removed).
 */
static inline bool arch_pte_change_needs_bbm(pteval_t old, pteval_t new, int level)
{
	const pteval_t safe = PTE_WR | PTE_EX | PTE_USER;

	if (!arch_pte_valid(old) || !arch_pte_valid(new))
		return false;
	if (arch_pte_is_table(old, level) || arch_pte_is_table(new, level))
		return old != new;
	return ((old ^ new) & ~safe) != 0;
}

/* ---- ptdump tables ---- */

static inline const struct pt_attr_name *arch_ptdump_attr_names(unsigned *n)
{
	static const struct pt_attr_name names[] = {
		{ PTE_VALID, PTE_VALID, " ", "F" },
		{ PTE_USER, PTE_USER, "USR", "   " },
		{ PTE_WR, PTE_WR, "RW", "ro" },
		{ PTE_EX, PTE_EX, "x ", "NX" },
		{ PTE_NG, PTE_NG, "NG", "  " },
		{ PTE_CONT, PTE_CONT, "CON", "   " },
		{ PTE_LEAF, PTE_LEAF, "BLK", "   " },
		{ PTE_I | PTE_G, PTE_I | PTE_G, "DEVICE/IG", NULL },
		{ PTE_I | PTE_G, 0, "MEM/CACHED", NULL },
	};

	*n = sizeof(names) / sizeof(names[0]);
	return names;
}

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
