/* malloc.c - a small size-class allocator over brk, with mmap for big blocks.
 *
 * Requests up to MAX_SMALL bytes are rounded up to a power of two (at least
 * 16) and served from a free list per size class; the lists are refilled by
 * carving chunks of CHUNK bytes out of the heap, grown with sbrk (or with
 * mmap when brk refuses). Freed small blocks go back to their list and are
 * never returned to the kernel. Bigger requests get their own anonymous
 * mapping, unmapped by free.
 *
 * Every block starts with a header of 16 bytes (keeping 16-byte alignment)
 * that records the size class, or the mapping length for a big block.
 */
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>
#include <errno.h>
#include <sys/mman.h>

#define HDR 16
#define MIN_SHIFT 4
#define MAX_SHIFT 16			/* biggest class: 64 KiB including the header */
#define MAX_SMALL ((1UL << MAX_SHIFT) - HDR)
#define CHUNK (1UL << MAX_SHIFT)
#define PAGE 4096UL

struct header {
	size_t size;	/* class size (small) or mapping length (big) */
	size_t big;	/* 1 for an mmap'ed block */
};

struct free_block {
	struct free_block *next;
};

static struct free_block *free_lists[MAX_SHIFT + 1];
static char *arena, *arena_end;

static unsigned class_of(size_t total)
{
	unsigned shift = MIN_SHIFT;

	while ((1UL << shift) < total)
		shift++;
	return shift;
}

/* Room for at least `need` more bytes in the arena. */
static int arena_grow(size_t need)
{
	size_t len = need < CHUNK ? CHUNK : need;
	char *p = sbrk((intptr_t)len);

	if (p == (char *)-1) {
		p = mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -1;
	}
	if (p != arena_end)	/* not contiguous: abandon the old tail */
		arena = p;
	arena_end = p + len;
	return 0;
}

static void *small_alloc(size_t total)
{
	unsigned c = class_of(total);
	size_t size = 1UL << c;
	struct header *h;

	if (free_lists[c]) {
		h = (struct header *)free_lists[c];
		free_lists[c] = free_lists[c]->next;
	} else {
		/* keep blocks 16-byte aligned */
		arena = (char *)(((uintptr_t)arena + 15) & ~(uintptr_t)15);
		if ((size_t)(arena_end - arena) < size && arena_grow(size) < 0)
			return 0;
		arena = (char *)(((uintptr_t)arena + 15) & ~(uintptr_t)15);
		h = (struct header *)arena;
		arena += size;
	}
	h->size = size;
	h->big = 0;
	return (char *)h + HDR;
}

static void *big_alloc(size_t total)
{
	size_t len = (total + PAGE - 1) & ~(PAGE - 1);
	struct header *h = mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (h == MAP_FAILED)
		return 0;
	h->size = len;
	h->big = 1;
	return (char *)h + HDR;
}

void *malloc(size_t n)
{
	void *p;

	if (n > (size_t)-1 / 2) {
		errno = ENOMEM;
		return 0;
	}
	p = n <= MAX_SMALL ? small_alloc(n + HDR) : big_alloc(n + HDR);
	if (!p)
		errno = ENOMEM;
	return p;
}

void free(void *p)
{
	struct header *h;

	if (!p)
		return;
	h = (struct header *)((char *)p - HDR);
	if (h->big) {
		munmap(h, h->size);
	} else {
		struct free_block *b = (struct free_block *)h;
		unsigned c = class_of(h->size);
		b->next = free_lists[c];
		free_lists[c] = b;
	}
}

void *calloc(size_t n, size_t size)
{
	void *p;

	if (size && n > (size_t)-1 / 2 / size) {
		errno = ENOMEM;
		return 0;
	}
	p = malloc(n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

void *realloc(void *p, size_t n)
{
	struct header *h;
	size_t room;
	void *q;

	if (!p)
		return malloc(n);
	if (!n) {
		free(p);
		return 0;
	}
	h = (struct header *)((char *)p - HDR);
	room = h->size - HDR;
	if (n <= room)
		return p;
	q = malloc(n);
	if (!q)
		return 0;
	memcpy(q, p, room);
	free(p);
	return q;
}
