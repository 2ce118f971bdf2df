/* mm_maps.c - how VMAs split and merge, read line by line from
 * /proc/self/maps: mprotect of a middle page splits one VMA into three and
 * restoring the protection merges them back; adjacent anonymous mappings
 * with the same protection merge and with different ones do not; munmap
 * of a middle page and mapping it again; mremap growing in place; flag
 * changes by madvise; a sealed piece never merges with an unsealed one
 * (MS-12, MF-2, MF-6, MM-16); a maps file of thousands of VMAs is whole.
 *
 * Every region sits between unmapped pages, so each shape below is the
 * whole truth about those VMAs ("hole:1 rw-p:3 hole:1": one page unmapped,
 * one read-write private VMA of three pages, one page unmapped).
 */
#include "mm_util.h"

static int same(const char *got, const char *want)
{
	return strcmp(got, want) == 0;
}

static void test_mprotect_split(void)
{
	char *h = hole(5), *b = h + PAGE;

	anon(b, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	memset(b, 1, 3 * PAGE);
	tap_ok(same(shape(h, h + 5 * PAGE), "hole:1 rw-p:3 hole:1"), "one mapping of 3 pages is one VMA (%s)",
	       shape(h, h + 5 * PAGE));
	mprotect(b + PAGE, PAGE, PROT_READ);
	tap_ok(same(shape(h, h + 5 * PAGE), "hole:1 rw-p:1 r--p:1 rw-p:1 hole:1"),
	       "mprotect of the middle page splits it into 3 (%s)", shape(h, h + 5 * PAGE));
	mprotect(b + PAGE, PAGE, PROT_READ | PROT_WRITE);
	tap_ok(same(shape(h, h + 5 * PAGE), "hole:1 rw-p:3 hole:1"), "restoring the protection merges them back (%s)",
	       shape(h, h + 5 * PAGE));
	mprotect(b, 3 * PAGE, PROT_READ | PROT_WRITE);
	tap_ok(same(shape(h, h + 5 * PAGE), "hole:1 rw-p:3 hole:1"), "MF-2: mprotect to the same protection changes nothing");
	mprotect(b, PAGE, PROT_NONE);
	mprotect(b + 2 * PAGE, PAGE, PROT_NONE);
	tap_ok(same(shape(h, h + 5 * PAGE), "hole:1 ---p:1 rw-p:1 ---p:1 hole:1"),
	       "PROT_NONE on both ends: three VMAs (%s)", shape(h, h + 5 * PAGE));
	mprotect(b + PAGE, PAGE, PROT_NONE);
	tap_ok(same(shape(h, h + 5 * PAGE), "hole:1 ---p:3 hole:1"), "then the middle too: one VMA again (%s)",
	       shape(h, h + 5 * PAGE));
	mprotect(b, 3 * PAGE, PROT_READ | PROT_WRITE);
	tap_ok(all_bytes(b, 3 * PAGE, 1), "the data survived every split and merge");
	munmap(b, 3 * PAGE);
}

static void test_adjacent(void)
{
	char *h = hole(6), *b = h + PAGE;

	anon(b, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	anon(b + 2 * PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	tap_ok(same(shape(h, h + 6 * PAGE), "hole:1 rw-p:4 hole:1"),
	       "MM-16: two adjacent anonymous mappings with the same protection merge (%s)", shape(h, h + 6 * PAGE));
	munmap(b, 4 * PAGE);
	anon(b, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	anon(b + 2 * PAGE, 2 * PAGE, PROT_READ, MAP_FIXED);
	tap_ok(same(shape(h, h + 6 * PAGE), "hole:1 rw-p:2 r--p:2 hole:1"),
	       "with different protections they stay two VMAs (%s)", shape(h, h + 6 * PAGE));
	munmap(b, 4 * PAGE);
	anon(b + 2 * PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	anon(b, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	tap_ok(same(shape(h, h + 6 * PAGE), "hole:1 rw-p:4 hole:1"),
	       "a mapping placed just below another one merges too (%s)", shape(h, h + 6 * PAGE));
	munmap(b, 4 * PAGE);
	anon(b, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	mmap(b + 2 * PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	tap_ok(same(shape(h, h + 6 * PAGE), "hole:1 rw-p:2 rw-s:2 hole:1"),
	       "private and shared anonymous mappings do not merge (%s)", shape(h, h + 6 * PAGE));
	munmap(b, 4 * PAGE);
}

static void test_munmap_remap(void)
{
	char *h = hole(5), *b = h + PAGE;

	anon(b, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	munmap(b + PAGE, PAGE);
	tap_ok(same(shape(h, h + 5 * PAGE), "hole:1 rw-p:1 hole:1 rw-p:1 hole:1"),
	       "munmap of the middle page leaves two VMAs (%s)", shape(h, h + 5 * PAGE));
	anon(b + PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	tap_ok(same(shape(h, h + 5 * PAGE), "hole:1 rw-p:3 hole:1"),
	       "mapping the page again merges all three (%s)", shape(h, h + 5 * PAGE));
	anon(b + PAGE, PAGE, PROT_READ, MAP_FIXED);
	tap_ok(same(shape(h, h + 5 * PAGE), "hole:1 rw-p:1 r--p:1 rw-p:1 hole:1"),
	       "MAP_FIXED of a read-only page in the middle splits it (%s)", shape(h, h + 5 * PAGE));
	munmap(b, 3 * PAGE);
}

static void test_mremap_merge(void)
{
	char *h = hole(6), *b = h + PAGE;

	anon(b, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	tap_ok(mremap(b, 2 * PAGE, 4 * PAGE, 0) == b && same(shape(h, h + 6 * PAGE), "hole:1 rw-p:4 hole:1"),
	       "mremap growing in place gives one bigger VMA (%s)", shape(h, h + 6 * PAGE));
	tap_ok(mremap(b, 4 * PAGE, PAGE, 0) == b && same(shape(h, h + 6 * PAGE), "hole:1 rw-p:1 hole:4"),
	       "mremap shrinking leaves one smaller VMA (%s)", shape(h, h + 6 * PAGE));
	munmap(b, PAGE);
}

static void test_madvise_flags(void)
{
	char *h = hole(5), *b = h + PAGE;

	anon(b, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	madvise(b + PAGE, PAGE, MADV_DONTFORK);
	tap_ok(same(shape(h, h + 5 * PAGE), "hole:1 rw-p:1 rw-p:1 rw-p:1 hole:1") && vm_flag(b + PAGE, "dc") == 1 &&
		       vm_flag(b, "dc") == 0,
	       "MADV_DONTFORK on the middle page splits the VMA, only that piece has \"dc\" (%s)",
	       shape(h, h + 5 * PAGE));
	madvise(b + PAGE, PAGE, MADV_DOFORK);
	tap_ok(same(shape(h, h + 5 * PAGE), "hole:1 rw-p:3 hole:1"), "MADV_DOFORK merges it back (%s)",
	       shape(h, h + 5 * PAGE));
	madvise(b, 3 * PAGE, MADV_DONTNEED);
	tap_ok(same(shape(h, h + 5 * PAGE), "hole:1 rw-p:3 hole:1"), "MADV_DONTNEED does not split");
	munmap(b, 3 * PAGE);
}

static void test_sealed_merge(void)
{
	char *h = hole(6), *b = h + PAGE;

	anon(b, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	do_mseal(b + PAGE, PAGE, 0);
	tap_ok(same(shape(h, h + 6 * PAGE), "hole:1 rw-p:1 rw-p:1 rw-p:1 hole:2"),
	       "MS-12: sealing the middle page: three VMAs (%s)", shape(h, h + 6 * PAGE));
	munmap(b + 2 * PAGE, PAGE);
	anon(b + 2 * PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	tap_ok(same(shape(h, h + 6 * PAGE), "hole:1 rw-p:1 rw-p:1 rw-p:2 hole:1"),
	       "an unsealed mapping next to the sealed piece does not merge with it (%s)", shape(h, h + 6 * PAGE));
	mprotect(b, PAGE, PROT_READ);
	mprotect(b, PAGE, PROT_READ | PROT_WRITE);
	tap_ok(same(shape(h, h + 6 * PAGE), "hole:1 rw-p:1 rw-p:1 rw-p:2 hole:1"),
	       "mprotect back and forth below it does not merge into it either (%s)", shape(h, h + 6 * PAGE));
	do_mseal(b + 2 * PAGE, PAGE, 0);
	tap_ok(same(shape(h, h + 6 * PAGE), "hole:1 rw-p:1 rw-p:2 rw-p:1 hole:1") && vm_flag(b + 2 * PAGE, "sl") == 1 &&
		       vm_flag(b + 3 * PAGE, "sl") == 0,
	       "sealing the next page merges it into the sealed VMA (%s)", shape(h, h + 6 * PAGE));
	munmap(b, PAGE);
	munmap(b + 3 * PAGE, PAGE);
}

/*
 * More VMAs than a 64 KiB /proc/self/maps holds: every one is listed, and
 * the named lines after them ([stack]) come out whole. Here the file once
 * stopped at 64 KiB, and padding a named line past that end never ended
 * (the kernel hung, found by the fuzzer with about 1,300 VMAs).
 */
static void test_many_vmas(void)
{
	const size_t n = 2 * 1500 - 1;	/* pages: 1500 read-only VMAs between 1499 PROT_NONE ones */
	char *h = hole(n + 2), *b = h + PAGE;
	size_t listed = 0;
	long len;

	if (!h || anon(b, n * PAGE, PROT_READ, MAP_FIXED) == MAP_FAILED) {
		tap_ok(0, "a mapping of %zu pages", n);
		return;
	}
	for (size_t i = 1; i < n; i += 2)
		mprotect(b + i * PAGE, PAGE, PROT_NONE);
	len = read_proc("/proc/self/maps");
	for (const char *line = mm_procbuf; line && *line;) {
		unsigned long s, e;
		char perms[5];

		line = parse_maps_line(line, &s, &e, perms);
		listed += s >= (unsigned long)b && e <= (unsigned long)(b + n * PAGE);
	}
	tap_ok(len > 65536 && listed == n && strstr(mm_procbuf, "[stack]\n") && mm_procbuf[len - 1] == '\n',
	       "%zu VMAs: /proc/self/maps lists all of them and ends whole (%ld bytes, %zu of the VMAs listed, "
	       "[stack] %s)", n, len, listed, strstr(mm_procbuf, "[stack]\n") ? "listed" : "missing");
	munmap(b, n * PAGE);
}

int main(void)
{
	tap_init();
	test_mprotect_split();
	test_adjacent();
	test_munmap_remap();
	test_mremap_merge();
	test_madvise_flags();
	test_sealed_merge();
	test_many_vmas();
	return tap_done();
}
