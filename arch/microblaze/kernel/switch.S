/*
 * switch.S - switching kernel contexts, and the first return of a new
 * process to user mode.
 */
#include <asm/context.h>

	.text
/*
 * void arch_switch(struct arch_context *old, struct arch_context *new)
 *
 * Save r1, r15 and the callee-saved registers (r19, r22..r31) in old; load
 * them from new and return on new's stack. Also publish new's kernel-stack
 * top in mb_kstack_top, where entry.S (in real mode) looks for the stack of
 * an exception taken from user mode. Interrupts are masked: the kernel
 * only switches from code that runs with them off. MSR needs no saving:
 * the carry is not preserved across calls by the C ABI. The FPU status
 * register (FSR) is the process's own: saved in old, loaded from new.
 *
 * The lwx reservation is dropped (a swx to a word of our own fails and
 * clears it): a thread that took one with lwx and was preempted before its
 * swx must find its swx failing, not succeeding on the strength of a
 * reservation another thread made since (QEMU's swx compares the memory
 * with the value the last lwx read, whoever ran it). Without this, two
 * threads of one process could both take a futex mutex.
 */
	.globl	arch_switch
arch_switch:
	addik	r3, r0, mb_resv_dummy
	swx	r3, r3, r0
	swi	r1, r5, CTX_R1
	swi	r15, r5, CTX_R15
	swi	r19, r5, CTX_R19
	.irp	n, 22,23,24,25,26,27,28,29,30,31
	swi	r\n, r5, CTX_R22 + 4 * (\n - 22)
	.endr
	mfs	r3, rfsr
	swi	r3, r5, CTX_FSR
	lwi	r3, r6, CTX_FSR
	mts	rfsr, r3
	lwi	r3, r6, CTX_KSTACK_TOP
	swi	r3, r0, mb_kstack_top
	lwi	r1, r6, CTX_R1
	lwi	r15, r6, CTX_R15
	lwi	r19, r6, CTX_R19
	.irp	n, 22,23,24,25,26,27,28,29,30,31
	lwi	r\n, r6, CTX_R22 + 4 * (\n - 22)
	.endr
	rtsd	r15, 8
	nop

/*
 * A new process's first switch lands here (arch_context_init sets r15 and
 * points r1 at the base of the exception frame, whose struct pt_regs ends
 * at the top of the kernel stack): finish the switch in C, then leave
 * through the common exception exit of entry.S, which wants the frame in
 * r1 and the stack's pa - va offset in r19 (the kernel stack is in the
 * linear map).
 */
	.globl	ret_from_fork
ret_from_fork:
	brlid	r15, proc_first_run
	nop
	lwi	r19, r0, mb_linear_offset
	bri	mb_exception_exit

	.section .bss
	.align	2
mb_resv_dummy:	/* arch_switch's swx target (it never succeeds) */
	.space	4
