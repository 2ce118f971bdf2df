/* proc.c - process groups, sessions, the terminal's foreground group and
 * interval timers, ppoll and pselect6, ids, prctl: one Linux system call (or ioctl) each, errno on failure. */
#include <stdarg.h>
#include <unistd.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/select.h>
#include <poll.h>
#include "libc.h"

#define TIOCGPGRP 0x540f
#define TIOCSPGRP 0x5410

int setpgid(pid_t pid, pid_t pgid) { return (int)syscall_ret(SYS_setpgid, pid, pgid); }
pid_t getpgid(pid_t pid) { return (pid_t)syscall_ret(SYS_getpgid, pid); }
pid_t getpgrp(void) { return getpgid(0); }
pid_t setsid(void) { return (pid_t)syscall_ret(SYS_setsid); }
pid_t getsid(pid_t pid) { return (pid_t)syscall_ret(SYS_getsid, pid); }

pid_t tcgetpgrp(int fd)
{
	int pgrp;

	return syscall_ret(SYS_ioctl, fd, TIOCGPGRP, &pgrp) < 0 ? -1 : pgrp;
}

int tcsetpgrp(int fd, pid_t pgrp)
{
	int v = pgrp;

	return (int)syscall_ret(SYS_ioctl, fd, TIOCSPGRP, &v);
}

/* ---- interval timers ---- */

int getitimer(int which, struct itimerval *curr) { return (int)syscall_ret(SYS_getitimer, which, curr); }

int setitimer(int which, const struct itimerval *nv, struct itimerval *ov)
{
	return (int)syscall_ret(SYS_setitimer, which, nv, ov);
}

/* alarm: its own call where the arch has one, else ITIMER_REAL (as glibc),
 * with the seconds left rounded to nearest, at least 1 if any time was left. */
unsigned int alarm(unsigned int seconds)
{
#if defined(__microblaze__)
	return (unsigned int)sys(SYS_alarm, seconds);
#else
	struct itimerval nv = { { 0, 0 }, { (time_t)seconds, 0 } }, ov;
	unsigned int left;

	if (setitimer(ITIMER_REAL, &nv, &ov) < 0)
		return 0;
	left = (unsigned int)ov.it_value.tv_sec;
	if ((!left && ov.it_value.tv_usec) || ov.it_value.tv_usec >= 500000)
		left++;
	return left;
#endif
}

/* ---- ppoll and pselect6 (the kernel writes the time left back: copy it) ---- */

int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *tmo, const sigset_t *mask)
{
	struct timespec t, *tp = 0;

	if (tmo) {
		t = *tmo;
		tp = &t;
	}
	return (int)syscall_ret(SYS_ppoll, fds, nfds, tp, mask, mask ? 8 : 0);
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout_ms)
{
	struct timespec t = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };

	return ppoll(fds, nfds, timeout_ms < 0 ? 0 : &t, 0);
}

int pselect(int nfds, fd_set *r, fd_set *w, fd_set *e, const struct timespec *tmo, const sigset_t *mask)
{
	struct timespec t, *tp = 0;
	unsigned long sm[2] = { (unsigned long)mask, 8 };

	if (tmo) {
		t = *tmo;
		tp = &t;
	}
	return (int)syscall_ret(SYS_pselect6, nfds, r, w, e, tp, mask ? sm : 0);
}

/* ---- user and group ids ---- */

uid_t geteuid(void) { return (uid_t)sys(SYS_geteuid); }
gid_t getgid(void) { return (gid_t)sys(SYS_getgid); }
gid_t getegid(void) { return (gid_t)sys(SYS_getegid); }
int setgid(gid_t gid) { return (int)syscall_ret(SYS_setgid, gid); }
int setreuid(uid_t r, uid_t e) { return (int)syscall_ret(SYS_setreuid, r, e); }
int setregid(gid_t r, gid_t e) { return (int)syscall_ret(SYS_setregid, r, e); }
int setresuid(uid_t r, uid_t e, uid_t s) { return (int)syscall_ret(SYS_setresuid, r, e, s); }
int setresgid(gid_t r, gid_t e, gid_t s) { return (int)syscall_ret(SYS_setresgid, r, e, s); }
int getresuid(uid_t *r, uid_t *e, uid_t *s) { return (int)syscall_ret(SYS_getresuid, r, e, s); }
int getresgid(gid_t *r, gid_t *e, gid_t *s) { return (int)syscall_ret(SYS_getresgid, r, e, s); }
int getgroups(int size, gid_t list[]) { return (int)syscall_ret(SYS_getgroups, size, list); }
int setgroups(size_t size, const gid_t *list) { return (int)syscall_ret(SYS_setgroups, size, list); }

/* ---- prctl ---- */

int prctl(int option, ...)
{
	va_list ap;
	unsigned long x[4];

	va_start(ap, option);
	for (int i = 0; i < 4; i++)
		x[i] = va_arg(ap, unsigned long);
	va_end(ap);
	return (int)syscall_ret(SYS_prctl, option, x[0], x[1], x[2], x[3]);
}
