/* abi.c - the shapes and widths of Linux's system-call ABI.
 *
 * Layouts: every structure the kernel writes to user memory is exactly
 * Linux's size for the architecture (struct stat (stat64 on MicroBlaze),
 * struct rusage, struct timespec, struct utsname, struct rlimit64, struct
 * sysinfo, and siginfo in a signal frame). The buffer is filled with guard
 * bytes first: the ones after the structure must stay intact, and its last
 * field must have been written. The sizes are Linux's uapi ones, per arch.
 * struct sysinfo's fields are checked against /proc/meminfo too.
 *
 * Argument widths: Linux reads an argument it declares 32 bits wide (int fd,
 * int sig, unsigned int cmd, pid_t, ...) from the low half of its register
 * only, so calls made through syscall() with garbage in the upper 32 bits
 * behave like clean ones. On MicroBlaze registers are 32 bits: the same
 * calls run without an upper half.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include "tap.h"
#include "mm_util.h"	/* meminfo() */

#define L64 (sizeof(long) == 8)
/* Garbage for the upper half of a register (0 where longs are 32 bits). */
#define HI ((unsigned long)0xdeadbeef00000000ULL)
#define GUARD 0xa5

/* Linux's uapi sizes: 64-bit longs (arm64) or 32-bit ones (MicroBlaze). */
#define STAT_SIZE (L64 ? 128 : 104)	/* generic struct stat / struct stat64 */
#define RUSAGE_SIZE (L64 ? 144 : 72)	/* two old timevals and 14 longs */
#define TIMESPEC_SIZE (L64 ? 16 : 8)	/* the old (long) timespec on 32-bit */
#define SYSINFO_SIZE (L64 ? 112 : 64)
#define UTSNAME_SIZE 390		/* struct new_utsname: 6 x 65 */
#define RLIMIT64_SIZE 16
#define SIGINFO_SIZE 128

#define REBOOT_MAGIC1 0xfee1dead
#define REBOOT_MAGIC2 672274793
#define REBOOT_CMD_CAD_ON 0x89abcdef	/* Ctrl-Alt-Del reboots: Linux's default */
#define FD_CLOEXEC_BIT 1
#define F_DUPFD_CMD 0
#define F_GETFD_CMD 1
#define AT_EMPTY_PATH_FLAG 0x1000
#define MFD_CLOEXEC_FLAG 1
#define SELF "/bin/abi"

static unsigned char buf[1024] __attribute__((aligned(16)));

static void fill(void)
{
	memset(buf, GUARD, sizeof(buf));
}

/* Whether the guard bytes from size to the end of buf are untouched. */
static int guard_intact(size_t size)
{
	for (size_t i = size; i < sizeof(buf); i++)
		if (buf[i] != GUARD)
			return 0;
	return 1;
}

static int all_zero(size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (buf[i])
			return 0;
	return 1;
}

static long long_at(size_t off)
{
	long v;

	memcpy(&v, buf + off, sizeof(v));
	return v;
}

static long long s64_at(size_t off)
{
	long long v;

	memcpy(&v, buf + off, sizeof(v));
	return v;
}

static unsigned u32_at(size_t off)
{
	unsigned v;

	memcpy(&v, buf + off, sizeof(v));
	return v;
}

static void test_sysinfo(void)
{
	struct sysinfo si;
	size_t end_of_unit = offsetof(struct sysinfo, mem_unit) + sizeof(si.mem_unit);
	long total = meminfo("MemTotal");
	unsigned long long kb = total > 0 ? (unsigned long long)total : 0, bytes;

	tap_is_long(sizeof(struct sysinfo), SYSINFO_SIZE, "the libc's struct sysinfo is Linux's size");
	fill();
	tap_is_long(syscall(SYS_sysinfo, (long)buf), 0, "sysinfo() succeeds");
	tap_ok(guard_intact(SYSINFO_SIZE), "sysinfo writes no byte beyond its %d", SYSINFO_SIZE);
	tap_ok(all_zero(end_of_unit, SYSINFO_SIZE), "the padding after mem_unit up to byte %d is written (zero)",
	       SYSINFO_SIZE);
	memcpy(&si, buf, sizeof(si));
	bytes = (unsigned long long)si.totalram * si.mem_unit;
	tap_ok(si.mem_unit && !(si.mem_unit & (si.mem_unit - 1)), "mem_unit is a power of two (%u)", si.mem_unit);
	tap_ok(kb && bytes / 1024 == kb, "totalram * mem_unit is MemTotal (%llu kB, meminfo %llu kB)",
	       bytes / 1024, kb);
	tap_ok(si.mem_unit == 1 || si.totalram + si.totalswap > ~0UL / si.mem_unit,
	       "memory that fits in an unsigned long as bytes is given in bytes (mem_unit %u)", si.mem_unit);
	tap_ok(si.freeram > 0 && si.freeram <= si.totalram, "0 < freeram <= totalram (%lu, %lu)", si.freeram,
	       si.totalram);
	tap_ok(si.procs >= 2, "procs counts at least init and this process (%u)", si.procs);
	tap_ok(si.uptime > 0, "uptime is positive (%ld s)", si.uptime);
	memset(&si, 0, sizeof(si));
	tap_ok(sysinfo(&si) == 0 && si.mem_unit == u32_at(offsetof(struct sysinfo, mem_unit)) &&
	       (unsigned long long)si.totalram * si.mem_unit == bytes, "sysinfo() through the libc agrees");
}

static void test_stat(void)
{
	int fd = open(SELF, O_RDONLY);
	long size = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);

	fill();
	tap_is_long(syscall(SYS_fstat, (long)fd, (long)buf), 0, "fstat(%s)", SELF);
	tap_ok(guard_intact(STAT_SIZE), "fstat writes no byte beyond its %d", STAT_SIZE);
	tap_ok(all_zero(STAT_SIZE - 8, STAT_SIZE), "the unused words that end the structure are written (zero)");
	tap_ok((u32_at(16) & 0170000) == 0100000, "st_mode (offset 16) is a regular file (0%o)", u32_at(16));
	tap_ok(size > 0 && s64_at(48) == size, "st_size (offset 48) is the file's size (%lld, lseek %ld)",
	       s64_at(48), size);
	tap_ok((int)u32_at(56) > 0, "st_blksize (offset 56) is positive (%d)", (int)u32_at(56));
	fill();
	tap_is_long(syscall(SYS_newfstatat, (long)AT_FDCWD, (long)SELF, (long)buf, 0L), 0, "fstatat(%s)", SELF);
	tap_ok(guard_intact(STAT_SIZE) && all_zero(STAT_SIZE - 8, STAT_SIZE) && s64_at(48) == size,
	       "fstatat writes exactly %d bytes, with st_size", STAT_SIZE);
	close(fd);
}

static void test_rusage(void)
{
	size_t last = RUSAGE_SIZE - sizeof(long);
	int st = 0;
	pid_t pid;

	fill();
	tap_is_long(syscall(SYS_getrusage, (long)RUSAGE_SELF, (long)buf), 0, "getrusage(RUSAGE_SELF)");
	tap_ok(guard_intact(RUSAGE_SIZE), "getrusage writes no byte beyond its %d", RUSAGE_SIZE);
	tap_ok(long_at(last) >= 0 && long_at(sizeof(long)) >= 0 && long_at(sizeof(long)) < 1000000,
	       "ru_nivcsw (the last field) is written and ru_utime's microseconds are in range");
	pid = fork();
	if (pid == 0)
		_exit(0);
	fill();
	tap_is_long(syscall(SYS_wait4, (long)pid, (long)&st, 0L, (long)buf), pid, "wait4 with a struct rusage");
	tap_ok(guard_intact(RUSAGE_SIZE) && long_at(last) >= 0, "wait4 writes exactly %d bytes of rusage",
	       RUSAGE_SIZE);
}

static void test_timespec_utsname_rlimit(void)
{
	fill();
	tap_is_long(syscall(SYS_clock_gettime, (long)CLOCK_MONOTONIC, (long)buf), 0, "clock_gettime(CLOCK_MONOTONIC)");
	tap_ok(guard_intact(TIMESPEC_SIZE), "clock_gettime writes no byte beyond its %d", TIMESPEC_SIZE);
	tap_ok(long_at(sizeof(long)) >= 0 && long_at(sizeof(long)) < 1000000000,
	       "tv_nsec (the last field) is written and in range (%ld)", long_at(sizeof(long)));

	fill();
	tap_is_long(syscall(SYS_uname, (long)buf), 0, "uname");
	tap_ok(guard_intact(UTSNAME_SIZE), "uname writes no byte beyond its %d", UTSNAME_SIZE);
	tap_ok(buf[UTSNAME_SIZE - 1] == 0 && !strcmp((char *)buf, "Linux"),
	       "domainname's last byte is written (NUL) and sysname is \"Linux\"");

	fill();
	tap_is_long(syscall(SYS_prlimit64, 0L, (long)RLIMIT_NOFILE, 0L, (long)buf), 0, "prlimit64 reads RLIMIT_NOFILE");
	tap_ok(guard_intact(RLIMIT64_SIZE), "prlimit64 writes no byte beyond its %d", RLIMIT64_SIZE);
	tap_ok((unsigned long long)s64_at(0) <= (unsigned long long)s64_at(8) &&
	       (unsigned long long)s64_at(8) != 0xa5a5a5a5a5a5a5a5ULL,
	       "rlim_max (the last field) is written and rlim_cur <= rlim_max");
}

static volatile int usr1_count;
static unsigned char frame_info[SIGINFO_SIZE];
static volatile long info_to_uc;
static volatile unsigned long uc_mask;	/* the first word of the kernel's sigset */

static void on_usr1_info(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	memcpy(frame_info, info, sizeof(frame_info));
	info_to_uc = (char *)uc - (char *)info;
	/* uc_sigmask: after flags, link and stack_t on arm64; after the
	 * mcontext on MicroBlaze. */
	memcpy((void *)&uc_mask, (char *)uc + (L64 ? 40 : 176), sizeof(uc_mask));
	usr1_count++;
}

static void on_usr1(int sig)
{
	(void)sig;
	usr1_count++;
}

static void test_siginfo(void)
{
	struct sigaction sa;
	sigset_t usr2, old;
	int signo, code, pid, uid;
	size_t pid_off = L64 ? 16 : 12;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1_info;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, &old);
	usr1_count = 0;
	kill(getpid(), SIGUSR1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	memcpy(&signo, frame_info, 4);
	memcpy(&code, frame_info + 8, 4);
	memcpy(&pid, frame_info + pid_off, 4);
	memcpy(&uid, frame_info + pid_off + 4, 4);
	tap_is_long(sizeof(siginfo_t), SIGINFO_SIZE, "the libc's siginfo_t is Linux's size");
	tap_ok(usr1_count == 1 && info_to_uc == SIGINFO_SIZE,
	       "in the signal frame the ucontext follows the siginfo at +%d (+%ld)", SIGINFO_SIZE, info_to_uc);
	tap_ok(signo == SIGUSR1 && code == SI_USER && pid == getpid() && uid == 0,
	       "si_signo at 0, si_code at 8, si_pid at %d, si_uid after it (%d %d %d %d)", (int)pid_off, signo, code,
	       pid, uid);
	tap_ok((uc_mask & (1UL << (SIGUSR2 - 1))) && !(uc_mask & (1UL << (SIGUSR1 - 1))),
	       "uc_sigmask, where Linux puts it, is the interrupted mask (0x%lx)", uc_mask);
	signal(SIGUSR1, SIG_DFL);
}

/* ---- 32-bit arguments with garbage above them ---------------------------- */

static void test_fd_args(void)
{
	int fd = open(SELF, O_RDONLY), pfd[2] = { -1, -1 }, mfd;
	long size = lseek(fd, 0, SEEK_END), r;
	struct rlimit nofile;
	char c = 0;

	tap_is_long(syscall(SYS_lseek, (long)(fd | HI), 0L, (long)(SEEK_SET | HI)), 0,
		    "lseek(fd | garbage, 0, SEEK_SET | garbage)");
	tap_is_long(syscall(SYS_read, (long)(fd | HI), (long)&c, 1L), 1, "read(fd | garbage)");
	tap_is_long(syscall(SYS_lseek, (long)fd, 0L, (long)(SEEK_END | HI)), size, "lseek whence SEEK_END | garbage");
	tap_is_long(syscall(SYS_fcntl, (long)(fd | HI), (long)(F_GETFD_CMD | HI)), 0,
		    "fcntl(fd | garbage, F_GETFD | garbage)");
	r = syscall(SYS_fcntl, (long)fd, (long)F_DUPFD_CMD, (long)(10 | HI));
	tap_ok(r >= 10, "fcntl(F_DUPFD, 10 | garbage) gives a descriptor >= 10 (%ld)", r);
	if (r >= 0)
		close((int)r);
	errno = 0;
	tap_ok(syscall(SYS_fcntl, (long)fd, (long)F_DUPFD_CMD, -1L) == -1 && errno == EINVAL,
	       "fcntl(F_DUPFD, -1): EINVAL (errno %d)", errno);
	getrlimit(RLIMIT_NOFILE, &nofile);
	errno = 0;
	tap_ok(syscall(SYS_fcntl, (long)fd, (long)F_DUPFD_CMD, (long)nofile.rlim_cur) == -1 && errno == EINVAL,
	       "fcntl(F_DUPFD, RLIMIT_NOFILE): EINVAL (errno %d)", errno);
	tap_is_long(syscall(SYS_dup3, (long)(fd | HI), (long)(20 | HI), (long)(O_CLOEXEC | HI)), 20,
		    "dup3(fd | garbage, 20 | garbage, O_CLOEXEC | garbage)");
	tap_is_long(syscall(SYS_fcntl, 20L, (long)F_GETFD_CMD), FD_CLOEXEC_BIT, "the new descriptor is close-on-exec");
	fill();
	tap_is_long(syscall(SYS_newfstatat, (long)(20 | HI), (long)"", (long)buf, (long)(AT_EMPTY_PATH_FLAG | HI)), 0,
		    "fstatat(fd | garbage, \"\", AT_EMPTY_PATH | garbage)");
	tap_is_long(syscall(SYS_close, (long)(20 | HI)), 0, "close(fd | garbage)");
	errno = 0;
	tap_ok(close(20) == -1 && errno == EBADF, "the descriptor it named is closed");
	close(fd);
	fd = (int)syscall(SYS_openat, (long)(unsigned)AT_FDCWD, (long)SELF, (long)(O_RDONLY | HI), 0L);
	tap_ok(fd >= 0, "openat(AT_FDCWD zero-extended, O_RDONLY | garbage) opens (%d)", fd);
	close(fd);
	tap_is_long(syscall(SYS_pipe2, (long)pfd, (long)(O_CLOEXEC | HI)), 0, "pipe2(fds, O_CLOEXEC | garbage)");
	tap_ok(syscall(SYS_write, (long)(pfd[1] | HI), (long)"x", 1L) == 1 &&
	       syscall(SYS_read, (long)(pfd[0] | HI), (long)&c, 1L) == 1 && c == 'x',
	       "write and read through the pipe with garbage above the descriptors");
	close(pfd[0]);
	close(pfd[1]);
	mfd = (int)syscall(SYS_memfd_create, (long)"abi", (long)(MFD_CLOEXEC_FLAG | HI));
	tap_ok(mfd >= 0, "memfd_create(name, MFD_CLOEXEC | garbage) (%d)", mfd);
	close(mfd);
}

static void test_signal_args(void)
{
	/* The kernel's sigset: 64 bits as unsigned longs, signal 1 in bit 0 of the first. */
	unsigned long set[2] = { 1UL << (SIGUSR2 - 1), 0 }, old[2] = { 0, 0 };
	sigset_t now;
	unsigned char act[64];
	pid_t me = getpid();

	signal(SIGUSR1, on_usr1);
	usr1_count = 0;
	tap_is_long(syscall(SYS_kill, (long)(me | HI), (long)(SIGUSR1 | HI)), 0, "kill(pid | garbage, SIGUSR1 | garbage)");
	tap_is_long(usr1_count, 1, "the signal was delivered");
	tap_is_long(syscall(SYS_tgkill, (long)(me | HI), (long)(gettid() | HI), (long)(SIGUSR1 | HI)), 0,
		    "tgkill with garbage above all three");
	tap_is_long(syscall(SYS_tkill, (long)(gettid() | HI), (long)(SIGUSR1 | HI)), 0, "tkill with garbage above both");
	tap_is_long(usr1_count, 3, "both signals were delivered");
	tap_is_long(syscall(SYS_rt_sigaction, (long)(SIGUSR1 | HI), 0L, (long)act, 8L), 0,
		    "rt_sigaction(SIGUSR1 | garbage) reads the action");
	tap_is_long(syscall(SYS_rt_sigprocmask, (long)(SIG_BLOCK | HI), (long)set, (long)old, 8L), 0,
		    "rt_sigprocmask(SIG_BLOCK | garbage)");
	sigprocmask(SIG_BLOCK, NULL, &now);
	tap_ok(sigismember(&now, SIGUSR2) && !sigismember(&now, SIGUSR1), "SIGUSR2, and only it, is now blocked");
	tap_is_long(syscall(SYS_rt_sigprocmask, (long)(SIG_SETMASK | HI), (long)old, 0L, 8L), 0,
		    "rt_sigprocmask(SIG_SETMASK | garbage) restores the mask");
	signal(SIGUSR1, SIG_DFL);
}

static void test_other_args(void)
{
	unsigned char r[8];
	int st = 0;
	pid_t pid;

	tap_is_long(syscall(SYS_getrandom, (long)r, 8L, (long)HI), 8, "getrandom(flags 0 | garbage)");
	fill();
	tap_is_long(syscall(SYS_prlimit64, (long)HI, (long)(RLIMIT_NOFILE | HI), 0L, (long)buf), 0,
		    "prlimit64(0 | garbage, RLIMIT_NOFILE | garbage)");
	tap_is_long(syscall(SYS_getrusage, (long)(unsigned)RUSAGE_CHILDREN, (long)buf), 0,
		    "getrusage(RUSAGE_CHILDREN zero-extended)");
	tap_is_long(syscall(SYS_clock_gettime, (long)(CLOCK_MONOTONIC | HI), (long)buf), 0,
		    "clock_gettime(CLOCK_MONOTONIC | garbage)");
	pid = fork();
	if (pid == 0)
		syscall(SYS_exit_group, (long)(7 | HI));
	tap_ok(syscall(SYS_wait4, (long)(pid | HI), (long)&st, (long)HI, 0L) == pid && WIFEXITED(st) &&
	       WEXITSTATUS(st) == 7, "exit_group(7 | garbage) and wait4(pid | garbage, options 0 | garbage)");
}

/*
 * reboot's magic numbers and command are ints: glibc passes magic1
 * sign-extended. CAD_ON (Ctrl-Alt-Del reboots at once, Linux's default)
 * is the one command that changes nothing, so it shows whether the magic
 * was accepted: 0 if it was, EINVAL if not. Nothing here can power off.
 */
static void test_reboot_args(void)
{
	long magic1 = (long)(int)REBOOT_MAGIC1;	/* as glibc passes it */

	tap_is_long(syscall(SYS_reboot, magic1, (long)REBOOT_MAGIC2, (long)REBOOT_CMD_CAD_ON, 0L), 0,
		    "reboot(magic1 sign-extended, magic2, CAD_ON) succeeds");
	tap_is_long(syscall(SYS_reboot, (long)(REBOOT_MAGIC1 | HI), (long)(REBOOT_MAGIC2 | HI),
			    (long)(REBOOT_CMD_CAD_ON | HI), 0L), 0, "reboot with garbage above magic1, magic2 and cmd");
	errno = 0;
	tap_ok(syscall(SYS_reboot, (long)REBOOT_MAGIC1, (long)(REBOOT_MAGIC2 + 1), (long)REBOOT_CMD_CAD_ON, 0L) == -1 &&
	       errno == EINVAL, "a wrong magic2: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(syscall(SYS_reboot, (long)REBOOT_MAGIC1, (long)REBOOT_MAGIC2, 0x12345678L, 0L) == -1 && errno == EINVAL,
	       "an unknown command with good magic: EINVAL (errno %d)", errno);
}

int main(void)
{
	tap_init();
	if (!L64)
		tap_diag("32-bit registers: the garbage-above calls run without an upper half");
	test_sysinfo();
	test_stat();
	test_rusage();
	test_timespec_utsname_rlimit();
	test_siginfo();
	test_fd_args();
	test_signal_args();
	test_other_args();
	test_reboot_args();
	return tap_done();
}
