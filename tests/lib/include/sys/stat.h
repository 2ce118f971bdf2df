/* sys/stat.h - only the mode bits. */
#ifndef _SYS_STAT_H
#define _SYS_STAT_H
#include <bits/types.h>
#define S_IFMT  0170000
#define S_IFDIR 0040000
#define S_IFCHR 0020000
#define S_IFREG 0100000
#endif
