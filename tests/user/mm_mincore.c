/* mm_mincore.c - mincore (MC-*) and msync (SY-*): their argument checks in
 * Linux's order, holes, and what mincore reports resident: touched and
 * untouched private pages, shared anonymous pages after fork, a memfd's
 * pages mapped twice, transparent huge pages; msync's EBUSY on locked
 * memory and its walk over holes.
 *
 * Rows not tested here:
 *   MC-5  hugetlb pages: tests/user/hugetlb.c needs a pool; not named here.
 */
#include "mm_util.h"


#ifndef MS_ASYNC
#define MS_ASYNC 1
#define MS_INVALIDATE 2
#define MS_SYNC 4
#endif

static unsigned char vec[1024];

static long do_mincore(const void *p, size_t len, void *v)
{
	return syscall(SYS_mincore, p, len, v);
}

static long do_msync(const void *p, size_t len, long flags)
{
	return syscall(SYS_msync, p, len, flags);
}

static int failed(long ret, int err)
{
	return ret == -1 && errno == err;
}

/* The first n bytes of vec as a string of 0 and 1 (other values show as ?). */
static const char *bits(size_t n)
{
	static char out[128];
	size_t i;

	for (i = 0; i < n && i < sizeof(out) - 1; i++)
		out[i] = vec[i] == 0 ? '0' : vec[i] == 1 ? '1' : '?';
	out[i] = '\0';
	return out;
}

static void test_mincore_args(void)
{
	char *b = hole(6), *m;

	m = b ? anon(b + PAGE, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED) : MAP_FAILED;
	tap_ok(m == b + PAGE, "set-up: four pages between holes");
	if (m == MAP_FAILED)
		return;
	tap_ok(failed(do_mincore(m + 1, PAGE, vec), EINVAL), "MC-1 an unaligned start: EINVAL");
	tap_ok(failed(do_mincore(m + 1, 0, vec), EINVAL), "MC-1 also with length 0");
	tap_ok(do_mincore(b, 0, vec) == 0, "MC-2 length 0 where nothing is mapped: 0");
	tap_ok(failed(do_mincore(m, HUGE_LEN, vec), ENOMEM), "MC-2 a range beyond user space: ENOMEM");
	tap_ok(failed(do_mincore(b, PAGE, vec), ENOMEM), "MC-3 an unmapped start: ENOMEM");
	tap_ok(failed(do_mincore(m, 5 * PAGE, vec), ENOMEM), "MC-3 a hole at the end: ENOMEM");
	tap_ok(failed(do_mincore(m, PAGE, NULL), EFAULT), "MC-4 a NULL vector: EFAULT");
	tap_ok(failed(do_mincore(m, PAGE, (void *)-4096L), EFAULT), "MC-4 a vector in kernel space: EFAULT");
	tap_ok(failed(do_mincore(b, PAGE, NULL), ENOMEM), "MC-3 before MC-4: an unmapped range with a NULL vector is ENOMEM");
	memset(vec, 9, sizeof(vec));
	m[0] = 1;
	m[2 * PAGE] = 1;
	tap_ok(do_mincore(m, 4 * PAGE, vec) == 0 && strcmp(bits(5), "1010?") == 0,
	       "MC-6 touched pages are 1, untouched 0, one byte per page: %s", bits(5));
	memset(vec, 9, sizeof(vec));
	tap_ok(do_mincore(m, 3 * PAGE + 1, vec) == 0 && strcmp(bits(5), "1010?") == 0,
	       "MC-2 a partial last page counts: %s", bits(5));
	tap_ok(madvise(m, PAGE, MADV_DONTNEED) == 0 && do_mincore(m, PAGE, vec) == 0 && vec[0] == 0,
	       "MC-6 MADV_DONTNEED makes a page non-resident");
	tap_ok(mprotect(m + 2 * PAGE, PAGE, PROT_NONE) == 0 && do_mincore(m, 4 * PAGE, vec) == 0 &&
	       strcmp(bits(4), "0010") == 0, "MC-6 a PROT_NONE page keeps its residency: %s", bits(4));
	munmap(m, 4 * PAGE);
}

static void test_mincore_shared(void)
{
	char *s = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int fd = (int)syscall(SYS_memfd_create, "mc", 0);
	char *a, *c;
	pid_t pid;

	tap_ok(s != MAP_FAILED && fd >= 0 && syscall(SYS_ftruncate, fd, 2 * PAGE) == 0, "set-up: shared memory and a memfd");
	if (s == MAP_FAILED || fd < 0)
		return;
	pid = fork();
	if (pid == 0) {
		s[PAGE] = 1;
		_exit(0);
	}
	tap_is_long(child_status(pid), 0, "the child wrote the second shared page");
	tap_ok(do_mincore(s, 2 * PAGE, vec) == 0 && vec[1] == 1,
	       "MC-7 a shared page another process touched is resident here: %s", bits(2));
	a = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	c = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	tap_ok(a != MAP_FAILED && c != MAP_FAILED, "the memfd mapped twice");
	if (a != MAP_FAILED && c != MAP_FAILED) {
		a[0] = 1;
		tap_ok(do_mincore(c, 2 * PAGE, vec) == 0 && strcmp(bits(2), "10") == 0,
		       "MC-7 a memfd page written through one mapping is resident in the other: %s", bits(2));
	}
	munmap(a, 2 * PAGE);
	munmap(c, 2 * PAGE);
	munmap(s, 2 * PAGE);
	close(fd);
}

static void test_mincore_thp(void)
{
#if defined(__aarch64__)
	size_t huge = 2UL << 20;	/* one level above the last, 4 KiB pages */
#else
	size_t huge = 4UL << 20;
#endif
	char *m = anon(NULL, 2 * huge, PROT_READ | PROT_WRITE, 0), *h;
	long n = 0;

	tap_ok(m != MAP_FAILED, "set-up: room for an aligned huge page");
	if (m == MAP_FAILED)
		return;
	h = (char *)(((unsigned long)m + huge - 1) & ~(huge - 1));
	if (madvise(h, huge, MADV_HUGEPAGE) != 0) {
		tap_skip("MC-8 no MADV_HUGEPAGE here");
		munmap(m, 2 * huge);
		return;
	}
	h[0] = 1;
	if (do_mincore(h, huge, vec) == 0)
		for (size_t i = 0; i < huge / PAGE; i++)
			n += vec[i];
	tap_ok(n == 1 || n == (long)(huge / PAGE),
	       "MC-8 one touch: one page resident, or the whole huge page (%ld of %lu)", n, huge / PAGE);
	munmap(m, 2 * huge);
}

static void test_msync(void)
{
	char *b = hole(6), *m;

	m = b ? anon(b + PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED) : MAP_FAILED;
	if (m != MAP_FAILED && anon(b + 4 * PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED) != b + 4 * PAGE)
		m = MAP_FAILED;
	tap_ok(m != MAP_FAILED, "set-up: two pages, a hole, one page");
	if (m == MAP_FAILED)
		return;
	tap_ok(failed(do_msync(m, PAGE, 8), EINVAL), "SY-1 an unknown flag: EINVAL");
	tap_ok(failed(do_msync(m, PAGE, -1), EINVAL), "SY-1 flags -1: EINVAL");
	tap_ok(failed(do_msync(m + 1, PAGE, MS_SYNC), EINVAL), "SY-2 an unaligned start: EINVAL");
	tap_ok(failed(do_msync(m, PAGE, MS_SYNC | MS_ASYNC), EINVAL), "SY-3 MS_SYNC with MS_ASYNC: EINVAL");
	tap_ok(failed(do_msync(b, 0, 8), EINVAL), "SY-1 before SY-5: bad flags with length 0");
	tap_ok(failed(do_msync(m, -2 * PAGE, MS_SYNC), ENOMEM), "SY-4 a range that wraps: ENOMEM");
	tap_ok(do_msync(m, -1UL, MS_SYNC) == 0, "SY-5 a length whose rounding wraps to 0: 0");
	tap_ok(do_msync(b, 0, MS_SYNC) == 0, "SY-5 length 0 where nothing is mapped: 0");
	tap_ok(do_msync(m, 2 * PAGE, MS_SYNC) == 0, "SY-9 MS_SYNC on anonymous memory: 0");
	tap_ok(do_msync(m, 2 * PAGE, 0) == 0, "SY-9 flags 0: 0");
	tap_ok(do_msync(m, 2 * PAGE, MS_ASYNC | MS_INVALIDATE) == 0, "SY-9 MS_ASYNC | MS_INVALIDATE: 0");
	tap_ok(failed(do_msync(b, PAGE, MS_SYNC), ENOMEM), "SY-6 nothing mapped: ENOMEM");
	tap_ok(failed(do_msync(m, 4 * PAGE, MS_SYNC), ENOMEM), "SY-6 a hole inside: ENOMEM");
	tap_ok(failed(do_msync(m, 4 * PAGE, MS_ASYNC), ENOMEM), "SY-7 a hole inside with MS_ASYNC: ENOMEM");
	tap_ok(failed(do_msync(b + 4 * PAGE, 2 * PAGE, MS_SYNC), ENOMEM), "SY-6 past the last page: ENOMEM");
	tap_ok(syscall(SYS_mlock, b + 4 * PAGE, PAGE) == 0, "set-up: the page after the hole locked");
	tap_ok(failed(do_msync(b + 4 * PAGE, PAGE, MS_INVALIDATE), EBUSY), "SY-8 MS_INVALIDATE of locked memory: EBUSY");
	tap_ok(failed(do_msync(m, 4 * PAGE, MS_SYNC | MS_INVALIDATE), EBUSY),
	       "SY-8 EBUSY after the hole: the walk goes on past it");
	tap_ok(failed(do_msync(m, 4 * PAGE, MS_ASYNC | MS_INVALIDATE), EBUSY),
	       "SY-7 with MS_INVALIDATE, MS_ASYNC goes on past a hole too");
	tap_ok(do_msync(b + 4 * PAGE, PAGE, MS_SYNC) == 0, "SY-8 MS_SYNC of locked memory: 0");
	int fd = (int)syscall(SYS_memfd_create, "sy", 0);
	char *f = fd >= 0 && syscall(SYS_ftruncate, fd, PAGE) == 0 ? mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;

	tap_ok(f != MAP_FAILED && do_msync(f, PAGE, MS_SYNC) == 0 && do_msync(f, PAGE, MS_INVALIDATE) == 0,
	       "SY-9 MS_SYNC and MS_INVALIDATE on a shared memfd mapping: 0");
	if (f != MAP_FAILED)
		munmap(f, PAGE);
	if (fd >= 0)
		close(fd);
	munmap(b, 6 * PAGE);
}

int main(void)
{
	tap_init();
	test_mincore_args();
	test_mincore_shared();
	test_mincore_thp();
	test_msync();
	return tap_done();
}
