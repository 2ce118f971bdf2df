/*
 * signal.c - sending, blocking and delivering signals (see signal.h).
 */
#include "signal.h"
#include "proc.h"
#include "printk.h"
#include "kstring.h"
#include "errno.h"
#include "arch_proc.h"

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
	return ((p->sig.pending | p->group_leader->shared_pending) & ~p->sig.blocked) != 0 || p->killed ||
	       p->stop_pending;
}

#define STOP_SIGNALS (SIGMASK(SIGSTOP) | SIGMASK(SIGTSTP) | SIGMASK(SIGTTIN) | SIGMASK(SIGTTOU))

/* Is sig discarded at once for p's group (ignored; SIGKILL/SIGSTOP never are)? */
static bool sig_ignored(const struct proc *p, int sig)
{
	const struct k_sigaction *a = &p->sighand->act[sig - 1];

	return sig != SIGKILL && sig != SIGSTOP &&
	       (a->handler == SIG_IGN || (a->handler == SIG_DFL && default_action(sig) == SD_IGN));
}

/* Interrupt t's sleep if it does not block sig (sleep_on returns -EINTR). */
static void signal_wake(struct proc *t, int sig)
{
	if (t->state == P_SLEEPING && (SIGMASK(sig) & ~t->sig.blocked))
		t->state = P_RUNNABLE;
}

/*
 * What sending sig does before it is queued, to the whole group of p
 * (Linux's prepare_signal): SIGCONT resumes stopped threads whatever its
 * action and discards pending stops; a stop signal discards a pending
 * SIGCONT; SIGKILL wakes a stopped thread so it can die.
 */
static void signal_prepare(struct proc *p, int sig)
{
	struct proc *leader = p->group_leader;

	if (sig == SIGCONT)
		proc_continue(p);
	for (struct proc *t = proc_next_thread(leader, NULL); t; t = proc_next_thread(leader, t)) {
		if (sig == SIGCONT) {
			t->sig.pending &= ~STOP_SIGNALS;
		} else if (SIGMASK(sig) & STOP_SIGNALS) {
			t->sig.pending &= ~SIGMASK(SIGCONT);
		} else if (sig == SIGKILL && t->state == P_STOPPED) {
			t->state = P_RUNNABLE;
		}
	}
	if (sig == SIGCONT)
		leader->shared_pending &= ~STOP_SIGNALS;
	else if (SIGMASK(sig) & STOP_SIGNALS)
		leader->shared_pending &= ~SIGMASK(SIGCONT);
}

void signal_send_thread(struct proc *t, const struct ksiginfo *info)
{
	int sig = info->signo;

	if (!t->sighand)
		return;	/* an exited thread */
	signal_prepare(t, sig);
	if (sig_ignored(t, sig))
		return;
	if (!(t->sig.pending & SIGMASK(sig)))
		t->sig.info[sig - 1] = *info;
	t->sig.pending |= SIGMASK(sig);
	signal_wake(t, sig);
}

/*
 * A process-directed signal: queued once for the group, and one thread
 * that does not block it (p itself if it can) is woken to take it. SIGKILL
 * ends every thread at once (Linux's complete_signal does the same for
 * any fatal signal; here a fatal one ends the group when a thread takes it).
 */
void signal_send(struct proc *p, const struct ksiginfo *info)
{
	struct proc *leader = p->group_leader, *t = proc_next_thread(leader, NULL);
	int sig = info->signo;

	if (!t)
		return;	/* every thread has exited */
	signal_prepare(p, sig);
	if (sig_ignored(t, sig))
		return;
	if (sig == SIGKILL) {
		proc_group_kill(leader, SIGKILL);
		return;
	}
	if (!(leader->shared_pending & SIGMASK(sig)))
		leader->shared_info[sig - 1] = *info;
	leader->shared_pending |= SIGMASK(sig);
	if (p->state != P_ZOMBIE && !(p->sig.blocked & SIGMASK(sig))) {
		signal_wake(p, sig);
		return;
	}
	for (t = proc_next_thread(leader, NULL); t; t = proc_next_thread(leader, t))
		if (!(t->sig.blocked & SIGMASK(sig))) {
			signal_wake(t, sig);
			return;
		}
}

void signal_force(struct proc *p, const struct ksiginfo *info)
{
	struct k_sigaction *a = &p->sighand->act[info->signo - 1];

	if (a->handler == SIG_IGN || (p->sig.blocked & SIGMASK(info->signo))) {
		a->handler = SIG_DFL;
		p->sig.blocked &= ~SIGMASK(info->signo);
	}
	p->sig.pending |= SIGMASK(info->signo);
	p->sig.info[info->signo - 1] = *info;
}

void signal_discard(struct proc *p, int sig)
{
	struct proc *leader = p->group_leader;

	leader->shared_pending &= ~SIGMASK(sig);
	for (struct proc *t = proc_next_thread(leader, NULL); t; t = proc_next_thread(leader, t))
		t->sig.pending &= ~SIGMASK(sig);
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
	child->restore_saved = false;
}

void signal_reset_handlers(struct sighand *h)
{
	for (int i = 0; i < NSIG; i++) {
		if (h->act[i].handler != SIG_IGN)
			h->act[i].handler = SIG_DFL;
		h->act[i].flags = 0;
		h->act[i].restorer = 0;
		h->act[i].mask = 0;
	}
}

void signal_exec(struct proc *p)
{
	signal_reset_handlers(p->sighand);
	p->sig.altstack_sp = p->sig.altstack_size = 0;
}

/* Lowest pending, unblocked signal (SIGKILL first), or 0: the thread's own
 * and the group's. */
static int next_signal(const struct proc *p)
{
	u64 ready = (p->sig.pending | p->group_leader->shared_pending) &
		    ~(p->sig.blocked & ~(SIGMASK(SIGKILL) | SIGMASK(SIGSTOP)));

	if (ready & SIGMASK(SIGKILL))
		return SIGKILL;
	for (int sig = 1; sig <= NSIG; sig++)
		if (ready & SIGMASK(sig))
			return sig;
	return 0;
}

/*
 * Terminate the whole process with sig as the wait status. No core file is
 * ever written, so the status never has 0x80 (WCOREDUMP): Linux sets it only
 * when it wrote one, and with its default RLIMIT_CORE of 0 it writes none.
 */
static void __attribute__((noreturn)) die_by_signal(int sig)
{
	proc_group_exit(sig);
}

/* Take sig off the pending sets (the thread's own first) and return its info. */
static struct ksiginfo dequeue_signal(struct proc *p, int sig)
{
	struct proc *leader = p->group_leader;

	if (p->sig.pending & SIGMASK(sig)) {
		p->sig.pending &= ~SIGMASK(sig);
		return p->sig.info[sig - 1];
	}
	leader->shared_pending &= ~SIGMASK(sig);
	return leader->shared_info[sig - 1];
}

/*
 * The restart rules for a system call that returned ret (Linux's): with a
 * handler about to run (handler_flags its sa_flags), ERESTARTSYS restarts
 * only under SA_RESTART and ERESTARTNOINTR always; the rest become EINTR.
 * With no handler (handler false) every ERESTART* result restarts.
 */
static void syscall_restart(struct proc *p, struct pt_regs *regs, long ret, bool handler,
			    unsigned long handler_flags)
{
	bool restart;

	switch (ret) {
	case -ERESTARTSYS:
		restart = !handler || (handler_flags & SA_RESTART);
		break;
	case -ERESTARTNOINTR:
		restart = true;
		break;
	case -ERESTARTNOHAND:
	case -ERESTART_RESTARTBLOCK:
		restart = !handler;
		break;
	default:
		return;
	}
	if (restart)
		arch_syscall_restart(regs, p->syscall_arg0, ret == -ERESTART_RESTARTBLOCK);
	else
		arch_regs_set_return(regs, -EINTR);
}

void signal_deliver(struct proc *p, struct pt_regs *regs)
{
	long ret = p->sys_returning ? arch_regs_get_return(regs) : 0;
	int sig;

	p->sys_returning = false;
	if (p->stop_pending)
		proc_stop(0);	/* another thread began a group stop; returns when continued */
	while ((sig = next_signal(p)) != 0) {
		struct k_sigaction *a = &p->sighand->act[sig - 1];
		struct ksiginfo info = dequeue_signal(p, sig);

		if (sig == SIGKILL || a->handler == SIG_DFL) {
			enum sig_default d = sig == SIGKILL ? SD_TERM : default_action(sig);

			if (d == SD_TERM || d == SD_CORE)
				die_by_signal(sig);
			/* SIGTSTP/SIGTTIN/SIGTTOU do not stop an orphaned group. */
			if (d == SD_STOP && (sig == SIGSTOP || !proc_pgrp_orphaned(p->pgid)))
				proc_stop(sig);	/* returns when continued (or killed) */
			continue;
		}
		if (a->handler == SIG_IGN)
			continue;
		u64 frame_mask = p->sig.restore_saved ? p->sig.saved_blocked : p->sig.blocked;

		p->sig.restore_saved = false;
		syscall_restart(p, regs, ret, true, a->flags);
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
		proc_killed_exit();
	syscall_restart(p, regs, ret, false, 0);
	if (p->sig.restore_saved) {	/* rt_sigsuspend woke for nothing to handle */
		p->sig.blocked = p->sig.saved_blocked;
		p->sig.restore_saved = false;
	}
}
