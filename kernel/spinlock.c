/*
 * spinlock.c - the generic spinlock API (see spinlock.h).
 */
#include "spinlock.h"
#include "arch_proc.h"
#include "printk.h"
#include "smp.h"

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

#if NR_CPUS > 1
/*
 * ---- the kernel lock (smp.h) ----
 *
 * A test-and-set lock over the arch's word, not a ticket lock: QEMU runs
 * each virtual CPU as a host thread, and with more virtual CPUs than host
 * cores a ticket lock hands the kernel to a CPU whose thread is not
 * running while every other CPU waits (measured: a few hundred hand-overs
 * a second, the thread stress made no progress), where test-and-set lets
 * whichever CPU runs take it. Fairness comes from the scheduler loop,
 * which lets the lock go between two processes.
 */
static struct spinlock kernel_big_lock = SPINLOCK_INIT("kernel lock");

/*
 * Take the kernel lock. Interrupts are masked here (every caller is on a
 * kernel entry path or in the scheduler loop), so while another CPU holds
 * it this CPU serves what the holder may be waiting for: a cross-CPU call
 * or a rendezvous (smp_poll()).
 */
void kernel_lock(void)
{
	struct spinlock *l = &kernel_big_lock;

	if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) == arch_cpu_id())
		panic("kernel lock: taken again by CPU %d, which holds it", l->owner);
	while (__atomic_load_n(&l->word, __ATOMIC_RELAXED) || !arch_spin_trylock(&l->word))
		smp_poll();
	l->owner = arch_cpu_id();
}

/* Release the kernel lock this CPU holds. */
void kernel_unlock(void)
{
	spin_unlock(&kernel_big_lock);
}

bool kernel_lock_held(void)
{
	return __atomic_load_n(&kernel_big_lock.owner, __ATOMIC_RELAXED) == arch_cpu_id();
}
#endif
