/*
 * printk.h - kernel console output, panics and invariant checks.
 *
 * The kernel and the host tests both provide printk() and panic(); the
 * host versions (tests/host/host_env.c) print to stderr and abort().
 */
#ifndef PRINTK_H
#define PRINTK_H

#include <stdarg.h>
#include "types.h"

/* Format and print to the console. Supports %d %i %u %o %x %X %p %s %c %%,
 * the length modifiers l, ll, z, and field width / zero padding / '-'. */
void printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Like vsnprintf: always NUL-terminates when size > 0, returns the length
 * the full output would have had. */
int vsnprintk(char *buf, size_t size, const char *fmt, va_list ap);
int snprintk(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Print "panic: <message>" and stop the machine with a failure status. */
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Check an invariant; on failure panic naming the file, line and condition. */
#define BUG_ON(cond)                                                        \
	do {                                                                \
		if (cond)                                                   \
			panic("%s:%d: BUG_ON(%s)", __FILE__, __LINE__, #cond); \
	} while (0)

#endif
