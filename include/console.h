/*
 * console.h - the kernel console: one output device chosen through
 * /chosen/stdout-path. Output printed before the console exists is kept in
 * a small buffer and written out when the console registers.
 */
#ifndef CONSOLE_H
#define CONSOLE_H

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

#endif
