/* signal.c - POSIX signal interface over Linux's rt_sig* calls. */
#include <signal.h>
#include <setjmp.h>
#include <string.h>
#include <unistd.h>
#include "libc.h"

/* The kernel's struct sigaction. arm64 has sa_restorer (SA_RESTORER is
 * required there: we always pass our own __restore_rt). MicroBlaze has no
 * restorer field: its kernel provides the return path itself. */
struct k_sigaction {
	void *handler;
	unsigned long flags;
#if defined(__aarch64__)
	void (*restorer)(void);
#endif
	sigset_t mask;
};

#if defined(__aarch64__)
void __restore_rt(void);	/* crt0.S */
#endif

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct k_sigaction kact, kold;
	long r;

	if (act) {
		kact.handler = (void *)act->sa_handler;
		kact.flags = (unsigned long)(unsigned int)act->sa_flags;
		kact.mask = act->sa_mask;
#if defined(__aarch64__)
		kact.flags |= SA_RESTORER;
		kact.restorer = __restore_rt;
#endif
	}
	r = syscall_ret(SYS_rt_sigaction, sig, act ? &kact : 0, old ? &kold : 0, sizeof(sigset_t));
	if (r == 0 && old) {
		memset(old, 0, sizeof(*old));
		old->sa_handler = (void (*)(int))kold.handler;
		old->sa_flags = (int)kold.flags;
		old->sa_mask = kold.mask;
#if defined(__aarch64__)
		old->sa_restorer = kold.restorer;
#endif
	}
	return (int)r;
}

sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction act, old;

	memset(&act, 0, sizeof(act));
	act.sa_handler = handler;
	act.sa_flags = SA_RESTART;
	if (sigaction(sig, &act, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	return (int)syscall_ret(SYS_rt_sigprocmask, how, set, old, sizeof(sigset_t));
}

int sigpending(sigset_t *set)
{
	return (int)syscall_ret(SYS_rt_sigpending, set, sizeof(sigset_t));
}

int sigsuspend(const sigset_t *mask)
{
	return (int)syscall_ret(SYS_rt_sigsuspend, mask, sizeof(sigset_t));
}

int kill(pid_t pid, int sig) { return (int)syscall_ret(SYS_kill, pid, sig); }
int raise(int sig) { return kill(getpid(), sig); }

#define BITS_PER_WORD (8 * sizeof(unsigned long))

static int sig_ok(int sig)
{
	if (sig < 1 || sig > 64) {
		errno = EINVAL;
		return 0;
	}
	return 1;
}

int sigemptyset(sigset_t *set)
{
	memset(set, 0, sizeof(*set));
	return 0;
}

int sigfillset(sigset_t *set)
{
	memset(set, 0xff, sizeof(*set));
	return 0;
}

int sigaddset(sigset_t *set, int sig)
{
	if (!sig_ok(sig))
		return -1;
	set->__bits[(sig - 1) / BITS_PER_WORD] |= 1UL << ((sig - 1) % BITS_PER_WORD);
	return 0;
}

int sigdelset(sigset_t *set, int sig)
{
	if (!sig_ok(sig))
		return -1;
	set->__bits[(sig - 1) / BITS_PER_WORD] &= ~(1UL << ((sig - 1) % BITS_PER_WORD));
	return 0;
}

int sigismember(const sigset_t *set, int sig)
{
	if (!sig_ok(sig))
		return -1;
	return (set->__bits[(sig - 1) / BITS_PER_WORD] >> ((sig - 1) % BITS_PER_WORD)) & 1;
}

/* sigsetjmp is in arch/<arch>/setjmp.S; it saved the mask if asked to. */
void siglongjmp(sigjmp_buf env, int val)
{
	if (env->__savemask)
		sigprocmask(SIG_SETMASK, &env->__mask, 0);
	longjmp(env, val);
}

/* The assembly hard-codes these offsets. */
_Static_assert(offsetof(struct __jmp_buf_tag, __savemask) == (sizeof(long) == 8 ? 104 : 68),
	       "setjmp.S: __savemask offset");
_Static_assert(offsetof(struct __jmp_buf_tag, __mask) == (sizeof(long) == 8 ? 112 : 72),
	       "setjmp.S: __mask offset");
