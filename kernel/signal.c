/*
 * signal.c - sending, blocking and delivering signals (see signal.h).
 */
#include "signal.h"
#include "proc.h"
#include "printk.h"
#include "kstring.h"

/* The default action of a signal, as in Linux's signal(7) table. */
enum sig_default { SD_TERM, SD_CORE, SD_IGN, SD_STOP };

static enum sig_default default_action(int sig)
{
	switch (sig) {
	case SIGQUIT: case SIGILL: case SIGTRAP: case SIGABRT: case SIGBUS: case SIGFPE:
	case SIGSEGV: case SIGXCPU: case SIGXFSZ: case SIGSYS:
		return SD_CORE;
	case SIGCHLD: case SIGCONT: case SIGURG: case SIGWINCH:
		return SD_IGN;
	case SIGSTOP: case SIGTSTP: case SIGTTIN: case SIGTTOU:
		return SD_STOP;
	default:
		return SD_TERM;
	}
}

bool signal_pending(const struct proc *p)
{
	return (p->sig.pending & ~p->sig.blocked) != 0 || p->killed;
}

void signal_send(struct proc *p, const struct ksiginfo *info)
{
	int sig = info->signo;
	const struct k_sigaction *a = &p->sig.act[sig - 1];

	/* An ignored signal is discarded at once (SIGKILL/SIGSTOP never are). */
	if (sig != SIGKILL && sig != SIGSTOP &&
	    (a->handler == SIG_IGN || (a->handler == SIG_DFL && default_action(sig) == SD_IGN)))
		return;
	if (!(p->sig.pending & SIGMASK(sig)))
		p->sig.info[sig - 1] = *info;
	p->sig.pending |= SIGMASK(sig);
	if (p->state == P_SLEEPING && (SIGMASK(sig) & ~p->sig.blocked))
		p->state = P_RUNNABLE;	/* interrupt the sleep; sleep_on returns -EINTR */
}

void signal_force(struct proc *p, const struct ksiginfo *info)
{
	struct k_sigaction *a = &p->sig.act[info->signo - 1];

	if (a->handler == SIG_IGN || (p->sig.blocked & SIGMASK(info->signo))) {
		a->handler = SIG_DFL;
		p->sig.blocked &= ~SIGMASK(info->signo);
	}
	p->sig.pending |= SIGMASK(info->signo);
	p->sig.info[info->signo - 1] = *info;
}

unsigned long signal_stack_top(const struct proc *p, unsigned long sp, const struct k_sigaction *act)
{
	const struct sigstate *s = &p->sig;

	if ((act->flags & SA_ONSTACK) && s->altstack_size &&
	    !(sp > s->altstack_sp && sp <= s->altstack_sp + s->altstack_size))
		return s->altstack_sp + s->altstack_size;
	return sp;
}

void signal_fork(struct sigstate *child, const struct sigstate *parent)
{
	*child = *parent;
	child->pending = 0;
}

void signal_exec(struct sigstate *s)
{
	for (int i = 0; i < NSIG; i++) {
		if (s->act[i].handler != SIG_IGN)
			s->act[i].handler = SIG_DFL;
		s->act[i].flags = 0;
		s->act[i].restorer = 0;
		s->act[i].mask = 0;
	}
	s->altstack_sp = s->altstack_size = 0;
}

/* Lowest pending, unblocked signal (SIGKILL first), or 0. */
static int next_signal(const struct proc *p)
{
	u64 ready = p->sig.pending & ~(p->sig.blocked & ~(SIGMASK(SIGKILL) | SIGMASK(SIGSTOP)));

	if (ready & SIGMASK(SIGKILL))
		return SIGKILL;
	for (int sig = 1; sig <= NSIG; sig++)
		if (ready & SIGMASK(sig))
			return sig;
	return 0;
}

/* Terminate with sig as the wait status (0x80 marks a core dump). */
static void __attribute__((noreturn)) die_by_signal(int sig)
{
	proc_exit(sig | (default_action(sig) == SD_CORE ? 0x80 : 0));
}

void signal_deliver(struct proc *p, struct pt_regs *regs)
{
	int sig;

	while ((sig = next_signal(p)) != 0) {
		struct k_sigaction *a = &p->sig.act[sig - 1];
		struct ksiginfo info = p->sig.info[sig - 1];

		p->sig.pending &= ~SIGMASK(sig);
		if (sig == SIGKILL || a->handler == SIG_DFL) {
			enum sig_default d = sig == SIGKILL ? SD_TERM : default_action(sig);

			if (d == SD_TERM || d == SD_CORE)
				die_by_signal(sig);
			continue;	/* ignore, or stop (job control is not supported) */
		}
		if (a->handler == SIG_IGN)
			continue;
		u64 frame_mask = p->sig.restore_saved ? p->sig.saved_blocked : p->sig.blocked;

		p->sig.restore_saved = false;
		if (!arch_setup_frame(p, regs, sig, &info, a, frame_mask)) {
			/* No room for the frame: Linux kills with SIGSEGV. */
			die_by_signal(SIGSEGV);
		}
		p->sig.blocked |= a->mask;
		if (!(a->flags & SA_NODEFER))
			p->sig.blocked |= SIGMASK(sig);
		p->sig.blocked &= ~(SIGMASK(SIGKILL) | SIGMASK(SIGSTOP));
		if (a->flags & SA_RESETHAND)
			a->handler = SIG_DFL;
		return;	/* one handler frame at a time; the rest after sigreturn */
	}
	if (p->killed)
		die_by_signal(SIGKILL);
	if (p->sig.restore_saved) {	/* rt_sigsuspend woke for nothing to handle */
		p->sig.blocked = p->sig.saved_blocked;
		p->sig.restore_saved = false;
	}
}
