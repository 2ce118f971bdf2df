/* sys/prctl.h */
#ifndef _SYS_PRCTL_H
#define _SYS_PRCTL_H

#define PR_SET_PDEATHSIG	1
#define PR_GET_PDEATHSIG	2
#define PR_SET_NAME		15
#define PR_GET_NAME		16
#define PR_SET_TAGGED_ADDR_CTRL	55
#define PR_GET_TAGGED_ADDR_CTRL	56
#define PR_TAGGED_ADDR_ENABLE	(1UL << 0)

int prctl(int option, ...);
#endif
