/*
 * procfs_pid.c - the process and system-wide /proc files that ps, top and
 * free read, in Linux's formats: /proc/<pid>/stat, status, cmdline and
 * comm for any live pid (and "self"), /proc/stat, /proc/uptime,
 * /proc/loadavg and /proc/cpuinfo (its text from the arch).
 * procfs.c calls procfs_pid_generate() for the paths it does not know.
 */
#include "procfs_pid.h"
#include "proc.h"
#include "mm.h"
#include "vma.h"
#include "ktime.h"
#include "printk.h"
#include "kstring.h"
#include "errno.h"
#include "tty.h"
#include "smp.h"
#include <stdarg.h>

#define USER_HZ 100	/* the clock ticks of /proc (Linux's USER_HZ) */

struct out {
	char *buf;
	size_t size, len;
};

static void out(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintk(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	o->len = MIN(o->len + (size_t)n, o->size - 1);
}

static unsigned long long ticks(u64 ns)
{
	return (unsigned long long)(ns / (1000000000 / USER_HZ));
}

/* Linux's one-letter state and its word for status. */
static char state_char(const struct proc *p)
{
	switch (p->state) {
	case P_RUNNABLE: case P_RUNNING: return 'R';
	case P_STOPPED: return 'T';
	case P_ZOMBIE: return 'Z';
	default: return 'S';
	}
}

static const char *state_word(char c)
{
	return c == 'R' ? "running" : c == 'T' ? "stopped" : c == 'Z' ? "zombie" : "sleeping";
}

/* Signals p ignores and catches (stat's sigignore/sigcatch, status's SigIgn/SigCgt). */
static void sig_sets(const struct proc *p, u64 *ign, u64 *cgt)
{
	*ign = *cgt = 0;
	for (int i = 0; i < NSIG && p->sighand; i++) {	/* (an exited thread has none) */
		if (p->sighand->act[i].handler == SIG_IGN)
			*ign |= 1ull << i;
		else if (p->sighand->act[i].handler != SIG_DFL)
			*cgt |= 1ull << i;
	}
}

static u64 vsize_bytes(const struct proc *p)
{
	return p->mm ? (u64)p->mm->total_vm * PAGE_SIZE : 0;
}

/* /proc/<pid>/stat: the 52 fields of Linux's do_task_stat, in its order. */
static void gen_stat(struct out *o, const struct proc *p)
{
	struct proc_usage u;
	u64 ut, st, ign, cgt, rss = p->state == P_ZOMBIE ? 0 : mm_resident_kb(p->mm) / (PAGE_SIZE / 1024);
	int tpgid = -1, tty_nr = 0;
	const struct mm *mm = p->mm;

	tty_of(p, &tty_nr, &tpgid);
	proc_get_usage(p, USAGE_PROCESS, &u);	/* the whole process, as Linux's /proc/<pid>/stat */
	ut = u.utime_ns;
	st = u.stime_ns;
	sig_sets(p, &ign, &cgt);
	out(o, "%d (%s) %c %d %d %d %d %d %u ", p->pid, p->name, state_char(p),
	    p->parent ? p->parent->pid : 0, p->pgid, p->sid, tty_nr, tpgid,
	    p->did_exec ? 0x400000u : 0x400040u /* PF_RANDOMIZE, PF_FORKNOEXEC */);
	out(o, "%llu %llu %llu %llu %llu %llu %llu %llu ", (unsigned long long)u.minflt,
	    (unsigned long long)p->cminflt, (unsigned long long)u.majflt, (unsigned long long)p->cmajflt,
	    ticks(ut), ticks(st), ticks(p->cutime_ns), ticks(p->cstime_ns));
	out(o, "20 0 1 0 %llu %llu %llu %lu ", ticks(p->start_ns), (unsigned long long)vsize_bytes(p),
	    (unsigned long long)rss, ~0ul /* rsslim: RLIM_INFINITY */);
	out(o, "0 0 %lu 0 0 ", mm ? mm->stack_top : 0ul);	/* startcode endcode startstack kstkesp kstkeip */
	out(o, "%llu %llu %llu %llu 0 0 0 17 0 0 0 0 0 0 ", (unsigned long long)p->sig.pending,
	    (unsigned long long)p->sig.blocked, (unsigned long long)ign, (unsigned long long)cgt);
	out(o, "0 0 %lu 0 0 0 0 %d\n", mm ? mm->brk_start : 0ul,	/* start_data end_data start_brk args env */
	    p->state == P_ZOMBIE ? p->wait_status : 0);
}

/* /proc/<pid>/status: Linux's lines up to the signal masks (no
 * capabilities, seccomp or cpu lists); of the Vm lines VmSize, VmLck and VmRSS. */
static void gen_status(struct out *o, const struct proc *p)
{
	char c = state_char(p);
	u64 ign, cgt;

	sig_sets(p, &ign, &cgt);
	out(o, "Name:\t%s\n", p->name);
	if (p->fs)	/* as Linux, no Umask line once the fs state is gone (a zombie) */
		out(o, "Umask:\t%04o\n", p->fs->umask);
	out(o, "State:\t%c (%s)\nTgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n",
	    c, state_word(c), p->tgid, p->pid,
	    p->group_leader->parent ? p->group_leader->parent->pid : 0);
	out(o, "Uid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\nFDSize:\t%d\nGroups:\t", (unsigned)p->uid[0],
	    (unsigned)p->uid[1], (unsigned)p->uid[2], (unsigned)p->uid[1], (unsigned)p->gid[0], (unsigned)p->gid[1],
	    (unsigned)p->gid[2], (unsigned)p->gid[1], NOFILE);
	for (int i = 0; i < p->ngroups; i++)
		out(o, "%u ", (unsigned)p->groups[i]);
	out(o, "\nNStgid:\t%d\nNSpid:\t%d\nNSpgid:\t%d\nNSsid:\t%d\n", p->tgid, p->pid, p->pgid, p->sid);
	if (p->mm && p->state != P_ZOMBIE)
		out(o, "VmSize:\t%8llu kB\nVmLck:\t%8llu kB\nVmRSS:\t%8llu kB\n",
		    (unsigned long long)(vsize_bytes(p) >> 10),
		    (unsigned long long)p->mm->locked_vm * (PAGE_SIZE / 1024),
		    (unsigned long long)mm_resident_kb(p->mm));
	out(o, "Threads:\t%d\nSigQ:\t0/0\nSigPnd:\t%016llx\nShdPnd:\t%016llx\n",
	    MAX(p->group_leader->nr_threads, 1), (unsigned long long)p->sig.pending,
	    (unsigned long long)p->group_leader->shared_pending);
	out(o, "SigBlk:\t%016llx\nSigIgn:\t%016llx\nSigCgt:\t%016llx\n", (unsigned long long)p->sig.blocked,
	    (unsigned long long)ign, (unsigned long long)cgt);
}

_Static_assert(NR_CPUS <= 10, "gen_sys_stat() names CPUs with one digit");

/* One /proc/stat CPU line in ticks (user, nice, system, idle, iowait, irq,
 * softirq, steal, guest, guest_nice): system is the rest of `span`. */
static void stat_cpu_line(struct out *o, const char *name, u64 span, u64 user, u64 idle)
{
	u64 sys = span > user + idle ? span - user - idle : 0;

	out(o, "%s %llu 0 %llu %llu 0 0 0 0 0 0\n", name, ticks(user), ticks(sys), ticks(idle));
}

/* /proc/stat: the "cpu" line for all CPUs, one "cpuN" line per online CPU,
 * and the counters. */
static void gen_sys_stat(struct out *o)
{
	struct sched_stats s;
	u64 up = ktime_ns();
	int n = smp_num_online();

	sched_get_stats(&s);
	stat_cpu_line(o, "cpu ", up * (u64)n, s.user_ns, s.idle_ns);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		char name[8] = "cpu";

		if (!smp_cpu_online(cpu))
			continue;
		name[3] = (char)('0' + cpu);	/* (NR_CPUS <= 10) */
		stat_cpu_line(o, name, up, s.cpu_user_ns[cpu], s.cpu_idle_ns[cpu]);
	}
	out(o, "intr 0\nctxt %llu\nbtime 0\nprocesses %llu\nprocs_running %d\nprocs_blocked 0\nsoftirq 0 0 0 0 0 0 0 0 0 0 0\n",
	    (unsigned long long)s.switches, (unsigned long long)s.forks, s.running);
}

static void gen_uptime(struct out *o)
{
	struct sched_stats s;
	u64 up = ktime_ns();

	sched_get_stats(&s);
	out(o, "%llu.%02llu %llu.%02llu\n", (unsigned long long)(up / 1000000000),
	    (unsigned long long)(up % 1000000000 / 10000000), (unsigned long long)(s.idle_ns / 1000000000),
	    (unsigned long long)(s.idle_ns % 1000000000 / 10000000));
}

static void gen_loadavg(struct out *o)
{
	struct sched_stats s;

	sched_get_stats(&s);
	for (int i = 0; i < 3; i++) {
		unsigned long v = s.load[i] + (1ul << 11) / 200;	/* round to 0.01 */

		out(o, "%lu.%02lu ", v >> 11, ((v & ((1ul << 11) - 1)) * 100) >> 11);
	}
	out(o, "%d/%d %d\n", s.running, s.total, s.last_pid);
}

/* "/proc/self/..." or "/proc/<pid>/...": the process (live or zombie) and
 * the file's name in its directory; NULL if path is no such file. */
static struct proc *pid_path(const char *path, const char **rest)
{
	const char *p = path + 6;	/* after "/proc/" */
	int n = 0;

	if (strncmp(p, "self/", 5) == 0) {
		*rest = p + 5;
		return current_proc();
	}
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9' && n < 100000000)
		n = n * 10 + (*p++ - '0');
	if (*p != '/')
		return NULL;
	*rest = p + 1;
	return proc_find(n);
}

long procfs_pid_generate(const char *path, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	const char *rest = NULL;
	struct proc *p;

	buf[0] = '\0';
	if (strcmp(path, "/proc/stat") == 0)
		gen_sys_stat(&o);
	else if (strcmp(path, "/proc/uptime") == 0)
		gen_uptime(&o);
	else if (strcmp(path, "/proc/loadavg") == 0)
		gen_loadavg(&o);
	else if (strcmp(path, "/proc/cpuinfo") == 0)
		o.len = arch_cpuinfo(buf, size);
	else if ((p = pid_path(path, &rest)) != NULL) {
		if (strcmp(rest, "stat") == 0)
			gen_stat(&o, p);
		else if (strcmp(rest, "status") == 0)
			gen_status(&o, p);
		else if (strcmp(rest, "comm") == 0)
			out(&o, "%s\n", p->name);
		else if (strcmp(rest, "cmdline") == 0) {
			/* a zombie's is empty, as on Linux */
			o.len = p->state == P_ZOMBIE ? 0 : MIN((size_t)p->cmdline_len, size);
			memcpy(buf, p->cmdline, o.len);
		} else
			return -ENOENT;
	} else
		return -ENOENT;
	return (long)o.len;
}
