/*
 * uaccess.S - size_t arch_copy_from_user(void *dst, const void *usrc, size_t n)
 *             size_t arch_copy_to_user(void *udst, const void *src, size_t n)
 *
 * One routine serves both directions: MicroBlaze has no unprivileged
 * load/store forms, and the kernel runs in privileged mode with the user
 * space's PID in the UTLB lookup.
 *
 * A byte copy whose loads and stores may fault on user addresses. A fault
 * is first offered to the process's address space (traps.c: demand paging,
 * copy-on-write); one it cannot satisfy resumes at the fixup, which returns
 * how many bytes were not copied. Byte accesses can never be unaligned.
 */
	.text
	.globl	arch_copy_from_user, arch_copy_to_user
arch_copy_from_user:
arch_copy_to_user:
	beqi	r7, 2f
1:
10:	lbui	r3, r6, 0
11:	sbi	r3, r5, 0
	addik	r6, r6, 1
	addik	r7, r7, -1
	bneid	r7, 1b
	addik	r5, r5, 1			/* delay slot */
2:	rtsd	r15, 8
	addk	r3, r0, r0			/* delay slot: all copied */
copy_fault:
	rtsd	r15, 8
	addk	r3, r7, r0			/* delay slot: bytes left */

	.section "__extable", "a"
	.balign	4
	.word	10b, copy_fault
	.word	11b, copy_fault
