/* mm_edges.c - the edges of the address-space calls' range arguments and
 * argument types: a start + length that wraps past the top of the address
 * space, one that ends exactly at the top, a length whose page rounding
 * wraps (EW-*); the argument widths of Linux 6.12's SYSCALL_DEFINEs (an
 * int advice, unsigned long prot and flags; AT-*); MAP_SHARED_VALIDATE with
 * a flag it does not know (MV-*; 0x200000 is a bit no 6.12 flag uses: bits
 * 26..31 are the huge-page size field, which Linux accepts).
 *
 * The top of the user address space (TASK_SIZE) differs between kernels, so
 * it is measured: mmap(MAP_FIXED_NOREPLACE) of one page at A fails with
 * ENOMEM exactly when A > TASK_SIZE - PAGE, and never changes anything.
 */
#include "mm_util.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif
#ifndef MAP_SYNC
#define MAP_SYNC 0x80000
#endif
#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

typedef unsigned long ul;

static void skip(int n, const char *why)
{
	while (n--)
		tap_skip("%s", why);
}

/* Is one page at a inside the user address space? (see the top) */
static int page_fits(ul a)
{
	void *r = mmap((void *)a, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (r != MAP_FAILED) {
		munmap(r, PAGE);
		return 1;
	}
	return errno != ENOMEM;
}

/* TASK_SIZE: the lowest page address that does not fit. */
static ul task_size(void)
{
	ul lo = 1, hi = ~0UL / PAGE;	/* page numbers: lo fits, hi does not */

	while (hi - lo > 1) {
		ul mid = lo + (hi - lo) / 2;

		if (page_fits(mid * PAGE))
			lo = mid;
		else
			hi = mid;
	}
	return hi * PAGE;
}

static void test_munmap_mprotect_madvise_mseal(ul top)
{
	char *h = hole(3), *p = h + PAGE;
	ul wrap = -(ul)p;	/* p + wrap == 0: ends exactly at the top of the address space */
	const char *want = "hole:1 rw-p:1 hole:1";
	long r;

	anon(p, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	p[0] = 7;
	errno = 0;
	tap_ok(munmap(p, wrap) == -1 && errno == EINVAL, "EW-1: munmap to the top of the address space: EINVAL (errno %d)",
	       errno);
	errno = 0;
	tap_ok(munmap(p, wrap + PAGE) == -1 && errno == EINVAL, "EW-1: munmap wrapping past the top: EINVAL (errno %d)",
	       errno);
	errno = 0;
	tap_ok(munmap(p, ~0UL) == -1 && errno == EINVAL, "EW-1: munmap with a length whose rounding wraps: EINVAL (errno %d)",
	       errno);
	errno = 0;
	tap_ok(munmap((void *)(top - PAGE), PAGE + 1) == -1 && errno == EINVAL,
	       "EW-1: munmap whose page rounding passes TASK_SIZE: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(munmap((void *)top, PAGE) == -1 && errno == EINVAL, "EW-1: munmap at TASK_SIZE: EINVAL (errno %d)", errno);

	errno = 0;
	tap_ok(mprotect(p, wrap, PROT_READ) == -1 && errno == ENOMEM,
	       "EW-2: mprotect to the top of the address space: ENOMEM (errno %d)", errno);
	errno = 0;
	tap_ok(mprotect(p, wrap + PAGE, PROT_READ) == -1 && errno == ENOMEM,
	       "EW-2: mprotect wrapping past the top: ENOMEM (errno %d)", errno);
	errno = 0;
	tap_ok(mprotect(p, wrap - 1, PROT_READ) == -1 && errno == ENOMEM,
	       "EW-2: mprotect whose page rounding reaches the top: ENOMEM (errno %d)", errno);
	errno = 0;
	tap_ok(mprotect(p, ~0UL, PROT_READ) == -1 && errno == ENOMEM,
	       "EW-2: mprotect with a length whose rounding wraps: ENOMEM (errno %d)", errno);

	errno = 0;
	tap_ok(madvise(p, wrap, MADV_DONTNEED) == -1 && errno == EINVAL,
	       "EW-3: madvise to the top of the address space: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(madvise(p, wrap + PAGE, MADV_DONTNEED) == -1 && errno == EINVAL,
	       "EW-3: madvise wrapping past the top: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(madvise(p, ~0UL, MADV_DONTNEED) == -1 && errno == EINVAL,
	       "EW-3: madvise with a length whose rounding wraps: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(madvise((void *)(top - PAGE), 2 * PAGE, MADV_NORMAL) == -1 && errno == ENOMEM,
	       "EW-3: madvise past TASK_SIZE without wrapping: ENOMEM (errno %d)", errno);

	errno = 0;
	tap_ok(do_mseal(p, wrap, 0) == -1 && errno == EINVAL,
	       "EW-4: mseal to the top of the address space: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(do_mseal(p, wrap + PAGE, 0) == -1 && errno == EINVAL, "EW-4: mseal wrapping past the top: EINVAL (errno %d)",
	       errno);
	errno = 0;
	tap_ok(do_mseal(p, ~0UL, 0) == -1 && errno == EINVAL,
	       "EW-4: mseal with a length whose rounding wraps: EINVAL (errno %d)", errno);

	r = p[0];
	tap_ok(strcmp(shape(h, h + 3 * PAGE), want) == 0 && r == 7 && vm_flag(p, "sl") == 0,
	       "EW-1..4: after the refused calls the page is mapped, unsealed, data kept (%s)", shape(h, h + 3 * PAGE));
	munmap(p, PAGE);
}

static void test_mmap(ul top)
{
	char *h = hole(3), *p = h + PAGE, *r;

	errno = 0;
	r = mmap(p, -(ul)p, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	tap_ok(r == MAP_FAILED && errno == ENOMEM, "EW-5: MAP_FIXED to the top of the address space: ENOMEM (errno %d)",
	       errno);
	errno = 0;
	r = mmap(p, -(ul)p + PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	tap_ok(r == MAP_FAILED && errno == ENOMEM, "EW-5: MAP_FIXED wrapping past the top: ENOMEM (errno %d)", errno);
	errno = 0;
	r = mmap((void *)(top - PAGE), 2 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	tap_ok(r == MAP_FAILED && errno == ENOMEM, "EW-5: MAP_FIXED past TASK_SIZE: ENOMEM (errno %d)", errno);
	errno = 0;
	r = mmap((void *)(top - PAGE), PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	tap_ok(r != MAP_FAILED || errno == EEXIST, "EW-5: MAP_FIXED_NOREPLACE of the last page below TASK_SIZE is in range (errno %d)",
	       errno);
	if (r != MAP_FAILED)
		munmap(r, PAGE);
	r = mmap((void *)-(4 * PAGE), 8 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tap_ok(r != MAP_FAILED && (ul)r + 8 * PAGE > (ul)r && (ul)r + 8 * PAGE <= top,
	       "EW-5: a hint whose range wraps is ignored: placed below TASK_SIZE");
	if (r != MAP_FAILED)
		munmap(r, 8 * PAGE);
	tap_ok(strcmp(shape(h, h + 3 * PAGE), "hole:3") == 0, "EW-5: nothing was mapped by the refused calls (%s)",
	       shape(h, h + 3 * PAGE));
}

static void test_mremap(void)
{
	char *h = hole(6), *p = h + PAGE, *dst = h + 4 * PAGE, *r;
	ul wrap = -(ul)p;
	const char *want = "hole:1 rw-p:2 hole:3";

	anon(p, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	memset(p, 'm', 2 * PAGE);
	errno = 0;
	r = mremap(p, wrap, PAGE, 0);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "EW-6: shrinking an old range that ends at the top: EINVAL (errno %d)",
	       errno);
	errno = 0;
	r = mremap(p, wrap + PAGE, PAGE, 0);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "EW-6: shrinking an old range that wraps: EINVAL (errno %d)", errno);
	errno = 0;
	r = mremap(p, wrap + PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	tap_ok(r == MAP_FAILED && errno == EINVAL,
	       "EW-6: MREMAP_FIXED with an old range that wraps (the tail cut): EINVAL (errno %d)", errno);
	errno = 0;
	r = mremap(p, wrap + PAGE, ~0UL - 2 * PAGE, MREMAP_MAYMOVE);
	tap_ok(r == MAP_FAILED && errno == EFAULT,
	       "EW-6: growing an old range that wraps: EFAULT (it is not inside one VMA) (errno %d)", errno);
	errno = 0;
	r = mremap(p + PAGE, PAGE, -(ul)PAGE, MREMAP_MAYMOVE);
	tap_ok(r == MAP_FAILED && errno == ENOMEM,
	       "EW-6: growing the last page to a new length whose end wraps: ENOMEM (errno %d)", errno);
	errno = 0;
	r = mremap(p + PAGE, PAGE, -(ul)PAGE, 0);
	tap_ok(r == MAP_FAILED && errno == ENOMEM,
	       "EW-6: the same without MREMAP_MAYMOVE: ENOMEM (errno %d)", errno);
	errno = 0;
	r = mremap(p, 2 * PAGE, -(ul)dst, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "EW-6: a new range that ends at the top: EINVAL (errno %d)", errno);
	errno = 0;
	r = mremap(p, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)-PAGE);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "EW-6: a new range that wraps: EINVAL (errno %d)", errno);
	errno = 0;
	r = mremap(p, wrap + PAGE, wrap + PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, dst);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "EW-6: MREMAP_DONTUNMAP of a range that wraps: EINVAL (errno %d)",
	       errno);
	/* Linux does not look at the old length when nothing changes. */
	r = mremap(p, wrap + PAGE, wrap + PAGE, 0);
	tap_ok(r == p, "EW-6: the same old and new length returns the old address untouched, as on Linux");
	tap_ok(strcmp(shape(h, h + 6 * PAGE), want) == 0 && all_bytes(p, 2 * PAGE, 'm'),
	       "EW-6: after the refused calls the mapping is intact (%s)", shape(h, h + 6 * PAGE));
	munmap(p, 2 * PAGE);
}

static void test_brk(void)
{
	char *cur = sbrk(0);
	long r;

	r = syscall(SYS_brk, (void *)~0UL);
	tap_ok((char *)r == cur, "EW-7: brk(-1), whose page rounding wraps to 0: the break is unchanged");
	r = syscall(SYS_brk, (void *)-PAGE);
	tap_ok((char *)r == cur, "EW-7: brk above TASK_SIZE: the break is unchanged");
	tap_ok(can_read((const void *)(uintptr_t)&test_brk) && can_read(&cur), "EW-7: the program is still mapped");
}

static void test_widths(void)
{
	char *p = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0);
	long r;

	memset(p, 9, 2 * PAGE);
	if (sizeof(long) == 8) {
		ul hi = (ul)1 << 16 << 16;	/* bit 32 */

		r = syscall(SYS_madvise, p, PAGE, hi | MADV_DONTNEED);
		tap_ok(r == 0 && all_bytes(p, PAGE, 0) && p[PAGE] == 9,
		       "AT-1: madvise's advice is an int: bit 32 is ignored, MADV_DONTNEED done");
		errno = 0;
		r = syscall(SYS_madvise, p, PAGE, hi | 0xffffffffUL);
		tap_ok(r == -1 && errno == EINVAL, "AT-1: advice (int)-1: EINVAL (errno %d)", errno);
		errno = 0;
		r = syscall(SYS_mprotect, p, PAGE, hi | PROT_READ);
		tap_ok(r == -1 && errno == EINVAL, "AT-2: mprotect's prot is unsigned long: bit 32 is EINVAL (errno %d)", errno);
		errno = 0;
		r = syscall(SYS_mseal, p, PAGE, hi);
		tap_ok(r == -1 && errno == EINVAL, "AT-3: mseal's flags are unsigned long: bit 32 is EINVAL (errno %d)", errno);
		errno = 0;
		r = syscall(SYS_mremap, p, PAGE, PAGE, hi | MREMAP_MAYMOVE, 0);
		tap_ok(r == -1 && errno == EINVAL, "AT-4: mremap's flags are unsigned long: bit 32 is EINVAL (errno %d)", errno);
		r = syscall(SYS_mmap, NULL, PAGE, PROT_READ, hi | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		tap_ok(r != -1, "AT-5: anonymous mmap ignores unknown flag bits (bit 32)");
		if (r != -1)
			munmap((void *)r, PAGE);
	} else {
		r = syscall(SYS_madvise, p, PAGE, 0xffffffffUL);
		tap_ok(r == -1 && errno == EINVAL, "AT-1: advice (int)-1: EINVAL (errno %d)", errno);
		skip(5, "32-bit: no bits above 31");
	}
	munmap(p, 2 * PAGE);
}

static void test_shared_validate(void)
{
	int fd = (int)syscall(SYS_memfd_create, "mv", 0), p[2];
	char *r;

	if (pipe(p) == 0) {	/* a file that cannot be mapped */
		errno = 0;
		r = mmap(NULL, PAGE, PROT_READ, MAP_SHARED_VALIDATE | MAP_FIXED_NOREPLACE, p[0], 0);
		tap_ok(r == MAP_FAILED && errno == EOPNOTSUPP,
		       "MV-1: on a pipe, the unknown flag's EOPNOTSUPP comes before the file's ENODEV (errno %d)", errno);
		errno = 0;
		r = mmap(NULL, PAGE, PROT_READ, MAP_SHARED_VALIDATE, p[0], 0);
		tap_ok(r == MAP_FAILED && errno == ENODEV, "MV-1: ... which known flags get (errno %d)", errno);
		close(p[0]);
		close(p[1]);
	} else {
		skip(2, "no pipe");
	}

	if (fd < 0 || syscall(SYS_ftruncate, fd, 2 * PAGE) != 0) {
		skip(5, "no memfd");
		return;
	}
	errno = 0;
	r = mmap(NULL, PAGE, PROT_READ, MAP_SHARED_VALIDATE | 0x200000, fd, 0);
	tap_ok(r == MAP_FAILED && errno == EOPNOTSUPP, "MV-1: MAP_SHARED_VALIDATE with an unknown flag: EOPNOTSUPP (errno %d)",
	       errno);
	errno = 0;
	r = mmap(NULL, PAGE, PROT_READ, MAP_SHARED_VALIDATE | MAP_SYNC, fd, 0);
	tap_ok(r == MAP_FAILED && errno == EOPNOTSUPP, "MV-1: MAP_SYNC on a memfd: EOPNOTSUPP (errno %d)", errno);
	r = mmap(NULL, PAGE, PROT_READ, MAP_SHARED | 0x200000, fd, 0);
	tap_ok(r != MAP_FAILED, "MV-2: plain MAP_SHARED ignores the unknown flag");
	if (r != MAP_FAILED)
		munmap(r, PAGE);
	r = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED_VALIDATE | MAP_POPULATE, fd, 0);
	tap_ok(r != MAP_FAILED && strcmp(shape(r, r + PAGE), "rw-s:1") == 0,
	       "MV-3: MAP_SHARED_VALIDATE with known flags maps shared (%s)", r == MAP_FAILED ? "" : shape(r, r + PAGE));
	if (r != MAP_FAILED)
		munmap(r, PAGE);
	if (sizeof(long) == 8) {
		long s = syscall(SYS_mmap, NULL, PAGE, PROT_READ, MAP_SHARED, ((ul)1 << 16 << 16) | (ul)fd, 0);

		tap_ok(s != -1, "AT-6: mmap's fd is an unsigned int: bit 32 is ignored");
		if (s != -1)
			munmap((void *)s, PAGE);
	} else {
		skip(1, "32-bit: no bits above 31");
	}
	close(fd);
}

/*
 * EW-8: the default mmap window. A kernel whose user space is wider than
 * 48 bits (arm64 with a 52-bit VA) places mappings below 2^48 unless the
 * hint is above 2^48; a hint above it may be used there, and if its range
 * is taken the mapping still goes above 2^48. With a user space of at most
 * 48 bits (Linux's usual arm64 builds, 32-bit kernels) a hint above the
 * top is ignored. top is the measured TASK_SIZE.
 */
static void test_window(ul top)
{
	ul win, hi;
	char *r, *q, *s;
	int x;

	if (sizeof(long) == 4) {
		skip(6, "32-bit: no 48-bit window");
		return;
	}
	win = (ul)1 << 24 << 24;	/* 2^48, written so a 32-bit build compiles */
	hi = (ul)1 << 25 << 25;		/* 2^50 */
	if (top <= win) {
		r = mmap((void *)hi, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		tap_ok(r != MAP_FAILED && (ul)r + PAGE <= top, "EW-8: a hint above TASK_SIZE (%#lx) is ignored: %p", top, r);
		if (r != MAP_FAILED)
			munmap(r, PAGE);
		skip(5, "user space not wider than 48 bits");
		return;
	}
	r = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tap_ok(r != MAP_FAILED && (ul)r + PAGE <= win && (ul)&x < win,
	       "EW-8: TASK_SIZE %#lx: no hint places below 2^48 (%p), the stack is below it (%p)", top, r, (void *)&x);
	if (r != MAP_FAILED)
		munmap(r, PAGE);
	q = mmap((void *)(win - PAGE), 2 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tap_ok(q != MAP_FAILED && (ul)q + 2 * PAGE <= win,
	       "EW-8: a hint below 2^48 whose range crosses it is not used: placed below 2^48 (%p)", q);
	if (q != MAP_FAILED)
		munmap(q, 2 * PAGE);
	r = mmap((void *)hi, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tap_ok((ul)r == hi, "EW-8: a free hint above 2^48 is used: %p", r);
	if (r != MAP_FAILED) {
		*r = 5;
		tap_ok(*(volatile char *)r == 5 && strcmp(shape(r, r + PAGE), "rw-p:1") == 0,
		       "EW-8: the page above 2^48 holds data and shows in /proc/self/maps");
	} else {
		skip(1, "no mapping");
	}
	s = mmap((void *)hi, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tap_ok(s != MAP_FAILED && (ul)s >= win && (ul)s + PAGE <= top && s != r,
	       "EW-8: a taken hint above 2^48 places elsewhere above 2^48 (%p)", s);
	if (s != MAP_FAILED)
		munmap(s, PAGE);
	if (r != MAP_FAILED)
		munmap(r, PAGE);
	r = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tap_ok(r != MAP_FAILED && (ul)r + PAGE <= win, "EW-8: afterwards no hint still places below 2^48 (%p)", r);
	if (r != MAP_FAILED)
		munmap(r, PAGE);
}

int main(void)
{
	ul top;

	tap_init();
	probe_init();
	top = task_size();
	tap_ok(top > 0x10000000UL && (top & (PAGE - 1)) == 0, "TASK_SIZE measured: %#lx", top);
	test_munmap_mprotect_madvise_mseal(top);
	test_mmap(top);
	test_window(top);
	test_mremap();
	test_brk();
	test_widths();
	test_shared_validate();
	return tap_done();
}
