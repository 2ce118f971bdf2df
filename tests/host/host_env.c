/*
 * host_env.c - the kernel services that host unit tests link against.
 *
 * printk() goes to stdout, panic() prints and aborts, so ASan/UBSan and
 * the test runner see a failure with a stack trace. Tests that expect a
 * panic set host_panic_expected and catch it with host_panic_jmp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <setjmp.h>
#include <string.h>
#include "printk.h"
#include "host_env.h"

jmp_buf host_panic_jmp;
int host_panic_expected;
char host_panic_msg[512];

char host_capture[8192];
int host_capturing;

void printk(const char *fmt, ...)
{
	va_list ap;
	size_t used = strlen(host_capture);

	va_start(ap, fmt);
	if (host_capturing)
		vsnprintf(host_capture + used, sizeof(host_capture) - used, fmt, ap);
	else
		vprintf(fmt, ap);
	va_end(ap);
}

int vsnprintk(char *buf, size_t size, const char *fmt, va_list ap)
{
	return vsnprintf(buf, size, fmt, ap);
}

int snprintk(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(host_panic_msg, sizeof(host_panic_msg), fmt, ap);
	va_end(ap);
	if (host_panic_expected) {
		host_panic_expected = 0;
		longjmp(host_panic_jmp, 1);
	}
	fprintf(stderr, "panic: %s\n", host_panic_msg);
	abort();
}

int tap_count, tap_failed;

void tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}
