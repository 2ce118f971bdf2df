/*
 * proc.h - processes, the scheduler, sleeping and waking.
 *
 * One kernel thread of control per process: it runs the process's system
 * calls and faults on its own kernel stack, and at the top of that stack
 * sits the user register frame (struct pt_regs). The scheduler is a simple
 * round robin over the process table, preempting user code on timer ticks.
 * The kernel itself is not preemptible: it gives up the CPU only by
 * sleeping, yielding or returning to user mode.
 */
#ifndef PROC_H
#define PROC_H

#include "types.h"
#include "signal.h"
#include "arch_proc.h"
#include <asm/context.h>
#include <asm/ptrace.h>

#define NPROC		64	/* process table size: fork fails with EAGAIN beyond it */
#define NOFILE		256	/* file descriptors per process (the hard RLIMIT_NOFILE) */
#define RLIM_NLIMITS	16
/* Resource limits (Linux's numbers) used by the kernel itself. */
#define RLIMIT_DATA	2
#define RLIMIT_STACK	3
#define RLIMIT_NPROC	6
#define RLIMIT_NOFILE	7
#define RLIMIT_AS	9
#define RLIM_INFINITY	(~0ull)
#define KSTACK_ORDER	2	/* kernel stack: 4 pages */

enum proc_state { P_UNUSED, P_EMBRYO, P_RUNNABLE, P_RUNNING, P_SLEEPING, P_ZOMBIE };

struct mm;
struct file;
struct mount;
struct inode;

struct proc {
	int pid;
	enum proc_state state;
	struct proc *parent;
	struct mm *mm;
	void *kstack;			/* lowest address of the kernel stack */
	struct arch_context ctx;	/* saved by arch_switch() */
	const void *chan;		/* what a sleeping process waits for */
	u64 wake_ns;			/* sleeping until this ktime (0: no timeout) */
	bool killed;			/* exit at the next return to user mode */
	int wait_status;		/* Linux wait status, valid once P_ZOMBIE */
	struct file *files[NOFILE];
	bool cloexec[NOFILE];		/* FD_CLOEXEC: closed by a successful exec */
	struct { u64 cur, max; } rlim[RLIM_NLIMITS];	/* resource limits (prlimit64) */
	struct sigstate sig;
	u64 minflt, majflt;		/* page faults (getrusage) */
	u64 utime_ns, stime_ns;
	unsigned long clear_child_tid;	/* set_tid_address */
	char name[16];
	struct mount *cwd_mnt;		/* the working directory (fs/; NULL cwd: the root) */
	struct inode *cwd;
	struct inode *exe;		/* the program it runs (fs/: writes to it are ETXTBSY) */
	unsigned umask;
};

struct cpu {
	struct proc *proc;		/* running now, or NULL in the scheduler */
	struct arch_context sched_ctx;	/* the scheduler loop's context */
	bool need_resched;		/* set by the tick: yield before returning to user */
};

/* This CPU (there is one today; per-CPU state lives here, not in globals). */
struct cpu *this_cpu(void);
static inline struct proc *current_proc(void)
{
	return this_cpu()->proc;
}

/* The user register frame of p, at the top of its kernel stack. */
struct pt_regs *proc_user_regs(struct proc *p);

/* Set up the process table; call once before proc_create_init(). */
void proc_init(void);

/*
 * Create the first user process, running path (with argv/envp), then run
 * the scheduler forever. When that process exits, the kernel powers off
 * with its exit status.
 */
void proc_start_init(const char *path, char *const argv[], char *const envp[]) __attribute__((noreturn));

/* Give up the CPU; return when scheduled again. */
void yield(void);

/* Sleep on chan until wakeup(chan), a signal, or the deadline wake_ns
 * (0 = none). Returns -EINTR if a signal is pending, else 0. */
int sleep_on(const void *chan, u64 wake_ns);

/* Make every process sleeping on chan runnable. */
void wakeup(const void *chan);

/* fork/clone: a copy of the current process; returns the child's pid or -errno. */
long proc_fork(unsigned long flags, unsigned long child_sp);

/* Terminate the current process with a Linux wait status (never returns). */
void proc_exit(int wait_status) __attribute__((noreturn));

/* wait4: pid as in Linux (-1 any child, >0 that child). */
long proc_wait(int pid, int *status_out, int options, struct proc **reaped);

/* The process with this pid, or NULL. */
struct proc *proc_find(int pid);

/* The pids of every process in use (zombies too), at most max; returns how many (for /proc). */
int proc_pids(int *pids, int max);

/* Send info to every live process except init and skip (sig 0: just
 * check); -ESRCH if there was none. */
long proc_signal_all(const struct ksiginfo *info, struct proc *skip);

/* The address spaces of every process that has one (at most max), with
 * their pids; returns how many (for mm/mm_check.c). */
int proc_live_mms(struct mm **mms, int *pids, int max);

/* Number of processes in use (for the fork limit and tests). */
int proc_count(void);

/* Work before returning to user mode: pending signals, preemption, kill. */
void user_return_work(struct pt_regs *regs);

/* The timer tick: account time, wake sleepers, ask for a reschedule. */
void sched_tick(void);

#endif
