/* signal.c - rt_sigaction, rt_sigprocmask, kill and delivery: handler
 * arguments, masks during a handler, blocking and pending, no queueing of
 * standard signals, SIG_IGN, default actions (terminate, ignore), signals
 * that cannot be caught, invalid numbers, SA_RESETHAND, SIGCHLD with
 * siginfo, EINTR from nanosleep, nested handlers, sigsuspend.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"

static volatile sig_atomic_t count_usr1, count_usr2;
static volatile int info_signo, info_code, info_pid, info_uid, usr1_blocked_inside, usr2_blocked_inside;
static volatile int chld_code, chld_pid, chld_status;
static char order[16];
static volatile int order_len;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int install(int sig, void (*fn)(int, siginfo_t *, void *), int flags, int also_mask)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	if (also_mask)
		sigaddset(&sa.sa_mask, also_mask);
	return sigaction(sig, &sa, NULL);
}

static int blocked(int sig)
{
	sigset_t cur;

	sigprocmask(SIG_BLOCK, NULL, &cur);
	return sigismember(&cur, sig) == 1;
}

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	count_usr1++;
	info_signo = si->si_signo;
	info_code = si->si_code;
	info_pid = si->si_pid;
	info_uid = (int)si->si_uid;
	usr1_blocked_inside = blocked(sig);
	usr2_blocked_inside = blocked(SIGUSR2);
}

static void test_handler(void)
{
	struct sigaction old;

	memset(&old, 0xff, sizeof(old));
	tap_ok(sigaction(SIGUSR1, NULL, &old) == 0 && old.sa_handler == SIG_DFL,
	       "sigaction reports SIG_DFL for SIGUSR1 at start");
	tap_ok(install(SIGUSR1, on_usr1, 0, SIGUSR2) == 0, "sigaction(SIGUSR1, SA_SIGINFO handler)");
	tap_ok(kill(getpid(), SIGUSR1) == 0 && count_usr1 == 1, "handler runs before kill() to self returns");
	tap_ok(info_signo == SIGUSR1 && info_code == SI_USER, "siginfo: si_signo SIGUSR1, si_code SI_USER (%d, %d)",
	       info_signo, info_code);
	tap_ok(info_pid == getpid() && info_uid == (int)getuid(), "siginfo: si_pid and si_uid are the sender's (%d, %d)",
	       info_pid, info_uid);
	tap_ok(usr1_blocked_inside && usr2_blocked_inside,
	       "inside the handler its own signal and sa_mask are blocked (%d, %d)",
	       usr1_blocked_inside, usr2_blocked_inside);
	tap_ok(!blocked(SIGUSR1) && !blocked(SIGUSR2), "after the handler the mask is restored");
	count_usr1 = 0;
	raise(SIGUSR1);
	tap_is_long(count_usr1, 1, "raise() delivers to the caller");
}

static void test_block_pending(void)
{
	sigset_t set, pending;

	count_usr1 = 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	tap_ok(sigprocmask(SIG_BLOCK, &set, NULL) == 0 && blocked(SIGUSR1), "sigprocmask(SIG_BLOCK) blocks SIGUSR1");
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);
	tap_is_long(count_usr1, 0, "a blocked signal is not delivered");
	sigemptyset(&pending);
	tap_ok(sigpending(&pending) == 0 && sigismember(&pending, SIGUSR1) == 1, "sigpending shows it");
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	tap_is_long(count_usr1, 1, "unblocking delivers it, once: standard signals do not queue");
	sigpending(&pending);
	tap_ok(sigismember(&pending, SIGUSR1) == 0, "nothing pending afterwards");
}

static void test_ignore(void)
{
	sigset_t pending;

	tap_ok(signal(SIGUSR2, SIG_IGN) != SIG_ERR, "signal(SIGUSR2, SIG_IGN)");
	tap_ok(kill(getpid(), SIGUSR2) == 0, "an ignored signal is discarded; the process goes on");
	sigpending(&pending);
	tap_ok(sigismember(&pending, SIGUSR2) == 0, "an ignored signal is not left pending");
	signal(SIGUSR2, SIG_DFL);
}

static int child_status(int sig_to_self)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		signal(sig_to_self, SIG_DFL);
		kill(getpid(), sig_to_self);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	return st;
}

static void test_default_actions(void)
{
	int st = child_status(SIGUSR1);

	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR1, "default action of SIGUSR1 terminates (0x%x)", st);
	st = child_status(SIGCHLD);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "default action of SIGCHLD is to ignore (0x%x)", st);
	st = child_status(SIGWINCH);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "default action of SIGWINCH is to ignore (0x%x)", st);
}

static void test_uncatchable_invalid(void)
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	errno = 0;
	tap_ok(sigaction(SIGKILL, &sa, NULL) == -1 && errno == EINVAL, "SIGKILL cannot be ignored: EINVAL");
	errno = 0;
	tap_ok(sigaction(SIGSTOP, &sa, NULL) == -1 && errno == EINVAL, "SIGSTOP cannot be ignored: EINVAL");
	sigemptyset(&set);
	sigaddset(&set, SIGKILL);
	sigprocmask(SIG_BLOCK, &set, NULL);
	tap_ok(!blocked(SIGKILL), "SIGKILL cannot be blocked (silently left out of the mask)");
	errno = 0;
	tap_ok(syscall(SYS_rt_sigaction, 0, NULL, NULL, 8) == -1 && errno == EINVAL, "rt_sigaction(0): EINVAL");
	errno = 0;
	tap_ok(syscall(SYS_rt_sigaction, 65, NULL, NULL, 8) == -1 && errno == EINVAL, "rt_sigaction(65): EINVAL");
	errno = 0;
	tap_ok(kill(getpid(), 65) == -1 && errno == EINVAL, "kill with signal 65: EINVAL");
	tap_ok(kill(getpid(), 0) == 0, "kill(self, 0) checks existence and succeeds");
}

static void on_usr1_count(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	count_usr1++;
}

static void test_resethand(void)
{
	struct sigaction old;

	count_usr1 = 0;
	install(SIGUSR1, on_usr1_count, SA_RESETHAND, 0);
	kill(getpid(), SIGUSR1);
	tap_is_long(count_usr1, 1, "SA_RESETHAND: the handler runs once");
	sigaction(SIGUSR1, NULL, &old);
	tap_ok(old.sa_handler == SIG_DFL, "SA_RESETHAND: the action is SIG_DFL afterwards");
}

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	chld_code = si->si_code;
	chld_pid = si->si_pid;
	chld_status = si->si_status;
}

static void test_sigchld(void)
{
	pid_t pid;
	int st;

	install(SIGCHLD, on_chld, SA_RESTART, 0);
	pid = fork();
	if (pid == 0)
		_exit(5);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	tap_ok(chld_pid == pid && chld_code == CLD_EXITED && chld_status == 5,
	       "SIGCHLD at child exit: si_pid, si_code CLD_EXITED, si_status 5 (%d, %d, %d)",
	       chld_pid, chld_code, chld_status);
	signal(SIGCHLD, SIG_DFL);
}

static void test_eintr(void)
{
	struct timespec req = { 5, 0 }, rem = { 0, 0 };
	pid_t parent = getpid(), pid;
	int r;

	count_usr1 = 0;
	install(SIGUSR1, on_usr1_count, 0, 0);
	/* The child signals every 30 ms until killed: on a loaded host the
	 * first signal may come before the parent is in nanosleep. */
	pid = fork();
	if (pid == 0) {
		for (;;) {
			sleep_ms(30);
			kill(parent, SIGUSR1);
		}
	}
	errno = 0;
	r = nanosleep(&req, &rem);
	int err = errno;

	kill(pid, SIGKILL);
	tap_ok(r == -1 && err == EINTR && count_usr1 >= 1, "a caught signal interrupts nanosleep: EINTR (errno %d)", err);
	tap_ok(rem.tv_sec < 5 && (rem.tv_sec > 0 || rem.tv_nsec > 0),
	       "nanosleep reports the time left (%ld.%09ld s)", (long)rem.tv_sec, rem.tv_nsec);
	waitpid(pid, NULL, 0);
}

static void on_usr2_nested(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	order[order_len++] = '2';
}

static void on_usr1_nested(int sig, siginfo_t *si, void *uc)
{
	volatile long keep = 0x1234567;

	(void)sig, (void)si, (void)uc;
	order[order_len++] = '(';
	kill(getpid(), SIGUSR2);
	order[order_len++] = keep == 0x1234567 ? ')' : '!';
}

static void test_nested(void)
{
	volatile long a = 11, b = 22, c = 33;

	order_len = 0;
	install(SIGUSR1, on_usr1_nested, 0, 0);
	install(SIGUSR2, on_usr2_nested, 0, 0);
	kill(getpid(), SIGUSR1);
	order[order_len] = 0;
	tap_ok(!strcmp(order, "(2)"), "a signal raised inside a handler runs nested in it (\"%s\")", order);
	tap_ok(a == 11 && b == 22 && c == 33, "the interrupted code's variables survive two signal frames");
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

static void test_sigsuspend(void)
{
	sigset_t set, old, wait_mask;
	pid_t parent = getpid(), pid;
	int r;

	count_usr1 = 0;
	install(SIGUSR1, on_usr1_count, 0, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	pid = fork();
	if (pid == 0) {
		sleep_ms(20);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	wait_mask = old;
	sigdelset(&wait_mask, SIGUSR1);
	errno = 0;
	r = sigsuspend(&wait_mask);
	tap_ok(r == -1 && errno == EINTR && count_usr1 == 1, "sigsuspend returns EINTR after the handler ran");
	tap_ok(blocked(SIGUSR1), "sigsuspend restores the previous mask");
	sigprocmask(SIG_SETMASK, &old, NULL);
	waitpid(pid, NULL, 0);
	signal(SIGUSR1, SIG_DFL);
}

int main(void)
{
	tap_init();
	test_handler();
	test_block_pending();
	test_ignore();
	test_default_actions();
	test_uncatchable_invalid();
	test_resethand();
	test_sigchld();
	test_eintr();
	test_nested();
	test_sigsuspend();
	return tap_done();
}
