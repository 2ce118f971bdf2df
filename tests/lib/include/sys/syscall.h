/* sys/syscall.h - Linux system call numbers used by the test libc.
 *
 * arm64 uses the generic table (include/uapi/asm-generic/unistd.h);
 * MicroBlaze has a table of its own (arch/microblaze/kernel/syscalls/
 * syscall.tbl). Both columns are Linux's numbers: the kernel under test must
 * use the same ones. A 0 in the MicroBlaze column never happens; a -1 means
 * "this architecture has no such call" (arm64 has no fork: it uses clone).
 */
#ifndef _SYS_SYSCALL_H
#define _SYS_SYSCALL_H

#if defined(__aarch64__)
#define __SC(arm64, microblaze) (arm64)
#elif defined(__microblaze__)
#define __SC(arm64, microblaze) (microblaze)
#else
#error "test libc: unsupported architecture"
#endif

/*                              arm64  microblaze */
#define SYS_read            __SC( 63,   3)
#define SYS_write           __SC( 64,   4)
#define SYS_openat          __SC( 56, 295)
#define SYS_close           __SC( 57,   6)
#define SYS_lseek           __SC( 62,  19)
#define SYS_pipe2           __SC( 59, 343)
#define SYS_dup3            __SC( 24, 342)
#define SYS_fcntl           __SC( 25, 221)	/* MicroBlaze: fcntl64 */
#define SYS_fstat           __SC( 80, 197)	/* MicroBlaze: fstat64, struct stat64 */
#define SYS_newfstatat      __SC( 79, 300)	/* MicroBlaze: fstatat64, struct stat64 */
#define SYS_memfd_create    __SC(279, 386)
#define SYS_ioctl           __SC( 29,  54)
#define SYS_getdents64      __SC( 61, 220)
#define SYS_mount           __SC( 40,  21)
#define SYS_reboot          __SC(142,  88)

#define SYS_exit            __SC( 93,   1)
#define SYS_exit_group      __SC( 94, 252)
#define SYS_fork            __SC( -1,   2)
#define SYS_clone           __SC(220, 120)
#define SYS_execve          __SC(221,  11)
#define SYS_wait4           __SC(260, 114)
#define SYS_getpid          __SC(172,  20)
#define SYS_getppid         __SC(173,  64)
#define SYS_gettid          __SC(178, 224)
#define SYS_getuid          __SC(174, 199)
#define SYS_setuid          __SC(146, 213)
#define SYS_geteuid         __SC(175, 201)
#define SYS_getgid          __SC(176, 200)
#define SYS_getegid         __SC(177, 202)
#define SYS_setgid          __SC(144, 214)
#define SYS_setreuid        __SC(145, 203)
#define SYS_setregid        __SC(143, 204)
#define SYS_setresuid       __SC(147, 208)
#define SYS_getresuid       __SC(148, 209)
#define SYS_setresgid       __SC(149, 210)
#define SYS_getresgid       __SC(150, 211)
#define SYS_getgroups       __SC(158, 205)
#define SYS_setgroups       __SC(159, 206)
#define SYS_prctl           __SC(167, 172)
#define SYS_set_tid_address __SC( 96, 258)

#define SYS_setpgid         __SC(154,  57)
#define SYS_getpgid         __SC(155, 132)
#define SYS_getsid          __SC(156, 147)
#define SYS_setsid          __SC(157,  66)
#define SYS_restart_syscall __SC(128,   0)
#define SYS_getitimer       __SC(102, 105)
#define SYS_setitimer       __SC(103, 104)
#define SYS_alarm           __SC( -1,  27)	/* arm64: setitimer */
#define SYS_pselect6        __SC( 72, 308)	/* MicroBlaze: 32-bit time_t version */
#define SYS_ppoll           __SC( 73, 309)	/* MicroBlaze: 32-bit time_t version */

#define SYS_kill            __SC(129,  37)
#define SYS_tgkill          __SC(131, 270)
#define SYS_tkill           __SC(130, 238)
#define SYS_rt_sigaction    __SC(134, 174)
#define SYS_rt_sigprocmask  __SC(135, 175)
#define SYS_rt_sigpending   __SC(136, 176)
#define SYS_rt_sigsuspend   __SC(133, 179)
#define SYS_rt_sigreturn    __SC(139, 173)

#define SYS_brk             __SC(214,  45)
#define SYS_mmap            __SC(222, 192)	/* MicroBlaze: mmap2, offset in 4 KiB units */
#define SYS_munmap          __SC(215,  91)
#define SYS_mprotect        __SC(226, 125)
#define SYS_madvise         __SC(233, 219)
#define SYS_mremap          __SC(216, 163)
#define SYS_mseal           __SC(462, 462)
#define SYS_mlock           __SC(228, 150)
#define SYS_mlock2          __SC(284, 378)
#define SYS_munlock         __SC(229, 151)
#define SYS_mlockall        __SC(230, 152)
#define SYS_munlockall      __SC(231, 153)
#define SYS_mincore         __SC(232, 218)
#define SYS_msync           __SC(227, 144)

#define SYS_clock_gettime   __SC(113, 265)	/* MicroBlaze: 32-bit time_t version */
#define SYS_clock_nanosleep __SC(115, 267)
#define SYS_nanosleep       __SC(101, 162)
#define SYS_sched_yield     __SC(124, 158)
#define SYS_uname           __SC(160, 122)
#define SYS_getrusage       __SC(165,  77)
#define SYS_prlimit64       __SC(261, 370)
#define SYS_getrandom       __SC(278, 385)
#define SYS_sysinfo         __SC(179, 116)
#define SYS_futex           __SC( 98, 240)
#define SYS_set_robust_list __SC( 99, 311)
#define SYS_get_robust_list __SC(100, 312)
#define SYS_sched_setaffinity __SC(122, 241)
#define SYS_sched_getaffinity __SC(123, 242)
#define SYS_getcpu          __SC(168, 318)
#define SYS_clone3          __SC(435, 435)

#endif
