/*
 * irqflags.c - arm64 interrupt masking (PSTATE.I) and waiting for an
 * interrupt, the arch hooks declared in arch.h.
 *
 * Only I is touched: FIQ stays masked (nothing is routed to it) and D/A
 * keep whatever the boot code set. The "memory" clobbers make each call a
 * compiler barrier, so accesses to data shared with handlers stay inside
 * the masked region.
 */
#include "arch.h"

#define DAIF_I	(1ul << 7)	/* PSTATE.I as DAIF reads it */

void arch_irq_enable(void)
{
	__asm__ volatile("msr daifclr, #2" ::: "memory");
}

void arch_irq_disable(void)
{
	__asm__ volatile("msr daifset, #2" ::: "memory");
}

unsigned long arch_irq_save(void)
{
	unsigned long daif;

	__asm__ volatile("mrs %0, daif\n\tmsr daifset, #2" : "=r"(daif) :: "memory");
	return daif;
}

/* Put back PSTATE.I as arch_irq_save() found it (other DAIF bits untouched). */
void arch_irq_restore(unsigned long flags)
{
	if (flags & DAIF_I)
		arch_irq_disable();
	else
		arch_irq_enable();
}

bool arch_irqs_enabled(void)
{
	unsigned long daif;

	__asm__ volatile("mrs %0, daif" : "=r"(daif) :: "memory");
	return !(daif & DAIF_I);
}

/* The DSB completes earlier memory accesses before the core may sleep
 * (the Arm ARM's recommended sequence ahead of WFI). */
void arch_wait_for_interrupt(void)
{
	__asm__ volatile("dsb sy\n\twfi" ::: "memory");
}
