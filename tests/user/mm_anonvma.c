/* mm_anonvma.c - when two alike VMAs merge depends on their anonymous
 * pages' history, as on Linux 6.12, whose VMAs merge only when their
 * anon_vmas allow it (MF-7):
 *   - a private VMA gets an anon_vma at its first write fault (a read
 *     fault maps the zero page and gives none), taking its neighbour's
 *     when the two differ only in protection and the neighbour's is its
 *     own (not inherited by fork);
 *   - the pieces of a split VMA share its anon_vma, so they merge again;
 *   - a changed VMA with an anon_vma merges with a neighbour that has one
 *     only when it is the same one, and with a neighbour without one not
 *     at all; a changed VMA without one merges with a neighbour whose
 *     anon_vma is its own;
 *   - a fork child's copies get anon_vmas of their own, inherited (so a
 *     new mapping next to one does not merge with it);
 *   - a private anonymous VMA moved by mremap before any write takes the
 *     page offset of its new place, so it merges there; one written
 *     keeps its anon_vma and does not (MR-20);
 *   - mprotect making a locked VMA writable populates it with write
 *     faults, so it gets an anon_vma then (MF-8);
 *   - a MAP_GROWSDOWN VMA gets one when a fault below it grows it, read
 *     or write (MF-9).
 * (mm_limits.c shows the commit charge that follows the anon_vma: OC-5.)
 *
 * Every region sits between unmapped pages, so each shape is the whole
 * truth about those VMAs (see mm_maps.c).
 */
#include "mm_util.h"

#ifndef MREMAP_FIXED
#define MREMAP_FIXED 2
#endif

static int same(const char *got, const char *want)
{
	return strcmp(got, want) == 0;
}

/* Two pages at h + PAGE, read-write, the second then given prot2. */
static char *two(char *h, int prot2)
{
	char *b = h + PAGE;

	anon(b, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	mprotect(b + PAGE, PAGE, prot2);
	return b;
}

/*
 * The pieces differ in PROT_EXEC only, so both stay writable and keep
 * their commit charge (VM_ACCOUNT): only the anon_vmas decide (OC-5 would
 * otherwise part a read-only piece that gave its charge back).
 */
static void test_written_or_not(void)
{
	char *h = hole(4), *b;

	b = two(h, PROT_READ | PROT_WRITE | PROT_EXEC);
	b[0] = 1;
	mprotect(b + PAGE, PAGE, PROT_READ | PROT_WRITE);
	tap_ok(same(shape(h, h + 4 * PAGE), "hole:1 rw-p:2 hole:1"),
	       "MF-7: an unwritten piece made alike merges into its written neighbour (%s)", shape(h, h + 4 * PAGE));
	munmap(b, 2 * PAGE);

	b = two(h, PROT_READ | PROT_WRITE | PROT_EXEC);
	b[0] = 1;
	mprotect(b, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC);
	tap_ok(same(shape(h, h + 4 * PAGE), "hole:1 rwxp:1 rwxp:1 hole:1"),
	       "MF-7: a written piece made alike does not merge into an unwritten neighbour (%s)",
	       shape(h, h + 4 * PAGE));
	munmap(b, 2 * PAGE);

	b = two(h, PROT_READ | PROT_WRITE | PROT_EXEC);
	tap_ok(b[0] == 0 && b[PAGE] == 0, "reading both pieces");
	mprotect(b, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC);
	tap_ok(same(shape(h, h + 4 * PAGE), "hole:1 rwxp:2 hole:1"),
	       "MF-7: read faults give no anon_vma: the pieces merge (%s)", shape(h, h + 4 * PAGE));
	munmap(b, 2 * PAGE);

	b = h + PAGE;
	anon(b, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	memset(b, 2, 2 * PAGE);
	mprotect(b + PAGE, PAGE, PROT_READ);
	mprotect(b, PAGE, PROT_READ);
	tap_ok(same(shape(h, h + 4 * PAGE), "hole:1 r--p:2 hole:1"),
	       "MF-7: the pieces of a written VMA share its anon_vma and merge again (%s)", shape(h, h + 4 * PAGE));
	munmap(b, 2 * PAGE);
}

static void test_reuse(void)
{
	char *h = hole(4), *b;

	b = two(h, PROT_READ | PROT_WRITE | PROT_EXEC);
	b[0] = 1;
	b[PAGE] = 1;
	mprotect(b + PAGE, PAGE, PROT_READ | PROT_WRITE);
	tap_ok(same(shape(h, h + 4 * PAGE), "hole:1 rw-p:2 hole:1"),
	       "MF-7: a neighbour differing only in protection lends its anon_vma at the first write (%s)",
	       shape(h, h + 4 * PAGE));
	munmap(b, 2 * PAGE);

	b = two(h, PROT_READ | PROT_WRITE);
	madvise(b + PAGE, PAGE, MADV_DONTFORK);
	b[0] = 1;
	b[PAGE] = 1;
	madvise(b + PAGE, PAGE, MADV_DOFORK);
	tap_ok(same(shape(h, h + 4 * PAGE), "hole:1 rw-p:1 rw-p:1 hole:1"),
	       "MF-7: one differing in another flag does not: they stay two (%s)", shape(h, h + 4 * PAGE));
	munmap(b, 2 * PAGE);
}

/* In a child: run fn and exit with whether it held. */
static int in_child(int (*fn)(char *h, char *b), char *h, char *b)
{
	int st;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(h, b) ? 0 : 1);
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static int child_mprotect(char *h, char *b)
{
	mprotect(b + PAGE, PAGE, PROT_READ | PROT_WRITE);
	return same(shape(h, h + 5 * PAGE), "hole:1 rw-p:1 rw-p:1 hole:2");
}

static int child_mprotect_unwritten(char *h, char *b)
{
	mprotect(b + PAGE, PAGE, PROT_READ | PROT_WRITE);
	return same(shape(h, h + 5 * PAGE), "hole:1 rw-p:2 hole:2");
}

static int child_mmap_next(char *h, char *b)
{
	anon(b + 2 * PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	return same(shape(h, h + 5 * PAGE), "hole:1 rw-p:2 rw-p:1 hole:1");
}

static void test_fork(void)
{
	char *h = hole(5), *b;

	b = two(h, PROT_READ);
	b[0] = 1;
	mprotect(b + PAGE, PAGE, PROT_READ | PROT_WRITE);
	mprotect(b + PAGE, PAGE, PROT_READ);
	tap_ok(in_child(child_mprotect, h, b),
	       "MF-7: in a fork child, the copies of two written pieces get anon_vmas of their own: no merge");
	munmap(b, 2 * PAGE);

	b = two(h, PROT_READ);
	tap_ok(in_child(child_mprotect_unwritten, h, b), "MF-7: copies of unwritten pieces merge in the child");
	munmap(b, 2 * PAGE);

	b = h + PAGE;
	anon(b, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	b[0] = 1;
	tap_ok(in_child(child_mmap_next, h, b),
	       "MF-7: in the child, a new mapping next to an inherited written VMA does not merge with it");
	munmap(b, 2 * PAGE);
}

static void test_mremap(void)
{
	char *h = hole(6), *b = h + PAGE, *far = h + 4 * PAGE;

	anon(b, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	anon(far, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	tap_ok(mremap(far, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, b + PAGE) == b + PAGE &&
		       same(shape(h, h + 6 * PAGE), "hole:1 rw-p:2 hole:3"),
	       "MR-20: an unwritten anonymous VMA moved next to an alike one merges with it (%s)",
	       shape(h, h + 6 * PAGE));
	munmap(b, 2 * PAGE);

	anon(b, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	tap_ok(mremap(b, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, b + 3 * PAGE) == b + 3 * PAGE &&
		       same(shape(h, h + 6 * PAGE), "hole:2 rw-p:3 hole:1"),
	       "MR-20: the first page of an unwritten VMA moved just above it continues it (%s)",
	       shape(h, h + 6 * PAGE));
	munmap(b + PAGE, 3 * PAGE);

	anon(b, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	anon(b + 4 * PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	tap_ok(mremap(b, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, b + 2 * PAGE) ==
			       b + 2 * PAGE &&
		       same(shape(h, h + 6 * PAGE), "hole:1 rw-p:2 rw-p:3"),
	       "MR-20: a MREMAP_DONTUNMAP copy of unwritten memory merges with an alike neighbour, "
	       "not with the VMA it came from (%s)", shape(h, h + 6 * PAGE));
	mprotect(b + PAGE, PAGE, PROT_READ);
	mprotect(b + PAGE, PAGE, PROT_READ | PROT_WRITE);
	tap_ok(same(shape(h, h + 6 * PAGE), "hole:1 rw-p:5"), "MR-20: until the old range's piece next to it changes (%s)",
	       shape(h, h + 6 * PAGE));
	munmap(b, 5 * PAGE);

	anon(b, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	anon(far, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	far[0] = 1;
	tap_ok(mremap(far, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, b + PAGE) == b + PAGE &&
		       same(shape(h, h + 6 * PAGE), "hole:1 rw-p:1 rw-p:1 hole:3") && b[PAGE] == 1,
	       "MR-20: a written one keeps its old page offset and does not (%s)", shape(h, h + 6 * PAGE));
	munmap(b, 2 * PAGE);
}

/*
 * MF-7, OC-5, ML-8 (seed 7022 @400): an execute-only VMA of five pages,
 * its last four made write-only (charged) and all five locked (populated:
 * the write-only piece with write faults, so it gets an anon identity),
 * then all made execute-only again: the written piece keeps its charge,
 * so the two stay apart.
 */
static void test_locked_charge(void)
{
	char *h = hole(7), *b = h + PAGE;

	anon(b, 5 * PAGE, PROT_EXEC, MAP_FIXED);
	mprotect(b + PAGE, 4 * PAGE, PROT_WRITE);
	tap_ok(syscall(SYS_mlock, b, 5 * PAGE) == 0 && mprotect(b, 5 * PAGE, PROT_EXEC) == 0 &&
		       same(shape(h, h + 7 * PAGE), "hole:1 --xp:1 --xp:4 hole:1"),
	       "MF-7: a piece written by mlock's population keeps its charge made execute-only again: two VMAs (%s)",
	       shape(h, h + 7 * PAGE));
	syscall(SYS_munlock, b, 5 * PAGE);
	munmap(b, 5 * PAGE);
}

/*
 * MF-8 (seed 7047 @4536): three read-execute pages, locked; the middle one
 * made writable (a locked VMA made writable is populated with write
 * faults at once, so it gets an anon identity and keeps its charge), then
 * all three made execute-only: three VMAs. Locked on fault, or not
 * locked, the middle page is never written and the three merge.
 */
static void test_locked_writable(void)
{
	char *h = hole(5), *b = h + PAGE;
	const char *how[] = { "locked", "locked on fault", "not locked" };

	for (int i = 0; i < 3; i++) {
		const char *want = i ? "hole:1 --xp:3 hole:1" : "hole:1 --xp:1 --xp:1 --xp:1 hole:1";
		int ok = anon(b, 3 * PAGE, PROT_READ | PROT_EXEC, MAP_FIXED) == b &&
			 (i == 2 || syscall(SYS_mlock2, b, 3 * PAGE, i ? MLOCK_ONFAULT : 0) == 0) &&
			 mprotect(b + PAGE, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC) == 0 &&
			 mprotect(b, 3 * PAGE, PROT_EXEC) == 0;

		tap_ok(ok && same(shape(h, h + 5 * PAGE), want),
		       "MF-8: %s, a middle page made writable then all made execute-only: %s (%s)", how[i],
		       i ? "one VMA" : "three VMAs", shape(h, h + 5 * PAGE));
		syscall(SYS_munlock, b, 3 * PAGE);
		munmap(b, 3 * PAGE);
	}
}

/*
 * MF-9 (seed 7054 @7239): a read-only MAP_GROWSDOWN VMA of three pages
 * with its middle page unmapped; a read of that page grows the top piece
 * down to it, and the growth gives it an anon identity, so after an
 * madvise that changes both pieces alike they stay two VMAs.
 */
static void test_grown_down(void)
{
	char *h = hole(5), *b = h + PAGE;
	int ok = anon(b, 3 * PAGE, PROT_READ, MAP_FIXED | MAP_GROWSDOWN) == b && munmap(b + PAGE, PAGE) == 0;

	probe_init();
	ok = ok && can_read(b + PAGE + 16) && madvise(b, 3 * PAGE, MADV_RANDOM) == 0;
	tap_ok(ok && same(shape(h, h + 5 * PAGE), "hole:1 r--p:1 r--p:2 hole:1"),
	       "MF-9: a MAP_GROWSDOWN piece grown down by a read does not merge with the piece below (%s)",
	       shape(h, h + 5 * PAGE));
	munmap(b, 3 * PAGE);
}

int main(void)
{
	tap_init();
	test_written_or_not();
	test_reuse();
	test_fork();
	test_mremap();
	test_locked_charge();
	test_locked_writable();
	test_grown_down();
	return tap_done();
}
