/* setjmp.S (MicroBlaze) - setjmp, longjmp, sigsetjmp. Layout: include/setjmp.h
 * (r1, r2, r13, r15 at 0..15, r19..r31 at 16..67, __savemask at 68,
 * __mask at 72). Calls return with "rtsd r15, 8" (one delay slot).
 */
	.text
	.global setjmp, _setjmp, longjmp, _longjmp, sigsetjmp

	.type setjmp, @function
setjmp:
_setjmp:
	swi	r1, r5, 0
	swi	r2, r5, 4
	swi	r13, r5, 8
	swi	r15, r5, 12
	swi	r19, r5, 16
	swi	r20, r5, 20
	swi	r21, r5, 24
	swi	r22, r5, 28
	swi	r23, r5, 32
	swi	r24, r5, 36
	swi	r25, r5, 40
	swi	r26, r5, 44
	swi	r27, r5, 48
	swi	r28, r5, 52
	swi	r29, r5, 56
	swi	r30, r5, 60
	swi	r31, r5, 64
	rtsd	r15, 8
	addk	r3, r0, r0		/* delay slot: return 0 */
	.size setjmp, . - setjmp

	.type longjmp, @function
longjmp:
_longjmp:
	lwi	r1, r5, 0
	lwi	r2, r5, 4
	lwi	r13, r5, 8
	lwi	r15, r5, 12
	lwi	r19, r5, 16
	lwi	r20, r5, 20
	lwi	r21, r5, 24
	lwi	r22, r5, 28
	lwi	r23, r5, 32
	lwi	r24, r5, 36
	lwi	r25, r5, 40
	lwi	r26, r5, 44
	lwi	r27, r5, 48
	lwi	r28, r5, 52
	lwi	r29, r5, 56
	lwi	r30, r5, 60
	lwi	r31, r5, 64
	addk	r3, r6, r0
	bnei	r3, 1f			/* longjmp(env, 0) returns 1 */
	addik	r3, r0, 1
1:	rtsd	r15, 8			/* to the setjmp caller */
	nop
	.size longjmp, . - longjmp

/* int sigsetjmp(sigjmp_buf env, int savemask): remember savemask and, when
 * it is set, the current signal mask (rt_sigprocmask(SIG_BLOCK, NULL,
 * &env->__mask, 8)); then continue as setjmp. The kernel preserves r11. */
	.type sigsetjmp, @function
sigsetjmp:
	swi	r6, r5, 68
	beqi	r6, setjmp
	addk	r11, r5, r0
	addk	r5, r0, r0		/* SIG_BLOCK */
	addk	r6, r0, r0		/* no new set: just read the mask */
	addik	r7, r11, 72
	addik	r8, r0, 8
	addik	r12, r0, 175		/* rt_sigprocmask */
	brki	r14, 0x8
	addk	r5, r11, r0
	bri	setjmp
	.size sigsetjmp, . - sigsetjmp
