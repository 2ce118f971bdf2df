/*
 * signal.c - arm64 signal frames, laid out as Linux lays them out
 * (struct rt_sigframe: siginfo, then ucontext with the register context and
 * an FP/SIMD record), so a handler sees what it would see on Linux.
 */
#include "types.h"
#include "kstring.h"
#include "proc.h"
#include "mm.h"
#include "signal.h"
#include "uaccess.h"
#include <asm/ptrace.h>
#include <asm/context.h>

#define FPSIMD_MAGIC 0x46508001u

struct siginfo_user {
	s32 signo, errno_, code, pad;
	union {
		u64 addr;		/* SIGSEGV, SIGBUS, SIGILL */
		struct { s32 pid; u32 uid; } kill;
		struct { s32 pid; u32 uid; s32 status; } chld;
		u8 pad[112];
	} u;
};

struct fpsimd_record {
	u32 magic, size;
	u32 fpsr, fpcr;
	u64 vregs[64];
};

struct sigcontext_user {
	u64 fault_address;
	u64 regs[31];
	u64 sp, pc, pstate;
	u8 reserved[4096] __attribute__((aligned(16)));
};

struct ucontext_user {
	u64 uc_flags;
	u64 uc_link;
	struct { u64 sp; s32 flags; s32 pad; u64 size; } uc_stack;
	u64 uc_sigmask;
	u8 unused[1024 / 8 - sizeof(u64)];
	struct sigcontext_user mcontext;
};

struct rt_sigframe {
	struct siginfo_user info;
	struct ucontext_user uc;
	u64 fp, lr;	/* a frame record, so a debugger can unwind */
};

_Static_assert(sizeof(struct siginfo_user) == 128, "siginfo layout");
_Static_assert(__builtin_offsetof(struct ucontext_user, mcontext) == 176, "ucontext layout");

/* Where the frame goes: below the current SP, or on the alternate stack. */
static unsigned long frame_address(struct proc *p, struct pt_regs *regs, const struct k_sigaction *act)
{
	unsigned long sp = signal_stack_top(p, regs->sp, act);

	return ALIGN_DOWN(sp - sizeof(struct rt_sigframe), 16);
}

bool arch_setup_frame(struct proc *p, struct pt_regs *regs, int sig, const struct ksiginfo *info,
		      const struct k_sigaction *act, u64 blocked)
{
	static struct rt_sigframe f;	/* one CPU, no nesting here: keep it off the kernel stack */
	unsigned long addr = frame_address(p, regs, act);
	struct fpsimd_record *fp = (struct fpsimd_record *)f.uc.mcontext.reserved;

	memset(&f, 0, sizeof(f));
	f.info.signo = sig;
	f.info.code = info->code;
	if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP) {
		f.info.u.addr = info->addr;
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
	f.uc.uc_stack.flags = p->sig.altstack_size ? 0 : 2;
	f.uc.uc_sigmask = blocked;
	f.uc.mcontext.fault_address = info->addr;
	memcpy(f.uc.mcontext.regs, regs->regs, sizeof(regs->regs));
	f.uc.mcontext.sp = regs->sp;
	f.uc.mcontext.pc = regs->pc;
	f.uc.mcontext.pstate = regs->pstate;
	fp->magic = FPSIMD_MAGIC;
	fp->size = sizeof(*fp);
	struct fpsimd_state live;

	fpsimd_save(&live);
	fp->fpsr = live.fpsr;
	fp->fpcr = live.fpcr;
	memcpy(fp->vregs, live.vregs, sizeof(fp->vregs));
	f.fp = regs->regs[29];
	f.lr = regs->pc;
	if (copy_to_user((void *)addr, &f, sizeof(f)))
		return false;

	regs->regs[0] = (u64)sig;
	regs->regs[1] = addr + __builtin_offsetof(struct rt_sigframe, info);
	regs->regs[2] = addr + __builtin_offsetof(struct rt_sigframe, uc);
	regs->regs[29] = addr + __builtin_offsetof(struct rt_sigframe, fp);
	regs->regs[30] = (act->flags & SA_RESTORER) ? act->restorer : p->mm->sigtramp;
	regs->sp = addr;
	regs->pc = act->handler;
	return true;
}

bool arch_sigreturn(struct proc *p, struct pt_regs *regs, u64 *blocked)
{
	static struct rt_sigframe f;
	const struct fpsimd_record *fp = (const struct fpsimd_record *)f.uc.mcontext.reserved;
	struct fpsimd_state st;

	(void)p;
	if (!IS_ALIGNED(regs->sp, 16) || copy_from_user(&f, (const void *)regs->sp, sizeof(f)))
		return false;
	if ((f.uc.mcontext.pstate & 0xf) != 0)	/* must return to EL0t */
		return false;
	memcpy(regs->regs, f.uc.mcontext.regs, sizeof(regs->regs));
	regs->sp = f.uc.mcontext.sp;
	regs->pc = f.uc.mcontext.pc;
	/* Only the condition flags are the user's to restore; keep interrupts on. */
	regs->pstate = f.uc.mcontext.pstate & 0xf0000000ull;
	if (fp->magic == FPSIMD_MAGIC && fp->size == sizeof(*fp)) {
		st.fpsr = fp->fpsr;
		st.fpcr = fp->fpcr;
		memcpy(st.vregs, fp->vregs, sizeof(st.vregs));
		fpsimd_load(&st);
	}
	*blocked = f.uc.uc_sigmask;
	return true;
}
