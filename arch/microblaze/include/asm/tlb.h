/*
 * asm/tlb.h - MicroBlaze descriptor access, ordering and "TLBI".
 *
 * There is no hardware walker and no TLBI instruction. The refill handler
 * copies descriptors into the 64-slot UTLB on a miss, and records every
 * slot it writes in a software shadow (arch/microblaze/kernel/tlb.c). To
 * invalidate a VA we look the slots up in the shadow - never by reading
 * TLBHI, which in QEMU overwrites PID (reference pitfall 4) - and rewrite
 * each slot found as invalid, TLBHI (clearing V) first and TLBLO after, so
 * no valid tag ever sits over a cleared TLBLO (a TLBHI write is also what
 * makes QEMU drop its cached translation, pitfall 3).
 *
 * One CPU, and QEMU's loads and stores are in program order, so the
 * barriers below only stop the compiler from moving descriptor accesses
 * across them; on hardware the same places would need "mbar 1" (data side)
 * - noted where it would go.
 *
 * ASIDs: asid < 0 is the kernel (global slots, TID 0); asid >= 0 a user
 * address space: its PID (1..255), the TID of its slots.
 */
#ifndef ASM_TLB_H
#define ASM_TLB_H

#include "types.h"
#include <asm/mmu.h>

#define ARCH_TLBI_LEAF       0   /* a leaf changed: slots covering that VA */
#define ARCH_TLBI_ALL_LEVELS 1   /* a table changed: slots anywhere in the span it covered */
#define ARCH_TLBI_SPACE      2   /* the whole address space */

static inline pteval_t arch_pte_read(const pteval_t *p)
{
	return *(const volatile pteval_t *)p;
}

/* One aligned 32-bit store: the refill handler sees the old or the new value. */
static inline void arch_pte_write(pteval_t *p, pteval_t v)
{
	*(volatile pteval_t *)p = v;
}

/* Descriptor writes before this point reach memory before the refill
 * handler can read them (hardware: mbar 1). */
static inline void arch_dsb_ishst(void)
{
	__asm__ volatile("" ::: "memory");
}

/*
 * Before a descriptor that links a new table is written: the stores that
 * filled the table page must come first. The refill handler runs on this
 * CPU, in program order, so keeping the compiler from moving the stores
 * is all it takes (a second CPU would need "mbar 1" here).
 */
static inline void arch_pt_publish_barrier(void)
{
	__asm__ volatile("" ::: "memory");
}

/* Slot removals are complete once the mts to TLBHI has executed. */
static inline void arch_dsb_ish(void)
{
	__asm__ volatile("" ::: "memory");
}

/* QEMU models no instruction-side shadow TLB (hardware: "bri 4"). */
static inline void arch_isb(void)
{
	__asm__ volatile("" ::: "memory");
}

/* arch/microblaze/kernel/tlb.c */
void mb_tlb_flush_range(unsigned long va, unsigned long size, int asid);
void mb_tlb_flush_space(int asid);
void mb_bbm_run(pteval_t *ptep, unsigned long n, pteval_t new_first, pteval_t oa_step,
		unsigned long va, unsigned long va_step, int kind, int asid);

/* Remove every slot translating va (a leaf) or any VA of the level-0 span of
 * its table (4K pages: 4 MiB; 16K: 64 MiB; 64K: 1 GiB). */
static inline void arch_tlbi_va(int kind, unsigned long va, int asid)
{
	const unsigned long span = 1UL << PT_L0_SHIFT;

	if (kind == ARCH_TLBI_ALL_LEVELS)
		mb_tlb_flush_range(va & ~(span - 1), span, asid);
	else
		mb_tlb_flush_range(va, 1, asid);
}

static inline void arch_tlbi_space(int asid)
{
	mb_tlb_flush_space(asid);
}

/*
 * Break-before-make for n consecutive descriptors: write them invalid,
 * remove every slot covering their range, write the new values
 * (new_first, output address advancing by oa_step). Interrupts are off
 * for the whole sequence; see mb_bbm_run().
 */
static inline void arch_bbm_run(pteval_t *ptep, unsigned long n, pteval_t new_first,
				pteval_t oa_step, unsigned long va, unsigned long va_step,
				int kind, int asid)
{
	mb_bbm_run(ptep, n, new_first, oa_step, va, va_step, kind, asid);
}

static inline unsigned long arch_kimage_sym_va(const void *sym)
{
	return (unsigned long)sym;
}

/* One CPU: no other CPU to hold during a break of a kernel mapping. */
static inline void arch_pt_hold_others(void)
{
}

static inline void arch_pt_release_others(void)
{
}

#endif
