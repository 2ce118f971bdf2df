/* sys/resource.h */
#ifndef _SYS_RESOURCE_H
#define _SYS_RESOURCE_H
#include <bits/types.h>

#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)

#define RLIMIT_CPU     0
#define RLIMIT_FSIZE   1
#define RLIMIT_DATA    2
#define RLIMIT_STACK   3
#define RLIMIT_CORE    4
#define RLIMIT_RSS     5
#define RLIMIT_NPROC   6
#define RLIMIT_NOFILE  7
#define RLIMIT_MEMLOCK 8
#define RLIMIT_AS      9
#define RLIM_INFINITY  (~0ULL)

struct rusage {
	struct timeval ru_utime;
	struct timeval ru_stime;
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss;
	long ru_minflt, ru_majflt, ru_nswap;
	long ru_inblock, ru_oublock;
	long ru_msgsnd, ru_msgrcv, ru_nsignals;
	long ru_nvcsw, ru_nivcsw;
};

/* Same layout as the kernel's struct rlimit64 (prlimit64 is used for all). */
struct rlimit {
	rlim_t rlim_cur;
	rlim_t rlim_max;
};

int getrusage(int who, struct rusage *ru);
int getrlimit(int resource, struct rlimit *rl);
int setrlimit(int resource, const struct rlimit *rl);
int prlimit(pid_t pid, int resource, const struct rlimit *new_limit, struct rlimit *old_limit);

#endif
