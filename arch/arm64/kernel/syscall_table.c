/*
 * syscall_table.c - arm64's Linux system call numbers (the generic table
 * of include/uapi/asm-generic/unistd.h) mapped to the kernel's handlers.
 * A number with a name but no handler is reported by name as ENOSYS.
 */
#include "syscall.h"

#define SYS(nr, name) [nr] = { sys_##name, #name }
#define NOSYS(nr, name) [nr] = { 0, #name }

const struct syscall_entry arch_syscalls[] = {
	SYS(17, getcwd),
	SYS(23, dup),
	SYS(24, dup3),
	SYS(25, fcntl),
	SYS(29, ioctl),
	SYS(40, mount),
	SYS(48, faccessat),
	SYS(56, openat),
	SYS(57, close),
	SYS(59, pipe2),
	SYS(62, lseek),
	SYS(63, read),
	SYS(64, write),
	SYS(65, readv),
	SYS(66, writev),
	SYS(78, readlinkat),
	SYS(79, newfstatat),
	SYS(80, fstat),
	SYS(93, exit),
	SYS(94, exit_group),
	SYS(96, set_tid_address),
	SYS(99, set_robust_list),
	SYS(101, nanosleep),
	SYS(113, clock_gettime),
	SYS(115, clock_nanosleep),
	SYS(124, sched_yield),
	SYS(129, kill),
	SYS(130, tkill),
	SYS(131, tgkill),
	SYS(132, sigaltstack),
	SYS(133, rt_sigsuspend),
	SYS(134, rt_sigaction),
	SYS(135, rt_sigprocmask),
	SYS(136, rt_sigpending),
	SYS(139, rt_sigreturn),
	SYS(142, reboot),
	SYS(160, uname),
	SYS(165, getrusage),
	SYS(169, gettimeofday),
	SYS(172, getpid),
	SYS(173, getppid),
	SYS(174, getuid),
	SYS(175, geteuid),
	SYS(176, getgid),
	SYS(177, getegid),
	SYS(178, gettid),
	SYS(179, sysinfo),
	SYS(214, brk),
	SYS(215, munmap),
	SYS(216, mremap),
	SYS(220, clone),
	SYS(221, execve),
	SYS(222, mmap),
	SYS(226, mprotect),
	SYS(233, madvise),
	SYS(260, wait4),
	SYS(261, prlimit64),
	SYS(278, getrandom),
	SYS(293, rseq),
	SYS(462, mseal),
};

const unsigned arch_nr_syscalls = sizeof(arch_syscalls) / sizeof(arch_syscalls[0]);
