/*
 * proc.h - threads and processes, the scheduler, sleeping and waking.
 *
 * A struct proc is one thread (Linux's task): it runs its system calls
 * and faults on its own kernel stack, and at the top of that stack sits
 * the user register frame (struct pt_regs). Threads of one process (a
 * thread group, made by clone(CLONE_THREAD)) share the group leader's
 * pid as their tgid; what a group shares is either a refcounted object
 * the threads point at (mm, file table, fs state, signal actions: clone's
 * CLONE_VM, CLONE_FILES, CLONE_FS, CLONE_SIGHAND may share each one also
 * between processes), or kept in the leader's struct proc (the "group
 * fields" below), which outlives every thread of the group. The scheduler
 * is a simple round robin over the table, preempting user code on timer
 * ticks. The kernel itself is not preemptible: it gives up the CPU only by
 * sleeping, yielding or returning to user mode.
 */
#ifndef PROC_H
#define PROC_H

#include "types.h"
#include "signal.h"
#include "arch_proc.h"
#include <asm/context.h>
#include <asm/ptrace.h>

#define NPROC		256	/* process table size: fork fails with EAGAIN beyond it */
#define CMDLINE_KEPT	512	/* bytes of argv kept for /proc/<pid>/cmdline */
#define NGROUPS_KEPT	256	/* supplementary groups a process may hold here (Linux: 65536) */
#define NOFILE		256	/* file descriptors per process (the hard RLIMIT_NOFILE) */
#define RLIM_NLIMITS	16
/* Resource limits (Linux's numbers) used by the kernel itself. */
#define RLIMIT_DATA	2
#define RLIMIT_STACK	3
#define RLIMIT_CORE	4	/* 0 by default, as Linux's; no core files are written anyway */
#define RLIMIT_NPROC	6
#define RLIMIT_NOFILE	7
#define RLIMIT_MEMLOCK	8	/* not consulted: every process is root (ML-6) */
#define RLIMIT_AS	9
#define RLIM_INFINITY	(~0ull)
#define KSTACK_ORDER	2	/* kernel stack: 4 pages */

/* P_STOPPED: stopped by a job-control signal until SIGCONT (or SIGKILL). */
enum proc_state { P_UNUSED, P_EMBRYO, P_RUNNABLE, P_RUNNING, P_SLEEPING, P_STOPPED, P_ZOMBIE };

struct mm;
struct file;
struct mount;
struct inode;

/* The descriptor table (shared by CLONE_FILES; fork copies it). */
struct files_table {
	int refs;
	struct file *files[NOFILE];
	bool cloexec[NOFILE];		/* FD_CLOEXEC: closed by a successful exec */
};

/* The working directory and umask (shared by CLONE_FS; fork copies it). */
struct fs_state {
	int refs;
	struct mount *cwd_mnt;		/* the working directory (fs/; NULL cwd: the root) */
	struct inode *cwd;
	unsigned umask;
};

/* The signal actions (shared by CLONE_SIGHAND, so by every thread of a group). */
struct sighand {
	int refs;
	struct k_sigaction act[NSIG];
};

/*
 * One thread. Fields marked "group" are meaningful in the group leader
 * only (the threads reach them through group_leader); the rest are the
 * thread's own. A process with one thread is its own leader.
 */
struct proc {
	int pid;			/* the thread id (gettid) */
	int tgid;			/* the thread group id: the leader's pid (getpid) */
	struct proc *group_leader;	/* itself for a leader */
	int nr_threads;			/* group: live (not exited) threads, the leader included */
	bool group_exiting;		/* group: exit_group or a fatal signal is ending every thread */
	int group_exit_status;		/* group: the wait status that exit_group chose */
	bool autoreap;			/* a non-leader thread: freed by the scheduler once a zombie */
	int exit_signal;		/* sent to the parent at exit (clone's CSIGNAL; 0: none) */
	struct proc *vfork_parent;	/* CLONE_VFORK: the parent sleeping until we exec or exit */
	unsigned long robust_list;	/* set_robust_list: the user's list head (0: none) */
	unsigned long robust_len;
	u64 shared_pending;		/* group: process-directed signals (kill), with their info */
	struct ksiginfo shared_info[NSIG];
	enum proc_state state;
	struct proc *parent;		/* group (a thread's own is NULL) */
	struct mm *mm;
	void *kstack;			/* lowest address of the kernel stack */
	struct arch_context ctx;	/* saved by arch_switch() */
	const void *chan;		/* what a sleeping process waits for */
	u64 wake_ns;			/* sleeping until this ktime (0: no timeout) */
	bool killed;			/* exit at the next return to user mode */
	int wait_status;		/* Linux wait status, valid once P_ZOMBIE */
	int pgid, sid;			/* process group and session (inherited by fork) */
	bool tty_detached;		/* TIOCNOTTY by a non-leader: no controlling tty */
	bool did_exec;			/* has exec'd since fork: setpgid by the parent is EACCES */
	int stop_report;		/* group: for wait4, 0 or the stop/continue status not reported yet */
	/* Group stop (job control): a stop signal stops every thread. The
	 * group fields count the threads still to stop and say when all have;
	 * a thread's stop_pending makes it stop at its next return to user mode. */
	int group_stop_sig, group_stop_left;	/* group: the signal, threads yet to stop */
	bool group_stopped;			/* group: every thread has stopped (until SIGCONT) */
	bool stop_pending;			/* this thread: take part in the group stop */
	bool sys_returning;		/* returning from a system call: restart rules apply */
	unsigned long syscall_arg0;	/* its first argument, for a restart (arm64's x0 is the result) */
	u64 restart_deadline;		/* restart_syscall: when the interrupted nanosleep ends */
	unsigned long restart_urem;	/* ... and where it writes the time left */
	bool restart_t64;
	struct files_table *fdt;	/* descriptors */
	struct fs_state *fs;		/* cwd, umask */
	struct sighand *sighand;	/* signal actions */
	struct { u64 cur, max; } rlim[RLIM_NLIMITS];	/* resource limits (prlimit64; every thread a copy) */
	struct sigstate sig;		/* this thread's mask, pending signals, altstack */
	u64 minflt, majflt;		/* page faults (getrusage) */
	u64 utime_ns, stime_ns;		/* user time (ticks that found it in user mode), the rest */
	u64 run_ns, run_start_ns;	/* time on the CPU, and when it last got it */
	u64 cutime_ns, cstime_ns;	/* group: reaped children's (and their children's) */
	u64 cminflt, cmajflt, maxrss_kb, cmaxrss_kb;	/* group but minflt's pair: maxrss_kb of the process */
	struct { u64 utime_ns, stime_ns, minflt, majflt; } dead;	/* group: its exited threads' */
	/* interval timers, Linux's ITIMER_REAL (a ktime deadline), _VIRTUAL and
	 * _PROF (time left): 0 = disarmed; reload with interval */
	struct { u64 value, interval; } itimer[3];	/* group */
	unsigned long clear_child_tid;	/* set_tid_address */
	int in_syscall;			/* inside syscall_dispatch() (fail_alloc's filter) */
	char name[16];
	struct inode *exe;		/* the program it runs (fs/: writes to it are ETXTBSY) */
	u64 start_ns;			/* ktime at fork */
	char cmdline[CMDLINE_KEPT];	/* argv at exec, NUL-separated (/proc/<pid>/cmdline) */
	int cmdline_len;
	unsigned personality;		/* personality(2); kept by fork and exec (kernel/exec.c) */
	int pdeath_signal;		/* prctl(PR_SET_PDEATHSIG): sent when the parent thread exits */
	struct proc *parent_thread;	/* group: the thread that made this process (Linux's real_parent) */
	unsigned long tagged_addr_ctrl;	/* prctl(PR_SET_TAGGED_ADDR_CTRL), arm64 */
	unsigned long cpus_allowed;	/* sched_setaffinity: the CPUs it may run on (CPUS_ALL) */
	/* credentials: real, effective, saved ids (capable = euid 0, see cred.c) */
	u32 uid[3], gid[3];
	int ngroups;
	u32 groups[NGROUPS_KEPT];
};

struct cpu {
	struct proc *proc;		/* running now, or NULL in the scheduler */
	struct arch_context sched_ctx;	/* the scheduler loop's context */
	bool need_resched;		/* set by the tick: yield before returning to user */
	u64 user_ns, idle_ns;		/* this CPU's user (ticks) and idle (measured) time */
};

/* This CPU (per-CPU state lives here, not in globals). */
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

/* clone's flags (Linux's values) */
#define CSIGNAL			0x000000ff	/* the exit signal */
#define CLONE_VM		0x00000100
#define CLONE_FS		0x00000200
#define CLONE_FILES		0x00000400
#define CLONE_SIGHAND		0x00000800
#define CLONE_PIDFD		0x00001000
#define CLONE_PTRACE		0x00002000
#define CLONE_VFORK		0x00004000
#define CLONE_PARENT		0x00008000
#define CLONE_THREAD		0x00010000
#define CLONE_NEWNS		0x00020000
#define CLONE_SYSVSEM		0x00040000
#define CLONE_SETTLS		0x00080000
#define CLONE_PARENT_SETTID	0x00100000
#define CLONE_CHILD_CLEARTID	0x00200000
#define CLONE_DETACHED		0x00400000
#define CLONE_UNTRACED		0x00800000
#define CLONE_CHILD_SETTID	0x01000000
#define CLONE_NEWCGROUP		0x02000000
#define CLONE_NEWUTS		0x04000000
#define CLONE_NEWIPC		0x08000000
#define CLONE_NEWUSER		0x10000000
#define CLONE_NEWPID		0x20000000
#define CLONE_NEWNET		0x40000000
#define CLONE_IO		0x80000000
#define CLONE_CLEAR_SIGHAND	0x100000000ull	/* clone3 only */
#define CLONE_INTO_CGROUP	0x200000000ull
#define CLONE_NEWTIME		0x00000080	/* clone3 only (it is in CSIGNAL's bits) */

/*
 * clone (kernel/sys_proc.c has checked the flags): a new thread
 * (CLONE_THREAD) or process, sharing with the caller what the flags say
 * (CLONE_VM, CLONE_FILES, CLONE_FS, CLONE_SIGHAND) and copying the rest;
 * it starts with child_sp (0: the caller's) and, with CLONE_SETTLS, tls.
 * Returns the runnable child, or NULL with *err = -EAGAIN / -ENOMEM.
 */
struct proc *proc_clone(unsigned long flags, unsigned long child_sp, unsigned long tls, int exit_signal,
			long *err);

/*
 * End the calling thread with a Linux wait status (never returns). The
 * process ends with its last thread: then the parent is told, with the
 * leader's status (exit_group's, if one was made).
 */
void proc_exit(int wait_status) __attribute__((noreturn));

/* exit_group and fatal signals: every thread of the caller's process ends,
 * the process with wait_status (the first one chosen, if two race). */
void proc_group_exit(int wait_status) __attribute__((noreturn));

/* Mark every thread of leader's process killed (woken to die), the
 * process to end with wait_status. */
void proc_group_kill(struct proc *leader, int wait_status);

/* A killed thread's exit (at the return to user mode). */
void proc_killed_exit(void) __attribute__((noreturn));

/*
 * exec's point of no return for thread p: p gets its own descriptor table
 * and signal actions, every other thread of its process dies (if p is not
 * the leader, it takes the leader's pid and place), its robust futexes and
 * CLEARTID word are released, and a CLONE_VFORK parent goes on. -ENOMEM,
 * or -EINTR if p itself was killed meanwhile (exec then fails).
 */
long proc_exec_begin(struct proc *p);

/* The live (not exited) threads of leader's process, in table order:
 * prev NULL gives the first; NULL after the last. */
struct proc *proc_next_thread(const struct proc *leader, const struct proc *prev);

/* What wait4 and getrusage report of a process (Linux's struct rusage
 * fields this kernel counts). */
struct proc_usage {
	u64 utime_ns, stime_ns, minflt, majflt, maxrss_kb;
};

/* wait4: pid as in Linux (-1 any child, 0 our group, < -1 group -pid,
 * > 0 that child); *usage (when not NULL) gets the reaped child's usage,
 * its own reaped descendants included. */
long proc_wait(int pid, int *status_out, int options, struct proc_usage *usage);

/* Whose usage proc_get_usage() reports: getrusage's RUSAGE_THREAD,
 * RUSAGE_SELF (every thread of the process, the exited ones included) and
 * RUSAGE_CHILDREN (the process's reaped children). */
enum usage_who { USAGE_THREAD, USAGE_PROCESS, USAGE_CHILDREN };

/* The usage of p's thread, of its process, or of its reaped children. */
void proc_get_usage(const struct proc *p, enum usage_who who, struct proc_usage *u);

/* Resident set of mm in KiB (the pages present in its VMAs). */
/*
 * p's mm with p's resource limits copied in (RLIMIT_AS, RLIMIT_DATA,
 * RLIMIT_STACK: struct mm), for an mm operation or a fault on p's behalf.
 */
struct mm *proc_mm_limits(struct proc *p);
u64 mm_resident_kb(struct mm *mm);

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

/* Number of processes in use (for tests), and of those of real uid uid
 * (RLIMIT_NPROC). */
int proc_count(void);
int proc_count_uid(u32 uid);

/* The pids of every process in the table (zombies too), ascending; at most
 * max of them; returns how many (for listing /proc). */
int proc_list_pids(int *pids, int max);

/* ---- process groups and sessions (Linux's rules and errnos) ---- */
long proc_setpgid(int pid, int pgid);
long proc_getpgid(int pid);	/* pid 0: the caller; -ESRCH */
long proc_getsid(int pid);
long proc_setsid(void);
/* Is pgid a process group of session sid (any member, zombies too)? */
bool proc_pgrp_in_session(int pgid, int sid);
/* Is group pgid orphaned (Linux's sense: no live member has a parent
 * other than init in another group of the same session)? Job-control
 * stops from the terminal do not apply to such a group. */
bool proc_pgrp_orphaned(int pgid);
/* Does any process have process group pgid? */
bool proc_pgrp_exists(int pgid);
/* Send info to every process of group pgid (sig 0: just check); -ESRCH if
 * the group is empty. */
long proc_signal_group(int pgid, const struct ksiginfo *info);

/*
 * Job control: stop every thread of the current process for sig (Linux's
 * group stop) until SIGCONT or SIGKILL; called at signal delivery, and
 * (sig 0) by a thread taking part in a stop another thread began. The
 * last thread to stop reports it to the parent, once.
 */
void proc_stop(int sig);
/* SIGCONT was sent to p's process: resume its stopped threads, end a stop
 * in progress, and report CLD_CONTINUED to the parent if it had stopped. */
void proc_continue(struct proc *p);
/* A thread leaves (exits) while it owes the group stop its part. */
void proc_stop_leave(struct proc *p);

/* Work before returning to user mode: pending signals, preemption, kill. */
void user_return_work(struct pt_regs *regs);

/* Interval timers (setitimer's which): ITIMER_REAL counts wall time,
 * ITIMER_VIRTUAL and ITIMER_PROF the process's ticks (both: a process is
 * only ever interrupted by the tick in user mode). */
#define ITIMER_REAL	0
#define ITIMER_VIRTUAL	1
#define ITIMER_PROF	2

/* Whole-system scheduler counters (/proc/stat, /proc/uptime, /proc/loadavg). */
struct sched_stats {
	u64 user_ns, idle_ns;	/* CPU time in user mode (ticks) and idle (measured), all CPUs */
	u64 cpu_user_ns[NR_CPUS], cpu_idle_ns[NR_CPUS];	/* the same per CPU */
	u64 switches, forks;	/* context switches to a process; processes created */
	unsigned long load[3];	/* 1, 5 and 15 minute load averages, fixed point (FSHIFT 11) */
	int running, total;	/* runnable now; processes in the table */
	int last_pid;
};
void sched_get_stats(struct sched_stats *st);

/* The process's user/system time, in ns (its own, or its reaped children's). */
void proc_cpu_times(const struct proc *p, u64 *ut, u64 *st);

/* Remember argv (NUL-separated, cut at CMDLINE_KEPT) for /proc/<pid>/cmdline. */
void proc_set_cmdline(struct proc *p, char *const argv[]);

/* The timer tick of CPU 0: account time, wake sleepers, fire interval
 * timers, ask for a reschedule. */
void sched_tick(void);
/* The tick of any other CPU: only its running process's share (time,
 * ITIMER_VIRTUAL/PROF, the reschedule). */
void sched_local_tick(void);

/* Start the scheduler loop on a secondary CPU once the boot CPU runs init
 * (waits until then, idling); never returns. */
void __attribute__((noreturn)) sched_secondary(void);

/* CPUs p may run on (sched_setaffinity): a mask of CPU indexes. */
#define CPUS_ALL (~0ul)

#endif
