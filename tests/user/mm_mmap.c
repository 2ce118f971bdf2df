/* mm_mmap.c - anonymous mmap(2): the argument checks and their order, the
 * kinds of anonymous mapping, placement, MAP_FIXED and MAP_FIXED_NOREPLACE,
 * MAP_POPULATE, MAP_GROWSDOWN (rows MM-1..MM-16), anonymous MAP_HUGETLB's
 * type rules (MM-17) and the prot bits mmap ignores (MM-18).
 *
 * Rows not tested here:
 *   MM-1   only the fd rules of anonymous memory and EBADF: no file mappings
 *          yet (MAP_HUGETLB on a file needs hugetlbfs).
 *   MM-2   MAP_HUGETLB sizes: in hugetlb.c (2 MiB and 1 GiB pages).
 *   MM-4   READ_IMPLIES_EXEC personality: no personality(2).
 *   MM-6   max_map_count: no map-count limit.
 *   MM-7   execute-only pkeys: no pkeys.
 *   MM-10  MAP_LOCKED limits: no mlock.
 *   MM-12  vm.overcommit_memory=2: no overcommit accounting.
 */
#include "mm_util.h"

#ifndef MAP_HUGETLB
#define MAP_HUGETLB 0x40000
#endif

static void test_args(void)
{
	char *p;

	errno = 0;
	tap_ok(anon(NULL, 0, PROT_READ, 0) == MAP_FAILED && errno == EINVAL, "MM-3: length 0: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(anon(NULL, (size_t)-1, PROT_READ, 0) == MAP_FAILED && errno == ENOMEM,
	       "MM-6: a length whose page rounding wraps: ENOMEM (errno %d)", errno);
	if (sizeof(long) == 8) {	/* MM-6: a file range past 2^63 - 1 (the offset is 32 bits on 32-bit arches) */
		int fd = (int)syscall(SYS_memfd_create, "mm6", 0);
		off_t big = (off_t)(((unsigned long)-1 >> 1) & ~(unsigned long)(PAGE - 1));

		errno = 0;
		p = fd >= 0 ? mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, big) : MAP_FAILED;
		tap_ok(p == MAP_FAILED && errno == EOVERFLOW,
		       "MM-6: a memfd mapping whose end passes the largest file offset: EOVERFLOW (errno %d)", errno);
		errno = 0;
		p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_NORESERVE, -1,
			 (off_t)-PAGE);
		tap_ok(p == MAP_FAILED && errno == EOVERFLOW,
		       "MM-6: anonymous MAP_HUGETLB is a file mapping: an offset past the largest: EOVERFLOW (errno %d)",
		       errno);
		if (fd >= 0)
			close(fd);
	}
	errno = 0;
	tap_ok(anon(NULL, (size_t)-PAGE, PROT_READ, 0) == MAP_FAILED && errno == ENOMEM,
	       "MM-8: a length larger than the address space: ENOMEM (errno %d)", errno);
	errno = 0;
	p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, -1, 0);
	tap_ok(p == MAP_FAILED && errno == EBADF, "MM-1: no MAP_ANONYMOUS and fd -1: EBADF (errno %d)", errno);
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, 12345, 0);
	tap_ok(p != MAP_FAILED && all_bytes(p, PAGE, 0), "MM-1: with MAP_ANONYMOUS the fd is ignored (12345)");
	munmap(p, PAGE);

	/* MM-11: the mapping type */
	static const struct { int type; const char *name; } bad[] = {
		{ 0, "neither MAP_PRIVATE nor MAP_SHARED" },
		{ MAP_SHARED_VALIDATE, "MAP_SHARED_VALIDATE" },
		{ 0x0f, "type 0x0f" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		p = mmap(NULL, PAGE, PROT_READ, bad[i].type | MAP_ANONYMOUS, -1, 0);
		tap_ok(p == MAP_FAILED && errno == EINVAL, "MM-11: anonymous %s: EINVAL (errno %d)", bad[i].name, errno);
	}
	errno = 0;
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED | MAP_ANONYMOUS | MAP_GROWSDOWN, -1, 0);
	tap_ok(p == MAP_FAILED && errno == EINVAL, "MM-11, MM-15: MAP_SHARED with MAP_GROWSDOWN: EINVAL (errno %d)", errno);
	errno = 0;
	p = mmap(NULL, PAGE, PROT_READ, MAP_DROPPABLE | MAP_ANONYMOUS | MAP_GROWSDOWN, -1, 0);
	tap_ok(p == MAP_FAILED && errno == EINVAL, "MM-11: MAP_DROPPABLE with MAP_GROWSDOWN: EINVAL (errno %d)", errno);
	errno = 0;
	p = mmap(NULL, PAGE, PROT_READ, MAP_DROPPABLE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	tap_ok(p == MAP_FAILED && errno == EINVAL, "MM-11: MAP_DROPPABLE with MAP_LOCKED: EINVAL (errno %d)", errno);
}

#ifndef MAP_SYNC
#define MAP_SYNC 0x80000
#endif

/* The order of Linux's checks where several are wrong at once. */
static void test_order(void)
{
	char *p = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0), *r;
	int fds[2];

	errno = 0;
	r = mmap(NULL, HUGE_LEN, PROT_READ, MAP_ANONYMOUS, -1, 0);
	tap_ok(r == MAP_FAILED && errno == ENOMEM,
	       "MM-8, MM-11: a length beyond user space and no map type: ENOMEM, the length first (errno %d)", errno);
	errno = 0;
	r = mmap(p, PAGE, PROT_READ, MAP_FIXED_NOREPLACE | MAP_ANONYMOUS, -1, 0);
	tap_ok(r == MAP_FAILED && errno == EEXIST,
	       "MM-9, MM-11: MAP_FIXED_NOREPLACE over a mapping with no map type: EEXIST, the overlap first (errno %d)",
	       errno);
	errno = 0;
	r = mmap((void *)(HUGE_LEN + 1), PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	tap_ok(r == MAP_FAILED && errno == ENOMEM,
	       "MM-8: MAP_FIXED unaligned and past user space: ENOMEM, the end first (errno %d)", errno);
	if (pipe(fds) == 0) {
		errno = 0;
		r = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_HUGETLB, fds[0], 0);
		tap_ok(r == MAP_FAILED && errno == EINVAL,
		       "MM-1: MAP_HUGETLB on a file that is not hugetlbfs (a pipe): EINVAL, before the file's own checks (errno %d)",
		       errno);
		errno = 0;
		r = mmap(NULL, PAGE, PROT_READ, MAP_DROPPABLE, fds[0], 0);
		tap_ok(r == MAP_FAILED && errno == EINVAL,
		       "MM-11: MAP_DROPPABLE of a file (a pipe, which cannot be mapped): EINVAL, the type first (errno %d)",
		       errno);
		errno = 0;
		r = mmap(p, PAGE, PROT_READ, MAP_PRIVATE | MAP_FIXED_NOREPLACE, fds[0], 0);
		tap_ok(r == MAP_FAILED && errno == EEXIST,
		       "MM-9: MAP_FIXED_NOREPLACE of a pipe over a mapping: EEXIST, the placement before the file's ENODEV "
		       "(errno %d)", errno);
		errno = 0;
		r = mmap(p, PAGE, PROT_READ, 0x08 | MAP_FIXED_NOREPLACE, fds[0], 0);
		tap_ok(r == MAP_FAILED && errno == EEXIST,
		       "MM-9, MM-11: ... and with no valid map type: EEXIST, the placement before the type (errno %d)", errno);
		close(fds[0]);
		close(fds[1]);
	} else {
		tap_ok(0, "pipe for the MAP_HUGETLB fd point (errno %d)", errno);
	}
	munmap(p, 2 * PAGE);
}

/* MM-17: an anonymous MAP_HUGETLB mapping follows the type rules of a file mapping. */
static void test_hugetlb_type(void)
{
	int base = MAP_ANONYMOUS | MAP_HUGETLB | MAP_NORESERVE;	/* NORESERVE: maps without a pool */
	size_t len = 4UL << 20;	/* one or two huge pages on every target */
	char *r, want[32];

	errno = 0;
	r = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_GROWSDOWN | base, -1, 0);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MM-17: MAP_HUGETLB with MAP_GROWSDOWN: EINVAL (errno %d)", errno);
	if (r != MAP_FAILED)
		munmap(r, len);
	errno = 0;
	r = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED_VALIDATE | base, -1, 0);
	snprintf(want, sizeof(want), "rw-s:%lu", (unsigned long)(len / PAGE));
	tap_ok(r != MAP_FAILED && strcmp(shape(r, r + len), want) == 0,
	       "MM-17: MAP_SHARED_VALIDATE with MAP_HUGETLB maps a shared mapping (errno %d, %s)", errno,
	       r == MAP_FAILED ? "-" : shape(r, r + len));
	if (r != MAP_FAILED)
		munmap(r, len);
	errno = 0;
	r = mmap(NULL, len, PROT_READ, MAP_SHARED_VALIDATE | MAP_SYNC | base, -1, 0);
	tap_ok(r == MAP_FAILED && errno == EOPNOTSUPP,
	       "MM-17: MAP_SHARED_VALIDATE with MAP_HUGETLB and a flag hugetlbfs lacks (MAP_SYNC): EOPNOTSUPP (errno %d)",
	       errno);
	errno = 0;
	r = mmap(NULL, len, PROT_READ, MAP_DROPPABLE | base, -1, 0);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "MM-17: MAP_DROPPABLE with MAP_HUGETLB: EINVAL (errno %d)", errno);
}

/* MM-18: mmap ignores prot bits it does not know (mprotect does not). */
static void test_prot_bits(void)
{
	char *r = mmap(NULL, PAGE, PROT_READ | PROT_WRITE | 0x10000, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	tap_ok(r != MAP_FAILED && strcmp(shape(r, r + PAGE), "rw-p:1") == 0,
	       "MM-18: mmap with an unknown prot bit (0x10000): mapped rw-p (errno %d)", r == MAP_FAILED ? errno : 0);
	if (r != MAP_FAILED)
		munmap(r, PAGE);
	r = mmap(NULL, PAGE, PROT_READ | PROT_SEM, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tap_ok(r != MAP_FAILED && strcmp(shape(r, r + PAGE), "r--p:1") == 0, "MM-18: mmap with PROT_SEM: mapped r--p");
	if (r != MAP_FAILED)
		munmap(r, PAGE);
}

static void test_kinds(void)
{
	char *p = anon(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, 0);
	char *s = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *d = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_DROPPABLE | MAP_ANONYMOUS, -1, 0);

	tap_ok(p != MAP_FAILED && ((uintptr_t)p & (PAGE - 1)) == 0 && all_bytes(p, 4 * PAGE, 0),
	       "MM-11: MAP_PRIVATE: page aligned, zero-filled");
	tap_ok(s != MAP_FAILED && all_bytes(s, 4 * PAGE, 0) && strcmp(shape(s, s + 4 * PAGE), "rw-s:4") == 0,
	       "MM-11: MAP_SHARED: zero-filled, \"rw-s\" in /proc/self/maps (%s)", shape(s, s + 4 * PAGE));
	tap_ok(d != MAP_FAILED && all_bytes(d, 4 * PAGE, 0), "MM-11: MAP_DROPPABLE: zero-filled");
	memset(d, 3, 4 * PAGE);
	tap_ok(all_bytes(d, 4 * PAGE, 3), "MM-11: MAP_DROPPABLE memory is usable");
	tap_ok(strcmp(shape(p, p + 4 * PAGE), "rw-p:4") == 0, "MM-16: one VMA (%s)", shape(p, p + 4 * PAGE));
	munmap(p, 4 * PAGE);
	munmap(s, 4 * PAGE);
	munmap(d, 4 * PAGE);

	p = hole(3);
	p = anon(p, PAGE + 1, PROT_READ | PROT_WRITE, MAP_FIXED);
	tap_ok(p != MAP_FAILED && strcmp(shape(p, p + 3 * PAGE), "rw-p:2 hole:1") == 0 && can_write(p + 2 * PAGE - 1),
	       "MM-6: the length is rounded up to whole pages (%s)", shape(p, p + 3 * PAGE));
	munmap(p, 2 * PAGE);

	static const int prots[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE, PROT_READ | PROT_EXEC };
	static const char *const perms[] = { "---p:1", "r--p:1", "rw-p:1", "r-xp:1" };
	for (int i = 0; i < 4; i++) {
		p = anon(NULL, PAGE, prots[i], 0);
		tap_ok(p != MAP_FAILED && strcmp(shape(p, p + PAGE), perms[i]) == 0 &&
			       can_read(p) == (prots[i] != PROT_NONE) && can_write(p) == (i == 2),
		       "mmap with prot %d: %s, reads %s, writes %s (%s)", prots[i], perms[i],
		       prots[i] != PROT_NONE ? "work" : "fault", i == 2 ? "work" : "fault", shape(p, p + PAGE));
		munmap(p, PAGE);
	}
	p = anon(NULL, PAGE, PROT_READ | PROT_SEM, 0);
	tap_ok(p != MAP_FAILED, "PROT_SEM is accepted");
	munmap(p, PAGE);
	p = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_NORESERVE);
	tap_ok(p != MAP_FAILED && can_write(p + PAGE), "MM-12: MAP_NORESERVE memory is usable");
	munmap(p, 2 * PAGE);
}

static void test_placement(void)
{
	char *h = hole(4), *p;

	p = anon(h + PAGE + 123, PAGE, PROT_READ, 0);
	tap_ok(p == h + PAGE, "MM-5: a free, unaligned hint is rounded down to its page (%p for hint %p)", p,
	       h + PAGE + 123);
	munmap(p, PAGE);
	p = anon((void *)0x1000, PAGE, PROT_READ, 0);
	tap_ok(p != MAP_FAILED && (uintptr_t)p >= 0x8000,
	       "MM-5: a hint below mmap_min_addr is not used (%p)", p);
	munmap(p, PAGE);
	p = anon(h + PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, 0);
	memset(p, 1, 2 * PAGE);
	{
		char *q = anon(h + PAGE, PAGE, PROT_READ, 0);

		tap_ok(q != MAP_FAILED && q != h + PAGE && all_bytes(h + PAGE, 2 * PAGE, 1),
		       "MM-5: a hint that is taken is only a hint: elsewhere, the old mapping untouched (%p)", q);
		munmap(q, PAGE);
	}
	munmap(p, 2 * PAGE);
}

static void test_fixed(void)
{
	char *h = hole(6), *p, *r;

	errno = 0;
	tap_ok(anon(h + 1, PAGE, PROT_READ, MAP_FIXED) == MAP_FAILED && errno == EINVAL,
	       "MM-8: MAP_FIXED at an unaligned address: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(anon(h, HUGE_LEN, PROT_READ, MAP_FIXED) == MAP_FAILED && errno == ENOMEM,
	       "MM-8: MAP_FIXED with a length beyond the user address space: ENOMEM (errno %d)", errno);

	p = anon(h + PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	tap_ok(p == h + PAGE, "MAP_FIXED at a free address: exactly there");
	memset(p, 7, 2 * PAGE);
	anon(h + 4 * PAGE, PAGE, PROT_READ, MAP_FIXED);
	errno = 0;
	r = anon(h + 2 * PAGE, 2 * PAGE, PROT_READ, MAP_FIXED_NOREPLACE);
	tap_ok(r == MAP_FAILED && errno == EEXIST && all_bytes(p, 2 * PAGE, 7) &&
		       strcmp(shape(h, h + 6 * PAGE), "hole:1 rw-p:2 hole:1 r--p:1 hole:1") == 0,
	       "MM-9: MAP_FIXED_NOREPLACE partly over a mapping: EEXIST, nothing changed (errno %d, %s)", errno,
	       shape(h, h + 6 * PAGE));
	r = anon(h + 3 * PAGE, PAGE, PROT_READ, MAP_FIXED_NOREPLACE);
	tap_ok(r == h + 3 * PAGE, "MM-5, MM-9: MAP_FIXED_NOREPLACE at a free address: exactly there");
	munmap(r, PAGE);
	r = anon(h, 6 * PAGE, PROT_READ, MAP_FIXED);
	tap_ok(r == h && all_bytes(h, 6 * PAGE, 0) && strcmp(shape(h, h + 6 * PAGE), "r--p:6") == 0,
	       "MM-13: MAP_FIXED over [hole][VMA][hole][VMA][hole]: one new zeroed VMA (%s)", shape(h, h + 6 * PAGE));
	munmap(h, 6 * PAGE);
}

static void test_populate(void)
{
	long before = minflt(), during, after;
	char *p = anon(NULL, 16 * PAGE, PROT_READ | PROT_WRITE, MAP_POPULATE);

	during = minflt() - before;
	before = minflt();
	for (int i = 0; i < 16; i++)
		p[i * PAGE] = 1;
	after = minflt() - before;
	tap_ok(p != MAP_FAILED && after == 0, "MM-14: MAP_POPULATE: touching the 16 pages afterwards takes no fault (%ld)",
	       after);
	tap_ok(during == 16, "MM-14: the 16 pre-faults count as minor faults of the mmap call (%ld)", during);
	munmap(p, 16 * PAGE);
}

/* MM-19: MAP_STACK marks the VMA no-THP (Linux >= 6.7), so MADV_NOHUGEPAGE changes nothing there. */
static void test_map_stack(void)
{
	char *p = anon(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_STACK);
	char *q = anon(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, 0);

	tap_ok(p != MAP_FAILED && q != MAP_FAILED && vm_flag(p, "nh") == 1 && vm_flag(q, "nh") == 0,
	       "MM-19: MAP_STACK gives \"nh\" in VmFlags (%d), a plain mapping not (%d)",
	       p == MAP_FAILED ? -2 : vm_flag(p, "nh"), q == MAP_FAILED ? -2 : vm_flag(q, "nh"));
	tap_ok(p != MAP_FAILED && madvise(p + PAGE, PAGE, MADV_NOHUGEPAGE) == 0 &&
	       strcmp(shape(p, p + 4 * PAGE), "rw-p:4") == 0,
	       "MM-19: MADV_NOHUGEPAGE on part of it changes nothing, so nothing splits (%s)",
	       p == MAP_FAILED ? "?" : shape(p, p + 4 * PAGE));
	if (p != MAP_FAILED)
		munmap(p, 4 * PAGE);
	if (q != MAP_FAILED)
		munmap(q, 4 * PAGE);
}

static void test_growsdown(void)
{
	/* a lone growable mapping, far from any other (Linux keeps a 1 MiB gap) */
	char *h = hole(1024), *top = h + 1020 * PAGE, *p;

	p = anon(top, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_GROWSDOWN);
	tap_ok(p == top && vm_flag(p, "gd") == 1, "MM-15: MAP_GROWSDOWN: \"gd\" in VmFlags");
	tap_ok(can_write(p - 1) && can_write(p - 2 * PAGE) && strcmp(shape(p - 4 * PAGE, p + 2 * PAGE), "hole:2 rw-p:4") == 0,
	       "MM-15: a touch below it grows the VMA down (%s)", shape(p - 4 * PAGE, p + 2 * PAGE));
	{	/* a growth that would make the VMA larger than RLIMIT_STACK is refused (in a child) */
		pid_t pid = fork();

		if (pid == 0) {	/* 1 MiB: more than this small program's own stack needs */
			struct rlimit rl = { 256 * PAGE, RLIM_INFINITY };
			char *end = p + 2 * PAGE;	/* the VMA is [p - 2 pages, end) */

			if (setrlimit(RLIMIT_STACK, &rl) != 0)
				_exit(10);
			if (can_write(end - 300 * PAGE))
				_exit(11);	/* 300 pages > 256: must fault */
			if (!can_write(end - 256 * PAGE))
				_exit(12);	/* exactly the limit: grows */
			if (can_write(end - 257 * PAGE))
				_exit(13);
			_exit(0);
		}
		int st = child_status(pid);

		tap_ok(st == 0, "MM-15: growth down stops at RLIMIT_STACK (256 pages: 300 and 257 fault, 256 grows; "
		       "child status %d)", st);
	}
	{	/* its stack guard gap is no place for a new mapping, even as a hint */
		char *want = p - 10 * PAGE, *q = anon(want, 4 * PAGE, PROT_READ, 0);

		tap_ok(q != MAP_FAILED && q != want,
		       "MM-15: a hint inside the guard gap below a MAP_GROWSDOWN mapping is not taken (%p, hint %p)", q,
		       want);
		if (q != MAP_FAILED && (q < h || q >= h + 1024 * PAGE))
			munmap(q, 4 * PAGE);
	}
	{	/* nor for one the kernel places: fill the holes above until one lands in h */
		static char *got[512];
		char *start = p - 2 * PAGE, *bad = NULL;	/* the VMA's start after the growth above */
		int n = 0;

		while (n < 512 && (got[n] = anon(NULL, 4 * PAGE, PROT_READ, 0)) != MAP_FAILED) {
			char *q = got[n++];

			if (q + 4 * PAGE > start - 256 * PAGE && q < start)
				bad = q;
			if (q >= h && q < h + 1024 * PAGE)
				break;
		}
		tap_ok(!bad && n > 0 && n < 512 && got[n - 1] >= h,
		       "MM-15: no mapping placed by the kernel reaches the guard gap below a MAP_GROWSDOWN mapping at %p "
		       "(%d placed, offender %p)", start, n, bad);
		while (n > 0)
			if (got[--n] < h || got[n] >= h + 1024 * PAGE)
				munmap(got[n], 4 * PAGE);
	}
	munmap(h, 1024 * PAGE);
}

int main(void)
{
	tap_init();
	probe_init();
	test_args();
	test_order();
	test_hugetlb_type();
	test_prot_bits();
	test_kinds();
	test_placement();
	test_fixed();
	test_populate();
	test_growsdown();
	test_map_stack();
	return tap_done();
}
