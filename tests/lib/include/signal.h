/* signal.h - Linux signals (the generic numbering, shared by arm64 and
 * MicroBlaze) and the POSIX interface over rt_sigaction/rt_sigprocmask.
 */
#ifndef _SIGNAL_H
#define _SIGNAL_H
#include <bits/types.h>

#define SIGHUP    1
#define SIGINT    2
#define SIGQUIT   3
#define SIGILL    4
#define SIGTRAP   5
#define SIGABRT   6
#define SIGBUS    7
#define SIGFPE    8
#define SIGKILL   9
#define SIGUSR1  10
#define SIGSEGV  11
#define SIGUSR2  12
#define SIGPIPE  13
#define SIGALRM  14
#define SIGTERM  15
#define SIGSTKFLT 16
#define SIGCHLD  17
#define SIGCONT  18
#define SIGSTOP  19
#define SIGTSTP  20
#define SIGTTIN  21
#define SIGTTOU  22
#define SIGURG   23
#define SIGXCPU  24
#define SIGXFSZ  25
#define SIGVTALRM 26
#define SIGPROF  27
#define SIGWINCH 28
#define SIGIO    29
#define SIGPWR   30
#define SIGSYS   31
#define NSIG     65

#define SA_NOCLDSTOP 0x00000001
#define SA_NOCLDWAIT 0x00000002
#define SA_SIGINFO   0x00000004
#define SA_RESTORER  0x04000000
#define SA_ONSTACK   0x08000000
#define SA_RESTART   0x10000000
#define SA_NODEFER   0x40000000
#define SA_RESETHAND 0x80000000

#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

typedef int sig_atomic_t;
typedef void (*sighandler_t)(int);
#define SIG_DFL ((sighandler_t)0)
#define SIG_IGN ((sighandler_t)1)
#define SIG_ERR ((sighandler_t)-1)

/* si_code values */
#define SI_USER    0
#define SI_KERNEL  0x80
#define SI_TKILL   (-6)
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2
#define ILL_ILLOPC 1
#define BUS_ADRALN 1
#define BUS_ADRERR 2
#define CLD_EXITED 1
#define CLD_KILLED 2
#define CLD_DUMPED 3

/* Linux's siginfo: three ints, then a union that starts on a long boundary;
 * 128 bytes in all. */
#define __SI_PREAMBLE (sizeof(long) == 8 ? 4 : 3)
typedef struct {
	int si_signo;
	int si_errno;
	int si_code;
	union {
		int __pad[128 / sizeof(int) - __SI_PREAMBLE];
		struct {
			pid_t pid;
			uid_t uid;
		} __kill;
		struct {
			pid_t pid;
			uid_t uid;
			int status;
			clock_t utime;
			clock_t stime;
		} __chld;
		struct {
			void *addr;
		} __fault;
	} __u;
} siginfo_t;
#define si_pid    __u.__kill.pid
#define si_uid    __u.__kill.uid
#define si_status __u.__chld.status
#define si_addr   __u.__fault.addr

struct sigaction {
	union {
		void (*__handler)(int);
		void (*__sigaction)(int, siginfo_t *, void *);
	} __sa;
	sigset_t sa_mask;
	int sa_flags;
	void (*sa_restorer)(void);
};
#define sa_handler   __sa.__handler
#define sa_sigaction __sa.__sigaction

int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
sighandler_t signal(int sig, sighandler_t handler);
int sigprocmask(int how, const sigset_t *set, sigset_t *old);
int sigpending(sigset_t *set);
int sigsuspend(const sigset_t *mask);
int sigemptyset(sigset_t *set);
int sigfillset(sigset_t *set);
int sigaddset(sigset_t *set, int sig);
int sigdelset(sigset_t *set, int sig);
int sigismember(const sigset_t *set, int sig);
int kill(pid_t pid, int sig);
int raise(int sig);

#endif
