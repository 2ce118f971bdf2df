/*
 * signal.c - MicroBlaze signal frames, laid out as Linux lays them out
 * (struct rt_sigframe: siginfo, then ucontext whose mcontext is the user
 * register set, then the two trampoline words), so a handler sees what it
 * would see on Linux: r5 = signal, r6 = &info, r7 = &uc, r1 = the frame,
 * and r15 such that its "rtsd r15, 8" reaches an rt_sigreturn call.
 */
#include "types.h"
#include "kstring.h"
#include "proc.h"
#include "mm.h"
#include "signal.h"
#include "uaccess.h"
#include <asm/ptrace.h>
#include <asm/mmu.h>
#include "mb.h"

/* Linux's 32-bit siginfo: three ints, then the union, 128 bytes. */
struct siginfo_user {
	s32 signo, errno_, code;
	union {
		u32 addr;		/* SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP */
		struct { s32 pid; u32 uid; } kill;
		struct { s32 pid; u32 uid; s32 status; } chld;
		u8 pad[116];
	} u;
};

/* MicroBlaze's user struct pt_regs and struct sigcontext (uapi). */
struct sigcontext_user {
	u32 r[32];
	u32 pc, msr, ear, esr, fsr;
	s32 pt_mode;
	u32 oldmask;
};

struct ucontext_user {
	u32 uc_flags;
	u32 uc_link;
	struct { u32 sp; s32 flags; u32 size; } uc_stack;
	struct sigcontext_user mcontext;
	u64 uc_sigmask;
};

struct rt_sigframe {
	struct siginfo_user info;
	struct ucontext_user uc;
	u32 tramp[2];		/* Linux's trampoline words (not executed: see [sigpage]) */
};

_Static_assert(sizeof(struct siginfo_user) == 128, "siginfo layout");
_Static_assert(__builtin_offsetof(struct ucontext_user, mcontext) == 20, "ucontext layout");
_Static_assert(__builtin_offsetof(struct ucontext_user, uc_sigmask) == 176, "ucontext layout");
_Static_assert(sizeof(struct rt_sigframe) == 320, "rt_sigframe layout");

/* Where the frame goes: below the current r1, or on the alternate stack;
 * 8-byte aligned as Linux does. */
static unsigned long frame_address(struct proc *p, struct pt_regs *regs, const struct k_sigaction *act)
{
	unsigned long sp = signal_stack_top(p, regs->r[1], act);

	return ALIGN_DOWN(sp - sizeof(struct rt_sigframe), 8);
}

bool arch_setup_frame(struct proc *p, struct pt_regs *regs, int sig, const struct ksiginfo *info,
		      const struct k_sigaction *act, u64 blocked)
{
	static struct rt_sigframe f;	/* one CPU, no nesting here: keep it off the kernel stack */
	unsigned long addr = frame_address(p, regs, act);
	struct sigcontext_user *sc = &f.uc.mcontext;

	memset(&f, 0, sizeof(f));
	f.info.signo = sig;
	f.info.code = info->code;
	if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP) {
		f.info.u.addr = (u32)info->addr;
	} else if (sig == SIGCHLD) {
		f.info.u.chld.pid = info->pid;
		f.info.u.chld.uid = (u32)info->uid;
		f.info.u.chld.status = info->status;
	} else {
		f.info.u.kill.pid = info->pid;
		f.info.u.kill.uid = (u32)info->uid;
	}
	f.uc.uc_stack.sp = p->sig.altstack_sp;
	f.uc.uc_stack.size = p->sig.altstack_size;
	f.uc.uc_stack.flags = p->sig.altstack_size ? 0 : 2;	/* SS_DISABLE */
	f.uc.uc_sigmask = sigset_user(blocked);
	memcpy(sc->r, regs->r, sizeof(sc->r));
	sc->pc = regs->pc;
	sc->msr = regs->msr;
	sc->ear = regs->ear;
	sc->esr = regs->esr;
	sc->fsr = mfs(rfsr);	/* the process's FPU status (live: the kernel never uses the FPU) */
	sc->oldmask = (u32)blocked;
	f.tramp[0] = 0x318000ad;	/* addik r12, r0, 173 */
	f.tramp[1] = 0xb9cc0008;	/* brki r14, 0x8 */
	if (copy_to_user((void *)addr, &f, sizeof(f)))
		return false;

	regs->r[5] = (u32)sig;
	regs->r[6] = addr + __builtin_offsetof(struct rt_sigframe, info);
	regs->r[7] = addr + __builtin_offsetof(struct rt_sigframe, uc);
	regs->r[15] = p->mm->sigtramp - 8;	/* the handler returns with rtsd r15, 8 */
	regs->r[1] = addr;
	regs->pc = act->handler;
	return true;
}

/*
 * rt_sigreturn: the handler has returned through the trampoline, so r1 is
 * the frame again. Restore the general registers and the resume address
 * (word aligned: QEMU aborts on a misaligned PC); of the MSR only the
 * carry is the user's, the rest stays as the kernel keeps it. The FPU
 * status comes back from the frame's fsr (its five flag bits): the one
 * way a user program can change FSR, which mts forbids in user mode.
 */
bool arch_sigreturn(struct proc *p, struct pt_regs *regs, u64 *blocked)
{
	static struct rt_sigframe f;
	const struct sigcontext_user *sc = &f.uc.mcontext;

	if (!IS_ALIGNED(regs->r[1], 4) || copy_from_user(&f, (const void *)regs->r[1], sizeof(f)))
		return false;
	memcpy(&regs->r[1], &sc->r[1], sizeof(regs->r) - sizeof(regs->r[0]));
	regs->pc = sc->pc & ~3u;
	regs->msr = (regs->msr & ~MSR_C) | (sc->msr & MSR_C);
	p->ctx.fsr_base = sc->fsr & FSR_FLAGS;
	mts(rfsr, p->ctx.fsr_base);
	*blocked = sigset_user(f.uc.uc_sigmask);
	return true;
}
