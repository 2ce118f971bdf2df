/*
 * spinlock.h - spinlocks: one generic API over the arch's lock word
 * (include/arch.h: arch_spin_lock/unlock; arm64: LSE or LL/SC atomics in
 * arch/arm64/include/asm/spinlock.h; MicroBlaze, one CPU: a bookkeeping
 * word, since nobody but interrupt handlers competes).
 *
 *   static struct spinlock l = SPINLOCK_INIT("name");
 *   unsigned long flags = spin_lock_irqsave(&l);  ...  spin_unlock_irqrestore(&l, flags);
 *
 * A holder must not sleep or take the same lock again. spin_lock() leaves
 * the interrupt mask alone: use it only for locks no interrupt handler
 * takes. The owner field (the holder's CPU index) lets the one-CPU build
 * panic on a recursive acquire instead of hanging, and helps debugging.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "types.h"
#include "arch.h"

struct spinlock {
	u32 word;		/* the arch's lock word: 0 free */
	const char *name;
	int owner;		/* CPU index of the holder, -1 when free */
};

#define SPINLOCK_INIT(n) { 0, (n), -1 }

void spin_lock(struct spinlock *l);
void spin_unlock(struct spinlock *l);
/* Mask interrupts on this CPU, then take the lock; returns the old mask. */
unsigned long spin_lock_irqsave(struct spinlock *l);
void spin_unlock_irqrestore(struct spinlock *l, unsigned long flags);
bool spin_is_locked(const struct spinlock *l);

#endif
