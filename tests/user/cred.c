/* cred.c - ids, prctl and the process table: setuid/setgid/setreuid/
 * setregid/setresuid/setresgid/getresuid/getresgid/getgroups/setgroups with
 * Linux's rules for root and for an unprivileged process (EPERM) and their
 * EINVAL cases; prctl PR_SET_NAME/PR_GET_NAME (cut to 15 bytes),
 * PR_SET_PDEATHSIG/PR_GET_PDEATHSIG (the signal arrives when the parent
 * dies), PR_SET_TAGGED_ADDR_CTRL/GET (arm64; EINVAL on MicroBlaze, as
 * Linux), an unknown option EINVAL; more than 64 processes at once.
 *
 * Id changes run in forked children, which report through their exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"

static int run(int (*fn)(void))
{
	int st = -1;
	pid_t c = fork();

	if (c == 0)
		_exit(fn());
	waitpid(c, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 200;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int res_is(uid_t r, uid_t e, uid_t s)
{
	uid_t a, b, c;

	return getresuid(&a, &b, &c) == 0 && a == r && b == e && c == s;
}

/* root: setresuid to 1000/2000/3000, then the unprivileged rules. */
static int uid_rules(void)
{
	if (setresuid(1000, 2000, 3000) || !res_is(1000, 2000, 3000))
		return 1;
	if (getuid() != 1000 || geteuid() != 2000)
		return 2;
	errno = 0;
	if (setuid(4000) != -1 || errno != EPERM)	/* not one of ours */
		return 3;
	if (setuid(3000) || !res_is(1000, 3000, 3000))	/* unprivileged: only the euid moves */
		return 4;
	errno = 0;
	if (setresuid(-1, 0, -1) != -1 || errno != EPERM)
		return 5;
	if (setreuid(3000, 1000) || !res_is(3000, 1000, 1000))	/* saved follows the new euid */
		return 6;
	errno = 0;
	if (setgroups(0, NULL) != -1 || errno != EPERM)
		return 7;
	return 0;
}

static int uid_root(void)
{
	if (setuid(1234) || !res_is(1234, 1234, 1234))
		return 1;
	errno = 0;
	if (setuid(0) != -1 || errno != EPERM)	/* privilege is gone for good */
		return 2;
	return 0;
}

static int gid_rules(void)
{
	gid_t r, e, s, g[4] = { 10, 20, 30, 40 }, back[4];

	if (setgid(500) || getgid() != 500 || getegid() != 500)
		return 1;
	if (setresgid(1, 2, 3) || getresgid(&r, &e, &s) || r != 1 || e != 2 || s != 3)
		return 2;
	if (setregid(-1, 3) || getresgid(&r, &e, &s) || e != 3 || s != 3)
		return 3;
	if (setgroups(4, g) || getgroups(0, NULL) != 4 || getgroups(4, back) != 4 || memcmp(g, back, sizeof(g)))
		return 4;
	errno = 0;
	if (getgroups(2, back) != -1 || errno != EINVAL)
		return 5;
	errno = 0;
	if (syscall(SYS_getgroups, -1, back) != -1 || errno != EINVAL)	/* glibc warns on -1 */
		return 6;
	errno = 0;
	if (setgroups((size_t)-1, g) != -1 || errno != EINVAL)
		return 7;
	if (setgroups(0, NULL) || getgroups(0, NULL) != 0)
		return 8;
	return 0;
}

/* A sysctl is root's 0644 file: an unprivileged process reads it and may not write it. */
static int sysctl_rules(void)
{
	int fd;

	if (setuid(1234))
		return 1;
	errno = 0;
	fd = open("/proc/sys/vm/overcommit_memory", O_WRONLY);
	if (fd >= 0 || errno != EACCES)
		return 2;
	fd = open("/proc/sys/vm/overcommit_memory", O_RDONLY);
	if (fd < 0)
		return 3;
	close(fd);
	return 0;
}

static void test_ids(void)
{
	tap_ok(getuid() == 0 && geteuid() == 0 && getgid() == 0 && res_is(0, 0, 0), "the tests run as root");
	int rc = run(uid_rules);

	tap_ok(rc == 0, "setresuid/setuid/setreuid: root sets any, unprivileged only its own ids (EPERM), saved id rules (step %d)",
	       rc);
	rc = run(uid_root);
	tap_ok(rc == 0, "setuid(n) by root sets all three; root cannot come back (step %d)", rc);
	rc = run(sysctl_rules);
	tap_ok(rc == 0, "an unprivileged process may read a sysctl but not open it for writing: EACCES (step %d)", rc);
	rc = run(gid_rules);
	tap_ok(rc == 0, "setgid/setresgid/setregid/setgroups/getgroups and their EINVALs (step %d)", rc);
	errno = 0;
	tap_ok(setuid((uid_t)-1) == -1 && errno == EINVAL, "setuid(-1): EINVAL");
	errno = 0;
	tap_ok(setgid((gid_t)-1) == -1 && errno == EINVAL, "setgid(-1): EINVAL");
	tap_ok(setresuid(-1, -1, -1) == 0 && res_is(0, 0, 0), "setresuid(-1, -1, -1) changes nothing");
}

static void test_prctl_name(void)
{
	char name[32];

	tap_ok(prctl(PR_SET_NAME, (unsigned long)"worker-1", 0, 0, 0) == 0, "PR_SET_NAME");
	memset(name, 'x', sizeof(name));
	tap_ok(prctl(PR_GET_NAME, (unsigned long)name, 0, 0, 0) == 0 && !strcmp(name, "worker-1"), "PR_GET_NAME reads it back (%s)",
	       name);
	prctl(PR_SET_NAME, (unsigned long)"a-name-longer-than-sixteen", 0, 0, 0);
	memset(name, 'x', sizeof(name));
	prctl(PR_GET_NAME, (unsigned long)name, 0, 0, 0);
	tap_ok(!strcmp(name, "a-name-longer-t") && name[16] == 'x', "a long name is cut to 15 bytes and 16 are written (%s)",
	       name);
	errno = 0;
	tap_ok(prctl(9999, 0, 0, 0, 0) == -1 && errno == EINVAL, "an unknown option: EINVAL");
}

static volatile sig_atomic_t got_usr2;

static void on_usr2(int s)
{
	(void)s;
	got_usr2 = 1;
}

/* A child C whose own child G asks for SIGUSR2 when its parent dies; C
 * exits once G has asked. G tells us on pipe p: 'y' when PR_GET_PDEATHSIG
 * read back SIGUSR2, then 'Y' when the signal came (or 'N' after 3 s). */
static void test_pdeath(void)
{
	int p[2], q[2], st = -1;
	char a = 0, b = 0;
	pid_t c;

	if (pipe(p) || pipe(q))
		return;
	c = fork();
	if (c == 0) {
		pid_t g = fork();

		if (g == 0) {
			int sig = -1;

			signal(SIGUSR2, on_usr2);
			prctl(PR_SET_PDEATHSIG, SIGUSR2, 0, 0, 0);
			prctl(PR_GET_PDEATHSIG, (unsigned long)&sig, 0, 0, 0);
			write(p[1], sig == SIGUSR2 ? "y" : "n", 1);
			write(q[1], "s", 1);
			for (int i = 0; i < 300 && !got_usr2; i++)
				sleep_ms(10);
			write(p[1], got_usr2 ? "Y" : "N", 1);
			_exit(0);
		}
		read(q[0], &a, 1);
		_exit(0);
	}
	close(p[1]);
	close(q[0]);
	close(q[1]);
	read(p[0], &a, 1);
	waitpid(c, &st, 0);
	read(p[0], &b, 1);
	close(p[0]);
	tap_ok(a == 'y', "PR_GET_PDEATHSIG reads back PR_SET_PDEATHSIG's signal (%c)", a);
	tap_ok(b == 'Y', "the signal arrives when the parent exits (%c)", b);
	errno = 0;
	tap_ok(prctl(PR_SET_PDEATHSIG, 65, 0, 0, 0) == -1 && errno == EINVAL, "PR_SET_PDEATHSIG 65: EINVAL");
}

static void test_tagged(void)
{
#ifdef __aarch64__
	tap_ok(prctl(PR_GET_TAGGED_ADDR_CTRL, 0, 0, 0, 0) == 0, "PR_GET_TAGGED_ADDR_CTRL: off at first");
	tap_ok(prctl(PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE, 0, 0, 0) == 0 &&
	       prctl(PR_GET_TAGGED_ADDR_CTRL, 0, 0, 0, 0) == (int)PR_TAGGED_ADDR_ENABLE, "PR_SET_TAGGED_ADDR_CTRL enable, read back");
	errno = 0;
	tap_ok(prctl(PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE, 1, 0, 0) == -1 && errno == EINVAL,
	       "PR_SET_TAGGED_ADDR_CTRL with arg3 set: EINVAL");
	prctl(PR_SET_TAGGED_ADDR_CTRL, 0, 0, 0, 0);
#else
	errno = 0;
	tap_ok(prctl(PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE, 0, 0, 0) == -1 && errno == EINVAL,
	       "PR_SET_TAGGED_ADDR_CTRL: EINVAL (no tagged-address ABI on this arch)");
	errno = 0;
	tap_ok(prctl(PR_GET_TAGGED_ADDR_CTRL, 0, 0, 0, 0) == -1 && errno == EINVAL, "PR_GET_TAGGED_ADDR_CTRL: EINVAL");
	tap_skip("arm64 only: PR_SET_TAGGED_ADDR_CTRL arguments");
#endif
}

#define MANY 100

static void test_many(void)
{
	static pid_t kids[MANY];
	int n = 0, reaped = 0;

	for (; n < MANY; n++) {
		kids[n] = fork();
		if (kids[n] == 0) {
			for (;;)
				sleep_ms(1000);
		}
		if (kids[n] < 0)
			break;
	}
	tap_ok(n == MANY, "root forks %d processes at once (more than 64) (%d)", MANY, n);
	for (int i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		reaped += waitpid(kids[i], NULL, 0) == kids[i];
	tap_ok(reaped == n, "all of them killed and reaped");
}

int main(void)
{
	tap_init();
	test_ids();
	test_prctl_name();
	test_pdeath();
	test_tagged();
	test_many();
	return tap_done();
}
