/*
 * Fake arch for host tests: descriptor accesses, barriers and TLBIs go to
 * the TLB model (tests/host/tlb_model.c) instead of the hardware. Pointers
 * to descriptors are simulated kernel virtual addresses, translated by the
 * model on every access; they are never dereferenced on the host.
 */
#ifndef FAKE_ASM_TLB_H
#define FAKE_ASM_TLB_H

#include "types.h"
#include "tlb_model.h"

#define ARCH_TLBI_LEAF       0
#define ARCH_TLBI_ALL_LEVELS 1
#define ARCH_TLBI_SPACE      2

static inline pteval_t arch_pte_read(const pteval_t *p)
{
	return tlb_model_read((unsigned long)p);
}

static inline void arch_pte_write(pteval_t *p, pteval_t v)
{
	tlb_model_write((unsigned long)p, v);
}

/* dsb ishst: publishes earlier descriptor writes to the walker. */
static inline void arch_dsb_ishst(void)
{
	tlb_model_dsb(false);
}

/* dsb ishst before linking a new table: publishes the stores that filled it. */
static inline void arch_pt_publish_barrier(void)
{
	tlb_model_publish_barrier();
}

/* dsb ish: also completes the TLBIs issued so far. */
static inline void arch_dsb_ish(void)
{
	tlb_model_dsb(true);
}

/* isb: nothing to model (no instruction fetch). */
static inline void arch_isb(void)
{
}

static inline void arch_tlbi_va(int kind, unsigned long va, int asid)
{
	tlb_model_tlbi(kind, va, asid);
}

static inline void arch_tlbi_space(int asid)
{
	tlb_model_tlbi(ARCH_TLBI_SPACE, 0, asid);
}

/* The same steps as the arm64 asm sequence, one hook at a time. */
static inline void arch_bbm_run(pteval_t *ptep, unsigned long n, pteval_t new_first,
				pteval_t oa_step, unsigned long va, unsigned long va_step,
				int kind, int asid)
{
	for (unsigned long i = 0; i < n; i++)
		arch_pte_write(ptep + i, 0);
	arch_dsb_ishst();
	if (kind == ARCH_TLBI_SPACE)
		arch_tlbi_space(asid);
	else
		for (unsigned long i = 0; i < n; i++)
			arch_tlbi_va(kind, va + i * va_step, asid);
	arch_dsb_ish();
	for (unsigned long i = 0; i < n; i++)
		arch_pte_write(ptep + i, new_first + i * oa_step);
	arch_dsb_ishst();
	arch_isb();
}

/* Static objects get fake addresses inside the simulated kernel image. */
static inline unsigned long arch_kimage_sym_va(const void *sym)
{
	return tlb_model_sym_va(sym);
}

/* The rendezvous around a kernel break: the model's other CPUs stop. */
static inline void arch_pt_hold_others(void)
{
	tlb_model_hold_others();
}

static inline void arch_pt_release_others(void)
{
	tlb_model_release_others();
}

#endif
