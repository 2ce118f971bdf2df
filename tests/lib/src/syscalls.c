/* syscalls.c - thin wrappers: one Linux system call each, errno on failure.
 * The number used by each wrapper is in include/sys/syscall.h.
 */
#include <sys/auxv.h>
#include <stdarg.h>
#include <unistd.h>
#include <fcntl.h>
#include <time.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/random.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/sysinfo.h>
#include "libc.h"

/* ---- files ---------------------------------------------------------------- */

ssize_t read(int fd, void *buf, size_t n) { return syscall_ret(SYS_read, fd, buf, n); }
ssize_t write(int fd, const void *buf, size_t n) { return syscall_ret(SYS_write, fd, buf, n); }
int close(int fd) { return (int)syscall_ret(SYS_close, fd); }
off_t lseek(int fd, off_t off, int whence) { return syscall_ret(SYS_lseek, fd, off, whence); }
int pipe2(int fds[2], int flags) { return (int)syscall_ret(SYS_pipe2, fds, flags); }
int pipe(int fds[2]) { return pipe2(fds, 0); }

/* dup3 refuses oldfd == newfd, where dup2 succeeds if the descriptor is open. */
int dup2(int oldfd, int newfd)
{
	if (oldfd == newfd) {
		if (sys(SYS_lseek, oldfd, 0, SEEK_CUR) == -EBADF) {
			errno = EBADF;
			return -1;
		}
		return newfd;
	}
	return (int)syscall_ret(SYS_dup3, oldfd, newfd, 0);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & O_CREAT) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return (int)syscall_ret(SYS_openat, dirfd, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	if (flags & O_CREAT) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return (int)syscall_ret(SYS_openat, AT_FDCWD, path, flags, mode);
}

int mount(const char *source, const char *target, const char *fstype,
	  unsigned long flags, const void *data)
{
	return (int)syscall_ret(SYS_mount, source, target, fstype, flags, data);
}

int reboot(int cmd)
{
	return (int)syscall_ret(SYS_reboot, 0xfee1deadUL, 672274793, (unsigned int)cmd, 0);
}

/* ---- processes ------------------------------------------------------------ */

void _exit(int status)
{
	for (;;)
		sys(SYS_exit_group, status);
}

void _Exit(int status)
{
	_exit(status);
}

pid_t fork(void)
{
#if defined(__aarch64__)
	/* clone(flags = SIGCHLD, stack = 0: share nothing, copy the stack) */
	return (pid_t)syscall_ret(SYS_clone, SIGCHLD, 0, 0, 0, 0);
#else
	return (pid_t)syscall_ret(SYS_fork);
#endif
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	return (int)syscall_ret(SYS_execve, path, argv, envp);
}

int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru)
{
	return (pid_t)syscall_ret(SYS_wait4, pid, status, options, ru);
}

pid_t waitpid(pid_t pid, int *status, int options) { return wait4(pid, status, options, 0); }
pid_t wait(int *status) { return wait4(-1, status, 0, 0); }
pid_t getpid(void) { return (pid_t)sys(SYS_getpid); }
pid_t getppid(void) { return (pid_t)sys(SYS_getppid); }
pid_t gettid(void) { return (pid_t)sys(SYS_gettid); }
uid_t getuid(void) { return (uid_t)sys(SYS_getuid); }
int sysinfo(struct sysinfo *info) { return (int)syscall_ret(SYS_sysinfo, info); }
int setuid(uid_t uid) { return (int)syscall_ret(SYS_setuid, uid); }

long syscall(long number, ...)
{
	va_list ap;
	long a[6];

	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return __sysret(__syscall6(number, a[0], a[1], a[2], a[3], a[4], a[5]));
}

/* ---- memory --------------------------------------------------------------- */

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
#if defined(__microblaze__)
	/* mmap2 takes the offset in 4 KiB units */
	if (off & 4095) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	off >>= 12;
#endif
	return (void *)syscall_ret(SYS_mmap, addr, len, prot, flags, fd, off);
}

int munmap(void *addr, size_t len) { return (int)syscall_ret(SYS_munmap, addr, len); }
int mprotect(void *addr, size_t len, int prot) { return (int)syscall_ret(SYS_mprotect, addr, len, prot); }
int madvise(void *addr, size_t len, int advice) { return (int)syscall_ret(SYS_madvise, addr, len, advice); }
int mseal(void *addr, size_t len, unsigned long flags) { return (int)syscall_ret(SYS_mseal, addr, len, flags); }

void *mremap(void *old_address, size_t old_size, size_t new_size, int flags, ...)
{
	void *new_address = 0;

	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP)) {
		va_list ap;
		va_start(ap, flags);
		new_address = va_arg(ap, void *);
		va_end(ap);
	}
	return (void *)syscall_ret(SYS_mremap, old_address, old_size, new_size, flags, new_address);
}

/* The kernel's brk returns the new break, or the old one when it refuses. */
static unsigned long cur_brk;

int brk(void *addr)
{
	unsigned long r = (unsigned long)sys(SYS_brk, addr);

	cur_brk = r;
	if (r < (unsigned long)addr) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void *sbrk(intptr_t increment)
{
	unsigned long old;

	if (!cur_brk)
		cur_brk = (unsigned long)sys(SYS_brk, 0);
	old = cur_brk;
	if (increment && brk((void *)(old + increment)) < 0)
		return (void *)-1;
	return (void *)old;
}

/* ---- time, scheduling, system information --------------------------------- */

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	return (int)syscall_ret(SYS_clock_gettime, clk, ts);
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return (int)syscall_ret(SYS_nanosleep, req, rem);
}

/* Unlike most calls, clock_nanosleep returns the error number itself. */
int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem)
{
	return (int)-sys(SYS_clock_nanosleep, clk, flags, req, rem);
}

time_t time(time_t *t)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) < 0)
		return (time_t)-1;
	if (t)
		*t = ts.tv_sec;
	return ts.tv_sec;
}

int usleep(unsigned int usec)
{
	struct timespec ts = { usec / 1000000, (long)(usec % 1000000) * 1000 };

	return nanosleep(&ts, 0);
}

unsigned int sleep(unsigned int seconds)
{
	struct timespec ts = { seconds, 0 };

	if (nanosleep(&ts, &ts) < 0)
		return (unsigned int)ts.tv_sec;
	return 0;
}

int sched_yield(void) { return (int)syscall_ret(SYS_sched_yield); }
int uname(struct utsname *u) { return (int)syscall_ret(SYS_uname, u); }
int getrusage(int who, struct rusage *ru) { return (int)syscall_ret(SYS_getrusage, who, ru); }
ssize_t getrandom(void *buf, size_t len, unsigned int flags) { return syscall_ret(SYS_getrandom, buf, len, flags); }

int prlimit(pid_t pid, int resource, const struct rlimit *new_limit, struct rlimit *old_limit)
{
	return (int)syscall_ret(SYS_prlimit64, pid, resource, new_limit, old_limit);
}

int getrlimit(int resource, struct rlimit *rl) { return prlimit(0, resource, 0, rl); }
int setrlimit(int resource, const struct rlimit *rl) { return prlimit(0, resource, rl, 0); }

/* The page size is the kernel's: AT_PAGESZ in the auxiliary vector, as glibc reads it. */
long sysconf(int name)
{
	if (name == _SC_PAGESIZE)
		return (long)getauxval(AT_PAGESZ);
	errno = EINVAL;
	return -1;
}

int getpagesize(void) { return (int)getauxval(AT_PAGESZ); }
