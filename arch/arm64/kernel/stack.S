/*
 * stack.S - run a function on another stack (used by tests that split the
 * linear-map block holding the current stack).
 *
 * void arch_call_on_stack(void (*fn)(void *), void *arg, void *stack_top)
 */
	.text
	.globl	arch_call_on_stack
arch_call_on_stack:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	mov	x3, sp
	and	x2, x2, #~15			/* AAPCS64: 16-byte aligned stack */
	mov	sp, x2
	str	x3, [sp, #-16]!			/* old SP, restored below */
	mov	x9, x0
	mov	x0, x1
	blr	x9
	ldr	x3, [sp], #16
	mov	sp, x3
	ldp	x29, x30, [sp], #16
	ret
