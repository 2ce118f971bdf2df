/*
 * asm/ptrace.h - the register frame entry.S saves on every exception,
 * interrupt and break, and the kinds of entry.
 *
 * On the stack: a 32-byte area for the C calling convention (the callee
 * may store its r15 at 0 and its r5-r10 at 4..27; 28..31 pad it to 8
 * bytes), then struct pt_regs. A frame taken from user mode sits at the
 * very top of the process's kernel stack, so struct pt_regs ends there:
 * that is where proc_user_regs() finds it.
 */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

/* Entry kinds: which vector was taken (and so which register returns). */
#define KIND_RESET      0   /* 0x00 */
#define KIND_USER_EXC   1   /* 0x08 brki: returns with rtbd r14 */
#define KIND_IRQ        2   /* 0x10: returns with rtid r14 */
#define KIND_BREAK      3   /* 0x18: returns with rtbd r16 */
#define KIND_HW         4   /* 0x20: returns with rted r17 */

/* Offsets in struct pt_regs (bytes). */
#define PT_R(n)     ((n) * 4)
#define PT_PC       128   /* the return address (r14, r16 or r17 by kind) */
#define PT_MSR      132   /* MSR at entry: UMS/VMS say the interrupted mode */
#define PT_ESR      136
#define PT_EAR      140
#define PT_BTR      144
#define PT_KIND     148
#define PT_SIZE     152

#define FRAME_ARGS  32                      /* C ABI: r1+0 link slot, r5-r10 home, pad */
#define FRAME_SIZE  (FRAME_ARGS + PT_SIZE)  /* 184: keeps r1 8-byte aligned */

#ifndef __ASSEMBLER__
#include "types.h"

struct pt_regs {
	u32 r[32];
	u32 pc, msr, esr, ear, btr, kind;
};

_Static_assert(sizeof(struct pt_regs) == PT_SIZE, "entry.S and struct pt_regs disagree");

/* Called by entry.S in virtual mode, interrupts off (traps.c). */
void mb_exception(struct pt_regs *regs);
#endif

/*
 * MicroBlaze Linux's struct sigaction has no sa_restorer field (the kernel
 * provides the return path itself): kernel/sys_proc.c reads and writes
 * {handler, flags, mask} for rt_sigaction.
 */
#define ARCH_SIGACTION_NO_RESTORER 1

#endif
