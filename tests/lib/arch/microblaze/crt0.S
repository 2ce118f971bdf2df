/* crt0.S (MicroBlaze) - process entry.
 *
 * As on every Linux port, the process starts with r1 (the stack pointer)
 * pointing at argc, then argv[argc] + NULL, envp[] + NULL and the auxiliary
 * vector. We pass that address to __libc_start(long *sp) in r5, after
 * making room for the 28-byte outgoing-argument area the MicroBlaze ABI
 * lets every callee use in its caller's frame.
 *
 * Signal handlers return with "rtsd r15, 8" like any function: as in Linux,
 * the kernel points r15 at a return path of its own (Linux: a two-word
 * trampoline on the signal frame) that calls rt_sigreturn (173).
 */
	.text
	.global _start
	.type _start, @function
_start:
	addk	r5, r1, r0
	addik	r1, r1, -32
	andi	r1, r1, -8
	addk	r15, r0, r0
	brlid	r15, __libc_start
	nop
1:	bri	1b
	.size _start, . - _start
