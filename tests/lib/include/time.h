/* time.h */
#ifndef _TIME_H
#define _TIME_H
#include <bits/types.h>

#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_BOOTTIME 7
#define TIMER_ABSTIME 1

int clock_gettime(clockid_t clk, struct timespec *ts);
int nanosleep(const struct timespec *req, struct timespec *rem);
int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem);
time_t time(time_t *t);

#endif
