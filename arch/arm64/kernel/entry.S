/*
 * entry.S - the arm64 exception vector table and register save/restore.
 *
 * Every vector saves the full register frame (struct pt_regs) on the
 * current kernel stack and calls arm64_exception(regs, kind), where kind =
 * (group << 2) | type, group 0 = EL1 with SP_EL0, 1 = EL1 with SP_EL1,
 * 2 = EL0 AArch64, 3 = EL0 AArch32; type 0 sync, 1 IRQ, 2 FIQ, 3 SError.
 * When it returns, the (possibly modified) frame is restored and we eret.
 */
#include <asm/ptrace.h>

	.macro	vector kind
	.balign	0x80
	sub	sp, sp, #PT_REGS_SIZE
	stp	x0, x1, [sp, #0]
	mov	x1, #\kind
	b	save_and_dispatch
	.endm

	.section ".text.vectors", "ax"
	.balign	0x800
	.globl	vectors
vectors:
	vector	0
	vector	1
	vector	2
	vector	3
	vector	4
	vector	5
	vector	6
	vector	7
	vector	8
	vector	9
	vector	10
	vector	11
	vector	12
	vector	13
	vector	14
	vector	15

/* x1 = kind; x0/x1 of the interrupted context are already saved. */
save_and_dispatch:
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x10, x11, [sp, #80]
	stp	x12, x13, [sp, #96]
	stp	x14, x15, [sp, #112]
	stp	x16, x17, [sp, #128]
	stp	x18, x19, [sp, #144]
	stp	x20, x21, [sp, #160]
	stp	x22, x23, [sp, #176]
	stp	x24, x25, [sp, #192]
	stp	x26, x27, [sp, #208]
	stp	x28, x29, [sp, #224]
	str	x30, [sp, #240]
	lsr	x2, x1, #2
	cmp	x2, #2				/* from EL0: its SP is SP_EL0 */
	b.hs	1f
	add	x2, sp, #PT_REGS_SIZE		/* from EL1: SP before the frame */
	b	2f
1:	mrs	x2, sp_el0
2:	mrs	x3, elr_el1
	stp	x2, x3, [sp, #PT_SP]
	mrs	x2, spsr_el1
	mrs	x3, esr_el1
	stp	x2, x3, [sp, #PT_PSTATE]
	mrs	x2, far_el1
	str	x2, [sp, #PT_FAR]
	mov	x0, sp
	bl	arm64_exception
	/* restore: ELR/SPSR may have been changed (fault fixups, signals) */
	.globl	exception_return
exception_return:
	ldp	x2, x3, [sp, #PT_SP]
	msr	elr_el1, x3
	ldr	x3, [sp, #PT_PSTATE]
	msr	spsr_el1, x3
	and	x3, x3, #0xf			/* M[3:0] = 0 means returning to EL0 */
	cbnz	x3, 3f
	msr	sp_el0, x2
3:	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x10, x11, [sp, #80]
	ldp	x12, x13, [sp, #96]
	ldp	x14, x15, [sp, #112]
	ldp	x16, x17, [sp, #128]
	ldp	x18, x19, [sp, #144]
	ldp	x20, x21, [sp, #160]
	ldp	x22, x23, [sp, #176]
	ldp	x24, x25, [sp, #192]
	ldp	x26, x27, [sp, #208]
	ldp	x28, x29, [sp, #224]
	ldr	x30, [sp, #240]
	add	sp, sp, #PT_REGS_SIZE
	eret
