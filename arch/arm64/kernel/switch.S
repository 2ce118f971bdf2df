/*
 * switch.S - switching kernel contexts, and the first return of a new
 * process to user mode.
 */
	.text
/*
 * void arch_switch(struct arch_context *old, struct arch_context *new)
 * Save the callee-saved registers, SP, LR, the user thread pointer and the
 * user FP/SIMD state in old; load them from new; return on new's stack.
 */
	.globl	arch_switch
arch_switch:
	stp	x19, x20, [x0, #0]
	stp	x21, x22, [x0, #16]
	stp	x23, x24, [x0, #32]
	stp	x25, x26, [x0, #48]
	stp	x27, x28, [x0, #64]
	stp	x29, x30, [x0, #80]
	mov	x9, sp
	mrs	x10, tpidr_el0
	stp	x9, x10, [x0, #96]
	mov	x19, x0
	mov	x20, x1
	add	x0, x19, #112
	bl	fpsimd_save
	add	x0, x20, #112
	bl	fpsimd_load
	mov	x0, x19
	mov	x1, x20
	ldp	x19, x20, [x1, #0]
	ldp	x21, x22, [x1, #16]
	ldp	x23, x24, [x1, #32]
	ldp	x25, x26, [x1, #48]
	ldp	x27, x28, [x1, #64]
	ldp	x29, x30, [x1, #80]
	ldp	x9, x10, [x1, #96]
	mov	sp, x9
	msr	tpidr_el0, x10
	ret

/* void fpsimd_save(struct fpsimd_state *st) */
	.globl	fpsimd_save
fpsimd_save:
	stp	q0, q1, [x0, #0]
	stp	q2, q3, [x0, #32]
	stp	q4, q5, [x0, #64]
	stp	q6, q7, [x0, #96]
	stp	q8, q9, [x0, #128]
	stp	q10, q11, [x0, #160]
	stp	q12, q13, [x0, #192]
	stp	q14, q15, [x0, #224]
	stp	q16, q17, [x0, #256]
	stp	q18, q19, [x0, #288]
	stp	q20, q21, [x0, #320]
	stp	q22, q23, [x0, #352]
	stp	q24, q25, [x0, #384]
	stp	q26, q27, [x0, #416]
	stp	q28, q29, [x0, #448]
	stp	q30, q31, [x0, #480]
	mrs	x9, fpsr
	mrs	x10, fpcr
	add	x0, x0, #512
	stp	w9, w10, [x0]
	ret

/* void fpsimd_load(const struct fpsimd_state *st) */
	.globl	fpsimd_load
fpsimd_load:
	ldp	q0, q1, [x0, #0]
	ldp	q2, q3, [x0, #32]
	ldp	q4, q5, [x0, #64]
	ldp	q6, q7, [x0, #96]
	ldp	q8, q9, [x0, #128]
	ldp	q10, q11, [x0, #160]
	ldp	q12, q13, [x0, #192]
	ldp	q14, q15, [x0, #224]
	ldp	q16, q17, [x0, #256]
	ldp	q18, q19, [x0, #288]
	ldp	q20, q21, [x0, #320]
	ldp	q22, q23, [x0, #352]
	ldp	q24, q25, [x0, #384]
	ldp	q26, q27, [x0, #416]
	ldp	q28, q29, [x0, #448]
	ldp	q30, q31, [x0, #480]
	add	x0, x0, #512
	ldp	w9, w10, [x0]
	msr	fpsr, x9
	msr	fpcr, x10
	ret

/*
 * A new process's first switch lands here (arch_context_init sets LR):
 * finish the switch in C, then leave through the exception return path
 * with the user frame at the top of its kernel stack (SP points at it).
 */
	.globl	ret_from_fork
ret_from_fork:
	bl	proc_first_run
	b	exception_return
