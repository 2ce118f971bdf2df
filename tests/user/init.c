/* init.c - /init of the test initramfs.
 *
 * Runs every test program (/bin/<name>, the list INIT_TESTS generated from
 * USER_TESTS in tests/user/user.mk) one after the other, each in its own
 * child created with fork + execve, and turns their TAP into one stream:
 *
 *   ok 7 - signal: handler runs before kill() returns
 *
 * The child's stdout is a pipe that init reads: each "ok N - text" of the
 * child is renumbered and prefixed with the program's name, "# ..." lines
 * pass through, any other line becomes "# <name>: line". stderr stays on
 * the console. After each program init adds a point of its own: the
 * program exited with status 0 and printed a plan that matches its points.
 * With the leak check on it adds one more: MemFree plus Cached in
 * /proc/meminfo is the same after the program (and everything it forked) was reaped as before it
 * started: lower is a leak, higher is memory freed that someone else still
 * owned (a reference dropped twice). At the end it prints the plan "1..N".
 *
 * Options, from init's argv or environment (Linux hands unknown "key=value"
 * words of the kernel command line to init in its environment, other words
 * in argv):
 *   leakcheck=1   strict leak check (for our kernel; on Linux MemFree
 *                 moves on its own, so there it is only reported as "#")
 *   poweroff=1    end by printing "kernel-exit: status=N" and powering off
 *                 with reboot(RB_POWER_OFF) (what Linux needs). Without it
 *                 init just exits with N and the kernel prints that line.
 *   tests=a,b     run only these programs
 * N is 0 when every point passed, 1 otherwise.
 *
 * If pipe2() is not available, the programs write to the console directly:
 * their points keep their own numbers, their plans become comments
 * (TAP_FALLBACK=1 in their environment), init adds its exit-status points
 * and prints no plan.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include "init_tests.h"

static const char *const all_tests[] = { INIT_TESTS };
#define NTESTS (sizeof(all_tests) / sizeof(all_tests[0]))

static struct {
	int leakcheck;
	int poweroff;
	const char *only;	/* comma list, or NULL for all */
} opt;

static int npoints, nfailed;
static int piped = 1;		/* 0: fallback without pipes */

/* ---- output --------------------------------------------------------------- */

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	char buf[600];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf)) {
		n = sizeof(buf) - 1;
		buf[n - 1] = '\n';
	}
	for (int off = 0; off < n;) {
		ssize_t w = write(1, buf + off, (size_t)(n - off));
		if (w <= 0)
			break;
		off += (int)w;
	}
}

static void point(int ok, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void point(int ok, const char *name, const char *fmt, ...)
{
	char text[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	npoints++;
	if (!ok)
		nfailed++;
	out("%sok %d - %s: %s\n", ok ? "" : "not ", npoints, name, text);
}

/* ---- options ---------------------------------------------------------------- */

static void parse_option(const char *s)
{
	if (!strcmp(s, "leakcheck=1"))
		opt.leakcheck = 1;
	else if (!strcmp(s, "leakcheck=0"))
		opt.leakcheck = 0;
	else if (!strcmp(s, "poweroff=1"))
		opt.poweroff = 1;
	else if (!strncmp(s, "tests=", 6))
		opt.only = s + 6;
}

static int selected(const char *name)
{
	size_t n = strlen(name);

	if (!opt.only)
		return 1;
	for (const char *p = opt.only; *p;) {
		size_t len = strcspn(p, ",");
		if (len == n && !strncmp(p, name, n))
			return 1;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Every name in tests= must be a test program: a typo is a failing point,
 * not a run that passes by running nothing. */
static void check_selection(void)
{
	for (const char *p = opt.only; p && *p;) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < NTESTS; i++)
			if (strlen(all_tests[i]) == len && !strncmp(p, all_tests[i], len))
				break;
		if (i == NTESTS)
			point(0, "init", "tests= names '%.*s', which is not a test program", (int)len, p);
		p += len;
		if (*p == ',')
			p++;
	}
}

/* ---- /proc/meminfo --------------------------------------------------------------- */

static char meminfo_buf[4096];

/*
 * MemFree plus Cached in kB (memory in use by no process: free, or pages of
 * files that programs ran from, which the page cache keeps while the file
 * is mapped and which grow as any process touches more of the file), or -1
 * if /proc/meminfo cannot be read.
 */
static long unused_kb(void)
{
	int fd = open("/proc/meminfo", O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;
	long free_kb;
	char *p;

	if (fd < 0)
		return -1;
	while (len < sizeof(meminfo_buf) - 1 &&
	       (n = read(fd, meminfo_buf + len, sizeof(meminfo_buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	meminfo_buf[len] = 0;
	p = strstr(meminfo_buf, "MemFree:");
	if (!p)
		return -1;
	free_kb = strtol(p + 8, NULL, 10);
	p = strstr(meminfo_buf, "\nCached:");
	return free_kb + (p ? strtol(p + 8, NULL, 10) : 0);
}

/* ---- running one program ---------------------------------------------------------- */

struct relay {
	const char *name;
	int points;	/* points the program printed */
	int plan;	/* its "1..N", or -1 */
	char line[512];
	size_t len;
};

/* Forward one complete line of the program's output. */
static void relay_line(struct relay *r)
{
	char *s = r->line;
	int ok;

	if (!strncmp(s, "ok ", 3) || !strncmp(s, "not ok ", 7)) {
		ok = s[0] == 'o';
		s += ok ? 3 : 7;
		while (*s >= '0' && *s <= '9')
			s++;
		while (*s == ' ')
			s++;
		if (s[0] == '-' && s[1] == ' ')
			s += 2;
		r->points++;
		point(ok, r->name, "%s", s);
	} else if (!strncmp(s, "1..", 3)) {
		r->plan = atoi(s + 3);
	} else if (s[0] == '#') {
		out("%s\n", s);
	} else {
		out("# %s: %s\n", r->name, s);
	}
}

static void relay_bytes(struct relay *r, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == 0)
			continue;	/* a NUL would cut the line short */
		if (buf[i] == '\n' || r->len == sizeof(r->line) - 1) {
			r->line[r->len] = 0;
			relay_line(r);
			r->len = 0;
			if (buf[i] == '\n')
				continue;
		}
		r->line[r->len++] = buf[i];
	}
}

/* Reap every child that is left (orphans of the test that init inherited).
 * Once the pipe is at end of file they have all exited or are exiting. */
static void reap_all(void)
{
	int status;

	while (wait4(-1, &status, 0, NULL) > 0 || errno == EINTR)
		;
}

static void describe_status(char *buf, size_t size, int status)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "wait status 0x%x", status);
}

/* The environment for a program in the fallback mode: ours plus
 * TAP_FALLBACK=1, which makes tap_done() print its plan as a comment (the
 * programs' plans would not add up to the run's). */
static char **fallback_env(void)
{
	static char *env[64];
	int n = 0;

	for (char **e = environ; e && *e && n < 62; e++)
		env[n++] = *e;
	env[n++] = "TAP_FALLBACK=1";
	env[n] = NULL;
	return env;
}

/* What run_test() reads a program's output into (in the bss warm_up() touches). */
static char relay_buf[1024];

static void run_test(const char *name)
{
	char *buf = relay_buf;
	char path[64], how[80];
	char *argv[2] = { path, NULL };
	struct relay r = { .name = name, .plan = -1 };
	int fds[2] = { -1, -1 }, status = 0;
	long before, after;
	pid_t pid;
	ssize_t n;

	snprintf(path, sizeof(path), "/bin/%s", name);
	out("# init: running %s\n", path);
	before = unused_kb();
	if (piped && pipe2(fds, O_CLOEXEC) < 0) {
		out("# init: pipe2: %s: the programs write to the console directly\n", strerror(errno));
		piped = 0;
	}
	pid = fork();
	if (pid < 0) {
		point(0, name, "fork failed: %s", strerror(errno));
		if (piped) {
			close(fds[0]);
			close(fds[1]);
		}
		return;
	}
	if (pid == 0) {
		if (piped && dup2(fds[1], 1) < 0)
			_exit(126);
		execve(path, argv, piped ? environ : fallback_env());
		dprintf(2, "init: execve %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	if (piped) {
		close(fds[1]);
		while ((n = read(fds[0], buf, sizeof(relay_buf))) != 0) {
			if (n < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			relay_bytes(&r, buf, (size_t)n);
		}
		if (r.len) {
			r.line[r.len] = 0;
			relay_line(&r);
		}
		close(fds[0]);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	reap_all();
	after = unused_kb();

	describe_status(how, sizeof(how), status);
	if (!piped)
		point(WIFEXITED(status) && WEXITSTATUS(status) == 0, name, "%s", how);
	else if (r.plan < 0)
		point(0, name, "%s, and no TAP plan after %d points", how, r.points);
	else
		point(WIFEXITED(status) && WEXITSTATUS(status) == 0 && r.plan == r.points,
		      name, "%s, plan 1..%d, %d points", how, r.plan, r.points);

	if (before < 0 || after < 0)
		out("# init: %s: no MemFree in /proc/meminfo, no leak check\n", name);
	else if (opt.leakcheck)
		point(after == before, name, "no memory leaked or freed twice (MemFree+Cached %ld kB before, %ld kB after)",
		      before, after);
	else
		out("# init: %s: MemFree+Cached %ld kB before, %ld kB after (leak check off)\n", name, before, after);
}

/* Touch the stack pages the loop will use and every page of init's bss
 * (the libc's buffers among them: which of them the first test would be
 * the first to touch moves with the size of init's data), and go once
 * through pipe2/fork/exit/wait, so that nothing init itself allocates
 * lazily is counted as a leak of the first test. */
extern char _edata[], _end[];

static void warm_up(void)
{
	volatile char stack[16384];
	int fds[2];
	pid_t pid;

	for (size_t i = 0; i < sizeof(stack); i += 256)
		stack[i] = 0;
	for (volatile char *b = _edata; b < _end; b += 256)
		(void)*b;
	unused_kb();
	if (pipe2(fds, O_CLOEXEC) == 0) {
		close(fds[0]);
		close(fds[1]);
	}
	pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		reap_all();
}

int main(int argc, char **argv)
{
	int status;

	for (int i = 1; i < argc; i++)
		parse_option(argv[i]);
	for (char **e = environ; e && *e; e++)
		parse_option(*e);

	setvbuf(stdout, NULL, _IONBF, 0);
	/* Linux: an initramfs has no /proc until we mount it. Our kernel has it
	 * built in and may answer ENOSYS or EBUSY: fine either way. */
	if (mount("proc", "/proc", "proc", 0, NULL) < 0 && errno != ENOSYS && errno != EBUSY)
		out("# init: mount /proc: %s\n", strerror(errno));

	out("# init: pid %d, %d test programs, leak check %s\n", getpid(), (int)NTESTS,
	    opt.leakcheck ? "on" : "off");
	warm_up();
	check_selection();
	for (size_t i = 0; i < NTESTS; i++)
		if (selected(all_tests[i]))
			run_test(all_tests[i]);

	if (piped)
		out("1..%d\n", npoints);
	out("# init: %d points, %d failed\n", npoints, nfailed);
	status = nfailed ? 1 : 0;
	if (opt.poweroff) {
		out("kernel-exit: status=%d\n", status);
		reboot(RB_POWER_OFF);
		out("# init: reboot(RB_POWER_OFF): %s\n", strerror(errno));
	}
	return status;
}
