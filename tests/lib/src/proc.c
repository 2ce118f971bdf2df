/* proc.c - process groups, sessions, the terminal's foreground group and
 * interval timers: one Linux system call (or ioctl) each, errno on failure. */
#include <unistd.h>
#include <sys/time.h>
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
