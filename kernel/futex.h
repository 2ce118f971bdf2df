/*
 * futex.h - fast user-space locking: futex(2) (kernel/futex.c) and what
 * thread exit asks of it (robust lists, CLONE_CHILD_CLEARTID).
 */
#ifndef FUTEX_H
#define FUTEX_H

#include "types.h"

struct proc;

/* Wake at most nr waiters (at least one, as Linux) of the futex at uaddr
 * in the current address space, as a shared FUTEX_WAKE; returns how many
 * were woken (0 also for a bad address). */
int futex_wake_user(unsigned long uaddr, int nr);

/* Thread exit or exec: walk p's robust list (set_robust_list) in its
 * current mm; every futex p still owns gets FUTEX_OWNER_DIED, and one
 * waiter is woken where FUTEX_WAITERS was set. A bad list just ends the walk. */
void futex_exit_robust(struct proc *p);

#endif
