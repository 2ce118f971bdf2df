/* bits/types.h - the basic types shared by the test libc's headers.
 * Layouts follow Linux's user ABI for arm64 (LP64) and MicroBlaze (ILP32):
 * time values are `long`, as the kernel's native (non-time64) calls expect.
 */
#ifndef _BITS_TYPES_H
#define _BITS_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef long ssize_t;
typedef long off_t;
typedef int pid_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int mode_t;
typedef long time_t;
typedef long suseconds_t;
typedef long clock_t;
typedef int clockid_t;
typedef unsigned long long rlim_t;

struct timespec {
	time_t tv_sec;
	long tv_nsec;
};

struct timeval {
	time_t tv_sec;
	suseconds_t tv_usec;
};

/* The kernel's signal set: 64 signals. */
typedef struct {
	unsigned long __bits[64 / (8 * sizeof(unsigned long))];
} sigset_t;

#endif
