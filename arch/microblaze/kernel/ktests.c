/*
 * ktests.c - in-kernel tests of MicroBlaze specifics: the timer interrupt
 * arrives and is counted, the optional exceptions are on, and the refill
 * handler loads a 16 MiB leaf of the linear map, and a 16 MiB hugetlb page
 * of a user address space, as one 16 MiB slot, keeps page-sized slots
 * and blocks' slots in their own ranges, and a slot removal that the
 * refill interrupts leaves no torn slot.
 */
#include "ktest.h"
#include "printk.h"
#include "arch.h"
#include "pgtable.h"
#include "linear_map.h"
#include "params.h"
#include "irq.h"
#include "ktime.h"
#include "mb.h"
#include "hugetlb.h"
#include "mm_ops.h"
#include "arch_proc.h"

/* The xps-timer tick is wired through the xps-intc and counted. */
KTEST(mb_timer_ticks)
{
	const struct tick_source *src = time_tick_source();
	u64 j0 = jiffies_read(), n0;
	unsigned long spins = 0;

	if (!src || src->hwirq < 0) {
		ktest_ok(false, "no tick source bound");
		return;
	}
	n0 = irq_count((unsigned)src->hwirq);
	arch_irq_enable();	/* the kernel runs masked; let the ticks in while we spin */
	while (jiffies_read() < j0 + 3 && spins < 100000000UL)
		spins++;
	arch_irq_disable();
	ktest_ok(jiffies_read() >= j0 + 3, "jiffies grow: %llu -> %llu", (unsigned long long)j0,
		 (unsigned long long)jiffies_read());
	ktest_ok(irq_count((unsigned)src->hwirq) > n0, "%s interrupts (hwirq %d) counted: %llu -> %llu",
		 src->name, src->hwirq, (unsigned long long)n0,
		 (unsigned long long)irq_count((unsigned)src->hwirq));
}

/* QEMU raises these only when asked (-global microblaze-cpu.*; arch.mk does). */
KTEST(mb_exceptions_enabled)
{
	u32 pvr2 = mfs(rpvr2);
	u32 want = PVR2_ILL_OPCODE | PVR2_DIV_ZERO | PVR2_UNALIGNED;

	ktest_ok((pvr2 & want) == want,
		 "illegal-opcode, divide and unaligned exceptions are on (PVR2 0x%08x)", (unsigned)pvr2);
}

/*
 * Reads through a 16 MiB leaf of the linear map are served by one 16 MiB
 * slot: a run of four 4 MiB blocks (4K pages), a 64 MiB block or a run of
 * 1024 pages (16K), a run of 256 pages (64K).
 */
KTEST(mb_refill_16m)
{
	unsigned long va = PAGE_OFFSET;
	unsigned before, huge_before, after, huge_after;
	struct pt_cursor c;

	for (; va < linear_map_end(); va += 0x1000000UL) {
		pt_walk(arch_kernel_space(), va, PT_LAST_LEVEL, false, &c);
		if (arch_pte_is_leaf(c.val, c.level) && arch_mb_slot_shift(c.val, c.level) == PT_CONT_SHIFT)
			break;
	}
	if (va >= linear_map_end()) {
		ktest_ok(opt_linear_map != LINEAR_MAP_BLOCK, "# SKIP no 16 MiB leaf in the linear map");
		return;
	}
	mb_tlb_flush_range(va, 0x1000000UL, -1);
	mb_tlb_census(&before, &huge_before);
	(void)*(volatile u32 *)(va + 0x123450);
	(void)*(volatile u32 *)(va + 0xfedcb8);
	mb_tlb_census(&after, &huge_after);
	ktest_ok(huge_after == huge_before + 1,
		 "two reads 15 MiB apart in the run at 0x%lx load one 16M slot (16M slots %u -> %u)",
		 va, huge_before, huge_after);
}

extern char _text[], _end[];

/*
 * The refill handler replaces page-sized slots among [TLB_PAGE_FIRST, 64)
 * and blocks' slots below (entry.S step 4): after a linear-map read loads
 * a block slot, reads of up to 128 image pages (page-mapped, W^X) leave it
 * where it was, and every slot the shadow holds is in its class's range.
 */
KTEST(mb_refill_classes)
{
	unsigned long lin = PAGE_OFFSET + 0x1000000UL, img = (unsigned long)_text & ~(PAGE_SIZE - 1);
	unsigned long npages = ((unsigned long)_end - img) / PAGE_SIZE;
	int blk = -1, wrong = 0;
	u32 hi;

	if (npages > 128)
		npages = 128;
	(void)*(volatile u32 *)(lin + 0x40);
	for (int i = (int)mb_tlb_first; i < TLB_ENTRIES; i++) {
		u32 h = mb_tlb_shadow[i].hi;
		u32 size = 1u << (10 + 2 * ((h >> 7) & 7));

		if ((h & TLBHI_V) && lin >= (h & TLBHI_TAG) && lin - (h & TLBHI_TAG) < size)
			blk = i;
	}
	if (blk < 0 || ((mb_tlb_shadow[blk].hi >> 7) & 7) == TLB_SIZE_PAGE) {
		ktest_ok(opt_linear_map != LINEAR_MAP_BLOCK, "# SKIP 0x%lx is not in a block slot", lin);
		return;
	}
	hi = mb_tlb_shadow[blk].hi;
	for (unsigned long k = 0; k < npages; k++)
		(void)*(volatile u32 *)(img + k * PAGE_SIZE);
	for (int i = (int)mb_tlb_first; i < TLB_ENTRIES; i++) {
		u32 h = mb_tlb_shadow[i].hi;

		if ((h & TLBHI_V) && ((((h >> 7) & 7) == TLB_SIZE_PAGE) != (i >= TLB_PAGE_FIRST)))
			wrong++;
	}
	ktest_ok(blk < TLB_PAGE_FIRST && mb_tlb_shadow[blk].hi == hi,
		 "the linear map's block slot %d (below %d) stays through %lu image page reads",
		 blk, TLB_PAGE_FIRST, npages);
	ktest_ok(wrong == 0, "every slot is in its class's range (%d outside)", wrong);
}

/*
 * A slot removal that maps the page it runs from: clearing the slot's
 * TLBHI makes the next fetch miss, and the refill may take the very slot
 * being removed (when mb_tlb_next points at it). Whatever the removal
 * writes after its TLBHI = 0 lands on the new slot; a TLBLO = 0 there
 * leaves a valid tag over TLBLO = 0, and the next fetch from that page
 * takes an instruction-storage exception, again and again. Set that up
 * with mb_tlb_remove_tid()'s own page in a slot of a test PID, the round
 * robin pointing at that slot, then remove the PID's slots: the refill
 * must have taken the same slot, and no slot the shadow holds may have
 * TLBLO = 0 (one that has is removed again, so the boot goes on).
 */
KTEST(mb_remove_refill_same_slot)
{
	unsigned long code = (unsigned long)mb_tlb_remove_tid & ~(PAGE_SIZE - 1);
	unsigned long data = (unsigned long)mb_tlb_shadow & ~(PAGE_SIZE - 1);
	u32 hi = (u32)code | TLBHI_V | TLBHI_SIZE(TLB_SIZE_PAGE), tid = 0xfe, old_pid = mfs(rpid);
	int slot = -1, torn = 0;
	bool same = false;

	/* the loop's data page in a slot of TID 0, so removing TID tid keeps it */
	mts(rpid, 0);
	mb_tlb_flush_range(data, PAGE_SIZE, -1);
	(void)*(volatile u32 *)data;
	mts(rpid, tid);
	mb_tlb_flush_range(code, PAGE_SIZE, -1);
	(void)*(volatile u32 *)code;
	for (int i = TLB_PAGE_FIRST; i < TLB_ENTRIES; i++)
		if (mb_tlb_shadow[i].hi == hi && mb_tlb_shadow[i].tid == tid)
			slot = i;
	if (slot >= 0) {
		mb_tlb_next = (u32)slot;
		mb_tlb_remove_tid(tid);
		same = mb_tlb_shadow[slot].hi == hi;
	}
	mts(rpid, old_pid);
	for (int i = (int)mb_tlb_first; i < TLB_ENTRIES; i++) {
		if (!(mb_tlb_shadow[i].hi & TLBHI_V))
			continue;
		mts(rtlbx, i);
		if (mfs(rtlblo) == 0) {
			torn++;
			mb_tlb_shadow[i].hi = 0;
			mts(rtlbhi, 0);
		}
	}
	ktest_ok(same,
		 "the refill during the removal took the removed slot %d again", slot);
	ktest_ok(torn == 0, "no slot holds a valid tag over TLBLO = 0 (%d did)", torn);
}

/*
 * A 16 MiB hugetlb page (a PTE_CONT run: four 4 MiB level-0 leaves with 4K
 * pages, 1024 or 256 pages with 16K or 64K) is loaded
 * as one 16 MiB slot for a user address too: two reads 15 MiB apart, made
 * by the kernel with the address space switched in, take one slot.
 */
KTEST(mb_refill_16m_hugetlb)
{
	const unsigned long va = 0x40000000UL, size = 0x1000000UL;
	struct hstate *h = hugetlb_from_mmap_flags(24UL << 26);	/* MAP_HUGE_16MB */
	unsigned before, huge_before, after, huge_after;
	struct mm *mm = mm_create();
	u64 want = h ? h->nr + 1 : 0;

	if (!h || !mm || hugetlb_set_pool(h, want) != want ||
	    !vma_insert(mm, va, va + size, VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | hugetlb_vma_flags(h, false),
			NULL, 0) ||
	    mm_fault(mm, va, FAULT_WRITE)) {
		ktest_ok(false, "a 16 MiB hugetlb page faulted in (size %s, mm %p)", h ? "known" : "unknown", (void *)mm);
		if (mm)
			mm_put(mm);
		return;
	}
	arch_switch_mm(mm);
	mb_tlb_flush_range(va, size, -1);
	mb_tlb_census(&before, &huge_before);
	(void)*(volatile u32 *)(va + 0x123450);
	(void)*(volatile u32 *)(va + 0xfedcb8);
	mb_tlb_census(&after, &huge_after);
	arch_switch_mm(NULL);
	ktest_ok(huge_after == huge_before + 1,
		 "two reads 15 MiB apart in the hugetlb page at 0x%lx load one 16M slot (16M slots %u -> %u)", va,
		 huge_before, huge_after);
	mm_put(mm);
	hugetlb_set_pool(h, want - 1);
}
