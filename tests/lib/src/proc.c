/* proc.c - process groups, sessions and the terminal's foreground group:
 * one Linux system call (or ioctl) each, errno on failure. */
#include <unistd.h>
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
