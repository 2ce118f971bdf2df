/* sys/select.h */
#ifndef _SYS_SELECT_H
#define _SYS_SELECT_H
#include <bits/types.h>
#include <signal.h>
#include <time.h>

#define FD_SETSIZE 1024
typedef struct {
	unsigned long fds_bits[FD_SETSIZE / (8 * sizeof(unsigned long))];
} fd_set;

#define __FD_BITS (8 * sizeof(unsigned long))
#define FD_ZERO(s) __builtin_memset((s), 0, sizeof(fd_set))
#define FD_SET(fd, s) ((s)->fds_bits[(fd) / __FD_BITS] |= 1ul << ((fd) % __FD_BITS))
#define FD_CLR(fd, s) ((s)->fds_bits[(fd) / __FD_BITS] &= ~(1ul << ((fd) % __FD_BITS)))
#define FD_ISSET(fd, s) (((s)->fds_bits[(fd) / __FD_BITS] >> ((fd) % __FD_BITS)) & 1)

int pselect(int nfds, fd_set *r, fd_set *w, fd_set *e, const struct timespec *tmo, const sigset_t *mask);
#endif
