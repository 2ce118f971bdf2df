/*
 * syscall_table.c - MicroBlaze's Linux system call numbers
 * (arch/microblaze/kernel/syscalls/syscall.tbl; mseal is 462 as on every
 * architecture) mapped to the kernel's handlers. A number with a name but
 * no handler is reported by name as ENOSYS.
 *
 * Where MicroBlaze's calling convention differs from the generic one the
 * handlers follow, a small adapter here rearranges the arguments:
 *   fork, vfork  clone(SIGCHLD, 0) (vfork copies too: a valid vfork);
 *   clone        CLONE_BACKWARDS3 order: flags, newsp, stack_size,
 *                parent_tid, child_tid, tls;
 *   mmap2        the offset counts 4 KiB pages;
 *   ftruncate64, fallocate
 *                a 64-bit argument takes two registers, in the order the C
 *                ABI gives a long long (high word first on big-endian,
 *                low word first on little-endian) and without alignment
 *                to an even register, as glibc passes them.
 * Calls with a 32-bit time_t (nanosleep, clock_gettime, ...) need none:
 * the handlers' "long" is 32 bits here; the *_time64 calls have handlers
 * of their own (struct __kernel_timespec).
 */
#include "syscall.h"
#include "signal.h"
#include "memfd.h"
#include "fs_file.h"

#define SYS(nr, name) [nr] = { sys_##name, #name }
#define ADAPT(nr, fn, name) [nr] = { fn, name }
#define NOSYS(nr, name) [nr] = { 0, #name }

static long mb_fork(const unsigned long *a)
{
	const unsigned long args[6] = { SIGCHLD, 0, 0, 0, 0, 0 };

	(void)a;
	return sys_clone(args);
}

/* Generic order: flags, newsp, parent_tid, tls, child_tid. */
static long mb_clone(const unsigned long *a)
{
	const unsigned long args[6] = { a[0], a[1], a[3], a[5], a[4], 0 };

	return sys_clone(args);
}

/*
 * The page offset becomes a byte offset; one beyond 4 GiB wraps, which
 * only a file mapping could notice, and those are refused anyway.
 */
static long mb_mmap2(const unsigned long *a)
{
	const unsigned long args[6] = { a[0], a[1], a[2], a[3], a[4], a[5] << 12 };

	return sys_mmap(args);
}

/* The 64-bit value in the register pair a[0], a[1] (see above). */
static s64 arg_pair(const unsigned long *a)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return (s64)(((u64)(u32)a[1] << 32) | (u32)a[0]);
#else
	return (s64)(((u64)(u32)a[0] << 32) | (u32)a[1]);
#endif
}

/* ftruncate64(fd, length): length in r6/r7. */
static long mb_ftruncate64(const unsigned long *a)
{
	return memfd_ftruncate(a[0], arg_pair(&a[1]));
}

/* fallocate(fd, mode, offset, len): offset in r7/r8, len in r9/r10. */
static long mb_fallocate(const unsigned long *a)
{
	return memfd_fallocate(arg_int(a[0]), arg_int(a[1]), arg_pair(&a[2]), arg_pair(&a[4]));
}


#define AT_FDCWD_MB	((unsigned long)-100)

/* The old path calls are their *at forms relative to the cwd. */
static long mb_open(const unsigned long *a)
{
	unsigned long b[4] = { AT_FDCWD_MB, a[0], a[1], a[2] };

	return sys_openat(b);
}

static long mb_link(const unsigned long *a)
{
	unsigned long b[5] = { AT_FDCWD_MB, a[0], AT_FDCWD_MB, a[1], 0 };

	return sys_linkat(b);
}

static long mb_unlink(const unsigned long *a)
{
	unsigned long b[3] = { AT_FDCWD_MB, a[0], 0 };

	return sys_unlinkat(b);
}

static long mb_rmdir(const unsigned long *a)
{
	unsigned long b[3] = { AT_FDCWD_MB, a[0], 0x200 /* AT_REMOVEDIR */ };

	return sys_unlinkat(b);
}

static long mb_mkdir(const unsigned long *a)
{
	unsigned long b[3] = { AT_FDCWD_MB, a[0], a[1] };

	return sys_mkdirat(b);
}

static long mb_chmod(const unsigned long *a)
{
	unsigned long b[3] = { AT_FDCWD_MB, a[0], a[1] };

	return sys_fchmodat(b);
}

static long mb_access(const unsigned long *a)
{
	unsigned long b[3] = { AT_FDCWD_MB, a[0], a[1] };

	return sys_faccessat(b);
}

static long mb_rename(const unsigned long *a)
{
	unsigned long b[4] = { AT_FDCWD_MB, a[0], AT_FDCWD_MB, a[1] };

	return sys_renameat(b);
}

static long mb_symlink(const unsigned long *a)
{
	unsigned long b[3] = { a[0], AT_FDCWD_MB, a[1] };

	return sys_symlinkat(b);
}

static long mb_readlink(const unsigned long *a)
{
	unsigned long b[4] = { AT_FDCWD_MB, a[0], a[1], a[2] };

	return sys_readlinkat(b);
}

/* stat64(path, buf) and lstat64(path, buf): fstatat64 from the cwd. */
static long mb_stat64(const unsigned long *a)
{
	unsigned long b[4] = { AT_FDCWD_MB, a[0], a[1], 0 };

	return sys_newfstatat(b);
}

static long mb_lstat64(const unsigned long *a)
{
	unsigned long b[4] = { AT_FDCWD_MB, a[0], a[1], 0x100 /* AT_SYMLINK_NOFOLLOW */ };

	return sys_newfstatat(b);
}

/* pread64/pwrite64(fd, buf, count, pos): pos in r8/r9; truncate64(path, length): length in r6/r7. */
static long mb_pread64(const unsigned long *a)
{
	return fs_pread(arg_int(a[0]), a[1], a[2], arg_pair(&a[3]));
}

static long mb_pwrite64(const unsigned long *a)
{
	return fs_pwrite(arg_int(a[0]), a[1], a[2], arg_pair(&a[3]));
}

static long mb_truncate64(const unsigned long *a)
{
	return fs_truncate_path(a[0], arg_pair(&a[1]));
}

const struct syscall_entry arch_syscalls[] = {
	SYS(0, restart_syscall),
	SYS(1, exit),
	ADAPT(2, mb_fork, "fork"),
	SYS(3, read),
	SYS(4, write),
	ADAPT(5, mb_open, "open"),
	SYS(6, close),
	ADAPT(9, mb_link, "link"),
	ADAPT(10, mb_unlink, "unlink"),
	SYS(11, execve),
	SYS(12, chdir),
	ADAPT(15, mb_chmod, "chmod"),
	SYS(19, lseek),
	SYS(20, getpid),
	SYS(21, mount),
	SYS(24, getuid),
	ADAPT(33, mb_access, "access"),
	SYS(27, alarm),
	SYS(37, kill),
	ADAPT(38, mb_rename, "rename"),
	ADAPT(39, mb_mkdir, "mkdir"),
	ADAPT(40, mb_rmdir, "rmdir"),
	SYS(41, dup),
	SYS(45, brk),
	SYS(47, getgid),
	SYS(49, geteuid),
	SYS(50, getegid),
	SYS(52, umount2),
	SYS(54, ioctl),
	SYS(55, fcntl),
	SYS(60, umask),
	SYS(57, setpgid),
	SYS(64, getppid),
	SYS(65, getpgrp),
	SYS(66, setsid),
	SYS(75, setrlimit),
	SYS(77, getrusage),
	SYS(78, gettimeofday),
	ADAPT(83, mb_symlink, "symlink"),
	ADAPT(85, mb_readlink, "readlink"),
	SYS(88, reboot),
	SYS(90, mmap),
	SYS(91, munmap),
	SYS(92, truncate),
	SYS(93, ftruncate),
	SYS(94, fchmod),
	SYS(95, fchown),
	SYS(104, setitimer),
	SYS(105, getitimer),
	SYS(114, wait4),
	SYS(116, sysinfo),
	SYS(118, fsync),
	ADAPT(120, mb_clone, "clone"),
	SYS(122, uname),
	SYS(125, mprotect),
	SYS(133, fchdir),
	SYS(136, personality),
	SYS(132, getpgid),
	ADAPT(140, sys_llseek, "_llseek"),
	SYS(144, msync),
	SYS(145, readv),
	SYS(146, writev),
	SYS(148, fdatasync),
	SYS(150, mlock),
	SYS(151, munlock),
	SYS(152, mlockall),
	SYS(153, munlockall),
	SYS(147, getsid),
	SYS(158, sched_yield),
	SYS(162, nanosleep),
	SYS(163, mremap),
	SYS(172, prctl),
	SYS(173, rt_sigreturn),
	SYS(174, rt_sigaction),
	SYS(175, rt_sigprocmask),
	SYS(176, rt_sigpending),
	SYS(179, rt_sigsuspend),
	ADAPT(180, mb_pread64, "pread64"),
	ADAPT(181, mb_pwrite64, "pwrite64"),
	SYS(183, getcwd),
	SYS(186, sigaltstack),
	SYS(187, sendfile),
	ADAPT(190, mb_fork, "vfork"),
	ADAPT(191, sys_getrlimit, "ugetrlimit"),
	ADAPT(192, mb_mmap2, "mmap2"),
	ADAPT(193, mb_truncate64, "truncate64"),
	ADAPT(194, mb_ftruncate64, "ftruncate64"),
	ADAPT(195, mb_stat64, "stat64"),
	ADAPT(196, mb_lstat64, "lstat64"),
	SYS(197, fstat),		/* fstat64: struct stat64 */
	SYS(199, getuid),		/* getuid32 */
	SYS(200, getgid),		/* getgid32 */
	SYS(201, geteuid),		/* geteuid32 */
	SYS(202, getegid),		/* getegid32 */
	SYS(207, fchown),		/* fchown32 */
	SYS(218, mincore),
	SYS(203, setreuid),		/* setreuid32 */
	SYS(204, setregid),		/* setregid32 */
	SYS(205, getgroups),		/* getgroups32 */
	SYS(206, setgroups),		/* setgroups32 */
	SYS(208, setresuid),		/* setresuid32 */
	SYS(209, getresuid),		/* getresuid32 */
	SYS(210, setresgid),		/* setresgid32 */
	SYS(211, getresgid),		/* getresgid32 */
	SYS(213, setuid),		/* setuid32 */
	SYS(214, setgid),		/* setgid32 */
	SYS(219, madvise),
	SYS(220, getdents64),
	SYS(221, fcntl),		/* fcntl64 */
	SYS(224, gettid),
	SYS(238, tkill),
	SYS(239, sendfile64),
	SYS(240, futex),
	SYS(241, sched_setaffinity),
	SYS(242, sched_getaffinity),
	SYS(252, exit_group),
	SYS(258, set_tid_address),
	SYS(265, clock_gettime),
	SYS(266, clock_getres),
	SYS(267, clock_nanosleep),
	SYS(268, statfs64),
	SYS(269, fstatfs64),
	SYS(270, tgkill),
	SYS(295, openat),
	SYS(296, mkdirat),
	SYS(298, fchownat),
	SYS(300, newfstatat),		/* fstatat64: struct stat64 */
	SYS(301, unlinkat),
	SYS(302, renameat),
	SYS(303, linkat),
	SYS(304, symlinkat),
	SYS(305, readlinkat),
	SYS(306, fchmodat),
	SYS(307, faccessat),
	SYS(308, pselect6),
	SYS(309, ppoll),
	SYS(311, set_robust_list),
	SYS(312, get_robust_list),
	SYS(318, getcpu),
	SYS(320, utimensat),		/* 32-bit time_t */
	ADAPT(324, mb_fallocate, "fallocate"),
	SYS(335, shmat),
	SYS(336, shmctl),		/* old_shmctl: IPC_64 only (kernel/shm.c) */
	SYS(337, shmdt),
	SYS(338, shmget),
	SYS(342, dup3),
	SYS(343, pipe2),
	SYS(370, prlimit64),
	SYS(383, renameat2),
	SYS(378, mlock2),
	SYS(385, getrandom),
	SYS(386, memfd_create),
	SYS(395, pkey_mprotect),
	SYS(396, pkey_alloc),
	SYS(397, pkey_free),
	SYS(398, statx),
	SYS(400, rseq),
	SYS(403, clock_gettime64),
	SYS(406, clock_getres_time64),
	SYS(407, clock_nanosleep_time64),
	SYS(412, utimensat_time64),
	SYS(422, futex_time64),
	SYS(435, clone3),
	SYS(439, faccessat2),
	SYS(413, pselect6_time64),
	SYS(414, ppoll_time64),
	SYS(462, mseal),
};

const unsigned arch_nr_syscalls = sizeof(arch_syscalls) / sizeof(arch_syscalls[0]);
