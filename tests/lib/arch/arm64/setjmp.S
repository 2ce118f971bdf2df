/* setjmp.S (arm64) - setjmp, longjmp, sigsetjmp. Layout: include/setjmp.h
 * (x19..x30 at 0..95, sp at 96, __savemask at 104, __mask at 112).
 * Only general registers are saved: the test libc is built with
 * -mgeneral-regs-only, so d8..d15 are never live.
 */
	.text
	.global setjmp, _setjmp, longjmp, _longjmp, sigsetjmp

	.type setjmp, %function
setjmp:
_setjmp:
	stp	x19, x20, [x0, #0]
	stp	x21, x22, [x0, #16]
	stp	x23, x24, [x0, #32]
	stp	x25, x26, [x0, #48]
	stp	x27, x28, [x0, #64]
	stp	x29, x30, [x0, #80]
	mov	x2, sp
	str	x2, [x0, #96]
	mov	x0, #0
	ret
	.size setjmp, . - setjmp

	.type longjmp, %function
longjmp:
_longjmp:
	ldp	x19, x20, [x0, #0]
	ldp	x21, x22, [x0, #16]
	ldp	x23, x24, [x0, #32]
	ldp	x25, x26, [x0, #48]
	ldp	x27, x28, [x0, #64]
	ldp	x29, x30, [x0, #80]
	ldr	x2, [x0, #96]
	mov	sp, x2
	cmp	w1, #0			/* longjmp(env, 0) returns 1 */
	csinc	w0, w1, wzr, ne
	ret				/* to the setjmp caller (x30) */
	.size longjmp, . - longjmp

/* int sigsetjmp(sigjmp_buf env, int savemask): remember savemask and, when
 * it is set, the current signal mask (rt_sigprocmask(SIG_BLOCK, NULL,
 * &env->__mask, 8)); then continue as setjmp. */
	.type sigsetjmp, %function
sigsetjmp:
	str	w1, [x0, #104]
	cbz	w1, setjmp
	mov	x9, x0
	mov	x0, #0			/* SIG_BLOCK */
	mov	x1, #0			/* no new set: just read the mask */
	add	x2, x9, #112
	mov	x3, #8
	mov	x8, #135		/* rt_sigprocmask */
	svc	#0
	mov	x0, x9
	b	setjmp
	.size sigsetjmp, . - sigsetjmp
