/* pgrp.c - process groups and sessions: getpgid/getpgrp/getsid, setpgid's
 * rules and errnos (EINVAL, ESRCH, EPERM across sessions and for a session
 * leader, EACCES after the child's exec), setsid (a new session and group;
 * EPERM for a group leader), inheritance by fork and exec, and kill() to
 * a group (kill(-pgid), kill(0)) and to everyone (kill(-1)).
 *
 * Nothing here assumes init's own session or group (Linux starts pid 1 in
 * session 0): only relations between the test's processes are checked.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "tap.h"

#define WAIT_FLAG "--wait-on-fd"

static const char *self = "/bin/pgrp";
static volatile sig_atomic_t usr1_count;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_count++;
}

static int reap(pid_t pid)
{
	int st = -1;

	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

/* A child that waits until the pipe's write end closes, then exits 0. */
static pid_t child_waiting(int *wfd)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		while (read(p[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(p[0]);
	*wfd = p[1];
	return pid;
}

static void test_ids(void)
{
	tap_ok(getpgrp() == getpgid(0) && getpgid(0) == getpgid(getpid()),
	       "getpgrp() == getpgid(0) == getpgid(getpid()) (%d)", (int)getpgrp());
	tap_ok(getsid(0) == getsid(getpid()), "getsid(0) == getsid(getpid())");
	errno = 0;
	tap_ok(getpgid(999999) == -1 && errno == ESRCH, "getpgid(no such pid): ESRCH");
	errno = 0;
	tap_ok(getsid(999999) == -1 && errno == ESRCH, "getsid(no such pid): ESRCH");
	errno = 0;
	tap_ok(setpgid(0, -1) == -1 && errno == EINVAL, "setpgid(0, -1): EINVAL");
	errno = 0;
	tap_ok(setpgid(999999, 0) == -1 && errno == ESRCH, "setpgid(no such pid): ESRCH");
	errno = 0;
	tap_ok(setpgid(1, 1) == -1 && errno == ESRCH, "setpgid(init, ...): not our child: ESRCH");
}

static void test_setpgid_child(void)
{
	int wfd;
	pid_t c = child_waiting(&wfd);

	tap_ok(getpgid(c) == getpgrp() && getsid(c) == getsid(0), "a forked child is in its parent's group and session");
	tap_ok(setpgid(c, c) == 0 && getpgid(c) == c, "setpgid(child, child): a new group led by the child");
	tap_ok(setpgid(c, getpgrp()) == 0 && getpgid(c) == getpgrp(), "setpgid(child, our group) moves it back");
	errno = 0;
	tap_ok(setpgid(c, 999999) == -1 && errno == EPERM, "setpgid(child, no such group): EPERM");
	tap_ok(setpgid(c, 0) == 0 && getpgid(c) == c, "setpgid(child, 0) means the child's pid");
	close(wfd);
	int st = reap(c);

	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child exits normally");
}

/* Child: its own session. Exit code bits name the checks that failed. */
static int session_child(void)
{
	int bad = 0;
	pid_t me = getpid();

	if (setsid() != me)
		bad |= 1;
	if (getsid(0) != me || getpgrp() != me)
		bad |= 2;
	errno = 0;
	if (setsid() != -1 || errno != EPERM)
		bad |= 4;
	errno = 0;
	if (setpgid(0, 0) != -1 || errno != EPERM)	/* a session leader cannot move */
		bad |= 8;
	return bad;
}

static void test_setsid(void)
{
	int p[2], sync[2];
	char c;
	pid_t pid;

	if (pipe(p) || pipe(sync))
		return;
	pid = fork();
	if (pid == 0) {
		int bad = session_child();

		close(sync[0]);
		close(p[1]);
		write(sync[1], "s", 1);
		while (read(p[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(bad);
	}
	close(sync[1]);
	close(p[0]);
	while (read(sync[0], &c, 1) < 0 && errno == EINTR)
		;
	tap_ok(getsid(pid) == pid && getpgid(pid) == pid, "after setsid() the child leads its session and group");
	errno = 0;
	tap_ok(setpgid(pid, pid) == -1 && errno == EPERM, "setpgid on a child in another session: EPERM");
	close(p[1]);
	int st = reap(pid);

	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "in the child: setsid returns its pid, then EPERM; setpgid of the leader EPERM (bits %d)",
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1);

	/* A group leader cannot start a session. */
	pid = fork();
	if (pid == 0) {
		if (setpgid(0, 0) != 0)
			_exit(1);
		errno = 0;
		_exit(setsid() == -1 && errno == EPERM ? 0 : 2);
	}
	st = reap(pid);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "setsid() by a process group leader: EPERM (status %d)", st);
	close(sync[0]);
}

static void test_exec(void)
{
	int p[2], sync[2];
	char fdarg[16], syncarg[16];
	pid_t pid;

	if (pipe(p) || pipe(sync))
		return;
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)self, WAIT_FLAG, fdarg, syncarg, NULL };

		close(p[1]);
		close(sync[0]);
		if (setpgid(0, 0))
			_exit(3);
		snprintf(fdarg, sizeof(fdarg), "%d", p[0]);
		snprintf(syncarg, sizeof(syncarg), "%d", sync[1]);
		execve(self, argv, environ);
		_exit(4);
	}
	char c = 0;

	close(p[0]);
	close(sync[1]);
	while (read(sync[0], &c, 1) < 0 && errno == EINTR)
		;
	tap_ok(c == 'x' && getpgid(pid) == pid, "the group survives the child's exec");
	errno = 0;
	tap_ok(setpgid(pid, getpgrp()) == -1 && errno == EACCES, "setpgid on a child after its exec: EACCES");
	close(p[1]);
	close(sync[0]);
	int st = reap(pid);

	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the exec'd child exits normally (status %d)", st);
}

/* Two children in the first one's new group; kill(-group) reaches both
 * and not us. */
static void test_kill_group(void)
{
	int w1, w2;
	pid_t a = child_waiting(&w1), b = child_waiting(&w2);

	signal(SIGUSR1, on_usr1);
	usr1_count = 0;
	tap_ok(setpgid(a, a) == 0 && setpgid(b, a) == 0 && getpgid(b) == a, "two children in one new group");
	tap_ok(kill(-a, 0) == 0, "kill(-pgid, 0) on a live group: 0");
	tap_ok(kill(-a, SIGTERM) == 0, "kill(-pgid, SIGTERM) succeeds");
	int sa = reap(a), sb = reap(b);

	tap_ok(WIFSIGNALED(sa) && WTERMSIG(sa) == SIGTERM && WIFSIGNALED(sb) && WTERMSIG(sb) == SIGTERM,
	       "both members die of SIGTERM (%#x, %#x)", sa, sb);
	tap_ok(usr1_count == 0, "the caller, outside the group, is not signalled");
	errno = 0;
	tap_ok(kill(-a, 0) == -1 && errno == ESRCH, "kill(-pgid) of a group with no members left: ESRCH");
	errno = 0;
	tap_ok(kill(-999999, SIGTERM) == -1 && errno == ESRCH, "kill(-pgid) of no such group: ESRCH");
	close(w1);
	close(w2);
}

static volatile sig_atomic_t usr2_count;

static void on_usr2(int sig)
{
	(void)sig;
	usr2_count++;
}

/* A child leads a group with a grandchild in it; its kill(0) reaches both. */
static int kill0_child(void)
{
	int w, st;
	pid_t g;

	if (setpgid(0, 0))
		return 1;
	signal(SIGUSR2, SIG_DFL);
	g = child_waiting(&w);
	if (getpgid(g) != getpid())
		return 2;
	signal(SIGUSR2, on_usr2);
	if (kill(0, SIGUSR2) != 0)
		return 3;
	if (usr2_count != 1)
		return 4;
	st = reap(g);
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR2 ? 0 : 5;
}

static void test_kill0(void)
{
	pid_t c;

	signal(SIGUSR2, on_usr2);
	usr2_count = 0;
	c = fork();
	if (c == 0)
		_exit(kill0_child());
	int st = reap(c);

	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "kill(0, sig) signals the caller's group: itself and its child (status %#x)", st);
	tap_ok(usr2_count == 0, "kill(0, sig) in a child's own group spares the parent");
	signal(SIGUSR2, SIG_DFL);
}

/* kill(-1): every process but init and the caller. */
static void test_kill_all(void)
{
	int w;
	pid_t c;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	usr1_count = 0;
	c = fork();
	if (c == 0) {
		pid_t g;
		int st;

		signal(SIGUSR1, SIG_DFL);
		g = child_waiting(&w);
		signal(SIGUSR1, on_usr1);
		usr1_count = 0;
		if (kill(-1, 0) != 0)
			_exit(1);
		if (kill(-1, SIGUSR1) != 0)
			_exit(2);
		st = reap(g);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGUSR1)
			_exit(3);
		_exit(usr1_count == 0 ? 0 : 4);
	}
	int st = reap(c);

	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "kill(-1, sig) from a child: 0, its own child dies, the caller itself is spared (status %#x)", st);
	tap_ok(usr1_count == 1, "kill(-1, sig) reached the caller's parent (%d)", (int)usr1_count);
	signal(SIGUSR1, SIG_DFL);
}

static int wait_mode(char **argv)
{
	int fd = atoi(argv[2]), sync = atoi(argv[3]);
	char c;

	if (getpgid(0) != getpid())
		return 5;
	write(sync, "x", 1);
	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], WAIT_FLAG))
		return wait_mode(argv);
	if (argc > 0 && argv[0][0] == '/')
		self = argv[0];
	tap_init();
	test_ids();
	/* Our own group, so that "our group" is a real id (Linux's init's is 0). */
	tap_ok(setpgid(0, 0) == 0 && getpgrp() == getpid(), "setpgid(0, 0): the caller leads a new group");
	test_setpgid_child();
	test_setsid();
	test_exec();
	test_kill_group();
	test_kill0();
	test_kill_all();
	return tap_done();
}
