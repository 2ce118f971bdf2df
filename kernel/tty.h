/*
 * tty.h - the console as the controlling terminal: which session owns it
 * and which of its process groups is in the foreground (job control).
 */
#ifndef TTY_H
#define TTY_H

#include "types.h"

struct proc;

/* p is exiting: if it leads the session that owns the console, the
 * console loses its session (the foreground group gets SIGHUP and SIGCONT,
 * as Linux's disassociate_ctty does). */
void tty_session_exit(struct proc *p);

/* Boot: the console becomes the controlling terminal of init's session. */
void tty_set_init_session(int sid);

/* The console's input: move bytes from the UART into the line discipline,
 * sending SIGINT/SIGQUIT/SIGTSTP for the ISIG characters (the tick and
 * readers call it). */
void tty_poll_input(void);

/* For /proc/<pid>/stat: p's controlling terminal as a device number (0:
 * none) and its foreground group (-1: none). */
void tty_of(const struct proc *p, int *tty_nr, int *tpgid);

/* Would a read of the console return now (data or end of file)? */
bool tty_can_read(void);

#endif
