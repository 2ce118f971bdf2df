/*
 * syscall.h - system call dispatch. Each arch maps its Linux syscall
 * numbers to the handlers below (arch/<arch>/kernel/syscall_table.c); a
 * handler gets the six argument registers and returns a value or -errno.
 */
#ifndef SYSCALL_H
#define SYSCALL_H

#include "types.h"

typedef long (*syscall_fn)(const unsigned long *a);

struct syscall_entry {
	syscall_fn fn;
	const char *name;
};

/* The arch's table, indexed by its syscall number. */
extern const struct syscall_entry arch_syscalls[];
extern const unsigned arch_nr_syscalls;

/*
 * Arguments Linux declares 32 bits wide (int, unsigned int, pid_t, uid_t,
 * mode_t, clockid_t, ...) are decoded with these: Linux's system-call
 * wrappers look only at the low 32 bits of such a register, so a caller may
 * leave anything in the upper half (glibc passes the int reboot magic
 * sign-extended, for one). A handler never uses a[i] whole for them. On a
 * 32-bit arch both are plain conversions.
 */
static inline int arg_int(unsigned long v)
{
	return (int)(u32)v;
}

static inline unsigned arg_uint(unsigned long v)
{
	return (u32)v;
}

/*
 * A user timespec of either width (t64: struct __kernel_timespec, the
 * 64-bit time of the *_time64 calls; else the arch's struct timespec),
 * checked as Linux's timespec64_valid: 0, -EFAULT, or -EINVAL for a
 * negative second or a nanosecond outside [0, 10^9). A 32-bit kernel reads
 * only the low half of a 64-bit tv_nsec, as Linux does.
 */
long get_user_timespec(const void *uts, bool t64, s64 *sec, long *nsec);
/* Write ns as a user timespec of either width: 0 or -EFAULT. */
long put_user_timespec_ns(void *uts, bool t64, u64 ns);

/* Run syscall nr with args a[0..5]; unknown numbers give -ENOSYS (logged once). */
long syscall_dispatch(unsigned long nr, const unsigned long *a);

#define SYSCALLS(X)                                                              \
	X(read) X(write) X(writev) X(readv) X(openat) X(close) X(lseek) X(fstat)       \
	X(newfstatat) X(ioctl) X(readlinkat) X(faccessat) X(getcwd) X(dup) X(dup3)    \
	X(fcntl) X(pipe2)                                                         \
	X(getpid) X(getppid) X(gettid) X(clone) X(execve) X(wait4) X(exit)             \
	X(exit_group) X(set_tid_address) X(set_robust_list) X(rseq) X(prlimit64)      \
	X(getrusage) X(uname) X(sched_yield) X(nanosleep) X(clock_nanosleep)          \
	X(clock_gettime) X(clock_getres) X(clock_getres_time64) X(gettimeofday) X(getrandom) X(getuid) X(geteuid) X(getgid)  \
	X(getegid) X(kill) X(tgkill) X(tkill) X(rt_sigaction) X(rt_sigprocmask)       \
	X(rt_sigreturn) X(rt_sigpending) X(rt_sigsuspend) X(sigaltstack) X(brk) X(mmap) X(munmap) X(mprotect)           \
	X(madvise) X(mremap) X(mseal) X(mlock) X(mlock2) X(munlock) X(mlockall)    \
	X(munlockall) X(mincore) X(msync) X(reboot) X(mount) X(sysinfo)                   \
	X(memfd_create) X(ftruncate) X(fallocate) X(pkey_alloc) X(pkey_free)           \
	X(pkey_mprotect) X(getrlimit) X(setrlimit) X(clock_gettime64)                  \
	X(clock_nanosleep_time64) X(llseek)                                           \
	X(setpgid) X(getpgid) X(getpgrp) X(getsid) X(setsid) X(restart_syscall)       \
	X(shmget) X(shmat) X(shmdt) X(shmctl)                                       \
	X(getitimer) X(setitimer) X(alarm)                                           \
	X(ppoll) X(ppoll_time64) X(pselect6) X(pselect6_time64)                      \
	X(prctl) X(setuid) X(setgid) X(setreuid) X(setregid) X(setresuid) X(setresgid) \
	X(getresuid) X(getresgid) X(getgroups) X(setgroups) X(personality)          \
	X(clone3) X(futex) X(futex_time64) X(get_robust_list) X(sched_getaffinity)   \
	X(sched_setaffinity) X(sendfile) X(sendfile64) X(getcpu)

/* The file system's calls (fs/). */
#define FS_SYSCALLS(X)                                                           \
	X(mkdirat) X(unlinkat) X(symlinkat) X(linkat) X(renameat) X(renameat2)         \
	X(umount2) X(statfs) X(fstatfs) X(statfs64) X(fstatfs64) X(truncate)           \
	X(faccessat2) X(chdir) X(fchdir) X(fchmod) X(fchmodat) X(fchownat) X(fchown)   \
	X(getdents64) X(pread64) X(pwrite64) X(fsync) X(fdatasync) X(utimensat)        \
	X(utimensat_time64) X(umask) X(statx)

#define DECLARE_SYS(name) long sys_##name(const unsigned long *a);
SYSCALLS(DECLARE_SYS)
FS_SYSCALLS(DECLARE_SYS)
#undef DECLARE_SYS

#endif
