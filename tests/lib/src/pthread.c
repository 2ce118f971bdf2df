/* pthread.c - the test libc's thread library (see include/pthread.h). */
#include <pthread.h>
#include <sys/mman.h>
#include "libc.h"

#define CLONE_VM		0x00000100
#define CLONE_FS		0x00000200
#define CLONE_FILES		0x00000400
#define CLONE_SIGHAND		0x00000800
#define CLONE_THREAD		0x00010000
#define CLONE_SYSVSEM		0x00040000
#define CLONE_SETTLS		0x00080000
#define CLONE_PARENT_SETTID	0x00100000
#define CLONE_CHILD_CLEARTID	0x00200000
#define FUTEX_WAIT		0
#define FUTEX_WAIT_PRIVATE	(0 | 128)
#define FUTEX_WAKE_PRIVATE	(1 | 128)
#define STACK_SIZE		(64 * 1024)

/* A thread's descriptor, at the bottom of its stack mapping. */
struct __pthread {
	volatile int tid;	/* set by the kernel at clone, cleared (and woken) at exit */
	void *(*fn)(void *);
	void *arg, *ret;
	void *map;		/* the stack mapping, freed by the joiner */
};

static struct __pthread main_thread;

/* clone.S: clone(flags, stack, ptid, tls, ctid) whose child runs
 * __pthread_start(t) on the new stack, then exit(0). */
long __pthread_clone(unsigned long flags, void *stack, volatile int *ptid, void *tls, volatile int *ctid,
		     struct __pthread *t);

static long futex(volatile int *w, int op, int val)
{
	return sys(SYS_futex, w, op, val, 0, 0, 0);
}

void __pthread_start(struct __pthread *t);
void __pthread_start(struct __pthread *t)
{
	t->ret = t->fn(t->arg);
}

pthread_t pthread_self(void)
{
	struct __pthread *tp;

#if defined(__aarch64__)
	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp));
#else
	__asm__ volatile("addk %0, r21, r0" : "=r"(tp));
#endif
	return tp ? tp : &main_thread;
}

int pthread_create(pthread_t *out, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	unsigned long flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM |
			      CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
	char *map;
	struct __pthread *t;
	long r;

	if (attr)
		return EINVAL;
	map = mmap(0, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return EAGAIN;
	t = (struct __pthread *)map;
	t->fn = fn;
	t->arg = arg;
	t->map = map;
	r = __pthread_clone(flags, map + STACK_SIZE, &t->tid, t, &t->tid, t);
	if (r < 0) {
		munmap(map, STACK_SIZE);
		return (int)-r;
	}
	*out = t;
	return 0;
}

int pthread_join(pthread_t t, void **ret)
{
	int tid;

	if (t == pthread_self())
		return EDEADLK;
	/* (a shared wait: the kernel's wake at the thread's exit is a shared one) */
	while ((tid = t->tid) != 0)
		futex(&t->tid, FUTEX_WAIT, tid);
	if (ret)
		*ret = t->ret;
	munmap(t->map, STACK_SIZE);
	return 0;
}

void pthread_exit(void *ret)
{
	pthread_self()->ret = ret;
	for (;;)
		sys(SYS_exit, 0);
}

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
	(void)attr;
	m->__state = 0;
	return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *m)
{
	return m->__state ? EBUSY : 0;
}

/*
 * Compare and swap: *w becomes new if it was old; returns the value found.
 * On MicroBlaze the builtin is a call to tests/lib/arch/microblaze/atomic.S
 * (the cross GCC's inline expansion is wrong; see there).
 */
static int cas(volatile int *w, int old, int new)
{
	__atomic_compare_exchange_n(w, &old, new, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;	/* the value found */
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
	return cas(&m->__state, 0, 1) == 0 ? 0 : EBUSY;
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	int c = cas(&m->__state, 0, 1);

	while (c != 0) {	/* taken: mark it contended and sleep until it may be free */
		if (c == 2 || cas(&m->__state, 1, 2) != 0)
			futex(&m->__state, FUTEX_WAIT_PRIVATE, 2);
		c = cas(&m->__state, 0, 2);
	}
	return 0;
}

/* Exchange: *w becomes new; returns the value it had. */
static int xchg(volatile int *w, int new)
{
	return __atomic_exchange_n(w, new, __ATOMIC_SEQ_CST);
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	if (xchg(&m->__state, 0) == 2)
		futex(&m->__state, FUTEX_WAKE_PRIVATE, 1);
	return 0;
}

int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr)
{
	(void)attr;
	c->__seq = 0;
	return 0;
}

int pthread_cond_destroy(pthread_cond_t *c)
{
	(void)c;
	return 0;
}

/* Sleep until the sequence word moves past the value seen with m held. */
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	int seq = c->__seq;

	pthread_mutex_unlock(m);
	futex(&c->__seq, FUTEX_WAIT_PRIVATE, seq);
	pthread_mutex_lock(m);
	return 0;
}

int pthread_cond_signal(pthread_cond_t *c)
{
	__atomic_fetch_add(&c->__seq, 1, __ATOMIC_SEQ_CST);
	futex(&c->__seq, FUTEX_WAKE_PRIVATE, 1);
	return 0;
}

int pthread_cond_broadcast(pthread_cond_t *c)
{
	__atomic_fetch_add(&c->__seq, 1, __ATOMIC_SEQ_CST);
	futex(&c->__seq, FUTEX_WAKE_PRIVATE, 0x7fffffff);
	return 0;
}
