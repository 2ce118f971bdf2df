/* mm_mremap.c - mremap(2): parameter checks in Linux's order (MR-1..MR-5,
 * MR-8, MR-12, MR-14), resizing in place (MR-16..MR-18), moving with
 * MREMAP_MAYMOVE and MREMAP_FIXED (MR-9, MR-10), MREMAP_DONTUNMAP (MR-20),
 * the end of a shared anonymous mapping's object (MR-23).
 *
 * Rows not tested here:
 *   MR-4   map_count + 2 >= max_map_count - 3: no map-count limit.
 *   MR-6   sealed source: in mm_mseal.c.
 *   MR-7   hugetlb: in hugetlb.c (a MREMAP_FIXED move).
 *   MR-13  DONTUNMAP on VM_DONTEXPAND/VM_PFNMAP: no such mappings.
 *   MR-15  pgoff overflow, mlock limits, may_expand_vm (RLIMIT_AS/DATA).
 *   MR-19  mlocked areas: no mlock.
 *   MR-21  the undo of a failed move: cannot be provoked from user space.
 *   MR-22  multi-VMA moves (Linux >= 6.17); 6.12 refuses them (MR-14).
 */
#include "mm_util.h"

static void fill(char *p, size_t pages)
{
	for (size_t i = 0; i < pages; i++)
		memset(p + i * PAGE, 'A' + (int)i, PAGE);
}

static int check(const char *p, size_t pages)
{
	for (size_t i = 0; i < pages; i++)
		if (!all_bytes(p + i * PAGE, PAGE, (unsigned char)('A' + i)))
			return 0;
	return 1;
}

static void test_args(void)
{
	char *p = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0), *h = hole(2);
	void *r;

	errno = 0;
	r = mremap(p, PAGE, PAGE, 8);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MR-1: flags 8: EINVAL (errno %d)", errno);
	errno = 0;
	r = mremap(p + 1, PAGE, PAGE, 0);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MR-2: unaligned old address: EINVAL (errno %d)", errno);
	errno = 0;
	r = mremap(h + 1, PAGE, PAGE, 0);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MR-2: unaligned and unmapped: EINVAL comes first (errno %d)", errno);
	errno = 0;
	r = mremap(p, PAGE, 0, MREMAP_MAYMOVE);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MR-3: new length 0: EINVAL (errno %d)", errno);
	errno = 0;
	r = mremap(p, PAGE, (size_t)-1, MREMAP_MAYMOVE);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MR-3: a new length whose rounding wraps: EINVAL (errno %d)", errno);
	errno = 0;
	r = mremap(p, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, h + 1);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MR-4: MREMAP_FIXED to an unaligned address: EINVAL (errno %d)", errno);
	errno = 0;
	r = mremap(p, PAGE, PAGE, MREMAP_FIXED, h);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MR-4: MREMAP_FIXED without MREMAP_MAYMOVE: EINVAL (errno %d)", errno);
	errno = 0;
	r = mremap(p, PAGE, PAGE, MREMAP_DONTUNMAP, h);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MR-4: MREMAP_DONTUNMAP without MREMAP_MAYMOVE: EINVAL (errno %d)",
	       errno);
	errno = 0;
	r = mremap(p, PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, h);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MR-4: MREMAP_DONTUNMAP with a different size: EINVAL (errno %d)",
	       errno);
	errno = 0;
	r = mremap(h, PAGE, PAGE, MREMAP_MAYMOVE);
	tap_ok(r == MAP_FAILED && errno == EFAULT, "MR-5: nothing mapped at the old address: EFAULT (errno %d)", errno);
	errno = 0;
	r = mremap(h, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, h + 1);
	tap_ok(r == MAP_FAILED && errno == EFAULT,
	       "MR-5, MR-4: nothing mapped at the old address and an unaligned new one: EFAULT, the lookup first (errno %d)",
	       errno);
	errno = 0;
	r = mremap(p, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)-PAGE);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MR-8: a new address above the user address space: EINVAL (errno %d)",
	       errno);
	errno = 0;
	r = mremap(p, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, p + PAGE);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MR-8: new range overlapping the old one: EINVAL (errno %d)", errno);
	{	/* MR-8: the overlap is with the old range as given: growing onto its own tail is a move */
		char *q = anon(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, 0), *m;

		munmap(q + PAGE, 2 * PAGE);
		q[0] = 42;
		errno = 0;
		m = mremap(q, PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, q + PAGE);
		tap_ok(m == q + PAGE && m[0] == 42 && strcmp(shape(q, q + 3 * PAGE), "hole:1 rw-p:2") == 0,
		       "MR-8: MREMAP_FIXED growing one page to two at the page after it: moved (errno %d, %s)", errno,
		       shape(q, q + 3 * PAGE));
		munmap(q, 3 * PAGE);
	}
	errno = 0;
	r = mremap(p, 0, PAGE, MREMAP_MAYMOVE);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MR-12: old length 0 on private memory: EINVAL (errno %d)", errno);
	tap_ok(strcmp(shape(p, p + 2 * PAGE), "rw-p:2") == 0, "after the refused calls the mapping is intact");
	munmap(p, 2 * PAGE);
}

/* MR-14: the old range must lie inside one VMA. */
static void test_crossing(void)
{
	char *h = hole(8), *b = h + PAGE, *dst = hole(4);
	void *r;

	anon(b, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	anon(b + 2 * PAGE, PAGE, PROT_READ, MAP_FIXED);
	errno = 0;
	r = mremap(b, 3 * PAGE, 5 * PAGE, MREMAP_MAYMOVE);
	tap_ok(r == MAP_FAILED && errno == EFAULT, "MR-14: growing a range that spans two VMAs: EFAULT (errno %d)", errno);
	errno = 0;
	r = mremap(b, 3 * PAGE, 3 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	tap_ok(r == MAP_FAILED && errno == EFAULT, "MR-14: moving a range that spans two VMAs: EFAULT (errno %d)", errno);
	tap_ok(strcmp(shape(h, h + 5 * PAGE), "hole:1 rw-p:2 r--p:1 hole:1") == 0 &&
		       strcmp(shape(dst, dst + 4 * PAGE), "hole:4") == 0,
	       "nothing moved (%s)", shape(h, h + 5 * PAGE));
	munmap(h, 8 * PAGE);
}

static void test_resize(void)
{
	char *h = hole(8), *b = h + PAGE, *r;

	anon(b, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	fill(b, 2);
	r = mremap(b, 2 * PAGE, 2 * PAGE, 0);
	tap_ok(r == b && check(b, 2), "MR-16: same size: the old address, nothing changes");
	r = mremap(b, 2 * PAGE, 4 * PAGE, 0);
	tap_ok(r == b && check(b, 2) && all_bytes(b + 2 * PAGE, 2 * PAGE, 0) &&
		       strcmp(shape(h, h + 8 * PAGE), "hole:1 rw-p:4 hole:3") == 0,
	       "MR-18: growing in place: same address, data kept, new pages zero (%s)", shape(h, h + 8 * PAGE));
	r = mremap(b, 4 * PAGE, PAGE + 1, 0);
	tap_ok(r == b && check(b, 1) && strcmp(shape(h, h + 8 * PAGE), "hole:1 rw-p:2 hole:5") == 0,
	       "MR-17: shrinking (to a length rounded up to 2 pages): the tail is unmapped (%s)", shape(h, h + 8 * PAGE));
	anon(b + 3 * PAGE, PAGE, PROT_READ, MAP_FIXED);
	errno = 0;
	r = mremap(b, 2 * PAGE, 4 * PAGE, 0);
	tap_ok(r == MAP_FAILED && errno == ENOMEM && strcmp(shape(h, h + 8 * PAGE), "hole:1 rw-p:2 hole:1 r--p:1 hole:3") == 0,
	       "MR-18: growing into a neighbour without MREMAP_MAYMOVE: ENOMEM, nothing changed (errno %d)", errno);
	errno = 0;
	r = mremap(b, PAGE, 2 * PAGE, 0);
	tap_ok(r == MAP_FAILED && errno == ENOMEM,
	       "MR-18: growing a range that does not end its VMA, without MREMAP_MAYMOVE: ENOMEM (errno %d)", errno);
	r = mremap(b, 2 * PAGE, 4 * PAGE, MREMAP_MAYMOVE);
	tap_ok(r != MAP_FAILED && r != b && check(r, 1) && all_bytes(r + 2 * PAGE, 2 * PAGE, 0) &&
		       strcmp(shape(b, b + 4 * PAGE), "hole:3 r--p:1") == 0,
	       "MR-18: with MREMAP_MAYMOVE it moves: data kept, the old range unmapped (%s)", shape(b, b + 4 * PAGE));
	munmap(r, 4 * PAGE);
	munmap(h, 8 * PAGE);

	/* moving a part out of the middle of a VMA */
	h = hole(6);
	b = h + PAGE;
	anon(b, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	fill(b, 4);
	r = mremap(b + PAGE, PAGE, 3 * PAGE, MREMAP_MAYMOVE);
	tap_ok(r != MAP_FAILED && all_bytes(r, PAGE, 'B') && strcmp(shape(b, b + 4 * PAGE), "rw-p:1 hole:1 rw-p:2") == 0 &&
		       all_bytes(b + 2 * PAGE, PAGE, 'C'),
	       "MR-18: growing a middle page with MREMAP_MAYMOVE moves just it out (%s)", shape(b, b + 4 * PAGE));
	munmap(r, 3 * PAGE);
	munmap(h, 6 * PAGE);
}

static void test_fixed(void)
{
	char *src = anon(NULL, 3 * PAGE, PROT_READ, 0), *h = hole(5), *dst = h + PAGE, *r;

	mprotect(src, 3 * PAGE, PROT_READ | PROT_WRITE);
	fill(src, 3);
	mprotect(src, 3 * PAGE, PROT_READ);
	anon(dst, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	memset(dst, 'z', 3 * PAGE);
	r = mremap(src, 3 * PAGE, 3 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	tap_ok(r == dst && check(dst, 3) && strcmp(shape(h, h + 5 * PAGE), "hole:1 r--p:3 hole:1") == 0 &&
		       strcmp(shape(src, src + 3 * PAGE), "hole:3") == 0,
	       "MR-9: MREMAP_FIXED onto a mapping replaces it; protection and data move, the source is gone (%s)",
	       shape(h, h + 5 * PAGE));
	tap_ok(!can_write(dst), "the moved pages are still read-only");

	src = anon(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, 0);
	fill(src, 3);
	r = mremap(src, 3 * PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, dst + PAGE);
	tap_ok(r == dst + PAGE && check(r, 1) && strcmp(shape(src, src + 3 * PAGE), "hole:3") == 0 &&
		       strcmp(shape(h, h + 5 * PAGE), "hole:1 r--p:1 rw-p:1 r--p:1 hole:1") == 0,
	       "MR-10: shrinking with MREMAP_FIXED: the tail is unmapped, the head moved (%s)", shape(h, h + 5 * PAGE));
	munmap(h, 5 * PAGE);
}

static void test_dontunmap(void)
{
	char *p = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0), *dst = hole(2), *r;

	fill(p, 2);
	r = mremap(p, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, dst);
	tap_ok(r == dst && check(dst, 2), "MR-20: MREMAP_DONTUNMAP moves the pages");
	tap_ok(strcmp(shape(p, p + 2 * PAGE), "rw-p:2") == 0 && all_bytes(p, 2 * PAGE, 0),
	       "MR-20: the old range stays mapped and reads as zero (%s)", shape(p, p + 2 * PAGE));
	p[0] = 5;
	tap_ok(p[0] == 5 && dst[0] == 'A', "MR-20: the two ranges are independent");
	r = mremap(dst, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	tap_ok(r != MAP_FAILED && check(r, 2) && all_bytes(dst, 2 * PAGE, 0),
	       "MR-20: with a new address of 0 (no MREMAP_FIXED) the kernel picks the place");
	munmap(p, 2 * PAGE);
	munmap(dst, 2 * PAGE);
	munmap(r, 2 * PAGE);
	/* a part of a VMA that is not locked: the old VMA stays whole (Linux
	 * 6.12 measured; a locked one is cut: mm_mlock.c) */
	p = anon(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, 0);
	dst = hole(1);
	fill(p, 3);
	r = mremap(p + PAGE, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, dst);
	tap_ok(r == dst && all_bytes(dst, PAGE, 'B') && strcmp(shape(p, p + 3 * PAGE), "rw-p:3") == 0 &&
		       all_bytes(p + PAGE, PAGE, 0) && all_bytes(p, PAGE, 'A') && all_bytes(p + 2 * PAGE, PAGE, 'C'),
	       "MR-20: MREMAP_DONTUNMAP of the middle page: moved, the old VMA stays whole (%s), the middle reads zero",
	       shape(p, p + 3 * PAGE));
	munmap(p, 3 * PAGE);
	munmap(dst, PAGE);
	/* shared memory: both ranges map the same object afterwards */
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	dst = hole(2);
	fill(p, 2);
	r = mremap(p, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, dst);
	tap_ok(r == dst && check(dst, 2) && check(p, 2),
	       "MR-20: MREMAP_DONTUNMAP of shared memory: the old range still reads the data");
	p[1] = 'x';
	dst[PAGE + 1] = 'y';
	tap_ok(dst[1] == 'x' && p[PAGE + 1] == 'y', "MR-20: and both ranges share it (%c %c)", dst[1], p[PAGE + 1]);
	munmap(p, 2 * PAGE);
	munmap(dst, 2 * PAGE);
}

static char *shared(size_t pages)
{
	return mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
}

/* MR-12: old_len 0 duplicates a shared mapping: a second mapping of the same pages. */
static void test_duplicate(void)
{
	char *s = shared(4), *h, *d, *d2, *f;

	fill(s, 4);
	d = mremap(s, 0, 2 * PAGE, MREMAP_MAYMOVE);
	tap_ok(d != MAP_FAILED && d != s && check(d, 2) && strcmp(shape(d, d + 2 * PAGE), "rw-s:2") == 0 &&
		       strcmp(shape(s, s + 4 * PAGE), "rw-s:4") == 0,
	       "MR-12: old length 0 on shared memory: a new mapping of its first pages, the old one kept (%s)",
	       d == MAP_FAILED ? "failed" : shape(d, d + 2 * PAGE));
	if (d == MAP_FAILED)
		d = NULL;
	if (d) {
		d[0] = 'x';
		s[PAGE + 1] = 'y';
	}
	tap_ok(d && s[0] == 'x' && d[PAGE + 1] == 'y', "MR-12: a write through either mapping is seen through the other");
	d2 = mremap(s + 2 * PAGE, 0, PAGE, MREMAP_MAYMOVE);
	tap_ok(d2 != MAP_FAILED && all_bytes(d2, PAGE, 'C'), "MR-12: a duplicate from the middle maps the middle page");
	h = hole(2);
	f = mremap(s + 3 * PAGE, 0, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, h);
	tap_ok(f == h && all_bytes(h, PAGE, 'D'), "MR-12: with MREMAP_FIXED the duplicate goes where asked");
	errno = 0;
	tap_ok(mremap(s, 0, PAGE, 0) == MAP_FAILED && errno == ENOMEM,
	       "MR-12: old length 0 without MREMAP_MAYMOVE: ENOMEM (errno %d)", errno);
	munmap(s, 4 * PAGE);
	tap_ok(d && d[0] == 'x' && all_bytes(d + PAGE + 2, PAGE - 2, 'B') && all_bytes(h, PAGE, 'D'),
	       "MR-12: the duplicates keep the pages after the original is unmapped");
	if (d)
		munmap(d, 2 * PAGE);
	if (d2 != MAP_FAILED)
		munmap(d2, PAGE);
	munmap(h, 2 * PAGE);

	/* pages nobody touched yet are shared as well */
	s = shared(2);
	d = mremap(s, 0, 2 * PAGE, MREMAP_MAYMOVE);
	if (d != MAP_FAILED)
		d[PAGE] = 'n';
	tap_ok(d != MAP_FAILED && s[PAGE] == 'n' && s[0] == 0, "MR-12: an untouched page is the same page in both");
	munmap(s, 2 * PAGE);
	if (d != MAP_FAILED)
		munmap(d, 2 * PAGE);
}

/*
 * MR-20: after MREMAP_DONTUNMAP the moved VMA placed right next to the old
 * one stays a VMA of its own: on Linux it keeps the page offset (the anon
 * identity) it had at the old place, which does not continue the old VMA's.
 * On Linux 6.12 that holds for a VMA that never had a page too.
 */
static void test_dontunmap_maps(void)
{
	static const int types[] = { MAP_PRIVATE, MAP_SHARED };
	char *h, *p, *r;

	for (int i = 0; i < 2; i++) {
		const char *kind = i ? "shared" : "private";
		const char *two = i ? "hole:1 rw-s:2 rw-s:2 hole:1" : "hole:1 rw-p:2 rw-p:2 hole:1";

		h = hole(6);
		p = h + PAGE;
		mmap(p, 2 * PAGE, PROT_READ | PROT_WRITE, types[i] | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		fill(p, 2);
		r = mremap(p, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP | MREMAP_FIXED, p + 2 * PAGE);
		tap_ok(r == p + 2 * PAGE && check(r, 2) && strcmp(shape(h, h + 6 * PAGE), two) == 0,
		       "MR-20: %s, moved to just above the old range: two VMAs (%s)", kind, shape(h, h + 6 * PAGE));
		munmap(h, 6 * PAGE);

		h = hole(6);
		p = h + 3 * PAGE;
		mmap(p, 2 * PAGE, PROT_READ | PROT_WRITE, types[i] | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		fill(p, 2);
		r = mremap(p, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP | MREMAP_FIXED, h + PAGE);
		tap_ok(r == h + PAGE && check(r, 2) && strcmp(shape(h, h + 6 * PAGE), two) == 0,
		       "MR-20: %s, moved to just below the old range: two VMAs (%s)", kind, shape(h, h + 6 * PAGE));
		munmap(h, 6 * PAGE);
	}
	h = hole(6);
	p = h + PAGE;
	anon(p, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	r = mremap(p, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP | MREMAP_FIXED, p + 2 * PAGE);
	tap_ok(r == p + 2 * PAGE && strcmp(shape(h, h + 6 * PAGE), "hole:1 rw-p:2 rw-p:2 hole:1") == 0,
	       "MR-20: private memory never touched, moved next to itself: two VMAs too (%s)", shape(h, h + 6 * PAGE));
	munmap(h, 6 * PAGE);
}

/*
 * MR-23: shared anonymous memory is an object as long as the mmap that
 * made it (Linux's shmem file). Growing the mapping, in place or moved, or
 * duplicating it longer gives pages past that end: SIGBUS there.
 */
static void test_shared_end(void)
{
	char *s = shared(2), *g, *d;
	int in, past, sig, lk;
	pid_t pid;

	fill(s, 2);
	g = mremap(s, 2 * PAGE, 4 * PAGE, MREMAP_MAYMOVE);
	in = g != MAP_FAILED && check(g, 2) && can_write(g + PAGE);
	past = g != MAP_FAILED && !can_read(g + 2 * PAGE);
	sig = probe_sig;
	tap_ok(in && past && sig == SIGBUS && can_read(g + 2 * PAGE - 1) && !can_write(g + 3 * PAGE),
	       "MR-23: a grown shared mapping keeps its pages; past the object's end SIGBUS (signal %d)", sig);
	if (g != MAP_FAILED) {
		pid = fork();
		if (pid == 0)
			_exit(can_read(g + PAGE) && !can_read(g + 3 * PAGE) && probe_sig == SIGBUS ? 0 : 1);
		tap_ok(child_status(pid) == 0, "MR-23: a fork child of it gets SIGBUS there too");
		errno = 0;
		lk = syscall(SYS_mlock, g, 4 * PAGE);
		tap_ok(lk == -1 && errno == ENOMEM, "MR-23: mlock over the part past the end: ENOMEM (%d, errno %d)", lk,
		       errno);
		syscall(SYS_munlock, g, 4 * PAGE);
		errno = 0;
		lk = madvise(g, 4 * PAGE, MADV_POPULATE_WRITE);
		tap_ok(lk == -1 && errno == EFAULT, "MR-23: MADV_POPULATE_WRITE over it: EFAULT (%d, errno %d)", lk, errno);
		munmap(g, 4 * PAGE);
	}

	s = shared(2);
	fill(s, 2);
	d = mremap(s, 0, 3 * PAGE, MREMAP_MAYMOVE);
	in = d != MAP_FAILED && check(d, 2);
	past = d != MAP_FAILED && !can_write(d + 2 * PAGE);
	sig = probe_sig;
	tap_ok(in && past && sig == SIGBUS, "MR-23: a duplicate longer than the object: SIGBUS past its end (signal %d)",
	       sig);
	munmap(s, 2 * PAGE);
	if (d != MAP_FAILED)
		munmap(d, 3 * PAGE);
}

int main(void)
{
	tap_init();
	probe_init();
	test_args();
	test_crossing();
	test_resize();
	test_fixed();
	test_dontunmap();
	test_duplicate();
	test_dontunmap_maps();
	test_shared_end();
	return tap_done();
}
