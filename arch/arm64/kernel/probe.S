/*
 * probe.S - memory accesses that may fault, with extable fixups.
 * On a fault the exception handler resumes at the fixup, which returns
 * -EFAULT (-14).
 */
	.text
	.globl	probe_read_u64
/* int probe_read_u64(const void *addr, u64 *val) */
probe_read_u64:
1:	ldr	x2, [x0]
	str	x2, [x1]
	mov	x0, #0
	ret

	.globl	probe_write_u64
/* int probe_write_u64(void *addr, u64 val) */
probe_write_u64:
2:	str	x1, [x0]
	mov	x0, #0
	ret

probe_fault:
	mov	x0, #-14
	ret

	.section "__extable", "a"
	.balign	8
	.quad	1b, probe_fault
	.quad	2b, probe_fault
