/* efault.c - system calls given bad pointers fail with EFAULT instead of
 * faulting in the kernel or signalling the caller: an unmapped page, NULL,
 * a kernel address, and (for a buffer the kernel must write) a read-only
 * page. No signal may reach the process on the way.
 *
 * Calls whose C library wrapper would touch the pointer itself are made
 * with syscall() so that the kernel sees the bad pointer.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include "tap.h"

#if defined(__aarch64__)
#define KERNEL_ADDR 0xffff000000100000UL
#elif defined(__microblaze__)
#define KERNEL_ADDR 0xc0100000UL
#endif
/* The page size is the kernel's (4, 16 or 64 KiB on arm64). */
#define PAGE ((unsigned long)getpagesize())

static volatile int signals_seen;

/* Hidden from the compiler, which would otherwise refuse a literal NULL. */
static void *volatile null_ptr;
static char *const no_args[] = { "x", NULL };

static void on_signal(int sig)
{
	(void)sig;
	signals_seen++;
}

/* One point: r is -1 with errno EFAULT. */
static void expect_efault(long r, const char *what)
{
	int e = errno;

	tap_ok(r == -1 && e == EFAULT, "%s: EFAULT (returned %ld, errno %d)", what, r, e);
	errno = 0;
}

int main(void)
{
	char *hole, *ro;
	void *kaddr = (void *)KERNEL_ADDR;
	int fd;

	tap_init();
	signal(SIGSEGV, on_signal);
	signal(SIGBUS, on_signal);

	/* The hole is made last: a later mmap could fill it again. */
	ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	hole = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tap_ok(hole != MAP_FAILED && ro != MAP_FAILED, "set-up: a hole and a read-only page");
	munmap(hole, 3 * PAGE);
	hole += PAGE;
	errno = 0;

	expect_efault(write(1, hole, 16), "write() from an unmapped buffer");
	expect_efault(write(1, null_ptr, 16), "write() from NULL");
	expect_efault(write(1, kaddr, 16), "write() from a kernel address");

	fd = open("/proc/self/maps", O_RDONLY);
	tap_ok(fd >= 0, "open /proc/self/maps for reading");
	errno = 0;
	expect_efault(read(fd, hole, 64), "read() into an unmapped buffer");
	expect_efault(read(fd, ro, 64), "read() into a read-only page");
	expect_efault(read(fd, kaddr, 64), "read() into a kernel address");
	close(fd);

	expect_efault(open(hole, O_RDONLY), "openat() with an unmapped path");
	expect_efault(open(null_ptr, O_RDONLY), "openat() with a NULL path");
	expect_efault(open(kaddr, O_RDONLY), "openat() with a kernel-address path");
	expect_efault(execve(hole, no_args, no_args + 1), "execve() with an unmapped path");

	expect_efault(uname((struct utsname *)hole), "uname() into an unmapped buffer");
	expect_efault(uname((struct utsname *)ro), "uname() into a read-only page");
	expect_efault(getrusage(RUSAGE_SELF, (struct rusage *)kaddr), "getrusage() into a kernel address");
	expect_efault(getrandom(hole, 16, 0), "getrandom() into an unmapped buffer");
	expect_efault(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, hole), "clock_gettime() into an unmapped buffer");
	expect_efault(syscall(SYS_nanosleep, hole, NULL), "nanosleep() reading an unmapped timespec");
	expect_efault(syscall(SYS_rt_sigaction, SIGUSR1, hole, NULL, 8), "rt_sigaction() reading an unmapped action");
	expect_efault(syscall(SYS_rt_sigprocmask, SIG_BLOCK, kaddr, NULL, 8), "rt_sigprocmask() reading a kernel address");

	tap_is_long(signals_seen, 0, "no SIGSEGV or SIGBUS reached the process");
	munmap(ro, PAGE);
	return tap_done();
}
