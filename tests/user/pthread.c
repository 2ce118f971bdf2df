/*
 * pthread.c - threads: clone's flag rules and clone3's argument checks,
 * set_tid and CLONE_CLEAR_SIGHAND (raw system calls, both libcs), then,
 * with glibc, pthreads over them:
 * create/join and exit values, getpid vs gettid, a mutex, a condition
 * variable, TLS, CLONE_FILES and CLONE_FS sharing, tgkill to one thread,
 * per-thread signal masks and kill() picking a thread that does not block
 * the signal, per-thread sigaltstack, a robust mutex whose owner exits,
 * exit_group from a thread, the leader exiting first (the process is
 * reaped only after its last thread), a fatal signal ending every thread,
 * execve from a thread (the new image has the old pid), wait4 in a thread
 * for a child of another, sched_{get,set}affinity, thread stacks in
 * /proc/self/maps (no [stack:tid] label since Linux 4.5), getrusage and
 * the CPU-time clocks per thread and per process, SIGSTOP/SIGCONT
 * stopping and resuming every thread (a group stop, reported once),
 * /proc/self/task with each thread's status, and PR_SET_PDEATHSIG firing
 * when the parent thread exits.
 *
 * The test libc's small thread library (tests/lib/src/pthread.c) runs the
 * create/join, atomics, mutex and condition variable parts; the rest is glibc's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/wait.h>
#ifdef __GLIBC__
#include <dirent.h>
#include <sys/prctl.h>
#endif
#include "tap.h"

#define CLONE_VM		0x00000100
#define CLONE_FS		0x00000200
#define CLONE_FILES		0x00000400
#define CLONE_SIGHAND		0x00000800
#define CLONE_THREAD		0x00010000
#define CLONE_NEWNS		0x00020000
#define CLONE_NEWUSER		0x10000000
#define CLONE_PARENT		0x00008000

static long raw_clone(unsigned long flags)
{
	long r = syscall(SYS_clone, flags, 0, 0, 0, 0);

	return r < 0 ? -errno : r;
}

static long raw_clone3(const void *args, size_t size)
{
	long r = syscall(SYS_clone3, args, size);

	return r < 0 ? -errno : r;
}

/* A fork through clone3 with ca (exit_signal SIGCHLD added) whose child exits
 * with child(); the child's wait status, or -errno if clone3 failed. */
static long clone3_fork(uint64_t *ca, int (*child)(void))
{
	long pid;
	int st = 0;

	ca[4] = SIGCHLD;
	pid = raw_clone3(ca, 11 * sizeof(uint64_t));
	if (pid == 0)
		_exit(child());
	if (pid < 0)
		return pid;
	return waitpid((pid_t)pid, &st, 0) == pid ? st : -1000;
}

static int set_tid_want;
static int child_is_want(void) { return getpid() == set_tid_want ? 42 : 1; }

/* clone3's set_tid: the child gets the pid asked for (a root caller, one pid namespace). */
static void clone3_set_tid(void)
{
	uint64_t ca[11];
	int tids[2];
	long st;

	memset(ca, 0, sizeof(ca));
	set_tid_want = tids[0] = 20000 + getpid() % 1000;
	ca[8] = (uintptr_t)tids;
	ca[9] = 1;
	st = clone3_fork(ca, child_is_want);
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 42, "clone3 set_tid: the child has the pid asked for (%d, status %#lx)",
	       tids[0], st);
	tids[0] = getpid();
	tap_is_long(clone3_fork(ca, child_is_want), -EEXIST, "clone3 set_tid of a pid in use: EEXIST");
	tids[0] = 0;
	tap_is_long(clone3_fork(ca, child_is_want), -EINVAL, "clone3 set_tid 0: EINVAL");
	tids[0] = tids[1] = 20000 + getpid() % 1000;
	ca[9] = 2;
	tap_is_long(clone3_fork(ca, child_is_want), -EINVAL, "clone3 set_tid_size 2 with one pid namespace: EINVAL");
	ca[8] = 0;
	ca[9] = 1;
	tap_is_long(clone3_fork(ca, child_is_want), -EINVAL, "clone3 set_tid_size without set_tid: EINVAL");
}

static void usr1_handler(int sig) { (void)sig; }

static int child_handlers_cleared(void)
{
	struct sigaction a, b;

	sigaction(SIGUSR1, NULL, &a);
	sigaction(SIGUSR2, NULL, &b);
	return a.sa_handler == SIG_DFL && b.sa_handler == SIG_IGN ? 42 : 1;
}

/* CLONE_CLEAR_SIGHAND: the child's handlers are back to default, ignored signals stay ignored. */
static void clone3_clear_sighand(void)
{
	struct sigaction sa, old1, old2;
	uint64_t ca[11];
	long st;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = usr1_handler;
	sigaction(SIGUSR1, &sa, &old1);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGUSR2, &sa, &old2);
	memset(ca, 0, sizeof(ca));
	ca[0] = 0x100000000ull;	/* CLONE_CLEAR_SIGHAND */
	st = clone3_fork(ca, child_handlers_cleared);
	tap_ok(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 42,
	       "clone3 CLONE_CLEAR_SIGHAND: the child's handler is SIG_DFL, an ignored signal stays ignored (status %#lx)", st);
	ca[0] |= CLONE_SIGHAND | CLONE_VM;
	tap_is_long(clone3_fork(ca, child_handlers_cleared), -EINVAL, "clone3 CLONE_CLEAR_SIGHAND with CLONE_SIGHAND: EINVAL");
	sigaction(SIGUSR1, &old1, NULL);
	sigaction(SIGUSR2, &old2, NULL);
}

/* Inconsistent flag sets: Linux's EINVAL rules (nothing is created). */
static void clone_rules(void)
{
	uint64_t ca[11];
	static uint64_t big[1024];

	tap_is_long(raw_clone(CLONE_THREAD | CLONE_VM), -EINVAL, "clone CLONE_THREAD without CLONE_SIGHAND: EINVAL");
	tap_is_long(raw_clone(CLONE_SIGHAND), -EINVAL, "clone CLONE_SIGHAND without CLONE_VM: EINVAL");
	tap_is_long(raw_clone(CLONE_THREAD | CLONE_SIGHAND), -EINVAL,
		    "clone CLONE_THREAD|CLONE_SIGHAND without CLONE_VM: EINVAL");
	tap_is_long(raw_clone(CLONE_FS | CLONE_NEWNS | SIGCHLD), -EINVAL, "clone CLONE_FS|CLONE_NEWNS: EINVAL");
	tap_is_long(raw_clone(CLONE_FS | CLONE_NEWUSER | SIGCHLD), -EINVAL, "clone CLONE_FS|CLONE_NEWUSER: EINVAL");
	memset(ca, 0, sizeof(ca));
	tap_is_long(raw_clone3(ca, 32), -EINVAL, "clone3 with a size below CLONE_ARGS_SIZE_VER0 (64): EINVAL");
	tap_is_long(raw_clone3(big, (size_t)getpagesize() + 8), -E2BIG, "clone3 with a size above a page: E2BIG");
	big[sizeof(ca) / 8 + 2] = 1;
	tap_is_long(raw_clone3(big, sizeof(ca) + 64), -E2BIG, "clone3 with non-zero bytes past the known struct: E2BIG");
	ca[0] = CLONE_THREAD | CLONE_SIGHAND | CLONE_VM;
	ca[4] = SIGCHLD;
	tap_is_long(raw_clone3(ca, sizeof(ca)), -EINVAL, "clone3 CLONE_THREAD with an exit signal: EINVAL");
	ca[0] = 0;
	ca[4] = 65;
	tap_is_long(raw_clone3(ca, sizeof(ca)), -EINVAL, "clone3 with exit signal 65: EINVAL");
	ca[4] = SIGCHLD;
	ca[5] = 0x1000;	/* a stack without a size */
	tap_is_long(raw_clone3(ca, sizeof(ca)), -EINVAL, "clone3 with a stack but no stack_size: EINVAL");
	ca[5] = 0;
	ca[6] = 0x1000;
	tap_is_long(raw_clone3(ca, sizeof(ca)), -EINVAL, "clone3 with a stack_size but no stack: EINVAL");
	tap_is_long(raw_clone3((void *)8, 64), -EFAULT, "clone3 with a bad pointer: EFAULT");
	/* a plain fork through clone3 */
	memset(ca, 0, sizeof(ca));
	ca[4] = SIGCHLD;
	long pid = raw_clone3(ca, 64);

	if (pid == 0)
		_exit(42);
	int st = 0;

	tap_ok(pid > 0 && waitpid((pid_t)pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 42,
	       "clone3 as fork (size 64, exit_signal SIGCHLD): the child ran and exited 42");
	clone3_set_tid();
	clone3_clear_sighand();
}

#include <pthread.h>
#include <sched.h>
#include <time.h>

#define NTHREADS 8

static void *ret_value(void *arg)
{
	long i = (long)arg;

	if (i & 1)
		pthread_exit((void *)(i * 3));
	return (void *)(i * 3);
}

static pid_t tids[NTHREADS];
static void *record_ids(void *arg)
{
	long i = (long)arg;

	tids[i] = (pid_t)syscall(SYS_gettid);
	return (void *)(long)getpid();
}

static void create_join(void)
{
	pthread_t t[NTHREADS];
	int ok = 1, distinct = 1, samepid = 1;

	for (long i = 0; i < NTHREADS; i++)
		ok &= pthread_create(&t[i], NULL, ret_value, (void *)i) == 0;
	for (long i = 0; i < NTHREADS; i++) {
		void *v = NULL;

		ok &= pthread_join(t[i], &v) == 0 && v == (void *)(i * 3);
	}
	tap_ok(ok, "%d threads created and joined; each value (return or pthread_exit) arrives", NTHREADS);
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, record_ids, (void *)i);
	for (long i = 0; i < NTHREADS; i++) {
		void *v = NULL;

		pthread_join(t[i], &v);
		samepid &= (pid_t)(long)v == getpid();
		distinct &= tids[i] != getpid() && tids[i] > 0;
		for (long j = 0; j < i; j++)
			distinct &= tids[j] != tids[i];
	}
	tap_ok(samepid, "getpid() in every thread is the process's pid");
	tap_ok(distinct, "gettid() differs in every thread and from the pid");
	tap_is_long(syscall(SYS_gettid), getpid(), "the main thread's tid is the pid");
}

static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static long counter;
#define INCS 20000

static void *incr(void *arg)
{
	(void)arg;
	for (int i = 0; i < INCS; i++) {
		pthread_mutex_lock(&mtx);
		long c = counter;

		if ((i & 1023) == 0)
			sched_yield();	/* give the others a chance to find the lock taken */
		counter = c + 1;
		pthread_mutex_unlock(&mtx);
	}
	return NULL;
}

static void mutex(void)
{
	pthread_t t[4];

	counter = 0;
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, incr, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	tap_is_long(counter, 4L * INCS, "4 threads x %d increments under a mutex (yielding with it held)", INCS);
}

/* A bounded queue with two condition variables. */
#define QN 4
#define ITEMS 2000
static pthread_mutex_t qm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t notfull = PTHREAD_COND_INITIALIZER, notempty = PTHREAD_COND_INITIALIZER;
static int q[QN], qhead, qlen;
static long consumed_sum, consumed_n;

static void *producer(void *arg)
{
	long base = (long)arg;

	for (int i = 1; i <= ITEMS; i++) {
		pthread_mutex_lock(&qm);
		while (qlen == QN)
			pthread_cond_wait(&notfull, &qm);
		q[(qhead + qlen++) % QN] = (int)(base + i);
		pthread_cond_signal(&notempty);
		pthread_mutex_unlock(&qm);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&qm);
		while (qlen == 0 && consumed_n < 2 * ITEMS)
			pthread_cond_wait(&notempty, &qm);
		if (consumed_n == 2 * ITEMS) {
			pthread_mutex_unlock(&qm);
			return NULL;
		}
		consumed_sum += q[qhead];
		qhead = (qhead + 1) % QN;
		qlen--;
		if (++consumed_n == 2 * ITEMS)
			pthread_cond_broadcast(&notempty);
		pthread_cond_signal(&notfull);
		pthread_mutex_unlock(&qm);
	}
}

static void condvar(void)
{
	pthread_t p[2], c[2];
	long want = 0;

	for (int i = 1; i <= ITEMS; i++)
		want += i + (100000 + i);
	pthread_create(&c[0], NULL, consumer, NULL);
	pthread_create(&c[1], NULL, consumer, NULL);
	pthread_create(&p[0], NULL, producer, (void *)0L);
	pthread_create(&p[1], NULL, producer, (void *)100000L);
	for (int i = 0; i < 2; i++) {
		pthread_join(p[i], NULL);
		pthread_join(c[i], NULL);
	}
	tap_ok(consumed_n == 2 * ITEMS && consumed_sum == want,
	       "2 producers, 2 consumers, a 4-slot queue with condition variables: %ld items, sum %ld (want %ld)",
	       consumed_n, consumed_sum, want);
}

static void *nop(void *arg)
{
	return arg;
}

static void many(void)
{
	int ok = 1;

	for (long i = 0; i < 300; i++) {
		pthread_t t;
		void *v = NULL;

		ok &= pthread_create(&t, NULL, nop, (void *)i) == 0 && pthread_join(t, &v) == 0 && v == (void *)i;
	}
	tap_ok(ok, "300 threads created and joined one after another (exited threads are freed)");
}

/* An atomic counter bumped by 4 threads (lwx/swx or ldxr/stxr across preemption). */
static volatile int acount;
static void *atomic_incr(void *arg)
{
	(void)arg;
	for (int i = 0; i < INCS; i++)
		__atomic_fetch_add(&acount, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/*
 * The compiler's atomics in one thread: a compare-exchange that stores
 * says so, one that finds another value says so and hands it back (also
 * for values 2^31 apart), exchange and fetch-add return the old value.
 * On MicroBlaze these are the calls into tests/lib/arch/microblaze/atomic.S
 * (the cross GCC's inline expansion gets these one-thread results right
 * and loses updates only in a race; tests/host/mb_atomics.sh guards that).
 */
static void atomic_rules(void)
{
	volatile int w = 5;
	int e = 5, ok;

	ok = __atomic_compare_exchange_n(&w, &e, 6, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) && w == 6 && e == 5;
	e = 5;
	ok &= !__atomic_compare_exchange_n(&w, &e, 7, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) && w == 6 && e == 6;
	w = INT32_MIN;
	e = 0;
	ok &= !__atomic_compare_exchange_n(&w, &e, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) && w == INT32_MIN &&
	      e == INT32_MIN;
	w = 3;
	ok &= __atomic_exchange_n(&w, 4, __ATOMIC_SEQ_CST) == 3 && w == 4;
	ok &= __atomic_fetch_add(&w, 2, __ATOMIC_SEQ_CST) == 4 && __atomic_add_fetch(&w, 1, __ATOMIC_SEQ_CST) == 7;
	tap_ok(ok, "compare-exchange reports a store and a mismatch rightly; exchange and fetch-add return the old value");
}

static void atomics(void)
{
	pthread_t t[4];

	atomic_rules();

	acount = 0;
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, atomic_incr, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	tap_is_long(acount, 4L * INCS, "4 threads x %d atomic increments, preempted anywhere", INCS);
}

#ifdef __GLIBC__
static __thread long tls_var = 7;
static void *tls_thread(void *arg)
{
	long me = (long)arg, ok = tls_var == 7;

	tls_var = me;
	for (int i = 0; i < 50; i++) {
		sched_yield();
		ok &= tls_var == me;
	}
	return (void *)ok;
}

static void tls(void)
{
	pthread_t t[4];
	long ok = 1;

	tls_var = 99;
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, tls_thread, (void *)(1000 + i));
	for (int i = 0; i < 4; i++) {
		void *v;

		pthread_join(t[i], &v);
		ok &= (long)v;
	}
	tap_ok(ok && tls_var == 99, "__thread: each thread starts with the initial value and keeps its own (TLS via CLONE_SETTLS)");
}

static int shared_fd = -1;
static void *share_thread(void *arg)
{
	(void)arg;
	shared_fd = open("/proc/self/maps", O_RDONLY);
	chdir("/proc");
	umask(0017);
	return NULL;
}

static void sharing(void)
{
	pthread_t t;
	char cwd[64] = "";
	mode_t old;

	pthread_create(&t, NULL, share_thread, NULL);
	pthread_join(t, NULL);
	tap_ok(shared_fd >= 0 && fcntl(shared_fd, F_GETFD) >= 0, "a descriptor a thread opened is open in main (CLONE_FILES)");
	close(shared_fd);
	tap_ok(getcwd(cwd, sizeof(cwd)) && strcmp(cwd, "/proc") == 0, "a thread's chdir moves main too (CLONE_FS): %s", cwd);
	old = umask(022);
	tap_is_long(old, 0017, "and its umask is main's (CLONE_FS)");
	chdir("/");
}

static volatile pid_t sig_tid;
static volatile int sig_count;
static void rec_handler(int sig)
{
	(void)sig;
	sig_tid = (pid_t)syscall(SYS_gettid);
	sig_count++;
}

static pid_t worker_tid[2];
static volatile int stop_workers;
static void *blocker(void *arg)
{
	long i = (long)arg;
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	if (i == 0)
		pthread_sigmask(SIG_BLOCK, &s, NULL);	/* worker 0 blocks SIGUSR2, worker 1 does not */
	else
		pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	worker_tid[i] = (pid_t)syscall(SYS_gettid);
	while (!stop_workers)
		usleep(1000);
	return NULL;
}

static void signals(void)
{
	pthread_t t[2];
	sigset_t s, pend;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = rec_handler;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, NULL);	/* main blocks SIGUSR2; threads start with main's mask */
	stop_workers = 0;
	worker_tid[0] = worker_tid[1] = 0;
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, blocker, (void *)i);
	while (!worker_tid[0] || !worker_tid[1])
		usleep(1000);
	sig_tid = 0;
	syscall(SYS_tgkill, getpid(), worker_tid[0], SIGUSR1);
	for (int i = 0; i < 1000 && !sig_tid; i++)
		usleep(1000);
	tap_is_long(sig_tid, worker_tid[0], "tgkill(pid, tid, SIGUSR1): the handler runs in that thread");
	sig_tid = 0;
	kill(getpid(), SIGUSR2);
	for (int i = 0; i < 1000 && !sig_tid; i++)
		usleep(1000);
	tap_is_long(sig_tid, worker_tid[1], "kill(pid, SIGUSR2) is taken by the one thread that does not block it");
	sig_tid = 0;
	syscall(SYS_tgkill, getpid(), worker_tid[0], SIGUSR2);
	usleep(20000);
	tap_is_long(sig_tid, 0, "tgkill to a thread that blocks the signal: nothing runs");
	sigpending(&pend);
	tap_ok(!sigismember(&pend, SIGUSR2), "it is pending for that thread, not for main (sigpending in main)");
	tap_is_long(syscall(SYS_tgkill, getpid() + 100000, worker_tid[0], 0) < 0 ? errno : 0, ESRCH,
		    "tgkill with the wrong tgid: ESRCH");
	tap_is_long(syscall(SYS_tgkill, getpid(), worker_tid[1], 0), 0, "tgkill(.., 0) checks a live thread: 0");
	tap_is_long(syscall(SYS_tkill, worker_tid[1], 0), 0, "tkill(tid, 0): 0");
	stop_workers = 1;
	pthread_join(t[0], NULL);	/* exits with SIGUSR2 still pending for it: discarded */
	pthread_join(t[1], NULL);
	/* join returns when the kernel clears the tid; on Linux the exiting
	 * task is released a moment later, so allow it that moment */
	for (int i = 0; i < 1000 && syscall(SYS_tgkill, getpid(), worker_tid[1], 0) == 0; i++)
		usleep(1000);
	tap_is_long(syscall(SYS_tgkill, getpid(), worker_tid[1], 0) < 0 ? errno : 0, ESRCH,
		    "tgkill to a thread that has exited: ESRCH (within a second of the join)");
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

static char altstack[3][65536];
static volatile uintptr_t handler_sp;
static void alt_handler(int sig)
{
	volatile int local;

	(void)sig;
	handler_sp = (uintptr_t)&local;
}

static void *alt_thread(void *arg)
{
	stack_t ss = { .ss_sp = altstack[(long)arg], .ss_size = sizeof(altstack[0]) }, old;

	sigaltstack(NULL, &old);
	if (!(old.ss_flags & SS_DISABLE))
		return (void *)1L;	/* a new thread starts without an alternate stack */
	sigaltstack(&ss, NULL);
	raise(SIGURG);
	return (void *)0L;
}

static void altstacks(void)
{
	pthread_t t;
	void *v = (void *)2L;
	stack_t ss = { .ss_sp = altstack[2], .ss_size = sizeof(altstack[2]) }, cur;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = alt_handler;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGURG, &sa, NULL);
	sigaltstack(&ss, NULL);	/* main has one; the thread must not inherit it */
	handler_sp = 0;
	pthread_create(&t, NULL, alt_thread, (void *)0L);
	pthread_join(t, &v);
	tap_ok(v == NULL && handler_sp >= (uintptr_t)altstack[0] && handler_sp < (uintptr_t)altstack[1],
	       "a thread's SA_ONSTACK handler runs on the thread's own sigaltstack (none inherited)");
	sigaltstack(NULL, &cur);
	tap_ok(cur.ss_sp == altstack[2], "main's alternate stack is untouched");
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	signal(SIGURG, SIG_DFL);
}

static pthread_mutex_t robust_m;
static void *take_and_die(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&robust_m);
	return NULL;	/* exits holding it */
}

static void robust(void)
{
	pthread_mutexattr_t a;
	pthread_t t;
	int r;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&robust_m, &a);
	pthread_create(&t, NULL, take_and_die, NULL);
	pthread_join(t, NULL);
	r = pthread_mutex_lock(&robust_m);
	tap_is_long(r, EOWNERDEAD, "a robust mutex whose owner thread exited: EOWNERDEAD (the robust list at exit)");
	if (r == EOWNERDEAD) {
		pthread_mutex_consistent(&robust_m);
		pthread_mutex_unlock(&robust_m);
	}
}

/* Run fn in a forked child; its wait status. */
static int in_child(void (*fn)(void))
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		fn();
		_exit(99);
	}
	waitpid(pid, &st, 0);
	return st;
}

static void *exit7(void *arg)
{
	(void)arg;
	exit(7);
}

static void child_exit_group(void)
{
	pthread_t t;

	pthread_create(&t, NULL, exit7, NULL);
	pthread_join(t, NULL);	/* never returns: exit_group ends us too */
	_exit(98);
}

static volatile int *marker;
static void *late_exit(void *arg)
{
	(void)arg;
	usleep(100000);
	*marker = 1;
	_exit(5);	/* exit_group(5) */
	return NULL;
}

static void child_leader_first(void)
{
	pthread_t t;

	pthread_create(&t, NULL, late_exit, NULL);
	pthread_exit(NULL);	/* the leader ends first; the process lives on */
}

static void *segv_thread(void *arg)
{
	(void)arg;
	volatile int *volatile bad = (volatile int *)8;

	*bad = 1;
	return NULL;
}

static void child_segv(void)
{
	pthread_t t;

	pthread_create(&t, NULL, segv_thread, NULL);
	pause();
}

static void *term_thread(void *arg)
{
	(void)arg;
	kill(getpid(), SIGTERM);
	for (;;)
		pause();
	return NULL;
}

static void child_term(void)
{
	pthread_t t;

	pthread_create(&t, NULL, term_thread, NULL);
	for (;;)
		pause();
}

static const char *self_path;
static void *exec_thread(void *arg)
{
	char pid[16];

	(void)arg;
	snprintf(pid, sizeof(pid), "%d", getpid());
	execl(self_path, self_path, "--exec-child", pid, (char *)NULL);
	return (void *)1L;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void child_exec(void)
{
	pthread_t t[3];

	pthread_create(&t[0], NULL, sleeper, NULL);
	pthread_create(&t[1], NULL, sleeper, NULL);
	pthread_create(&t[2], NULL, exec_thread, NULL);
	for (;;)
		pause();
}

/* The image execve'd by a thread: the same pid, one thread. */
static int exec_child(const char *want_pid)
{
	char buf[256];
	int fd = open("/proc/self/status", O_RDONLY), threads = -1;
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	(void)threads;
	if (fd >= 0)
		close(fd);
	if (n < 0)
		return 3;
	if (getpid() != atoi(want_pid))
		return 4;
	if (syscall(SYS_gettid) != getpid())
		return 5;
	return 0;
}

static long thread_own_minflt;
static uint64_t thread_cpu_ns(clockid_t id)
{
	struct timespec ts;

	return clock_gettime(id, &ts) == 0 ? (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec : 0;
}

/* Touch 64 new pages and spin 100 ms of CPU time; report the thread's own faults. */
static void *usage_thread(void *arg)
{
	char *mem = arg;
	struct rusage ru;
	long before;
	uint64_t t0 = thread_cpu_ns(CLOCK_THREAD_CPUTIME_ID);

	getrusage(RUSAGE_THREAD, &ru);
	before = ru.ru_minflt;
	for (int i = 0; i < 64; i++)
		mem[i * getpagesize()] = 1;
	while (thread_cpu_ns(CLOCK_THREAD_CPUTIME_ID) - t0 < 100000000u)
		;
	getrusage(RUSAGE_THREAD, &ru);
	thread_own_minflt = ru.ru_minflt - before;
	return NULL;
}

/* RUSAGE_SELF and CLOCK_PROCESS_CPUTIME_ID count every thread, the exited
 * ones too; RUSAGE_THREAD and CLOCK_THREAD_CPUTIME_ID only the caller. */
static void usage(void)
{
	size_t len = 64 * (size_t)getpagesize();
	char *mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct rusage self0, self1, me0, me1;
	uint64_t p0 = thread_cpu_ns(CLOCK_PROCESS_CPUTIME_ID), t0 = thread_cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	uint64_t p1, t1;
	struct timespec res = { 0, 0 };
	pthread_t t;

	getrusage(RUSAGE_SELF, &self0);
	getrusage(RUSAGE_THREAD, &me0);
	pthread_create(&t, NULL, usage_thread, mem);
	pthread_join(t, NULL);
	getrusage(RUSAGE_SELF, &self1);
	getrusage(RUSAGE_THREAD, &me1);
	p1 = thread_cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
	t1 = thread_cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	tap_ok(thread_own_minflt >= 64, "RUSAGE_THREAD in a thread counts its own faults (%ld for 64 pages)",
	       thread_own_minflt);
	tap_ok(self1.ru_minflt - self0.ru_minflt >= 64 && me1.ru_minflt - me0.ru_minflt < 32,
	       "after the join, RUSAGE_SELF keeps the exited thread's faults, RUSAGE_THREAD of main does not "
	       "(%ld, %ld)", self1.ru_minflt - self0.ru_minflt, me1.ru_minflt - me0.ru_minflt);
	tap_ok(p1 - p0 >= 100000000u && t1 - t0 < 50000000u,
	       "CLOCK_PROCESS_CPUTIME_ID counts the thread's 100 ms of CPU, main's CLOCK_THREAD_CPUTIME_ID not "
	       "(%llu ms, %llu ms)", (unsigned long long)((p1 - p0) / 1000000), (unsigned long long)((t1 - t0) / 1000000));
	tap_ok(clock_getres(CLOCK_PROCESS_CPUTIME_ID, &res) == 0 && (res.tv_sec || res.tv_nsec) &&
	       clock_getres(CLOCK_MONOTONIC, NULL) == 0 && clock_getres(10, &res) == -1 && errno == EINVAL,
	       "clock_getres: CPU and monotonic clocks, EINVAL for clock 10 (errno %d)", errno);
	munmap(mem, len);
}

/* /proc/self/task: the threads wait on a pipe while main looks. */
static int task_pipe[2];
static volatile long task_tids[2];

static void *task_thread(void *arg)
{
	char c;

	task_tids[(long)arg] = syscall(SYS_gettid);
	return (void *)(long)read(task_pipe[0], &c, 1);
}

/* Does /proc/self/task/<tid>/status say Pid tid, Tgid pid and Threads n? */
static int task_status_ok(long tid, long n)
{
	char path[64], buf[4096], want[64];
	int fd, ok;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/status", tid);
	fd = open(path, O_RDONLY);
	len = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (len <= 0)
		return 0;
	buf[len] = 0;
	snprintf(want, sizeof(want), "\nPid:\t%ld\n", tid);
	ok = strstr(buf, want) != NULL;
	snprintf(want, sizeof(want), "\nTgid:\t%d\n", getpid());
	ok = ok && strstr(buf, want);
	snprintf(want, sizeof(want), "\nThreads:\t%ld\n", n);
	return ok && strstr(buf, want);
}

/* /proc/self/task lists every thread by tid, each with its own status. */
static void task_dir(void)
{
	pthread_t t[2];
	long seen = 0, others = 0;
	DIR *d;
	struct dirent *e;

	if (pipe(task_pipe) != 0) {
		tap_ok(0, "pipe for the task threads (errno %d)", errno);
		return;
	}
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, task_thread, (void *)i);
	while (!task_tids[0] || !task_tids[1])
		usleep(1000);
	d = opendir("/proc/self/task");
	while (d && (e = readdir(d)) != NULL) {
		long tid = strtol(e->d_name, NULL, 10);

		if (e->d_name[0] == '.')
			continue;
		if (tid == getpid())
			seen |= 1;
		else if (tid == task_tids[0])
			seen |= 2;
		else if (tid == task_tids[1])
			seen |= 4;
		else
			others++;
	}
	if (d)
		closedir(d);
	tap_ok(seen == 7 && others == 0, "/proc/self/task lists main and both threads by tid, nothing else (%ld, %ld)",
	       seen, others);
	tap_ok(task_status_ok(task_tids[1], 3) && task_status_ok(getpid(), 3),
	       "/proc/self/task/<tid>/status: that thread's Pid, the process's Tgid, Threads 3");
	if (write(task_pipe[1], "xx", 2) != 2)
		tap_diag("could not release the task threads");
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	close(task_pipe[0]);
	close(task_pipe[1]);
}

/* PR_SET_PDEATHSIG fires when the parent *thread* exits, the process living on. */
static volatile sig_atomic_t pdeath_got;
static int pdeath_pipe[2];

static void pdeath_handler(int sig)
{
	pdeath_got = sig;
}

/* The thread makes a child that asks for SIGUSR1 at its parent's death, waits until it has, and exits. */
static void *pdeath_thread(void *arg)
{
	pid_t pid;
	char c;

	(void)arg;
	pid = fork();
	if (pid == 0) {
		signal(SIGUSR1, pdeath_handler);
		prctl(PR_SET_PDEATHSIG, SIGUSR1);
		if (write(pdeath_pipe[1], "r", 1) != 1)
			_exit(3);
		for (int i = 0; i < 2000 && !pdeath_got; i++)
			usleep(1000);
		_exit(pdeath_got == SIGUSR1 ? 0 : 1);
	}
	if (read(pdeath_pipe[0], &c, 1) != 1)
		return (void *)-1L;
	return (void *)(long)pid;
}

static void pdeath(void)
{
	pthread_t t;
	void *v;
	int st = -1;

	if (pipe(pdeath_pipe) != 0) {
		tap_ok(0, "pipe for the pdeath case (errno %d)", errno);
		return;
	}
	pthread_create(&t, NULL, pdeath_thread, NULL);
	pthread_join(t, &v);
	if ((long)v > 0)
		waitpid((pid_t)(long)v, &st, 0);
	tap_ok((long)v > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "PR_SET_PDEATHSIG: the child gets its signal when the thread that made it exits, the process living on "
	       "(status %#x)", st);
	close(pdeath_pipe[0]);
	close(pdeath_pipe[1]);
}

/* Group stop: counters in shared memory, one per thread of the child. */
static volatile long *stop_counters;

static void *stop_spinner(void *arg)
{
	volatile long *c = arg;

	for (;;)
		(*c)++;
	return NULL;
}

static void *stop_sleeper(void *arg)
{
	volatile long *c = arg;

	for (;;) {
		usleep(1000);
		(*c)++;
	}
	return NULL;
}

/* Sum of the child's counters, read twice 100 ms apart: did any move? */
static int counters_move(void)
{
	long a = stop_counters[0] + stop_counters[1] + stop_counters[2], b;

	usleep(100000);
	b = stop_counters[0] + stop_counters[1] + stop_counters[2];
	return a != b;
}

/* SIGSTOP stops every thread of a process (a spinning one and a sleeping
 * one too), reported once; SIGCONT resumes them all, reported once. */
static void group_stop(void)
{
	int st = 0, moved_stopped, moved_running, second, cont;
	pid_t pid, w;

	stop_counters = mmap(NULL, (size_t)getpagesize(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid = fork();
	if (pid == 0) {
		pthread_t a, b;

		pthread_create(&a, NULL, stop_spinner, (void *)&stop_counters[1]);
		pthread_create(&b, NULL, stop_sleeper, (void *)&stop_counters[2]);
		stop_spinner((void *)&stop_counters[0]);
	}
	while (!stop_counters[0] || !stop_counters[1] || !stop_counters[2])
		usleep(1000);
	kill(pid, SIGSTOP);
	w = waitpid(pid, &st, WUNTRACED);
	tap_ok(w == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "SIGSTOP to a process with 3 threads: reported stopped (status %#x)", st);
	moved_stopped = counters_move();
	second = (int)waitpid(pid, &st, WUNTRACED | WNOHANG);
	kill(pid, SIGCONT);
	w = waitpid(pid, &st, WCONTINUED);
	cont = w == pid && WIFCONTINUED(st);
	moved_running = counters_move();
	tap_ok(!moved_stopped && second == 0, "every thread stopped (spinning and sleeping), and the stop was reported once (%d, %d)",
	       moved_stopped, second);
	tap_ok(cont && moved_running, "SIGCONT: reported continued, and the threads run again (%d, %d)", cont, moved_running);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	munmap((void *)stop_counters, (size_t)getpagesize());
}

static void groups(void)
{
	int st;

	st = in_child(child_exit_group);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 7, "exit() in a thread (exit_group) ends the process with 7 (0x%x)", st);
	*marker = 0;
	st = in_child(child_leader_first);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 5 && *marker == 1,
	       "the leader's pthread_exit first: waitpid returns only after the last thread, status 5 (0x%x)", st);
	st = in_child(child_segv);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "SIGSEGV in a thread kills the whole process (0x%x)", st);
	st = in_child(child_term);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "a default-action SIGTERM ends every thread (0x%x)", st);
	st = in_child(child_exec);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "execve from a non-leader thread: the others die, the new image has the old pid and is its own thread (0x%x)",
	       st);
}

static pid_t waited_child;
static void *waiter_thread(void *arg)
{
	int st = 0;

	(void)arg;
	return (void *)(long)(waitpid(waited_child, &st, 0) == waited_child && WIFEXITED(st) && WEXITSTATUS(st) == 3);
}

static void wait_other(void)
{
	pthread_t t;
	void *v = NULL;

	waited_child = fork();
	if (waited_child == 0)
		_exit(3);
	pthread_create(&t, NULL, waiter_thread, NULL);
	pthread_join(t, &v);
	tap_ok(v == (void *)1L, "a thread reaps a child forked by main (wait4 sees the process's children)");
}

static void affinity(void)
{
	cpu_set_t set;
	long r;

	CPU_ZERO(&set);
	r = syscall(SYS_sched_getaffinity, 0, sizeof(set), &set);
	tap_ok(r >= (long)sizeof(long) && r % (long)sizeof(long) == 0 && CPU_ISSET(0, &set),
	       "sched_getaffinity: %ld bytes, CPU 0 set", r);
	tap_is_long(syscall(SYS_sched_getaffinity, 0, 3, &set) < 0 ? errno : 0, EINVAL,
		    "sched_getaffinity with a size not a multiple of long: EINVAL");
	tap_is_long(syscall(SYS_sched_getaffinity, 0, 0, &set) < 0 ? errno : 0, EINVAL,
		    "sched_getaffinity with size 0: EINVAL");
	tap_is_long(syscall(SYS_sched_getaffinity, 0, sizeof(set), (void *)8) < 0 ? errno : 0, EFAULT,
		    "sched_getaffinity to a bad pointer: EFAULT");
	tap_is_long(syscall(SYS_sched_getaffinity, 999999, sizeof(set), &set) < 0 ? errno : 0, ESRCH,
		    "sched_getaffinity of no such pid: ESRCH");
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	tap_is_long(sched_setaffinity(0, sizeof(set), &set), 0, "sched_setaffinity to CPU 0: 0");
	CPU_ZERO(&set);
	tap_is_long(sched_setaffinity(0, sizeof(set), &set) < 0 ? errno : 0, EINVAL,
		    "sched_setaffinity to no CPU: EINVAL");
}

static uintptr_t thread_local_addr;
static pthread_mutex_t maps_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t maps_c = PTHREAD_COND_INITIALIZER;
static int maps_state;
static void *maps_thread(void *arg)
{
	volatile int local = 1;

	(void)arg;
	pthread_mutex_lock(&maps_m);
	thread_local_addr = (uintptr_t)&local;
	maps_state = 1;
	pthread_cond_broadcast(&maps_c);
	while (maps_state != 2)
		pthread_cond_wait(&maps_c, &maps_m);
	pthread_mutex_unlock(&maps_m);
	return NULL;
}

static void maps(void)
{
	pthread_t t;
	static char buf[65536];
	int fd, found = 0, labelled = 0, main_stack = 0;
	ssize_t n, len = 0;

	pthread_create(&t, NULL, maps_thread, NULL);
	pthread_mutex_lock(&maps_m);
	while (maps_state != 1)
		pthread_cond_wait(&maps_c, &maps_m);
	pthread_mutex_unlock(&maps_m);
	fd = open("/proc/self/maps", O_RDONLY);
	while (fd >= 0 && (n = read(fd, buf + len, sizeof(buf) - 1 - (size_t)len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	for (char *l = buf; *l;) {
		char *e = strchr(l, '\n');
		unsigned long lo, hi;

		if (e)
			*e = 0;
		if (sscanf(l, "%lx-%lx", &lo, &hi) == 2 && thread_local_addr >= lo && thread_local_addr < hi) {
			found = 1;
			labelled = strchr(l, '[') != NULL;
		}
		main_stack += strstr(l, "[stack]") != NULL;
		if (!e)
			break;
		l = e + 1;
	}
	tap_ok(found && !labelled, "a thread's stack is an unlabelled anonymous line in /proc/self/maps (Linux >= 4.5)");
	tap_is_long(main_stack, 1, "one [stack] line: the main thread's");
	pthread_mutex_lock(&maps_m);
	maps_state = 2;
	pthread_cond_broadcast(&maps_c);
	pthread_mutex_unlock(&maps_m);
	pthread_join(t, NULL);
}

static volatile uint32_t fword;
static void *private_waiter(void *arg)
{
	struct timespec ts = { 0, 300 * 1000000 };

	(void)arg;
	return (void *)syscall(SYS_futex, &fword, 0 | 128 /* FUTEX_WAIT_PRIVATE */, 0, &ts, NULL, 0);
}

/* A private and a shared futex operation on one word never meet (Linux's
 * keys differ): pthread_join relies on it being a shared wait. */
static void futex_kinds(void)
{
	pthread_t t;
	void *v;
	long woken;

	pthread_create(&t, NULL, private_waiter, NULL);
	usleep(100000);
	woken = syscall(SYS_futex, &fword, 1 /* FUTEX_WAKE, shared */, 1, NULL, NULL, 0);
	pthread_join(t, &v);
	tap_ok(woken == 0 && (long)v == -1, "a shared WAKE does not wake a thread in WAIT_PRIVATE on the word (%ld)", woken);
}

#endif

int main(int argc, char **argv)
{
#ifdef __GLIBC__
	if (argc == 3 && strcmp(argv[1], "--exec-child") == 0)
		return exec_child(argv[2]);
	self_path = argv[0];
	marker = mmap(NULL, (size_t)getpagesize(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
#else
	(void)argc;
	(void)argv;
#endif
	tap_init();
	clone_rules();
	create_join();
	atomics();
	mutex();
	condvar();
	many();
#ifdef __GLIBC__
	tls();
	sharing();
	signals();
	altstacks();
	robust();
	groups();
	usage();
	group_stop();
	task_dir();
	pdeath();
	wait_other();
	affinity();
	maps();
	futex_kinds();
#else
	tap_skip("TLS, signals in threads, robust mutexes, exec from a thread, affinity, maps: glibc build only");
#endif
	return tap_done();
}
