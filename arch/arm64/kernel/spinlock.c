/*
 * spinlock.c - arm64's arch_spin_lock/trylock/unlock (include/arch.h) over the
 * LSE and LL/SC forms of asm/spinlock.h.
 */
#include "arch.h"
#include <asm/spinlock.h>

bool arm64_has_lse;

void arch_spin_lock(u32 *word)
{
	if (arm64_has_lse)
		arm64_spin_lock_lse(word);
	else
		arm64_spin_lock_llsc(word);
}

bool arch_spin_trylock(u32 *word)
{
	return arm64_has_lse ? arm64_spin_trylock_lse(word) : arm64_spin_trylock_llsc(word);
}

void arch_spin_unlock(u32 *word)
{
	arm64_spin_unlock(word);
}
