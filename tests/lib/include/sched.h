/* sched.h */
#ifndef _SCHED_H
#define _SCHED_H
int sched_yield(void);
#endif
