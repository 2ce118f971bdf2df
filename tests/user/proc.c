/* proc.c - process life cycle: ids, fork, exit statuses and their wait4
 * encoding, killed children, WNOHANG, ECHILD, fork isolation of memory,
 * zombies, and orphans reparented to init.
 *
 * A forked child never prints test points; it reports through its exit
 * status and the parent judges.
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
#include <sys/wait.h>
#include "tap.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* fork a child that runs fn(arg) and exits with its result. */
static pid_t spawn(int (*fn)(long), long arg)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg));
	return pid;
}

static int wait_status(pid_t pid)
{
	int status = -1;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

static int child_exit_with(long code) { return (int)code; }

static int child_sleep_forever(long unused)
{
	(void)unused;
	for (;;)
		sleep_ms(1000);
	return 0;
}

static int child_raise(long sig)
{
	kill(getpid(), (int)sig);
	return 100;	/* not reached for a fatal default action */
}

static void test_ids(void)
{
	pid_t me = getpid();

	tap_ok(me > 0, "getpid() > 0 (%d)", me);
	tap_ok(gettid() == me, "gettid() == getpid() in a single-threaded process");
	tap_ok(getppid() > 0, "getppid() > 0 (%d)", getppid());
}

static pid_t parent_pid;

static int child_check_ids(long unused)
{
	(void)unused;
	if (getppid() != parent_pid)
		return 1;
	if (getpid() == parent_pid || getpid() <= 0)
		return 2;
	if (gettid() != getpid())
		return 3;
	return 0;
}

static void test_fork_ids(void)
{
	pid_t pid;
	int st;

	parent_pid = getpid();
	pid = spawn(child_check_ids, 0);
	tap_ok(pid > 0 && pid != parent_pid, "fork() returns the child's pid in the parent (%d)", pid);
	st = wait_status(pid);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "child: getppid() is the parent, getpid() is new, gettid() == getpid() (status 0x%x)", st);
}

static void test_exit_codes(void)
{
	static const int codes[] = { 0, 1, 42, 255 };

	for (unsigned i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		int st = wait_status(spawn(child_exit_with, codes[i]));
		tap_ok(WIFEXITED(st) && !WIFSIGNALED(st) && WEXITSTATUS(st) == codes[i],
		       "_exit(%d): WIFEXITED, WEXITSTATUS == %d (status 0x%x)", codes[i], codes[i], st);
	}
	tap_is_long(wait_status(spawn(child_exit_with, 3)), 0x300, "raw wait status of _exit(3) is 0x300");
	tap_is_long(wait_status(spawn(child_exit_with, 256 + 7)), 0x700,
		    "_exit(263) keeps only the low 8 bits: status 0x700");
}

static void test_killed(void)
{
	pid_t pid = spawn(child_sleep_forever, 0);
	int st;

	sleep_ms(10);
	tap_ok(kill(pid, SIGKILL) == 0, "kill(child, SIGKILL) succeeds");
	st = wait_status(pid);
	tap_ok(WIFSIGNALED(st) && !WIFEXITED(st) && WTERMSIG(st) == SIGKILL,
	       "killed child: WIFSIGNALED, WTERMSIG == SIGKILL (status 0x%x)", st);
	tap_is_long(st, SIGKILL, "raw wait status of a SIGKILLed child is 9");

	st = wait_status(spawn(child_raise, SIGTERM));
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
	       "child sending itself SIGTERM dies of it (status 0x%x)", st);
	st = wait_status(spawn(child_raise, SIGSEGV));
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	       "child sending itself SIGSEGV dies of it (status 0x%x)", st);
}

static void test_wnohang_echild(void)
{
	pid_t pid = spawn(child_sleep_forever, 0);
	struct rusage ru;
	int st = 0;

	tap_is_long(waitpid(pid, &st, WNOHANG), 0, "waitpid(WNOHANG) on a running child returns 0");
	kill(pid, SIGKILL);
	tap_is_long(wait4(pid, &st, 0, &ru), pid, "wait4 with a struct rusage returns the child's pid");
	errno = 0;
	tap_ok(waitpid(-1, &st, 0) == -1 && errno == ECHILD, "wait with no children: ECHILD (errno %d)", errno);
	errno = 0;
	tap_ok(waitpid(1, &st, 0) == -1 && errno == ECHILD,
	       "waitpid on a process that is not our child: ECHILD (errno %d)", errno);
}

static void test_wait_any(void)
{
	pid_t pids[3];
	int seen = 0, good = 1;

	for (int i = 0; i < 3; i++)
		pids[i] = spawn(child_exit_with, 10 + i);
	for (int n = 0; n < 3; n++) {
		int st;
		pid_t p = waitpid(-1, &st, 0);
		int i;
		for (i = 0; i < 3 && pids[i] != p; i++)
			;
		if (i == 3 || (seen & (1 << i)) || !WIFEXITED(st) || WEXITSTATUS(st) != 10 + i)
			good = 0;
		else
			seen |= 1 << i;
	}
	tap_ok(good && seen == 7, "waitpid(-1) collects three children, each with its own status");
}

/* Fork isolation: the child sees the parent's values as of fork() and its
 * writes stay in its own copy. */
static int global_data = 1111;
static int global_bss;
static volatile int *heap_int;
static volatile int *mmap_int;
static volatile int *stack_int;

static int child_scribble(long unused)
{
	(void)unused;
	if (global_data != 1111 || global_bss != 2222 || *heap_int != 3333 || *mmap_int != 4444 || *stack_int != 5555)
		return 1;
	global_data = global_bss = *heap_int = *mmap_int = *stack_int = -1;
	if (global_data != -1 || *mmap_int != -1)
		return 2;
	return 0;
}

static void test_fork_isolation(void)
{
	volatile int on_stack = 5555;
	int *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int st;

	heap_int = malloc(sizeof(int));
	if (page == MAP_FAILED || !heap_int) {
		tap_ok(0, "fork isolation: setup (mmap/malloc failed)");
		return;
	}
	global_bss = 2222;
	*heap_int = 3333;
	mmap_int = page;
	*mmap_int = 4444;
	stack_int = &on_stack;
	st = wait_status(spawn(child_scribble, 0));
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "child sees the parent's data, bss, heap, mmap and stack values (status 0x%x)", st);
	tap_ok(global_data == 1111 && global_bss == 2222, "child's writes to .data/.bss do not reach the parent");
	tap_ok(*heap_int == 3333 && *mmap_int == 4444 && on_stack == 5555,
	       "child's writes to heap, private mmap and stack do not reach the parent");
	munmap(page, 4096);
	free((void *)heap_int);
}

static void test_zombie(void)
{
	pid_t pid = spawn(child_exit_with, 7);
	int st;

	sleep_ms(50);	/* the child has exited: it is a zombie now */
	tap_ok(kill(pid, 0) == 0, "an exited, unreaped child still exists (kill(pid, 0) == 0)");
	st = wait_status(pid);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 7, "reaping the zombie gives its status (0x%x)", st);
	errno = 0;
	tap_ok(kill(pid, 0) == -1 && errno == ESRCH, "after reaping, the pid is gone: ESRCH (errno %d)", errno);
	errno = 0;
	tap_ok(waitpid(pid, &st, 0) == -1 && errno == ECHILD, "it cannot be waited for twice: ECHILD (errno %d)", errno);
}

/* Orphans: the middle process exits at once; the grandchild waits until its
 * parent has changed and tells the test (by signal) whether the new parent
 * is init (pid 1). */
static volatile sig_atomic_t orphan_report;

static void on_report(int sig)
{
	orphan_report = sig;
}

static int grandchild(long middle)
{
	for (int i = 0; i < 5000 && getppid() == (pid_t)middle; i++)
		sleep_ms(1);
	kill(parent_pid, getppid() == 1 ? SIGUSR1 : SIGUSR2);
	return 0;
}

static int middle_child(long unused)
{
	(void)unused;
	if (spawn(grandchild, getpid()) < 0)
		return 1;
	return 0;
}

static void test_orphan(void)
{
	struct sigaction sa;
	int st;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_report;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	parent_pid = getpid();
	st = wait_status(spawn(middle_child, 0));
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "middle process forked a grandchild and exited");
	for (int i = 0; i < 5000 && !orphan_report; i++)
		sleep_ms(1);
	tap_ok(orphan_report == SIGUSR1, "the orphaned grandchild was reparented to init (pid 1)%s",
	       orphan_report == SIGUSR2 ? ": it has another parent" : orphan_report ? "" : ": no report");
	errno = 0;
	tap_ok(waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD,
	       "the grandchild is not our child (ECHILD): init reaps it");
}

int main(void)
{
	tap_init();
	test_ids();
	test_fork_ids();
	test_exit_codes();
	test_killed();
	test_wnohang_echild();
	test_wait_any();
	test_fork_isolation();
	test_zombie();
	test_orphan();
	return tap_done();
}
