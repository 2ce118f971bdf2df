/*
 * sys_proc.c - process, signal, time and identity system calls.
 */
#include "syscall.h"
#include "proc.h"
#include "mm.h"
#include "exec.h"
#include "uaccess.h"
#include "errno.h"
#include "kstring.h"
#include "printk.h"
#include "page_alloc.h"
#include "random.h"
#include "ktime.h"
#include "arch.h"
#include "smp.h"

/* ---- identity ---- */

long sys_getpid(const unsigned long *a) { (void)a; return current_proc()->tgid; }
long sys_gettid(const unsigned long *a) { (void)a; return current_proc()->pid; }
/* (the uid and gid calls are in cred.c) */

long sys_getppid(const unsigned long *a)
{
	struct proc *parent = current_proc()->group_leader->parent;

	(void)a;
	return parent ? parent->pid : 0;
}

/* ---- lifecycle ---- */

/* exit(status): the calling thread only (the process ends with its last thread). */
long sys_exit(const unsigned long *a)
{
	proc_exit((int)((a[0] & 0xff) << 8));
}

/* exit_group(status): every thread of the process. */
long sys_exit_group(const unsigned long *a)
{
	proc_group_exit((int)((a[0] & 0xff) << 8));
}

/* The flags this kernel acts on; the namespace, cgroup, ptrace and pidfd
 * flags are refused (EINVAL) rather than ignored. */
#define CLONE_KNOWN (CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_VFORK |	\
		     CLONE_PARENT | CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID |	\
		     CLONE_CHILD_CLEARTID | CLONE_DETACHED | CLONE_CHILD_SETTID | CLONE_UNTRACED | CLONE_IO |	\
		     CLONE_CLEAR_SIGHAND)

/* What clone and clone3 ask for, decoded. */
#define PID_MAX 32768	/* Linux's default pid_max on a small machine */

struct clone_req {
	u64 flags;
	int exit_signal;
	unsigned long stack, tls, parent_tid, child_tid;
	int set_tid;		/* clone3's set_tid[0]: the child's pid, or 0 for the next free one */
};

/*
 * Linux's rules for a consistent flag set (kernel/fork.c's copy_process),
 * in its order: CLONE_NEWNS or CLONE_NEWUSER with CLONE_FS; CLONE_THREAD
 * without CLONE_SIGHAND; CLONE_SIGHAND without CLONE_VM; CLONE_PARENT or
 * a sibling thread from init (which cannot be killed); CLONE_THREAD with a
 * new user or pid namespace. Then what this kernel does not do: namespaces,
 * cgroups, ptrace, pidfds.
 */
static long clone_check(u64 flags)
{
	struct proc *me = current_proc();

	if ((flags & (CLONE_NEWNS | CLONE_FS)) == (CLONE_NEWNS | CLONE_FS) ||
	    (flags & (CLONE_NEWUSER | CLONE_FS)) == (CLONE_NEWUSER | CLONE_FS))
		return -EINVAL;
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	if ((flags & CLONE_PARENT) && me->group_leader->pid == 1)
		return -EINVAL;
	if ((flags & CLONE_THREAD) && (flags & (CLONE_NEWUSER | CLONE_NEWPID)))
		return -EINVAL;
	if (flags & ~(u64)CLONE_KNOWN)
		return -EINVAL;
	return 0;
}

/*
 * Make the child clone asked for and do what the flags ask around it:
 * CLONE_PARENT_SETTID stores its tid in the parent, CLONE_CHILD_SETTID in
 * the child's memory, CLONE_CHILD_CLEARTID arms the exit futex, and
 * CLONE_VFORK makes the caller wait until the child execs or exits.
 */
static long do_clone(const struct clone_req *r)
{
	long err = clone_check(r->flags);
	struct proc *child;
	int tid;

	if (err)
		return err;
	if (r->set_tid && proc_find(r->set_tid))
		return -EEXIST;	/* the pid asked for is in use */
	child = proc_clone((unsigned long)r->flags, r->stack, r->tls, r->exit_signal, &err);
	if (!child)
		return err;
	if (r->set_tid) {	/* the child has not run: nothing has seen its first pid */
		child->pid = r->set_tid;
		if (!(r->flags & CLONE_THREAD))
			child->tgid = r->set_tid;
	}
	if (r->flags & CLONE_CLEAR_SIGHAND)	/* its own table (not CLONE_SIGHAND) */
		signal_reset_handlers(child->sighand);
	tid = child->pid;
	if ((r->flags & CLONE_PARENT_SETTID) && copy_to_user((void *)r->parent_tid, &tid, sizeof(tid)))
		return -EFAULT;	/* (Linux stores it before the child runs and ignores a fault) */
	if (r->flags & CLONE_CHILD_SETTID) {
		/* Linux makes this store from the child, which ignores a failure:
		 * it is not an allocation of the parent's system call (fail_alloc) */
		current_proc()->in_syscall--;
		mm_write(child->mm, r->child_tid, &tid, sizeof(tid));
		current_proc()->in_syscall++;
	}
	if (r->flags & CLONE_CHILD_CLEARTID)
		child->clear_child_tid = r->child_tid;
	if (r->flags & CLONE_VFORK) {
		child->vfork_parent = current_proc();
		while (child->vfork_parent == current_proc() && child->state != P_UNUSED)
			sleep_on(&child->vfork_parent, 0);	/* a signal does not end the wait (Linux: killable only) */
	}
	return tid;
}

/*
 * clone(flags, stack, parent_tid, tls, child_tid): flags is unsigned long,
 * but Linux's clone() keeps only its low 32 bits, whose low byte is the
 * exit signal (clone3 is where the wider flags go).
 */
long sys_clone(const unsigned long *a)
{
	struct clone_req r = { .flags = arg_uint(a[0]) & ~(u64)CSIGNAL, .exit_signal = (int)(a[0] & CSIGNAL),
			       .stack = a[1], .parent_tid = a[2], .tls = a[3], .child_tid = a[4] };

	if (r.exit_signal > NSIG)
		return -EINVAL;
	return do_clone(&r);
}

/* struct clone_args (Linux's uapi): CLONE_ARGS_SIZE_VER0 is its first 64 bytes. */
struct clone_args_user {
	u64 flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid, set_tid_size,
	    cgroup;
};

/*
 * clone3(args, size): size from 64 (EINVAL below) to a page (E2BIG above;
 * bytes past the struct this kernel knows must be zero, else E2BIG). The
 * exit signal is a field of its own (EINVAL if not a signal, or given with
 * CLONE_THREAD or CLONE_PARENT); the stack is a base and a size, both or
 * neither (EINVAL). set_tid names the child's pid, as for a privileged
 * caller in Linux's one pid namespace: set_tid_size 1 (0 without set_tid;
 * more than one level or a pid outside [1, PID_MAX): EINVAL; EPERM for a
 * non-root caller; EEXIST if in use). CLONE_CLEAR_SIGHAND resets the
 * child's handlers (ignored signals stay ignored; EINVAL with
 * CLONE_SIGHAND). Cgroups are not supported (EINVAL).
 */
long sys_clone3(const unsigned long *a)
{
	struct clone_args_user ca;
	size_t size = a[1];
	struct clone_req r;

	memset(&ca, 0, sizeof(ca));
	if (size < 64)
		return -EINVAL;
	if (size > PAGE_SIZE)
		return -E2BIG;
	if (copy_from_user(&ca, (const void *)a[0], MIN(size, sizeof(ca))))
		return -EFAULT;
	for (size_t off = sizeof(ca); off < size; off++) {
		u8 b;

		if (copy_from_user(&b, (const void *)(a[0] + off), 1))
			return -EFAULT;
		if (b)
			return -E2BIG;
	}
	if ((ca.exit_signal & ~(u64)CSIGNAL) || ca.exit_signal > NSIG)
		return -EINVAL;
	if ((ca.flags & (CLONE_THREAD | CLONE_PARENT)) && ca.exit_signal)
		return -EINVAL;
	if (ca.flags & (CSIGNAL | CLONE_DETACHED))
		return -EINVAL;	/* clone3 takes the exit signal as a field, and no CLONE_DETACHED */
	if ((ca.stack == 0) != (ca.stack_size == 0))
		return -EINVAL;
	if (ca.set_tid_size > 32 || (!ca.set_tid && ca.set_tid_size) || (ca.set_tid && !ca.set_tid_size))
		return -EINVAL;	/* MAX_PID_NS_LEVEL; an array and its size come together */
	if ((ca.flags & (CLONE_SIGHAND | CLONE_CLEAR_SIGHAND)) == (CLONE_SIGHAND | CLONE_CLEAR_SIGHAND) ||
	    (ca.flags & CLONE_INTO_CGROUP))
		return -EINVAL;
	r = (struct clone_req){ .flags = ca.flags, .exit_signal = (int)ca.exit_signal,
				.stack = (unsigned long)(ca.stack + ca.stack_size),	/* stacks grow down */
				.tls = (unsigned long)ca.tls, .parent_tid = (unsigned long)ca.parent_tid,
				.child_tid = (unsigned long)ca.child_tid };
	if (ca.set_tid_size) {
		int tid;

		if (copy_from_user(&tid, (const void *)(unsigned long)ca.set_tid, sizeof(tid)))
			return -EFAULT;
		if (ca.set_tid_size > 1 || tid < 1 || tid >= PID_MAX)
			return -EINVAL;	/* one pid namespace: one level */
		if (current_proc()->uid[1] != 0)
			return -EPERM;	/* CAP_CHECKPOINT_RESTORE / CAP_SYS_ADMIN */
		r.set_tid = tid;
	}
	return do_clone(&r);
}

#define EXEC_STRINGS_ORDER 4	/* 64 KiB for argv + envp */
#define EXEC_MAX_ARGS 256

/* Copy a user string vector into buf; fills vec (NULL-terminated). */
static long copy_strings(unsigned long uvec, char **vec, char *buf, size_t *used, size_t size)
{
	int n = 0;

	for (; uvec; n++) {
		unsigned long up;
		long len;

		if (n == EXEC_MAX_ARGS)
			return -E2BIG;
		if (copy_from_user(&up, (const void *)(uvec + n * sizeof(up)), sizeof(up)))
			return -EFAULT;
		if (!up)
			break;
		len = strncpy_from_user(buf + *used, (const char *)up, size - *used);
		if (len < 0)
			return len == -ENAMETOOLONG ? -E2BIG : len;
		vec[n] = buf + *used;
		*used += (size_t)len + 1;
	}
	vec[n] = NULL;
	return 0;
}

/*
 * execve(path, argv, envp): the strings are copied in before the old image
 * goes. A NULL or empty argv gives the new program argc 1 and argv[0] "",
 * as Linux does since 5.18, so no program starts with argv[0] NULL.
 */
long sys_execve(const unsigned long *a)
{
	struct page *pg = alloc_pages(0, EXEC_STRINGS_ORDER);
	static char *argv[EXEC_MAX_ARGS + 1], *envp[EXEC_MAX_ARGS + 1];
	size_t used = 0, size = PAGE_SIZE << EXEC_STRINGS_ORDER;
	char *buf;
	long err;

	if (!pg)
		return -ENOMEM;
	buf = page_address(pg);
	err = strncpy_from_user(buf, (const char *)a[0], 256);
	if (err >= 0) {
		used = (size_t)err + 1;
		err = copy_strings(a[1], argv, buf, &used, size);
	}
	if (!err && !argv[0]) {
		/* An empty argv becomes { "" }, so argc is 1 (Linux >= 5.18). */
		buf[used] = '\0';
		argv[0] = buf + used++;
		argv[1] = NULL;
	}
	if (!err)
		err = copy_strings(a[2], envp, buf, &used, size);
	if (!err)
		err = exec_into(current_proc(), buf, argv, envp);
	if (!err) {
		current_proc()->did_exec = true;
		proc_set_cmdline(current_proc(), argv);
	}
	free_pages(pg, EXEC_STRINGS_ORDER);
	return err;
}

/* struct rusage: two timevals then 14 longs (Linux's layout on both arches). */
struct rusage_user {
	long utime_sec, utime_usec, stime_sec, stime_usec;
	long maxrss, ixrss, idrss, isrss, minflt, majflt, nswap, inblock, oublock;
	long msgsnd, msgrcv, nsignals, nvcsw, nivcsw;
};

static void usage_to_user(struct rusage_user *ru, const struct proc_usage *u)
{
	memset(ru, 0, sizeof(*ru));
	ru->utime_sec = (long)(u->utime_ns / 1000000000);
	ru->utime_usec = (long)(u->utime_ns % 1000000000 / 1000);
	ru->stime_sec = (long)(u->stime_ns / 1000000000);
	ru->stime_usec = (long)(u->stime_ns % 1000000000 / 1000);
	ru->maxrss = (long)u->maxrss_kb;
	ru->minflt = (long)u->minflt;
	ru->majflt = (long)u->majflt;
}

long sys_wait4(const unsigned long *a)
{
	int status = 0;
	struct proc_usage u;
	long pid = proc_wait(arg_int(a[0]), &status, arg_int(a[2]), &u);

	if (pid > 0 && a[1] && copy_to_user((void *)a[1], &status, sizeof(status)))
		return -EFAULT;
	if (pid > 0 && a[3]) {
		struct rusage_user ru;

		usage_to_user(&ru, &u);
		if (copy_to_user((void *)a[3], &ru, sizeof(ru)))
			return -EFAULT;
	}
	return pid;
}

long sys_set_tid_address(const unsigned long *a)
{
	current_proc()->clear_child_tid = a[0];
	return current_proc()->pid;
}

long sys_rseq(const unsigned long *a) { (void)a; return -ENOSYS; }

/*
 * The limit of resource res of process pid (0: the caller): *old gets the
 * limit before the change when old is not NULL; *new, when not NULL,
 * replaces it. The checks are prlimit64's, in Linux's order.
 */
static long do_prlimit(int pid, unsigned res, const u64 *new, u64 *old)
{
	struct proc *p = current_proc();

	if (pid && pid != p->pid) {
		p = proc_find(pid);
		if (!p)
			return -ESRCH;
	}
	if (res >= RLIM_NLIMITS)
		return -EINVAL;
	if (new && new[0] > new[1])
		return -EINVAL;
	if (old) {
		old[0] = p->rlim[res].cur;
		old[1] = p->rlim[res].max;
	}
	if (new) {
		p->rlim[res].cur = new[0];
		p->rlim[res].max = new[1];	/* we run as root: raising max is allowed */
	}
	return 0;
}

/* prlimit64(pid, resource, new, old): read and set a process's limits. */
long sys_prlimit64(const unsigned long *a)
{
	u64 lim[2], prev[2];
	long rc;

	if (a[2] && copy_from_user(lim, (const void *)a[2], sizeof(lim)))
		return -EFAULT;
	rc = do_prlimit(arg_int(a[0]), arg_uint(a[1]), a[2] ? lim : NULL, prev);
	if (rc == 0 && a[3] && copy_to_user((void *)a[3], prev, sizeof(prev)))
		return -EFAULT;
	return rc;
}

/*
 * The 32-bit arches' getrlimit (MicroBlaze: ugetrlimit) and setrlimit take
 * struct rlimit of two unsigned longs, where ~0ul is RLIM_INFINITY. A
 * 64-bit limit too large for it reads as RLIM_INFINITY, and RLIM_INFINITY
 * written becomes the 64-bit infinity, as Linux converts them.
 */
#define RLIM_INFINITY_UL	(~0ul)

long sys_getrlimit(const unsigned long *a)
{
	u64 lim[2];
	unsigned long ul[2];
	long rc = do_prlimit(0, arg_uint(a[0]), NULL, lim);

	if (rc)
		return rc;
	for (int i = 0; i < 2; i++)
		ul[i] = lim[i] >= RLIM_INFINITY_UL ? RLIM_INFINITY_UL : (unsigned long)lim[i];
	return copy_to_user((void *)a[1], ul, sizeof(ul)) ? -EFAULT : 0;
}

long sys_setrlimit(const unsigned long *a)
{
	unsigned long ul[2];
	u64 lim[2];

	if (copy_from_user(ul, (const void *)a[1], sizeof(ul)))
		return -EFAULT;
	for (int i = 0; i < 2; i++)
		lim[i] = ul[i] == RLIM_INFINITY_UL ? ~0ull : ul[i];
	return do_prlimit(0, arg_uint(a[0]), lim, NULL);
}

/* getrusage(who, ru): RUSAGE_SELF (0: every thread of the process),
 * RUSAGE_CHILDREN (-1, the reaped ones), RUSAGE_THREAD (1: the caller). */
long sys_getrusage(const unsigned long *a)
{
	struct rusage_user ru;
	struct proc_usage u;
	int who = arg_int(a[0]);

	if (who != 0 && who != -1 && who != 1)
		return -EINVAL;
	proc_get_usage(current_proc(), who == -1 ? USAGE_CHILDREN : who == 1 ? USAGE_THREAD : USAGE_PROCESS, &u);
	usage_to_user(&ru, &u);
	return copy_to_user((void *)a[1], &ru, sizeof(ru)) ? -EFAULT : 0;
}

/* ---- interval timers ---- */

/* struct itimerval: it_interval then it_value, timevals of two longs. */
struct itimerval_user {
	long interval_sec, interval_usec, value_sec, value_usec;
};

/* Time left on timer which of p, in ns (0: disarmed). */
static u64 itimer_left(const struct proc *p, int which)
{
	u64 v = p->itimer[which].value, now = ktime_ns();

	if (which != ITIMER_REAL || !v)
		return v;
	return v > now ? v - now : 1000;	/* due now: Linux reports 1 us left */
}

static void ns_to_tv(u64 ns, long *sec, long *usec)
{
	*sec = (long)(ns / 1000000000);
	*usec = (long)((ns % 1000000000 + 999) / 1000);	/* never round a live timer down to 0 */
	if (*usec == 1000000) {
		(*sec)++;
		*usec = 0;
	}
}

static void itimer_get(const struct proc *p, int which, struct itimerval_user *out)
{
	ns_to_tv(p->itimer[which].interval, &out->interval_sec, &out->interval_usec);
	ns_to_tv(itimer_left(p, which), &out->value_sec, &out->value_usec);
}

/* Arm (value 0: disarm) timer which; ITIMER_REAL keeps a deadline. */
static void itimer_set(struct proc *p, int which, u64 value, u64 interval)
{
	p->itimer[which].interval = value ? interval : 0;
	p->itimer[which].value = value && which == ITIMER_REAL ? ktime_ns() + value : value;
}

static bool tv_valid(long sec, long usec)
{
	return sec >= 0 && usec >= 0 && usec < 1000000;
}

/* getitimer(which, curr): the time left and the interval. */
long sys_getitimer(const unsigned long *a)
{
	int which = arg_int(a[0]);
	struct itimerval_user v;

	if (which < ITIMER_REAL || which > ITIMER_PROF)
		return -EINVAL;
	itimer_get(current_proc()->group_leader, which, &v);
	return copy_to_user((void *)a[1], &v, sizeof(v)) ? -EFAULT : 0;
}

/*
 * setitimer(which, new, old): as Linux, a NULL new disarms the timer, and
 * each timeval must have 0 <= usec < 1000000 and sec >= 0 (EINVAL). The
 * timers tick at HZ: an expiry is seen at the next tick after it.
 */
long sys_setitimer(const unsigned long *a)
{
	struct proc *p = current_proc()->group_leader;	/* the timers are the process's */
	int which = arg_int(a[0]);
	struct itimerval_user nv = { 0, 0, 0, 0 }, ov;

	if (which < ITIMER_REAL || which > ITIMER_PROF)
		return -EINVAL;
	if (a[1] && copy_from_user(&nv, (const void *)a[1], sizeof(nv)))
		return -EFAULT;
	if (!tv_valid(nv.value_sec, nv.value_usec) || !tv_valid(nv.interval_sec, nv.interval_usec))
		return -EINVAL;
	itimer_get(p, which, &ov);
	itimer_set(p, which, (u64)nv.value_sec * 1000000000 + (u64)nv.value_usec * 1000,
		   (u64)nv.interval_sec * 1000000000 + (u64)nv.interval_usec * 1000);
	if (a[2] && copy_to_user((void *)a[2], &ov, sizeof(ov)))
		return -EFAULT;
	return 0;
}

/* alarm(seconds) (MicroBlaze; arm64's libc uses setitimer): ITIMER_REAL
 * without interval; returns the seconds that were left, rounded to nearest
 * and at least 1 if any time was left, as Linux. */
long sys_alarm(const unsigned long *a)
{
	struct proc *p = current_proc()->group_leader;
	unsigned secs = arg_uint(a[0]);
	u64 left = itimer_left(p, ITIMER_REAL);
	long old = (long)((left + 500000000) / 1000000000);

	if (left && !old)
		old = 1;
	itimer_set(p, ITIMER_REAL, (u64)secs * 1000000000, 0);
	return old;
}

long sys_uname(const unsigned long *a)
{
	char u[6][65];

	memset(u, 0, sizeof(u));
	snprintk(u[0], 65, "Linux");	/* the ABI we implement */
	snprintk(u[1], 65, "teachos");
	snprintk(u[2], 65, "6.12.0-teachos");
	snprintk(u[3], 65, "#1");
	snprintk(u[4], 65, "%s", arch_machine_name());
	snprintk(u[5], 65, "(none)");
	return copy_to_user((void *)a[0], u, sizeof(u)) ? -EFAULT : 0;
}

long sys_sched_yield(const unsigned long *a)
{
	(void)a;
	yield();
	return 0;
}

/*
 * CPU affinity. The kernel's cpumask is one unsigned long (Linux's
 * cpumask_size() for up to 64 CPUs); a process keeps the CPUs it may run
 * on (p->cpus_allowed, inherited by fork and clone) and the scheduler
 * loop of a CPU outside it never picks it (kernel/proc.c).
 */
static struct proc *affinity_target(int pid)
{
	return pid ? proc_find(pid) : current_proc();
}

/* The online CPUs as a mask. */
static unsigned long online_cpus(void)
{
	unsigned long m = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (smp_cpu_online(cpu))
			m |= 1ul << cpu;
	return m;
}

/* sched_getaffinity(pid, len, mask): len must hold every possible CPU and
 * be a multiple of unsigned long (EINVAL); the mask is the CPUs allowed
 * and online; returns the bytes written. */
long sys_sched_getaffinity(const unsigned long *a)
{
	unsigned long len = a[1], mask;
	struct proc *t;

	if (len * 8 < (unsigned long)smp_num_present() || (len & (sizeof(unsigned long) - 1)))
		return -EINVAL;
	t = affinity_target(arg_int(a[0]));
	if (!t)
		return -ESRCH;
	mask = t->cpus_allowed & online_cpus();
	return copy_to_user((void *)a[2], &mask, sizeof(mask)) ? -EFAULT : (long)sizeof(mask);
}

/* sched_setaffinity(pid, len, mask): a shorter mask is zero-extended, a
 * longer one cut to the kernel's; it must include an online CPU (EINVAL).
 * Another user's process needs privilege (EPERM, Linux's check_same_owner).
 * A process that may no longer run where it is leaves at its next return
 * to user mode (this one) or its next tick (one running elsewhere). */
long sys_sched_setaffinity(const unsigned long *a)
{
	struct proc *me = current_proc(), *t;
	unsigned long mask = 0;
	size_t len = MIN(a[1], sizeof(mask));

	if (copy_from_user(&mask, (const void *)a[2], len))
		return -EFAULT;
	t = affinity_target(arg_int(a[0]));
	if (!t)
		return -ESRCH;
	if (me->uid[1] != 0 && me->uid[1] != t->uid[1] && me->uid[1] != t->uid[0])
		return -EPERM;
	mask &= online_cpus();
	if (!mask)
		return -EINVAL;
	t->cpus_allowed = mask;
	if (t == me && !(mask & (1ul << arch_cpu_id())))
		this_cpu()->need_resched = true;
	return 0;
}

/* getcpu(cpu, node, cache): the CPU the caller runs on now, node 0; either
 * pointer may be NULL; the third argument is unused (as on Linux). */
long sys_getcpu(const unsigned long *a)
{
	unsigned cpu = (unsigned)arch_cpu_id(), node = 0;

	if (a[0] && copy_to_user((void *)a[0], &cpu, sizeof(cpu)))
		return -EFAULT;
	if (a[1] && copy_to_user((void *)a[1], &node, sizeof(node)))
		return -EFAULT;
	return 0;
}

#define REBOOT_MAGIC1		0xfee1dead
#define REBOOT_MAGIC2		672274793
#define REBOOT_MAGIC2A		85072278
#define REBOOT_MAGIC2B		369367448
#define REBOOT_MAGIC2C		537993216
#define REBOOT_CMD_CAD_OFF	0x00000000
#define REBOOT_CMD_CAD_ON	0x89abcdef
#define REBOOT_CMD_HALT		0xcdef0123
#define REBOOT_CMD_POWER_OFF	0x4321fedc

/*
 * reboot(magic1, magic2, cmd, arg): Linux declares all three int or
 * unsigned int (glibc passes the int magic1 sign-extended). The magic
 * numbers are checked first, then the command, as on Linux: POWER_OFF and
 * HALT power off; CAD_ON and CAD_OFF choose what Ctrl-Alt-Del does, and as
 * there is no keyboard to send one they succeed with nothing to change;
 * any other command (RESTART included) is EINVAL.
 */
long sys_reboot(const unsigned long *a)
{
	unsigned magic1 = arg_uint(a[0]), magic2 = arg_uint(a[1]), cmd = arg_uint(a[2]);

	if (magic1 != REBOOT_MAGIC1 || (magic2 != REBOOT_MAGIC2 && magic2 != REBOOT_MAGIC2A &&
					magic2 != REBOOT_MAGIC2B && magic2 != REBOOT_MAGIC2C))
		return -EINVAL;
	switch (cmd) {
	case REBOOT_CMD_POWER_OFF:
	case REBOOT_CMD_HALT:
		arch_poweroff(0);
	case REBOOT_CMD_CAD_ON:
	case REBOOT_CMD_CAD_OFF:
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * Linux's struct sysinfo (uapi linux/sysinfo.h) with the arch's long:
 * 112 bytes with 64-bit longs, 64 with 32-bit ones. The padding at the end
 * is what Linux computes from sizeof(long), and is empty on 64-bit.
 */
struct sysinfo_user {
	long uptime;
	unsigned long loads[3], totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	u16 procs, pad;
	unsigned long totalhigh, freehigh;
	u32 mem_unit;
	char f[20 - 2 * sizeof(unsigned long) - sizeof(u32)];
};
_Static_assert(sizeof(struct sysinfo_user) == (sizeof(long) == 8 ? 112 : 64), "struct sysinfo");
_Static_assert(__builtin_offsetof(struct sysinfo_user, mem_unit) == (sizeof(long) == 8 ? 104 : 52),
	       "struct sysinfo");

/*
 * sysinfo(info): uptime in whole seconds rounded up, memory in pages of
 * mem_unit bytes, procs the number of processes. As Linux does, when
 * the memory counts fit in an unsigned long as bytes they are given in
 * bytes with mem_unit 1; no load averages, swap or high memory.
 */
long sys_sysinfo(const unsigned long *a)
{
	struct sysinfo_user si;
	struct page_stats st;
	u64 ns = ktime_ns();

	page_alloc_stats(&st);
	memset(&si, 0, sizeof(si));
	si.uptime = (long)(ns / 1000000000 + (ns % 1000000000 ? 1 : 0));
	si.totalram = (unsigned long)st.total_pages;
	si.freeram = (unsigned long)st.free_pages;
	si.procs = (u16)proc_count();
	si.mem_unit = PAGE_SIZE;
	if (si.totalram <= ~0ul / PAGE_SIZE) {
		si.totalram *= PAGE_SIZE;
		si.freeram *= PAGE_SIZE;
		si.mem_unit = 1;
	}
	return copy_to_user((void *)a[0], &si, sizeof(si)) ? -EFAULT : 0;
}

/* ---- time ---- */

struct timespec_user {
	long sec, nsec;
};

/*
 * struct __kernel_timespec: the 64-bit time of the *_time64 calls of
 * 32-bit arches (on a 64-bit arch it is struct timespec itself). As on
 * Linux, a 32-bit kernel reads only the low half of tv_nsec.
 */
struct timespec64_user {
	s64 sec, nsec;
};

long get_user_timespec(const void *uts, bool t64, s64 *sec, long *nsec)
{
	if (t64) {
		struct timespec64_user ts;

		if (copy_from_user(&ts, uts, sizeof(ts)))
			return -EFAULT;
		*sec = ts.sec;
		*nsec = (long)ts.nsec;
	} else {
		struct timespec_user ts;

		if (copy_from_user(&ts, uts, sizeof(ts)))
			return -EFAULT;
		*sec = ts.sec;
		*nsec = ts.nsec;
	}
	if (*sec < 0 || *nsec < 0 || *nsec >= 1000000000)
		return -EINVAL;
	return 0;
}

long put_user_timespec_ns(void *uts, bool t64, u64 ns)
{
	if (t64) {
		struct timespec64_user ts = { (s64)(ns / 1000000000), (s64)(ns % 1000000000) };

		return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
	} else {
		struct timespec_user ts = { (long)(ns / 1000000000), (long)(ns % 1000000000) };

		return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
	}
}

/*
 * Read clock id into *ns, as Linux's clock_gettime: the wall and monotonic
 * clocks (REALTIME, MONOTONIC, MONOTONIC_RAW, the COARSE ones, BOOTTIME,
 * the ALARM ones, TAI) all read ktime, the time since boot, as this kernel
 * has no real-time clock source; CLOCK_PROCESS_CPUTIME_ID (2) and
 * CLOCK_THREAD_CPUTIME_ID (3) the caller's process's or thread's CPU time;
 * a negative id is a CPU clock of another thread or process
 * (clock_getcpuclockid: pid ~id >> 3, 0 for the caller; bit 2 per thread;
 * the low two bits PROF, VIRT or SCHED). *coarse says the clock counts in
 * ticks (clock_getres). -EINVAL for an id Linux does not have.
 */
static long clock_read(int id, u64 *ns, bool *coarse)
{
	struct proc *p = current_proc();
	struct proc_usage u;
	int which = 2;	/* CPUCLOCK_SCHED: user + system */
	bool thread;

	*coarse = id == 5 || id == 6;
	if (id >= 0) {
		if (id == 10 || id > 11)
			return -EINVAL;
		if (id != 2 && id != 3) {
			*ns = ktime_ns();
			return 0;
		}
		thread = id == 3;
	} else {
		int pid = ~id >> 3;

		which = id & 3;
		thread = id & 4;
		if (which == 3 || (id & 7) == 7)
			return -EINVAL;	/* no such CPU clock; dynamic (fd) clocks are not supported */
		if (pid) {
			p = proc_find(pid);
			if (!p || (!thread && p->group_leader != p))
				return -EINVAL;
		}
	}
	proc_get_usage(p, thread ? USAGE_THREAD : USAGE_PROCESS, &u);
	*ns = which == 1 ? u.utime_ns : u.utime_ns + u.stime_ns;	/* VIRT: user time only */
	return 0;
}

static long do_clock_gettime(const unsigned long *a, bool t64)
{
	bool coarse;
	u64 ns;
	long rc = clock_read(arg_int(a[0]), &ns, &coarse);

	return rc ? rc : put_user_timespec_ns((void *)a[1], t64, ns);
}

long sys_clock_gettime(const unsigned long *a) { return do_clock_gettime(a, false); }
long sys_clock_gettime64(const unsigned long *a) { return do_clock_gettime(a, true); }

/* clock_getres(id, res): 1 ns, as Linux's high-resolution clocks report, or a tick for the COARSE ones. */
static long do_clock_getres(const unsigned long *a, bool t64)
{
	bool coarse;
	u64 ns;
	long rc = clock_read(arg_int(a[0]), &ns, &coarse);

	if (rc || !a[1])
		return rc;
	return put_user_timespec_ns((void *)a[1], t64, coarse ? 1000000000ull / HZ : 1);
}

long sys_clock_getres(const unsigned long *a) { return do_clock_getres(a, false); }
long sys_clock_getres_time64(const unsigned long *a) { return do_clock_getres(a, true); }

long sys_gettimeofday(const unsigned long *a)
{
	u64 ns = ktime_ns();
	long tv[2] = { (long)(ns / 1000000000), (long)(ns % 1000000000 / 1000) };

	if (a[0] && copy_to_user((void *)a[0], tv, sizeof(tv)))
		return -EFAULT;
	return 0;
}

/*
 * Sleep until ktime reaches 'until'. A signal ends the sleep as Linux's
 * nanosleep: a relative sleep writes the time left to urem (a timespec of
 * the given width, when urem is not 0) and returns ERESTART_RESTARTBLOCK,
 * so a handler makes it EINTR and a signal without one (a stop, then
 * SIGCONT) resumes it through restart_syscall for the time left; an
 * absolute sleep (abs) is simply restarted with its arguments.
 */
static long sleep_until(u64 until, unsigned long urem, bool t64, bool abs)
{
	struct proc *p = current_proc();

	while (ktime_ns() < until) {
		if (sleep_on(&sleep_until, until) == -EINTR) {
			u64 left = until > ktime_ns() ? until - ktime_ns() : 0;

			if (abs)
				return -ERESTARTNOHAND;
			if (urem && put_user_timespec_ns((void *)urem, t64, left))
				return -EFAULT;
			p->restart_deadline = until;
			p->restart_urem = urem;
			p->restart_t64 = t64;
			return -ERESTART_RESTARTBLOCK;
		}
	}
	return 0;
}

/* restart_syscall(): the rest of the nanosleep a signal without a handler
 * interrupted; -EINTR when there is none to resume. */
long sys_restart_syscall(const unsigned long *a)
{
	struct proc *p = current_proc();
	u64 until = p->restart_deadline;

	(void)a;
	if (!until)
		return -EINTR;
	p->restart_deadline = 0;
	return sleep_until(until, p->restart_urem, p->restart_t64, false);
}

/* A valid sleep request (Linux's timespec64_valid), in nanoseconds. */
static long sleep_request(const void *uts, bool t64, u64 *ns)
{
	s64 sec;
	long nsec;
	long rc = get_user_timespec(uts, t64, &sec, &nsec);

	if (rc)
		return rc;
	*ns = (u64)sec * 1000000000 + (u64)nsec;
	return 0;
}

long sys_nanosleep(const unsigned long *a)
{
	u64 ns;
	long rc = sleep_request((const void *)a[0], false, &ns);

	return rc ? rc : sleep_until(ktime_ns() + ns, a[1], false, false);
}

static long do_clock_nanosleep(const unsigned long *a, bool t64)
{
	u64 when;
	long rc = sleep_request((const void *)a[2], t64, &when);
	bool abs = arg_int(a[1]) & 1;	/* TIMER_ABSTIME */

	if (rc)
		return rc;
	if (!abs)
		when += ktime_ns();
	return sleep_until(when, abs ? 0 : a[3], t64, abs);
}

long sys_clock_nanosleep(const unsigned long *a) { return do_clock_nanosleep(a, false); }
long sys_clock_nanosleep_time64(const unsigned long *a) { return do_clock_nanosleep(a, true); }

long sys_getrandom(const unsigned long *a)
{
	size_t n = a[1], done = 0;

	if (arg_uint(a[2]) & ~7u)
		return -EINVAL;
	while (done < n) {
		u64 r = get_random_u64();
		size_t chunk = MIN(n - done, sizeof(r));

		if (copy_to_user((void *)(a[0] + done), &r, chunk))
			return done ? (long)done : -EFAULT;
		done += chunk;
	}
	return (long)done;
}

/* ---- signals ---- */

static bool valid_signal(int sig)
{
	return sig >= 1 && sig <= NSIG;
}

/* Send sig to one process; sig 0 only checks that it exists. */
static long kill_one(struct proc *p, int sig, int code)
{
	struct ksiginfo si = { .signo = sig, .code = code, .pid = current_proc()->tgid };

	if (!p)
		return -ESRCH;
	if (sig && p->group_leader->nr_threads)	/* a zombie process takes nothing */
		signal_send(p, &si);
	return 0;
}

/* tkill/tgkill: sig to thread t alone. */
static long kill_thread(struct proc *t, int sig)
{
	struct ksiginfo si = { .signo = sig, .code = SI_TKILL, .pid = current_proc()->tgid };

	if (!t || t->state == P_ZOMBIE)
		return -ESRCH;	/* an exited thread is gone, whatever its slot holds */
	if (sig)
		signal_send_thread(t, &si);
	return 0;
}

/*
 * kill(pid, sig) as Linux: pid > 0 one process; 0 the caller's process
 * group; -1 every process but init and the caller; < -1 the group -pid.
 * A group or "everyone" with no member is ESRCH. Everyone is root here,
 * so EPERM never happens.
 */
long sys_kill(const unsigned long *a)
{
	int pid = arg_int(a[0]), sig = arg_int(a[1]);
	struct ksiginfo si = { .signo = sig, .code = SI_USER, .pid = current_proc()->tgid };

	if (sig && !valid_signal(sig))
		return -EINVAL;
	if (pid > 0)
		return kill_one(proc_find(pid), sig, SI_USER);
	if (pid == -1)
		return proc_signal_all(&si, current_proc());
	if (pid == (int)0x80000000)
		return -ESRCH;	/* -INT_MIN is no group id */
	return proc_signal_group(pid ? -pid : current_proc()->pgid, &si);
}

/* ---- process groups and sessions (the rules are in proc.c) ---- */

long sys_setpgid(const unsigned long *a) { return proc_setpgid(arg_int(a[0]), arg_int(a[1])); }
long sys_getpgid(const unsigned long *a) { return proc_getpgid(arg_int(a[0])); }
long sys_getpgrp(const unsigned long *a) { (void)a; return proc_getpgid(0); }
long sys_getsid(const unsigned long *a) { return proc_getsid(arg_int(a[0])); }

long sys_setsid(const unsigned long *a)
{
	(void)a;
	return proc_setsid();
}

long sys_tkill(const unsigned long *a)
{
	int tid = arg_int(a[0]), sig = arg_int(a[1]);

	if (tid <= 0 || (sig && !valid_signal(sig)))
		return -EINVAL;
	return kill_thread(proc_find(tid), sig);
}

long sys_tgkill(const unsigned long *a)
{
	int tgid = arg_int(a[0]), tid = arg_int(a[1]), sig = arg_int(a[2]);

	struct proc *t = proc_find(tid);

	if (tgid <= 0 || tid <= 0 || (sig && !valid_signal(sig)))
		return -EINVAL;
	return kill_thread(t && t->tgid == tgid ? t : NULL, sig);
}

#ifdef ARCH_SIGACTION_NO_RESTORER
/* The arch's user struct sigaction has no sa_restorer (MicroBlaze). */
struct sigaction_user {
	unsigned long handler;
	unsigned long flags;
	u64 mask;
};

static long sigaction_from_user(struct k_sigaction *act, unsigned long uaddr)
{
	struct sigaction_user u;

	if (copy_from_user(&u, (const void *)uaddr, sizeof(u)))
		return -EFAULT;
	*act = (struct k_sigaction){ .handler = u.handler, .flags = u.flags, .mask = sigset_user(u.mask) };
	return 0;
}

static long sigaction_to_user(unsigned long uaddr, const struct k_sigaction *act)
{
	struct sigaction_user u = { act->handler, act->flags, sigset_user(act->mask) };

	return copy_to_user((void *)uaddr, &u, sizeof(u)) ? -EFAULT : 0;
}
#else
static long sigaction_from_user(struct k_sigaction *act, unsigned long uaddr)
{
	if (copy_from_user(act, (const void *)uaddr, sizeof(*act)))
		return -EFAULT;
	act->mask = sigset_user(act->mask);
	return 0;
}

static long sigaction_to_user(unsigned long uaddr, const struct k_sigaction *act)
{
	struct k_sigaction u = *act;

	u.mask = sigset_user(u.mask);
	return copy_to_user((void *)uaddr, &u, sizeof(u)) ? -EFAULT : 0;
}
#endif

long sys_rt_sigaction(const unsigned long *a)
{
	struct proc *p = current_proc();
	int sig = arg_int(a[0]);
	struct k_sigaction act, old;

	if (!valid_signal(sig) || a[3] != sizeof(u64))
		return -EINVAL;
	old = p->sighand->act[sig - 1];
	if (a[1]) {
		if (sig == SIGKILL || sig == SIGSTOP)
			return -EINVAL;
		if (sigaction_from_user(&act, a[1]))
			return -EFAULT;
		act.mask &= ~(SIGMASK(SIGKILL) | SIGMASK(SIGSTOP));
		p->sighand->act[sig - 1] = act;
		/* Setting SIG_IGN (or default-ignore) discards a pending instance. */
		if (act.handler == SIG_IGN)
			signal_discard(p, sig);
	}
	if (a[2] && sigaction_to_user(a[2], &old))
		return -EFAULT;
	return 0;
}

long sys_rt_sigprocmask(const unsigned long *a)
{
	struct proc *p = current_proc();
	u64 set, old = sigset_user(p->sig.blocked);

	if (a[3] != sizeof(u64))
		return -EINVAL;
	if (a[1]) {
		if (copy_from_user(&set, (const void *)a[1], sizeof(set)))
			return -EFAULT;
		set = sigset_user(set);
		switch (arg_int(a[0])) {
		case SIG_BLOCK: p->sig.blocked |= set; break;
		case SIG_UNBLOCK: p->sig.blocked &= ~set; break;
		case SIG_SETMASK: p->sig.blocked = set; break;
		default: return -EINVAL;
		}
		p->sig.blocked &= ~(SIGMASK(SIGKILL) | SIGMASK(SIGSTOP));
	}
	if (a[2] && copy_to_user((void *)a[2], &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_rt_sigreturn(const unsigned long *a)
{
	struct proc *p = current_proc();
	struct pt_regs *regs = proc_user_regs(p);
	u64 blocked;

	(void)a;
	p->sys_returning = false;	/* the restored x0/r3 is a value, never a restart code */
	if (!arch_sigreturn(p, regs, &blocked)) {
		struct ksiginfo si = { .signo = SIGSEGV, .code = SI_USER };

		signal_force(p, &si);
		return arch_regs_get_return(regs);
	}
	p->sig.blocked = blocked & ~(SIGMASK(SIGKILL) | SIGMASK(SIGSTOP));
	return arch_regs_get_return(regs);	/* the restored x0/r3, unchanged */
}

long sys_rt_sigpending(const unsigned long *a)
{
	struct proc *p = current_proc();
	u64 set = sigset_user((p->sig.pending | p->group_leader->shared_pending) & p->sig.blocked);

	if (a[1] != sizeof(u64))
		return -EINVAL;
	return copy_to_user((void *)a[0], &set, sizeof(set)) ? -EFAULT : 0;
}

/* Wait for a signal with a temporary mask; returns -EINTR after the handler. */
long sys_rt_sigsuspend(const unsigned long *a)
{
	struct proc *p = current_proc();
	u64 mask;

	if (a[1] != sizeof(u64))
		return -EINVAL;
	if (copy_from_user(&mask, (const void *)a[0], sizeof(mask)))
		return -EFAULT;
	mask = sigset_user(mask);
	p->sig.saved_blocked = p->sig.blocked;
	p->sig.restore_saved = true;
	p->sig.blocked = mask & ~(SIGMASK(SIGKILL) | SIGMASK(SIGSTOP));
	while (!signal_pending(p))
		sleep_on(&p->sig, 0);
	return -ERESTARTNOHAND;	/* EINTR after a handler; a stop and continue waits again */
}

struct stack_user {
	unsigned long sp;
	int flags;
	unsigned long size;
};

#define SS_DISABLE 2

long sys_sigaltstack(const unsigned long *a)
{
	struct sigstate *s = &current_proc()->sig;
	struct stack_user old = { s->altstack_sp, s->altstack_size ? 0 : SS_DISABLE, s->altstack_size };
	struct stack_user ss;

	if (a[0]) {
		if (copy_from_user(&ss, (const void *)a[0], sizeof(ss)))
			return -EFAULT;
		if (ss.flags & ~SS_DISABLE)
			return -EINVAL;
		s->altstack_sp = (ss.flags & SS_DISABLE) ? 0 : ss.sp;
		s->altstack_size = (ss.flags & SS_DISABLE) ? 0 : ss.size;
	}
	if (a[1] && copy_to_user((void *)a[1], &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* ---- prctl ---- */

#define PR_SET_PDEATHSIG	1
#define PR_GET_PDEATHSIG	2
#define PR_SET_NAME		15
#define PR_GET_NAME		16
#define PR_SET_TAGGED_ADDR_CTRL	55
#define PR_GET_TAGGED_ADDR_CTRL	56
#define PR_TAGGED_ADDR_ENABLE	1ul

/*
 * prctl(option, arg2, ...): the options below, others EINVAL as Linux
 * answers an unknown one. The tagged-address ABI (arm64 only; EINVAL on
 * MicroBlaze, which Linux does not give it) is recorded and reported; the
 * CPU ignores the top byte of user addresses (TBI0) already, and with no
 * MTE only PR_TAGGED_ADDR_ENABLE is a valid bit.
 */
long sys_prctl(const unsigned long *a)
{
	struct proc *p = current_proc();
	int option = arg_int(a[0]);
	char name[16];
	long n;

	switch (option) {
	case PR_SET_PDEATHSIG:
		if (a[1] > NSIG)
			return -EINVAL;
		p->pdeath_signal = (int)a[1];
		return 0;
	case PR_GET_PDEATHSIG:
		return copy_to_user((void *)a[1], &p->pdeath_signal, sizeof(int)) ? -EFAULT : 0;
	case PR_SET_NAME:
		memset(name, 0, sizeof(name));
		n = strncpy_from_user(name, (const char *)a[1], sizeof(name));
		if (n < 0 && n != -ENAMETOOLONG)
			return n;
		name[sizeof(name) - 1] = '\0';	/* longer names are cut to 15 bytes */
		memcpy(p->name, name, sizeof(name));
		return 0;
	case PR_GET_NAME:
		memcpy(name, p->name, sizeof(name));
		name[sizeof(name) - 1] = '\0';
		return copy_to_user((void *)a[1], name, sizeof(name)) ? -EFAULT : 0;
#ifdef __aarch64__
	case PR_SET_TAGGED_ADDR_CTRL:
		if (a[1] & ~PR_TAGGED_ADDR_ENABLE || a[2] || a[3] || a[4])
			return -EINVAL;
		p->tagged_addr_ctrl = a[1];
		return 0;
	case PR_GET_TAGGED_ADDR_CTRL:
		if (a[1] || a[2] || a[3] || a[4])
			return -EINVAL;
		return (long)p->tagged_addr_ctrl;
#endif
	default:
		return -EINVAL;
	}
}
