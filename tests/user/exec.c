/* exec.c - execve: errors that leave the caller running (ENOENT, ENOEXEC,
 * EACCES, ENOTDIR), and a successful execve of this same program in "child
 * mode", which checks what it was given: argv, envp, the same pid, caught
 * signals reset to default, ignored signals and the blocked mask kept.
 *
 * Child mode exits with 42 when everything holds, or with the number of the
 * first check that failed. A second child mode checks close-on-exec: the
 * descriptor opened with O_CLOEXEC is gone after execve, the other one stays.
 * A third, chosen through the environment, checks that an empty or NULL argv
 * arrives as argc 1 and argv[0] "" (Linux >= 5.18). A fourth, the
 * interpreter of a "#!" script, checks the argv a script's interpreter gets.
 * Last, a hand-made ELF whose two segments share a page runs as on Linux,
 * and one whose segment cannot be mapped dies of SIGSEGV (no core flag).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"

#define CHILD_FLAG "--exec-child"
#define CLOEXEC_FLAG "--cloexec-child"
#define EMPTY_ARGV_ENV "EXEC_EMPTY_ARGV=1"
#define SCRIPT_FLAG "--script-child"

/* Run self with argv (NULL: no vector at all) and envp { EMPTY_ARGV_ENV };
 * returns the child's exit status, 42 when it saw argc 1 and argv[0] "". */
static int run_empty_argv(const char *self, char **argv)
{
	char *env[] = { EMPTY_ARGV_ENV, NULL };
	int st = 0;
	pid_t pid = fork();

	if (pid == 0) {
		syscall(SYS_execve, (long)self, (long)argv, (long)env);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_empty_argv(const char *self)
{
	char *none[] = { NULL };
	int st;

	st = run_empty_argv(self, none);
	tap_ok(st == 42, "execve with an empty argv: argc 1 and argv[0] \"\" (child says %d)", st);
	st = run_empty_argv(self, NULL);
	tap_ok(st == 42, "execve with a NULL argv: argc 1 and argv[0] \"\" (child says %d)", st);
}

/* After execve: fd argv[2] (O_CLOEXEC) must be closed, fd argv[3] open. */
static int cloexec_child(char **argv)
{
	int gone = atoi(argv[2]), kept = atoi(argv[3]);

	errno = 0;
	if (close(gone) != -1 || errno != EBADF)
		return 1;
	if (close(kept) != 0)
		return 2;
	return 42;
}

static void test_cloexec(const char *self)
{
	int gone = open("/proc/meminfo", O_RDONLY | O_CLOEXEC), kept = open("/proc/meminfo", O_RDONLY);
	char a[16], b[16];
	int st = 0;
	pid_t pid;

	snprintf(a, sizeof(a), "%d", gone);
	snprintf(b, sizeof(b), "%d", kept);
	pid = fork();
	if (pid == 0) {
		char *args[] = { (char *)self, CLOEXEC_FLAG, a, b, NULL };
		char *env[] = { NULL };

		execve(self, args, env);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	tap_ok(gone >= 0 && kept >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 42,
	       "execve closes the O_CLOEXEC descriptor and keeps the other (child says %d)", WEXITSTATUS(st));
	close(gone);
	close(kept);
}

static int child_mode(int argc, char **argv, char **envp)
{
	struct sigaction sa;
	sigset_t mask;
	const char *pid = getenv("EXEC_PID");
	int nenv = 0;

	for (char **e = envp; *e; e++)
		nenv++;
	if (argc != 4)
		return 1;
	if (strcmp(argv[2], "two words") != 0 || strcmp(argv[3], "") != 0 || argv[4] != NULL)
		return 2;
	if (nenv != 2 || !getenv("EXEC_TEST") || strcmp(getenv("EXEC_TEST"), "yes") != 0)
		return 3;
	if (!pid || atoi(pid) != getpid())
		return 4;
	if (sigaction(SIGUSR1, NULL, &sa) < 0 || sa.sa_handler != SIG_DFL)
		return 5;	/* a caught signal is reset by execve */
	if (sigaction(SIGUSR2, NULL, &sa) < 0 || sa.sa_handler != SIG_IGN)
		return 6;	/* an ignored one stays ignored */
	if (sigprocmask(SIG_BLOCK, NULL, &mask) < 0 || sigismember(&mask, SIGHUP) != 1)
		return 7;	/* the blocked mask is kept */
	return 42;
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void test_exec_errors(void)
{
	char *argv[] = { "x", NULL };
	char *envp[] = { NULL };
	int r;

	errno = 0;
	r = execve("/bin/does-not-exist", argv, envp);
	tap_ok(r == -1 && errno == ENOENT, "execve of a missing file: ENOENT (errno %d)", errno);
	errno = 0;
	r = execve("/bin/bad-elf", argv, envp);
	tap_ok(r == -1 && errno == ENOEXEC, "execve of an executable that is not an ELF image: ENOEXEC (errno %d)", errno);
	errno = 0;
	r = execve("/bin", argv, envp);
	tap_ok(r == -1 && errno == EACCES, "execve of a directory: EACCES (errno %d)", errno);
	errno = 0;
	r = execve("/bin/bad-elf/x", argv, envp);
	tap_ok(r == -1 && errno == ENOTDIR, "execve through a file used as a directory: ENOTDIR (errno %d)", errno);
	tap_ok(1, "the process is still running after failed execve calls");
}

static void test_exec_self(const char *self)
{
	struct sigaction sa;
	sigset_t mask;
	pid_t pid;
	int st = -1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGUSR2, SIG_IGN);

	pid = fork();
	if (pid == 0) {
		char pidenv[32];
		char *argv[] = { (char *)self, CHILD_FLAG, "two words", "", NULL };
		char *envp[] = { "EXEC_TEST=yes", pidenv, NULL };

		snprintf(pidenv, sizeof(pidenv), "EXEC_PID=%d", getpid());
		sigemptyset(&mask);
		sigaddset(&mask, SIGHUP);
		sigprocmask(SIG_BLOCK, &mask, NULL);
		execve(self, argv, envp);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) != 99, "execve of %s succeeded (status 0x%x)", self, st);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 42,
	       "new image got argv and envp, kept its pid, reset caught signals, kept ignored ones "
	       "and the mask (child check %d failed if not 42)", WEXITSTATUS(st));
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

/*
 * A "#!" script (user.mk writes /bin/exec-script: "#!/bin/exec --script-child",
 * blanks after it) runs its interpreter with argv { interpreter, argument,
 * script path, the script's argv[1..] }; "#!" with no interpreter
 * (/bin/exec-noscript) is ENOEXEC. /bin/exec-link, a hard link to this
 * program in the initramfs, runs it too.
 */
static void test_scripts_and_links(void)
{
	char *argv[] = { "exec-script", "two words", "", NULL };
	char *lnargv[] = { "/bin/exec-link", SCRIPT_FLAG "-link", NULL };
	char *envp[] = { NULL };
	pid_t pid;
	int st = -1;

	pid = fork();
	if (pid == 0) {
		execve("/bin/exec-script", argv, envp);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 42,
	       "a #! script runs its interpreter with { interpreter, argument, path, argv[1..] } (status 0x%x)", st);
	errno = 0;
	tap_ok(execve("/bin/exec-noscript", argv, envp) == -1 && errno == ENOEXEC,
	       "a #! line without an interpreter: ENOEXEC (errno %d)", errno);
	pid = fork();
	if (pid == 0) {
		execve("/bin/exec-link", lnargv, envp);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 42, "execve of a hard link to this program (status 0x%x)", st);
}

/* Interpreter mode: the argv test_scripts_and_links() expects. */
static int script_child(int argc, char **argv)
{
	static const char *const want[] = { "/bin/exec", SCRIPT_FLAG, "/bin/exec-script", "two words", "" };

	if (argc != 5)
		return 10 + (argc < 10 ? argc : 9);
	for (int i = 0; i < 5; i++)
		if (strcmp(argv[i], want[i]) != 0)
			return 20 + i;
	return 42;
}

#ifdef __aarch64__
/* Write img to path and run it in a child; its wait status (-1: could not write it). */
static int run_image(const char *path, const unsigned char *img, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755), st = -1;
	pid_t pid;

	if (fd < 0 || write(fd, img, len) != (ssize_t)len || close(fd) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)path, NULL }, *envp[] = { NULL };

		execve(path, argv, envp);
		_exit(100 + errno);
	}
	waitpid(pid, &st, 0);
	return st;
}

/*
 * A hand-made static ELF whose two PT_LOAD segments share a page: the
 * first (R+X, file [0, 0x100)) holds the headers and the code, the second
 * (R+W+X, file [0x100, 0x108), 0x40 in memory) starts in the same page. As
 * on Linux the second mapping replaces the first in that page (so it must
 * be executable too); the code exits with the byte at 0x400100 (42) plus
 * the first bss byte after it (0).
 */
static void test_shared_page(void)
{
	static unsigned char img[0x108];
	static const unsigned insns[] = {
		0xd2a00801,	/* movz x1, #0x40, lsl #16 */
		0x91040021,	/* add  x1, x1, #0x100 */
		0x39400020,	/* ldrb w0, [x1] */
		0x39402022,	/* ldrb w2, [x1, #8] (bss) */
		0x0b020000,	/* add  w0, w0, w2 */
		0xd2800ba8,	/* movz x8, #93 (exit) */
		0xd4000001,	/* svc  #0 */
	};
	struct { unsigned type, flags; unsigned long off, vaddr, paddr, filesz, memsz, align; } ph[2] = {
		{ 1, 5, 0, 0x400000, 0x400000, 0x100, 0x100, 0x1000 },
		{ 1, 7, 0x100, 0x400100, 0x400100, 0x8, 0x40, 0x1000 },
	};
	const char *path = "/tmp/exec-sharedpage";
	int st;

	memcpy(img, "\177ELF\2\1\1", 7);
	img[16] = 2;			/* e_type ET_EXEC */
	img[18] = 183;			/* e_machine EM_AARCH64 */
	img[20] = 1;			/* e_version */
	*(unsigned long *)(img + 24) = 0x4000b0;	/* e_entry: the code after the headers */
	img[32] = 64;			/* e_phoff */
	img[52] = 64;			/* e_ehsize */
	img[54] = 56;			/* e_phentsize */
	img[56] = 2;			/* e_phnum */
	memcpy(img + 64, ph, sizeof(ph));
	memcpy(img + 0xb0, insns, sizeof(insns));
	img[0x100] = 42;
	st = run_image(path, img, sizeof(img));
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 42,
	       "an ELF whose segments share a page runs, the later segment's mapping winning there (status %#x)", st);
	/* the second segment's file offset now disagrees with its address within a page */
	ph[1].off = 0x104;
	memcpy(img + 64, ph, sizeof(ph));
	st = run_image(path, img, sizeof(img));
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV && !(st & 0x80),
	       "a segment that cannot be mapped fails the exec past its point of no return: SIGSEGV, no core dump "
	       "with the default RLIMIT_CORE 0 (status %#x)", st);
	syscall(35 /* unlinkat */, -100 /* AT_FDCWD */, path, 0);
}
#else
static void test_shared_page(void)
{
	tap_skip("the hand-made ELF of the shared-page case is arm64 code");
}
#endif

int main(int argc, char **argv, char **envp)
{
	if (argc > 1 && !strcmp(argv[1], SCRIPT_FLAG))
		return script_child(argc, argv);
	if (argc == 2 && !strcmp(argv[1], SCRIPT_FLAG "-link"))
		return 42;
	if (getenv("EXEC_EMPTY_ARGV"))
		return argc == 1 && argv[0] && argv[0][0] == '\0' && !argv[1] ? 42 : 10 + (argc < 10 ? argc : 9);
	if (argc > 1 && !strcmp(argv[1], CHILD_FLAG))
		return child_mode(argc, argv, envp);
	if (argc == 4 && !strcmp(argv[1], CLOEXEC_FLAG))
		return cloexec_child(argv);
	tap_init();
	test_exec_errors();
	test_exec_self(argc > 0 && argv[0][0] == '/' ? argv[0] : "/bin/exec");
	test_cloexec(argc > 0 && argv[0][0] == '/' ? argv[0] : "/bin/exec");
	test_empty_argv(argc > 0 && argv[0][0] == '/' ? argv[0] : "/bin/exec");
	test_scripts_and_links();
	test_shared_page();
	return tap_done();
}
