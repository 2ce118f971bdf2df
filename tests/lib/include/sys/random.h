/* sys/random.h */
#ifndef _SYS_RANDOM_H
#define _SYS_RANDOM_H
#include <bits/types.h>
#define GRND_NONBLOCK 1
#define GRND_RANDOM 2
ssize_t getrandom(void *buf, size_t len, unsigned int flags);
#endif
