/*
 * tlb_asm.S - UTLB slot removal and break-before-make, in registers only.
 *
 * Both walk the software shadow (mb_tlb_shadow, in the image) instead of
 * reading TLBHI, which in QEMU would overwrite PID. They touch no stack:
 * during a break-before-make the stack may lie inside the very range
 * being broken (a linear-map block), and with its slot removed and its
 * descriptor invalid the next stack access would be a fatal miss.
 */
#include <asm/mmu.h>

/*
 * REMOVE_SLOTS start, last: for every slot i >= mb_tlb_first whose range
 * [tag, tag + size - 1] meets [start, last] (unsigned, inclusive): clear
 * shadow[i] FIRST, then TLBX = i, TLBHI = 0. In this order a refill that
 * lands between the shadow and the slot can only leave the shadow claiming
 * a slot the hardware no longer has - harmless - never the reverse.
 *
 * TLBHI = 0 (V clear) is the slot's last write: TLBLO is left as it was,
 * as a slot without V translates nothing. A TLBLO = 0 after it would be
 * wrong either way. Before the TLBHI write it leaves a valid tag over
 * TLBLO = 0 for an instant, a translation of the slot's range to physical
 * 0. After it, it can hit a new slot: when slot i maps the page this code
 * runs from, the fetch after TLBHI = 0 misses, and the refill may take slot
 * i itself (mb_tlb_next == i) and restore TLBX = i, so the TLBLO write
 * would tear the fresh slot (a valid tag over TLBLO = 0: no execute, and
 * the kernel's next fetch from its own page faults without end). That
 * happened in a fuzz campaign once kernel page slots carried a PID (entry.S
 * step 4), so that mb_tlb_remove_tid removes them too. The TLBHI write is
 * also the one that makes QEMU drop its cached translation of the old
 * slot (it flushes what the slot held before the write).
 * Clobbers r3, r4, r11, r12, r18 (r18 is the assembler temporary, free in
 * hand-written code that uses no macros needing it).
 */
	.macro	REMOVE_SLOTS start, last
	lwi	r3, r0, mb_tlb_first
	bslli	r3, r3, 3			/* byte offset of slot i */
1:	lwi	r4, r3, mb_tlb_shadow		/* TLBHI of slot i */
	andi	r12, r4, TLBHI_V
	beqi	r12, 3f
	bsrli	r12, r4, 7
	andi	r12, r12, 7			/* size code c: size = 2^(10 + 2c) */
	addk	r12, r12, r12
	addik	r12, r12, 10
	addik	r18, r0, 1
	bsll	r18, r18, r12
	addik	r18, r18, -1			/* size - 1 */
	andi	r4, r4, TLBHI_TAG		/* first VA of the slot */
	cmpu	r12, r4, \last			/* MSB set when tag > last */
	blti	r12, 3f
	addk	r18, r4, r18			/* last VA of the slot */
	cmpu	r12, \start, r18		/* MSB set when start > slot's last */
	blti	r12, 3f
	swi	r0, r3, mb_tlb_shadow
	swi	r0, r3, mb_tlb_shadow + 4
	bsrli	r12, r3, 3
	mts	rtlbx, r12
	mts	rtlbhi, r0			/* V clear: the slot's last write */
3:	addik	r3, r3, 8
	xori	r12, r3, TLB_ENTRIES * 8
	bnei	r12, 1b
	.endm

	.text
/* void mb_tlb_remove(unsigned long start, unsigned long last) */
	.globl	mb_tlb_remove
mb_tlb_remove:
	REMOVE_SLOTS r5, r6
	rtsd	r15, 8
	nop

/*
 * void mb_tlb_remove_tid(u32 tid): remove every unpinned slot whose TID is
 * tid (an address space's PID), as REMOVE_SLOTS does: shadow first, then
 * TLBX, then TLBHI = 0 and nothing after it. Its slots include page slots
 * of kernel pages (entry.S gives a page slot the running PID), this code's
 * own page among them. Global slots (TID 0) are never matched for a user
 * PID. Clobbers r3, r4, r12.
 */
	.globl	mb_tlb_remove_tid
mb_tlb_remove_tid:
	lwi	r3, r0, mb_tlb_first
	bslli	r3, r3, 3			/* byte offset of slot i */
1:	lwi	r4, r3, mb_tlb_shadow		/* TLBHI of slot i */
	andi	r12, r4, TLBHI_V
	beqi	r12, 3f
	lwi	r4, r3, mb_tlb_shadow + 4	/* its TID */
	xor	r12, r4, r5
	bnei	r12, 3f
	swi	r0, r3, mb_tlb_shadow
	swi	r0, r3, mb_tlb_shadow + 4
	bsrli	r12, r3, 3
	mts	rtlbx, r12
	mts	rtlbhi, r0			/* V clear: the slot's last write */
3:	addik	r3, r3, 8
	xori	r12, r3, TLB_ENTRIES * 8
	bnei	r12, 1b
	rtsd	r15, 8
	nop

/*
 * void mb_bbm_asm(pteval_t *ptep, unsigned long n, pteval_t new_first,
 *                 pteval_t oa_step, unsigned long start, unsigned long last)
 *
 * The MicroBlaze break-before-make of n consecutive descriptors at ptep:
 *   1. interrupts off (msrclr keeps the old MSR in r11);
 *   2. write all n descriptors invalid - from now on a miss anywhere in
 *      the range finds nothing to load;
 *   3. remove every slot meeting [start, last] (REMOVE_SLOTS) - now no
 *      translation of the old descriptors is left anywhere;
 *   4. write the new descriptors: new_first, then + oa_step each;
 *   5. interrupts back as they were.
 * Between 2 and 4 only ptep[], the shadow (in the image) and the TLB
 * registers are touched.
 */
	.globl	mb_bbm_asm
mb_bbm_asm:
	msrclr	r11, MSR_IE
	addk	r3, r5, r0
	addk	r4, r6, r0
1:	swi	r0, r3, 0
	addik	r4, r4, -1
	addik	r3, r3, 4
	bnei	r4, 1b
	REMOVE_SLOTS r9, r10
	addk	r3, r5, r0
	addk	r4, r6, r0
2:	swi	r7, r3, 0
	addk	r7, r7, r8
	addik	r4, r4, -1
	addik	r3, r3, 4
	bnei	r4, 2b
	andi	r11, r11, MSR_IE
	beqi	r11, 3f
	msrset	r0, MSR_IE
3:	rtsd	r15, 8
	nop

/*
 * void arch_call_on_stack(void (*fn)(void *), void *arg, void *stack_top)
 * Call fn(arg) on the stack ending at stack_top; the old r1 and r15 are
 * kept on the new stack, above the callee's 28-byte argument area.
 */
	.globl	arch_call_on_stack
arch_call_on_stack:
	andi	r7, r7, -8
	addik	r7, r7, -40
	swi	r15, r7, 28
	swi	r1, r7, 32
	addk	r1, r7, r0
	brald	r15, r5
	addk	r5, r6, r0			/* delay slot: the argument */
	lwi	r15, r1, 28
	lwi	r1, r1, 32
	rtsd	r15, 8
	nop
