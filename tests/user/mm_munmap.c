/* mm_munmap.c - munmap(2): argument checks (MU-1, MU-2), unmapping nothing
 * (MU-3), splitting at both ends and across several VMAs (MU-4), what
 * an access to unmapped memory does afterwards, and the cut a failed
 * munmap leaves (MU-7).
 *
 * Rows not tested here:
 *   MU-4   a split over max_map_count (ENOMEM): no map-count limit in our
 *          kernel; the sealed case (EPERM) is in mm_mseal.c.
 *   MU-5   hugetlb split alignment: in hugetlb.c (munmap inside a huge page).
 *   MU-6   guard markers torn down by munmap: in mm_madvise.c.
 */
#include "mm_util.h"

#if defined(__aarch64__)
#define BEYOND_USER (1UL << 54)	/* no tag bits (arm64 strips bits 56-63 first) */
#else
#define BEYOND_USER 0xd0000000UL
#endif

static void test_args(void)
{
	char *p = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0);

	errno = 0;
	tap_ok(munmap(p + 1, PAGE) == -1 && errno == EINVAL, "MU-1: unaligned address: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(munmap((void *)BEYOND_USER, PAGE) == -1 && errno == EINVAL,
	       "MU-1: an address above the user range: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(munmap(p, (size_t)-PAGE) == -1 && errno == EINVAL,
	       "MU-1: a length running past the user range: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(munmap(p, 0) == -1 && errno == EINVAL, "MU-2: length 0: EINVAL (errno %d)", errno);
	tap_ok(all_bytes(p, 2 * PAGE, 0) && strcmp(shape(p, p + 2 * PAGE), "rw-p:2") == 0,
	       "after the refused calls the mapping is intact");
	munmap(p, 2 * PAGE);
}

static void test_nothing(void)
{
	char *h = hole(4), *p;

	tap_ok(munmap(h, 4 * PAGE) == 0, "MU-3: munmap of a range with nothing mapped: 0");
	p = anon(h + 2 * PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	memset(p, 1, 2 * PAGE);
	tap_ok(munmap(h, 3 * PAGE) == 0 && strcmp(shape(h, h + 4 * PAGE), "hole:3 rw-p:1") == 0 && p[PAGE] == 1,
	       "MU-3: a range that is half hole: 0, the mapped part is gone (%s)", shape(h, h + 4 * PAGE));
	munmap(h, 4 * PAGE);
}

static void test_split(void)
{
	char *h = hole(7), *b = h + PAGE;

	anon(b, 5 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	for (int i = 0; i < 5; i++)
		memset(b + i * PAGE, 'a' + i, PAGE);
	tap_ok(munmap(b + 2 * PAGE, PAGE) == 0 && strcmp(shape(h, h + 7 * PAGE), "hole:1 rw-p:2 hole:1 rw-p:2 hole:1") == 0,
	       "MU-4: munmap of the middle page splits the VMA (%s)", shape(h, h + 7 * PAGE));
	tap_ok(all_bytes(b + PAGE, PAGE, 'b') && all_bytes(b + 3 * PAGE, PAGE, 'd'), "the neighbours keep their data");
	tap_ok(!can_read(b + 2 * PAGE) && probe_sig == SIGSEGV, "reading the unmapped page: SIGSEGV");
	tap_ok(munmap(b + PAGE, 1) == 0 && !can_read(b + PAGE) && can_read(b),
	       "MU-4: a length of 1 unmaps the whole page");
	mprotect(b + 4 * PAGE, PAGE, PROT_READ);
	tap_ok(munmap(b + 3 * PAGE + 0, 2 * PAGE) == 0 &&
		       strcmp(shape(h, h + 7 * PAGE), "hole:1 rw-p:1 hole:5") == 0,
	       "munmap across two VMAs with different protections removes both (%s)", shape(h, h + 7 * PAGE));
	munmap(h, 7 * PAGE);

	h = hole(8);
	b = h + PAGE;
	anon(b, 6 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	mprotect(b + 2 * PAGE, 2 * PAGE, PROT_READ);
	memset(b, 'x', 2 * PAGE);
	memset(b + 4 * PAGE, 'y', 2 * PAGE);
	tap_ok(munmap(b + PAGE, 4 * PAGE) == 0 && strcmp(shape(h, h + 8 * PAGE), "hole:1 rw-p:1 hole:4 rw-p:1 hole:1") == 0 &&
		       all_bytes(b, PAGE, 'x') && all_bytes(b + 5 * PAGE, PAGE, 'y'),
	       "MU-4: munmap from inside one VMA to inside a third splits both ends (%s)", shape(h, h + 8 * PAGE));
	munmap(h, 8 * PAGE);
}

static void test_reuse(void)
{
	char *p = anon(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, 0), *q;

	memset(p, 9, 4 * PAGE);
	munmap(p, 4 * PAGE);
	q = anon(p, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED_NOREPLACE);
	tap_ok(q == p && all_bytes(q, 4 * PAGE, 0), "the range can be mapped again and reads as zero");
	munmap(q, 4 * PAGE);
}

/*
 * MU-7: munmap over [a VMA cut inside][a sealed VMA] fails with EPERM after
 * the first VMA was cut (Linux's vms_gather_munmap_vmas() splits as it
 * goes): the two pieces stay apart, though alike, until one changes.
 */
static void test_late_cut(void)
{
	char *h = hole(5), *b = h + PAGE;
	int r, e;

	anon(b, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	anon(b + 2 * PAGE, PAGE, PROT_READ, MAP_FIXED);
	if (do_mseal(b + 2 * PAGE, PAGE, 0) != 0) {
		tap_skip("MU-7: mseal failed (errno %d)", errno);
		return;
	}
	errno = 0;
	r = munmap(b + PAGE, 2 * PAGE);
	e = errno;
	tap_ok(r == -1 && e == EPERM && strcmp(shape(h, h + 5 * PAGE), "hole:1 rw-p:1 rw-p:1 r--p:1 hole:1") == 0,
	       "MU-7: munmap meeting a seal after cutting a VMA: EPERM (errno %d), the cut stays (%s)", e,
	       shape(h, h + 5 * PAGE));
	mprotect(b, PAGE, PROT_READ);
	mprotect(b, PAGE, PROT_READ | PROT_WRITE);
	tap_ok(strcmp(shape(h, h + 5 * PAGE), "hole:1 rw-p:2 r--p:1 hole:1") == 0,
	       "MU-7: a change to one piece merges them again (%s)", shape(h, h + 5 * PAGE));
	munmap(b, 2 * PAGE);
}

int main(void)
{
	tap_init();
	probe_init();
	test_args();
	test_nothing();
	test_split();
	test_reuse();
	test_late_cut();
	return tap_done();
}
