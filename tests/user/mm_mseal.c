/* mm_mseal.c - mseal(2): its argument checks (MS-1..MS-10), what it seals
 * (MS-12, MS-13: splits, "sl" in smaps VmFlags), and every operation it
 * blocks (MS-20..MS-27) or does not block (MS-31..MS-33).
 *
 * Every blocked operation runs twice, on a fresh mapping, unsealed and
 * sealed: unsealed it must do its usual job, sealed it must fail with EPERM
 * (EEXIST for MAP_FIXED_NOREPLACE) and leave the mapping as it was: the same
 * /proc/self/maps lines around it and the same bytes in it.
 *
 * Linux offers mseal only on 64-bit kernels; ours offers it on MicroBlaze
 * too, and check-linux only boots arm64, so every case runs everywhere.
 *
 * Rows not tested here:
 *   MS-6   EINTR while taking the mmap lock: not reproducible from a test.
 *   MS-11  a split failing inside mseal (max_map_count): no map-count limit
 *          in our kernel.
 *   MS-27  file-backed private mappings may be discarded even when sealed:
 *          no file mappings yet. MADV_GUARD_INSTALL on sealed read-only
 *          memory is checked only where guard regions exist (Linux >= 6.13
 *          and ours; Linux 6.12 does not know the advice).
 *   MS-30  /proc/pid/mem, ptrace and userfaultfd writes: not implemented.
 *   MS-32  mlock splitting a sealed VMA: no mlock (madvise's split is tested).
 *   MS-40, MS-41  fork and exec: in mm_fork.c.
 *   MS-41  CONFIG_MSEAL_SYSTEM_MAPPINGS (sealed [vdso] etc.): not in 6.12.
 *   MS-50, MS-51  32-bit Linux has no mseal; ours has it (see above).
 *   MS-60..MS-63  how Linux implements the checks, not behaviour.
 */
#include "mm_util.h"

#define PAT 0x5a

static int guards;	/* MADV_GUARD_INSTALL exists */

static const char *tag(int sealed)
{
	return sealed ? "sealed" : "unsealed";
}

/*
 * Three pages filled with PAT between two one-page holes, then given prot
 * and, if sealed, sealed. Returns the first of the three pages (NULL if
 * the set-up failed).
 */
static char *setup(int prot, int sealed)
{
	char *h = hole(5), *b;

	if (!h)
		return NULL;
	b = anon(h + PAGE, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	if (b != h + PAGE)
		return NULL;
	memset(b, PAT, 3 * PAGE);
	if (prot != (PROT_READ | PROT_WRITE) && mprotect(b, 3 * PAGE, prot) != 0)
		return NULL;
	if (sealed && do_mseal(b, 3 * PAGE, 0) != 0)
		return NULL;
	return b;
}

/* The maps lines around a setup() region. */
static const char *around(char *b)
{
	return shape(b - PAGE, b + 4 * PAGE);
}

/* Did a call fail with -1 and err? Keeps errno for the message. */
static int failed(long ret, int err)
{
	return ret == -1 && errno == err;
}

/* The state after a sealed call: maps lines as before, bytes as before. */
static int unchanged(char *b, const char *before, int readable)
{
	return strcmp(around(b), before) == 0 && (!readable || all_bytes(b, 3 * PAGE, PAT));
}

static void cleanup(char *b)
{
	/* sealed memory stays; only unsealed test memory is given back */
	if (b && vm_flag(b, "sl") == 0)
		munmap(b, 3 * PAGE);
}

/* ---- mseal's own rules ---- */

static void test_args(void)
{
	char *b = setup(PROT_READ | PROT_WRITE, 0);
	char *h = hole(4);

	errno = 0;
	tap_ok(failed(do_mseal(b, PAGE, 1), EINVAL), "MS-1: flags 1: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(failed(do_mseal(b + 1, PAGE, 0), EINVAL), "MS-2: unaligned address: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(failed(do_mseal(b, (size_t)-1, 0), EINVAL), "MS-3: a length whose page rounding wraps: EINVAL (errno %d)",
	       errno);
	errno = 0;
	tap_ok(failed(do_mseal(b, (size_t)-PAGE, 0), EINVAL), "MS-4: address + length overflows: EINVAL (errno %d)",
	       errno);
	tap_ok(do_mseal(h, 0, 0) == 0, "MS-5: length 0 at an unmapped address: 0");
	tap_ok(vm_flag(b, "sl") == 0, "after the failed calls nothing is sealed");

	/* MS-7: not fully mapped */
	errno = 0;
	tap_ok(failed(do_mseal(b - PAGE, 2 * PAGE, 0), ENOMEM) && vm_flag(b, "sl") == 0,
	       "MS-7: range starting in a hole: ENOMEM, nothing sealed (errno %d)", errno);
	errno = 0;
	tap_ok(failed(do_mseal(b, 4 * PAGE, 0), ENOMEM) && vm_flag(b, "sl") == 0,
	       "MS-7: range running past the mapping: ENOMEM, nothing sealed (errno %d)", errno);
	munmap(b + PAGE, PAGE);
	errno = 0;
	tap_ok(failed(do_mseal(b, 3 * PAGE, 0), ENOMEM) && vm_flag(b, "sl") == 0 && vm_flag(b + 2 * PAGE, "sl") == 0,
	       "MS-7: a hole in the middle: ENOMEM, neither side sealed (errno %d)", errno);
	tap_ok(munmap(b, PAGE) == 0 && munmap(b + 2 * PAGE, PAGE) == 0,
	       "MS-7: both sides can still be unmapped");
	errno = 0;
	tap_ok(failed(do_mseal(h, PAGE, 0), ENOMEM), "MS-7: an unmapped page: ENOMEM (errno %d)", errno);
}

static void test_seal_shape(void)
{
	char *b = setup(PROT_READ | PROT_WRITE, 0);

	tap_ok(do_mseal(b + PAGE, 1, 0) == 0, "MS-8, MS-9: mseal of the middle page, length 1: 0");
	tap_ok(strcmp(around(b), "hole:1 rw-p:1 rw-p:1 rw-p:1 hole:1") == 0,
	       "MS-12: sealing the middle page splits the VMA in three (%s)", around(b));
	tap_ok(vm_flag(b + PAGE, "sl") == 1 && vm_flag(b, "sl") == 0 && vm_flag(b + 2 * PAGE, "sl") == 0,
	       "MS-13: only the middle VMA has \"sl\" in smaps VmFlags");
	errno = 0;
	tap_ok(failed(munmap(b + PAGE, PAGE), EPERM), "MS-9: the length was rounded up: the whole page is sealed");
	tap_ok(do_mseal(b + PAGE, PAGE, 0) == 0 && strcmp(around(b), "hole:1 rw-p:1 rw-p:1 rw-p:1 hole:1") == 0,
	       "MS-10: sealing it again: 0, nothing changes");
	tap_ok(do_mseal(b, PAGE, 0) == 0 && strcmp(around(b), "hole:1 rw-p:2 rw-p:1 hole:1") == 0,
	       "MS-12: a newly sealed neighbour merges with the sealed VMA (%s)", around(b));
	tap_ok(munmap(b + 2 * PAGE, PAGE) == 0, "the unsealed page can still be unmapped");
	b[0] = 1;
	b[PAGE] = 2;
	tap_ok(b[0] == 1 && b[PAGE] == 2 && b[1] == PAT, "MS-31: sealed writable memory can still be written");
}

/* ---- operations a seal blocks ---- */

static void test_munmap(int sealed)
{
	char *b = setup(PROT_READ | PROT_WRITE, sealed);
	char before[512];
	long r;

	strcpy(before, around(b));
	errno = 0;
	r = munmap(b, 3 * PAGE);
	tap_ok(sealed ? failed(r, EPERM) && unchanged(b, before, 1) : r == 0 && strcmp(around(b), "hole:5") == 0,
	       "MS-20: %s: munmap of the whole mapping: %s (errno %d, %s)", tag(sealed),
	       sealed ? "EPERM, unchanged" : "0, gone", errno, around(b));
	if (!sealed)
		b = setup(PROT_READ | PROT_WRITE, 0);
	errno = 0;
	r = munmap(b + PAGE, PAGE);
	tap_ok(sealed ? failed(r, EPERM) && unchanged(b, before, 1) :
			r == 0 && strcmp(around(b), "hole:1 rw-p:1 hole:1 rw-p:1 hole:1") == 0,
	       "MS-20: %s: munmap of the middle page: %s (errno %d, %s)", tag(sealed),
	       sealed ? "EPERM, unchanged" : "0, split", errno, around(b));
	cleanup(b);
}

/* munmap over [unsealed][sealed]: nothing is removed (MS-20 is atomic). */
static void test_munmap_pair(int sealed)
{
	char *b = setup(PROT_READ | PROT_WRITE, 0);
	long r;

	if (sealed)
		do_mseal(b + 2 * PAGE, PAGE, 0);
	errno = 0;
	r = munmap(b, 3 * PAGE);
	if (sealed)
		tap_ok(failed(r, EPERM) && all_bytes(b, 3 * PAGE, PAT) && can_write(b) && can_write(b + 2 * PAGE),
		       "MS-20: munmap over [unsealed][sealed]: EPERM and the unsealed part is still mapped (errno %d, %s)",
		       errno, around(b));
	else
		tap_ok(r == 0 && strcmp(around(b), "hole:5") == 0, "MS-20: unsealed: munmap of the pair: 0 (%s)",
		       around(b));
	cleanup(b);
}

static void test_mmap_fixed(int sealed)
{
	char *b = setup(PROT_READ | PROT_WRITE, sealed);
	char before[512];
	void *r;

	strcpy(before, around(b));
	errno = 0;
	r = anon(b, 3 * PAGE, PROT_READ, MAP_FIXED);
	tap_ok(sealed ? r == MAP_FAILED && errno == EPERM && unchanged(b, before, 1) :
			r == b && all_bytes(b, 3 * PAGE, 0) && strcmp(around(b), "hole:1 r--p:3 hole:1") == 0,
	       "MS-21: %s: mmap(MAP_FIXED) over it: %s (errno %d, %s)", tag(sealed),
	       sealed ? "EPERM, unchanged" : "replaced", errno, around(b));
	if (!sealed) {
		munmap(b, 3 * PAGE);
		b = setup(PROT_READ | PROT_WRITE, 0);
	}
	errno = 0;
	r = anon(b - PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	tap_ok(sealed ? r == MAP_FAILED && errno == EPERM && unchanged(b, before, 1) : r == b - PAGE,
	       "MS-21: %s: mmap(MAP_FIXED) over [hole][first page]: %s, the hole %s (errno %d, %s)", tag(sealed),
	       sealed ? "EPERM" : "mapped", sealed ? "stays a hole" : "filled", errno, around(b));
	if (!sealed)
		munmap(b - PAGE, PAGE);
	errno = 0;
	r = anon(b + PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED_NOREPLACE);
	tap_ok(r == MAP_FAILED && errno == EEXIST && (!sealed || unchanged(b, before, 1)),
	       "MS-22: %s: MAP_FIXED_NOREPLACE over it: EEXIST (errno %d)", tag(sealed), errno);
	cleanup(b);
}

/*
 * MS-21 comes before the huge-page reservation, as in Linux's
 * mmap_region(): MAP_FIXED | MAP_HUGETLB over a range holding a sealed
 * page, with no huge page free, is EPERM (the seal), not ENOMEM (the pool).
 */
static void test_mmap_fixed_hugetlb(void)
{
	long kb = meminfo("Hugepagesize"), free_pages = meminfo("HugePages_Free");
	unsigned long huge = (unsigned long)kb * 1024;
	char *r, *a;
	void *m;

	if (kb <= 0 || free_pages != 0) {
		tap_skip("MS-21: MAP_HUGETLB over a sealed page: needs an empty pool (%ld free)", free_pages);
		return;
	}
	r = anon(NULL, 2 * huge, PROT_READ | PROT_WRITE, 0);
	if (r == MAP_FAILED) {
		tap_skip("MS-21: MAP_HUGETLB over a sealed page: no room for %lu kB", 2 * huge / 1024);
		return;
	}
	a = (char *)(((unsigned long)r + huge - 1) & ~(huge - 1));
	errno = 0;
	tap_ok(do_mseal(a + PAGE, PAGE, 0) == 0, "MS-21: seal one page inside a huge-page-aligned range");
	errno = 0;
	m = anon(a, huge, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_HUGETLB);
	tap_ok(m == MAP_FAILED && errno == EPERM,
	       "MS-21: mmap(MAP_FIXED | MAP_HUGETLB) over it with no huge page free: EPERM before the "
	       "pool's ENOMEM (errno %d)", errno);
	munmap(r, (size_t)(a + PAGE - r));	/* all but the sealed page (it stays until exit) */
	munmap(a + 2 * PAGE, (size_t)(r + 2 * huge - (a + 2 * PAGE)));
}

static void test_mremap(int sealed)
{
	char *b = setup(PROT_READ | PROT_WRITE, sealed);
	char *dst = hole(6);	/* taken after setup(), so it cannot overlap */
	char before[512];
	void *r;

	strcpy(before, around(b));
	errno = 0;
	r = mremap(b, 3 * PAGE, 3 * PAGE, 0);
	tap_ok(sealed ? r == MAP_FAILED && errno == EPERM && unchanged(b, before, 1) : r == b,
	       "MS-23: %s: mremap to the same size: %s (errno %d)", tag(sealed), sealed ? "EPERM" : "0", errno);
	errno = 0;
	r = mremap(b, 3 * PAGE, 2 * PAGE, 0);
	tap_ok(sealed ? r == MAP_FAILED && errno == EPERM && unchanged(b, before, 1) :
			r == b && strcmp(around(b), "hole:1 rw-p:2 hole:2") == 0,
	       "MS-23: %s: mremap shrinking: %s (errno %d, %s)", tag(sealed), sealed ? "EPERM, unchanged" : "shrunk",
	       errno, around(b));
	errno = 0;
	r = mremap(b, sealed ? 3 * PAGE : 2 * PAGE, 4 * PAGE, 0);
	tap_ok(sealed ? r == MAP_FAILED && errno == EPERM && unchanged(b, before, 1) :
			r == b && strcmp(around(b), "hole:1 rw-p:4") == 0,
	       "MS-23: %s: mremap growing in place: %s (errno %d, %s)", tag(sealed), sealed ? "EPERM, unchanged" : "grown",
	       errno, around(b));
	errno = 0;
	r = mremap(b, sealed ? 3 * PAGE : 4 * PAGE, sealed ? 3 * PAGE : 4 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	tap_ok(sealed ? r == MAP_FAILED && errno == EPERM && unchanged(b, before, 1) && strcmp(shape(dst, dst + 6 * PAGE), "hole:6") == 0 :
			r == dst && all_bytes(dst, 2 * PAGE, PAT) && strcmp(shape(b, b + 3 * PAGE), "hole:3") == 0,
	       "MS-23: %s: mremap moving it (MREMAP_FIXED): %s (errno %d)", tag(sealed), sealed ? "EPERM, unchanged" : "moved",
	       errno);
	if (!sealed) {
		munmap(dst, 4 * PAGE);
		b = setup(PROT_READ | PROT_WRITE, 0);
		dst = hole(6);
	}
	errno = 0;
	r = mremap(b, 3 * PAGE, 3 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, dst);
	tap_ok(sealed ? r == MAP_FAILED && errno == EPERM && unchanged(b, before, 1) :
			r == dst && all_bytes(dst, 3 * PAGE, PAT) && all_bytes(b, 3 * PAGE, 0),
	       "MS-23: %s: mremap with MREMAP_DONTUNMAP: %s (errno %d)", tag(sealed), sealed ? "EPERM, unchanged" : "moved",
	       errno);
	if (!sealed)
		munmap(dst, 3 * PAGE);
	cleanup(b);
}

/* MS-24: the destination of MREMAP_FIXED is sealed; the source is not. */
static void test_mremap_dst(int sealed)
{
	char *dst = setup(PROT_READ | PROT_WRITE, sealed);
	char *src = anon(NULL, PAGE, PROT_READ | PROT_WRITE, 0);
	char before[512];
	void *r;

	memset(src, 0x11, PAGE);
	strcpy(before, around(dst));
	errno = 0;
	r = mremap(src, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst + PAGE);
	tap_ok(sealed ? r == MAP_FAILED && errno == EPERM && unchanged(dst, before, 1) && all_bytes(src, PAGE, 0x11) :
			r == dst + PAGE && all_bytes(dst + PAGE, PAGE, 0x11) && all_bytes(dst, PAGE, PAT),
	       "MS-24: %s destination: mremap(MREMAP_FIXED) onto it: %s (errno %d)", tag(sealed),
	       sealed ? "EPERM, both unchanged" : "moved", errno);
	if (sealed)
		munmap(src, PAGE);
	cleanup(dst);
}

static void test_mprotect(int sealed)
{
	char *b = setup(PROT_READ | PROT_WRITE, sealed);
	char before[512];
	long r;

	strcpy(before, around(b));
	errno = 0;
	r = mprotect(b, 3 * PAGE, PROT_READ | PROT_WRITE);
	tap_ok(sealed ? failed(r, EPERM) && unchanged(b, before, 1) : r == 0,
	       "MS-25: %s: mprotect to the same protection: %s (errno %d)", tag(sealed), sealed ? "EPERM" : "0", errno);
	errno = 0;
	r = mprotect(b + PAGE, PAGE, PROT_READ);
	tap_ok(sealed ? failed(r, EPERM) && unchanged(b, before, 1) && can_write(b + PAGE) :
			r == 0 && strcmp(around(b), "hole:1 rw-p:1 r--p:1 rw-p:1 hole:1") == 0 && !can_write(b + PAGE),
	       "MS-25: %s: mprotect of the middle page to read-only: %s (errno %d, %s)", tag(sealed),
	       sealed ? "EPERM, still writable" : "split, read-only", errno, around(b));
	errno = 0;
	r = mprotect(b, PAGE, 0x40);
	tap_ok(failed(r, EINVAL), "MS-25: %s: an invalid prot: EINVAL (checked before the seal) (errno %d)", tag(sealed),
	       errno);
	cleanup(b);
}

/* mprotect over [unsealed][sealed]: the unsealed VMA has changed before the EPERM. */
static void test_mprotect_pair(int sealed)
{
	char *b = setup(PROT_READ | PROT_WRITE, 0);
	long r;

	if (sealed)
		do_mseal(b + 2 * PAGE, PAGE, 0);
	errno = 0;
	r = mprotect(b, 3 * PAGE, PROT_READ);
	if (sealed)
		tap_ok(failed(r, EPERM) && !can_write(b) && can_write(b + 2 * PAGE) &&
			       strcmp(around(b), "hole:1 r--p:2 rw-p:1 hole:1") == 0,
		       "MS-25: mprotect over [unsealed][sealed]: EPERM, but the unsealed part is already read-only "
		       "(errno %d, %s)", errno, around(b));
	else
		tap_ok(r == 0 && strcmp(around(b), "hole:1 r--p:3 hole:1") == 0,
		       "MS-25: unsealed: mprotect of the pair: 0 (%s)", around(b));
	cleanup(b);
}

struct advice {
	int adv;
	const char *name;
	int discard;	/* in the MS-27 set */
	int unsealed_err;	/* errno on unsealed read-only private anonymous memory, or 0 */
};

static const struct advice advices[] = {
	{ MADV_DONTNEED, "MADV_DONTNEED", 1, 0 },
	{ MADV_FREE, "MADV_FREE", 1, 0 },
	{ MADV_DONTNEED_LOCKED, "MADV_DONTNEED_LOCKED", 1, 0 },
	{ MADV_REMOVE, "MADV_REMOVE", 1, EINVAL },
	{ MADV_DONTFORK, "MADV_DONTFORK", 1, 0 },
	{ MADV_WIPEONFORK, "MADV_WIPEONFORK", 1, 0 },
	{ MADV_GUARD_INSTALL, "MADV_GUARD_INSTALL", 1, 0 },
	{ MADV_NORMAL, "MADV_NORMAL", 0, 0 },
	{ MADV_RANDOM, "MADV_RANDOM", 0, 0 },
	{ MADV_SEQUENTIAL, "MADV_SEQUENTIAL", 0, 0 },
	{ MADV_WILLNEED, "MADV_WILLNEED", 0, 0 },
	{ MADV_DOFORK, "MADV_DOFORK", 0, 0 },
	{ MADV_KEEPONFORK, "MADV_KEEPONFORK", 0, 0 },
	{ MADV_DONTDUMP, "MADV_DONTDUMP", 0, 0 },
	{ MADV_DODUMP, "MADV_DODUMP", 0, 0 },
	{ MADV_COLD, "MADV_COLD", 0, 0 },
	{ MADV_PAGEOUT, "MADV_PAGEOUT", 0, 0 },
	{ MADV_POPULATE_READ, "MADV_POPULATE_READ", 0, 0 },
	{ MADV_GUARD_REMOVE, "MADV_GUARD_REMOVE", 0, 0 },
};

/* MS-26, MS-27: every advice on read-only private anonymous memory. */
static void test_madvise_ro(int sealed)
{
	for (size_t i = 0; i < sizeof(advices) / sizeof(advices[0]); i++) {
		const struct advice *a = &advices[i];
		char *b;
		char before[512];
		long r;
		int want_err = sealed && a->discard ? EPERM : a->unsealed_err;

		if (!guards && (a->adv == MADV_GUARD_INSTALL || a->adv == MADV_GUARD_REMOVE)) {
			tap_skip("MS-27: %s: %s: this kernel has no guard regions", tag(sealed), a->name);
			continue;
		}
		b = setup(PROT_READ, sealed);
		strcpy(before, around(b));
		errno = 0;
		r = madvise(b, 3 * PAGE, a->adv);
		tap_ok(want_err ? failed(r, want_err) : r == 0,
		       "MS-27: %s read-only anonymous memory: %s: %s (errno %d)", tag(sealed), a->name,
		       want_err == EPERM ? "EPERM" : want_err ? "EINVAL" : "0", errno);
		if (sealed && a->discard)
			tap_ok(unchanged(b, before, 1), "MS-26: %s refused: the data is still there", a->name);
		cleanup(b);
	}
}

static void test_madvise_other(int sealed)
{
	char *b = setup(PROT_READ | PROT_WRITE, sealed);
	char *s;
	long r;

	errno = 0;
	r = madvise(b, 3 * PAGE, MADV_DONTNEED);
	tap_ok(r == 0 && all_bytes(b, 3 * PAGE, 0),
	       "MS-27: %s writable anonymous memory: MADV_DONTNEED is allowed, the pages read as zero (errno %d)",
	       tag(sealed), errno);
	cleanup(b);

	b = setup(PROT_NONE, sealed);
	errno = 0;
	r = madvise(b, 3 * PAGE, MADV_DONTNEED);
	tap_ok(sealed ? failed(r, EPERM) : r == 0, "MS-27: %s PROT_NONE anonymous memory: MADV_DONTNEED: %s (errno %d)",
	       tag(sealed), sealed ? "EPERM" : "0", errno);
	cleanup(b);

	s = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	memset(s, PAT, PAGE);
	mprotect(s, PAGE, PROT_READ);
	if (sealed)
		do_mseal(s, PAGE, 0);
	errno = 0;
	r = madvise(s, PAGE, MADV_DONTNEED);
	tap_ok(r == 0 && all_bytes(s, PAGE, PAT),
	       "MS-27: %s read-only MAP_SHARED anonymous memory: MADV_DONTNEED: 0, the shared data stays (errno %d)",
	       tag(sealed), errno);
	if (!sealed)
		munmap(s, PAGE);
}

/* madvise over [unsealed RO][sealed RO]: the first part is already discarded. */
static void test_madvise_pair(int sealed)
{
	char *b = setup(PROT_READ, 0);
	long r;

	if (sealed)
		do_mseal(b + 2 * PAGE, PAGE, 0);
	errno = 0;
	r = madvise(b, 3 * PAGE, MADV_DONTNEED);
	if (sealed)
		tap_ok(failed(r, EPERM) && all_bytes(b, 2 * PAGE, 0) && all_bytes(b + 2 * PAGE, PAGE, PAT),
		       "MS-26: MADV_DONTNEED over [unsealed][sealed] read-only: EPERM, the unsealed part was discarded "
		       "(errno %d)", errno);
	else
		tap_ok(r == 0 && all_bytes(b, 3 * PAGE, 0), "MS-26: unsealed: MADV_DONTNEED of the pair: 0, all zero");
	cleanup(b);
}

/* MS-32: advice that is not a discard still splits a sealed VMA; both pieces stay sealed. */
static void test_madvise_split(void)
{
	char *b = setup(PROT_READ | PROT_WRITE, 1);

	tap_ok(madvise(b, PAGE, MADV_DONTFORK) == 0 && strcmp(around(b), "hole:1 rw-p:1 rw-p:2 hole:1") == 0 &&
		       vm_flag(b, "sl") == 1 && vm_flag(b + PAGE, "sl") == 1,
	       "MS-32: MADV_DONTFORK on the first page of sealed writable memory splits it, both pieces sealed (%s)",
	       around(b));
}

/* MS-33, in a child (glibc's malloc keeps its own idea of the break). */
static void test_brk(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		unsigned long cur = (unsigned long)syscall(SYS_brk, 0);
		unsigned long top = (cur + 3 * PAGE) & ~(PAGE - 1);
		int bits = 0;

		if ((unsigned long)syscall(SYS_brk, top) != top)
			_exit(100);
		if (do_mseal((void *)(top - PAGE), PAGE, 0) != 0)
			_exit(101);
		if ((unsigned long)syscall(SYS_brk, top - 2 * PAGE) != top)
			bits |= 1;	/* shrinking over the sealed page must fail */
		if (!can_write((void *)(top - PAGE)))
			bits |= 2;
		if ((unsigned long)syscall(SYS_brk, top + 2 * PAGE) != top + 2 * PAGE)
			bits |= 4;	/* growing works */
		if (!can_write((void *)(top + PAGE)) || vm_flag((void *)(top + PAGE), "sl") != 0 ||
		    strcmp(shape((void *)(top - PAGE), (void *)(top + 2 * PAGE)), "rw-p:1 rw-p:2") != 0)
			bits |= 8;	/* a separate, unsealed VMA */
		_exit(bits);
	}
	st = child_status(pid);
	tap_ok(st == 0 || st == 8, "MS-33: brk shrinking over a sealed heap page returns the old break, growing works "
	       "(child status %d)", st);
	tap_ok(st == 0, "MS-33: the grown part is a separate unsealed VMA (child status %d)", st);
}

int main(void)
{
	char *g;

	tap_init();
	probe_init();
	g = anon(NULL, PAGE, PROT_READ | PROT_WRITE, 0);
	guards = madvise(g, PAGE, MADV_GUARD_INSTALL) == 0;
	munmap(g, PAGE);
	if (on_teachos())
		tap_ok(guards, "our kernel has guard regions (MADV_GUARD_INSTALL)");
	else if (!guards)
		tap_diag("this kernel has no MADV_GUARD_INSTALL (Linux < 6.13): those cases are skipped");

	test_args();
	test_seal_shape();
	for (int sealed = 0; sealed <= 1; sealed++) {
		test_munmap(sealed);
		test_munmap_pair(sealed);
		test_mmap_fixed(sealed);
		test_mremap(sealed);
		test_mremap_dst(sealed);
		test_mprotect(sealed);
		test_mprotect_pair(sealed);
		test_madvise_ro(sealed);
		test_madvise_other(sealed);
		test_madvise_pair(sealed);
	}
	test_madvise_split();
	test_mmap_fixed_hugetlb();
	test_brk();
	return tap_done();
}
