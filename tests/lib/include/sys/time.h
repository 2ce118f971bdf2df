/* sys/time.h */
#ifndef _SYS_TIME_H
#define _SYS_TIME_H
#include <bits/types.h>

#define ITIMER_REAL	0
#define ITIMER_VIRTUAL	1
#define ITIMER_PROF	2

struct itimerval {
	struct timeval it_interval;
	struct timeval it_value;
};

int getitimer(int which, struct itimerval *curr);
int setitimer(int which, const struct itimerval *new_value, struct itimerval *old_value);
#endif
