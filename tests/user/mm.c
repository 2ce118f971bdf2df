/* mm.c - anonymous mmap/munmap, brk, demand paging counted by
 * getrusage(ru_minflt), and a stack that grows on demand.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "tap.h"

/* The page size is the kernel's (4, 16 or 64 KiB on arm64). */
#define PAGE ((unsigned long)getpagesize())

static int all_bytes(const char *p, size_t n, char c)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != c)
			return 0;
	return 1;
}

static void *anon(void *hint, size_t len, int prot, int extra)
{
	return mmap(hint, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | extra, -1, 0);
}

static void test_mmap_basic(void)
{
	size_t len = 16 * PAGE;
	char *p = anon(NULL, len, PROT_READ | PROT_WRITE, 0);

	tap_ok(p != MAP_FAILED && ((uintptr_t)p & (PAGE - 1)) == 0, "mmap of 16 anonymous pages: page aligned (%p)", p);
	if (p == MAP_FAILED)
		return;
	tap_ok(all_bytes(p, len, 0), "new anonymous memory reads as zero");
	for (size_t i = 0; i < len; i++)
		p[i] = (char)(i * 7);
	{
		int good = 1;
		for (size_t i = 0; i < len; i++)
			good &= p[i] == (char)(i * 7);
		tap_ok(good, "what is written reads back");
	}
	tap_ok(munmap(p, len) == 0, "munmap of the whole region");
	p = anon(p, len, PROT_READ | PROT_WRITE, MAP_FIXED);
	tap_ok(p != MAP_FAILED && all_bytes(p, len, 0), "mapping the same range again (MAP_FIXED) gives zeroed memory");
	memset(p, 1, len);
	tap_ok(anon(p + PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED) == p + PAGE && all_bytes(p + PAGE, PAGE, 0) &&
	       all_bytes(p, PAGE, 1) && all_bytes(p + 2 * PAGE, PAGE, 1),
	       "MAP_FIXED over part of a mapping replaces just that page");
	tap_ok(munmap(p + 4 * PAGE, PAGE) == 0 && all_bytes(p + 3 * PAGE, PAGE, 1) && all_bytes(p + 5 * PAGE, PAGE, 1),
	       "munmap of one page in the middle keeps its neighbours");
	munmap(p, len);
}

static void test_mmap_errors(void)
{
	char *p;

	errno = 0;
	tap_ok(anon(NULL, 0, PROT_READ, 0) == MAP_FAILED && errno == EINVAL, "mmap of length 0: EINVAL (errno %d)", errno);
	errno = 0;
	p = mmap(NULL, PAGE, PROT_READ, MAP_ANONYMOUS, -1, 0);
	tap_ok(p == MAP_FAILED && errno == EINVAL, "mmap with neither MAP_PRIVATE nor MAP_SHARED: EINVAL (errno %d)", errno);
	errno = 0;
	p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, -1, 0);
	tap_ok(p == MAP_FAILED && errno == EBADF, "file mmap with fd -1: EBADF (errno %d)", errno);
	p = anon(NULL, 2 * PAGE, PROT_READ, 0);
	errno = 0;
	tap_ok(munmap(p + 1, PAGE) == -1 && errno == EINVAL, "munmap of an unaligned address: EINVAL (errno %d)", errno);
	munmap(p, 2 * PAGE);
	tap_ok(munmap(p, 2 * PAGE) == 0, "munmap of a range with nothing mapped succeeds");
	errno = 0;
	tap_ok(mprotect(p, PAGE, PROT_READ) == -1 && errno == ENOMEM, "mprotect of an unmapped range: ENOMEM (errno %d)", errno);
}

static void test_lazy(void)
{
	size_t len = 64UL << 20;
	char *p = anon(NULL, len, PROT_READ | PROT_WRITE, MAP_NORESERVE);

	tap_ok(p != MAP_FAILED, "mmap of 64 MiB succeeds (memory is given on first touch)");
	if (p == MAP_FAILED)
		return;
	p[0] = 1;
	p[len / 2] = 2;
	p[len - 1] = 3;
	tap_ok(p[0] == 1 && p[len / 2] == 2 && p[len - 1] == 3 && p[PAGE] == 0, "touching a few pages of it works");
	tap_ok(munmap(p, len) == 0, "munmap of the 64 MiB region");
}

static void test_minflt(void)
{
	const int pages = 32;
	struct rusage before, after;
	char *p = anon(NULL, pages * PAGE, PROT_READ | PROT_WRITE, 0);

	tap_ok(getrusage(RUSAGE_SELF, &before) == 0, "getrusage(RUSAGE_SELF)");
	for (int i = 0; i < pages; i++)
		p[i * PAGE] = 1;
	getrusage(RUSAGE_SELF, &after);
	tap_ok(after.ru_minflt - before.ru_minflt >= pages,
	       "touching %d fresh pages adds at least %d minor faults (%ld)", pages, pages,
	       after.ru_minflt - before.ru_minflt);
	munmap(p, pages * PAGE);
}

static void test_brk(void)
{
	char *start = sbrk(0);
	size_t len = 3 * PAGE;

	tap_ok(start != (char *)-1, "sbrk(0) gives the current break (%p)", start);
	tap_ok(brk(start + len) == 0 && sbrk(0) == start + len, "brk grows the heap by 3 pages");
	memset(start, 0x77, len);
	tap_ok(all_bytes(start, len, 0x77), "the new heap memory is usable");
	tap_ok(brk(start) == 0 && sbrk(0) == start, "brk shrinks it back");
	tap_ok(brk(start + len) == 0 && all_bytes(start + ((PAGE - ((uintptr_t)start & (PAGE - 1))) & (PAGE - 1)),
					       PAGE, 0),
	       "grown again, a page that was given back reads as zero");
	tap_ok(syscall(SYS_brk, PAGE) == (long)(uintptr_t)(start + len) && sbrk(0) == start + len,
	       "brk below the start of the heap is refused: the kernel returns the unchanged break");
	brk(start);
}

/* Each level uses a 1 KiB frame; the result is the sum of (depth & 0xff). */
static long deep(int depth)
{
	volatile unsigned char frame[1024];

	frame[0] = (unsigned char)depth;
	frame[1023] = (unsigned char)depth;
	if (depth == 0)
		return frame[0] + frame[1023];
	return deep(depth - 1) + frame[0];
}

static void test_stack_growth(void)
{
	tap_is_long(deep(256), 255L * 256 / 2, "the stack grows on demand to at least 256 KiB");
}

int main(void)
{
	tap_init();
	test_mmap_basic();
	test_mmap_errors();
	test_lazy();
	test_minflt();
	test_brk();
	test_stack_growth();
	return tap_done();
}
