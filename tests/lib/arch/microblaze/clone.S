/* clone.S (MicroBlaze) - __pthread_clone(flags, stack, ptid, tls, ctid, t)
 * in r5..r10: clone (r12 = 120) takes CLONE_BACKWARDS3's order, flags r5,
 * stack r6, stack_size r7, ptid r8, ctid r9, tls r10. The child, on the
 * new stack (a 32-byte frame below its top, t kept in it), calls
 * __pthread_start(t) and then exit(0) (r12 = 1). */
	.text
	.globl __pthread_clone
	.type __pthread_clone, @function
__pthread_clone:
	addik	r6, r6, -32
	swi	r10, r6, 28		/* t, for the child */
	addk	r11, r8, r0		/* tls */
	addk	r8, r7, r0		/* ptid */
	addk	r10, r11, r0		/* tls */
	addk	r7, r0, r0		/* stack_size: unused */
	addik	r12, r0, 120
	brki	r14, 0x8
	beqi	r3, 1f
	rtsd	r15, 8
	nop
1:	lwi	r5, r1, 28
	brlid	r15, __pthread_start
	nop
	addk	r5, r0, r0
	addik	r12, r0, 1
	brki	r14, 0x8
2:	bri	2b
	.size __pthread_clone, . - __pthread_clone
