/*
 * fail_alloc.h - allocation-failure injection for tests: the Nth page or
 * slab allocation after the countdown is armed returns NULL, once.
 *
 * Armed at boot by the bootarg fail_alloc=N, and at run time by writing N
 * to /proc/sys/vm/fail_alloc (0 disarms). Reading that file gives
 * "<countdown> <fired>": the allocations left before the failure (0: not
 * armed) and how many failures have been injected since boot, so a test
 * can arm, make one call, disarm, and then see whether the failure was
 * reached (tests/user/mm_failinj.c).
 */
#ifndef MM_FAIL_ALLOC_H
#define MM_FAIL_ALLOC_H

#include "types.h"

extern u64 fail_alloc_countdown;	/* 0: off */
extern u64 fail_alloc_fired;		/* failures injected since boot */

/*
 * When set, only allocations for which it returns true count down (the
 * run-time arming of /proc/sys/vm/fail_alloc counts only the system calls
 * of the process that armed it, so its own page faults and those of a
 * fork child do not take the failure). NULL: every allocation counts.
 */
extern bool (*fail_alloc_filter)(void);

/* Called by every page and slab allocation: true when this one must fail. */
bool fail_alloc_now(void);

#endif
