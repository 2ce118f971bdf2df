/*
 * string.c - freestanding memory and string helpers (see kstring.h).
 * memset and memcpy move whole words where alignment allows (page clears and
 * copy-on-write copies are most of the kernel's memory traffic); the rest
 * are byte loops. They run with the MMU on, where caches are enabled.
 */
#include "kstring.h"

/* A machine word that may alias anything (so word copies are well defined). */
typedef unsigned long __attribute__((may_alias)) word_t;
#define WORD sizeof(word_t)

/* These loops must stay loops: GCC would otherwise turn them into calls to
 * the very functions they implement. */
#define NO_LIBCALL __attribute__((optimize("no-tree-loop-distribute-patterns")))

/* memset: bytes up to word alignment, then four words per step. */
NO_LIBCALL void *memset(void *dst, int c, size_t n)
{
	u8 *d = dst;
	word_t w = (u8)c;

	w |= w << 8;
	w |= w << 16;
	w |= (w << 16) << 16;	/* no-op where a word is 32 bits */
	while (n && ((uintptr_t)d & (WORD - 1))) {
		*d++ = (u8)c;
		n--;
	}
	for (; n >= 4 * WORD; n -= 4 * WORD, d += 4 * WORD) {
		word_t *dw = (word_t *)d;

		dw[0] = w;
		dw[1] = w;
		dw[2] = w;
		dw[3] = w;
	}
	for (; n >= WORD; n -= WORD, d += WORD)
		*(word_t *)d = w;
	while (n--)
		*d++ = (u8)c;
	return dst;
}

/* memcpy: words when source and destination are equally aligned, else bytes. */
NO_LIBCALL void *memcpy(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	if ((((uintptr_t)d ^ (uintptr_t)s) & (WORD - 1)) == 0) {
		while (n && ((uintptr_t)d & (WORD - 1))) {
			*d++ = *s++;
			n--;
		}
		for (; n >= 4 * WORD; n -= 4 * WORD, d += 4 * WORD, s += 4 * WORD) {
			const word_t *sw = (const word_t *)s;
			word_t *dw = (word_t *)d;

			dw[0] = sw[0];
			dw[1] = sw[1];
			dw[2] = sw[2];
			dw[3] = sw[3];
		}
		for (; n >= WORD; n -= WORD, d += WORD, s += WORD)
			*(word_t *)d = *(const word_t *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

NO_LIBCALL void *memmove(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (u8)*a - (u8)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (u8)*a - (u8)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}
