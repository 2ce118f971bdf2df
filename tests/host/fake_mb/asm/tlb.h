/*
 * Fake MicroBlaze arch for host tests: <asm/tlb.h> with the hardware
 * replaced by the UTLB model (tests/host/mb_tlb_model.c).
 *
 * The real header cannot be used as it is: its arch_pte_read/write
 * dereference the descriptor pointer, and in the host tests descriptor
 * pointers are simulated MicroBlaze kernel virtual addresses that the model
 * translates through its UTLB on every access. So this file MIRRORS the real
 * arch/microblaze/include/asm/tlb.h and differs only in:
 *   arch_pte_read / arch_pte_write   a kernel data access through the model
 *   arch_dsb_ishst / _ish / arch_isb  nothing (the real ones are compiler
 *                                      barriers; slot removal is synchronous)
 *   arch_kimage_sym_va                 a fake image address for a host object
 * arch_tlbi_va, arch_tlbi_space and arch_bbm_run are copied verbatim (the
 * test checks they still match the real header) and call the REAL
 * arch/microblaze/kernel/tlb.c, whose assembly helpers (tlb_asm.S) the model
 * provides in C.
 */
#ifndef FAKE_MB_ASM_TLB_H
#define FAKE_MB_ASM_TLB_H

#include "types.h"
#include <asm/mmu.h>
#include "mb_tlb_model.h"

#define ARCH_TLBI_LEAF       0   /* a leaf changed: slots covering that VA */
#define ARCH_TLBI_ALL_LEVELS 1   /* a table changed: slots anywhere in the span it covered */
#define ARCH_TLBI_SPACE      2   /* the whole address space */

static inline pteval_t arch_pte_read(const pteval_t *p)
{
	return mbm_pte_read((unsigned long)p);
}

static inline void arch_pte_write(pteval_t *p, pteval_t v)
{
	mbm_pte_write((unsigned long)p, v);
}

static inline void arch_dsb_ishst(void)
{
}

/* The real one is a compiler barrier: the refill handler runs in program order. */
static inline void arch_pt_publish_barrier(void)
{
}

static inline void arch_dsb_ish(void)
{
}

static inline void arch_isb(void)
{
}

/* arch/microblaze/kernel/tlb.c (compiled into the host test unchanged) */
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

/* Static host objects (the fixmap's tables) get addresses inside the fake image. */
static inline unsigned long arch_kimage_sym_va(const void *sym)
{
	return mbm_sym_va(sym);
}

/* One CPU: no other CPU to hold during a break of a kernel mapping. */
static inline void arch_pt_hold_others(void)
{
}

static inline void arch_pt_release_others(void)
{
}

#endif
