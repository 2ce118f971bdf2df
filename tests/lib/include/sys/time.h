/* sys/time.h */
#ifndef _SYS_TIME_H
#define _SYS_TIME_H
#include <bits/types.h>
#endif
