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

static struct proc ptable[NPROC];
static struct cpu cpus[1];
static int next_pid = 1;
static struct proc *init_proc;


/* Linux's defaults, within what this kernel can give. */
static void proc_default_limits(struct proc *p)
{
	for (int i = 0; i < RLIM_NLIMITS; i++)
		p->rlim[i].cur = p->rlim[i].max = RLIM_INFINITY;
	p->rlim[RLIMIT_STACK].cur = 8 << 20;
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
		if (ptable[i].state == P_UNUSED || !ptable[i].mm)
			continue;
		mms[n] = ptable[i].mm;
		pids[n++] = ptable[i].pid;
	}
	return n;
}

long proc_signal_all(const struct ksiginfo *info, struct proc *skip)
{
	long rc = -ESRCH;

	for (int i = 0; i < NPROC; i++) {
		struct proc *p = &ptable[i];

		if (p->state == P_UNUSED || p->state == P_ZOMBIE || p == skip || p == init_proc)
			continue;
		if (info->signo)
			signal_send(p, info);
		rc = 0;
	}
	return rc;
}

/*
 * A free table slot with a kernel stack and a pid, in state P_EMBRYO, set
 * to start in ret_from_fork with its user frame zeroed. NULL if the table
 * is full or memory is short.
 */
static struct proc *proc_alloc(void)
{
	struct proc *p = NULL;

	for (int i = 0; i < NPROC && !p; i++)
		if (ptable[i].state == P_UNUSED)
			p = &ptable[i];
	if (!p)
		return NULL;
	struct page *stack = alloc_pages(GFP_ZERO, KSTACK_ORDER);

	if (!stack)
		return NULL;
	memset(p, 0, sizeof(*p));
	p->kstack = page_address(stack);
	p->pid = next_pid++;
	p->state = P_EMBRYO;
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

/* Run process p until it gives the CPU back. */
static void run(struct cpu *c, struct proc *p)
{
	p->state = P_RUNNING;
	c->proc = p;
	arch_switch_mm(p->mm);
	arch_switch(&c->sched_ctx, &p->ctx);
	c->proc = NULL;
}

/* The scheduler loop: round robin; idle with interrupts on when nothing runs. */
static void __attribute__((noreturn)) scheduler(void)
{
	struct cpu *c = this_cpu();
	int last = 0;

	for (;;) {
		bool ran = false;

		for (int n = 1; n <= NPROC; n++) {
			struct proc *p = &ptable[(last + n) % NPROC];

			if (p->state != P_RUNNABLE)
				continue;
			last = (int)(p - ptable);
			run(c, p);
			ran = true;
			break;
		}
		if (!ran) {
			/* Nothing to run: let interrupts in and sleep until one comes
			 * (the tick wakes sleepers; a device may wake a reader). */
			arch_irq_enable();
			arch_wait_for_interrupt();
			arch_irq_disable();
		}
	}
}

/* C side of a new process's first switch (from ret_from_fork). */
void proc_first_run(void)
{
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

void wakeup(const void *chan)
{
	for (int i = 0; i < NPROC; i++)
		if (ptable[i].state == P_SLEEPING && ptable[i].chan == chan)
			ptable[i].state = P_RUNNABLE;
}

void sched_tick(void)
{
	u64 now = ktime_ns();
	struct proc *cur = current_proc();

	for (int i = 0; i < NPROC; i++) {
		struct proc *p = &ptable[i];

		if (p->state == P_SLEEPING && p->wake_ns && now >= p->wake_ns)
			p->state = P_RUNNABLE;
	}
	if (cur)
		this_cpu()->need_resched = true;
}

void user_return_work(struct pt_regs *regs)
{
	struct proc *p = current_proc();

	if (this_cpu()->need_resched)
		yield();
	if (signal_pending(p))
		signal_deliver(p, regs);
}

/* ---- fork, exit, wait ---- */

long proc_fork(unsigned long flags, unsigned long child_sp)
{
	struct proc *parent = current_proc(), *child;

	(void)flags;
	if ((u64)proc_count() >= parent->rlim[RLIMIT_NPROC].cur)
		return -EAGAIN;
	child = proc_alloc();
	if (!child)
		return -EAGAIN;
	/* OC-7: the child's charged mappings are charged again (Linux's dup_mmap) */
	child->mm = vm_enough_memory(parent->mm, parent->mm->commit_vm) ? NULL : mm_copy(parent->mm);
	if (!child->mm) {
		proc_free(child);
		return -ENOMEM;
	}
	*proc_user_regs(child) = *proc_user_regs(parent);
	arch_regs_set_return(proc_user_regs(child), 0);
	if (child_sp)
		arch_regs_set_sp(proc_user_regs(child), child_sp);
	for (int fd = 0; fd < NOFILE; fd++)
		if (parent->files[fd]) {
			child->files[fd] = file_dup(parent->files[fd]);
			child->cloexec[fd] = parent->cloexec[fd];
		}
	fs_proc_fork(child, parent);
	signal_fork(&child->sig, &parent->sig);
	memcpy(child->rlim, parent->rlim, sizeof(child->rlim));
	memcpy(child->name, parent->name, sizeof(child->name));
	arch_fork_context(&child->ctx);
	child->parent = parent;
	child->state = P_RUNNABLE;
	mm_check_after("fork", (unsigned long)child->pid);
	return child->pid;
}

void proc_exit(int wait_status)
{
	struct proc *p = current_proc();

	for (int fd = 0; fd < NOFILE; fd++) {
		if (p->files[fd]) {
			file_close(p->files[fd]);
			p->files[fd] = NULL;
			p->cloexec[fd] = false;
		}
	}
	fs_proc_exit(p);
	arch_switch_mm(NULL);
	mm_put(p->mm);
	p->mm = NULL;
	mm_check_after("exit", (unsigned long)p->pid);
	/* Orphans go to init; a zombie orphan is reaped by init's wait. */
	for (int i = 0; i < NPROC; i++)
		if (ptable[i].state != P_UNUSED && ptable[i].parent == p)
			ptable[i].parent = init_proc;
	if (p == init_proc) {
		int code = (wait_status & 0x7f) ? 128 + (wait_status & 0x7f) : (wait_status >> 8) & 0xff;

		mm_check_summary();
		printk("init exited with %s %d after %llu ns of guest time\n",
		       (wait_status & 0x7f) ? "signal" : "status",
		       (wait_status & 0x7f) ? wait_status & 0x7f : code, (unsigned long long)ktime_ns());
		arch_poweroff(code);
	}
	p->wait_status = wait_status;
	p->state = P_ZOMBIE;
	if (p->parent) {
		/* si_code CLD_EXITED (1), CLD_KILLED (2) or CLD_DUMPED (3). */
		int code = !(wait_status & 0x7f) ? 1 : (wait_status & 0x80) ? 3 : 2;
		struct ksiginfo si = { .signo = SIGCHLD, .code = code, .pid = p->pid,
				       .status = code == 1 ? (wait_status >> 8) & 0xff : wait_status & 0x7f };

		signal_send(p->parent, &si);
		wakeup(p->parent);
	}
	wakeup(init_proc);
	sched();
	panic("zombie %d ran again", p->pid);
}

#define WNOHANG 1

long proc_wait(int pid, int *status_out, int options, struct proc **reaped)
{
	struct proc *me = current_proc();

	for (;;) {
		bool have_child = false;

		for (int i = 0; i < NPROC; i++) {
			struct proc *p = &ptable[i];

			if (p->state == P_UNUSED || p->parent != me || (pid > 0 && p->pid != pid))
				continue;
			have_child = true;
			if (p->state != P_ZOMBIE)
				continue;
			int cpid = p->pid;

			if (status_out)
				*status_out = p->wait_status;
			if (reaped)
				*reaped = p;
			me->minflt += p->minflt;	/* children's usage is not kept apart yet */
			proc_free(p);
			return cpid;
		}
		if (!have_child)
			return -ECHILD;
		if (options & WNOHANG)
			return 0;
		if (sleep_on(me, 0) == -EINTR)
			return -EINTR;
	}
}

void proc_start_init(const char *path, char *const argv[], char *const envp[])
{
	struct proc *p = proc_alloc();
	long err;

	if (!p)
		panic("cannot allocate the first process");
	init_proc = p;
	proc_default_limits(p);
	p->mm = mm_create();
	if (!p->mm)
		panic("cannot allocate init's address space");
	p->umask = 022;	/* as Linux starts init */
	console_open_stdio(p);
	this_cpu()->proc = p;	/* exec works on the current process */
	arch_switch_mm(p->mm);
	err = exec_into(p, path, argv, envp);
	this_cpu()->proc = NULL;
	if (err)
		panic("cannot run %s as init: error %ld", path, -err);
	p->state = P_RUNNABLE;
	scheduler();
}
