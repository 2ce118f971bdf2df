/*
 * arch_proc.h - what the process code asks of the architecture: kernel
 * context switching, the user register frame, address-space switching and
 * the per-image set-up exec needs. Implemented in arch/<arch>/kernel/.
 */
#ifndef ARCH_PROC_H
#define ARCH_PROC_H

#include "types.h"

struct arch_context;
struct pt_regs;
struct mm;

/* Index of this CPU: 0 for the boot CPU, 1.. for the secondaries (arm64). */
int arch_cpu_id(void);

/* uname's machine field ("aarch64", "microblaze"). */
const char *arch_machine_name(void);

/* Prepare ctx so the first arch_switch() to it returns to user mode
 * through the user frame at 'frame' (the top of the kernel stack). */
void arch_context_init(struct arch_context *ctx, struct pt_regs *frame);

/* Save the current kernel context in old, resume new. */
void arch_switch(struct arch_context *old, struct arch_context *new);

/* A forked child's context starts with the parent's live user state that
 * is not in the register frame (arm64: the FP/SIMD registers). */
void arch_fork_context(struct arch_context *child);

/* clone's CLONE_SETTLS: the new thread's user thread pointer (arm64:
 * TPIDR_EL0 in ctx; MicroBlaze: r21 in the user frame). */
void arch_set_tls(struct arch_context *ctx, struct pt_regs *regs, unsigned long tls);

/* Make mm's tables translate user addresses (NULL: none). */
void arch_switch_mm(const struct mm *mm);

/* A fresh user frame that starts at entry with the given stack pointer. */
void arch_regs_init_user(struct pt_regs *regs, unsigned long entry, unsigned long sp);
void arch_regs_set_return(struct pt_regs *regs, long val);
long arch_regs_get_return(const struct pt_regs *regs);
void arch_regs_set_sp(struct pt_regs *regs, unsigned long sp);
/* Make regs run the system call just made again: the PC back on the
 * syscall instruction and the first argument (arg0) back in its register;
 * with via_restart_syscall the number becomes restart_syscall's. */
void arch_syscall_restart(struct pt_regs *regs, unsigned long arg0, bool via_restart_syscall);

/* Add what every new image needs (e.g. the signal trampoline, at mm->mmap_base) to mm. */
long arch_exec_setup(struct mm *mm);

#endif
