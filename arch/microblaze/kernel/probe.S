/*
 * probe.S - memory accesses that may fault, with extable fixups. On a
 * fault, traps.c resumes at probe_fault, which returns -EFAULT (-14).
 * The accesses are plain "lwi/swi rD, r5, off" (no imm prefix, not in a
 * delay slot), so the fault's PC (r17) is the listed instruction itself.
 * The 8-byte forms copy two words in memory order: byte-exact in either
 * endianness.
 */
	.text
/* int probe_read_u64(const void *addr, u64 *val) */
	.globl	probe_read_u64
probe_read_u64:
1:	lwi	r3, r5, 0
2:	lwi	r4, r5, 4
	swi	r3, r6, 0
	swi	r4, r6, 4
	rtsd	r15, 8
	addk	r3, r0, r0

/* int probe_write_words(void *addr, u32 first, u32 second) (probe_write_u64) */
	.globl	probe_write_words
probe_write_words:
3:	swi	r6, r5, 0
4:	swi	r7, r5, 4
	rtsd	r15, 8
	addk	r3, r0, r0

/* int probe_read_u32(const void *addr, u32 *val) */
	.globl	probe_read_u32
probe_read_u32:
5:	lwi	r3, r5, 0
	swi	r3, r6, 0
	rtsd	r15, 8
	addk	r3, r0, r0

/* int probe_write_u32(void *addr, u32 val) */
	.globl	probe_write_u32
probe_write_u32:
6:	swi	r6, r5, 0
	rtsd	r15, 8
	addk	r3, r0, r0

probe_fault:
	rtsd	r15, 8
	addik	r3, r0, -14

	.section "__extable", "a"
	.balign	4
	.long	1b, probe_fault
	.long	2b, probe_fault
	.long	3b, probe_fault
	.long	4b, probe_fault
	.long	5b, probe_fault
	.long	6b, probe_fault
