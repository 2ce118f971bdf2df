/*
 * mb.h - state and helpers shared by the MicroBlaze arch files.
 */
#ifndef ARCH_MB_H
#define ARCH_MB_H

#include "types.h"
#include <asm/mmu.h>
#include <asm/irqflags.h>

/* One shadowed UTLB slot (entry.S writes these in real mode). */
struct mb_tlb_slot {
	u32 hi;    /* the TLBHI written: tag | size | V; 0 = empty */
	u32 tid;   /* the TID latched with it (0: global) */
};

extern struct mb_tlb_slot mb_tlb_shadow[TLB_ENTRIES];
extern u32 mb_tlb_first, mb_tlb_next, mb_tlb_next_block;
extern u32 mb_kernel_pgd_pa, mb_user_pgd_pa, mb_linear_offset, mb_kstack_top;
extern char mb_boot_cmdline[];

void mb_tlb_unpin_boot(void);
void mb_tlb_remove(unsigned long start, unsigned long last);   /* tlb_asm.S */
void mb_tlb_remove_tid(u32 tid);

/* drivers/xps_timer.c: cycles since the last tick (interrupts masked). */
u64 xps_timer_free_cycles(void);
void mb_tlb_census(unsigned *valid, unsigned *huge);

/* Special registers. */
#define mfs(reg) ({ u32 _v; __asm__ volatile("mfs %0, " #reg : "=r"(_v)); _v; })
#define mts(reg, v) __asm__ volatile("mts " #reg ", %0" :: "r"((u32)(v)))

/* FSR, the FPU status register: sticky flags, set by the FPU (UG984). */
#define FSR_DO	0x01	/* denormalized operand */
#define FSR_UF	0x02	/* underflow */
#define FSR_OF	0x04	/* overflow */
#define FSR_DZ	0x08	/* divide by zero */
#define FSR_IO	0x10	/* invalid operation */
#define FSR_FLAGS	0x1f

static inline void mb_irq_disable(void)
{
	arch_local_irq_disable();
}

#endif
