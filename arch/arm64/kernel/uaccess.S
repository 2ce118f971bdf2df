/*
 * uaccess.S - size_t arch_copy_user(void *dst, const void *src, size_t n)
 *
 * A byte copy whose loads and stores may fault on user addresses. A fault
 * the address space cannot satisfy resumes at the fixup, which returns how
 * many bytes were not copied.
 */
	.text
	.globl	arch_copy_user
arch_copy_user:
	cbz	x2, 2f
1:
10:	ldrb	w3, [x1], #1
11:	strb	w3, [x0], #1
	subs	x2, x2, #1
	b.ne	1b
2:	mov	x0, #0
	ret
copy_fault:
	mov	x0, x2
	ret

	.section "__extable", "a"
	.balign	8
	.quad	10b, copy_fault
	.quad	11b, copy_fault
