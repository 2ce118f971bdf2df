/* tty.c - the console as a terminal: a session leader takes it as its
 * controlling terminal (TIOCSCTTY) and is the foreground group
 * (TIOCGPGRP/TIOCGSID); termios set and read back; the canonical line
 * discipline (erase, end of line, ^D on an empty line), raw reads with
 * VMIN 0 / VTIME 0; ^C typed (TIOCSTI) signals the foreground group;
 * TIOCSWINSZ and SIGWINCH; TIOCSPGRP's errors; a background group that
 * reads gets SIGTTIN (or EIO when it ignores it); tcsetpgrp with SIGTTOU
 * ignored; TIOCNOTTY. The job-control reads use /dev/tty (Linux does not
 * stop readers of /dev/console). Input is "typed" with TIOCSTI, which root may use
 * on Linux too. Echo is off while the test types, and the terminal's
 * settings are restored at the end.
 *
 * Everything runs in a child that starts a new session; it reports one
 * bit per failed check through a pipe, and the parent makes the points.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"

#define TCGETS		0x5401
#define TCSETS		0x5402
#define TIOCSCTTY	0x540e
#define TIOCSTI		0x5412
#define TIOCGWINSZ	0x5413
#define TIOCSWINSZ	0x5414
#define FIONREAD	0x541b
#define TIOCNOTTY	0x5422
#define TIOCGSID	0x5429
#define L_ISIG		0x001
#define L_ICANON	0x002
#define L_ECHO		0x008
#define C_VTIME		5
#define C_VMIN		6

struct ktermios {
	unsigned iflag, oflag, cflag, lflag;
	unsigned char line, cc[19];
};

static const char *checks[] = {
	"TIOCSCTTY by a new session's leader",
	"tcgetpgrp and TIOCGSID: the leader's group and session",
	"TCSETS then TCGETS: the new lflag reads back",
	"canonical read: erase removes a byte, the line ends at newline",
	"FIONREAD counts a typed line",
	"^D on an empty line: read returns 0",
	"raw, VMIN 0 VTIME 0: read returns 0 at once, then the typed byte",
	"^C typed: SIGINT to the foreground group",
	"TIOCSWINSZ reads back with TIOCGWINSZ, SIGWINCH sent",
	"TIOCSPGRP: negative is EINVAL, no such group ESRCH",
	"a background reader stops with SIGTTIN",
	"a background reader ignoring SIGTTIN: EIO",
	"tcsetpgrp hands the terminal to another group and back (SIGTTOU ignored)",
	"TIOCNOTTY by the leader: no controlling terminal after it",
};

static volatile sig_atomic_t got_int, got_winch;

static void on_int(int s) { (void)s; got_int++; }
static void on_winch(int s) { (void)s; got_winch++; }

static int ioc(int fd, unsigned long cmd, void *arg)
{
	return (int)syscall(SYS_ioctl, fd, cmd, arg);
}

static void type(int fd, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ioc(fd, TIOCSTI, (void *)&s[i]);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* A grandchild in a group of its own that reads the terminal once:
 * exits 0 after a byte, 10 + errno on an error. */
static pid_t background_reader(int fd, int ignore_ttin)
{
	pid_t g = fork();
	char c;

	if (g == 0) {
		setpgid(0, 0);
		if (ignore_ttin)
			signal(SIGTTIN, SIG_IGN);
		ssize_t n = read(fd, &c, 1);

		_exit(n == 1 ? 0 : n < 0 ? 10 + errno : 9);
	}
	setpgid(g, g);
	return g;
}

#define BAD(n) (bad |= 1u << (n))

static unsigned session_tests(int fd)
{
	unsigned bad = 0;
	struct ktermios saved, t;
	unsigned short ws[4] = { 0 }, ws2[4] = { 30, 100, 0, 0 }, ws_saved[4];
	char buf[16];
	int v = -1, st;
	pid_t me = getpid(), g;

	if (setsid() != me || ioc(fd, TIOCSCTTY, (void *)1) != 0)
		return 1u << 0;	/* nothing else can work */
	if (tcgetpgrp(fd) != me || ioc(fd, TIOCGSID, &v) != 0 || v != me)
		BAD(1);
	if (ioc(fd, TCGETS, &saved))
		BAD(2);
	t = saved;
	t.lflag = (t.lflag | L_ICANON | L_ISIG) & ~L_ECHO;
	if (ioc(fd, TCSETS, &t) || ioc(fd, TCGETS, &t) || (t.lflag & L_ECHO) || !(t.lflag & L_ICANON))
		BAD(2);

	ioc(fd, 0x540b, (void *)0);	/* TCFLSH TCIFLUSH: nothing typed before counts */
	type(fd, "ab\177c\n", 5);
	memset(buf, 0, sizeof(buf));
	if (read(fd, buf, sizeof(buf)) != 3 || memcmp(buf, "ac\n", 3))
		BAD(3);
	type(fd, "xy\n", 3);
	v = -1;
	if (ioc(fd, FIONREAD, &v) || v != 3 || read(fd, buf, sizeof(buf)) != 3)
		BAD(4);
	type(fd, "\004", 1);
	if (read(fd, buf, sizeof(buf)) != 0)
		BAD(5);

	t.lflag &= ~L_ICANON;
	t.cc[C_VMIN] = 0;
	t.cc[C_VTIME] = 0;
	if (ioc(fd, TCSETS, &t) || read(fd, buf, sizeof(buf)) != 0)
		BAD(6);
	type(fd, "q", 1);
	if (read(fd, buf, sizeof(buf)) != 1 || buf[0] != 'q')
		BAD(6);

	signal(SIGINT, on_int);
	type(fd, "\003", 1);
	if (got_int != 1)
		BAD(7);

	signal(SIGWINCH, on_winch);
	if (ioc(fd, TIOCGWINSZ, ws_saved) || ioc(fd, TIOCSWINSZ, ws2) || ioc(fd, TIOCGWINSZ, ws) ||
	    ws[0] != 30 || ws[1] != 100 || got_winch != 1)
		BAD(8);
	ioc(fd, TIOCSWINSZ, ws_saved);

	errno = 0;
	if (tcsetpgrp(fd, -1) != -1 || errno != EINVAL)
		BAD(9);
	errno = 0;
	if (tcsetpgrp(fd, 999999) != -1 || errno != ESRCH)
		BAD(9);

	/* Linux exempts /dev/console from job control: use /dev/tty. */
	int tfd = open("/dev/tty", O_RDWR);

	if (tfd < 0)
		BAD(10), BAD(11);
	g = background_reader(tfd, 0);
	st = -1;
	if (waitpid(g, &st, WUNTRACED) != g || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTTIN)
		BAD(10);
	kill(g, SIGKILL);
	waitpid(g, &st, 0);

	g = background_reader(tfd, 1);
	waitpid(g, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 10 + EIO)
		BAD(11);

	/* The terminal to a new group, whose member then reads a typed byte. */
	t.cc[C_VMIN] = 1;
	ioc(fd, TCSETS, &t);
	signal(SIGTTOU, SIG_IGN);
	g = fork();
	if (g == 0) {
		setpgid(0, 0);
		sleep_ms(200);	/* the parent makes us the foreground meanwhile */
		ssize_t n = read(fd, buf, 1);

		_exit(n == 1 && buf[0] == 'k' ? 0 : 1);
	}
	setpgid(g, g);
	if (tcsetpgrp(fd, g) || tcgetpgrp(fd) != g)
		BAD(12);
	type(fd, "k", 1);
	waitpid(g, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || tcsetpgrp(fd, me) || tcgetpgrp(fd) != me)
		BAD(12);

	ioc(fd, TCSETS, &saved);
	signal(SIGHUP, SIG_IGN);
	errno = 0;
	if (ioc(fd, TIOCNOTTY, NULL) != 0 || tcgetpgrp(fd) != -1 || errno != ENOTTY)
		BAD(13);
	return bad;
}

int main(void)
{
	int fd, st = -1, p[2];
	pid_t c;
	unsigned bad;
	size_t n = sizeof(checks) / sizeof(checks[0]);

	tap_init();
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd < 0) {
		for (size_t i = 0; i < n; i++)
			tap_skip("no /dev/console (%d): %s", errno, checks[i]);
		return tap_done();
	}
	if (pipe(p))
		return tap_done();
	c = fork();
	if (c == 0) {
		bad = session_tests(fd);
		write(p[1], &bad, sizeof(bad));
		_exit(0);
	}
	close(p[1]);
	bad = ~0u;
	read(p[0], &bad, sizeof(bad));
	waitpid(c, &st, 0);
	tap_ok(WIFEXITED(st), "the session child exits normally (%#x)", st);
	for (size_t i = 0; i < n; i++)
		tap_ok(!(bad & (1u << i)), "%s", checks[i]);
	return tap_done();
}
