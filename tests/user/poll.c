/* poll.c - ppoll (through poll/ppoll) and pselect6 on pipes and the
 * console: POLLIN/POLLOUT/POLLHUP/POLLERR/POLLNVAL, negative fds, zero and
 * finite timeouts, a wake-up by a writer, the temporary signal mask (EINTR
 * after the handler, even with SA_RESTART, the old mask back afterwards),
 * EINVAL/EBADF cases, and the console becoming readable when a line is typed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"

static volatile sig_atomic_t usr1;

static void on_usr1(int s)
{
	(void)s;
	usr1++;
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

static void test_pipe(void)
{
	int p[2];
	struct pollfd f[2];
	char c;

	if (pipe(p))
		return;
	f[0] = (struct pollfd){ p[0], POLLIN, 0 };
	f[1] = (struct pollfd){ p[1], POLLOUT, 0 };
	tap_ok(poll(f, 1, 0) == 0 && f[0].revents == 0, "an empty pipe is not readable");
	tap_ok(poll(&f[1], 1, 0) == 1 && f[1].revents == POLLOUT, "its write end is writable");
	write(p[1], "a", 1);
	tap_ok(poll(f, 2, 0) == 2 && f[0].revents == POLLIN && f[1].revents == POLLOUT, "with a byte in it: both ready");
	close(p[1]);
	tap_ok(poll(f, 1, 0) == 1 && f[0].revents == (POLLIN | POLLHUP), "writer gone, data left: POLLIN|POLLHUP (%#x)",
	       f[0].revents);
	read(p[0], &c, 1);
	tap_ok(poll(f, 1, 0) == 1 && f[0].revents == POLLHUP, "writer gone, empty: POLLHUP (%#x)", f[0].revents);
	close(p[0]);

	if (pipe(p))
		return;
	close(p[0]);
	f[1] = (struct pollfd){ p[1], POLLOUT, 0 };
	tap_ok(poll(&f[1], 1, 0) == 1 && (f[1].revents & POLLERR), "reader gone: the write end has POLLERR (%#x)",
	       f[1].revents);
	close(p[1]);

	f[0] = (struct pollfd){ 200, POLLIN, 0 };
	f[1] = (struct pollfd){ -1, POLLIN, 0x7f };
	tap_ok(poll(f, 2, 0) == 1 && f[0].revents == POLLNVAL && f[1].revents == 0,
	       "a closed fd is POLLNVAL, a negative one ignored (revents cleared)");
}

static void test_timeouts(void)
{
	int p[2];
	struct pollfd f;
	long t0, took;
	pid_t c;

	if (pipe(p))
		return;
	f = (struct pollfd){ p[0], POLLIN, 0 };
	t0 = now_ms();
	int r = poll(&f, 1, 150);

	took = now_ms() - t0;
	tap_ok(r == 0 && took >= 140 && took < 2000, "poll with 150 ms on an empty pipe times out after them (%ld ms)", took);
	c = fork();
	if (c == 0) {
		sleep_ms(150);
		write(p[1], "b", 1);
		_exit(0);
	}
	t0 = now_ms();
	r = poll(&f, 1, -1);
	took = now_ms() - t0;
	tap_ok(r == 1 && f.revents == POLLIN && took >= 100, "poll with no timeout wakes when a writer writes (%ld ms)",
	       took);
	waitpid(c, NULL, 0);
	close(p[0]);
	close(p[1]);
}

static void test_sigmask(void)
{
	int p[2];
	struct pollfd f;
	sigset_t block, during, now;
	struct timespec ts = { 5, 0 };
	struct sigaction sa;
	pid_t c;

	if (pipe(p))
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	sigemptyset(&during);
	f = (struct pollfd){ p[0], POLLIN, 0 };
	c = fork();
	if (c == 0) {
		sleep_ms(150);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	errno = 0;
	int r = ppoll(&f, 1, &ts, &during);

	tap_ok(r == -1 && errno == EINTR && usr1 == 1,
	       "ppoll with a mask that lets SIGUSR1 in: the handler runs, EINTR even with SA_RESTART (%d, %d)", r, errno);
	sigprocmask(SIG_BLOCK, NULL, &now);
	tap_ok(sigismember(&now, SIGUSR1) == 1, "after it the old mask (SIGUSR1 blocked) is back");
	waitpid(c, NULL, 0);
	kill(getpid(), SIGUSR1);
	ts.tv_sec = 0;
	ts.tv_nsec = 0;
	tap_ok(ppoll(&f, 1, &ts, &block) == 0 && usr1 == 1, "a pending signal the mask blocks does not interrupt");
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	tap_ok(usr1 == 2, "it is delivered once unblocked");
	errno = 0;
	tap_ok(syscall(SYS_ppoll, &f, 1, &ts, &during, 4) == -1 && errno == EINVAL, "ppoll with sigsetsize 4: EINVAL");
	ts.tv_nsec = 1000000000;
	errno = 0;
	tap_ok(ppoll(&f, 1, &ts, NULL) == -1 && errno == EINVAL, "ppoll with tv_nsec 1e9: EINVAL");
	signal(SIGUSR1, SIG_DFL);
	close(p[0]);
	close(p[1]);
}

static void test_pselect(void)
{
	int p[2];
	fd_set r, w;
	struct timespec zero = { 0, 0 }, t150 = { 0, 150000000 };
	long t0;

	if (pipe(p))
		return;
	FD_ZERO(&r);
	FD_ZERO(&w);
	FD_SET(p[0], &r);
	FD_SET(p[1], &w);
	tap_ok(pselect(p[1] + 1, &r, &w, NULL, &zero, NULL) == 1 && !FD_ISSET(p[0], &r) && FD_ISSET(p[1], &w),
	       "pselect: the write end writable, the empty read end not");
	write(p[1], "c", 1);
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	tap_ok(pselect(p[0] + 1, &r, NULL, NULL, &zero, NULL) == 1 && FD_ISSET(p[0], &r), "pselect: readable with a byte");
	char c;

	read(p[0], &c, 1);
	FD_ZERO(&r);
	FD_SET(p[0], &r);
	t0 = now_ms();
	tap_ok(pselect(p[0] + 1, &r, NULL, NULL, &t150, NULL) == 0 && !FD_ISSET(p[0], &r) && now_ms() - t0 >= 140,
	       "pselect times out after 150 ms with the set cleared");
	/* A closed fd below the table's size (Linux ignores bits past it). */
	int q = dup2(p[0], 20);

	close(q);
	FD_ZERO(&r);
	FD_SET(q, &r);
	errno = 0;
	tap_ok(pselect(q + 1, &r, NULL, NULL, &zero, NULL) == -1 && errno == EBADF, "pselect on a closed fd: EBADF");
	errno = 0;
	tap_ok(pselect(-1, NULL, NULL, NULL, &zero, NULL) == -1 && errno == EINVAL, "pselect with nfds -1: EINVAL");
	close(p[0]);
	close(p[1]);
}

struct ktermios {
	unsigned iflag, oflag, cflag, lflag;
	unsigned char line, cc[19];
};

static void test_console(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);
	struct ktermios saved, t;
	struct pollfd f;
	char buf[8];

	if (fd < 0 || syscall(SYS_ioctl, fd, 0x5401, &saved)) {
		tap_skip("no /dev/console terminal");
		tap_skip("no /dev/console terminal");
		return;
	}
	t = saved;
	t.lflag = (t.lflag | 0x2) & ~0x8u;	/* ICANON, no ECHO */
	syscall(SYS_ioctl, fd, 0x5402, &t);
	syscall(SYS_ioctl, fd, 0x540b, 0);	/* flush typed input */
	f = (struct pollfd){ fd, POLLIN | POLLOUT, 0 };
	tap_ok(poll(&f, 1, 0) == 1 && f.revents == POLLOUT, "the console: writable, not readable with nothing typed (%#x)",
	       f.revents);
	syscall(SYS_ioctl, fd, 0x5412, "z");
	syscall(SYS_ioctl, fd, 0x5412, "\n");
	f.revents = 0;
	tap_ok(poll(&f, 1, 1000) == 1 && (f.revents & POLLIN) && read(fd, buf, sizeof(buf)) == 2,
	       "a typed line makes it readable (%#x)", f.revents);
	syscall(SYS_ioctl, fd, 0x5402, &saved);
	close(fd);
}

int main(void)
{
	tap_init();
	test_pipe();
	test_timeouts();
	test_sigmask();
	test_pselect();
	test_console();
	return tap_done();
}
