/*
 * signal.h - POSIX signals with Linux's numbers, structures and semantics
 * (rt_sigaction, rt_sigprocmask, rt_sigreturn, kill, default actions
 * including job-control stops, the restart of interrupted system calls,
 * and SIGSEGV/SIGBUS with si_addr and si_code for faults).
 */
#ifndef SIGNAL_H
#define SIGNAL_H

#include "types.h"

#define NSIG		64
#define SIGHUP		1
#define SIGINT		2
#define SIGQUIT		3
#define SIGILL		4
#define SIGTRAP		5
#define SIGABRT		6
#define SIGBUS		7
#define SIGFPE		8
#define SIGKILL		9
#define SIGUSR1		10
#define SIGSEGV		11
#define SIGUSR2		12
#define SIGPIPE		13
#define SIGALRM		14
#define SIGTERM		15
#define SIGCHLD		17
#define SIGCONT		18
#define SIGSTOP		19
#define SIGTSTP		20
#define SIGTTIN		21
#define SIGTTOU		22
#define SIGURG		23
#define SIGXCPU		24
#define SIGXFSZ		25
#define SIGVTALRM	26
#define SIGPROF		27
#define SIGWINCH	28
#define SIGSYS		31

#define SIG_DFL		0UL
#define SIG_IGN		1UL

#define SA_SIGINFO	0x00000004u
#define SA_ONSTACK	0x08000000u
#define SA_RESTART	0x10000000u
#define SA_NODEFER	0x40000000u
#define SA_RESETHAND	0x80000000u
#define SA_RESTORER	0x04000000u

#define SIG_BLOCK	0
#define SIG_UNBLOCK	1
#define SIG_SETMASK	2

/* si_code values */
#define SI_USER		0
#define SI_TKILL	(-6)
#define SEGV_MAPERR	1
#define SEGV_ACCERR	2
#define BUS_ADRALN	1
#define BUS_ADRERR	2	/* a fault with no page to give (hugetlb pool, past a memfd's end) */
#define ILL_ILLOPC	1

#define SIGMASK(sig)	(1ull << ((sig) - 1))

/*
 * Kernel-internal results of an interrupted system call (never seen by
 * user space: signal delivery turns them into EINTR or a restart, as
 * Linux's do_signal does):
 *   ERESTARTSYS    restart if the handler has SA_RESTART, else EINTR
 *   ERESTARTNOINTR always restart
 *   ERESTARTNOHAND restart if no handler runs, else EINTR
 *   ERESTART_RESTARTBLOCK  like ERESTARTNOHAND, but the restart enters
 *                  restart_syscall, which resumes from p->restart_* (nanosleep)
 */
#define ERESTARTSYS		512
#define ERESTARTNOINTR		513
#define ERESTARTNOHAND		514
#define ERESTART_RESTARTBLOCK	516

/*
 * User space holds a signal set as Linux's sigset_t, an array of unsigned
 * longs with signal 1 in bit 0 of the first; the kernel as a u64. Both
 * have the same bytes except on a 32-bit big-endian CPU, where the two
 * words trade places. sigset_user() converts in either direction: apply it
 * to every set copied from or to user memory.
 */
static inline u64 sigset_user(u64 set)
{
#if __SIZEOF_LONG__ == 4 && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (set << 32) | (set >> 32);
#else
	return set;
#endif
}

/* The user's struct sigaction as rt_sigaction passes it (Linux's kernel layout). */
struct k_sigaction {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	u64 mask;
};

/* What the kernel knows about one pending signal. */
struct ksiginfo {
	int signo, code;
	int pid, uid;		/* sender, for kill() */
	unsigned long addr;	/* fault address, for SIGSEGV/SIGBUS/SIGILL */
	int status;		/* SIGCHLD: exit code or terminating signal */
};

/* A thread's own signal state (the actions are in struct sighand, the
 * process-directed pending signals in the group leader: proc.h). */
struct sigstate {
	u64 pending, blocked;
	struct ksiginfo info[NSIG];
	u64 saved_blocked;	/* rt_sigsuspend: the mask to restore after the handler */
	bool restore_saved;
	unsigned long altstack_sp, altstack_size;
	int altstack_flags;
};

struct proc;
struct pt_regs;

/* Queue sig for p's whole process (kill(): one instance per signal number
 * in the group's shared set), waking a thread that does not block it. */
void signal_send(struct proc *p, const struct ksiginfo *info);

/* Queue sig for thread t alone (tgkill, SIGPIPE), waking it if it sleeps. */
void signal_send_thread(struct proc *t, const struct ksiginfo *info);

/* Drop pending instances of sig from p's group and all its threads (SIG_IGN set). */
void signal_discard(struct proc *p, int sig);

/* A fault in user mode: deliver sig now even if blocked or ignored. */
void signal_force(struct proc *p, const struct ksiginfo *info);

/* Is an unblocked signal pending for thread p (its own or its group's)? */
bool signal_pending(const struct proc *p);

/* Deliver pending signals before returning to user mode with regs, and
 * apply the restart rules to a system call's ERESTART* result. */
void signal_deliver(struct proc *p, struct pt_regs *regs);

/* fork: the child inherits actions and mask, not pending signals. */
void signal_fork(struct sigstate *child, const struct sigstate *parent);

/* Every handler of h back to SIG_DFL (ignored signals stay ignored), flags
 * and masks cleared: Linux's flush_signal_handlers(), for exec and
 * clone3's CLONE_CLEAR_SIGHAND. */
struct sighand;
void signal_reset_handlers(struct sighand *h);

/* exec: caught signals revert to default; ignored stay ignored; mask kept;
 * no alternate stack. */
void signal_exec(struct proc *p);

/*
 * The arch's signal frame: push a frame for (sig, info) on the user stack
 * so that regs resume in the handler; return false if the stack is not
 * writable (the caller then kills the process with SIGSEGV). arch_sigreturn
 * restores regs and *blocked from the frame at the user SP.
 */
/*
 * The stack a handler frame is built below: the interrupted sp, or the top
 * of the alternate signal stack when the action asks for it (SA_ONSTACK)
 * and the process is not already running on it.
 */
unsigned long signal_stack_top(const struct proc *p, unsigned long sp, const struct k_sigaction *act);

bool arch_setup_frame(struct proc *p, struct pt_regs *regs, int sig, const struct ksiginfo *info,
		      const struct k_sigaction *act, u64 blocked);
bool arch_sigreturn(struct proc *p, struct pt_regs *regs, u64 *blocked);

#endif
