/* clone.S (arm64) - __pthread_clone(flags, stack, ptid, tls, ctid, t):
 * clone (x8 = 220) with the generic argument order; the child, on the new
 * stack, calls __pthread_start(t) and then exit(0) (x8 = 93). The parent
 * gets the child's tid or -errno. */
	.text
	.global __pthread_clone
	.type __pthread_clone, %function
__pthread_clone:
	stp	x5, xzr, [x1, #-16]!	/* t, for the child, on its stack */
	mov	x8, #220
	svc	#0
	cbz	x0, 1f
	ret
1:	ldr	x0, [sp]
	bl	__pthread_start
	mov	x0, #0
	mov	x8, #93
	svc	#0
	b	.
	.size __pthread_clone, . - __pthread_clone
