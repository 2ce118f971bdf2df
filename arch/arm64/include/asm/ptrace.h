/*
 * ptrace.h - the register frame saved on every exception (entry.S).
 */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#define PT_REGS_SIZE	304	/* sizeof(struct pt_regs), 16-byte multiple */
#define PT_SP		248
#define PT_PC		256
#define PT_PSTATE	264
#define PT_ESR		272
#define PT_FAR		280

#ifndef __ASSEMBLER__
#include "types.h"

struct pt_regs {
	u64 regs[31];	/* x0..x30 */
	u64 sp;		/* SP of the interrupted context */
	u64 pc;		/* ELR_EL1 */
	u64 pstate;	/* SPSR_EL1 */
	u64 esr;	/* ESR_EL1 (sync exceptions) */
	u64 far;	/* FAR_EL1 (sync exceptions) */
	u64 pad[2];
};

_Static_assert(sizeof(struct pt_regs) == PT_REGS_SIZE, "pt_regs layout");

/* Exception kinds passed by the vectors: (group << 2) | type. */
enum { VEC_SYNC = 0, VEC_IRQ = 1, VEC_FIQ = 2, VEC_SERROR = 3 };
enum { VEC_EL1T = 0, VEC_EL1H = 1, VEC_EL0_64 = 2, VEC_EL0_32 = 3 };
#endif

#endif
