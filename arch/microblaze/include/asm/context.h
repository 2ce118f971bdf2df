/*
 * asm/context.h - what a MicroBlaze kernel context switch saves
 * (switch.S): the stack pointer, the return address and the registers the
 * C ABI makes callee-saved (r19, r22..r31). r2 and r13 (small-data
 * anchors) are 0 in the whole kernel; r20/r21 are never allocated by GCC.
 * The FPU (both boards' QEMU CPUs have one) works in r0..r31; its one
 * register of its own, the status register FSR, belongs to the process
 * and is switched here too, as Linux keeps it in its cpu_context. Kernel
 * code never uses the FPU, so the live FSR is the running process's.
 */
#ifndef ASM_CONTEXT_H
#define ASM_CONTEXT_H

/* Byte offsets for switch.S. */
#define CTX_R1          0
#define CTX_R15         4
#define CTX_R19         8
#define CTX_R22         12	/* r22..r31 follow, 4 bytes each */
#define CTX_KSTACK_TOP  52
#define CTX_FSR         56
#define CTX_SIZE        64

#ifndef __ASSEMBLER__
#include "types.h"

struct arch_context {
	u32 r1;			/* kernel stack pointer */
	u32 r15;		/* arch_switch returns to r15 + 8 */
	u32 r19;
	u32 r22_r31[10];
	/*
	 * Top of this process's kernel stack: where entry.S builds the frame
	 * of an exception taken from user mode (0 for the scheduler's context,
	 * which never runs user code).
	 */
	u32 kstack_top;
	u32 fsr;		/* the process's FPU status while switched out (0 at start) */
	/*
	 * FSR as the kernel last set it for the process (a sigreturn frame's
	 * value, 0 after an FPU exception): every flag the FPU raises traps,
	 * so the bits an exception finds beyond these are the new ones.
	 */
	u32 fsr_base;
};

_Static_assert(__builtin_offsetof(struct arch_context, r22_r31) == CTX_R22, "switch.S layout");
_Static_assert(__builtin_offsetof(struct arch_context, kstack_top) == CTX_KSTACK_TOP, "switch.S layout");
_Static_assert(__builtin_offsetof(struct arch_context, fsr) == CTX_FSR, "switch.S layout");
_Static_assert(sizeof(struct arch_context) == CTX_SIZE, "switch.S layout");
#endif

#endif
