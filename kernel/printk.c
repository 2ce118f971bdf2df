/*
 * printk.c - formatted output to the console, and panic().
 *
 * Before a console is registered, output goes to early_buf; the console
 * replays it on registration, so nothing printed during early boot is lost.
 */
#include "types.h"
#include "printk.h"
#include "console.h"
#include "arch.h"
#include "ktest.h"

static struct console *console;
static char early_buf[4096];
static size_t early_len;

/* Append one character to the output buffer b, if it has room. */
struct outbuf {
	char *buf;
	size_t size, len;
};

static void out_c(struct outbuf *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void out_pad(struct outbuf *o, char c, int n)
{
	while (n-- > 0)
		out_c(o, c);
}

/* Print an unsigned number in base 10 or 16 with field width and padding. */
static void out_num(struct outbuf *o, u64 v, unsigned base, bool neg, bool upper,
		    int width, bool zero, bool left)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, len;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	len = n + neg;
	if (!left && !zero)
		out_pad(o, ' ', width - len);
	if (neg)
		out_c(o, '-');
	if (!left && zero)
		out_pad(o, '0', width - len);
	while (n)
		out_c(o, tmp[--n]);
	if (left)
		out_pad(o, ' ', width - len);
}

static void out_str(struct outbuf *o, const char *s, int width, bool left)
{
	int len = 0;

	if (!s)
		s = "(null)";
	while (s[len])
		len++;
	if (!left)
		out_pad(o, ' ', width - len);
	while (*s)
		out_c(o, *s++);
	if (left)
		out_pad(o, ' ', width - len);
}

/* Fetch an integer argument of the given length class (0 int, 1 long, 2 long long, 3 size_t). */
static u64 arg_unsigned(va_list *ap, int lenclass)
{
	switch (lenclass) {
	case 1: return va_arg(*ap, unsigned long);
	case 2: return va_arg(*ap, unsigned long long);
	case 3: return va_arg(*ap, size_t);
	default: return va_arg(*ap, unsigned int);
	}
}

static s64 arg_signed(va_list *ap, int lenclass)
{
	switch (lenclass) {
	case 1: return va_arg(*ap, long);
	case 2: return va_arg(*ap, long long);
	case 3: return (s64)va_arg(*ap, size_t);
	default: return va_arg(*ap, int);
	}
}

int vsnprintk(char *buf, size_t size, const char *fmt, va_list ap0)
{
	struct outbuf o = { buf, size, 0 };
	va_list ap;

	va_copy(ap, ap0);
	for (; *fmt; fmt++) {
		bool left = false, zero = false;
		int width = 0, lenclass = 0;

		if (*fmt != '%') {
			out_c(&o, *fmt);
			continue;
		}
		fmt++;
		for (;; fmt++) {
			if (*fmt == '-')
				left = true;
			else if (*fmt == '0')
				zero = true;
			else
				break;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		for (;; fmt++) {
			if (*fmt == 'l')
				lenclass++;
			else if (*fmt == 'z')
				lenclass = 3;
			else
				break;
		}
		switch (*fmt) {
		case 'd':
		case 'i': {
			s64 v = arg_signed(&ap, lenclass);
			out_num(&o, v < 0 ? -(u64)v : (u64)v, 10, v < 0, false, width, zero, left);
			break;
		}
		case 'u':
			out_num(&o, arg_unsigned(&ap, lenclass), 10, false, false, width, zero, left);
			break;
		case 'o':
			out_num(&o, arg_unsigned(&ap, lenclass), 8, false, false, width, zero, left);
			break;
		case 'x':
		case 'X':
			out_num(&o, arg_unsigned(&ap, lenclass), 16, false, *fmt == 'X', width, zero, left);
			break;
		case 'p':
			out_str(&o, "0x", 0, false);
			out_num(&o, (uintptr_t)va_arg(ap, void *), 16, false, false, width, zero, left);
			break;
		case 's':
			out_str(&o, va_arg(ap, const char *), width, left);
			break;
		case 'c':
			out_c(&o, (char)va_arg(ap, int));
			break;
		case '%':
			out_c(&o, '%');
			break;
		case '\0':
			fmt--;
			break;
		default:
			out_c(&o, '%');
			out_c(&o, *fmt);
		}
	}
	va_end(ap);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintk(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintk(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

void console_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!console) {
			if (early_len < sizeof(early_buf))
				early_buf[early_len++] = s[i];
			continue;
		}
		if (s[i] == '\n')
			console->putc(console, '\r');
		console->putc(console, s[i]);
	}
}

int console_getc(void)
{
	return console && console->getc ? console->getc(console) : -1;
}

void console_register(struct console *con)
{
	console = con;
	console_write(early_buf, early_len);
	early_len = 0;
}

void printk(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintk(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	console_write(buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

void panic(const char *fmt, ...)
{
	static int nested;
	char buf[512];
	va_list ap;

	if (nested++)
		arch_poweroff(1);	/* a panic while panicking: stop at once */
	va_start(ap, fmt);
	vsnprintk(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (ktest_panic_hook(buf))
		arch_poweroff(0);
	printk("\npanic: %s\n", buf);
	arch_poweroff(1);
}
