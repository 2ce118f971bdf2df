/*
 * asm/irqflags.h - turning the CPU's interrupt input on and off (MSR.IE).
 */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

#include <asm/mmu.h>

static inline void arch_local_irq_enable(void)
{
	__asm__ volatile("msrset r0, %0" :: "i"(MSR_IE) : "memory");
}

static inline void arch_local_irq_disable(void)
{
	__asm__ volatile("msrclr r0, %0" :: "i"(MSR_IE) : "memory");
}

#endif
