/* string.c - byte-at-a-time string and memory functions.
 * Built with -fno-tree-loop-distribute-patterns so that GCC does not turn
 * these loops back into calls to themselves.
 */
#include <string.h>
#include <stdlib.h>
#include <signal.h>
#include <errno.h>
#include <stdio.h>

/* A machine word that may alias anything, for word-at-a-time loops. */
typedef unsigned long __attribute__((may_alias)) word_t;
#define WORD sizeof(word_t)

/* memcpy: whole words when both pointers are equally aligned. */
void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((((unsigned long)d ^ (unsigned long)s) & (WORD - 1)) == 0) {
		for (; n && ((unsigned long)d & (WORD - 1)); n--)
			*d++ = *s++;
		for (; n >= WORD; n -= WORD, d += WORD, s += WORD)
			*(word_t *)d = *(const word_t *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

/* memset: whole words once aligned. */
void *memset(void *s, int c, size_t n)
{
	unsigned char *p = s;
	word_t w = (unsigned char)c;

	w |= w << 8;
	w |= w << 16;
	w |= (w << 16) << 16;	/* no-op where a word is 32 bits */
	for (; n && ((unsigned long)p & (WORD - 1)); n--)
		*p++ = (unsigned char)c;
	for (; n >= WORD; n -= WORD, p += WORD)
		*(word_t *)p = w;
	while (n--)
		*p++ = (unsigned char)c;
	return s;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strcpy(char *dst, const char *src)
{
	char *d = dst;

	while ((*d++ = *src++))
		;
	return dst;
}

char *strncpy(char *dst, const char *src, size_t n)
{
	size_t i = 0;

	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = 0;
	return dst;
}

char *strcat(char *dst, const char *src)
{
	strcpy(dst + strlen(dst), src);
	return dst;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return 0;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = 0;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *haystack, const char *needle)
{
	size_t n = strlen(needle);

	for (; *haystack; haystack++)
		if (!strncmp(haystack, needle, n))
			return (char *)haystack;
	return n ? 0 : (char *)haystack;
}

size_t strspn(const char *s, const char *accept)
{
	size_t n = 0;

	while (s[n] && strchr(accept, s[n]))
		n++;
	return n;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}

char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	return p ? memcpy(p, s, n) : 0;
}

static const struct {
	int num;
	const char *text;
} errnames[] = {
	{ EPERM, "Operation not permitted" },
	{ ENOENT, "No such file or directory" },
	{ ESRCH, "No such process" },
	{ EINTR, "Interrupted system call" },
	{ EIO, "Input/output error" },
	{ E2BIG, "Argument list too long" },
	{ ENOEXEC, "Exec format error" },
	{ EBADF, "Bad file descriptor" },
	{ ECHILD, "No child processes" },
	{ EAGAIN, "Resource temporarily unavailable" },
	{ ENOMEM, "Cannot allocate memory" },
	{ EACCES, "Permission denied" },
	{ EFAULT, "Bad address" },
	{ EBUSY, "Device or resource busy" },
	{ EEXIST, "File exists" },
	{ ENODEV, "No such device" },
	{ ENOTDIR, "Not a directory" },
	{ EISDIR, "Is a directory" },
	{ EINVAL, "Invalid argument" },
	{ EMFILE, "Too many open files" },
	{ ENOTTY, "Inappropriate ioctl for device" },
	{ ENOSPC, "No space left on device" },
	{ ESPIPE, "Illegal seek" },
	{ EPIPE, "Broken pipe" },
	{ ERANGE, "Numerical result out of range" },
	{ ENOSYS, "Function not implemented" },
	{ EXDEV, "Invalid cross-device link" },
	{ ENOTEMPTY, "Directory not empty" },
	{ ELOOP, "Too many levels of symbolic links" },
	{ ENAMETOOLONG, "File name too long" },
};

char *strerror(int errnum)
{
	static char unknown[32];

	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].num == errnum)
			return (char *)errnames[i].text;
	snprintf(unknown, sizeof(unknown), "Unknown error %d", errnum);
	return unknown;
}

char *strsignal(int sig)
{
	static const char *const names[] = {
		[SIGHUP] = "Hangup", [SIGINT] = "Interrupt", [SIGQUIT] = "Quit",
		[SIGILL] = "Illegal instruction", [SIGTRAP] = "Trace/breakpoint trap",
		[SIGABRT] = "Aborted", [SIGBUS] = "Bus error",
		[SIGFPE] = "Floating point exception", [SIGKILL] = "Killed",
		[SIGUSR1] = "User defined signal 1", [SIGSEGV] = "Segmentation fault",
		[SIGUSR2] = "User defined signal 2", [SIGPIPE] = "Broken pipe",
		[SIGALRM] = "Alarm clock", [SIGTERM] = "Terminated",
		[SIGCHLD] = "Child exited",
	};
	static char unknown[32];

	if (sig > 0 && sig < (int)(sizeof(names) / sizeof(names[0])) && names[sig])
		return (char *)names[sig];
	snprintf(unknown, sizeof(unknown), "Unknown signal %d", sig);
	return unknown;
}
