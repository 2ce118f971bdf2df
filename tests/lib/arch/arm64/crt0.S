/* crt0.S (arm64) - process entry and the signal return trampoline.
 *
 * Linux starts a process with sp (16-byte aligned) pointing at argc, then
 * argv[argc] + NULL, envp[] + NULL, and the auxiliary vector (type, value
 * pairs ending with AT_NULL). All other registers are zero; we clear the
 * frame pointer and link register anyway so backtraces stop here.
 */
	.text
	.global _start
	.type _start, %function
_start:
	mov	x29, #0
	mov	x30, #0
	mov	x0, sp			/* __libc_start(long *sp) */
	bl	__libc_start
1:	b	1b			/* __libc_start never returns */
	.size _start, . - _start

/* Signal handlers return here (sa_restorer, passed with SA_RESTORER): the
 * kernel restores the interrupted context from the frame at sp. */
	.global __restore_rt
	.type __restore_rt, %function
__restore_rt:
	mov	x8, #139		/* rt_sigreturn */
	svc	#0
	.size __restore_rt, . - __restore_rt
