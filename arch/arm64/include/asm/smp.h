/*
 * asm/smp.h - arm64 multiprocessor limits and the secondary boot record
 * that head.S (secondary_entry) reads with the MMU off.
 */
#ifndef ASM_SMP_H
#define ASM_SMP_H

/* NR_CPUS (8: QEMU virt with GICv2 has at most 8) comes from arch.mk (-D). */
#define SMP_STACK_SIZE		16384	/* each secondary's boot/idle/interrupt stack */

/* struct cpu_boot_rec field offsets (smp.c asserts them). */
#define BOOT_REC_TTBR0		0
#define BOOT_REC_TTBR1		8
#define BOOT_REC_STACK		16
#define BOOT_REC_CPU		24
#define BOOT_REC_SIZE		64	/* one cache line each, cleaned to PoC */

#endif
