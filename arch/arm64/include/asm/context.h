/*
 * context.h - what a context switch saves (switch.S), and the user FP/SIMD
 * state that travels with a process. Kernel code never uses FP/SIMD
 * (-mgeneral-regs-only), so the registers always hold user state.
 */
#ifndef ASM_CONTEXT_H
#define ASM_CONTEXT_H

#include "types.h"

struct fpsimd_state {
	u64 vregs[64];		/* q0..q31, low half first */
	u32 fpsr, fpcr;
};

struct arch_context {
	u64 x19, x20, x21, x22, x23, x24, x25, x26, x27, x28;
	u64 fp, lr, sp;
	u64 tpidr_el0;			/* the user's thread pointer (TLS) */
	struct fpsimd_state fp_state;	/* user FP/SIMD registers while switched out */
};

/* Save the live FP/SIMD registers into st / load them from st. */
void fpsimd_save(struct fpsimd_state *st);
void fpsimd_load(const struct fpsimd_state *st);

#endif
