/* mm_madvise.c - madvise(2): argument checks (MA-1..MA-3), holes (MA-4),
 * MADV_DONTNEED, MADV_FREE, MADV_WILLNEED, MADV_REMOVE, MADV_WIPEONFORK
 * (MA-6..MA-10), the hints, MADV_POPULATE_READ/WRITE and the VMA's
 * permissions (MA-11), and lightweight guard regions
 * (MADV_GUARD_INSTALL/REMOVE, GD-1..GD-6).
 *
 * Guard regions came with Linux 6.13; `make check-linux` boots 6.12, which
 * refuses the advice with EINVAL, so there those points are skipped. Our
 * kernel must have them.
 *
 * Rows not tested here:
 *   MA-5   EAGAIN when a split runs out of memory: no map-count limit.
 *   MA-6, MA-7  VM_LOCKED, VM_PFNMAP and hugetlb cases: no mlock, PFN maps
 *          or hugetlb.
 *   MA-8   file read-ahead (vfs_fadvise): no file mappings.
 *   MA-9   MADV_REMOVE on files and VM_LOCKED: no file mappings, no mlock.
 *   MA-10  MADV_WIPEONFORK on files: no file mappings (shared anonymous is
 *          tested).
 *   GD-1   guard install on mlocked or VM_SPECIAL VMAs: no mlock, no PFN maps.
 *   GD-2   THP leaves and the retry limit: no transparent huge pages.
 *   GD-6   sealed read-only memory: in mm_mseal.c.
 */
#include "mm_util.h"

#ifndef MADV_MERGEABLE
#define MADV_MERGEABLE 12
#define MADV_UNMERGEABLE 13
#endif

static int guards;

static void test_args(void)
{
	char *p = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0), *h = hole(2);
	static const int bad[] = { 5, 6, 7, 26, 99, 104, 1000, -1 };	/* 100, 101: HWPOISON, SOFT_OFFLINE */

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		tap_ok(madvise(p, PAGE, bad[i]) == -1 && errno == EINVAL, "MA-1: advice %d: EINVAL (errno %d)", bad[i], errno);
	}
	errno = 0;
	tap_ok(madvise(p + 1, 0, 999) == -1 && errno == EINVAL, "MA-1: an unknown advice is refused before anything else");
	errno = 0;
	tap_ok(madvise(p + 1, PAGE, MADV_DONTNEED) == -1 && errno == EINVAL, "MA-2: unaligned start: EINVAL (errno %d)",
	       errno);
	errno = 0;
	tap_ok(madvise(p, (size_t)-1, MADV_DONTNEED) == -1 && errno == EINVAL,
	       "MA-2: a length whose rounding wraps: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(madvise(p, (size_t)-PAGE, MADV_DONTNEED) == -1 && errno == EINVAL,
	       "MA-2: start + length overflows: EINVAL (errno %d)", errno);
	tap_ok(madvise(h, 0, MADV_DONTNEED) == 0, "MA-3: length 0 at an unmapped address: 0");
	errno = 0;
	tap_ok(madvise(h, 2 * PAGE, MADV_WILLNEED) == -1 && errno == ENOMEM, "MA-4, MA-8: nothing mapped: ENOMEM (errno %d)",
	       errno);
	munmap(p, 2 * PAGE);
}

/* MA-4: a gap does not stop the walk. */
static void test_gap(void)
{
	char *h = hole(6), *b = h + PAGE;

	anon(b, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	anon(b + 2 * PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	memset(b, 1, PAGE);
	memset(b + 2 * PAGE, 2, 2 * PAGE);
	errno = 0;
	tap_ok(madvise(h, 5 * PAGE, MADV_DONTNEED) == -1 && errno == ENOMEM && all_bytes(b, PAGE, 0) &&
		       all_bytes(b + 2 * PAGE, 2 * PAGE, 0),
	       "MA-4: MADV_DONTNEED over holes: ENOMEM, and every mapped part was still zapped (errno %d)", errno);
	errno = 0;
	tap_ok(madvise(b, 4 * PAGE, MADV_WILLNEED) == -1 && errno == ENOMEM, "MA-4, MA-8: MADV_WILLNEED over a hole: ENOMEM");
	madvise(b, PAGE, MADV_DONTFORK);
	errno = 0;
	tap_ok(madvise(b, 3 * PAGE, MADV_DOFORK) == -1 && errno == ENOMEM && vm_flag(b, "dc") == 0,
	       "MA-4: MADV_DOFORK over a hole: ENOMEM, the VMA before the hole was changed");
	munmap(h, 6 * PAGE);
}

static void test_dontneed(void)
{
	char *p = anon(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, 0);
	char *s = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	memset(p, 7, 4 * PAGE);
	tap_ok(madvise(p + PAGE, 2 * PAGE, MADV_DONTNEED) == 0 && all_bytes(p + PAGE, 2 * PAGE, 0) &&
		       all_bytes(p, PAGE, 7) && all_bytes(p + 3 * PAGE, PAGE, 7),
	       "MA-6: MADV_DONTNEED on private memory: those pages read as zero, the others keep their data");
	tap_ok(strcmp(shape(p, p + 4 * PAGE), "rw-p:4") == 0, "MA-6: the VMA is not split");
	memset(p, 8, 4 * PAGE);
	tap_ok(madvise(p, 4 * PAGE, MADV_DONTNEED_LOCKED) == 0 && all_bytes(p, 4 * PAGE, 0),
	       "MA-6: MADV_DONTNEED_LOCKED works the same on unlocked memory");
	memset(s, 9, 2 * PAGE);
	tap_ok(madvise(s, 2 * PAGE, MADV_DONTNEED) == 0 && all_bytes(s, 2 * PAGE, 9),
	       "MA-6: MADV_DONTNEED on MAP_SHARED memory: the data comes back from the shared object");
	munmap(p, 4 * PAGE);
	munmap(s, 2 * PAGE);
}

static void test_free(void)
{
	char *p = anon(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, 0);
	char *s = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int ok = 1;

	memset(p, 6, 4 * PAGE);
	tap_ok(madvise(p, 4 * PAGE, MADV_FREE) == 0, "MA-7: MADV_FREE on private anonymous memory: 0");
	for (int i = 0; i < 4; i++)
		ok &= all_bytes(p + i * PAGE, PAGE, 6) || all_bytes(p + i * PAGE, PAGE, 0);
	tap_ok(ok, "MA-7: each page reads either as before or as zero");
	p[PAGE] = 42;
	tap_ok(p[PAGE] == 42, "MA-7: a write after MADV_FREE sticks");
	errno = 0;
	tap_ok(madvise(s, PAGE, MADV_FREE) == -1 && errno == EINVAL, "MA-7: MADV_FREE on MAP_SHARED memory: EINVAL (errno %d)",
	       errno);
	munmap(p, 4 * PAGE);
	munmap(s, PAGE);
}

/* The VMA holding addr, from /proc/self/maps; 0 if none. */
static int vma_of(const void *addr, unsigned long *start, unsigned long *end, char perms[5])
{
	const char *line = read_proc("/proc/self/maps") > 0 ? mm_procbuf : NULL;

	while (line && *line) {
		line = parse_maps_line(line, start, end, perms);
		if ((unsigned long)addr >= *start && (unsigned long)addr < *end)
			return 1;
	}
	return 0;
}

static __attribute__((noinline)) int text_probe(int x)
{
	return x * 3 + 1;
}

/*
 * A page of initialised data of our own (nothing else shares its page),
 * sized and aligned for the largest page size (arm64: 64 KiB).
 */
#define MAX_PAGE 65536
#if defined(__aarch64__)
#define PAGE_ALIGNED_DATA __attribute__((aligned(MAX_PAGE)))
#else
/* MicroBlaze object files align to 32 KiB at most: user.ld starts the
 * .data.page_aligned section on a 64 KiB boundary. */
#define PAGE_ALIGNED_DATA __attribute__((section(".data.page_aligned"), aligned(32768)))
#endif
static char data_page[2 * MAX_PAGE] PAGE_ALIGNED_DATA = { [0] = 11, [MAX_PAGE - 1] = 22 };

/*
 * MA-6/MA-7 on the program's own file mappings: its text and data are
 * private mappings of the executable, so discarded pages refault from the
 * file: the program keeps running, and written data reverts to the file's.
 * MADV_FREE is for anonymous memory only: EINVAL on a file mapping.
 */
static void test_own_image(void)
{
	unsigned long s, e;
	char perms[5];
	volatile char *d = data_page;

	if (!vma_of((const void *)text_probe, &s, &e, perms) || perms[2] != 'x') {
		tap_ok(0, "our text mapping in /proc/self/maps");
		return;
	}
	tap_ok(madvise((void *)s, e - s, MADV_DONTNEED) == 0 && text_probe(4) == 13,
	       "MA-6: MADV_DONTNEED over our own text: 0, and the program keeps running");
	errno = 0;
	tap_ok(madvise((void *)s, e - s, MADV_FREE) == -1 && errno == EINVAL && text_probe(5) == 16,
	       "MA-7: MADV_FREE over our own text (a file mapping): EINVAL (errno %d)", errno);
	d[0] = 99;
	d[MAX_PAGE - 1] = 98;
	tap_ok(madvise(data_page, MAX_PAGE, MADV_DONTNEED) == 0 && d[0] == 11 && d[MAX_PAGE - 1] == 22,
	       "MA-6: MADV_DONTNEED over written initialised data: it reads the file's bytes again (%d, %d)",
	       d[0], d[MAX_PAGE - 1]);
}

static void test_others(void)
{
	char *p = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0);
	char *s = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	static const struct { int adv; const char *name; } hints[] = {
		{ MADV_NORMAL, "MADV_NORMAL" }, { MADV_RANDOM, "MADV_RANDOM" }, { MADV_SEQUENTIAL, "MADV_SEQUENTIAL" },
		{ MADV_WILLNEED, "MADV_WILLNEED" }, { MADV_COLD, "MADV_COLD" }, { MADV_PAGEOUT, "MADV_PAGEOUT" },
		{ MADV_DONTDUMP, "MADV_DONTDUMP" }, { MADV_DODUMP, "MADV_DODUMP" }, { MADV_HUGEPAGE, "MADV_HUGEPAGE" },
		{ MADV_NOHUGEPAGE, "MADV_NOHUGEPAGE" }, { MADV_KEEPONFORK, "MADV_KEEPONFORK" },
		{ MADV_POPULATE_READ, "MADV_POPULATE_READ" }, { MADV_POPULATE_WRITE, "MADV_POPULATE_WRITE" },
	};
	long before;

	memset(p, 4, 2 * PAGE);
	for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]); i++)
		tap_ok(madvise(p, 2 * PAGE, hints[i].adv) == 0 && all_bytes(p, 2 * PAGE, 4),
		       "%s: 0, the data is untouched", hints[i].name);
	madvise(p, 2 * PAGE, MADV_DONTNEED);
	tap_ok(madvise(p, 2 * PAGE, MADV_POPULATE_WRITE) == 0, "MADV_POPULATE_WRITE after MADV_DONTNEED: 0");
	before = minflt();
	p[0] = 1;
	p[PAGE] = 1;
	tap_ok(minflt() - before == 0, "MADV_POPULATE_WRITE: the writes afterwards take no fault (%ld)", minflt() - before);

	errno = 0;
	tap_ok(madvise(p, PAGE, MADV_REMOVE) == -1 && errno == EINVAL, "MA-9: MADV_REMOVE on private memory: EINVAL (errno %d)",
	       errno);
	memset(s, 3, PAGE);
	tap_ok(madvise(s, PAGE, MADV_REMOVE) == 0 && all_bytes(s, PAGE, 0),
	       "MA-9: MADV_REMOVE on MAP_SHARED anonymous memory frees it: reads zero");
	errno = 0;
	tap_ok(madvise(s, PAGE, MADV_WIPEONFORK) == -1 && errno == EINVAL,
	       "MA-10: MADV_WIPEONFORK on MAP_SHARED memory: EINVAL (errno %d)", errno);
	tap_ok(madvise(p, PAGE, MADV_WIPEONFORK) == 0 && vm_flag(p, "wf") == 1 && vm_flag(p + PAGE, "wf") == 0,
	       "MA-10: MADV_WIPEONFORK on private memory: 0, \"wf\" in VmFlags of that page only");
	tap_ok(madvise(p, PAGE, MADV_KEEPONFORK) == 0 && vm_flag(p, "wf") == 0 && strcmp(shape(p, p + 2 * PAGE), "rw-p:2") == 0,
	       "MADV_KEEPONFORK undoes it (%s)", shape(p, p + 2 * PAGE));
	tap_ok(madvise(p, 2 * PAGE, MADV_DONTFORK) == 0 && vm_flag(p, "dc") == 1, "MADV_DONTFORK: \"dc\" in VmFlags");
	munmap(p, 2 * PAGE);
	munmap(s, PAGE);
}

/* ---- guard regions ---- */

static void test_guard(void)
{
	char *p = anon(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, 0), *h;
	pid_t pid;
	int st;

	memset(p, 5, 4 * PAGE);
	tap_ok(madvise(p + PAGE, PAGE, MADV_GUARD_INSTALL) == 0, "GD-2: MADV_GUARD_INSTALL on one page: 0");
	tap_ok(strcmp(shape(p, p + 4 * PAGE), "rw-p:4") == 0, "GD-7: still one VMA (%s)", shape(p, p + 4 * PAGE));
	tap_ok(!can_read(p + PAGE) && probe_sig == SIGSEGV, "GD-3: reading the guard page: SIGSEGV");
	tap_ok(!can_write(p + PAGE + 100) && probe_sig == SIGSEGV, "GD-3: writing it: SIGSEGV");
	tap_ok(all_bytes(p, PAGE, 5) && all_bytes(p + 2 * PAGE, 2 * PAGE, 5), "GD-2: the neighbours are untouched");
	tap_ok(madvise(p + PAGE, PAGE, MADV_GUARD_INSTALL) == 0 && !can_read(p + PAGE),
	       "GD-2: installing it again: 0, still a guard");
	tap_ok(madvise(p, 4 * PAGE, MADV_DONTNEED) == 0 && !can_read(p + PAGE) && can_read(p),
	       "GD-5: the guard survives MADV_DONTNEED");
	tap_ok(madvise(p, 4 * PAGE, MADV_FREE) == 0 && !can_read(p + PAGE), "GD-5: and MADV_FREE");
	tap_ok(mprotect(p, 4 * PAGE, PROT_READ) == 0 && mprotect(p, 4 * PAGE, PROT_READ | PROT_WRITE) == 0 &&
		       !can_read(p + PAGE) && can_write(p + 2 * PAGE),
	       "GD-5: and mprotect back and forth");

	pid = fork();
	if (pid == 0)
		_exit(!can_read(p + PAGE) && can_read(p) ? 0 : 1);
	st = child_status(pid);
	tap_ok(st == 0, "GD-5: a fork child has the guard too (status %d)", st);

	memset(p + 2 * PAGE, 6, PAGE);
	tap_ok(madvise(p, 4 * PAGE, MADV_GUARD_REMOVE) == 0 && can_read(p + PAGE) && all_bytes(p + PAGE, PAGE, 0) &&
		       all_bytes(p + 2 * PAGE, PAGE, 6),
	       "GD-4: MADV_GUARD_REMOVE: the page reads as zero, real pages are untouched");
	tap_ok(madvise(p, 4 * PAGE, MADV_GUARD_REMOVE) == 0, "GD-4: removing where there is no guard: 0");

	memset(p, 5, 4 * PAGE);
	tap_ok(madvise(p, 2 * PAGE, MADV_GUARD_INSTALL) == 0 && !can_read(p) && !can_read(p + PAGE) &&
		       all_bytes(p + 2 * PAGE, 2 * PAGE, 5),
	       "GD-2: installing over pages with data discards them");
	madvise(p, 2 * PAGE, MADV_GUARD_REMOVE);
	tap_ok(all_bytes(p, 2 * PAGE, 0), "GD-2: after removal they read as zero: the data was lost");

	madvise(p + 3 * PAGE, PAGE, MADV_WIPEONFORK);
	madvise(p + 3 * PAGE, PAGE, MADV_GUARD_INSTALL);
	pid = fork();
	if (pid == 0)
		_exit(can_read(p + 3 * PAGE) && all_bytes(p + 3 * PAGE, PAGE, 0) ? 0 : 1);
	st = child_status(pid);
	tap_ok(st == 0, "GD-5: a MADV_WIPEONFORK VMA does not pass its guards to a fork child (status %d)", st);

	madvise(p + PAGE, PAGE, MADV_GUARD_INSTALL);
	tap_ok(munmap(p, 4 * PAGE) == 0 && anon(p, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED) == p && can_read(p + PAGE) &&
		       can_read(p + 3 * PAGE),
	       "GD-5, MU-6: munmap removes the guards: mapped again, the pages are normal");
	madvise(p + 2 * PAGE, PAGE, MADV_GUARD_INSTALL);
	tap_ok(anon(p, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED) == p && can_read(p + 2 * PAGE),
	       "GD-5: a MAP_FIXED mapping over it replaces the guard");

	madvise(p + PAGE, PAGE, MADV_GUARD_INSTALL);
	p[0] = 9;
	{
		char *q = mremap(p, 4 * PAGE, 4 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, hole(4));

		tap_ok(q != MAP_FAILED && q[0] == 9 && !can_read(q + PAGE) && can_read(q + 2 * PAGE),
		       "GD-5: mremap moves the guard with the pages");
		p = q;
	}
	munmap(p, 4 * PAGE);

	/* GD-6: several VMAs and holes */
	h = hole(6);
	anon(h + PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	anon(h + 2 * PAGE, PAGE, PROT_READ, MAP_FIXED);
	anon(h + 4 * PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	errno = 0;
	tap_ok(madvise(h, 6 * PAGE, MADV_GUARD_INSTALL) == -1 && errno == ENOMEM && !can_read(h + PAGE) &&
		       !can_read(h + 2 * PAGE) && !can_read(h + 4 * PAGE),
	       "GD-6: over three VMAs and holes: ENOMEM, but every mapped page is guarded (errno %d)", errno);
	tap_ok(madvise(h + PAGE, 2 * PAGE, MADV_GUARD_REMOVE) == 0 && can_read(h + PAGE) && can_read(h + 2 * PAGE),
	       "GD-6: removal across two VMAs");
	munmap(h, 6 * PAGE);
}

/* MA-11: MADV_POPULATE_* honours each VMA's permissions and stops at the first problem. */
static void test_populate(void)
{
	static const struct { int prot, read_err, write_err; const char *name; } cases[] = {
		{ PROT_EXEC, EINVAL, EINVAL, "PROT_EXEC" },
		{ PROT_READ, 0, EINVAL, "PROT_READ" },
		{ PROT_NONE, EINVAL, EINVAL, "PROT_NONE" },
		{ PROT_READ | PROT_WRITE, 0, 0, "PROT_READ|PROT_WRITE" },
	};
	char *p, *h;
	long before;
	int r;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p = anon(NULL, 2 * PAGE, cases[i].prot, 0);
		for (int w = 0; w < 2; w++) {
			int want = w ? cases[i].write_err : cases[i].read_err;

			errno = 0;
			r = madvise(p, 2 * PAGE, w ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
			tap_ok(want ? r == -1 && errno == want : r == 0, "MA-11: MADV_POPULATE_%s on %s: %s (errno %d)",
			       w ? "WRITE" : "READ", cases[i].name, want == EINVAL ? "EINVAL" : "0", errno);
		}
		munmap(p, 2 * PAGE);
	}
	/* [rw][r-]: the writable page is populated, then EINVAL at the read-only one */
	p = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0);
	mprotect(p + PAGE, PAGE, PROT_READ);
	errno = 0;
	r = madvise(p, 2 * PAGE, MADV_POPULATE_WRITE);
	before = minflt();
	p[0] = 1;
	tap_ok(r == -1 && errno == EINVAL && minflt() - before == 0,
	       "MA-11: POPULATE_WRITE over [rw][r-]: EINVAL, the first page populated (errno %d, %ld faults)", errno,
	       minflt() - before);
	munmap(p, 2 * PAGE);
	/* [rw][hole][rw]: ENOMEM at the hole; the walk does not go on past it (unlike MA-4) */
	h = hole(3);
	p = anon(h, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	anon(h + 2 * PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	errno = 0;
	r = madvise(h, 3 * PAGE, MADV_POPULATE_WRITE);
	before = minflt();
	h[0] = 1;
	tap_ok(r == -1 && errno == ENOMEM && minflt() - before == 0,
	       "MA-11: POPULATE_WRITE over [rw][hole][rw]: ENOMEM, the page before the hole populated (errno %d)", errno);
	before = minflt();
	h[2 * PAGE] = 1;
	tap_ok(minflt() - before == 1, "MA-11: ... and the page after the hole was not (%ld faults)", minflt() - before);
	munmap(h, 3 * PAGE);
	(void)p;
}

/* MA-12: the hint advices are VMA flags (a change splits), and droppable memory keeps its own. */
static void test_hint_flags(void)
{
	char *p = anon(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, 0);
	char *d = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_DROPPABLE | MAP_ANONYMOUS, -1, 0);

	tap_ok(madvise(p + PAGE, PAGE, MADV_RANDOM) == 0 && vm_flag(p + PAGE, "rr") == 1 && vm_flag(p, "rr") == 0 &&
	       strcmp(shape(p, p + 3 * PAGE), "rw-p:1 rw-p:1 rw-p:1") == 0,
	       "MA-12: MADV_RANDOM on the middle page: \"rr\" there, the VMA split in three (%s)", shape(p, p + 3 * PAGE));
	tap_ok(madvise(p + PAGE, PAGE, MADV_SEQUENTIAL) == 0 && vm_flag(p + PAGE, "sr") == 1 && vm_flag(p + PAGE, "rr") == 0,
	       "MA-12: MADV_SEQUENTIAL replaces it with \"sr\"");
	tap_ok(madvise(p, 3 * PAGE, MADV_NORMAL) == 0 && strcmp(shape(p, p + 3 * PAGE), "rw-p:3") == 0,
	       "MA-12: MADV_NORMAL clears both: one VMA again (%s)", shape(p, p + 3 * PAGE));
	tap_ok(madvise(p, PAGE, MADV_DONTDUMP) == 0 && vm_flag(p, "dd") == 1 && vm_flag(p + PAGE, "dd") == 0,
	       "MA-12: MADV_DONTDUMP: \"dd\" on that page only");
	tap_ok(madvise(p, PAGE, MADV_DODUMP) == 0 && strcmp(shape(p, p + 3 * PAGE), "rw-p:3") == 0,
	       "MA-12: MADV_DODUMP undoes it (%s)", shape(p, p + 3 * PAGE));
	tap_ok(d != MAP_FAILED && vm_flag(d, "dd") == 1 && vm_flag(d, "wf") == 1,
	       "MA-12: MAP_DROPPABLE memory is \"dd\" and \"wf\"");
	errno = 0;
	tap_ok(madvise(d, PAGE, MADV_KEEPONFORK) == -1 && errno == EINVAL,
	       "MA-12: MADV_KEEPONFORK on droppable memory: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(madvise(d, PAGE, MADV_DODUMP) == -1 && errno == EINVAL,
	       "MA-12: MADV_DODUMP on droppable memory: EINVAL (errno %d)", errno);
	tap_ok(madvise(p + PAGE, PAGE, MADV_MERGEABLE) == 0 && vm_flag(p + PAGE, "mg") == 1 && vm_flag(p, "mg") == 0 &&
		       strcmp(shape(p, p + 3 * PAGE), "rw-p:1 rw-p:1 rw-p:1") == 0,
	       "MA-12: MADV_MERGEABLE on the middle page: \"mg\" there, the VMA split in three (%s)", shape(p, p + 3 * PAGE));
	tap_ok(madvise(p, 3 * PAGE, MADV_UNMERGEABLE) == 0 && strcmp(shape(p, p + 3 * PAGE), "rw-p:3") == 0,
	       "MA-12: MADV_UNMERGEABLE clears it: one VMA again (%s)", shape(p, p + 3 * PAGE));
	tap_ok(madvise(d, PAGE, MADV_MERGEABLE) == 0 && vm_flag(d, "mg") == 0,
	       "MA-12: MADV_MERGEABLE on droppable memory: ignored");
	munmap(p, 3 * PAGE);
	munmap(d, 2 * PAGE);
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	tap_ok(madvise(p, PAGE, MADV_MERGEABLE) == 0 && vm_flag(p, "mg") == 0 &&
		       strcmp(shape(p, p + 2 * PAGE), "rw-s:2") == 0,
	       "MA-12: MADV_MERGEABLE on shared memory: ignored, no split (%s)", shape(p, p + 2 * PAGE));
	munmap(p, 2 * PAGE);
}

/*
 * MA-14: MADV_PAGEOUT reclaims the pages: with no swap device only
 * droppable memory can go, and it is dropped (reads zero afterwards, as
 * Linux's reclaim discards a MAP_DROPPABLE folio, dirty or not); MADV_COLD
 * only ages them. Private anonymous memory keeps its data (test_others()).
 */
static void test_pageout_droppable(void)
{
	char *d = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_DROPPABLE | MAP_ANONYMOUS, -1, 0);

	if (d == MAP_FAILED) {
		tap_skip("MA-14: no MAP_DROPPABLE mapping (errno %d)", errno);
		return;
	}
	memset(d, 7, 2 * PAGE);
	tap_ok(madvise(d, 2 * PAGE, MADV_COLD) == 0 && all_bytes(d, 2 * PAGE, 7),
	       "MA-14: MADV_COLD on droppable memory: 0, the data stays");
	tap_ok(madvise(d, PAGE, MADV_PAGEOUT) == 0 && all_bytes(d, PAGE, 0) && all_bytes(d + PAGE, PAGE, 7),
	       "MA-14: MADV_PAGEOUT on a droppable page drops it (reads zero), the next page keeps its data");
	munmap(d, 2 * PAGE);
}

/*
 * MA-9: MADV_REMOVE of shared anonymous memory punches a hole in the one
 * object every sharer maps (shmem on Linux): after a fork, the child's
 * MADV_REMOVE makes the parent read zero too, and a page written there
 * afterwards is still shared.
 */
static void test_remove_shared_fork(void)
{
	char *s = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid;
	int st = -1;

	if (s == MAP_FAILED) {
		tap_ok(0, "set-up: a shared anonymous mapping (errno %d)", errno);
		return;
	}
	memset(s, 'a', 2 * PAGE);
	pid = fork();
	if (pid == 0) {
		int bad = madvise(s, PAGE, MADV_REMOVE) != 0 || s[0] != 0;

		s[1] = 'c';	/* a new page of the object, seen by the parent */
		_exit(bad);
	}
	waitpid(pid, &st, 0);
	tap_ok(st == 0 && s[0] == 0 && s[1] == 'c' && s[PAGE] == 'a',
	       "MA-9: the child's MADV_REMOVE punches the parent's view too, and the page written after it is shared "
	       "(status %d, %d %d)", st, s[0], s[1]);
	munmap(s, 2 * PAGE);
}

int main(void)
{
	char *g;

	tap_init();
	probe_init();
	test_args();
	test_gap();
	test_dontneed();
	test_free();
	test_own_image();
	test_others();
	test_populate();
	test_hint_flags();
	test_pageout_droppable();
	test_remove_shared_fork();
	g = anon(NULL, PAGE, PROT_READ | PROT_WRITE, 0);
	guards = madvise(g, PAGE, MADV_GUARD_INSTALL) == 0;
	munmap(g, PAGE);
	if (guards)
		test_guard();
	else if (on_teachos())
		tap_ok(0, "MADV_GUARD_INSTALL works (errno %d)", errno);
	else
		tap_skip("guard regions: this kernel has no MADV_GUARD_INSTALL (Linux < 6.13)");
	return tap_done();
}
