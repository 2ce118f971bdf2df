/*
 * futex.c - futex(2) through raw system calls, on both libcs: every
 * operation (WAIT, WAKE, REQUEUE, CMP_REQUEUE, WAKE_OP, WAIT_BITSET,
 * WAKE_BITSET) and its errnos (EAGAIN, ETIMEDOUT, EINTR, EFAULT, EINVAL,
 * ENOSYS), relative and absolute timeouts on both clocks, private and
 * shared keys (waiters are forked children on a MAP_SHARED page: a shared
 * futex meets across processes, a private one does not), and the robust
 * list at exit (set_robust_list, get_robust_list, FUTEX_OWNER_DIED).
 *
 * A parent learns how many children wait on a word without waking them:
 * FUTEX_CMP_REQUEUE from the word to itself with nr_wake 0 returns the
 * number of waiters it moved (all of them, to where they already were).
 */
#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include "tap.h"

#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_FD		2
#define FUTEX_REQUEUE		3
#define FUTEX_CMP_REQUEUE	4
#define FUTEX_WAKE_OP		5
#define FUTEX_WAIT_BITSET	9
#define FUTEX_WAKE_BITSET	10
#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_CLOCK_REALTIME	256
#define FUTEX_WAITERS		0x80000000u
#define FUTEX_OWNER_DIED	0x40000000u
#define OP(op, oparg, cmp, cmparg) \
	((unsigned)(((op) & 0xf) << 28) | (((cmp) & 0xf) << 24) | (((oparg) & 0xfff) << 12) | ((cmparg) & 0xfff))
#define OP_SET 0
#define OP_ADD 1
#define OP_OR 2
#define OP_ANDN 3
#define OP_XOR 4
#define OP_OPARG_SHIFT 8
#define CMP_EQ 0
#define CMP_NE 1
#define CMP_LT 2
#define CMP_GE 5

static long fx(volatile uint32_t *uaddr, int op, uint32_t val, const void *ts_or_val2, volatile uint32_t *uaddr2,
	       uint32_t val3)
{
	long r = syscall(SYS_futex, uaddr, op, val, ts_or_val2, uaddr2, val3);

	return r < 0 ? -errno : r;
}

static long fx2(volatile uint32_t *uaddr, int op, uint32_t val, unsigned long val2, volatile uint32_t *uaddr2,
		uint32_t val3)
{
	return fx(uaddr, op, val, (const void *)val2, uaddr2, val3);
}

/* Waiters on the shared futex at w (see the top). */
static long waiters(volatile uint32_t *w)
{
	return fx2(w, FUTEX_CMP_REQUEUE, 0, 0x7fffffff, w, *w);
}

/* Wait (bounded: 5 s) until n children wait on w. */
static int await_waiters(volatile uint32_t *w, long n)
{
	for (int i = 0; i < 500; i++) {
		if (waiters(w) == n)
			return 1;
		usleep(10000);
	}
	return 0;
}

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct timespec ns_ts(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	return ts;
}

/* A child that waits on w (op, bitset) and exits 0 when woken, 1 on a
 * timeout (after 3 s), 2 on anything else. */
static pid_t waiter(volatile uint32_t *w, int op, uint32_t bitset)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct timespec ts = { 3, 0 };
		uint64_t abs = now_ns(CLOCK_MONOTONIC) + 3000000000ull;
		struct timespec ats = ns_ts(abs);
		long r = (op & 127) == FUTEX_WAIT_BITSET ? fx(w, op, *w, &ats, NULL, bitset)
						     : fx(w, op, *w, &ts, NULL, 0);

		_exit(r == 0 ? 0 : r == -ETIMEDOUT ? 1 : 2);
	}
	return pid;
}

static int status_of(pid_t pid)
{
	int st = -1;

	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + (st & 0x7f);
}

static void on_alarm(int sig) { (void)sig; }

static void errnos(void)
{
	static uint32_t w = 5, w2 = 0;
	struct timespec ts = { 0, 20 * 1000000 }, bad = { 0, 1000000000 }, neg = { -1, 0 };
	uint64_t t0;
	long r;

	tap_is_long(fx(&w, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 4, NULL, NULL, 0), -EAGAIN, "WAIT_PRIVATE on a word that differs: EAGAIN");
	tap_is_long(fx(&w, FUTEX_WAIT, 4, NULL, NULL, 0), -EAGAIN, "WAIT (shared) on a word that differs: EAGAIN");
	t0 = now_ns(CLOCK_MONOTONIC);
	r = fx(&w, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 5, &ts, NULL, 0);
	tap_ok(r == -ETIMEDOUT && now_ns(CLOCK_MONOTONIC) - t0 >= 20000000u,
	       "WAIT with a relative 20 ms timeout: ETIMEDOUT after %llu ns (%ld)",
	       (unsigned long long)(now_ns(CLOCK_MONOTONIC) - t0), r);
	r = fx(&w, FUTEX_WAIT | FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME, 5, &ts, NULL, 0);
	tap_is_long(r, -ENOSYS, "WAIT with FUTEX_CLOCK_REALTIME: ENOSYS (only WAIT_BITSET takes a clock)");
	struct timespec abs = ns_ts(now_ns(CLOCK_MONOTONIC) + 20000000u);

	t0 = now_ns(CLOCK_MONOTONIC);
	r = fx(&w, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, 5, &abs, NULL, 0xffffffffu);
	tap_ok(r == -ETIMEDOUT && now_ns(CLOCK_MONOTONIC) >= t0 + 10000000u,
	       "WAIT_BITSET with an absolute CLOCK_MONOTONIC deadline 20 ms ahead: ETIMEDOUT (%ld)", r);
	abs = ns_ts(now_ns(CLOCK_REALTIME) + 20000000u);
	r = fx(&w, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME, 5, &abs, NULL, 0xffffffffu);
	tap_is_long(r, -ETIMEDOUT, "WAIT_BITSET with an absolute CLOCK_REALTIME deadline: ETIMEDOUT");
	abs = ns_ts(1000);
	tap_is_long(fx(&w, FUTEX_WAIT_BITSET, 5, &abs, NULL, 1), -ETIMEDOUT,
		    "WAIT_BITSET with a deadline in the past: ETIMEDOUT at once");
	tap_is_long(fx(&w, FUTEX_WAIT_BITSET, 4, &abs, NULL, 1), -EAGAIN,
		    "... but a word that differs is EAGAIN first");
	tap_is_long(fx(&w, FUTEX_WAIT, 5, &bad, NULL, 0), -EINVAL, "WAIT with tv_nsec 1000000000: EINVAL");
	tap_is_long(fx(&w, FUTEX_WAIT, 5, &neg, NULL, 0), -EINVAL, "WAIT with tv_sec -1: EINVAL");
	tap_is_long(fx(&w, FUTEX_WAIT, 5, (void *)8, NULL, 0), -EFAULT, "WAIT with a bad timeout pointer: EFAULT");
	tap_is_long(fx((uint32_t *)((char *)&w + 1), FUTEX_WAIT, 5, NULL, NULL, 0), -EINVAL,
		    "WAIT on an unaligned word: EINVAL");
	tap_is_long(fx((uint32_t *)((char *)&w + 2), FUTEX_WAKE, 1, NULL, NULL, 0), -EINVAL,
		    "WAKE on an unaligned word: EINVAL");
	tap_is_long(fx(NULL, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0), -EFAULT, "WAIT on NULL: EFAULT");
	tap_is_long(fx((uint32_t *)8, FUTEX_WAIT, 0, NULL, NULL, 0), -EFAULT, "WAIT (shared) on an unmapped word: EFAULT");
	tap_is_long(fx(&w, FUTEX_WAIT_BITSET, 5, NULL, NULL, 0), -EINVAL, "WAIT_BITSET with bitset 0: EINVAL");
	tap_is_long(fx(&w, FUTEX_WAKE_BITSET, 1, NULL, NULL, 0), -EINVAL, "WAKE_BITSET with bitset 0: EINVAL");
	tap_is_long(fx(&w, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, NULL, NULL, 0), -ENOSYS,
		    "WAKE with FUTEX_CLOCK_REALTIME: ENOSYS");
	tap_is_long(fx(&w, FUTEX_FD, 0, NULL, NULL, 0), -ENOSYS, "FUTEX_FD (removed in 2.6.26): ENOSYS");
	tap_is_long(fx(&w, 99, 0, NULL, NULL, 0), -ENOSYS, "an unknown operation: ENOSYS");
	tap_is_long(fx(&w, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 10, NULL, NULL, 0), 0, "WAKE with no waiter: 0");
	tap_is_long(fx2(&w, FUTEX_REQUEUE, 1, (unsigned long)-1 & 0xffffffffu, &w2, 0), -EINVAL,
		    "REQUEUE with a negative nr_requeue: EINVAL");
	tap_is_long(fx2(&w, FUTEX_CMP_REQUEUE, (uint32_t)-1, 1, &w2, 5), -EINVAL,
		    "CMP_REQUEUE with a negative nr_wake: EINVAL");
	tap_is_long(fx2(&w, FUTEX_CMP_REQUEUE, 1, 1, &w2, 4), -EAGAIN, "CMP_REQUEUE whose word differs: EAGAIN");
	tap_is_long(fx2(&w, FUTEX_CMP_REQUEUE, 1, 1, &w2, 5), 0, "CMP_REQUEUE with nobody waiting: 0");
	tap_is_long(fx2(&w, FUTEX_REQUEUE, 1, 1, NULL, 5), -EFAULT, "REQUEUE (shared) to NULL: EFAULT");
	tap_is_long(fx((uint32_t *)8, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0), 0,
		    "WAKE_PRIVATE on an unmapped word: 0 (a private key needs no page)");

	/* WAKE_OP: the operation on *uaddr2 and its result with nobody to wake */
	w2 = 10;
	tap_ok(fx2(&w, FUTEX_WAKE_OP, 1, 1, &w2, OP(OP_SET, 7, CMP_EQ, 10)) == 0 && w2 == 7, "WAKE_OP SET: 7 (%u)", (unsigned)w2);
	tap_ok(fx2(&w, FUTEX_WAKE_OP, 1, 1, &w2, OP(OP_ADD, -3, CMP_EQ, 0)) == 0 && w2 == 4, "WAKE_OP ADD -3: 4 (%u)", (unsigned)w2);
	tap_ok(fx2(&w, FUTEX_WAKE_OP, 1, 1, &w2, OP(OP_OR, 0x30, CMP_EQ, 0)) == 0 && w2 == 0x34, "WAKE_OP OR: 0x34 (%#x)", (unsigned)w2);
	tap_ok(fx2(&w, FUTEX_WAKE_OP, 1, 1, &w2, OP(OP_ANDN, 0x24, CMP_EQ, 0)) == 0 && w2 == 0x10, "WAKE_OP ANDN: 0x10 (%#x)", (unsigned)w2);
	tap_ok(fx2(&w, FUTEX_WAKE_OP, 1, 1, &w2, OP(OP_XOR, 0x11, CMP_EQ, 0)) == 0 && w2 == 1, "WAKE_OP XOR: 1 (%#x)", (unsigned)w2);
	tap_ok(fx2(&w, FUTEX_WAKE_OP, 1, 1, &w2, OP(OP_SET | OP_OPARG_SHIFT, 5, CMP_EQ, 0)) == 0 && w2 == 32,
	       "WAKE_OP SET with FUTEX_OP_OPARG_SHIFT: 1 << 5 (%u)", (unsigned)w2);
	tap_ok(fx2(&w, FUTEX_WAKE_OP, 1, 1, &w2, OP(5, 1, CMP_EQ, 0)) == -ENOSYS && w2 == 32,
	       "WAKE_OP with an unknown op: ENOSYS, the word unchanged (%u)", (unsigned)w2);
	tap_ok(fx2(&w, FUTEX_WAKE_OP, 1, 1, &w2, OP(OP_SET, 9, 6, 0)) == -ENOSYS && w2 == 9,
	       "WAKE_OP with an unknown comparison: ENOSYS after the store (%u)", (unsigned)w2);
	tap_is_long(fx2(&w, FUTEX_WAKE_OP, 1, 1, (uint32_t *)8, OP(OP_SET, 1, CMP_EQ, 0)), -EFAULT,
		    "WAKE_OP on an unmapped second word: EFAULT");
	{
		uint32_t *ro = mmap(NULL, (size_t)getpagesize(), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		tap_is_long(fx2(&w, FUTEX_WAKE_OP, 1, 1, ro, OP(OP_SET, 1, CMP_EQ, 0)), -EFAULT,
			    "WAKE_OP on a read-only second word: EFAULT");
		tap_is_long(fx(ro, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0), -EAGAIN,
			    "WAIT_PRIVATE on a read-only word that differs: EAGAIN");
		tap_is_long(fx(ro, FUTEX_WAIT, 1, NULL, NULL, 0), -EFAULT,
			    "WAIT (shared) on read-only private anonymous memory: EFAULT (no page to name)");
		munmap(ro, (size_t)getpagesize());
	}

	/* EINTR: a handler without SA_RESTART ends a wait with no timeout */
	struct sigaction sa;
	struct itimerval it = { { 0, 0 }, { 0, 30000 } };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	r = fx(&w, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 5, NULL, NULL, 0);
	tap_is_long(r, -EINTR, "WAIT interrupted by a handled signal: EINTR");
	setitimer(ITIMER_REAL, &it, NULL);
	ts.tv_sec = 2;
	r = fx(&w, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 5, &ts, NULL, 0);
	tap_is_long(r, -EINTR, "WAIT with a timeout interrupted by a handled signal: EINTR");
	signal(SIGALRM, SIG_DFL);
}

/* Waiters in forked children on one MAP_SHARED page. */
static void shared(volatile uint32_t *m)
{
	volatile uint32_t *a = m, *b = m + 16;
	pid_t p1, p2;
	long r;

	*a = 1;
	*b = 2;
	p1 = waiter(a, FUTEX_WAIT, 0);
	tap_ok(await_waiters(a, 1), "a forked child waits on a shared futex (CMP_REQUEUE counts 1)");
	tap_is_long(fx(a, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0), 0,
		    "WAKE_PRIVATE from another process finds nobody (private keys are per address space)");
	tap_is_long(fx(a, FUTEX_WAKE, 1, NULL, NULL, 0), 1, "WAKE (shared) wakes it: 1");
	tap_is_long(status_of(p1), 0, "the child's WAIT returned 0");

	p1 = waiter(a, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0);
	usleep(100000);
	tap_is_long(fx(a, FUTEX_WAKE, 1, NULL, NULL, 0), 0,
		    "a child waiting with WAIT_PRIVATE is not woken by a shared WAKE from its parent");
	kill(p1, SIGKILL);
	status_of(p1);

	p1 = waiter(a, FUTEX_WAIT, 0);
	p2 = waiter(a, FUTEX_WAIT, 0);
	tap_ok(await_waiters(a, 2), "two children wait on the word");
	tap_is_long(fx(a, FUTEX_WAKE, 0, NULL, NULL, 0), 1, "WAKE with nr 0 wakes one (as Linux)");
	tap_ok(await_waiters(a, 1), "one still waits");
	tap_is_long(fx(a, FUTEX_WAKE, 1, NULL, NULL, 0), 1, "WAKE wakes the other");
	tap_ok(status_of(p1) == 0 && status_of(p2) == 0, "both children's WAITs returned 0");

	p1 = waiter(a, FUTEX_WAIT, 0);
	p2 = waiter(a, FUTEX_WAIT, 0);
	tap_ok(await_waiters(a, 2), "two children wait on A");
	r = fx2(a, FUTEX_REQUEUE, 1, 1, b, 0);
	tap_is_long(r, 2, "REQUEUE(A -> B, wake 1, requeue 1): 2 (woken + moved)");
	tap_ok(await_waiters(a, 0) && await_waiters(b, 1), "then nobody waits on A and one on B");
	tap_is_long(fx(b, FUTEX_WAKE, 5, NULL, NULL, 0), 1, "WAKE on B wakes the moved waiter");
	tap_ok(status_of(p1) == 0 && status_of(p2) == 0, "both WAITs returned 0");

	p1 = waiter(a, FUTEX_WAIT, 0);
	p2 = waiter(a, FUTEX_WAIT, 0);
	tap_ok(await_waiters(a, 2), "two children wait on A again");
	tap_is_long(fx2(a, FUTEX_CMP_REQUEUE, 0, 1, b, *a + 1), -EAGAIN, "CMP_REQUEUE with a stale value: EAGAIN");
	tap_is_long(fx2(a, FUTEX_CMP_REQUEUE, 0, 1, b, *a), 1, "CMP_REQUEUE(wake 0, requeue 1): 1");
	tap_ok(await_waiters(a, 1) && await_waiters(b, 1), "one waits on A, one on B");
	*b = 2;
	r = fx2(a, FUTEX_WAKE_OP, 1, 1, b, OP(OP_ADD, 1, CMP_EQ, 2));
	tap_ok(r == 2 && *b == 3, "WAKE_OP(A, B: ADD 1, oldval == 2) wakes both: %ld, B %u", r, (unsigned)*b);
	tap_ok(status_of(p1) == 0 && status_of(p2) == 0, "both WAITs returned 0");

	p1 = waiter(a, FUTEX_WAIT, 0);
	tap_ok(await_waiters(a, 1), "a child waits on A");
	r = fx2(a, FUTEX_WAKE_OP, 0, 1, b, OP(OP_SET, 0, CMP_NE, 3));
	tap_ok(r == 1 && *b == 0, "WAKE_OP with nr_wake 0 and a false comparison still wakes one on A: %ld", r);
	tap_is_long(status_of(p1), 0, "its WAIT returned 0");

	p1 = waiter(a, FUTEX_WAIT_BITSET, 1);
	p2 = waiter(a, FUTEX_WAIT_BITSET, 6);
	tap_ok(await_waiters(a, 2), "two children wait with bitsets 1 and 6");
	tap_is_long(fx(a, FUTEX_WAKE_BITSET, 10, NULL, NULL, 8), 0, "WAKE_BITSET 8 wakes nobody");
	tap_is_long(fx(a, FUTEX_WAKE_BITSET, 10, NULL, NULL, 4), 1, "WAKE_BITSET 4 wakes the bitset-6 waiter");
	tap_is_long(status_of(p2), 0, "its WAIT_BITSET returned 0");
	tap_is_long(fx(a, FUTEX_WAKE, 10, NULL, NULL, 0), 1, "a plain WAKE wakes the bitset-1 waiter");
	tap_is_long(status_of(p1), 0, "its WAIT_BITSET returned 0");

	p1 = waiter(a, FUTEX_WAIT, 0);
	tap_ok(await_waiters(a, 1), "a child waits with a 3 s timeout");
	kill(p1, SIGKILL);
	tap_is_long(status_of(p1), 100 + SIGKILL, "SIGKILL ends the wait (the child dies)");
	tap_ok(await_waiters(a, 0), "and it no longer waits");
}

/* The robust list: the head and one entry whose futex the child owns. */
struct robust_entry {
	void *next;
	uint32_t word;
};
struct robust_head {
	void *next;
	long futex_offset;
	void *pending;
};

static void robust(volatile uint32_t *m)
{
	struct robust_head *h = (struct robust_head *)(m + 64);
	struct robust_entry *e = (struct robust_entry *)(m + 128), *e2 = (struct robust_entry *)(m + 160);
	volatile uint32_t *tidw = m + 192;
	void *got = NULL;
	size_t len = 0;
	pid_t pid;
	long r;

	tap_is_long(syscall(SYS_set_robust_list, h, sizeof(*h) + 1) < 0 ? -errno : 0, -EINVAL,
		    "set_robust_list with a wrong size: EINVAL");
	tap_ok(syscall(SYS_set_robust_list, h, sizeof(*h)) == 0 && syscall(SYS_get_robust_list, 0, &got, &len) == 0 &&
	       got == h && len == sizeof(*h), "get_robust_list returns the head set and its size");
	syscall(SYS_set_robust_list, NULL, sizeof(*h));
	pid = fork();
	if (pid == 0) {
		uint32_t me = (uint32_t)syscall(SYS_gettid);

		h->next = e;
		h->futex_offset = (long)offsetof(struct robust_entry, word);
		h->pending = e2;
		e->next = h;
		e->word = me | FUTEX_WAITERS;	/* held by us, with a waiter */
		e2->word = 0;			/* being taken: not ours yet */
		*tidw = me;
		syscall(SYS_set_robust_list, h, sizeof(*h));
		/* wait until the parent waits on both words, then die holding one */
		for (int i = 0; i < 500 && (waiters(&e->word) != 1 || waiters(&e2->word) != 1); i++)
			usleep(10000);
		_exit(0);
	}
	while (!*tidw)
		usleep(1000);
	pid_t p2 = fork();

	if (p2 == 0) {	/* a second waiter, on the pending entry's word */
		struct timespec ts = { 3, 0 };

		_exit(fx(&e2->word, FUTEX_WAIT, 0, &ts, NULL, 0) == 0 ? 0 : 1);
	}
	struct timespec ts = { 3, 0 };

	r = fx(&e->word, FUTEX_WAIT, *tidw | FUTEX_WAITERS, &ts, NULL, 0);
	tap_is_long(r, 0, "a waiter on a robust futex is woken when its owner dies");
	tap_ok(e->word == (FUTEX_WAITERS | FUTEX_OWNER_DIED), "the word becomes FUTEX_WAITERS|FUTEX_OWNER_DIED (%#x)",
	       (unsigned)e->word);
	tap_is_long(status_of(p2), 0, "the waiter on list_op_pending's word (value 0) is woken too");
	tap_is_long(status_of(pid), 0, "the owner exited");
}

int main(void)
{
	size_t pg = (size_t)getpagesize();
	volatile uint32_t *m = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	tap_init();
	errnos();
	shared(m);
	robust(m);
	return tap_done();
}
