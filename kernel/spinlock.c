/*
 * spinlock.c - locks for one CPU: masking interrupts is mutual exclusion.
 * A lock taken twice is a bug (no recursion), caught here.
 */
#include "spinlock.h"
#include "arch.h"
#include "printk.h"

void spin_lock(struct spinlock *lk)
{
	unsigned long flags = arch_irq_save();

	if (lk->held)
		panic("spin_lock: '%s' is already held", lk->name);
	lk->held = true;
	lk->saved_flags = flags;
}

void spin_unlock(struct spinlock *lk)
{
	unsigned long flags = lk->saved_flags;

	if (!lk->held)
		panic("spin_unlock: '%s' is not held", lk->name);
	lk->held = false;
	arch_irq_restore(flags);
}

bool spin_is_held(const struct spinlock *lk)
{
	return lk->held;
}
