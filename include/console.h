/*
 * console.h - the kernel console: one output device chosen through
 * /chosen/stdout-path. Output printed before the console exists is kept in
 * a small buffer and written out when the console registers.
 */
#ifndef CONSOLE_H
#define CONSOLE_H

#include "types.h"

struct console {
	const char *name;
	void (*putc)(struct console *con, char c);  /* blocking write of one byte */
	int (*getc)(struct console *con);           /* -1 when nothing is pending */
	void *priv;
};

/* Make con the console and flush what was printed before it existed. */
void console_register(struct console *con);
/* Write n bytes to the console (LF becomes CR LF). */
void console_write(const char *s, size_t n);

/* One byte from the console, or -1 when none is waiting. */
int console_getc(void);

/* Read at least one byte (waiting for it), at most n; returns the count. */
long console_read_bytes(void *buf, size_t n);

/* The terminal ioctls programs ask of the console (TCGETS, TIOCGWINSZ). */
long console_tty_ioctl(unsigned long cmd, unsigned long arg);

#endif
