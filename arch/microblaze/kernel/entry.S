/*
 * entry.S - MicroBlaze exception vectors, the TLB refill handler, and the
 * common entry/exit path that calls C.
 *
 * Every vector is taken in REAL mode (VM=0), privileged, at a physical
 * address: the hardware copies VM/UM into VMS/UMS and clears them. So
 * everything here until "go virtual" uses physical addresses: TOPHYS(sym)
 * for our variables, and a physical alias of the stack frame.
 *
 *   0x00 reset, 0x08 user exception (brki), 0x10 interrupt, 0x18 break,
 *   0x20 hardware exception (MMU faults and TLB misses included)
 *
 * The vector slots at physical 0 are written at boot by head.S, copied
 * from mb_vectors below ("imm hi; brai lo" each, 8 bytes).
 *
 * Two paths:
 *   refill  a data or instruction TLB miss (EC 0x12/0x13): walk the page
 *           tables physically, load one UTLB slot, record it in the
 *           shadow, return with rted. Touches no stack, only mb_scratch.
 *   full    everything else, and a miss the tables cannot satisfy: save
 *           all registers in a frame (at the top of the process's kernel
 *           stack when coming from user mode, else on the interrupted
 *           kernel stack, or mb_exc_stack), switch to virtual mode, call
 *           mb_exception(regs) in C (system calls, faults, interrupts,
 *           then the work before a return to user mode), switch back to
 *           real mode, restore, return with the instruction the entry
 *           kind needs (rtbd r14 / rtid r14 / rtbd r16 / rted r17).
 *
 * Carry: MSR.C is live state of the interrupted code. Both paths use only
 * instructions that keep it (the "k" forms, logical ops, loads/stores,
 * branches), and the exit path restores it explicitly from the saved MSR.
 */
#include <asm/memlayout.h>
#include <asm/mmu.h>
#include <asm/ptrace.h>

/* mb_scratch words: saved registers of the refill path / entry stubs. */
#define S_R11    0
#define S_R12    4
#define S_R3     8
#define S_R4     12
#define S_R5     16
#define S_R6     20
#define S_MSR    8    /* full path, after the refill registers are restored */
#define S_KIND   12
#define S_R1     16

/* A 32-bit constant as the signed value gas wants for an immediate. */
#define S32(x)   ((((x) + 0x80000000) & 0xffffffff) - 0x80000000)

	.section .data
	.balign 4
	.globl	mb_scratch
mb_scratch:
	.space	32

	.section .bss
	.balign 8
mb_exc_stack:
	.space	8192
mb_exc_stack_top:

	.text
/* ---- the vector slots, copied to physical 0 by head.S ---- */
	.balign 4
	.globl	mb_vectors, mb_vectors_end
mb_vectors:
	brai	TOPHYS(vec_reset)
	brai	TOPHYS(vec_user)
	brai	TOPHYS(vec_irq)
	brai	TOPHYS(vec_break)
	brai	TOPHYS(vec_hw)
mb_vectors_end:


/* Entry stubs: keep r11/r12 in mb_scratch, r11 = the kind, go to common_entry. */
vec_reset:
	swi	r11, r0, TOPHYS(mb_scratch + S_R11)
	swi	r12, r0, TOPHYS(mb_scratch + S_R12)
	addik	r11, r0, KIND_RESET
	bri	common_entry
vec_user:
	swi	r11, r0, TOPHYS(mb_scratch + S_R11)
	swi	r12, r0, TOPHYS(mb_scratch + S_R12)
	addik	r11, r0, KIND_USER_EXC
	bri	common_entry
vec_irq:
	swi	r11, r0, TOPHYS(mb_scratch + S_R11)
	swi	r12, r0, TOPHYS(mb_scratch + S_R12)
	addik	r11, r0, KIND_IRQ
	bri	common_entry
vec_break:
	swi	r11, r0, TOPHYS(mb_scratch + S_R11)
	swi	r12, r0, TOPHYS(mb_scratch + S_R12)
	addik	r11, r0, KIND_BREAK
	bri	common_entry

/*
 * vec_hw: hardware exception. A TLB miss (EC 0x12 data, 0x13 instruction)
 * is refilled here:
 *   1. EAR >= KERNEL_VA_START: the kernel root, unless the access came
 *      from user mode (UMS): then it is a fault (QEMU reports a user
 *      access to a zone-00 page as a miss, not a storage exception).
 *      EAR below: the current user root (none yet: a fault).
 *   2. L0 = root[EAR >> PT_L0_SHIFT]. Invalid: fault. A leaf (PTE_LEAF):
 *      4 KiB pages: one 4 MiB slot, or one 16 MiB slot if it is part of a
 *      PTE_CONT run (the run is 16 MiB aligned in VA and PA, pt_map_range
 *      guarantees it); 16 KiB pages: the 16 MiB slot of the 64 MiB block
 *      that holds EAR. A table: L1 = table[(EAR >> PAGE_SHIFT) & (2^PT_L1_BITS
 *      - 1)]; invalid: fault; one page-sized slot, or (16K, 64K pages) one
 *      16 MiB slot if the page is part of a PTE_CONT run.
 *   3. TLBLO = output address | (desc & PTE_HW_MASK);
 *      TLBHI = EAR rounded down to the slot size | V | SIZE.
 *   4. The victim slot: for a page-sized slot mb_tlb_next (round robin
 *      over [TLB_PAGE_FIRST, 64)), for a block's 4 MiB or 16 MiB slot
 *      mb_tlb_next_block (round robin over [mb_tlb_first, TLB_PAGE_FIRST):
 *      slots below mb_tlb_first are pinned). Kept apart so that streaming
 *      through pages, the kernel image's or a user's, never evicts the few
 *      block slots that map the linear map: in QEMU, replacing a slot
 *      flushes its old range page by page, 4096 pages for a 16 MiB slot.
 *      Record it in the shadow first, then TLBX, TLBLO, TLBHI - TLBHI
 *      last, as only that write makes QEMU drop what the old slot had
 *      cached. A global block slot (no PTE_NG) must get TID 0: TLBHI takes
 *      its TID from PID, so the handler writes PID 0 around it. A
 *      page-sized slot takes the running PID as its TID even for a global
 *      (kernel) page: it then matches less often than it could, which is
 *      always safe, and no PID write is needed (freeing the PID's ASID
 *      removes such slots too, the removal code's own page among them:
 *      tlb_asm.S says why a removal then ends with TLBHI = 0). In QEMU each PID write
 *      flushes every slot of the old PID page by page, so with a user's
 *      16 MiB hugetlb slots resident, a PID write on every kernel page
 *      refill made the hugetlb tests take minutes. (One ml605 fuzz seed of
 *      3,000 calls took 9.0 s of host CPU with one round robin over all 64
 *      slots and TID 0 for every kernel page, 3.3 s with the two rules.)
 *   5. TLBX is restored: C code may have been between "mts rtlbx" and
 *      "mts rtlbhi" of its own when this miss was taken.
 */
vec_hw:
	swi	r11, r0, TOPHYS(mb_scratch + S_R11)
	swi	r12, r0, TOPHYS(mb_scratch + S_R12)
	mfs	r11, resr
	andi	r11, r11, 0x1e			/* 0x12 and 0x13 both give 0x12 */
	xori	r11, r11, EC_DATA_TLB_MISS
	bnei	r11, hw_full
	swi	r3, r0, TOPHYS(mb_scratch + S_R3)
	swi	r4, r0, TOPHYS(mb_scratch + S_R4)
	swi	r5, r0, TOPHYS(mb_scratch + S_R5)
	swi	r6, r0, TOPHYS(mb_scratch + S_R6)
	mfs	r3, rear
	bsrli	r4, r3, 30
	xori	r4, r4, 3			/* top two bits set: a kernel VA */
	bnei	r4, 1f
	mfs	r4, rmsr
	andi	r4, r4, MSR_UMS
	bnei	r4, refill_fault		/* user access to a kernel address */
	lwi	r4, r0, TOPHYS(mb_kernel_pgd_pa)
	bri	2f
1:	lwi	r4, r0, TOPHYS(mb_user_pgd_pa)
	beqi	r4, refill_fault
2:	bsrli	r5, r3, PT_L0_SHIFT
	bslli	r5, r5, 2
	lw	r5, r4, r5			/* level-0 descriptor */
	andi	r6, r5, PTE_VALID
	beqi	r6, refill_fault
	andi	r6, r5, PTE_LEAF
	bnei	r6, 3f
	andi	r4, r5, PTE_OA_MASK		/* level-1 table */
	bsrli	r5, r3, PT_L1_SHIFT - 2
	andi	r5, r5, PT_L1_OFFSET_MASK
	lw	r5, r4, r5			/* level-1 descriptor */
	andi	r6, r5, PTE_VALID
	beqi	r6, refill_fault
#if PT_L1_CONT_ENTRIES > 1
	andi	r6, r5, PTE_CONT
	bnei	r6, 4f				/* a page of a 16 MiB run */
#endif
	andi	r6, r3, PTE_OA_MASK
	ori	r6, r6, TLBHI_V | TLBHI_SIZE(TLB_SIZE_PAGE)
	andi	r4, r5, PTE_OA_MASK
	bri	5f
#if PT_L0_SHIFT < PT_CONT_SHIFT
3:	andi	r6, r5, PTE_CONT
	bnei	r6, 4f
	andi	r6, r3, PTE_OA_L0		/* a level-0 block: its own size */
	ori	r6, r6, TLBHI_V | TLBHI_SIZE(TLB_SIZE_L0)
	andi	r4, r5, PTE_OA_L0
	bri	5f
#else
	/* A block larger than 16 MiB: the 16 MiB slot of it holding EAR. */
3:	andi	r4, r5, PTE_OA_L0
	andi	r6, r3, PTE_OA_16M & ~PTE_OA_L0
	or	r4, r4, r6
	andi	r6, r3, PTE_OA_16M
	ori	r6, r6, TLBHI_V | TLBHI_SIZE(TLB_SIZE_16M)
	bri	5f
#endif
4:	andi	r6, r3, PTE_OA_16M		/* a PTE_CONT run: one 16 MiB slot */
	ori	r6, r6, TLBHI_V | TLBHI_SIZE(TLB_SIZE_16M)
	andi	r4, r5, PTE_OA_16M
5:	/* r4 = output address, r5 = descriptor, r6 = TLBHI */
	andi	r11, r5, PTE_NG
	andi	r5, r5, PTE_HW_MASK
	or	r5, r5, r4			/* TLBLO */
	andi	r3, r6, TLBHI_SIZE(7)
	xori	r3, r3, TLBHI_SIZE(TLB_SIZE_PAGE)
	bnei	r3, 10f
	ori	r11, r11, 1			/* a page: TID = PID, global or not */
	lwi	r4, r0, TOPHYS(mb_tlb_next)	/* victim in [TLB_PAGE_FIRST, 64) */
	addik	r3, r4, 1
	xori	r12, r3, TLB_ENTRIES
	bnei	r12, 11f
	addik	r3, r0, TLB_PAGE_FIRST
11:	swi	r3, r0, TOPHYS(mb_tlb_next)
	bri	12f
10:	lwi	r4, r0, TOPHYS(mb_tlb_next_block)	/* a block: victim in [first, TLB_PAGE_FIRST) */
	addik	r3, r4, 1
	xori	r12, r3, TLB_PAGE_FIRST
	bnei	r12, 13f
	lwi	r3, r0, TOPHYS(mb_tlb_first)
13:	swi	r3, r0, TOPHYS(mb_tlb_next_block)
12:	bslli	r12, r4, 3
	swi	r6, r12, TOPHYS(mb_tlb_shadow)	/* shadow: TLBHI ... */
	mfs	r3, rpid
	beqi	r11, 6f
	addk	r11, r3, r0			/* not global: TID = PID */
6:	swi	r11, r12, TOPHYS(mb_tlb_shadow + 4)	/* ... and TID */
	mfs	r12, rtlbx
	mts	rtlbx, r4
	mts	rtlblo, r5
	xor	r5, r11, r3
	beqi	r5, 7f
	mts	rpid, r11			/* TLBHI latches TID from PID */
	mts	rtlbhi, r6
	mts	rpid, r3
	bri	8f
7:	mts	rtlbhi, r6
8:	andi	r12, r12, TLB_ENTRIES - 1
	mts	rtlbx, r12
	lwi	r3, r0, TOPHYS(mb_scratch + S_R3)
	lwi	r4, r0, TOPHYS(mb_scratch + S_R4)
	lwi	r5, r0, TOPHYS(mb_scratch + S_R5)
	lwi	r6, r0, TOPHYS(mb_scratch + S_R6)
	lwi	r11, r0, TOPHYS(mb_scratch + S_R11)
	lwi	r12, r0, TOPHYS(mb_scratch + S_R12)
	rted	r17, 0				/* re-execute the access */
	nop

refill_fault:
	lwi	r3, r0, TOPHYS(mb_scratch + S_R3)
	lwi	r4, r0, TOPHYS(mb_scratch + S_R4)
	lwi	r5, r0, TOPHYS(mb_scratch + S_R5)
	lwi	r6, r0, TOPHYS(mb_scratch + S_R6)
hw_full:
	addik	r11, r0, KIND_HW
	/* fall through */

/*
 * common_entry: r11 = kind; the interrupted r11/r12 are in mb_scratch.
 * Pick the stack:
 *   from user mode   the top of the running process's kernel stack
 *                    (mb_kstack_top, in the linear map), so the frame is
 *                    the process's user frame, proc_user_regs();
 *   from the kernel  the interrupted r1 if it is a kernel stack we can
 *                    reach physically (inside the image, or inside the
 *                    linear map once it is live);
 *   otherwise        mb_exc_stack (a wild r1, or no process).
 * r19 keeps the stack's pa - va offset across the C call (callee-saved).
 */
common_entry:
	mfs	r12, rmsr
	swi	r12, r0, TOPHYS(mb_scratch + S_MSR)
	swi	r11, r0, TOPHYS(mb_scratch + S_KIND)
	swi	r1, r0, TOPHYS(mb_scratch + S_R1)
	andi	r12, r12, MSR_UMS
	beqi	r12, 0f
	lwi	r1, r0, TOPHYS(mb_kstack_top)	/* from user mode */
	beqi	r1, 2f
	lwi	r11, r0, TOPHYS(mb_linear_offset)
	bnei	r11, 3f
	bri	2f
0:	addik	r12, r1, S32(-KIMAGE_VADDR)
	bsrli	r12, r12, 23			/* the 8 MiB image window */
	bnei	r12, 1f
	addik	r11, r0, S32(KIMAGE_PHYS - KIMAGE_VADDR)
	bri	3f
1:	addik	r12, r1, S32(-PAGE_OFFSET)
	bsrli	r12, r12, 29			/* the 512 MiB linear map */
	bnei	r12, 2f
	lwi	r11, r0, TOPHYS(mb_linear_offset)	/* 0 until the linear map is live */
	bnei	r11, 3f
2:	addik	r1, r0, mb_exc_stack_top
	addik	r11, r0, S32(KIMAGE_PHYS - KIMAGE_VADDR)
3:	addik	r1, r1, -FRAME_SIZE
	addk	r12, r1, r11			/* the frame's physical address */
	.irp	n, 2,3,4,5,6,7,8,9,10,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	swi	r\n, r12, FRAME_ARGS + PT_R(\n)
	.endr
	addk	r19, r11, r0
	lwi	r3, r0, TOPHYS(mb_scratch + S_R11)
	swi	r3, r12, FRAME_ARGS + PT_R(11)
	lwi	r3, r0, TOPHYS(mb_scratch + S_R12)
	swi	r3, r12, FRAME_ARGS + PT_R(12)
	lwi	r3, r0, TOPHYS(mb_scratch + S_R1)
	swi	r3, r12, FRAME_ARGS + PT_R(1)
	swi	r0, r12, FRAME_ARGS + PT_R(0)
	lwi	r3, r0, TOPHYS(mb_scratch + S_MSR)
	swi	r3, r12, FRAME_ARGS + PT_MSR
	lwi	r4, r0, TOPHYS(mb_scratch + S_KIND)
	swi	r4, r12, FRAME_ARGS + PT_KIND
	mfs	r3, resr
	swi	r3, r12, FRAME_ARGS + PT_ESR
	mfs	r3, rear
	swi	r3, r12, FRAME_ARGS + PT_EAR
	mfs	r3, rbtr
	swi	r3, r12, FRAME_ARGS + PT_BTR
	addk	r3, r17, r0			/* return address: r17 (hardware exception) */
	xori	r5, r4, KIND_HW
	beqi	r5, 4f
	addk	r3, r14, r0			/* r14 (interrupt, brki) */
	xori	r5, r4, KIND_BREAK
	bnei	r5, 4f
	addk	r3, r16, r0			/* r16 (break) */
4:	swi	r3, r12, FRAME_ARGS + PT_PC
	/*
	 * Virtual mode, interrupts off: rted makes VM = VMS (set here), EE = 1,
	 * EIP = 0. BIP (set by brki) is cleared too: the frame holds the MSR
	 * as entered, and C code must be able to switch to a context that
	 * idles with interrupts on (QEMU takes none while BIP or EIP is set).
	 */
	mfs	r3, rmsr
	andi	r3, r3, ~(MSR_UMS | MSR_IE | MSR_BIP)
	ori	r3, r3, MSR_VMS
	mts	rmsr, r3
	addik	r3, r0, 5f
	rted	r3, 0
	nop
5:	brlid	r15, mb_exception
	addik	r5, r1, FRAME_ARGS		/* delay slot: struct pt_regs * */
	/*
	 * Back to real mode to restore (the frame may be reached only by a slot a
	 * refill could replace; physically it is always there). A new process
	 * starts here too (switch.S: ret_from_fork), r1 = its frame, r19 = the
	 * stack's pa - va.
	 */
	.globl	mb_exception_exit
mb_exception_exit:
	mfs	r3, rmsr
	andi	r3, r3, ~(MSR_VMS | MSR_UMS)
	mts	rmsr, r3
	addik	r3, r0, TOPHYS(6f)
	rted	r3, 0
	nop
6:	addk	r1, r1, r19			/* the frame, physically */
	lwi	r3, r1, FRAME_ARGS + PT_MSR
	mts	rmsr, r3			/* VMS/UMS of the interrupted code, EIP/BIP as entered */
	andi	r3, r3, MSR_C
	beqi	r3, 7f
	msrset	r0, MSR_C
	bri	8f
7:	msrclr	r0, MSR_C
8:	lwi	r4, r1, FRAME_ARGS + PT_KIND
	xori	r3, r4, KIND_HW
	beqi	r3, ret_hw
	xori	r3, r4, KIND_IRQ
	beqi	r3, ret_irq
	xori	r3, r4, KIND_BREAK
	beqi	r3, ret_break

	.macro	RESTORE_GPRS
	.irp	n, 2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	lwi	r\n, r1, FRAME_ARGS + PT_R(\n)
	.endr
	.endm

ret_user:	/* brki from user space: the C handler set pc past the brki */
	RESTORE_GPRS
	lwi	r14, r1, FRAME_ARGS + PT_PC
	rtbd	r14, 0
	lwi	r1, r1, FRAME_ARGS + PT_R(1)	/* delay slot, still real mode */
ret_hw:
	RESTORE_GPRS
	lwi	r17, r1, FRAME_ARGS + PT_PC
	rted	r17, 0
	lwi	r1, r1, FRAME_ARGS + PT_R(1)
ret_irq:
	RESTORE_GPRS
	lwi	r14, r1, FRAME_ARGS + PT_PC
	rtid	r14, 0
	lwi	r1, r1, FRAME_ARGS + PT_R(1)
ret_break:
	RESTORE_GPRS
	lwi	r16, r1, FRAME_ARGS + PT_PC
	rtbd	r16, 0
	lwi	r1, r1, FRAME_ARGS + PT_R(1)
