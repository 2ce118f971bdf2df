/* forkbomb.c - a fork bomb bounded by a process limit fails cleanly.
 *
 * The test drops to an unprivileged uid (Linux does not enforce
 * RLIMIT_NPROC for root; a kernel without setuid may answer ENOSYS), sets
 * RLIMIT_NPROC to LIMIT and then:
 *  1. forks sleeping children until fork() fails: it must fail with EAGAIN
 *     (after at most MAX_FLAT children), and every child is killed and reaped;
 *  2. runs a binary-tree bomb (every process forks two children, DEPTH
 *     levels deep, far more processes than the limit); each process reaps
 *     its own children and exits with the number of EAGAIN failures it saw
 *     below it (capped), or 255 for any other error;
 *  3. forks once more: the system still works.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "tap.h"

#define LIMIT 32
#define MAX_FLAT 4096
#define DEPTH 7
#define OTHER_ERROR 255

static pid_t children[MAX_FLAT];

static void sleep_forever(void)
{
	struct timespec ts = { 1000, 0 };

	for (;;)
		nanosleep(&ts, NULL);
}

static void test_flat(void)
{
	int n = 0, err = 0, reaped = 0, st;
	pid_t pid;

	while (n < MAX_FLAT) {
		pid = fork();
		if (pid == 0)
			sleep_forever();
		if (pid < 0) {
			err = errno;
			break;
		}
		children[n++] = pid;
	}
	tap_ok(err == EAGAIN, "fork fails with EAGAIN once the limit is reached (after %d children, errno %d)", n, err);
	tap_diag("flat bomb: %d children before the limit", n);
	for (int i = 0; i < n; i++)
		kill(children[i], SIGKILL);
	for (int i = 0; i < n; i++)
		if (waitpid(children[i], &st, 0) == children[i] && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
			reaped++;
	tap_is_long(reaped, n, "every child is killed and reaped");
	errno = 0;
	tap_ok(waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD, "no child is left");
}

/* One node of the tree bomb: returns its exit status. */
static int node(int depth)
{
	pid_t kids[2];
	int eagain = 0, other = 0;

	for (int i = 0; i < 2; i++) {
		kids[i] = depth ? fork() : -2;
		if (kids[i] == 0)
			_exit(node(depth - 1));
		if (kids[i] == -1) {
			if (errno == EAGAIN)
				eagain++;
			else
				other++;
		}
	}
	for (int i = 0; i < 2; i++) {
		int st;
		if (kids[i] <= 0)
			continue;
		if (waitpid(kids[i], &st, 0) != kids[i] || !WIFEXITED(st) || WEXITSTATUS(st) == OTHER_ERROR)
			other++;
		else
			eagain += WEXITSTATUS(st);
	}
	if (other)
		return OTHER_ERROR;
	return eagain > 200 ? 200 : eagain;
}

static void test_tree(void)
{
	pid_t pid = fork();
	int st = -1;

	if (pid == 0)
		_exit(node(DEPTH));
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) != OTHER_ERROR,
	       "tree bomb (%d levels): every process exits and is reaped, no error but EAGAIN (status 0x%x)",
	       DEPTH, st);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) > 0 && WEXITSTATUS(st) != OTHER_ERROR,
	       "tree bomb hit the limit: %d forks failed with EAGAIN", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

int main(void)
{
	struct rlimit rl = { LIMIT, LIMIT };
	pid_t pid;
	int st = -1;

	tap_init();
	if (setuid(65534) < 0)
		tap_diag("setuid(65534): %s (the limit must apply anyway)", strerror(errno));
	tap_ok(setrlimit(RLIMIT_NPROC, &rl) == 0, "setrlimit(RLIMIT_NPROC, %d)", LIMIT);
	test_flat();
	test_tree();
	pid = fork();
	if (pid == 0)
		_exit(3);
	waitpid(pid, &st, 0);
	tap_ok(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 3, "after the bombs fork works again");
	return tap_done();
}
