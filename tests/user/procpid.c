/* procpid.c - the /proc files of processes and of the system, as ps, top
 * and free read them: /proc/<pid>/stat (52 fields, the ids and the state
 * letter of running, sleeping, stopped and zombie processes),
 * /proc/<pid>/status (Name, State, Pid, PPid, Uid, VmRSS), cmdline
 * (argv with NULs), comm; another live pid's files, ENOENT for none;
 * /proc/stat, /proc/uptime, /proc/loadavg, /proc/cpuinfo.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "tap.h"

#define CMD_FLAG "--cmdline-check"

static char buf[16384];

/* The whole file into buf (NUL added); its length, or -errno. */
static long slurp(const char *path)
{
	int fd = open(path, O_RDONLY);
	long n = 0, r;

	if (fd < 0)
		return -errno;
	while ((r = read(fd, buf + n, sizeof(buf) - 1 - (size_t)n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	return n;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Split /proc/<pid>/stat: comm into comm, the fields after ")" into f[]
 * (as numbers, f[0] being field 3, the state as a character code). */
static int parse_stat(const char *s, char *comm, size_t commsz, long long *f, int max)
{
	const char *open_p = strchr(s, '('), *close_p = strrchr(s, ')');
	int n = 2;

	if (!open_p || !close_p || close_p < open_p)
		return -1;
	size_t len = (size_t)(close_p - open_p - 1);

	if (len >= commsz)
		len = commsz - 1;
	memcpy(comm, open_p + 1, len);
	comm[len] = '\0';
	for (const char *p = close_p + 1; *p && n - 2 < max;) {
		while (*p == ' ')
			p++;
		if (!*p || *p == '\n')
			break;
		if (n == 2)
			f[0] = *p++;
		else
			f[n - 2] = strtoll(p, (char **)&p, 10);
		n++;
		while (*p && *p != ' ' && *p != '\n')
			p++;
	}
	return n;
}

static char stat_state(pid_t pid)
{
	char path[64], comm[32];
	long long f[64];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (slurp(path) <= 0 || parse_stat(buf, comm, sizeof(comm), f, 64) < 3)
		return '?';
	return (char)f[0];
}

static void test_self_stat(void)
{
	char comm[32];
	long long f[64];
	int n;

	tap_ok(slurp("/proc/self/stat") > 0, "/proc/self/stat reads");
	n = parse_stat(buf, comm, sizeof(comm), f, 64);
	tap_ok(n == 52, "it has Linux's 52 fields (%d)", n);
	tap_ok(atoi(buf) == getpid() && !strcmp(comm, "procpid"), "pid and (comm) (%d %s)", atoi(buf), comm);
	tap_ok(f[0] == 'R', "the state of the reader itself is R (%c)", (char)f[0]);
	tap_ok(f[1] == getppid() && f[2] == getpgrp() && f[3] == getsid(0), "ppid, pgrp and session are ours");
	tap_ok(f[17] == 1, "num_threads (field 20) is 1 (%lld)", f[17]);
	tap_ok(f[20] > 0 && f[21] >= 0, "vsize (field 23) is not 0, rss a count (Linux's may lag) (%lld, %lld)", f[20], f[21]);
}

static void test_other(void)
{
	pid_t c = fork();
	char path[64];
	int st;

	if (c == 0) {
		for (;;)
			sleep_ms(1000);
	}
	sleep_ms(100);
	tap_ok(stat_state(c) == 'S', "a sleeping child's state is S (%c)", stat_state(c));
	kill(c, SIGSTOP);
	waitpid(c, &st, WUNTRACED);
	tap_ok(stat_state(c) == 'T', "a stopped child's is T (%c)", stat_state(c));
	snprintf(path, sizeof(path), "/proc/%d/status", (int)c);
	tap_ok(slurp(path) > 0 && strstr(buf, "Name:\tprocpid\n") && strstr(buf, "State:\tT (stopped)\n"),
	       "another process's status: Name and State");
	char want[64];

	snprintf(want, sizeof(want), "\nPid:\t%d\nPPid:\t%d\n", (int)c, (int)getpid());
	tap_ok(strstr(buf, want) && strstr(buf, "\nUid:\t0\t0\t0\t0\n") && strstr(buf, "\nVmRSS:"),
	       "...its Pid, PPid, Uid and VmRSS lines");
	kill(c, SIGKILL);
	sleep_ms(100);
	tap_ok(stat_state(c) == 'Z', "a dead, unreaped child's is Z (%c)", stat_state(c));
	waitpid(c, &st, 0);
	errno = 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)c);
	tap_ok(slurp(path) == -ENOENT, "after the reap its /proc/<pid>/stat is ENOENT");
	tap_ok(slurp("/proc/self/comm") > 0 && !strcmp(buf, "procpid\n"), "/proc/self/comm is the name and a newline");
}

static int cmdline_child(void)
{
	static const char want[] = "/bin/procpid\0" CMD_FLAG "\0two words\0";
	long n = slurp("/proc/self/cmdline");

	return n == (long)sizeof(want) - 1 && !memcmp(buf, want, sizeof(want) - 1) ? 0 : 1;
}

static void test_cmdline(void)
{
	int st = -1;
	pid_t c = fork();

	if (c == 0) {
		char *argv[] = { "/bin/procpid", CMD_FLAG, "two words", NULL };

		execve(argv[0], argv, environ);
		_exit(3);
	}
	waitpid(c, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "/proc/self/cmdline is argv, each with its NUL (status %#x)", st);
}

static void test_system(void)
{
	long long up1, up2;

	tap_ok(slurp("/proc/stat") > 0 && !strncmp(buf, "cpu  ", 5) && strstr(buf, "\ncpu0 ") &&
	       strstr(buf, "\nctxt ") && strstr(buf, "\nprocesses ") && strstr(buf, "\nprocs_running "),
	       "/proc/stat: the cpu and cpu0 lines, ctxt, processes, procs_running");
	int fields = 0;

	for (char *p = buf + 4; *p && *p != '\n';) {
		while (*p == ' ')
			p++;
		if (*p >= '0' && *p <= '9') {
			fields++;
			while (*p >= '0' && *p <= '9')
				p++;
		} else if (*p && *p != '\n')
			p++;
	}
	tap_ok(fields == 10, "its cpu line has the 10 counters of Linux 6.12 (%d)", fields);
	slurp("/proc/uptime");
	up1 = strtoll(buf, NULL, 10);
	char *dot = strchr(buf, '.');

	tap_ok(dot && dot[1] >= '0' && dot[2] >= '0' && dot[3] == ' ' && strchr(dot + 1, '.'),
	       "/proc/uptime: two numbers with two decimals (%s)", buf);
	sleep_ms(1100);
	slurp("/proc/uptime");
	up2 = strtoll(buf, NULL, 10);
	tap_ok(up2 >= up1 + 1, "uptime advances with time (%lld -> %lld)", up1, up2);
	tap_ok(slurp("/proc/loadavg") > 0, "/proc/loadavg reads");
	int dots = 0, slash = 0;

	for (char *p = buf; *p; p++) {
		dots += *p == '.';
		slash += *p == '/';
	}
	tap_ok(dots == 3 && slash == 1 && buf[strlen(buf) - 1] == '\n', "three averages, running/total, last pid (%s)", buf);
	tap_ok(slurp("/proc/cpuinfo") > 0, "/proc/cpuinfo reads");
#if defined(__aarch64__)
	tap_ok(strstr(buf, "processor\t: 0\n") && strstr(buf, "\nFeatures\t: fp asimd") &&
	       strstr(buf, "\nCPU implementer\t: 0x") && strstr(buf, "\nCPU part\t: 0x"),
	       "arm64: processor, Features (fp asimd first), CPU implementer and part");
#else
	tap_ok(strstr(buf, "CPU-Family:\tMicroBlaze\n") && strstr(buf, "\nCPU-Ver:\t"),
	       "MicroBlaze: CPU-Family and CPU-Ver");
#endif
	tap_ok(slurp("/proc/999999/stat") == -ENOENT, "/proc/<no such pid>/stat: ENOENT");
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], CMD_FLAG))
		return cmdline_child();
	tap_init();
	test_self_stat();
	test_other();
	test_cmdline();
	test_system();
	return tap_done();
}
