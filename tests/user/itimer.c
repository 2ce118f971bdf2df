/* itimer.c - interval timers and resource usage: setitimer/getitimer for
 * ITIMER_REAL (one shot and periodic SIGALRM, the time left, the old value,
 * disarming), ITIMER_VIRTUAL and ITIMER_PROF (SIGVTALRM/SIGPROF after
 * CPU time), their EINVAL cases, alarm() and its rounding; a fork child
 * starts with no timers, an exec keeps them; wait4's and getrusage's
 * rusage (CPU time, maxrss, minor faults, the children's totals).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include "tap.h"

#define EXEC_FLAG "--itimer-after-exec"

static volatile sig_atomic_t n_alrm, n_vtalrm, n_prof;

static void on_sig(int sig)
{
	if (sig == SIGALRM)
		n_alrm++;
	else if (sig == SIGVTALRM)
		n_vtalrm++;
	else if (sig == SIGPROF)
		n_prof++;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int arm(int which, long value_ms, long interval_ms)
{
	struct itimerval v = { { interval_ms / 1000, (interval_ms % 1000) * 1000 },
			       { value_ms / 1000, (value_ms % 1000) * 1000 } };

	return setitimer(which, &v, NULL);
}

static long left_ms(int which)
{
	struct itimerval v;

	if (getitimer(which, &v))
		return -1;
	return v.it_value.tv_sec * 1000 + v.it_value.tv_usec / 1000;
}

/* Wait (sleeping) until *count reaches want or timeout_ms passes. */
static void wait_for(volatile sig_atomic_t *count, int want, long timeout_ms)
{
	long end = now_ms() + timeout_ms;

	while (*count < want && now_ms() < end)
		sleep_ms(5);
}

/* Spin in user mode until *count reaches want or timeout_ms of wall time. */
static void spin_for(volatile sig_atomic_t *count, int want, long timeout_ms)
{
	long end = now_ms() + timeout_ms;
	volatile unsigned long x = 0;

	while (*count < want && now_ms() < end)
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
}

static void test_real(void)
{
	struct itimerval v, old;
	long t0, took;

	signal(SIGALRM, on_sig);
	tap_ok(left_ms(ITIMER_REAL) == 0, "ITIMER_REAL starts disarmed");
	t0 = now_ms();
	tap_ok(arm(ITIMER_REAL, 300, 0) == 0, "setitimer(ITIMER_REAL, 300 ms)");
	long l = left_ms(ITIMER_REAL);

	tap_ok(l > 0 && l <= 300, "getitimer: the time left is in (0, 300] ms (%ld)", l);
	wait_for(&n_alrm, 1, 3000);
	took = now_ms() - t0;
	tap_ok(n_alrm == 1 && took >= 290, "one SIGALRM, after the time given (%ld ms)", took);
	tap_ok(left_ms(ITIMER_REAL) == 0, "a one-shot timer is disarmed after it fires");

	n_alrm = 0;
	t0 = now_ms();
	arm(ITIMER_REAL, 50, 50);
	wait_for(&n_alrm, 4, 3000);
	took = now_ms() - t0;
	tap_ok(n_alrm >= 4 && took >= 190, "a periodic 50 ms timer fires again and again (%d in %ld ms)", (int)n_alrm, took);
	memset(&old, 0, sizeof(old));
	memset(&v, 0, sizeof(v));
	tap_ok(setitimer(ITIMER_REAL, &v, &old) == 0 && old.it_interval.tv_sec == 0 &&
	       old.it_interval.tv_usec == 50000 && old.it_value.tv_usec > 0 && old.it_value.tv_usec <= 50000,
	       "disarming returns the old interval (50000 us) and time left (%ld us)", (long)old.it_value.tv_usec);
	int before = n_alrm;

	sleep_ms(200);
	tap_ok(n_alrm == before && left_ms(ITIMER_REAL) == 0, "no SIGALRM after disarming");
}

static void test_errors(void)
{
	struct itimerval v = { { 0, 0 }, { 0, 1000000 } };

	errno = 0;
	tap_ok(setitimer(ITIMER_REAL, &v, NULL) == -1 && errno == EINVAL, "setitimer: it_value.tv_usec 1000000 is EINVAL");
	v.it_value.tv_usec = 0;
	v.it_interval.tv_usec = -1;
	errno = 0;
	tap_ok(setitimer(ITIMER_REAL, &v, NULL) == -1 && errno == EINVAL, "setitimer: a negative it_interval.tv_usec is EINVAL");
	errno = 0;
	tap_ok(setitimer(3, &v, NULL) == -1 && errno == EINVAL, "setitimer: which 3 is EINVAL");
	errno = 0;
	tap_ok(getitimer(-1, &v) == -1 && errno == EINVAL, "getitimer: which -1 is EINVAL");
}

static void test_alarm(void)
{
	tap_ok(alarm(5) == 0, "alarm(5) with none pending returns 0");
	tap_ok(alarm(7) == 5, "alarm(7) returns the 5 s left (rounded)");
	unsigned left = alarm(0);

	tap_ok(left == 7 && left_ms(ITIMER_REAL) == 0, "alarm(0) cancels and returns 7 (%u)", left);
	arm(ITIMER_REAL, 300, 0);
	left = alarm(0);
	tap_ok(left == 1, "alarm(0) with 0.3 s left returns 1: at least a second when time was left (%u)", left);
}

static void test_cpu_timers(void)
{
	signal(SIGVTALRM, on_sig);
	signal(SIGPROF, on_sig);
	tap_ok(arm(ITIMER_VIRTUAL, 100, 0) == 0, "setitimer(ITIMER_VIRTUAL, 100 ms)");
	spin_for(&n_vtalrm, 1, 5000);
	tap_ok(n_vtalrm == 1, "SIGVTALRM after 100 ms of CPU time");
	tap_ok(arm(ITIMER_PROF, 100, 100) == 0, "setitimer(ITIMER_PROF, 100 ms, periodic)");
	spin_for(&n_prof, 2, 5000);
	tap_ok(n_prof >= 2, "SIGPROF twice after 200 ms of CPU time (%d)", (int)n_prof);
	arm(ITIMER_PROF, 0, 0);
	tap_ok(left_ms(ITIMER_PROF) == 0 && left_ms(ITIMER_VIRTUAL) == 0, "both disarmed");
}

static void test_fork_exec(const char *self)
{
	pid_t c;
	int st = -1;

	arm(ITIMER_REAL, 10000, 0);
	c = fork();
	if (c == 0)
		_exit(left_ms(ITIMER_REAL) == 0 ? 0 : 1);
	waitpid(c, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a fork child starts with ITIMER_REAL disarmed");
	c = fork();
	if (c == 0) {
		char *argv[] = { (char *)self, EXEC_FLAG, NULL };

		arm(ITIMER_REAL, 10000, 0);	/* our own: fork gave us none */
		execve(self, argv, environ);
		_exit(3);
	}
	waitpid(c, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "an exec keeps the process's ITIMER_REAL (status %#x)", st);
	arm(ITIMER_REAL, 0, 0);
}

static void test_rusage(void)
{
	struct rusage ru, kids;
	pid_t c;
	int st;

	c = fork();
	if (c == 0) {
		size_t len = 100 * (size_t)getpagesize();
		char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		volatile sig_atomic_t never = 0;

		if (m == MAP_FAILED)
			_exit(1);
		for (size_t i = 0; i < len; i += (size_t)getpagesize())
			m[i] = 1;
		spin_for(&never, 1, 300);
		_exit(0);
	}
	memset(&ru, 0, sizeof(ru));
	tap_ok(wait4(c, &st, 0, &ru) == c, "wait4 with a rusage");
	long cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
		      (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;

	tap_ok(cpu_ms >= 150, "the child's user + system time covers its 300 ms spin (%ld ms)", cpu_ms);
	tap_ok(ru.ru_utime.tv_sec * 1000 + ru.ru_utime.tv_usec / 1000 >= 100, "most of it is user time (%ld.%06ld s)",
	       (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec);
	tap_ok(ru.ru_minflt >= 100, "its minor faults count its 100 touched pages (%ld)", ru.ru_minflt);
	tap_ok(ru.ru_maxrss >= 200, "its maxrss counts them: at least 200 KiB (Linux counts lazily) (%ld)", ru.ru_maxrss);
	memset(&kids, 0, sizeof(kids));
	tap_ok(getrusage(RUSAGE_CHILDREN, &kids) == 0 && kids.ru_minflt >= ru.ru_minflt &&
	       kids.ru_utime.tv_sec * 1000000 + kids.ru_utime.tv_usec >= ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
	       "getrusage(RUSAGE_CHILDREN) includes the reaped child");
}

int main(int argc, char **argv)
{
	const char *self = argc > 0 && argv[0][0] == '/' ? argv[0] : "/bin/itimer";

	if (argc == 2 && !strcmp(argv[1], EXEC_FLAG)) {
		long l = left_ms(ITIMER_REAL);

		return l > 0 && l <= 10000 ? 0 : 2;
	}
	tap_init();
	test_real();
	test_errors();
	test_alarm();
	test_cpu_timers();
	test_fork_exec(self);
	test_rusage();
	return tap_done();
}
