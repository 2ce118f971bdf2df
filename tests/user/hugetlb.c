/* hugetlb.c - the huge page pool and MAP_HUGETLB mappings, as Linux does
 * them: the pool through /proc/sys/vm/nr_hugepages, accounting through
 * /proc/meminfo (HugePages_Total/Free/Rsvd, Hugepagesize), reservation at
 * mmap time, a fault taking a zeroed page, munmap/mprotect at non-huge
 * boundaries refused with EINVAL, copy-on-write of private pages after fork.
 *
 * On this kernel only (uname release ending in "-teachos"): the page tables
 * of the mapping use no last-level table (/proc/self/pagetables), and each
 * huge page is cleared exactly once (/proc/zeroed_bytes).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "tap.h"
#include "mm_util.h"

#ifndef MAP_HUGETLB
#define MAP_HUGETLB 0x40000
#endif
#define NPAGES 4
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static char buf[16384];

static long read_text(const char *path)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static int set_pool(long n)
{
	char s[32];
	int fd = open("/proc/sys/vm/nr_hugepages", O_WRONLY);
	int len = snprintf(s, sizeof(s), "%ld\n", n);
	int ok = fd >= 0 && write(fd, s, (size_t)len) == len;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

static long pool(void)
{
	return read_text("/proc/sys/vm/nr_hugepages") < 0 ? -1 : strtol(buf, NULL, 10);
}

static long zeroed_bytes(void)
{
	return read_text("/proc/zeroed_bytes") < 0 ? -1 : strtol(buf, NULL, 10);
}

static void test_pool_and_mapping(unsigned long hsz)
{
	const unsigned long pg = (unsigned long)getpagesize();
	char *p, *q;
	int st;

	tap_ok(set_pool(NPAGES) == 0 && pool() == NPAGES, "nr_hugepages written and read back (%ld)", pool());
	tap_ok(meminfo("HugePages_Total") == NPAGES && meminfo("HugePages_Free") == NPAGES &&
	       meminfo("HugePages_Rsvd") == 0, "meminfo: Total %ld Free %ld Rsvd %ld",
	       meminfo("HugePages_Total"), meminfo("HugePages_Free"), meminfo("HugePages_Rsvd"));

	p = mmap(NULL, 2 * hsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	tap_ok(p != MAP_FAILED && ((uintptr_t)p & (hsz - 1)) == 0, "MAP_HUGETLB of 2 pages, huge-aligned (%p)", p);
	if (p == MAP_FAILED)
		return;
	tap_ok(meminfo("HugePages_Rsvd") == 2 && meminfo("HugePages_Free") == NPAGES,
	       "reserved at mmap time: Rsvd 2, Free unchanged (%ld, %ld)", meminfo("HugePages_Rsvd"),
	       meminfo("HugePages_Free"));
	tap_ok(p[0] == 0 && p[hsz - 1] == 0, "a new huge page reads as zero");
	memset(p, 0x5a, hsz);
	tap_ok(p[hsz / 2] == 0x5a && meminfo("HugePages_Free") == NPAGES - 1 && meminfo("HugePages_Rsvd") == 1,
	       "the fault took one page: Free %ld Rsvd %ld", meminfo("HugePages_Free"), meminfo("HugePages_Rsvd"));

	errno = 0;
	tap_ok(munmap(p + pg, pg) == -1 && errno == EINVAL, "munmap inside a huge page: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(mprotect(p, pg, PROT_READ) == -1 && errno == EINVAL,
	       "mprotect of part of a huge page: EINVAL (errno %d)", errno);
	tap_ok(mprotect(p + pg, pg, PROT_READ | PROT_WRITE) == 0,
	       "mprotect of part of a huge page to the protection it has: 0, nothing to split (errno %d)", errno);
	errno = 0;
	q = mmap(NULL, (NPAGES) * hsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	tap_ok(q == MAP_FAILED && errno == ENOMEM, "a mapping the pool cannot cover: ENOMEM (errno %d)", errno);
	tap_ok(meminfo("HugePages_Rsvd") == 1, "a failed mmap reserves nothing (Rsvd %ld)", meminfo("HugePages_Rsvd"));
	q = mmap(NULL, 8 * hsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_NORESERVE,
		 -1, 0);
	tap_ok(q != MAP_FAILED, "MAP_NORESERVE maps more than the pool holds");
	if (q != MAP_FAILED)
		munmap(q, 8 * hsz);

	/* fork: the child's write to a private huge page is its own */
	pid_t pid = fork();

	if (pid == 0) {
		p[0] = 0x11;
		_exit(p[0] == 0x11 && p[1] == 0x5a ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && p[0] == 0x5a,
	       "copy-on-write after fork: the child sees its write, the parent keeps 0x5a");

	/* mremap moves the mapping to a huge-aligned place: entries move, data and accounting stay. */
	char *area = mmap(NULL, 4 * hsz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *to = (char *)(((uintptr_t)area + hsz - 1) & ~(uintptr_t)(hsz - 1));
	char *r = mremap(p, 2 * hsz, 2 * hsz, MREMAP_MAYMOVE | MREMAP_FIXED, to);

	tap_ok(area != MAP_FAILED && r == to, "mremap(MREMAP_FIXED) moves a hugetlb mapping (%p)", r);
	if (r == to) {
		tap_ok(to[hsz / 2] == 0x5a && to[0] == 0x5a, "the data moved with it");
		tap_ok(meminfo("HugePages_Free") == NPAGES - 1 && meminfo("HugePages_Rsvd") == 1,
		       "the pages and the reservation moved with it (Free %ld, Rsvd %ld)",
		       meminfo("HugePages_Free"), meminfo("HugePages_Rsvd"));
		errno = 0;
		tap_ok(mprotect(p, hsz, PROT_READ) == -1 && errno == ENOMEM, "the old range is unmapped (errno %d)", errno);
		p = to;
	}
	munmap(area, (size_t)(to - area));

	errno = 0;
	r = (char *)syscall(SYS_mremap, p, 2 * hsz, 2 * hsz, 0, p + getpagesize());
	tap_ok(r == MAP_FAILED && errno == EINVAL,
	       "MR-7: mremap of a hugetlb mapping with an unaligned new_addr and no MREMAP_FIXED: EINVAL (errno %d)", errno);
	/* HT-9: madvise on part of a huge page: an advice that changes nothing is fine */
	{
		static const struct { int adv, err; const char *name; } adv[] = {
			{ 0, 0, "MADV_NORMAL (no change)" }, { 11, 0, "MADV_DOFORK (no change)" },
			{ 19, 0, "MADV_KEEPONFORK (no change)" }, { 12, 0, "MADV_MERGEABLE (not for hugetlb)" },
			{ 17, 0, "MADV_DODUMP (no change)" }, { 1, EINVAL, "MADV_RANDOM (a split off the boundary)" },
			{ 20, EINVAL, "MADV_COLD" }, { 25, EINVAL, "MADV_COLLAPSE" },
			{ 9, EACCES, "MADV_REMOVE on a private mapping" },
		};

		for (size_t i = 0; i < sizeof(adv) / sizeof(adv[0]); i++) {
			int rc;

			errno = 0;
			rc = madvise(p + getpagesize(), (size_t)getpagesize(), adv[i].adv);
			tap_ok(adv[i].err ? rc == -1 && errno == adv[i].err : rc == 0,
			       "HT-9: %s on one small page of a huge page: %s (errno %d)", adv[i].name,
			       adv[i].err == EINVAL ? "EINVAL" : adv[i].err ? "EACCES" : "0", errno);
		}
	}
	tap_ok(munmap(p, 2 * hsz) == 0 && meminfo("HugePages_Free") == NPAGES && meminfo("HugePages_Rsvd") == 0,
	       "munmap gives the page back and drops the reservation (Free %ld, Rsvd %ld)",
	       meminfo("HugePages_Free"), meminfo("HugePages_Rsvd"));
}

/* How many words of [p, p + len) are not zero. */
static unsigned long nonzero_words(const char *p, unsigned long len)
{
	const unsigned long *w = (const unsigned long *)p;
	unsigned long n = 0;

	for (unsigned long i = 0; i < len / sizeof(*w); i++)
		n += w[i] != 0;
	return n;
}

/*
 * A huge page mapped where small pages were mapped before: the page tables
 * the small pages used must not become (or leak into) the huge page.
 * Small pages are written over [a, a + touch) of an hsz-aligned a, unmapped,
 * and a MAP_HUGETLB | MAP_FIXED mapping of hsz bytes (size bits in 'flags')
 * takes their place. It must read as zero; fork and munmap of it (the first
 * time before any fault) must leave the pool as it was.
 */
static void test_slot_after_small_pages(unsigned long hsz, int flags, unsigned long touch,
					const char *what)
{
	char *area = mmap(NULL, 2 * hsz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *a, *p;
	long free0 = meminfo("HugePages_Free");
	int st;

	if (area == MAP_FAILED) {
		tap_ok(0, "%s: a %lu MiB window for the test (errno %d)", what, 2 * hsz >> 20, errno);
		return;
	}
	a = (char *)(((uintptr_t)area + hsz - 1) & ~(uintptr_t)(hsz - 1));
	tap_ok(mprotect(a, touch, PROT_READ | PROT_WRITE) == 0, "%s: small pages at %p", what, a);
	memset(a, 0xa5, touch);
	munmap(area, 2 * hsz);

	/* mapped, forked and unmapped before any fault */
	p = mmap(a, hsz, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS | MAP_HUGETLB | MAP_FIXED, -1, 0);
	tap_ok(p == a, "%s: MAP_HUGETLB|MAP_FIXED over the old small pages (%p)", what, p);
	if (p != a)
		return;
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, &st, 0);
	tap_ok(munmap(p, hsz) == 0 && meminfo("HugePages_Free") == free0,
	       "%s: fork and munmap before a fault leave the pool as it was (Free %ld, was %ld)", what,
	       meminfo("HugePages_Free"), free0);

	/* again, touched this time: the page reads as zero in parent and child */
	p = mmap(a, hsz, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS | MAP_HUGETLB | MAP_FIXED, -1, 0);
	if (p != a) {
		tap_ok(0, "%s: mapped again (errno %d)", what, errno);
		return;
	}
	p[hsz - 1] = 0;
	tap_ok(nonzero_words(p, hsz) == 0, "%s: the new huge page is all zero (%lu nonzero words)", what,
	       nonzero_words(p, hsz));
	pid = fork();
	if (pid == 0)
		_exit(nonzero_words(p, hsz) == 0 ? 0 : 1);
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: the child sees it all zero too", what);
	tap_ok(munmap(p, hsz) == 0 && meminfo("HugePages_Free") == free0,
	       "%s: the pool is as it was after munmap (Free %ld, was %ld)", what,
	       meminfo("HugePages_Free"), free0);
}

/* This kernel only: no last-level table, and one clear per huge page. */
static void test_teachos_only(unsigned long hsz)
{
	long z0, z1;
	char *p, want[32], want_run[40];

	/* Dirty every pool page first, so no block is known to be zero. */
	set_pool(NPAGES);
	p = mmap(NULL, NPAGES * hsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p != MAP_FAILED) {
		memset(p, 0x77, NPAGES * hsz);
		munmap(p, NPAGES * hsz);
	}
	set_pool(0);
	z0 = zeroed_bytes();
	set_pool(NPAGES);
	p = mmap(NULL, NPAGES * hsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p == MAP_FAILED) {
		tap_ok(0, "mmap of the whole pool");
		return;
	}
	for (int i = 0; i < NPAGES; i++)
		p[(unsigned long)i * hsz] = 1;
	z1 = zeroed_bytes();
	/*
	 * Never more than one clear per page on the way in. Without
	 * init_on_free every page is dirty, so exactly one each; with it, pages
	 * the allocator knows were cleared on their way out are not cleared
	 * again, so fewer.
	 */
	int cleared_on_free = strstr(buf, "init_on_free 1") != NULL;
	long expect = cleared_on_free ? 0 : (long)(NPAGES * hsz);

	tap_ok(z0 >= 0 && z1 - z0 >= expect && z1 - z0 < (long)((NPAGES + 1) * hsz),
	       "pool filled and %d pages faulted: %ld bytes zeroed, one clear per huge page%s", NPAGES,
	       z1 - z0, cleared_on_free ? " (cleared on the way out)" : "");
	/* One block each, or one contiguous run each where the default size is a
	 * run (MicroBlaze with 64K pages: 16M runs of pages). */
	snprintf(want, sizeof(want), "%luM leaves: %d", hsz >> 20, NPAGES);
	snprintf(want_run, sizeof(want_run), "%luM cont runs: %d", hsz >> 20, NPAGES);
	tap_ok(read_text("/proc/self/pagetables") > 0 && (strstr(buf, want) != NULL || strstr(buf, want_run) != NULL),
	       "/proc/self/pagetables shows the huge leaves (%s, or %s)", want, want_run);
	if (!strstr(buf, want) && !strstr(buf, want_run))
		tap_diag("%s", buf);
	munmap(p, NPAGES * hsz);
}

/*
 * 1 GiB pages (arm64), when the boot put some in their pool (hugepagesz=1G
 * hugepages=N): one is mapped by a single level-1 leaf. Skipped when the
 * pool is empty, as it is on Linux by default.
 */
#if defined(__aarch64__)
static void test_gigantic(void)
{
	unsigned long gsz = 1UL << 30;
	char *p = mmap(NULL, gsz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (30 << 26), -1, 0);

	if (p == MAP_FAILED) {
		tap_skip("no 1 GiB huge pages in the pool (errno %d)", errno);
		return;
	}
	tap_ok(((uintptr_t)p & (gsz - 1)) == 0, "a 1 GiB huge page is 1 GiB-aligned (%p)", p);
	p[0] = 1;
	p[gsz - 1] = 2;
	tap_ok(p[0] == 1 && p[gsz - 1] == 2 && p[gsz / 2] == 0, "it reads back what was written, zero elsewhere");
	if (on_teachos())
		tap_ok(read_text("/proc/self/pagetables") > 0 && strstr(buf, "1G leaves: 1") != NULL,
		       "one 1G leaf maps it");
	tap_ok(munmap(p, gsz) == 0, "munmap of the 1 GiB page");
	/* small pages under two levels of tables first: a 64 KiB run at the 1 GiB boundary */
	test_slot_after_small_pages(gsz, MAP_PRIVATE | (30 << 26), 64 << 10, "1 GiB private");
}
#else
static void test_gigantic(void)
{
	tap_skip("no 1 GiB huge page size on this architecture");
}
#endif

/*
 * HT-7, MS-11: mseal of [page][sealed page][huge page cut inside], with the
 * huge page at h and the sealed page just below it, fails with EINVAL where
 * it meets the cut (Linux's apply_mm_seal() seals VMA by VMA), so the page
 * before it is sealed: unmapping it is EPERM.
 */
static void test_mseal_partial(char *h, unsigned long pg)
{
	char *q = mmap(h - 2 * pg, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	int r, e, ru, eu;

	if (q != h - 2 * pg) {
		tap_skip("HT-7, MS-11: the page below could not be placed (errno %d)", errno);
		if (q != MAP_FAILED)
			munmap(q, pg);
		return;
	}
	errno = 0;
	r = (int)syscall(462, q, 2 * pg + pg, 0);
	e = errno;
	errno = 0;
	ru = munmap(q, pg);
	eu = errno;
	tap_ok(r == -1 && e == EINVAL && ru == -1 && eu == EPERM,
	       "HT-7, MS-11: mseal over [page][sealed][huge page cut inside] fails at the cut (errno %d) "
	       "and leaves the page before it sealed (munmap: %d, errno %d)", e, ru, eu);
}

/*
 * MU-5, MS-20: munmap meets the VMAs from the lowest, as Linux's
 * vms_gather_munmap_vmas(): over [huge page cut inside][sealed page], the
 * huge page's bad cut (EINVAL) comes before the sealed VMA's EPERM; over
 * [sealed page][huge page cut inside], the seal comes first. MAP_NORESERVE
 * needs no pool.
 */
static void test_munmap_order(unsigned long hsz)
{
	const unsigned long pg = (unsigned long)getpagesize();
	char *h = mmap(NULL, 3 * hsz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_NORESERVE, -1, 0);
	char *s1, *s2;
	int r1, e1, r2, e2;

	if (h == MAP_FAILED) {
		tap_skip("MU-5, MS-20: no MAP_HUGETLB mapping (errno %d)", errno);
		return;
	}
	/* [sealed page][huge page][hole][sealed page] in place of the last two huge pages */
	munmap(h + hsz, 2 * hsz);
	s1 = mmap(h + 2 * hsz, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	s2 = mmap(h - pg, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (s1 != h + 2 * hsz || s2 != h - pg || syscall(462, s1, pg, 0) != 0 || syscall(462, s2, pg, 0) != 0) {
		tap_skip("MU-5, MS-20: could not place or seal the pages (errno %d)", errno);
		if (s1 == h + 2 * hsz)
			munmap(s1, pg);
		if (s2 == h - pg)
			munmap(s2, pg);
		munmap(h, hsz);
		return;
	}
	errno = 0;
	r1 = munmap(h + pg, 2 * hsz);
	e1 = errno;
	errno = 0;
	r2 = munmap(h - pg, 2 * pg);
	e2 = errno;
	tap_ok(r1 == -1 && e1 == EINVAL && r2 == -1 && e2 == EPERM,
	       "MU-5, MS-20: munmap's errors in address order: a bad huge-page cut before a later seal (errno %d), "
	       "a seal before a later bad cut (errno %d)", e1, e2);
	/* MAP_FIXED's implicit unmap meets them in the same order (MS-21) */
	errno = 0;
	r1 = mmap(h + pg, 2 * hsz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED;
	e1 = errno;
	errno = 0;
	r2 = mmap(h - pg, 2 * pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED;
	e2 = errno;
	tap_ok(r1 && e1 == EINVAL && r2 && e2 == EPERM,
	       "MU-5, MS-21: MAP_FIXED's errors in address order: a bad huge-page cut before a later seal (errno %d), "
	       "a seal before a later bad cut (errno %d)", e1, e2);
	test_mseal_partial(h, pg);
	munmap(h, hsz);
}

/* How many VMAs of /proc/self/maps lie inside [a, b), or -1. A single read: the test's maps are short. */
static int pieces(const char *a, const char *b)
{
	int n = 0;

	if (read_text("/proc/self/maps") < 0)
		return -1;
	for (char *l = buf; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		char *e;
		unsigned long lo = strtoul(l, &e, 16), hi = strtoul(e + 1, NULL, 16);

		if (lo >= (unsigned long)a && hi <= (unsigned long)b)
			n++;
	}
	return n;
}

/*
 * MU-5, MU-7: an unmap whose start cut of a hugetlb VMA is on a huge-page
 * boundary but whose end cut is not fails with EINVAL after the start cut
 * was made (Linux's vms_gather_munmap_vmas() splits as it goes): the VMA
 * is two afterwards, for munmap and for MAP_FIXED alike.
 */
static void test_munmap_late_cut(unsigned long hsz)
{
	const unsigned long pg = (unsigned long)getpagesize();
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_NORESERVE;
	char *h = mmap(NULL, 2 * hsz, PROT_READ, flags, -1, 0);
	int r, e, before;

	if (h == MAP_FAILED) {
		tap_skip("MU-5: no MAP_HUGETLB mapping (errno %d)", errno);
		return;
	}
	before = pieces(h, h + 2 * hsz);
	errno = 0;
	r = munmap(h + hsz, pg);
	e = errno;
	tap_ok(before == 1 && r == -1 && e == EINVAL && pieces(h, h + 2 * hsz) == 2,
	       "MU-5, MU-7: munmap [huge page + 1 page) of 2 huge pages: EINVAL (errno %d), the VMA cut in two (%d -> %d)", e,
	       before, pieces(h, h + 2 * hsz));
	munmap(h, 2 * hsz);
	h = mmap(h, 2 * hsz, PROT_READ, flags | MAP_FIXED_NOREPLACE, -1, 0);
	if (h == MAP_FAILED) {
		tap_skip("MU-5: no MAP_HUGETLB mapping again (errno %d)", errno);
		return;
	}
	errno = 0;
	r = mmap(h + hsz, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED;
	e = errno;
	tap_ok(r && e == EINVAL && pieces(h, h + 2 * hsz) == 2,
	       "MU-5, MU-7: MAP_FIXED over the same: EINVAL (errno %d), the VMA cut in two too (%d)", e,
	       pieces(h, h + 2 * hsz));
	munmap(h, 2 * hsz);
}

/*
 * ML-7, ML-8: mlock never locks a hugetlb VMA but populates it, as Linux's
 * __mm_populate(): the huge pages are taken from the pool at once, and a
 * range the pool cannot cover fails with ENOMEM (MAP_NORESERVE maps it).
 */
static void test_mlock(unsigned long hsz)
{
	long free0 = meminfo("HugePages_Free");
	char *p = mmap(NULL, 2 * hsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	char *q;
	int r;

	if (p == MAP_FAILED || free0 < 2) {
		tap_skip("ML-7, ML-8: no two huge pages to lock (free %ld, errno %d)", free0, errno);
		if (p != MAP_FAILED)
			munmap(p, 2 * hsz);
		return;
	}
	r = (int)syscall(SYS_mlock, p, 2 * hsz);
	tap_ok(r == 0 && meminfo("HugePages_Free") == free0 - 2,
	       "ML-7, ML-8: mlock of a hugetlb mapping: 0, and both huge pages are taken at once (free %ld -> %ld)", free0,
	       meminfo("HugePages_Free"));
	munmap(p, 2 * hsz);
	/* MM-14: MAP_POPULATE of an execute-only hugetlb mapping takes its pages too */
	p = mmap(NULL, 2 * hsz, PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_POPULATE, -1, 0);
	tap_ok(p != MAP_FAILED && meminfo("HugePages_Free") == free0 - 2,
	       "MM-14: MAP_POPULATE of a PROT_EXEC hugetlb mapping takes both huge pages (free %ld -> %ld)", free0,
	       meminfo("HugePages_Free"));
	if (p != MAP_FAILED)
		munmap(p, 2 * hsz);
	/* MM-14, ML-7: MAP_LOCKED populates a hugetlb mapping (though it is never locked) */
	p = mmap(NULL, 2 * hsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB | MAP_LOCKED, -1, 0);
	tap_ok(p != MAP_FAILED && meminfo("HugePages_Free") == free0 - 2,
	       "MM-14, ML-7: mmap with MAP_LOCKED takes both huge pages at once (free %ld -> %ld)", free0,
	       meminfo("HugePages_Free"));
	if (p != MAP_FAILED)
		munmap(p, 2 * hsz);
	q = mmap(NULL, (size_t)(free0 + 1) * hsz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_NORESERVE, -1, 0);
	errno = 0;
	r = q == MAP_FAILED ? -2 : (int)syscall(SYS_mlock, q, (size_t)(free0 + 1) * hsz);
	tap_ok(r == -1 && errno == ENOMEM, "ML-8: mlock of more huge pages than the pool holds: ENOMEM (%d, errno %d)", r,
	       errno);
	if (q != MAP_FAILED)
		munmap(q, (size_t)(free0 + 1) * hsz);
}

/*
 * MR-13, MR-9: mremap(MREMAP_FIXED | MREMAP_DONTUNMAP) of a hugetlb mapping
 * is EINVAL (hugetlb VMAs may not be expanded), found only after Linux's
 * mremap_to() has unmapped the destination: the page that was there is gone.
 */
static void test_dontunmap(unsigned long hsz)
{
	const unsigned long pg = (unsigned long)getpagesize();
	char *h = mmap(NULL, hsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_NORESERVE,
		       -1, 0);
	char *area = mmap(NULL, 2 * hsz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *dst = (char *)(((uintptr_t)area + hsz - 1) & ~(uintptr_t)(hsz - 1));
	unsigned char vec;
	char *d, *r;
	int e, gone;

	if (h == MAP_FAILED || area == MAP_FAILED) {
		tap_skip("MR-13: no mappings to try (errno %d)", errno);
		if (h != MAP_FAILED)
			munmap(h, hsz);
		if (area != MAP_FAILED)
			munmap(area, 2 * hsz);
		return;
	}
	d = mmap(dst, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	errno = 0;
	r = mremap(h, hsz, hsz, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, dst);
	e = errno;
	gone = syscall(SYS_mincore, dst, pg, &vec) == -1 && errno == ENOMEM;
	tap_ok(d == dst && r == MAP_FAILED && e == EINVAL && gone,
	       "MR-13, MR-9: MREMAP_DONTUNMAP of a hugetlb mapping: EINVAL (errno %d), after the destination "
	       "was unmapped (%d)", e, gone);
	munmap(h, hsz);
	munmap(area, 2 * hsz);
}

/*
 * A shared mapping's pages live in its file (Linux: hugetlbfs), not in the
 * mappings: a fork does not take the untouched pages (Free and Rsvd stay),
 * MADV_DONTNEED keeps the data, and a page unmapped while the rest of the
 * mapping stays is still in use; the last munmap gives both pages back.
 */
static void test_shared_file(unsigned long hsz)
{
	long free0 = meminfo("HugePages_Free"), rsvd0 = meminfo("HugePages_Rsvd");
	char *p = mmap(NULL, 2 * hsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	long free1, rsvd1, free2, free3;
	int st = 0, kept;
	pid_t pid;

	if (p == MAP_FAILED) {
		tap_skip("shared file: no MAP_SHARED|MAP_HUGETLB mapping (errno %d)", errno);
		return;
	}
	pid = fork();
	if (pid == 0)
		_exit(0);
	free1 = meminfo("HugePages_Free");
	rsvd1 = meminfo("HugePages_Rsvd");
	if (pid > 0)
		waitpid(pid, &st, 0);
	tap_ok(free1 == free0 && rsvd1 == rsvd0 + 2,
	       "HT-10: a fork leaves a shared mapping's untouched pages reserved (Free %ld -> %ld, Rsvd %ld -> %ld)",
	       free0, free1, rsvd0, rsvd1);
	p[0] = 0x3c;
	p[hsz] = 0x3d;
	kept = madvise(p, hsz, MADV_DONTNEED) == 0 && p[0] == 0x3c;
	tap_ok(kept, "MA-6, HT-9: MADV_DONTNEED of a shared huge page keeps its data (0x%x)", p[0]);
	{	/* MA-9: MADV_REMOVE of part of a huge page zeroes that part only */
		const unsigned long pg = (unsigned long)getpagesize();

		p[5 * pg] = 0x55;
		tap_ok(madvise(p + 4 * pg, 4 * pg, MADV_REMOVE) == 0 && p[5 * pg] == 0 && p[0] == 0x3c,
		       "MA-9, HT-9: MADV_REMOVE inside a shared huge page zeroes that part (0x%x) and keeps the rest (0x%x)",
		       p[5 * pg], p[0]);
	}
	munmap(p + hsz, hsz);
	free2 = meminfo("HugePages_Free");
	munmap(p, hsz);
	free3 = meminfo("HugePages_Free");
	tap_ok(free2 == free0 - 2 && free3 == free0,
	       "HT-6: an unmapped part of a shared mapping keeps its page while the rest is mapped (Free %ld), "
	       "the last munmap gives both back (Free %ld, was %ld)", free2, free3, free0);
}

static void bus_code_exit(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	_exit(10 + si->si_code);
}

/*
 * HT-5: a fault the pool cannot give a page to is SIGBUS with si_code
 * BUS_ADRERR (2), as Linux's arm64 and MicroBlaze fault handlers send it.
 */
static void test_sigbus_code(unsigned long hsz)
{
	long spare = meminfo("HugePages_Free") - meminfo("HugePages_Rsvd");
	size_t len = (size_t)(spare + 1) * hsz;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_NORESERVE,
		       -1, 0);
	int st = 0;
	pid_t pid;

	if (p == MAP_FAILED || spare < 0) {
		tap_skip("HT-5: no MAP_NORESERVE mapping (errno %d)", errno);
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = bus_code_exit;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGBUS, &sa, NULL);
		for (size_t off = 0; off < len; off += hsz)
			p[off] = 1;
		_exit(1);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 10 + 2,
	       "HT-5: a touch the pool cannot back: SIGBUS with si_code BUS_ADRERR (status 0x%x)", st);
	munmap(p, len);
}

/*
 * MAP_SHARED: a huge page first touched after fork is one page in both
 * processes (Linux: the hugetlbfs file's page), whichever touches it first:
 * the child writes the second huge page, which the parent never touched,
 * the parent then writes the first, and each sees the other's write.
 */
static void test_shared_after_fork(unsigned long hsz)
{
	char *p = mmap(NULL, 2 * hsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	int up[2], down[2], st = 0, seen = -1;
	char c = 0;
	pid_t pid;

	if (p == MAP_FAILED || pipe(up) != 0 || pipe(down) != 0) {
		tap_skip("MAP_SHARED after fork: no mapping or pipe (errno %d)", errno);
		if (p != MAP_FAILED)
			munmap(p, 2 * hsz);
		return;
	}
	pid = fork();
	if (pid == 0) {
		p[hsz + 5] = 0x66;	/* the first touch of the second huge page */
		if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(2);
		_exit(p[7] == 0x77 ? 0 : 1);	/* the parent's write, made after the fork */
	}
	if (pid > 0 && read(up[0], &c, 1) == 1) {
		seen = p[hsz + 5];
		p[7] = 0x77;
		if (write(down[1], &c, 1) != 1)
			seen = -2;
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	tap_ok(pid > 0 && seen == 0x66 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "MAP_SHARED: huge pages first touched after fork are shared: the parent reads the child's write "
	       "(0x%x) and the child the parent's (status 0x%x)", seen, st);
	munmap(p, 2 * hsz);
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

/*
 * HT-4 with MAP_FIXED: when the pool cannot cover the new mapping, Linux
 * has already cleared what was there (hugetlbfs's mmap runs after the old
 * mappings go, in mmap_region()) and leaves a hole: ENOMEM, and the old
 * page is unmapped.
 */
static void test_fixed_reserve_fails(unsigned long hsz)
{
	const unsigned long pg = (unsigned long)getpagesize();
	long spare = meminfo("HugePages_Free") - meminfo("HugePages_Rsvd");
	size_t len = (size_t)(spare + 1) * hsz;
	char *area = mmap(NULL, len + hsz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *at = (char *)(((uintptr_t)area + hsz - 1) & ~(uintptr_t)(hsz - 1));
	unsigned char vec;
	char *old, *r;
	int e, gone;

	if (area == MAP_FAILED || spare < 0) {
		tap_skip("HT-4: no room for the test (errno %d)", errno);
		return;
	}
	old = mmap(at, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (old == at)
		old[0] = 1;
	errno = 0;
	r = mmap(at, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_FIXED, -1, 0);
	e = errno;
	gone = syscall(SYS_mincore, at, pg, &vec) == -1 && errno == ENOMEM;
	tap_ok(old == at && r == MAP_FAILED && e == ENOMEM && gone,
	       "HT-4: MAP_FIXED|MAP_HUGETLB the pool cannot cover: ENOMEM (errno %d), and the old page is gone (%d)", e,
	       gone);
	munmap(area, len + hsz);
}

/*
 * HT-9: MADV_REMOVE punches a hole in the mapping's file: the whole huge
 * pages in the range go from every mapping of the file (a fork child's
 * too, which then reads zeros from a fresh page) and back to the pool at
 * once; a huge page the range ends inside is zeroed there and stays; a
 * page not faulted yet keeps its reservation (Linux drops the reserve map
 * entry only with a page it removes), which its first fault then uses.
 */
static void test_punch_everywhere(unsigned long hsz)
{
	const unsigned long pg = (unsigned long)getpagesize();
	long free0 = meminfo("HugePages_Free"), rsvd0 = meminfo("HugePages_Rsvd"), free1, rsvd1, free2, rsvd2, rsvd3;
	char *p = mmap(NULL, 3 * hsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	int up[2], down[2], st = 0, r1 = -2, r2 = -2;
	char c = 0;
	pid_t pid;

	if (p == MAP_FAILED || pipe(up) != 0 || pipe(down) != 0) {
		tap_skip("HT-9: no shared mapping of 3 huge pages or no pipe (errno %d)", errno);
		if (p != MAP_FAILED)
			munmap(p, 3 * hsz);
		return;
	}
	memset(p, 0x11, 2 * hsz);	/* two pages faulted, the third still reserved */
	pid = fork();
	if (pid == 0) {
		int mapped = p[0] == 0x11 && p[hsz + pg] == 0x11;	/* both mapped here too */

		if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(64);
		_exit((p[0] != 0) | (p[hsz + pg] != 0) << 1 | (p[hsz + 3 * pg] != 0x11) << 2 | !mapped << 3);
	}
	if (pid < 0 || read(up[0], &c, 1) != 1) {
		tap_skip("HT-9: no fork child (errno %d)", errno);
		munmap(p, 3 * hsz);
		return;
	}
	free1 = meminfo("HugePages_Free");
	rsvd1 = meminfo("HugePages_Rsvd");
	r1 = madvise(p, hsz + 2 * pg, MADV_REMOVE);	/* the first page, and two small pages of the second */
	free2 = meminfo("HugePages_Free");
	r2 = madvise(p + 2 * hsz, hsz, MADV_REMOVE);	/* the page nobody touched */
	rsvd2 = meminfo("HugePages_Rsvd");
	if (write(down[1], &c, 1) != 1)
		st = -1;
	waitpid(pid, &st, 0);
	tap_ok(r1 == 0 && free1 == free0 - 2 && rsvd1 == rsvd0 + 1 && free2 == free0 - 1,
	       "HT-9: MADV_REMOVE of a huge page another process maps gives it back to the pool at once (%d; Free %ld -> "
	       "%ld -> %ld, Rsvd %ld -> %ld)", r1, free0, free1, free2, rsvd0, rsvd1);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "HT-9: the fork child then reads zeros there, and in the zeroed part of the huge page the range ends "
	       "inside, whose rest it still sees (status 0x%x)", st);
	tap_ok(r2 == 0 && rsvd2 == rsvd1, "HT-9: MADV_REMOVE of a page not faulted yet keeps its reservation (%d; Rsvd %ld -> %ld)",
	       r2, rsvd1, rsvd2);
	p[2 * hsz] = 1;
	rsvd3 = meminfo("HugePages_Rsvd");
	munmap(p, 3 * hsz);
	tap_ok(rsvd3 == rsvd0 && meminfo("HugePages_Free") == free0 && meminfo("HugePages_Rsvd") == rsvd0,
	       "HT-9: its first touch uses that reservation (Rsvd %ld), and munmap gives everything back (Free %ld, Rsvd %ld)",
	       rsvd3, meminfo("HugePages_Free"), meminfo("HugePages_Rsvd"));
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

/* Does the maps line of the VMA holding addr show protection perm ("rw-s")? */
static int perm_is(const void *addr, const char *perm)
{
	struct maps_entry m;

	return maps_entry(addr, &m) == 0 && !strncmp(m.perms, perm, 4);
}

/*
 * HT-7, HT-12: mprotect and madvise cut a hugetlb VMA as Linux's
 * vma_modify(): the cut at start first, which stays when the cut at end is
 * inside a huge page (EINVAL); the pieces never merge again, not even a
 * part made alike next to its neighbour (Linux 6.12 measured); and
 * mprotect is not atomic: the VMAs before the bad cut keep their change.
 */
static void test_modify_cuts(unsigned long hsz)
{
	const unsigned long pg = (unsigned long)getpagesize();
	int flags = MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB | MAP_NORESERVE;
	char *h = mmap(NULL, 3 * hsz, PROT_READ, flags, -1, 0);
	char *end = h + 3 * hsz;
	int r, e;

	if (h == MAP_FAILED) {
		tap_skip("HT-12: no MAP_HUGETLB mapping (errno %d)", errno);
		return;
	}
	errno = 0;
	r = mprotect(h + hsz, pg, PROT_READ | PROT_WRITE);
	e = errno;
	tap_ok(r == -1 && e == EINVAL && pieces(h, end) == 2 && perm_is(h + hsz, "r--s"),
	       "HT-12: mprotect [huge page + 1 page) of 3: EINVAL (errno %d), cut at the start only (%d VMAs)", e,
	       pieces(h, end));
	errno = 0;
	r = madvise(h + 2 * hsz, pg, MADV_DONTFORK);
	e = errno;
	tap_ok(r == -1 && e == EINVAL && pieces(h, end) == 3,
	       "HT-12: MADV_DONTFORK [3rd huge page + 1 page): EINVAL (errno %d), cut at the start (%d VMAs)", e,
	       pieces(h, end));
	munmap(h, 3 * hsz);
	h = mmap(h, 3 * hsz, PROT_READ, flags | MAP_FIXED_NOREPLACE, -1, 0);
	if (h == MAP_FAILED) {
		tap_skip("HT-12: no MAP_HUGETLB mapping again (errno %d)", errno);
		return;
	}
	r = mprotect(h, hsz, PROT_READ | PROT_WRITE) | mprotect(h + hsz, hsz, PROT_READ | PROT_WRITE);
	tap_ok(r == 0 && pieces(h, end) == 3 && perm_is(h + hsz, "rw-s") && perm_is(h + 2 * hsz, "r--s"),
	       "HT-12: the 2nd huge page made like the 1st stays apart from it (%d VMAs)", pieces(h, end));
	r = mprotect(h, 3 * hsz, PROT_READ);
	tap_ok(r == 0 && pieces(h, end) == 3 && perm_is(h + 2 * hsz, "r--s"),
	       "HT-12: all three made alike stay three (%d VMAs)", pieces(h, end));
	errno = 0;
	r = mprotect(h, 2 * hsz + pg, PROT_READ | PROT_WRITE);
	e = errno;
	tap_ok(r == -1 && e == EINVAL && pieces(h, end) == 3 && perm_is(h + hsz, "rw-s") && perm_is(h + 2 * hsz, "r--s"),
	       "HT-12: mprotect over [VMA][VMA][VMA cut inside]: EINVAL (errno %d), the first two changed", e);
	munmap(h, 3 * hsz);
}

/* A field ("Shared_Hugetlb:") of the smaps entry of the VMA holding addr, in kB, or -1. */
static long smaps_kb(const void *addr, const char *key)
{
	const char *l, *next, *f;

	if (read_proc("/proc/self/smaps") < 0 || !(l = vma_line(addr)))
		return -1;
	for (next = strchr(l, '\n'); next && next[1] && (next[1] < '0' || next[1] > '9') &&
	     (next[1] < 'a' || next[1] > 'f'); next = strchr(next + 1, '\n'))
		;	/* the entry's last line (field lines start with a capital) */
	f = strstr(l, key);
	return f && (!next || f < next) ? strtol(f + strlen(key), NULL, 10) : -1;
}

/* Does the VmFlags line of the smaps entry of the VMA holding addr have word? */
static int smaps_flag(const void *addr, const char *word)
{
	const char *l, *f, *eol;
	size_t n = strlen(word);

	if (read_proc("/proc/self/smaps") < 0 || !(l = vma_line(addr)) || !(f = strstr(l, "VmFlags:")))
		return 0;
	eol = strchr(f, '\n');
	for (f += 8; *f && (!eol || f < eol); f++)
		if (f[-1] == ' ' && strncmp(f, word, n) == 0 && (f[n] == ' ' || f[n] == '\n' || !f[n]))
			return 1;
	return 0;
}

#define HUGE_NAME "/anon_hugepage (deleted)"

/*
 * HT-11: /proc/self/maps shows every MAP_HUGETLB mapping, shared or
 * private, as a mapping of its hugetlbfs file: the name
 * "/anon_hugepage (deleted)" in the name column, hugetlbfs's device, an
 * inode of its own (kept by the rest of it after a munmap, and by a fork
 * child) and the file offset (after the munmap of its first huge page,
 * and the one mmap was given). smaps: VmFlags "ms" (shared) "de" "ht",
 * no AnonHugePages, and Shared_Hugetlb/Private_Hugetlb by how many
 * mappings a present page has (a fork copies no entry of a shared mapping,
 * HT-10; a private one's it does).
 */
static void test_maps_names(unsigned long hsz)
{
	char *s = mmap(NULL, 2 * hsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	char *q = mmap(NULL, 2 * hsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	struct maps_entry ms, mq, ms2, mq2;
	int up[2], down[2], st = -1, ok;
	char c = 0;
	pid_t pid;

	if (s == MAP_FAILED || q == MAP_FAILED || pipe(up) != 0 || pipe(down) != 0) {
		tap_skip("HT-11: no shared and private mappings of two huge pages (errno %d)", errno);
		if (s != MAP_FAILED)
			munmap(s, 2 * hsz);
		if (q != MAP_FAILED)
			munmap(q, 2 * hsz);
		return;
	}
	s[0] = 1;
	q[0] = 1;
	ok = maps_entry(s, &ms) == 0 && maps_entry(q, &mq) == 0;
	tap_ok(ok && strcmp(ms.name, HUGE_NAME) == 0 && strcmp(ms.perms, "rw-s") == 0 && ms.off == 0 &&
	       (ms.major || ms.minor) && ms.ino != 0,
	       "HT-11: a shared MAP_HUGETLB mapping in /proc/self/maps: '%s' %s offset %llx device %02x:%02x inode %llu",
	       ms.name, ms.perms, ms.off, ms.major, ms.minor, ms.ino);
	tap_ok(ok && strcmp(mq.name, HUGE_NAME) == 0 && strcmp(mq.perms, "rw-p") == 0 && mq.off == 0 &&
	       mq.major == ms.major && mq.minor == ms.minor && mq.ino != 0 && mq.ino != ms.ino,
	       "HT-11: a private one: '%s' %s offset %llx, the same device %02x:%02x, an inode of its own (%llu)", mq.name,
	       mq.perms, mq.off, mq.major, mq.minor, mq.ino);
#if defined(__aarch64__)
	tap_ok(ms.name_col == 73 && mq.name_col == 73, "HT-11: the name starts in column 73 (%d, %d)", ms.name_col,
	       mq.name_col);
#endif
	tap_ok(smaps_flag(s, "ms") && smaps_flag(s, "de") && smaps_flag(s, "ht") && !smaps_flag(q, "ms") &&
	       smaps_flag(q, "de") && smaps_flag(q, "ht") && smaps_kb(s, "AnonHugePages:") == 0 &&
	       smaps_kb(q, "AnonHugePages:") == 0,
	       "HT-11: smaps VmFlags: ms (shared only), de, ht; AnonHugePages 0 (%ld, %ld)", smaps_kb(s, "AnonHugePages:"),
	       smaps_kb(q, "AnonHugePages:"));
	pid = fork();
	if (pid == 0) {	/* the same file here: same device and inode */
		struct maps_entry m;

		if (read(down[0], &c, 1) != 1)
			_exit(9);
		s[1] = 2;	/* the child maps the shared page now */
		if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(9);
		_exit(maps_entry(s, &m) != 0 || m.ino != ms.ino || m.major != ms.major || m.minor != ms.minor);
	}
	{
		long sh0 = smaps_kb(s, "Shared_Hugetlb:"), pr0 = smaps_kb(s, "Private_Hugetlb:");
		long qsh = smaps_kb(q, "Shared_Hugetlb:"), qpr = smaps_kb(q, "Private_Hugetlb:"), sh1 = -1, pr1 = -1;

		if (pid > 0 && write(down[1], &c, 1) == 1 && read(up[0], &c, 1) == 1) {
			sh1 = smaps_kb(s, "Shared_Hugetlb:");
			pr1 = smaps_kb(s, "Private_Hugetlb:");
		}
		if (pid > 0 && write(down[1], &c, 1) == 1)
			waitpid(pid, &st, 0);
		tap_ok(sh0 == 0 && pr0 == (long)(hsz >> 10) && qsh == (long)(hsz >> 10) && qpr == 0,
		       "HT-11, HT-10: after a fork, smaps: the shared page Shared_Hugetlb %ld Private_Hugetlb %ld kB (the child "
		       "has no entry), the private one %ld / %ld kB (copy-on-write)", sh0, pr0, qsh, qpr);
		tap_ok(sh1 == (long)(hsz >> 10) && pr1 == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
		       "HT-11: once the child maps it: Shared_Hugetlb %ld Private_Hugetlb %ld kB; the child's line has the same "
		       "device and inode (status 0x%x)", sh1, pr1, st);
	}
	munmap(s, hsz);
	munmap(q, hsz);
	ok = maps_entry(s + hsz, &ms2) == 0 && maps_entry(q + hsz, &mq2) == 0;
	tap_ok(ok && ms2.off == hsz && ms2.ino == ms.ino && mq2.off == hsz && mq2.ino == mq.ino,
	       "HT-11: after munmap of the first huge page the rest shows offset %llx and %llx, the same inodes", ms2.off,
	       mq2.off);
	munmap(s + hsz, hsz);
	munmap(q + hsz, hsz);
	s = mmap(NULL, hsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB, -1, (off_t)(2 * hsz));
	q = mmap(NULL, hsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, (off_t)(2 * hsz));
	ok = s != MAP_FAILED && q != MAP_FAILED && maps_entry(s, &ms) == 0 && maps_entry(q, &mq) == 0;
	if (ok)
		ok = s[5] == 0 && (s[5] = 1) && q[5] == 0;	/* the page at that offset can be faulted in */
	tap_ok(ok && ms.off == 2 * hsz && mq.off == 2 * hsz,
	       "HT-11: a mapping made at offset 2 huge pages shows it (%llx, %llx) and works", ms.off, mq.off);
	if (s != MAP_FAILED)
		munmap(s, hsz);
	if (q != MAP_FAILED)
		munmap(q, hsz);
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

/*
 * HT-3: an mmap offset inside a huge page is refused by hugetlbfs's mmap,
 * after MAP_FIXED's old mappings went (Linux's mmap_region() clears the
 * range before it calls the file): EINVAL, and a hole where they were.
 */
static void test_offset_refused(unsigned long hsz)
{
	const unsigned long pg = (unsigned long)getpagesize();
	char *area = mmap(NULL, 2 * hsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	char *at = (char *)(((uintptr_t)area + hsz - 1) & ~(uintptr_t)(hsz - 1));
	long rsvd0 = meminfo("HugePages_Rsvd");
	unsigned char vec;
	char *r1, *r2, *r3;
	int e1, e2, e3, kept, gone;

	if (area == MAP_FAILED || pg >= hsz) {
		tap_skip("HT-3: no room for the test (errno %d)", errno);
		return;
	}
	at[0] = 7;
	errno = 0;
	r1 = mmap(NULL, hsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB, -1, (off_t)pg);
	e1 = errno;
	errno = 0;
	r2 = mmap(at, hsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_FIXED_NOREPLACE, -1,
		  (off_t)pg);
	e2 = errno;
	kept = syscall(SYS_mincore, at, pg, &vec) == 0 && at[0] == 7;
	errno = 0;
	r3 = mmap(at, hsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB | MAP_FIXED, -1, (off_t)pg);
	e3 = errno;
	gone = syscall(SYS_mincore, at, pg, &vec) == -1 && errno == ENOMEM;
	tap_ok(r1 == MAP_FAILED && e1 == EINVAL && r2 == MAP_FAILED && e2 == EEXIST && kept,
	       "HT-3: MAP_HUGETLB at an offset inside a huge page: EINVAL (errno %d); MAP_FIXED_NOREPLACE over a mapping "
	       "is EEXIST first (errno %d), the mapping kept (%d)", e1, e2, kept);
	tap_ok(r3 == MAP_FAILED && e3 == EINVAL && gone && meminfo("HugePages_Rsvd") == rsvd0,
	       "HT-3: with MAP_FIXED: EINVAL (errno %d), and the old mapping is gone (%d), nothing reserved", e3, gone);
	munmap(area, 2 * hsz);
}

int main(void)
{
	long kb;
	unsigned long hsz;

	tap_init();
	kb = meminfo("Hugepagesize");
	tap_ok(kb > 0, "Hugepagesize is %ld kB", kb);
	if (kb <= 0)
		return tap_done();
	hsz = (unsigned long)kb * 1024;
	test_pool_and_mapping(hsz);
	set_pool(NPAGES);
	test_slot_after_small_pages(hsz, MAP_PRIVATE, hsz, "private");
	test_slot_after_small_pages(hsz, MAP_SHARED, hsz, "shared");
	if (on_teachos())
		test_teachos_only(hsz);
	test_gigantic();
	test_munmap_order(hsz);
	test_munmap_late_cut(hsz);
	test_modify_cuts(hsz);
	test_shared_after_fork(hsz);
	test_shared_file(hsz);
	test_punch_everywhere(hsz);
	test_maps_names(hsz);
	test_offset_refused(hsz);
	test_fixed_reserve_fails(hsz);
	test_sigbus_code(hsz);
	test_dontunmap(hsz);
	test_mlock(hsz);
	set_pool(0);
	tap_ok(pool() == 0 && meminfo("HugePages_Total") == 0, "the pool empties again");
	return tap_done();
}
