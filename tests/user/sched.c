/* sched.c - time and scheduling: CLOCK_MONOTONIC advances, nanosleep
 * sleeps at least as long as asked and checks its argument, sched_yield,
 * and preemption: a child that spins forever neither starves its parent
 * nor is starved by a parent that spins.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <sys/wait.h>
#include "tap.h"

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void test_clock(void)
{
	struct timespec a, b;
	volatile long spin = 0;

	tap_ok(clock_gettime(CLOCK_MONOTONIC, &a) == 0 && a.tv_nsec >= 0 && a.tv_nsec < 1000000000L,
	       "clock_gettime(CLOCK_MONOTONIC) gives a normalized time (%ld.%09ld)", (long)a.tv_sec, a.tv_nsec);
	for (long i = 0; i < 1000000; i++)
		spin += i;
	clock_gettime(CLOCK_MONOTONIC, &b);
	tap_ok(b.tv_sec > a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec > a.tv_nsec),
	       "CLOCK_MONOTONIC advances across a busy loop");
	tap_ok(clock_gettime(CLOCK_REALTIME, &a) == 0, "clock_gettime(CLOCK_REALTIME) works");
	errno = 0;
	tap_ok(clock_gettime(12345, &a) == -1 && errno == EINVAL, "an unknown clock id: EINVAL (errno %d)", errno);
}

static void test_nanosleep(void)
{
	struct timespec ts = { 0, 50 * 1000000L };
	long long t0 = now_ns(), dt;
	int r = nanosleep(&ts, NULL);

	dt = now_ns() - t0;
	tap_ok(r == 0 && dt >= 50000000LL && dt < 5000000000LL, "nanosleep(50 ms) sleeps at least 50 ms (%lld us)",
	       dt / 1000);
	ts.tv_nsec = 1000000000L;
	errno = 0;
	tap_ok(nanosleep(&ts, NULL) == -1 && errno == EINVAL, "nanosleep with tv_nsec = 1e9: EINVAL");
	ts.tv_sec = -1;
	ts.tv_nsec = 0;
	errno = 0;
	tap_ok(nanosleep(&ts, NULL) == -1 && errno == EINVAL, "nanosleep with tv_sec < 0: EINVAL");
	ts.tv_sec = 0;
	tap_ok(nanosleep(&ts, NULL) == 0, "nanosleep(0) returns at once");
	tap_ok(sched_yield() == 0, "sched_yield() returns 0");
}

static volatile sig_atomic_t child_running;

static void on_usr1(int sig)
{
	(void)sig;
	child_running = 1;
}

/* The child tells the parent it runs, then spins forever without a system
 * call. The parent spins too until it hears from the child (so the child
 * must have preempted it), then kills it (so it must have preempted the
 * child). */
static void test_preemption(void)
{
	struct sigaction sa;
	long long deadline;
	unsigned long spins = 0;
	pid_t parent = getpid(), pid;
	int st = -1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	pid = fork();
	if (pid == 0) {
		volatile unsigned long n = 0;

		kill(parent, SIGUSR1);
		for (;;)
			n++;
	}
	deadline = now_ns() + 20000000000LL;
	while (!child_running) {
		if ((++spins & 0xfffff) == 0 && now_ns() > deadline)
			break;
	}
	tap_ok(child_running, "a child gets the CPU while its parent spins (%lu spins)", spins);
	tap_ok(kill(pid, SIGKILL) == 0, "the parent runs while the child spins, and kills it");
	waitpid(pid, &st, 0);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "the spinning child died of SIGKILL (status 0x%x)", st);
	signal(SIGUSR1, SIG_DFL);
}

int main(void)
{
	tap_init();
	test_clock();
	test_nanosleep();
	test_preemption();
	return tap_done();
}
