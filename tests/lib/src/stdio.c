/* stdio.c - the printf family over one formatter, unbuffered output. */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <stdint.h>

static FILE files[3] = { { 0 }, { 1 }, { 2 } };
FILE *const stdin = &files[0];
FILE *const stdout = &files[1];
FILE *const stderr = &files[2];

/* Where formatted text goes: a caller's buffer (fd < 0), or a chunk buffer
 * that is written to fd whenever it fills up. */
struct sink {
	char *buf;
	size_t size;	/* capacity of buf, terminating NUL included */
	size_t len;	/* bytes in buf now */
	size_t total;	/* bytes produced so far (the return value) */
	int fd;
	int error;
};

static void sink_flush(struct sink *s)
{
	size_t off = 0;

	while (off < s->len) {
		ssize_t n = write(s->fd, s->buf + off, s->len - off);
		if (n <= 0) {
			s->error = 1;
			break;
		}
		off += (size_t)n;
	}
	s->len = 0;
}

static void put(struct sink *s, char c)
{
	s->total++;
	if (s->fd >= 0) {
		s->buf[s->len++] = c;
		if (s->len == s->size)
			sink_flush(s);
	} else if (s->len + 1 < s->size) {
		s->buf[s->len++] = c;
	}
}

static void put_repeat(struct sink *s, char c, int n)
{
	while (n-- > 0)
		put(s, c);
}

struct spec {
	int left;	/* '-' */
	int zero;	/* '0' */
	int plus;	/* '+' */
	int space;	/* ' ' */
	int alt;	/* '#' */
	int width;
	int prec;	/* -1 if none */
};

/* Print an unsigned magnitude with sign/prefix, honouring width, precision
 * and the flags. */
static void put_number(struct sink *s, const struct spec *sp, unsigned long long v,
		       unsigned base, int upper, const char *prefix)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, prec = sp->prec, width = sp->width, plen = (int)strlen(prefix);

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	if (prec == 0 && n == 1 && tmp[0] == '0')
		n = 0;	/* "%.0d" of 0 prints nothing */
	if (prec < n)
		prec = n;
	width -= prec + plen;
	if (!sp->left && !(sp->zero && sp->prec < 0))
		put_repeat(s, ' ', width);
	while (*prefix)
		put(s, *prefix++);
	if (!sp->left && sp->zero && sp->prec < 0)
		put_repeat(s, '0', width);
	put_repeat(s, '0', prec - n);
	while (n)
		put(s, tmp[--n]);
	if (sp->left)
		put_repeat(s, ' ', width);
}

static void put_string(struct sink *s, const struct spec *sp, const char *str)
{
	int n;

	if (!str)
		str = "(null)";
	n = (int)(sp->prec >= 0 ? strnlen(str, (size_t)sp->prec) : strlen(str));
	if (!sp->left)
		put_repeat(s, ' ', sp->width - n);
	for (int i = 0; i < n; i++)
		put(s, str[i]);
	if (sp->left)
		put_repeat(s, ' ', sp->width - n);
}

static void format(struct sink *s, const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		struct spec sp = { 0, 0, 0, 0, 0, 0, -1 };
		int lng = 0;	/* -2 hh, -1 h, 1 l, 2 ll, 3 size_t/ptrdiff_t/intmax_t */
		unsigned long long u;
		long long v;

		if (*fmt != '%') {
			put(s, *fmt);
			continue;
		}
		for (;; fmt++) {	/* flags */
			char c = fmt[1];
			if (c == '-') sp.left = 1;
			else if (c == '0') sp.zero = 1;
			else if (c == '+') sp.plus = 1;
			else if (c == ' ') sp.space = 1;
			else if (c == '#') sp.alt = 1;
			else break;
		}
		fmt++;
		if (*fmt == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				sp.left = 1;
				sp.width = -sp.width;
			}
			fmt++;
		} else {
			while (*fmt >= '0' && *fmt <= '9')
				sp.width = sp.width * 10 + (*fmt++ - '0');
		}
		if (*fmt == '.') {
			fmt++;
			sp.prec = 0;
			if (*fmt == '*') {
				sp.prec = va_arg(ap, int);
				fmt++;
			} else {
				while (*fmt >= '0' && *fmt <= '9')
					sp.prec = sp.prec * 10 + (*fmt++ - '0');
			}
		}
		for (;; fmt++) {	/* length modifiers */
			if (*fmt == 'h') lng = lng == -1 ? -2 : -1;
			else if (*fmt == 'l') lng = lng == 1 ? 2 : 1;
			else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j') lng = 3;
			else break;
		}
		switch (*fmt) {
		case 'd':
		case 'i':
			if (lng == 2) v = va_arg(ap, long long);
			else if (lng == 3) v = (long long)va_arg(ap, intmax_t);
			else if (lng == 1) v = va_arg(ap, long);
			else v = va_arg(ap, int);
			if (lng == -1) v = (short)v;
			if (lng == -2) v = (signed char)v;
			u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
			put_number(s, &sp, u, 10, 0, v < 0 ? "-" : sp.plus ? "+" : sp.space ? " " : "");
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (lng == 2) u = va_arg(ap, unsigned long long);
			else if (lng == 3) u = (unsigned long long)va_arg(ap, size_t);
			else if (lng == 1) u = va_arg(ap, unsigned long);
			else u = va_arg(ap, unsigned int);
			if (lng == -1) u = (unsigned short)u;
			if (lng == -2) u = (unsigned char)u;
			if (*fmt == 'u')
				put_number(s, &sp, u, 10, 0, "");
			else if (*fmt == 'o')
				put_number(s, &sp, u, 8, 0, sp.alt && u ? "0" : "");
			else
				put_number(s, &sp, u, 16, *fmt == 'X',
					   sp.alt && u ? (*fmt == 'X' ? "0X" : "0x") : "");
			break;
		case 'p':
			put_number(s, &sp, (uintptr_t)va_arg(ap, void *), 16, 0, "0x");
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);
			if (!sp.left)
				put_repeat(s, ' ', sp.width - 1);
			put(s, c);
			if (sp.left)
				put_repeat(s, ' ', sp.width - 1);
			break;
		}
		case 's':
			put_string(s, &sp, va_arg(ap, const char *));
			break;
		case '%':
			put(s, '%');
			break;
		case '\0':
			return;
		default:	/* unknown conversion: print it as it was written */
			put(s, '%');
			put(s, *fmt);
			break;
		}
	}
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink s = { buf, size, 0, 0, -1, 0 };

	format(&s, fmt, ap);
	if (size)
		buf[s.len] = 0;
	return (int)s.total;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int sprintf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, (size_t)-1 / 2, fmt, ap);
	va_end(ap);
	return n;
}

int vdprintf(int fd, const char *fmt, va_list ap)
{
	char chunk[BUFSIZ];
	struct sink s = { chunk, sizeof(chunk), 0, 0, fd, 0 };

	format(&s, fmt, ap);
	sink_flush(&s);
	return s.error ? -1 : (int)s.total;
}

int dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}

int vfprintf(FILE *f, const char *fmt, va_list ap) { return vdprintf(f->fd, fmt, ap); }
int vprintf(const char *fmt, va_list ap) { return vdprintf(1, fmt, ap); }

int fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vdprintf(f->fd, fmt, ap);
	va_end(ap);
	return n;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vdprintf(1, fmt, ap);
	va_end(ap);
	return n;
}

int fputs(const char *str, FILE *f)
{
	size_t n = strlen(str);

	return write(f->fd, str, n) == (ssize_t)n ? 0 : EOF;
}

int puts(const char *str)
{
	return dprintf(1, "%s\n", str) < 0 ? EOF : 0;
}

int fputc(int c, FILE *f)
{
	unsigned char ch = (unsigned char)c;

	return write(f->fd, &ch, 1) == 1 ? ch : EOF;
}

int putchar(int c) { return fputc(c, stdout); }

/* Streams are unbuffered: nothing to flush, any mode is accepted. */
int fflush(FILE *f) { (void)f; return 0; }

int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
	(void)f, (void)buf, (void)mode, (void)size;
	return 0;
}

void perror(const char *msg)
{
	if (msg && *msg)
		dprintf(2, "%s: %s\n", msg, strerror(errno));
	else
		dprintf(2, "%s\n", strerror(errno));
}
