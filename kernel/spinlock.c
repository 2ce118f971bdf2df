/*
 * spinlock.c - the generic spinlock API (see spinlock.h).
 */
#include "spinlock.h"
#include "arch_proc.h"
#include "printk.h"

/* Take l; on a one-CPU build, a lock that is already held can never be
 * released while we spin: panic naming it. */
void spin_lock(struct spinlock *l)
{
	if (NR_CPUS == 1 && __atomic_load_n(&l->word, __ATOMIC_RELAXED))
		panic("spinlock %s: taken again by CPU %d, which holds it (it would never be released)",
		      l->name ? l->name : "?", l->owner);
	arch_spin_lock(&l->word);
	l->owner = arch_cpu_id();
}

/* Release l; it must be held by this CPU. */
void spin_unlock(struct spinlock *l)
{
	if (l->owner != arch_cpu_id())
		panic("spinlock %s: released by CPU %d, held by CPU %d", l->name ? l->name : "?",
		      arch_cpu_id(), l->owner);
	l->owner = -1;
	arch_spin_unlock(&l->word);
}

unsigned long spin_lock_irqsave(struct spinlock *l)
{
	unsigned long flags = arch_irq_save();

	spin_lock(l);
	return flags;
}

void spin_unlock_irqrestore(struct spinlock *l, unsigned long flags)
{
	spin_unlock(l);
	arch_irq_restore(flags);
}

bool spin_is_locked(const struct spinlock *l)
{
	return __atomic_load_n(&l->word, __ATOMIC_RELAXED) != 0;
}
