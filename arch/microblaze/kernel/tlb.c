/*
 * tlb.c - the software side of the MicroBlaze UTLB: the shadow of all 64
 * slots, the state the real-mode refill handler (entry.S) reads, and the
 * "TLBI" and break-before-make hooks that <asm/tlb.h> gives mm/.
 *
 * The refill handler is the only code that fills slots; it records each
 * one in mb_tlb_shadow before writing it. Everything that removes slots
 * (tlb_asm.S) finds them in the shadow: TLBHI is never read (in QEMU that
 * read overwrites PID). Slots below mb_tlb_first are pinned: the refill
 * handler never picks them and flushes never remove them. Page-sized slots
 * are refilled into [TLB_PAGE_FIRST, 64), larger ones (blocks) below it.
 */
#include "types.h"
#include "printk.h"
#include "pgtable.h"
#include "mb.h"

/* Read by entry.S in real mode (through TOPHYS): keep them plain words. */
struct mb_tlb_slot mb_tlb_shadow[TLB_ENTRIES];
u32 mb_tlb_first;          /* first slot the refill handler may use */
u32 mb_tlb_next;           /* next victim for a page, round robin in [TLB_PAGE_FIRST, 64) */
u32 mb_tlb_next_block;     /* next victim for a block, round robin in [first, TLB_PAGE_FIRST) */
u32 mb_kernel_pgd_pa;      /* root for VAs >= KERNEL_VA_START */
u32 mb_user_pgd_pa;        /* root of the current user space, 0: none */
u32 mb_kstack_top;         /* top of the running process's kernel stack, 0: none */
u32 mb_linear_offset;      /* pa - va in the linear map, 0 until it is live */

void mb_bbm_asm(pteval_t *ptep, unsigned long n, pteval_t new_first, pteval_t oa_step,
		unsigned long start, unsigned long last);

/* Remove every unpinned slot that translates any VA of [va, va + size). */
void mb_tlb_flush_range(unsigned long va, unsigned long size, int asid)
{
	(void)asid;   /* slots of every TID are removed: more than needed, never less */
	mb_tlb_remove(va, va + (size - 1));
}

/*
 * Remove every unpinned slot of address space asid: for a user ASID (its
 * PID) the slots tagged with it - called when the ASID is freed, so a later
 * owner of the same PID cannot hit the old translations; for the kernel
 * (asid < 0) every slot.
 */
void mb_tlb_flush_space(int asid)
{
	if (asid < 0)
		mb_tlb_remove(0, ~0UL);
	else
		mb_tlb_remove_tid((u32)asid);
}

/*
 * arch_bbm_run() for MicroBlaze: the VA range to clear of slots is every
 * entry's range, widened to whole level-0 spans (4 MiB with 4K pages,
 * 64 MiB with 16K, 1 GiB with 64K) when a table is involved (its pages may
 * sit in slots anywhere in the span), or everything.
 */
void mb_bbm_run(pteval_t *ptep, unsigned long n, pteval_t new_first, pteval_t oa_step,
		unsigned long va, unsigned long va_step, int kind, int asid)
{
	unsigned long start = va, last = va + (n * va_step - 1);

	(void)asid;
	if (kind == ARCH_TLBI_ALL_LEVELS) {
		start &= ~((1UL << PT_L0_SHIFT) - 1);
		last |= (1UL << PT_L0_SHIFT) - 1;
	} else if (kind == ARCH_TLBI_SPACE) {
		start = 0;
		last = ~0UL;
	}
	if (!arch_pte_valid(new_first))
		oa_step = 0;
	mb_bbm_asm(ptep, n, new_first, oa_step, start, last);
}

/* Unpin the boot slots: from now on the page tables alone translate. */
void mb_tlb_unpin_boot(void)
{
	u32 pinned = mb_tlb_first;

	mb_tlb_first = 0;   /* mb_tlb_next_block stays inside [0, TLB_PAGE_FIRST) */
	for (u32 i = 0; i < pinned; i++)
		if (mb_tlb_shadow[i].hi & TLBHI_V)
			mb_tlb_remove(mb_tlb_shadow[i].hi & TLBHI_TAG, mb_tlb_shadow[i].hi & TLBHI_TAG);
}

/* How many slots hold a valid entry, and how many of them are 16 MiB. */
void mb_tlb_census(unsigned *valid, unsigned *huge)
{
	*valid = *huge = 0;
	for (int i = 0; i < TLB_ENTRIES; i++) {
		u32 hi = mb_tlb_shadow[i].hi;

		if (!(hi & TLBHI_V))
			continue;
		(*valid)++;
		if (((hi >> 7) & 7) == TLB_SIZE_16M)
			(*huge)++;
	}
}
