/*
 * asm/spinlock.h - the arm64 lock word behind kernel/spinlock.h
 * (arch_spin_lock/unlock in include/arch.h, defined out of line in
 * arch/arm64/kernel/spinlock.c from these).
 *
 * A lock is one 32-bit word: 0 free, 1 held. Two ways to take it, chosen
 * once at boot from ID_AA64ISAR0_EL1.Atomic (arm64_has_lse, set by the boot
 * CPU before any lock is used; a secondary without LSE on a system that
 * uses it stops the boot, smp.c):
 *   LSE (FEAT_LSE, Atomic >= 2): SWPA writes 1 and returns the old value
 *         with acquire semantics in one instruction; while the lock is seen
 *         held we only read it, so waiters do not fight over the line.
 *   LL/SC (Armv8.0, e.g. Cortex-A72): LDAXR/STXR retried until the store
 *         succeeds on a free word. SEVL + WFE make a waiter sleep until the
 *         holder's release store clears its exclusive monitor.
 * The two forms are atomic with respect to each other (both are single-
 * copy atomic read-modify-writes of the word). Release is STLR of 0 either
 * way: every access inside the critical section is ordered before it.
 */
#ifndef ASM_SPINLOCK_H
#define ASM_SPINLOCK_H

#include "types.h"

extern bool arm64_has_lse;	/* FEAT_LSE: take locks with SWPA */

static inline void arm64_spin_lock_lse(u32 *word)
{
	u32 old;

	for (;;) {
		__asm__ volatile(".arch_extension lse\n\t"
				 "swpa	%w[one], %w[old], %[w]"
				 : [old] "=&r"(old), [w] "+Q"(*word) : [one] "r"(1u) : "memory");
		if (!old)
			return;
		while (*(volatile u32 *)word)
			__asm__ volatile("yield" ::: "memory");
	}
}

static inline void arm64_spin_lock_llsc(u32 *word)
{
	u32 tmp, fail;

	__asm__ volatile("	sevl\n"
			 "1:	wfe\n"
			 "	ldaxr	%w[tmp], %[w]\n"
			 "	cbnz	%w[tmp], 1b\n"
			 "	stxr	%w[fail], %w[one], %[w]\n"
			 "	cbnz	%w[fail], 1b\n"
			 : [tmp] "=&r"(tmp), [fail] "=&r"(fail), [w] "+Q"(*word)
			 : [one] "r"(1u) : "memory");
}

/* One attempt in either form: true if the word was free and is now ours. */
static inline bool arm64_spin_trylock_lse(u32 *word)
{
	u32 old;

	__asm__ volatile(".arch_extension lse\n\t"
			 "swpa	%w[one], %w[old], %[w]"
			 : [old] "=&r"(old), [w] "+Q"(*word) : [one] "r"(1u) : "memory");
	return old == 0;	/* (a held word stays 1: SWPA wrote what was there) */
}

static inline bool arm64_spin_trylock_llsc(u32 *word)
{
	u32 tmp, fail;

	__asm__ volatile("1:	ldaxr	%w[tmp], %[w]\n"
			 "	cbnz	%w[tmp], 2f\n"
			 "	stxr	%w[fail], %w[one], %[w]\n"
			 "	cbnz	%w[fail], 1b\n"	/* lost the monitor, not the lock: again */
			 "	b	3f\n"
			 "2:	clrex\n"		/* held: drop the reservation this try made */
			 "3:\n"
			 : [tmp] "=&r"(tmp), [fail] "=&r"(fail), [w] "+Q"(*word)
			 : [one] "r"(1u) : "memory");
	return tmp == 0;
}

static inline void arm64_spin_unlock(u32 *word)
{
	__asm__ volatile("stlr	wzr, %[w]" : [w] "=Q"(*word) :: "memory");
}

#endif
