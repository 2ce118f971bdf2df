/*
 * poll.h - readiness of open files for ppoll and pselect6 (poll.c).
 */
#ifndef POLL_H
#define POLL_H

#define POLLIN		0x0001
#define POLLPRI		0x0002
#define POLLOUT		0x0004
#define POLLERR		0x0008
#define POLLHUP		0x0010
#define POLLNVAL	0x0020
#define POLLRDNORM	0x0040
#define POLLWRNORM	0x0100

struct file;

/* What f is ready for now (POLL* bits), without waiting. */
unsigned file_poll(struct file *f);

/* The channel poll waiters sleep on; wakeup() of any channel wakes them too. */
extern const char poll_chan;

#endif
