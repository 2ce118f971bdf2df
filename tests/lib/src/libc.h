/* libc.h - internal helpers of the test libc. */
#ifndef _LIBC_INTERNAL_H
#define _LIBC_INTERNAL_H

#include <sys/syscall.h>
#include <errno.h>
#include "syscall_arch.h"

/* sys(NR, args...): raw system call with up to six arguments; the result
 * is the kernel's (-errno on failure). */
#define __sys_expand(n, a, b, c, d, e, f, ...) \
	__syscall6((n), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))
#define sys(...) __sys_expand(__VA_ARGS__, 0, 0, 0, 0, 0, 0)

/* Turn a raw result into the C convention: -1 and errno on failure. */
static inline long __sysret(long r)
{
	if ((unsigned long)r > -4096UL) {
		errno = (int)-r;
		return -1;
	}
	return r;
}
#define syscall_ret(...) __sysret(sys(__VA_ARGS__))

extern unsigned long *__auxv;

#endif
