/* sigrestart.c - interrupted system calls and job-control stops:
 * a handled signal during wait4 or a pipe read restarts the call with
 * SA_RESTART and makes it EINTR without; nanosleep is EINTR with the time
 * left either way; a stop and SIGCONT (no handler runs) resume wait4,
 * read and nanosleep transparently (nanosleep for the time left only);
 * SIGSTOP/SIGTSTP stop, SIGCONT continues, SIGKILL kills a stopped child,
 * and wait4 reports them under WUNTRACED/WCONTINUED.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "tap.h"

static volatile sig_atomic_t usr1_count;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_count++;
}

static void handle_usr1(int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	usr1_count = 0;
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

static int reap(pid_t pid)
{
	int st = -1;

	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

/* A child that signals us after delay_ms, then exits with code after
 * another delay_ms. */
static pid_t signaller(long delay_ms, int code)
{
	pid_t pid = fork();

	if (pid == 0) {
		sleep_ms(delay_ms);
		kill(getppid(), SIGUSR1);
		sleep_ms(delay_ms);
		_exit(code);
	}
	return pid;
}

static void test_wait4(void)
{
	int st = -1;
	pid_t c, r;

	handle_usr1(SA_RESTART);
	c = signaller(100, 7);
	r = waitpid(c, &st, 0);
	tap_ok(r == c && usr1_count == 1 && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	       "SA_RESTART: wait4 runs the handler and goes on waiting (ret %d, handler %d)", (int)r, (int)usr1_count);

	handle_usr1(0);
	c = signaller(100, 8);
	errno = 0;
	r = waitpid(c, &st, 0);
	tap_ok(r == -1 && errno == EINTR && usr1_count == 1, "no SA_RESTART: wait4 returns EINTR (ret %d, errno %d)",
	       (int)r, errno);
	st = reap(c);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 8, "the child is still there to reap");
}

static void test_pipe_read(void)
{
	int p[2];
	char c = 0;
	ssize_t n;
	pid_t pid;

	for (int restart = 1; restart >= 0; restart--) {
		if (pipe(p))
			return;
		handle_usr1(restart ? SA_RESTART : 0);
		pid = fork();
		if (pid == 0) {
			close(p[0]);
			sleep_ms(100);
			kill(getppid(), SIGUSR1);
			sleep_ms(100);
			write(p[1], "x", 1);
			_exit(0);
		}
		close(p[1]);
		errno = 0;
		n = read(p[0], &c, 1);
		if (restart)
			tap_ok(n == 1 && c == 'x' && usr1_count == 1,
			       "SA_RESTART: a pipe read runs the handler and gets the byte written later (ret %ld)", (long)n);
		else
			tap_ok(n == -1 && errno == EINTR && usr1_count == 1,
			       "no SA_RESTART: a pipe read returns EINTR (ret %ld, errno %d)", (long)n, errno);
		reap(pid);
		close(p[0]);
	}
}

static void test_nanosleep(void)
{
	struct timespec req = { 2, 0 }, rem = { 0, 0 };
	pid_t c;
	int r;

	handle_usr1(SA_RESTART);
	c = signaller(100, 0);
	errno = 0;
	r = nanosleep(&req, &rem);
	tap_ok(r == -1 && errno == EINTR && usr1_count == 1, "nanosleep is EINTR even with SA_RESTART (ret %d, errno %d)",
	       r, errno);
	tap_ok(rem.tv_sec >= 1 && rem.tv_sec < 2 && rem.tv_nsec >= 0 && rem.tv_nsec < 1000000000,
	       "...with the time left in rem (%ld.%09ld s)", (long)rem.tv_sec, (long)rem.tv_nsec);
	reap(c);
	signal(SIGUSR1, SIG_DFL);
}

/* Stop c, check wait4's WUNTRACED report, continue it, check WCONTINUED. */
static int stop_and_continue(pid_t c, int stopsig)
{
	int st = -1, bad = 0;

	kill(c, stopsig);
	if (waitpid(c, &st, WUNTRACED) != c || !WIFSTOPPED(st) || WSTOPSIG(st) != stopsig)
		bad |= 1;
	sleep_ms(100);
	kill(c, SIGCONT);
	if (waitpid(c, &st, WCONTINUED) != c || !WIFCONTINUED(st))
		bad |= 2;
	return bad;
}

static void test_stop_restart(void)
{
	int p[2], st;
	pid_t c;
	char ch = 0;

	/* A read with no handler involved resumes after stop and continue. */
	if (pipe(p))
		return;
	c = fork();
	if (c == 0) {
		close(p[1]);
		ssize_t n = read(p[0], &ch, 1);

		_exit(n == 1 && ch == 'y' ? 0 : n < 0 ? 100 + errno : 99);
	}
	close(p[0]);
	sleep_ms(50);
	tap_ok(stop_and_continue(c, SIGSTOP) == 0, "SIGSTOP stops a child in read(); wait4 WUNTRACED and WCONTINUED report it");
	write(p[1], "y", 1);
	st = reap(c);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the read restarts after SIGCONT and gets the byte (status %d)",
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	close(p[1]);

	/* nanosleep resumes for the time left only. The child has a group of
	 * its own: in an orphaned group (ours may be, e.g. if it is init's)
	 * Linux ignores SIGTSTP's default stop. */
	c = fork();
	if (c == 0) {
		struct timespec req = { 0, 600000000 };

		setpgid(0, 0);
		long t0 = now_ms();
		int r = nanosleep(&req, NULL);
		long took = now_ms() - t0;

		_exit(r != 0 ? 1 : took < 600 ? 2 : took > 1500 ? 3 : 0);
	}
	setpgid(c, c);
	sleep_ms(100);
	tap_ok(stop_and_continue(c, SIGTSTP) == 0, "SIGTSTP (default action) stops a sleeping child; SIGCONT continues it");
	st = reap(c);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "nanosleep returns 0 after stop and continue, having slept its whole time once (code %d)",
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1);

	/* SIGKILL ends a stopped child; without WUNTRACED a stop is not reported. */
	c = fork();
	if (c == 0) {
		for (;;)
			sleep_ms(1000);
	}
	kill(c, SIGSTOP);
	sleep_ms(100);
	st = -1;
	tap_ok(waitpid(c, &st, WNOHANG) == 0, "without WUNTRACED wait4 does not report a stopped child");
	kill(c, SIGKILL);
	st = reap(c);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "SIGKILL kills a stopped child (%#x)", st);

	/* A child alone in a new session: its group is orphaned (no parent in
	 * another group of the session), so SIGTSTP's default is ignored. */
	c = fork();
	if (c == 0) {
		setsid();
		for (;;)
			sleep_ms(1000);
	}
	sleep_ms(100);
	kill(c, SIGTSTP);
	sleep_ms(100);
	tap_ok(waitpid(c, &st, WUNTRACED | WNOHANG) == 0, "SIGTSTP does not stop a process of an orphaned group");
	kill(c, SIGSTOP);
	st = -1;
	waitpid(c, &st, WUNTRACED);
	tap_ok(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "SIGSTOP still does (%#x)", st);
	kill(c, SIGKILL);
	reap(c);
}

int main(void)
{
	tap_init();
	test_wait4();
	test_pipe_read();
	test_nanosleep();
	test_stop_restart();
	return tap_done();
}
