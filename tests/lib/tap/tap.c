/* tap.c - see tap.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"

static int points;
static int failures;

static void emit(const char *line, size_t len)
{
	while (len) {
		ssize_t n = write(1, line, len);
		if (n <= 0)
			return;
		line += n;
		len -= (size_t)n;
	}
}

/* Print "<head><formatted text><tail>\n" with one write. */
static void vline(const char *head, const char *tail, const char *fmt, va_list ap)
{
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "%s", head);

	n += vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	if (n > (int)sizeof(buf) - 40)
		n = (int)sizeof(buf) - 40;
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%s\n", tail);
	emit(buf, (size_t)n);
}

void tap_init(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	setvbuf(stderr, NULL, _IONBF, 0);
}

static int vok(int cond, const char *tail, const char *fmt, va_list ap)
{
	char head[32];

	points++;
	if (!cond)
		failures++;
	snprintf(head, sizeof(head), "%sok %d - ", cond ? "" : "not ", points);
	vline(head, tail, fmt, ap);
	return cond;
}

int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cond = vok(cond != 0, "", fmt, ap);
	va_end(ap);
	return cond;
}

int tap_is_long(long got, long want, const char *fmt, ...)
{
	char tail[80];
	va_list ap;
	int cond = got == want;

	if (cond)
		snprintf(tail, sizeof(tail), " (%ld)", got);
	else
		snprintf(tail, sizeof(tail), " (got %ld, want %ld)", got, want);
	va_start(ap, fmt);
	vok(cond, tail, fmt, ap);
	va_end(ap);
	return cond;
}

void tap_skip(const char *fmt, ...)
{
	char head[48];
	va_list ap;

	points++;
	snprintf(head, sizeof(head), "ok %d - # SKIP ", points);
	va_start(ap, fmt);
	vline(head, "", fmt, ap);
	va_end(ap);
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline("# ", "", fmt, ap);
	va_end(ap);
}

int tap_failures(void)
{
	return failures;
}

int tap_done(void)
{
	char buf[32];
	/* /init sets TAP_FALLBACK when it cannot collect our output (tap.h) */
	int n = snprintf(buf, sizeof(buf), "%s1..%d\n", getenv("TAP_FALLBACK") ? "# " : "", points);

	emit(buf, (size_t)n);
	return failures ? 1 : 0;
}
