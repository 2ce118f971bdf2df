/* stdio.h - formatted output straight to file descriptors.
 *
 * Streams are unbuffered: every printf is one write() of the formatted text
 * (in chunks of 512 bytes when it is longer), so output never needs a flush
 * before fork() and lines from several processes do not interleave.
 * Conversions: %d %i %u %x %X %o %c %s %p %%, with flags '-' '0' ' ' '+',
 * width and precision (also '*'), and the length modifiers hh h l ll z t j.
 * No floating point.
 */
#ifndef _STDIO_H
#define _STDIO_H
#include <stdarg.h>
#include <stddef.h>

#define EOF (-1)
#define BUFSIZ 512
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2

typedef struct __file {
	int fd;
} FILE;

extern FILE *const stdin;
extern FILE *const stdout;
extern FILE *const stderr;

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int dprintf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int sprintf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vprintf(const char *fmt, va_list ap);
int vfprintf(FILE *f, const char *fmt, va_list ap);
int vdprintf(int fd, const char *fmt, va_list ap);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int puts(const char *s);
int fputs(const char *s, FILE *f);
int putchar(int c);
int fputc(int c, FILE *f);
int fflush(FILE *f);
int setvbuf(FILE *f, char *buf, int mode, size_t size);
void perror(const char *msg);

#endif
