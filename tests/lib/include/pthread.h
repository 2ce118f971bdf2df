/* pthread.h - the test libc's small thread library (src/pthread.c), with
 * glibc's names and meanings for what it has:
 *
 *   pthread_create(&t, NULL, fn, arg)   a thread on a 64 KiB stack of its own:
 *                                       clone(CLONE_VM | CLONE_FS | CLONE_FILES |
 *                                       CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM |
 *                                       CLONE_SETTLS | CLONE_PARENT_SETTID |
 *                                       CLONE_CHILD_CLEARTID); attributes: EINVAL
 *   pthread_join(t, &ret)               waits on the tid word the kernel clears
 *                                       and futex-wakes at the thread's exit
 *   pthread_exit(ret), pthread_self()   the thread pointer (arm64 TPIDR_EL0,
 *                                       MicroBlaze r21, both set by CLONE_SETTLS)
 *                                       points at the thread's descriptor
 *   pthread_mutex_*                     a futex mutex (0 free, 1 locked, 2 locked
 *                                       with waiters)
 *   pthread_cond_*                      a futex sequence word
 *
 * Not thread-safe: errno (one global), stdio buffers, malloc. Threads of
 * the tests use system calls' return values, write(2) and their stacks.
 */
#ifndef _PTHREAD_H
#define _PTHREAD_H

typedef struct __pthread *pthread_t;
typedef struct { int __unused; } pthread_attr_t;
typedef struct { int __unused; } pthread_mutexattr_t;
typedef struct { int __unused; } pthread_condattr_t;
typedef struct { volatile int __state; } pthread_mutex_t;
typedef struct { volatile int __seq; } pthread_cond_t;

#define PTHREAD_MUTEX_INITIALIZER { 0 }
#define PTHREAD_COND_INITIALIZER { 0 }

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);
int pthread_join(pthread_t t, void **ret);
void pthread_exit(void *ret) __attribute__((noreturn));
pthread_t pthread_self(void);
int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr);
int pthread_mutex_destroy(pthread_mutex_t *m);
int pthread_mutex_lock(pthread_mutex_t *m);
int pthread_mutex_trylock(pthread_mutex_t *m);
int pthread_mutex_unlock(pthread_mutex_t *m);
int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr);
int pthread_cond_destroy(pthread_cond_t *c);
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int pthread_cond_signal(pthread_cond_t *c);
int pthread_cond_broadcast(pthread_cond_t *c);

#endif
