/*
 * asm/tlb.h - arm64 descriptor access, barriers and TLB maintenance.
 *
 * mm/pte_update.c is the only caller of the write and TLBI primitives for
 * live descriptors; everything here is a thin wrapper around one or a few
 * instructions. All TLBIs are the Inner Shareable broadcast forms, so they
 * reach every CPU that may share the tables.
 *
 * ASIDs: asid < 0 names the kernel (global mappings, TTBR1); the kernel
 * forms invalidate the VA for every ASID ("VAA"). asid >= 0 names a user
 * address space and uses the ASID-tagged forms.
 */
#ifndef ASM_TLB_H
#define ASM_TLB_H

#include "types.h"

/* What a VA-based invalidation must cover. */
#define ARCH_TLBI_LEAF       0   /* last-level entries only (a leaf changed) */
#define ARCH_TLBI_ALL_LEVELS 1   /* leaf and walk-cache entries (a table changed) */
#define ARCH_TLBI_SPACE      2   /* the whole address space (large table removal) */

/* Read a descriptor. volatile: the walker may set bits, never cache it. */
static inline pteval_t arch_pte_read(const pteval_t *p)
{
	return *(const volatile pteval_t *)p;
}

/* Write a descriptor with one single-copy-atomic 64-bit store. */
static inline void arch_pte_write(pteval_t *p, pteval_t v)
{
	*(volatile pteval_t *)p = v;
}

/*
 * dsb ishst: orders earlier stores (descriptor writes) before any later
 * TLBI or store, and makes them visible to every table walker in the inner
 * shareable domain (Arm ARM D8.2.6, "Ordering of memory accesses from
 * translation table walks").
 */
static inline void arch_dsb_ishst(void)
{
	__asm__ volatile("dsb ishst" ::: "memory");
}

/*
 * Before a descriptor that links a new table is written: dsb ishst makes
 * the stores that zeroed and filled the table page visible to every table
 * walker first. Without it a walker (of this or another CPU) that sees the
 * new table descriptor may read the page's old contents - garbage or a
 * stale descriptor - and cache it (Arm ARM D8.2.6; Linux has the same
 * barrier in its table population).
 */
static inline void arch_pt_publish_barrier(void)
{
	__asm__ volatile("dsb ishst" ::: "memory");
}

/* dsb ish: waits until earlier TLBIs have completed on every CPU. */
static inline void arch_dsb_ish(void)
{
	__asm__ volatile("dsb ish" ::: "memory");
}

/* isb: later instructions (and fetches) use the new translations. */
static inline void arch_isb(void)
{
	__asm__ volatile("isb" ::: "memory");
}

/* TLBI operand for a VA form: VA[55:12] in bits [43:0], ASID in [63:48]. */
static inline unsigned long arch_tlbi_operand(unsigned long va, int asid)
{
	unsigned long arg = (va >> 12) & ((1UL << 44) - 1);

	if (asid >= 0)
		arg |= (unsigned long)asid << 48;
	return arg;
}

/* Invalidate the translation of one VA; 'kind' is ARCH_TLBI_LEAF or _ALL_LEVELS. */
static inline void arch_tlbi_va(int kind, unsigned long va, int asid)
{
	unsigned long arg = arch_tlbi_operand(va, asid);

	if (asid < 0 && kind == ARCH_TLBI_LEAF)
		__asm__ volatile("tlbi vaale1is, %0" :: "r"(arg) : "memory");
	else if (asid < 0)
		__asm__ volatile("tlbi vaae1is, %0" :: "r"(arg) : "memory");
	else if (kind == ARCH_TLBI_LEAF)
		__asm__ volatile("tlbi vale1is, %0" :: "r"(arg) : "memory");
	else
		__asm__ volatile("tlbi vae1is, %0" :: "r"(arg) : "memory");
}

/* Invalidate a whole address space: every entry (kernel) or one ASID. */
static inline void arch_tlbi_space(int asid)
{
	if (asid < 0)
		__asm__ volatile("tlbi vmalle1is" ::: "memory");
	else
		__asm__ volatile("tlbi aside1is, %0" :: "r"((unsigned long)asid << 48) : "memory");
}

/*
 * The BBM loop for n consecutive descriptors, as ONE asm statement:
 *   1. store 0 to all n entries;
 *   2. dsb ishst: the invalid entries are visible to all walkers before the TLBI;
 *   3. TLBI each VA (step va_step), or the whole space;
 *   4. dsb ish: the invalidation has completed everywhere;
 *   5. store the new entries (new_first, OA advancing by oa_step);
 *   6. dsb ishst + isb: new entries visible, later instructions use them.
 * The VA-form TLBI loop issues n TLBIs, va, va + va_step, ...
 * Between 1 and 5 the range is unmapped. Everything the sequence needs is in
 * registers, so it touches no memory but the descriptors themselves - not
 * the stack, which may live inside the range being broken. Interrupts and
 * other exceptions are masked (DAIF) for the whole sequence so that no
 * handler can push onto that stack inside the window either.
 */
#define ARCH_BBM_ASM(TLBI_LOOP)                                              \
	__asm__ volatile(                                                    \
		"	mrs	%[d], daif\n"                                \
		"	msr	daifset, #0xf\n"                             \
		"	mov	%[i], %[n]\n"                                \
		"	mov	%[a], %[p]\n"                                \
		"1:	str	xzr, [%[a]], #8\n"                           \
		"	subs	%[i], %[i], #1\n"                            \
		"	b.ne	1b\n"                                        \
		"	dsb	ishst\n"                                     \
		TLBI_LOOP                                                    \
		"	dsb	ish\n"                                       \
		"	mov	%[i], %[n]\n"                                \
		"	mov	%[a], %[p]\n"                                \
		"	mov	%[v], %[nv]\n"                               \
		"3:	str	%[v], [%[a]], #8\n"                          \
		"	add	%[v], %[v], %[os]\n"                         \
		"	subs	%[i], %[i], #1\n"                            \
		"	b.ne	3b\n"                                        \
		"	dsb	ishst\n"                                     \
		"	isb\n"                                               \
		"	msr	daif, %[d]\n"                                \
		: [i] "=&r"(i), [a] "=&r"(a), [v] "=&r"(v), [d] "=&r"(d)     \
		: [n] "r"(n), [p] "r"(ptep), [nv] "r"(new_first),            \
		  [os] "r"(oa_step), [arg] "r"(arg), [as] "r"(arg_step)      \
		: "memory", "cc")

#define ARCH_TLBI_LOOP(OP)                                                   \
	"	mov	%[i], %[n]\n"                                        \
	"	mov	%[a], %[arg]\n"                                      \
	"2:	tlbi	" OP ", %[a]\n"                                      \
	"	add	%[a], %[a], %[as]\n"                                 \
	"	subs	%[i], %[i], #1\n"                                    \
	"	b.ne	2b\n"

static inline void arch_bbm_run(pteval_t *ptep, unsigned long n, pteval_t new_first,
				pteval_t oa_step, unsigned long va, unsigned long va_step,
				int kind, int asid)
{
	unsigned long i, a, v, d;
	unsigned long arg = arch_tlbi_operand(va, asid);
	unsigned long arg_step = va_step >> 12;

	if (kind == ARCH_TLBI_SPACE) {
		arg = asid < 0 ? 0 : (unsigned long)asid << 48;
		if (asid < 0)
			ARCH_BBM_ASM("	tlbi	vmalle1is\n");
		else
			ARCH_BBM_ASM("	tlbi	aside1is, %[arg]\n");
	} else if (asid < 0 && kind == ARCH_TLBI_LEAF) {
		ARCH_BBM_ASM(ARCH_TLBI_LOOP("vaale1is"));
	} else if (asid < 0) {
		ARCH_BBM_ASM(ARCH_TLBI_LOOP("vaae1is"));
	} else if (kind == ARCH_TLBI_LEAF) {
		ARCH_BBM_ASM(ARCH_TLBI_LOOP("vale1is"));
	} else {
		ARCH_BBM_ASM(ARCH_TLBI_LOOP("vae1is"));
	}
}

/* The kernel VA of a symbol inside the kernel image (the image alias). */
static inline unsigned long arch_kimage_sym_va(const void *sym)
{
	return (unsigned long)sym;
}

/*
 * Around a break of a kernel mapping: hold every other CPU still in the
 * rendezvous (arch/arm64/kernel/smp.c) so none can touch the broken range.
 */
void smp_hold_others(void);
void smp_release_others(void);
static inline void arch_pt_hold_others(void)
{
	smp_hold_others();
}

static inline void arch_pt_release_others(void)
{
	smp_release_others();
}

#endif
