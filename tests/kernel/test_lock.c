/*
 * test_lock.c - the lock checkers must fire (kernel/spinlock.c): each test
 * is an expected panic, so each has a boot of its own (tests/qemu-configs).
 */
#include "ktest.h"
#include "spinlock.h"
#include "smp.h"

/*
 * A lock taken again by the CPU that holds it would never be released:
 * with several CPUs this is the kernel lock's check (kernel_lock()), on a
 * one-CPU build (MicroBlaze) any spinlock's (spin_lock()).
 * Boots with ktest=lock_recursion.
 */
KTEST_PANICS(lock_recursion)
{
#if NR_CPUS > 1
	if (!kernel_lock_held())
		kernel_lock();
	ktest_expect_panic("the kernel lock taken again by the CPU that holds it is refused");
	kernel_lock();
#else
	static struct spinlock l = SPINLOCK_INIT("ktest");

	spin_lock(&l);
	ktest_expect_panic("a spinlock taken again by the CPU that holds it is refused");
	spin_lock(&l);
#endif
	ktest_ok(false, "the second take returned");
}

/*
 * Releasing a lock this CPU does not hold is refused (spin_unlock(), which
 * kernel_unlock() uses too). Boots with ktest=unlock_unheld.
 */
KTEST_PANICS(unlock_unheld)
{
	static struct spinlock l = SPINLOCK_INIT("ktest");

	ktest_expect_panic("a spinlock released by a CPU that does not hold it is refused");
	spin_unlock(&l);
	ktest_ok(false, "the release returned");
}
