/* stdlib.c - exit, number parsing, environment. */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <signal.h>
#include <unistd.h>

/* Output is unbuffered and there are no atexit handlers: exit is _exit. */
void exit(int status)
{
	_exit(status);
}

void abort(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGABRT);
	sigprocmask(SIG_UNBLOCK, &set, 0);
	raise(SIGABRT);
	signal(SIGABRT, SIG_DFL);	/* a handler returned: die anyway */
	raise(SIGABRT);
	_exit(127);
}

int abs(int x) { return x < 0 ? -x : x; }
long labs(long x) { return x < 0 ? -x : x; }

/* Parse an unsigned magnitude in the given base (0: from the prefix). */
static unsigned long long parse(const char *s, char **end, int base, int *neg, int *overflow)
{
	const char *p = s;
	unsigned long long v = 0;
	int any = 0;

	*neg = 0;
	*overflow = 0;
	while (isspace(*p))
		p++;
	if (*p == '-' || *p == '+')
		*neg = *p++ == '-';
	if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit(p[2])) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = *p == '0' ? 8 : 10;
	}
	for (;; p++, any = 1) {
		int d;
		if (isdigit(*p)) d = *p - '0';
		else if (isalpha(*p)) d = tolower(*p) - 'a' + 10;
		else break;
		if (d >= base)
			break;
		if (v > (ULLONG_MAX - (unsigned)d) / (unsigned)base)
			*overflow = 1;
		v = v * (unsigned)base + (unsigned)d;
	}
	if (end)
		*end = (char *)(any ? p : s);
	return v;
}

unsigned long long strtoull(const char *s, char **end, int base)
{
	int neg, ovf;
	unsigned long long v = parse(s, end, base, &neg, &ovf);

	if (ovf) {
		errno = ERANGE;
		return ULLONG_MAX;
	}
	return neg ? -v : v;
}

long long strtoll(const char *s, char **end, int base)
{
	int neg, ovf;
	unsigned long long v = parse(s, end, base, &neg, &ovf);

	if (ovf || v > (unsigned long long)LLONG_MAX + neg) {
		errno = ERANGE;
		return neg ? LLONG_MIN : LLONG_MAX;
	}
	return neg ? (long long)-v : (long long)v;
}

unsigned long strtoul(const char *s, char **end, int base)
{
	int neg, ovf;
	unsigned long long v = parse(s, end, base, &neg, &ovf);

	if (ovf || v > ULONG_MAX) {
		errno = ERANGE;
		return ULONG_MAX;
	}
	return neg ? -(unsigned long)v : (unsigned long)v;
}

long strtol(const char *s, char **end, int base)
{
	long long v = strtoll(s, end, base);

	if (v > LONG_MAX || v < LONG_MIN) {
		errno = ERANGE;
		return v > 0 ? LONG_MAX : LONG_MIN;
	}
	return (long)v;
}

int atoi(const char *s) { return (int)strtol(s, 0, 10); }
long atol(const char *s) { return strtol(s, 0, 10); }

char *getenv(const char *name)
{
	size_t n = strlen(name);

	for (char **e = environ; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return *e + n + 1;
	return 0;
}
