/*
 * proc.c - the process table, the scheduler, sleep/wakeup, fork, exit and
 * wait (see proc.h).
 */
#include "proc.h"
#include "fs_file.h"
#include "mm.h"
#include "commit.h"
#include "vfs.h"
#include "arch.h"
#include "printk.h"
#include "kstring.h"
#include "errno.h"
#include "page_alloc.h"
#include "ktime.h"
#include "exec.h"
#include "mm_check.h"
#include "tty.h"
#include "vma.h"
#include "poll.h"
#include "slab.h"
#include "futex.h"
#include "uaccess.h"
#include "smp.h"

static struct proc ptable[NPROC];
static struct cpu cpus[NR_CPUS];	/* this_cpu(): indexed by arch_cpu_id() */
static int next_pid = 1;
static struct proc *init_proc;
static struct sched_stats stats;	/* counters only; running/total/last_pid filled on demand */


/* Linux's defaults, within what this kernel can give. */
static void proc_default_limits(struct proc *p)
{
	for (int i = 0; i < RLIM_NLIMITS; i++)
		p->rlim[i].cur = p->rlim[i].max = RLIM_INFINITY;
	p->rlim[RLIMIT_STACK].cur = 8 << 20;
	p->rlim[RLIMIT_CORE].cur = 0;
	p->rlim[RLIMIT_MEMLOCK].cur = p->rlim[RLIMIT_MEMLOCK].max = 8 << 20;	/* Linux's MLOCK_LIMIT (ML-6) */
	p->rlim[RLIMIT_NPROC].cur = p->rlim[RLIMIT_NPROC].max = NPROC;
	p->rlim[RLIMIT_NOFILE].cur = p->rlim[RLIMIT_NOFILE].max = NOFILE;
}

struct cpu *this_cpu(void)
{
	return &cpus[arch_cpu_id()];
}

struct pt_regs *proc_user_regs(struct proc *p)
{
	return (struct pt_regs *)((u8 *)p->kstack + (PAGE_SIZE << KSTACK_ORDER)) - 1;
}

void proc_init(void)
{
	for (int i = 0; i < NPROC; i++)
		ptable[i].state = P_UNUSED;
}

int proc_count_uid(u32 uid)
{
	int n = 0;

	for (int i = 0; i < NPROC; i++)
		n += ptable[i].state != P_UNUSED && ptable[i].uid[0] == uid;
	return n;
}

int proc_count(void)
{
	int n = 0;

	for (int i = 0; i < NPROC; i++)
		n += ptable[i].state != P_UNUSED;
	return n;
}

struct proc *proc_find(int pid)
{
	for (int i = 0; i < NPROC; i++)
		if (ptable[i].state != P_UNUSED && ptable[i].pid == pid)
			return &ptable[i];
	return NULL;
}

int proc_pids(int *pids, int max)
{
	int n = 0;

	for (int i = 0; i < NPROC && n < max; i++)
		if (ptable[i].state != P_UNUSED)
			pids[n++] = ptable[i].pid;
	return n;
}

int proc_live_mms(struct mm **mms, int *pids, int max)
{
	int n = 0;

	for (int i = 0; i < NPROC && n < max; i++) {
		bool seen = false;

		if (ptable[i].state == P_UNUSED || !ptable[i].mm)
			continue;
		for (int j = 0; j < n && !seen; j++)
			seen = mms[j] == ptable[i].mm;	/* threads share one mm: check it once */
		if (seen)
			continue;
		mms[n] = ptable[i].mm;
		pids[n++] = ptable[i].pid;
	}
	return n;
}

int proc_list_pids(int *pids, int max)
{
	int n = 0;

	for (int i = 0; i < NPROC && n < max; i++)
		if (ptable[i].state != P_UNUSED && ptable[i].state != P_EMBRYO && ptable[i].group_leader == &ptable[i])
			pids[n++] = ptable[i].pid;	/* processes: their threads are in /proc/<pid>/task */
	for (int i = 1; i < n; i++)	/* slots are reused, so sort by pid */
		for (int j = i; j > 0 && pids[j - 1] > pids[j]; j--) {
			int t = pids[j];

			pids[j] = pids[j - 1];
			pids[j - 1] = t;
		}
	return n;
}

/* A zombie still counts as a target (Linux: sending to it succeeds and
 * does nothing), so the caller's -ESRCH means "no such process at all". */
long proc_signal_all(const struct ksiginfo *info, struct proc *skip)
{
	long rc = -ESRCH;

	for (int i = 0; i < NPROC; i++) {
		struct proc *p = &ptable[i];

		if (p->state == P_UNUSED || p->state == P_EMBRYO || p->group_leader != p ||
		    p == skip->group_leader || p->pid <= 1)
			continue;
		if (info->signo && p->nr_threads)	/* once per process, not per thread */
			signal_send(p, info);
		rc = 0;
	}
	return rc;
}

/* ---- process groups and sessions ---- */

long proc_signal_group(int pgid, const struct ksiginfo *info)
{
	long rc = -ESRCH;

	for (int i = 0; i < NPROC; i++) {
		struct proc *p = &ptable[i];

		if (p->state == P_UNUSED || p->state == P_EMBRYO || p->pgid != pgid || p->group_leader != p)
			continue;
		if (info->signo && p->nr_threads)
			signal_send(p, info);
		rc = 0;
	}
	return rc;
}

bool proc_pgrp_in_session(int pgid, int sid)
{
	for (int i = 0; i < NPROC; i++) {
		struct proc *p = &ptable[i];

		if (p->state != P_UNUSED && p->state != P_EMBRYO && p->pgid == pgid && p->sid == sid)
			return true;
	}
	return false;
}

bool proc_pgrp_orphaned(int pgid)
{
	for (int i = 0; i < NPROC; i++) {
		struct proc *p = &ptable[i], *parent = p->parent;

		if (p->state == P_UNUSED || p->state == P_EMBRYO || p->state == P_ZOMBIE || p->pgid != pgid)
			continue;
		if (parent && parent != init_proc && parent->pgid != pgid && parent->sid == p->sid)
			return false;
	}
	return true;
}

bool proc_pgrp_exists(int pgid)
{
	for (int i = 0; i < NPROC; i++)
		if (ptable[i].state != P_UNUSED && ptable[i].state != P_EMBRYO && ptable[i].pgid == pgid)
			return true;
	return false;
}

/* The process group and session of every thread of leader's process
 * (each thread keeps a copy, so p->pgid is right for any thread). */
static void set_group_ids(struct proc *leader, int pgid, int sid)
{
	for (int i = 0; i < NPROC; i++)
		if (ptable[i].state != P_UNUSED && ptable[i].group_leader == leader) {
			ptable[i].pgid = pgid;
			ptable[i].sid = sid;
		}
}

/*
 * setpgid(pid, pgid), with Linux's checks in Linux's order: a negative
 * pgid is EINVAL; pid must be the caller or a child of it (else ESRCH); a
 * child must be in the caller's session (EPERM) and must not have exec'd
 * (EACCES); a session leader cannot move (EPERM); and a group other than
 * the process's own pid must already exist in the caller's session (EPERM).
 */
long proc_setpgid(int pid, int pgid)
{
	struct proc *me = current_proc()->group_leader, *p;

	if (pgid < 0)
		return -EINVAL;
	if (!pid)
		pid = me->pid;
	if (!pgid)
		pgid = pid;
	p = proc_find(pid);
	if (!p || (p != me && p->parent != me && p->group_leader != me))
		return -ESRCH;
	if (p->group_leader != p)
		return -EINVAL;	/* a thread other than the leader (Linux) */
	if (p != me) {
		if (p->sid != me->sid)
			return -EPERM;
		if (p->did_exec)
			return -EACCES;
	}
	if (p->pid == p->sid)
		return -EPERM;
	if (pgid != p->pid && !proc_pgrp_in_session(pgid, me->sid))
		return -EPERM;
	set_group_ids(p->group_leader, pgid, p->sid);
	return 0;
}

long proc_getpgid(int pid)
{
	struct proc *p = pid ? proc_find(pid) : current_proc();

	return p ? p->pgid : -ESRCH;
}

long proc_getsid(int pid)
{
	struct proc *p = pid ? proc_find(pid) : current_proc();

	return p ? p->sid : -ESRCH;
}

/* setsid: EPERM if a process group already has the caller's pid as its id
 * (the caller leads one, or a group it once led lives on); else a new
 * session and group, with no controlling terminal. */
long proc_setsid(void)
{
	struct proc *me = current_proc();

	for (int i = 0; i < NPROC; i++)
		if (ptable[i].state != P_UNUSED && ptable[i].state != P_EMBRYO && ptable[i].pgid == me->tgid)
			return -EPERM;
	set_group_ids(me->group_leader, me->tgid, me->tgid);
	for (int i = 0; i < NPROC; i++)
		if (ptable[i].group_leader == me->group_leader)
			ptable[i].tty_detached = false;
	return me->sid;
}

/*
 * A free table slot with a kernel stack and a pid, in state P_EMBRYO, set
 * to start in ret_from_fork with its user frame zeroed. NULL if the table
 * is full (*err = -EAGAIN) or memory is short (*err = -ENOMEM).
 */
static struct proc *proc_alloc(long *err)
{
	struct proc *p = NULL;

	for (int i = 0; i < NPROC && !p; i++)
		if (ptable[i].state == P_UNUSED)
			p = &ptable[i];
	*err = -EAGAIN;	/* the table is full (Linux: out of pids) */
	if (!p)
		return NULL;
	struct page *stack = alloc_pages(GFP_ZERO, KSTACK_ORDER);

	*err = -ENOMEM;	/* as Linux's copy_process() when the task cannot be allocated */
	if (!stack)
		return NULL;
	memset(p, 0, sizeof(*p));
	p->kstack = page_address(stack);
	do	/* skip a pid a clone3 set_tid took ahead of the counter */
		p->pid = next_pid++;
	while (proc_find(p->pid));	/* (p itself is still P_UNUSED) */
	p->tgid = p->pid;
	p->group_leader = p;
	p->nr_threads = 1;
	p->state = P_EMBRYO;
	p->start_ns = ktime_ns();
	stats.forks++;
	arch_context_init(&p->ctx, proc_user_regs(p));
	return p;
}

/* Give back what a zombie still holds (called by the reaping parent). */
static void proc_free(struct proc *p)
{
	free_pages(phys_to_page(virt_to_phys(p->kstack)), KSTACK_ORDER);
	p->kstack = NULL;
	p->state = P_UNUSED;
	p->pid = 0;
}

/* ---- scheduling ---- */

/* Switch from the current process to the scheduler loop. */
static void sched(void)
{
	struct cpu *c = this_cpu();
	struct proc *p = c->proc;

	BUG_ON(p->state == P_RUNNING);
	arch_switch(&p->ctx, &c->sched_ctx);
}

void yield(void)
{
	struct proc *p = current_proc();

	this_cpu()->need_resched = false;
	p->state = P_RUNNABLE;
	sched();
}

/*
 * Run process p until it gives the CPU back. Afterwards TTBR0 (or the PID
 * register) names no address space: a CPU that ran an mm keeps none of it
 * live, so when the mm is freed (by whichever CPU runs its last thread) no
 * CPU can still walk its tables or refill TLB entries under its ASID.
 */
static void run(struct cpu *c, struct proc *p)
{
	p->state = P_RUNNING;
	c->proc = p;
	arch_switch_mm(p->mm);
	p->run_start_ns = ktime_ns();
	stats.switches++;
	arch_switch(&c->sched_ctx, &p->ctx);
	p->run_ns += ktime_ns() - p->run_start_ns;
	c->proc = NULL;
	arch_switch_mm(NULL);
}

/* The next process this CPU may run after table slot *last, round robin
 * (NULL if none); *last moves to it. */
static struct proc *pick_next(int *last)
{
	unsigned long me = 1ul << arch_cpu_id();

	for (int n = 1; n <= NPROC; n++) {
		struct proc *p = &ptable[(*last + n) % NPROC];

		if (p->state == P_RUNNABLE && (p->cpus_allowed & me)) {
			*last = (int)(p - ptable);
			return p;
		}
	}
	return NULL;
}

/*
 * Is there a process this CPU might run? Read without the kernel lock (a
 * hint: pick_next() decides under it), so that an idle CPU woken by its
 * tick goes back to sleep without waiting for a lock another CPU may hold
 * for long, and without taking host time from the CPU that holds it.
 */
static bool runnable_hint(void)
{
	unsigned long me = 1ul << arch_cpu_id();

	for (int i = 0; i < NPROC; i++) {
		const volatile struct proc *p = &ptable[i];

		if (p->state == P_RUNNABLE && (p->cpus_allowed & me))
			return true;
	}
	return false;
}

/*
 * The scheduler loop of this CPU, under the kernel lock (kernel/smp.h):
 * round robin over the processes this CPU may run; with nothing to run it
 * lets the lock go and idles with interrupts on (a tick wakes sleepers and
 * polls the console; a device may wake a reader; another CPU may make a
 * process runnable) until runnable_hint() sees work, then takes the lock
 * again.
 */
static void __attribute__((noreturn)) scheduler(void)
{
	struct cpu *c = this_cpu();
	int last = 0;

	kernel_lock();
	for (;;) {
		struct proc *p = pick_next(&last);

		if (p) {
			run(c, p);
			if (p->state == P_ZOMBIE && p->autoreap)
				proc_free(p);	/* an exited thread: off its own kernel stack now */
			/* Between two processes, the CPUs waiting for the lock go first
			 * (a thread that yields while it waits for threads on other CPUs
			 * to reach the kernel must not keep them out of it). */
			kernel_unlock();
			kernel_lock();
			continue;
		}
		u64 t0 = ktime_ns();

		kernel_unlock();
		do {
			arch_irq_enable();
			arch_wait_for_interrupt();
			arch_irq_disable();
		} while (!runnable_hint());
		kernel_lock();
		c->idle_ns += ktime_ns() - t0;
		stats.idle_ns += ktime_ns() - t0;
	}
}

#if NR_CPUS > 1
static u32 sched_started;	/* the boot CPU has made init runnable */

void sched_secondary(void)
{
	while (!__atomic_load_n(&sched_started, __ATOMIC_ACQUIRE)) {
		arch_irq_enable();	/* (its tick, or a call from another CPU) */
		arch_wait_for_interrupt();
		arch_irq_disable();
	}
	scheduler();
}
#endif

/* C side of a new process's first switch (from ret_from_fork): on its way
 * to user mode, so the kernel lock this CPU's scheduler loop took goes. */
void proc_first_run(void)
{
	kernel_unlock();
}

int sleep_on(const void *chan, u64 wake_ns)
{
	struct proc *p = current_proc();

	if (signal_pending(p))
		return -EINTR;
	p->chan = chan;
	p->wake_ns = wake_ns;
	p->state = P_SLEEPING;
	sched();
	p->chan = NULL;
	p->wake_ns = 0;
	return signal_pending(p) ? -EINTR : 0;
}

/* Poll waiters (poll.c) wake with everyone: any event may be theirs. */
void wakeup(const void *chan)
{
	for (int i = 0; i < NPROC; i++)
		if (ptable[i].state == P_SLEEPING && (ptable[i].chan == chan || ptable[i].chan == &poll_chan))
			ptable[i].state = P_RUNNABLE;
}

#define TICK_NS (1000000000ull / HZ)

/* A process-time interval timer of cur counts down one tick; sig when it
 * runs out (reloaded from its interval). */
static void itimer_tick(struct proc *cur, int which, int sig)
{
	struct ksiginfo si = { .signo = sig, .code = 0x80 /* SI_KERNEL */ };
	u64 *v = &cur->itimer[which].value;

	if (!*v)
		return;
	if (*v > TICK_NS) {
		*v -= TICK_NS;
		return;
	}
	*v = cur->itimer[which].interval;
	signal_send(cur, &si);
}

/* Load averages: every 5 s, each average moves toward the number of
 * runnable processes by the fixed-point decay factor exp(-5 s / period). */
#define FSHIFT		11
#define FIXED_1		(1ul << FSHIFT)
static const unsigned long load_decay[3] = { 1884, 2014, 2037 };	/* 1, 5, 15 min */

static void load_tick(void)
{
	static unsigned ticks;
	unsigned long n = 0;

	if (++ticks < 5 * HZ)
		return;
	ticks = 0;
	for (int i = 0; i < NPROC; i++)
		n += ptable[i].state == P_RUNNABLE || ptable[i].state == P_RUNNING;
	for (int i = 0; i < 3; i++)
		stats.load[i] = (stats.load[i] * load_decay[i] + n * FIXED_1 * (FIXED_1 - load_decay[i])) >> FSHIFT;
}

void sched_get_stats(struct sched_stats *st)
{
	*st = stats;
	for (int i = 0; i < NR_CPUS; i++) {
		st->cpu_user_ns[i] = cpus[i].user_ns;
		st->cpu_idle_ns[i] = cpus[i].idle_ns;
	}
	st->running = st->total = 0;
	for (int i = 0; i < NPROC; i++) {
		st->running += ptable[i].state == P_RUNNABLE || ptable[i].state == P_RUNNING;
		st->total += ptable[i].state != P_UNUSED;
	}
	st->last_pid = next_pid - 1;
}

void proc_set_cmdline(struct proc *p, char *const argv[])
{
	int n = 0;

	for (int i = 0; argv[i] && n < CMDLINE_KEPT; i++) {
		size_t len = strlen(argv[i]) + 1;

		if (len > (size_t)(CMDLINE_KEPT - n))
			len = (size_t)(CMDLINE_KEPT - n);
		memcpy(p->cmdline + n, argv[i], len);
		n += (int)len;
	}
	p->cmdline_len = n;
}

void sched_tick(void)
{
	u64 now = ktime_ns();
	struct ksiginfo alrm = { .signo = SIGALRM, .code = 0x80 /* SI_KERNEL */ };

	for (int i = 0; i < NPROC; i++) {
		struct proc *p = &ptable[i];

		if (p->state == P_UNUSED || p->state == P_EMBRYO || (p->state == P_ZOMBIE && !p->nr_threads))
			continue;	/* (a zombie leader with live threads keeps its ITIMER_REAL) */
		if (p->state == P_SLEEPING && p->wake_ns && now >= p->wake_ns)
			p->state = P_RUNNABLE;
		u64 *real = &p->itimer[ITIMER_REAL].value;

		if (*real && now >= *real) {
			u64 iv = p->itimer[ITIMER_REAL].interval;

			/* periodic: the next expiry after now (missed ones are one signal) */
			*real = iv ? *real + ((now - *real) / iv + 1) * iv : 0;
			signal_send(p, &alrm);
		}
	}
	load_tick();
	tty_poll_input();
	sched_local_tick();
}

void sched_local_tick(void)
{
	struct cpu *c = this_cpu();
	struct proc *cur = c->proc;

	if (!cur)
		return;
	/* the tick interrupted user mode (the kernel runs with interrupts off) */
	cur->utime_ns += TICK_NS;
	c->user_ns += TICK_NS;
	stats.user_ns += TICK_NS;
	itimer_tick(cur->group_leader, ITIMER_VIRTUAL, SIGVTALRM);
	itimer_tick(cur->group_leader, ITIMER_PROF, SIGPROF);
	c->need_resched = true;
}

void user_return_work(struct pt_regs *regs)
{
	struct proc *p = current_proc();

	if (this_cpu()->need_resched)
		yield();
	if (signal_pending(p) || p->sys_returning)
		signal_deliver(p, regs);
}

/* ---- fork, exit, wait ---- */

/* ---- the objects threads share: descriptor table, signal actions ---- */

static struct slab_cache fdt_cache = SLAB_CACHE("files_table", struct files_table);
static struct slab_cache sighand_cache = SLAB_CACHE("sighand", struct sighand);

/* A copy of t (each open file gains a reference), or NULL. */
static struct files_table *fdt_copy(const struct files_table *t)
{
	struct files_table *n = slab_alloc(&fdt_cache);

	if (!n)
		return NULL;
	n->refs = 1;
	for (int fd = 0; fd < NOFILE; fd++)
		if (t && t->files[fd]) {
			n->files[fd] = file_dup(t->files[fd]);
			n->cloexec[fd] = t->cloexec[fd];
		}
	return n;
}

/* Drop one user of t; the last one closes every descriptor. */
static void fdt_put(struct files_table *t)
{
	if (!t || --t->refs > 0)
		return;
	for (int fd = 0; fd < NOFILE; fd++)
		if (t->files[fd])
			file_close(t->files[fd]);
	slab_free(&fdt_cache, t);
}

static struct sighand *sighand_copy(const struct sighand *h)
{
	struct sighand *n = slab_alloc(&sighand_cache);

	if (!n)
		return NULL;
	if (h)
		*n = *h;
	n->refs = 1;
	return n;
}

static void sighand_put(struct sighand *h)
{
	if (h && --h->refs == 0)
		slab_free(&sighand_cache, h);
}

struct proc *proc_next_thread(const struct proc *leader, const struct proc *prev)
{
	for (int i = prev ? (int)(prev - ptable) + 1 : 0; i < NPROC; i++) {
		struct proc *t = &ptable[i];

		if (t->group_leader == leader && t->state != P_UNUSED && t->state != P_EMBRYO &&
		    t->state != P_ZOMBIE)
			return t;
	}
	return NULL;
}

/* ---- clone, exit, wait ---- */

/* Undo a half-made child of proc_clone (nothing of it has run). */
static void clone_abort(struct proc *child)
{
	fdt_put(child->fdt);
	sighand_put(child->sighand);
	if (child->fs)
		fs_proc_exit(child);
	if (child->mm)
		mm_put(child->mm);
	proc_free(child);
}

struct proc *proc_clone(unsigned long flags, unsigned long child_sp, unsigned long tls, int exit_signal,
			long *err)
{
	struct proc *parent = current_proc(), *leader = parent->group_leader, *child;

	*err = -EAGAIN;	/* RLIMIT_NPROC: per real uid (threads count), root exempt (Linux) */
	if (parent->uid[0] != 0 && (u64)proc_count_uid(parent->uid[0]) >= parent->rlim[RLIMIT_NPROC].cur)
		return NULL;
	child = proc_alloc(err);
	if (!child)
		return NULL;
	*err = -ENOMEM;
	if (flags & CLONE_VM) {
		child->mm = parent->mm;
		child->mm->users++;
	} else {
		/* OC-7: the child's charged mappings are charged again (Linux's dup_mmap) */
		child->mm = vm_enough_memory(parent->mm, parent->mm->commit_vm) ? NULL : mm_copy(parent->mm);
	}
	if (flags & CLONE_FILES) {
		child->fdt = parent->fdt;
		child->fdt->refs++;
	} else {
		child->fdt = fdt_copy(parent->fdt);
	}
	if (flags & CLONE_SIGHAND) {
		child->sighand = parent->sighand;
		child->sighand->refs++;
	} else {
		child->sighand = sighand_copy(parent->sighand);
	}
	if (!child->mm || !child->fdt || !child->sighand || fs_proc_fork(child, parent, flags & CLONE_FS)) {
		clone_abort(child);
		return NULL;
	}
	*proc_user_regs(child) = *proc_user_regs(parent);
	arch_regs_set_return(proc_user_regs(child), 0);
	if (child_sp)
		arch_regs_set_sp(proc_user_regs(child), child_sp);
	signal_fork(&child->sig, &parent->sig);
	if ((flags & (CLONE_VM | CLONE_VFORK)) == CLONE_VM)
		child->sig.altstack_sp = child->sig.altstack_size = 0;	/* a new stack: no altstack (Linux) */
	if (flags & CLONE_THREAD) {
		child->group_leader = leader;
		child->tgid = leader->pid;
		child->nr_threads = 0;	/* (a group field: the leader counts) */
		leader->nr_threads++;
		child->exit_signal = 0;
		child->start_ns = leader->start_ns;
	} else {
		child->group_leader = child;
		child->tgid = child->pid;
		child->nr_threads = 1;
		child->exit_signal = exit_signal;
		child->parent = (flags & CLONE_PARENT) ? leader->parent : leader;
		child->parent_thread = (flags & CLONE_PARENT) ? leader->parent_thread : parent;
	}
	memcpy(child->rlim, parent->rlim, sizeof(child->rlim));
	memcpy(child->name, parent->name, sizeof(child->name));
	child->pgid = parent->pgid;
	child->sid = parent->sid;
	child->tty_detached = parent->tty_detached;
	child->did_exec = (flags & CLONE_THREAD) && parent->did_exec;
	memcpy(child->uid, parent->uid, sizeof(child->uid));
	memcpy(child->gid, parent->gid, sizeof(child->gid));
	child->ngroups = parent->ngroups;
	memcpy(child->groups, parent->groups, sizeof(child->groups[0]) * (size_t)parent->ngroups);
	child->tagged_addr_ctrl = parent->tagged_addr_ctrl;
	child->cpus_allowed = parent->cpus_allowed;
	child->personality = parent->personality;
	memcpy(child->cmdline, parent->cmdline, (size_t)parent->cmdline_len);
	child->cmdline_len = parent->cmdline_len;
	arch_fork_context(&child->ctx);
	if (flags & CLONE_SETTLS)
		arch_set_tls(&child->ctx, proc_user_regs(child), tls);
	child->state = P_RUNNABLE;
	mm_check_after("fork", (unsigned long)child->pid);
	return child;
}

#define SA_NOCLDSTOP	1
#define CLD_STOPPED	5
#define CLD_CONTINUED	6

/* Tell p's parent that p changed state: SIGCHLD with si_code code (unless
 * the parent asked for no stop/continue reports, SA_NOCLDSTOP) and a
 * wake-up for its wait4. */
static void notify_parent(struct proc *p, int code, int status)
{
	struct proc *parent = p->group_leader->parent;
	bool exited = code != CLD_STOPPED && code != CLD_CONTINUED;
	struct ksiginfo si = { .signo = exited ? p->group_leader->exit_signal : SIGCHLD, .code = code,
			       .pid = p->group_leader->pid, .status = status };

	if (!parent)
		return;
	if (si.signo && !(!exited && (parent->sighand->act[SIGCHLD - 1].flags & SA_NOCLDSTOP)))
		signal_send(parent, &si);
	wakeup(parent);
}

/* One thread of leader's process has stopped (or left the stop): the last one reports it. */
static void group_stop_count(struct proc *leader)
{
	if (leader->group_stop_left > 0 && --leader->group_stop_left == 0) {
		leader->group_stopped = true;
		leader->stop_report = (leader->group_stop_sig << 8) | 0x7f;
		notify_parent(leader, CLD_STOPPED, leader->group_stop_sig);
	}
}

void proc_stop(int sig)
{
	struct proc *p = current_proc(), *leader = p->group_leader;

	if (sig && !leader->group_stop_left && !leader->group_stopped) {
		/* a new group stop: every other live thread takes part, woken from a sleep to do so */
		leader->group_stop_sig = sig;
		leader->group_stop_left = 1;
		for (struct proc *t = proc_next_thread(leader, NULL); t; t = proc_next_thread(leader, t)) {
			if (t == p || t->killed || t->state == P_STOPPED)
				continue;
			t->stop_pending = true;
			leader->group_stop_left++;
			if (t->state == P_SLEEPING)
				t->state = P_RUNNABLE;	/* its sleep_on sees signal_pending() */
		}
	}
	p->stop_pending = false;
	if (!leader->group_stop_left && !leader->group_stopped)
		return;	/* the stop ended (SIGCONT) before this thread got to it */
	p->state = P_STOPPED;
	group_stop_count(leader);
	sched();
}

void proc_stop_leave(struct proc *p)
{
	if (p->stop_pending) {
		p->stop_pending = false;
		group_stop_count(p->group_leader);
	}
}

void proc_continue(struct proc *p)
{
	struct proc *leader = p->group_leader;
	bool was_stopped = leader->group_stopped;

	leader->group_stopped = false;
	leader->group_stop_left = 0;
	for (struct proc *t = proc_next_thread(leader, NULL); t; t = proc_next_thread(leader, t)) {
		t->stop_pending = false;
		if (t->state == P_STOPPED)
			t->state = P_RUNNABLE;
	}
	if (was_stopped) {
		leader->stop_report = 0xffff;
		notify_parent(leader, CLD_CONTINUED, SIGCONT);
	}
}

void proc_group_kill(struct proc *leader, int wait_status)
{
	if (!leader->group_exiting) {
		leader->group_exiting = true;
		leader->group_exit_status = wait_status;
	}
	for (struct proc *t = proc_next_thread(leader, NULL); t; t = proc_next_thread(leader, t)) {
		t->killed = true;
		if (t->state == P_SLEEPING || t->state == P_STOPPED)
			t->state = P_RUNNABLE;	/* sleep_on returns -EINTR; the thread dies on its way out */
	}
}

void proc_group_exit(int wait_status)
{
	struct proc *p = current_proc();

	proc_group_kill(p->group_leader, wait_status);
	proc_exit(p->group_leader->group_exit_status);
}

void proc_killed_exit(void)
{
	struct proc *leader = current_proc()->group_leader;

	proc_exit(leader->group_exiting ? leader->group_exit_status : SIGKILL);
}

/* A CLONE_VFORK parent waits for its child to exec or exit: let it go on. */
static void vfork_release(struct proc *p)
{
	if (p->vfork_parent) {
		wakeup(&p->vfork_parent);
		p->vfork_parent = NULL;
	}
}

/*
 * What a thread gives back of its address space's user state when it stops
 * using it (exit, or exec): its robust futexes are marked owner-dead, and
 * its CLONE_CHILD_CLEARTID word is zeroed and woken (pthread_join) when
 * another thread or process shares the address space.
 */
static void mm_release(struct proc *p)
{
	u32 zero = 0;

	futex_exit_robust(p);
	if (p->clear_child_tid && p->mm->users > 1 &&	/* (Linux: only if another user may look) */
	    copy_to_user((void *)p->clear_child_tid, &zero, sizeof(zero)) == 0)
		futex_wake_user(p->clear_child_tid, 1);
	p->clear_child_tid = 0;
}

/*
 * Thread p exits while other threads of its process live on: the processes
 * it made get another live thread as their parent thread and, as on Linux
 * (forget_original_parent()), their PR_SET_PDEATHSIG signal.
 */
/* c's parent (thread or process) has died: its PR_SET_PDEATHSIG signal, if it asked for one. */
static void pdeath_notify(struct proc *c, const struct proc *leader)
{
	struct ksiginfo si = { .signo = c->pdeath_signal, .code = SI_USER, .pid = leader->pid };

	if (c->pdeath_signal && c->state != P_ZOMBIE)
		signal_send(c, &si);
}

static void reparent_to_thread(struct proc *p, struct proc *leader)
{
	struct proc *heir = proc_next_thread(leader, NULL);

	if (heir == p)
		heir = proc_next_thread(leader, p);
	for (int i = 0; i < NPROC && heir; i++) {
		struct proc *c = &ptable[i];

		if (c->state == P_UNUSED || c->parent != leader || c->parent_thread != p)
			continue;
		c->parent_thread = heir;
		pdeath_notify(c, leader);
	}
}

/*
 * The last thread of a process has exited: the process ends (Linux's
 * exit_notify for the group). Orphans go to init (a zombie orphan is reaped
 * by init's wait) and get their PR_SET_PDEATHSIG signal; the parent is told.
 */
static void group_end(struct proc *leader)
{
	int wait_status = leader->group_exiting ? leader->group_exit_status : leader->wait_status;

	tty_session_exit(leader);
	for (int i = 0; i < NPROC; i++)
		if (ptable[i].state != P_UNUSED && ptable[i].parent == leader) {
			struct proc *c = &ptable[i];

			c->parent = init_proc;
			c->parent_thread = init_proc;
			pdeath_notify(c, leader);
		}
	if (leader == init_proc) {
		int code = (wait_status & 0x7f) ? 128 + (wait_status & 0x7f) : (wait_status >> 8) & 0xff;

		mm_check_summary();
		printk("init exited with %s %d after %llu ns of guest time\n",
		       (wait_status & 0x7f) ? "signal" : "status",
		       (wait_status & 0x7f) ? wait_status & 0x7f : code, (unsigned long long)ktime_ns());
		arch_poweroff(code);
	}
	leader->wait_status = wait_status;
	if (leader->parent) {
		/* si_code CLD_EXITED (1), CLD_KILLED (2) or CLD_DUMPED (3). */
		int code = !(wait_status & 0x7f) ? 1 : (wait_status & 0x80) ? 3 : 2;

		notify_parent(leader, code, code == 1 ? (wait_status >> 8) & 0xff : wait_status & 0x7f);
	}
	wakeup(init_proc);
}

/* Add thread t's own times and faults to u. */
static void add_thread_usage(const struct proc *t, struct proc_usage *u)
{
	u64 ut, st;

	proc_cpu_times(t, &ut, &st);
	u->utime_ns += ut;
	u->stime_ns += st;
	u->minflt += t->minflt;
	u->majflt += t->majflt;
}

void proc_exit(int wait_status)
{
	struct proc *p = current_proc(), *leader = p->group_leader;

	vfork_release(p);
	mm_release(p);
	fdt_put(p->fdt);
	p->fdt = NULL;
	fs_proc_exit(p);
	sighand_put(p->sighand);
	p->sighand = NULL;
	p->maxrss_kb = MAX(p->maxrss_kb, mm_resident_kb(p->mm));
	arch_switch_mm(NULL);
	mm_put(p->mm);
	p->mm = NULL;
	mm_check_after("exit", (unsigned long)p->pid);
	proc_stop_leave(p);
	if (p != leader) {
		/* the process's usage counts its dead threads (getrusage, wait4) */
		struct proc_usage own = { 0 };

		add_thread_usage(p, &own);
		leader->dead.utime_ns += own.utime_ns;
		leader->dead.stime_ns += own.stime_ns;
		leader->dead.minflt += own.minflt;
		leader->dead.majflt += own.majflt;
		leader->maxrss_kb = MAX(leader->maxrss_kb, p->maxrss_kb);
		p->autoreap = true;	/* no one waits for a thread: the scheduler frees it */
	} else {
		p->wait_status = wait_status;
	}
	p->state = P_ZOMBIE;
	if (leader->nr_threads > 1)
		reparent_to_thread(p, leader);
	if (--leader->nr_threads == 0)
		group_end(leader);
	sched();	/* (an exec waiting for the others to go yields until they have) */
	panic("zombie %d ran again", p->pid);
}

/*
 * exec from a thread other than the leader, once every other thread is
 * gone: p becomes the process (Linux's de_thread). It takes the leader's
 * pid and the group fields, the leader's children become p's, and the
 * leader's zombie is freed without a report.
 */
static void exec_take_leader(struct proc *p, struct proc *leader)
{
	p->pid = p->tgid = leader->pid;
	p->group_leader = p;
	p->nr_threads = 1;
	p->parent = leader->parent;
	p->exit_signal = leader->exit_signal;
	p->did_exec = leader->did_exec;
	p->stop_report = 0;
	p->pdeath_signal = leader->pdeath_signal;
	p->start_ns = leader->start_ns;
	memcpy(p->itimer, leader->itimer, sizeof(p->itimer));
	p->shared_pending = leader->shared_pending;
	memcpy(p->shared_info, leader->shared_info, sizeof(p->shared_info));
	{	/* the old leader's thread is one of the process's dead threads now */
		struct proc_usage old = { 0 };

		add_thread_usage(leader, &old);
		p->dead = leader->dead;
		p->dead.utime_ns += old.utime_ns;
		p->dead.stime_ns += old.stime_ns;
		p->dead.minflt += old.minflt;
		p->dead.majflt += old.majflt;
	}
	p->maxrss_kb = MAX(p->maxrss_kb, leader->maxrss_kb);
	p->cutime_ns = leader->cutime_ns;
	p->cstime_ns = leader->cstime_ns;
	p->cminflt = leader->cminflt;
	p->cmajflt = leader->cmajflt;
	p->cmaxrss_kb = leader->cmaxrss_kb;
	p->parent_thread = leader->parent_thread;
	for (int i = 0; i < NPROC; i++)
		if (ptable[i].state != P_UNUSED && ptable[i].parent == leader) {
			ptable[i].parent = p;
			if (ptable[i].parent_thread == leader)
				ptable[i].parent_thread = p;
		}
	if (init_proc == leader)
		init_proc = p;
	proc_free(leader);
}

long proc_exec_begin(struct proc *p)
{
	struct proc *leader = p->group_leader;

	if (p->fdt->refs > 1) {		/* Linux's unshare_files: the new image has its own table */
		struct files_table *t = fdt_copy(p->fdt);

		if (!t)
			return -ENOMEM;
		fdt_put(p->fdt);
		p->fdt = t;
	}
	if (p->sighand->refs > 1) {	/* and its own actions (signal_exec resets them) */
		struct sighand *h = sighand_copy(p->sighand);

		if (!h)
			return -ENOMEM;
		sighand_put(p->sighand);
		p->sighand = h;
	}
	/* Every other thread of the group dies; wait until they are gone. */
	for (struct proc *t = proc_next_thread(leader, NULL); t; t = proc_next_thread(leader, t))
		if (t != p) {
			t->killed = true;
			if (t->state == P_SLEEPING || t->state == P_STOPPED)
				t->state = P_RUNNABLE;
		}
	while (leader->nr_threads > 1) {
		if (p->killed)
			return -EINTR;	/* another thread's exec or exit_group won: p dies instead */
		yield();
	}
	if (p != leader)
		exec_take_leader(p, leader);
	mm_release(p);
	p->robust_list = 0;
	vfork_release(p);
	return 0;
}

#define WNOHANG		1
#define WUNTRACED	2
#define WCONTINUED	8

/* A stop (WUNTRACED) or continue (WCONTINUED) of p that wait4 may report. */
static bool reportable_change(const struct proc *p, int options)
{
	if (!p->nr_threads || !p->stop_report)
		return false;	/* the process is gone, or nothing to report */
	if (p->stop_report == 0xffff)
		return options & WCONTINUED;
	return (options & WUNTRACED) && p->group_stopped;
}

u64 mm_resident_kb(struct mm *mm)
{
	u64 pages = 0;

	if (!mm)
		return 0;
	for (const struct vma *v = mm->vmas; v; v = v->next)
		if (!(v->flags & VM_HUGETLB))
			pages += mm_rss_pages(mm, v->start, v->end);
	return pages * (PAGE_SIZE / 1024);
}

/* User and system time: user time is what the tick saw, the rest of the
 * time on the CPU (the running slice included) is system time. */
void proc_cpu_times(const struct proc *p, u64 *ut, u64 *st)
{
	u64 total = p->run_ns + (p->state == P_RUNNING ? ktime_ns() - p->run_start_ns : 0);

	*ut = MIN(p->utime_ns, total);
	*st = total - *ut;
}

void proc_get_usage(const struct proc *p, enum usage_who who, struct proc_usage *u)
{
	const struct proc *leader = p->group_leader;

	if (who == USAGE_CHILDREN) {
		*u = (struct proc_usage){ leader->cutime_ns, leader->cstime_ns, leader->cminflt, leader->cmajflt,
					  leader->cmaxrss_kb };
		return;
	}
	*u = (struct proc_usage){ 0 };
	add_thread_usage(who == USAGE_THREAD ? p : leader, u);
	if (who == USAGE_PROCESS) {	/* the leader (even exited), the dead threads, the live others */
		u->utime_ns += leader->dead.utime_ns;
		u->stime_ns += leader->dead.stime_ns;
		u->minflt += leader->dead.minflt;
		u->majflt += leader->dead.majflt;
		for (const struct proc *t = proc_next_thread(leader, NULL); t; t = proc_next_thread(leader, t))
			if (t != leader)
				add_thread_usage(t, u);
	}
	u->maxrss_kb = MAX(leader->maxrss_kb, p->state == P_ZOMBIE || !p->mm ? 0 : mm_resident_kb(p->mm));
}

/* Reaping child: its usage (and its children's) becomes ours as a parent. */
static void collect_usage(struct proc *me, const struct proc *child, struct proc_usage *out)
{
	struct proc_usage own, kids;

	proc_get_usage(child, USAGE_PROCESS, &own);
	proc_get_usage(child, USAGE_CHILDREN, &kids);
	me->cutime_ns += own.utime_ns + kids.utime_ns;
	me->cstime_ns += own.stime_ns + kids.stime_ns;
	me->cminflt += own.minflt + kids.minflt;
	me->cmajflt += own.majflt + kids.majflt;
	me->cmaxrss_kb = MAX(me->cmaxrss_kb, MAX(own.maxrss_kb, kids.maxrss_kb));
	if (out)
		*out = (struct proc_usage){ own.utime_ns + kids.utime_ns, own.stime_ns + kids.stime_ns,
					    own.minflt + kids.minflt, own.majflt + kids.majflt,
					    MAX(own.maxrss_kb, kids.maxrss_kb) };
}

/* Does wait4's pid argument select child p? */
static bool wait_selects(const struct proc *me, const struct proc *p, int pid)
{
	if (pid > 0)
		return p->pid == pid;
	if (pid == 0)
		return p->pgid == me->pgid;
	if (pid < -1)
		return p->pgid == -pid;
	return true;
}

long proc_wait(int pid, int *status_out, int options, struct proc_usage *usage)
{
	struct proc *me = current_proc()->group_leader;	/* any thread waits for the process's children */

	if (pid == (int)0x80000000)
		return -ESRCH;	/* Linux: -INT_MIN names no group */
	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | 0xe0000000))
		return -EINVAL;	/* __WNOTHREAD, __WALL, __WCLONE are accepted */
	for (;;) {
		bool have_child = false;

		for (int i = 0; i < NPROC; i++) {
			struct proc *p = &ptable[i];

			if (p->state == P_UNUSED || p->state == P_EMBRYO || p->parent != me ||
			    !wait_selects(me, p, pid))
				continue;
			have_child = true;
			if (reportable_change(p, options)) {
				if (status_out)
					*status_out = p->stop_report;
				if (usage)
					proc_get_usage(p, USAGE_PROCESS, usage);
				p->stop_report = 0;
				return p->pid;
			}
			if (p->state != P_ZOMBIE || p->nr_threads > 0)
				continue;	/* running, or a leader whose threads still run */
			int cpid = p->pid;

			if (status_out)
				*status_out = p->wait_status;
			collect_usage(me, p, usage);
			proc_free(p);
			return cpid;
		}
		if (!have_child)
			return -ECHILD;
		if (options & WNOHANG)
			return 0;
		if (sleep_on(me, 0) == -EINTR)
			return -ERESTARTSYS;	/* restarted after a SA_RESTART handler */
	}
}

void proc_start_init(const char *path, char *const argv[], char *const envp[])
{
	long err;
	struct proc *p = proc_alloc(&err);

	if (!p)
		panic("cannot allocate the first process");
	init_proc = p;
	p->pgid = p->sid = p->pid;
	tty_set_init_session(p->sid);
	proc_default_limits(p);
	p->cpus_allowed = CPUS_ALL;
	p->mm = mm_create();
	if (!p->mm)
		panic("cannot allocate init's address space");
	p->fdt = fdt_copy(NULL);
	p->sighand = sighand_copy(NULL);
	if (!p->fdt || !p->sighand || fs_proc_init(p))
		panic("cannot allocate init's descriptor table, fs state or signal actions");
	p->fs->umask = 022;	/* as Linux starts init */
	p->exit_signal = SIGCHLD;
	console_open_stdio(p);
	this_cpu()->proc = p;	/* exec works on the current process */
	arch_switch_mm(p->mm);
	err = exec_into(p, path, argv, envp);
	proc_set_cmdline(p, argv);
	this_cpu()->proc = NULL;
	if (err)
		panic("cannot run %s as init: error %ld", path, -err);
	p->state = P_RUNNABLE;
#if NR_CPUS > 1
	__atomic_store_n(&sched_started, 1, __ATOMIC_RELEASE);	/* the secondaries may schedule */
#endif
	scheduler();
}
