/*
 * head.S - MicroBlaze kernel entry, in real mode.
 *
 * QEMU loads the ELF at its physical addresses (KIMAGE_PHYS onwards) and
 * enters _start at its physical address with MSR = 0 (real mode,
 * privileged, exceptions and interrupts off) and:
 *   r5 = physical address of the command line (-append), after the image
 *   r6 = initrd start (0: none)
 *   r7 = physical address of the DTB (4-byte aligned), after the command line
 *
 * Before C can run at its linked (virtual) address we:
 *   1. clear .bss (physically);
 *   2. copy the command line into mb_boot_cmdline (RAM after the image is
 *      handed to the allocator later);
 *   3. write the exception vectors at physical 0 (LMB BRAM);
 *   4. invalidate all 64 UTLB slots (the hardware does not reset them),
 *      PID = 0, ZPR = ZPR_VALUE;
 *   5. pin slot 0: the 16 MiB at KIMAGE_VADDR -> KIMAGE_PHYS, RWX (the
 *      page tables do not exist yet; setup.c drops it once they map the
 *      image page by page); the refill handler uses slots 1..63;
 *   6. switch to virtual mode with rted (VM = VMS, EE = 1) into
 *      start_kernel(dtb_pa) on the boot stack.
 */
#include <asm/memlayout.h>
#include <asm/mmu.h>

#define BOOT_STACK_SIZE 16384
#define CMDLINE_MAX     1024

	.section .bss
	.balign	8
boot_stack:
	.space	BOOT_STACK_SIZE
boot_stack_top:
	.globl	mb_boot_cmdline
mb_boot_cmdline:
	.space	CMDLINE_MAX

	.section ".head.text", "ax"
	.globl	_start
_start:
	mts	rmsr, r0
	addk	r22, r5, r0			/* command line */
	addk	r23, r7, r0			/* DTB */
	addk	r2, r0, r0			/* no small-data anchors (no -mxl-gp-opt) */
	addk	r13, r0, r0

	/* 1. clear .bss */
	addik	r3, r0, TOPHYS(__bss_start)
	addik	r4, r0, TOPHYS(__bss_end)
1:	xor	r12, r3, r4
	beqi	r12, 2f
	swi	r0, r3, 0
	addik	r3, r3, 4
	bri	1b

	/* 2. copy the command line (at most CMDLINE_MAX - 1 bytes) */
2:	beqi	r22, 4f
	addik	r3, r0, TOPHYS(mb_boot_cmdline)
	addik	r4, r0, CMDLINE_MAX - 1
3:	lbui	r12, r22, 0
	sbi	r12, r3, 0
	beqi	r12, 4f
	addik	r22, r22, 1
	addik	r3, r3, 1
	addik	r4, r4, -1
	bnei	r4, 3b
	sbi	r0, r3, 0

	/* 3. the vectors: copy mb_vectors..mb_vectors_end to physical 0 */
4:	addik	r3, r0, TOPHYS(mb_vectors)
	addik	r4, r0, TOPHYS(mb_vectors_end)
	addk	r5, r0, r0
5:	lwi	r12, r3, 0
	swi	r12, r5, 0
	addik	r3, r3, 4
	addik	r5, r5, 4
	xor	r12, r3, r4
	bnei	r12, 5b

	/* 4. every UTLB slot invalid (TLBHI, clearing V, then TLBLO), PID 0, zones */
	addik	r3, r0, TLB_ENTRIES - 1
6:	mts	rtlbx, r3
	mts	rtlbhi, r0
	mts	rtlblo, r0
	addik	r3, r3, -1
	bgei	r3, 6b
	mts	rpid, r0
	addik	r3, r0, ZPR_VALUE
	mts	rzpr, r3

	/* 5. slot 0: the image window, 16 MiB, kernel RWX, global (PID 0) */
	addik	r3, r0, KIMAGE_PHYS | TLBLO_EX | TLBLO_WR
	addik	r4, r0, KIMAGE_VADDR | TLBHI_V | TLBHI_SIZE(TLB_SIZE_16M)
	mts	rtlbx, r0
	mts	rtlblo, r3
	mts	rtlbhi, r4
	swi	r4, r0, TOPHYS(mb_tlb_shadow)
	addik	r3, r0, 1
	swi	r3, r0, TOPHYS(mb_tlb_first)
	swi	r3, r0, TOPHYS(mb_tlb_next_block)
	addik	r3, r0, TLB_PAGE_FIRST
	swi	r3, r0, TOPHYS(mb_tlb_next)

	/* 6. virtual mode: start_kernel(dtb_pa) on the boot stack */
	addik	r1, r0, boot_stack_top - 32
	addk	r5, r23, r0
	addik	r3, r0, MSR_VMS
	mts	rmsr, r3
	addik	r15, r0, start_kernel
	rted	r15, 0
	nop
