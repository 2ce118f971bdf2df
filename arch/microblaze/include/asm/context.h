/*
 * asm/context.h - what a MicroBlaze kernel context switch saves
 * (switch.S): the stack pointer, the return address and the registers the
 * C ABI makes callee-saved (r19, r22..r31). r2 and r13 (small-data
 * anchors) are 0 in the whole kernel; r20/r21 are never allocated by GCC.
 * There is no FP or vector state beyond the general registers: the
 * ml605's single-precision FPU works in r0..r31 (its FSR is not kept).
 */
#ifndef ASM_CONTEXT_H
#define ASM_CONTEXT_H

/* Byte offsets for switch.S. */
#define CTX_R1          0
#define CTX_R15         4
#define CTX_R19         8
#define CTX_R22         12	/* r22..r31 follow, 4 bytes each */
#define CTX_KSTACK_TOP  52
#define CTX_SIZE        56

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
};

_Static_assert(__builtin_offsetof(struct arch_context, r22_r31) == CTX_R22, "switch.S layout");
_Static_assert(__builtin_offsetof(struct arch_context, kstack_top) == CTX_KSTACK_TOP, "switch.S layout");
_Static_assert(sizeof(struct arch_context) == CTX_SIZE, "switch.S layout");
#endif

#endif
