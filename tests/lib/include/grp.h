/* grp.h */
#ifndef _GRP_H
#define _GRP_H
#include <bits/types.h>

int setgroups(size_t size, const gid_t *list);
#endif
