/*
 * spinlock.h - mutual exclusion for kernel data.
 *
 * Today the kernel runs on one CPU and a lock only has to keep interrupt
 * handlers out: spin_lock() masks interrupts (remembering whether they were
 * on) and spin_unlock() restores them. Code takes the locks it would need
 * on SMP, so adding secondary CPUs changes this file, not its callers.
 */
#ifndef SPINLOCK_H
#define SPINLOCK_H

#include "types.h"

struct spinlock {
	const char *name;
	bool held;
	unsigned long saved_flags;
};

#define SPINLOCK_INIT(n) { .name = (n) }

void spin_lock(struct spinlock *lk);
void spin_unlock(struct spinlock *lk);
bool spin_is_held(const struct spinlock *lk);

#endif
