/*
 * uaccess.S - the arm64 user copies:
 *   size_t arch_copy_from_user(void *dst, const void *usrc, size_t n)
 *   size_t arch_copy_to_user(void *udst, const void *src, size_t n)
 *
 * Byte copies whose user-side accesses are the unprivileged forms LDTRB and
 * STTRB: at EL1 they are checked against the EL0 permissions of the page
 * (Arm ARM D8.4, "unprivileged access"), so a copy can only reach memory the
 * process itself could reach, and PSTATE.PAN (which forbids EL1's ordinary
 * loads and stores to EL0-accessible pages) does not apply to them. They
 * exist on every ARMv8.0 CPU, with or without FEAT_PAN.
 *
 * A fault is first offered to the process's address space (traps.c:
 * demand paging, copy-on-write), which does so only for faults between
 * uaccess_text_start and uaccess_text_end; one it cannot satisfy resumes at
 * the fixup, which returns how many bytes were not copied.
 */
	.text
	.globl	uaccess_text_start, uaccess_text_end
uaccess_text_start:

	.globl	arch_copy_from_user
arch_copy_from_user:
	cbz	x2, 2f
1:
10:	ldtrb	w3, [x1]			/* user load, EL0 permissions */
	strb	w3, [x0], #1
	add	x1, x1, #1
	subs	x2, x2, #1
	b.ne	1b
2:	mov	x0, #0
	ret

	.globl	arch_copy_to_user
arch_copy_to_user:
	cbz	x2, 2f
1:	ldrb	w3, [x1], #1
11:	sttrb	w3, [x0]			/* user store, EL0 permissions */
	add	x0, x0, #1
	subs	x2, x2, #1
	b.ne	1b
2:	mov	x0, #0
	ret

uaccess_text_end:

copy_fault:
	mov	x0, x2
	ret

	.section "__extable", "a"
	.balign	8
	.quad	10b, copy_fault
	.quad	11b, copy_fault
