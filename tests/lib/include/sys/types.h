/* sys/types.h */
#ifndef _SYS_TYPES_H
#define _SYS_TYPES_H
#include <bits/types.h>
#endif
