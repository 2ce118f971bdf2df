/* mm_pagemap.c - /proc/self/pagemap (PM-1..PM-5) and /proc/self/mem
 * (PM-10..PM-12): the entry format (present, file/shared, exclusively
 * mapped, the PFN, which root sees), reads at 8-byte offsets only; reads
 * and writes of memory through mem, a write to read-only private memory
 * breaking copy-on-write (Linux's FOLL_FORCE), EIO where nothing can be
 * reached; and the PFNs a parent and its fork child see for a shared
 * copy-on-write page, before and after the parent's write.
 *
 * Rows not tested here: PM-13 (which address space an inherited fd reads:
 * the child opens its own).
 */
#include "mm_util.h"

#define PM_PRESENT	(1ULL << 63)
#define PM_FILE		(1ULL << 61)
#define PM_EXCLUSIVE	(1ULL << 56)
#define PM_PFN		((1ULL << 55) - 1)

/* An address past every user address space here, with nothing in the top
 * byte (Linux strips an arm64 address tag from a pagemap offset). */
#if defined(__aarch64__)
#define PAST_USER (1UL << 55)
#else
#define PAST_USER 0xf0000000UL
#endif

static int pm = -1, mem = -1;

/* Move fd to off (64-bit offsets on both arches); 0 or -1. */
static int seek_to(int fd, unsigned long long off)
{
#if defined(__aarch64__)
	return lseek(fd, (off_t)off, SEEK_SET) == (off_t)off ? 0 : -1;
#else
	long long res = 0;

	return syscall(140 /* _llseek */, fd, (unsigned long)(off >> 32), (unsigned long)off, &res, SEEK_SET) == 0 &&
	       (unsigned long long)res == off ? 0 : -1;
#endif
}

/* The pagemap entry of the page holding p (~0 on a read error). */
static unsigned long long entry(const void *p)
{
	unsigned long long e;

	if (seek_to(pm, (unsigned long)p / PAGE * 8) || read(pm, &e, 8) != 8)
		return ~0ULL;
	return e;
}

static long mem_read(const void *at, void *buf, size_t n)
{
	return seek_to(mem, (unsigned long)at) ? -1 : read(mem, buf, n);
}

static long mem_write(void *at, const void *buf, size_t n)
{
	return seek_to(mem, (unsigned long)at) ? -1 : write(mem, buf, n);
}

static void test_format(void)
{
	char *p = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0), *h = hole(1), *s;
	unsigned long long e, buf[2];
	long r;

	tap_ok(p != MAP_FAILED && h, "set-up");
	if (p == MAP_FAILED)
		return;
	tap_ok(entry(p) == 0, "PM-2 an untouched page: entry 0");
	tap_ok(entry(h) == 0, "PM-2 an unmapped address: entry 0");
	p[0] = 1;
	e = entry(p);
	tap_ok((e & PM_PRESENT) && (e & PM_PFN) != 0, "PM-1 a touched page: present, with its PFN (root sees it)");
	tap_ok((e & PM_EXCLUSIVE) && !(e & PM_FILE), "PM-3 PM-4 private anonymous, mapped once: bit 56, not bit 61");
	tap_ok(seek_to(pm, (unsigned long)p / PAGE * 8 + 4) == 0 && read(pm, buf, 8) == -1 && errno == EINVAL,
	       "PM-5 a read at an offset that is not a multiple of 8: EINVAL");
	tap_ok(seek_to(pm, (unsigned long)p / PAGE * 8) == 0 && read(pm, buf, 12) == -1 && errno == EINVAL,
	       "PM-5 a count that is not a multiple of 8: EINVAL");
	tap_ok(seek_to(pm, (unsigned long)p / PAGE * 8) == 0 && read(pm, buf, 16) == 16 && buf[0] == e && buf[1] == 0,
	       "PM-5 two entries in one read: the touched page, then the untouched one");
	r = seek_to(pm, PAST_USER / PAGE * 8) ? -2 : read(pm, buf, 8);
	tap_ok(r == 0, "PM-5 past the end of user space: EOF (got %ld, errno %d)", r, r < 0 ? errno : 0);
	munmap(p, 2 * PAGE);
	s = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s != MAP_FAILED) {
		s[0] = 1;
		e = entry(s);
	}
	tap_ok(s != MAP_FAILED && (e & PM_PRESENT) && (e & PM_FILE), "PM-3 shared anonymous memory: bit 61");
	if (s != MAP_FAILED)
		munmap(s, PAGE);
}

static void test_mem(void)
{
	char *p = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0), *h = hole(1), *s, buf[8];
	unsigned long long e;

	tap_ok(p != MAP_FAILED && h, "set-up");
	if (p == MAP_FAILED)
		return;
	memcpy(p + 100, "abcdefg", 8);
	tap_ok(mem_read(p + 100, buf, 8) == 8 && memcmp(buf, "abcdefg", 8) == 0, "PM-10 mem reads memory at its address");
	tap_ok(mem_write(p + PAGE - 4, "12345678", 8) == 8 && memcmp(p + PAGE - 4, "12345678", 8) == 0,
	       "PM-10 mem writes memory, across a page boundary");
	tap_ok(mem_read(h, buf, 8) == -1 && errno == EIO, "PM-12 reading an unmapped address: EIO");
	tap_ok(mem_write(h, buf, 8) == -1 && errno == EIO, "PM-12 writing an unmapped address: EIO");
	tap_ok(mprotect(p, 2 * PAGE, PROT_READ) == 0 && mem_write(p, "ro", 2) == 2 && memcmp(p, "ro", 2) == 0,
	       "PM-11 a write to read-only private memory goes through");
	probe_init();
	tap_ok(!can_write(p), "PM-11 and the memory stays read-only for the program");
	e = entry(p);
	tap_ok((e & PM_PRESENT) && (e & PM_EXCLUSIVE), "PM-11 the page is the process's own");
	munmap(p, 2 * PAGE);
	s = mmap(NULL, PAGE, PROT_READ, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	tap_ok(s != MAP_FAILED && mem_write(s, "x", 1) == -1 && errno == EIO,
	       "PM-12 a write to read-only shared memory: EIO");
	tap_ok(s != MAP_FAILED && mem_read(s, buf, 1) == 1 && buf[0] == 0, "PM-10 reading it works (zero)");
	if (s != MAP_FAILED)
		munmap(s, PAGE);
	p = anon(NULL, PAGE, PROT_READ, 0);
	tap_ok(p != MAP_FAILED && do_mseal(p, PAGE, 0) == 0 && mem_write(p, "s", 1) == 1 && p[0] == 's',
	       "MS-30 mem writes sealed read-only memory");
}

static void test_cow(void)
{
	char *p = anon(NULL, PAGE, PROT_READ | PROT_WRITE, 0);
	unsigned long long pfn, e;
	int go[2], ready[2];
	char x;
	pid_t pid;

	tap_ok(p != MAP_FAILED && pipe(go) == 0 && pipe(ready) == 0, "set-up");
	if (p == MAP_FAILED)
		return;
	p[0] = 'o';
	pfn = entry(p) & PM_PFN;
	pid = fork();
	if (pid == 0) {
		unsigned long long c;
		int bad = 0;

		close(pm);	/* Linux's pagemap fd reads the opener's address space */
		pm = open("/proc/self/pagemap", O_RDONLY);
		c = entry(p);

		bad |= !(c & PM_PRESENT) || (c & PM_PFN) != pfn;	/* the same page as the parent's */
		bad |= ((c & PM_EXCLUSIVE) != 0) << 1;			/* mapped twice */
		if (write(ready[1], "r", 1) != 1)
			bad |= 4;
		close(go[1]);
		if (read(go[0], &x, 1) != 1)
			bad |= 4;
		c = entry(p);
		bad |= (p[0] != 'o') << 3;				/* the parent's write stayed there */
		bad |= ((c & PM_PFN) != pfn) << 4;			/* the child kept the old page */
		_exit(bad);
	}
	close(go[0]);
	if (read(ready[0], &x, 1) != 1)	/* the child has looked at the shared page */
		tap_diag("the child did not get ready");
	e = entry(p);
	tap_ok((e & PM_PFN) == pfn && !(e & PM_EXCLUSIVE), "PM-4 after fork the parent maps the same page, not exclusively");
	tap_ok(mprotect(p, PAGE, PROT_READ) == 0 && mem_write(p, "n", 1) == 1 && p[0] == 'n',
	       "PM-11 the parent writes its read-only copy through mem");
	e = entry(p);
	tap_ok((e & PM_PRESENT) && (e & PM_PFN) != pfn && (e & PM_EXCLUSIVE),
	       "PM-11 the write broke copy-on-write: a new page, the parent's alone");
	if (write(go[1], "g", 1) != 1)
		tap_diag("cannot wake the child");
	close(go[1]);
	tap_is_long(child_status(pid), 0, "PM-1 PM-11 the child saw the same PFN, and keeps the old page and its data");
	munmap(p, PAGE);
}

int main(void)
{
	tap_init();
	pm = open("/proc/self/pagemap", O_RDONLY);
	mem = open("/proc/self/mem", O_RDWR);
	tap_ok(pm >= 0 && mem >= 0, "/proc/self/pagemap and /proc/self/mem open");
	if (pm < 0 || mem < 0)
		return tap_done();
	test_format();
	test_mem();
	test_cow();
	return tap_done();
}
