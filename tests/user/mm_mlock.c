/* mm_mlock.c - mlock, mlock2, munlock, mlockall, munlockall and MAP_LOCKED
 * (ML-*): argument checks, holes, splits and merges, population (read
 * back with mincore), VmLck in /proc/self/status, "lo" in smaps VmFlags,
 * RLIMIT_MEMLOCK for root, fork, and the advices locked memory refuses.
 *
 * Rows not tested here:
 *   ML-5  a split failing for lack of memory: tests/user/mm_failinj.c.
 *   ML-7  hugetlb VMAs are never locked: needs a huge-page pool (mm_check
 *         checks it on every call).
 */
#include "mm_util.h"

#ifndef SYS_mlock2
#define SYS_mlock2 284
#endif
#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif
#ifndef MCL_ONFAULT
#define MCL_ONFAULT 4
#endif

static long do_mlock2(const void *a, size_t len, unsigned long flags)
{
	return syscall(SYS_mlock2, a, len, flags);
}

static long do_mlock(const void *a, size_t len)
{
	return syscall(SYS_mlock, a, len);
}

static long do_munlock(const void *a, size_t len)
{
	return syscall(SYS_munlock, a, len);
}

static long do_mlockall(long flags)
{
	return syscall(SYS_mlockall, flags);
}

static long do_munlockall(void)
{
	return syscall(SYS_munlockall);
}

static int failed(long ret, int err)
{
	return ret == -1 && errno == err;
}

/* VmLck of /proc/self/status in kB, or -1. */
static long vmlck(void)
{
	const char *p;

	if (read_proc("/proc/self/status") < 0 || !(p = strstr(mm_procbuf, "VmLck:")))
		return -1;
	return strtol(p + 6, NULL, 10);
}

/* How many of the n pages at p mincore says are resident (-1: mincore failed). */
static long resident(const void *p, size_t n)
{
	unsigned char vec[64];
	long r = 0;

	if (n > sizeof(vec) || syscall(SYS_mincore, p, n * PAGE, vec) != 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		r += vec[i] & 1;
	return r;
}

/* Three pages, none resident, between two one-page holes. */
static char *three(void)
{
	char *h = hole(5);

	char *b;

	if (!h || anon(h + PAGE, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED) != h + PAGE)
		return NULL;
	/* Touched once and emptied again: Linux then gives every piece of a
	 * later split the same anon_vma, so the pieces merge back as ours do
	 * (three never-touched pieces of which only the middle one was
	 * populated stay apart on Linux). */
	b = h + PAGE;
	memset(b, 1, 3 * PAGE);
	return madvise(b, 3 * PAGE, MADV_DONTNEED) == 0 ? b : NULL;
}

static void test_args(void)
{
	char *b = three(), *h = hole(2);

	tap_ok(b && h, "set-up");
	if (!b || !h)
		return;
	tap_ok(failed(do_mlock2(b, PAGE, 2), EINVAL), "ML-1 mlock2 with an unknown flag: EINVAL");
	tap_ok(failed(do_mlock2(b, PAGE, ~0UL), EINVAL), "ML-1 mlock2 with every flag bit: EINVAL");
	tap_ok(vm_flag(b, "lo") == 0, "ML-1 nothing was locked");
	tap_ok(do_mlock(h, 0) == 0, "ML-3 mlock of length 0 where nothing is mapped: 0");
	tap_ok(failed(do_mlock(b, -2 * PAGE), EINVAL), "ML-3 a range that wraps: EINVAL");
	tap_ok(failed(do_munlock(b, -2 * PAGE), EINVAL), "ML-3 munlock of a range that wraps: EINVAL");
	tap_ok(failed(do_mlock(h, PAGE), ENOMEM), "ML-4 nothing mapped at the start: ENOMEM");
	tap_ok(failed(do_mlock(b - PAGE, 2 * PAGE), ENOMEM) && vm_flag(b, "lo") == 0,
	       "ML-4 a hole at the start: ENOMEM, the VMA after it not locked");
	tap_ok(failed(do_mlock(b + 2 * PAGE, 2 * PAGE), ENOMEM) && vm_flag(b + 2 * PAGE, "lo") == 1,
	       "ML-4 the range runs past the VMA: ENOMEM, the part before the hole locked");
	tap_ok(failed(do_munlock(b + 2 * PAGE, 2 * PAGE), ENOMEM) && vm_flag(b + 2 * PAGE, "lo") == 0,
	       "ML-4 munlock past the VMA: ENOMEM, the part before the hole unlocked");
	tap_ok(strcmp(shape(b, b + 3 * PAGE), "rw-p:3") == 0, "ML-16 unlocked again, the pieces merged: %s",
	       shape(b, b + 3 * PAGE));
	munmap(b, 3 * PAGE);
}

static void test_split_merge(void)
{
	char *b = three();
	long before = vmlck();

	tap_ok(b && before >= 0, "set-up (VmLck %ld kB)", before);
	if (!b)
		return;
	tap_ok(do_mlock(b + PAGE + 100, PAGE) == 0, "ML-2 mlock of an unaligned start and length: 0");
	tap_ok(strcmp(shape(b, b + 3 * PAGE), "rw-p:1 rw-p:2") == 0,
	       "ML-2 ML-16 every page touched is locked: the VMA splits (%s)", shape(b, b + 3 * PAGE));
	tap_ok(vm_flag(b, "lo") == 0 && vm_flag(b + PAGE, "lo") == 1 && vm_flag(b + 2 * PAGE, "lo") == 1,
	       "ML-15 smaps shows lo on the locked part only");
	tap_is_long(vmlck() - before, 2 * PAGE / 1024, "ML-15 VmLck grew by the two pages");
	tap_is_long(resident(b, 3), 2, "ML-8 the locked pages were populated, the other not");
	tap_ok(do_mlock(b + PAGE, 2 * PAGE) == 0 && vmlck() - before == (long)(2 * PAGE / 1024),
	       "ML-15 locking locked pages again counts nothing more");
	tap_ok(do_munlock(b + 2 * PAGE, PAGE) == 0 && strcmp(shape(b, b + 3 * PAGE), "rw-p:1 rw-p:1 rw-p:1") == 0,
	       "ML-16 munlock of the last page splits again: %s", shape(b, b + 3 * PAGE));
	tap_ok(do_munlock(b, 3 * PAGE) == 0 && strcmp(shape(b, b + 3 * PAGE), "rw-p:3") == 0,
	       "ML-16 munlock of all: one VMA again (%s)", shape(b, b + 3 * PAGE));
	tap_is_long(vmlck() - before, 0, "ML-15 VmLck back where it was");
	tap_is_long(resident(b, 3), 2, "ML-8 unlocking keeps the pages");
	tap_ok(do_mlock(b, 3 * PAGE) == 0 && munmap(b, 3 * PAGE) == 0 && vmlck() == before,
	       "ML-15 munmap of locked memory gives its VmLck back");
}

static void test_onfault(void)
{
	char *b = three();
	long before = vmlck();

	tap_ok(b != NULL, "set-up");
	if (!b)
		return;
	tap_ok(do_mlock2(b, 3 * PAGE, MLOCK_ONFAULT) == 0, "ML-1 mlock2(MLOCK_ONFAULT): 0");
	tap_is_long(resident(b, 3), 0, "ML-8 MLOCK_ONFAULT populates nothing");
	tap_ok(vm_flag(b, "lo") == 1, "ML-15 but the VMA is locked (lo)");
	tap_is_long(vmlck() - before, 3 * PAGE / 1024, "ML-15 and counted in VmLck");
	b[PAGE] = 1;
	tap_is_long(resident(b, 3), 1, "ML-8 a touched page is there");
	tap_ok(do_mlock(b, 3 * PAGE) == 0 && resident(b, 3) == 3 && vmlck() - before == (long)(3 * PAGE / 1024),
	       "ML-8 a plain mlock over it now populates; VmLck unchanged");
	munmap(b, 3 * PAGE);
}

static void test_map_locked(void)
{
	long before = vmlck();
	char *m = anon(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_LOCKED);

	tap_ok(m != MAP_FAILED, "ML-9 mmap(MAP_LOCKED) maps");
	if (m == MAP_FAILED)
		return;
	tap_is_long(resident(m, 4), 4, "ML-9 and populates");
	tap_ok(vm_flag(m, "lo") == 1 && vmlck() - before == (long)(4 * PAGE / 1024), "ML-9 ML-15 locked: lo, VmLck +16 kB");
	tap_ok(failed(madvise(m, PAGE, MADV_DONTNEED), EINVAL) && m[0] == 0, "ML-20 MADV_DONTNEED on locked memory: EINVAL");
	m[0] = 7;
	tap_ok(failed(madvise(m, PAGE, MADV_FREE), EINVAL) && m[0] == 7, "ML-20 MADV_FREE on locked memory: EINVAL, data kept");
	tap_ok(madvise(m, PAGE, MADV_DONTNEED_LOCKED) == 0 && m[0] == 0,
	       "ML-20 MADV_DONTNEED_LOCKED discards it (reads back 0)");
	tap_ok(madvise(m, 4 * PAGE, MADV_WILLNEED) == 0, "ML-20 other advice is accepted");
	tap_ok(failed(madvise(m, PAGE, MADV_COLD), EINVAL) && failed(madvise(m, PAGE, MADV_PAGEOUT), EINVAL),
	       "ML-20 MADV_COLD and MADV_PAGEOUT on locked memory: EINVAL");
	munmap(m, 4 * PAGE);
	tap_is_long(vmlck() - before, 0, "ML-15 munmap: VmLck back");

	char *b = hole(6);

	m = b ? anon(b + PAGE, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_LOCKED) : MAP_FAILED;
	tap_ok(m == b + PAGE, "set-up: four locked pages between holes");
	if (m == MAP_FAILED)
		return;
	tap_ok(failed(madvise(b, 6 * PAGE, MADV_COLD), EINVAL) && failed(madvise(b, 6 * PAGE, MADV_PAGEOUT), EINVAL),
	       "ML-20 MA-4 over a hole and locked memory: the VMA's EINVAL, not the hole's ENOMEM");
	munmap(m, 4 * PAGE);
}

static void test_prot_none(void)
{
	char *m = anon(NULL, 2 * PAGE, PROT_NONE, 0);

	tap_ok(m != MAP_FAILED, "set-up");
	if (m == MAP_FAILED)
		return;
	tap_ok(failed(do_mlock(m, 2 * PAGE), ENOMEM) && vm_flag(m, "lo") == 1,
	       "ML-8 mlock of PROT_NONE memory: ENOMEM (it cannot be populated), but it is locked");
	tap_is_long(resident(m, 2), 0, "ML-8 nothing populated in PROT_NONE memory");
	tap_ok(do_mlock2(m, 2 * PAGE, MLOCK_ONFAULT) == 0, "ML-8 mlock2(MLOCK_ONFAULT) of it: 0 (nothing to populate)");
	tap_ok(mprotect(m, 2 * PAGE, PROT_READ | PROT_WRITE) == 0 && vm_flag(m, "lo") == 1,
	       "ML-16 mprotect keeps the lock");
	munmap(m, 2 * PAGE);
}

static void test_rlimit(void)
{
	struct rlimit old, zero = { 0, 0 };
	char *b = three(), *m;
	int ok;

	tap_ok(b && getrlimit(RLIMIT_MEMLOCK, &old) == 0, "set-up");
	if (!b)
		return;
	ok = setrlimit(RLIMIT_MEMLOCK, &zero) == 0;
	tap_ok(ok, "RLIMIT_MEMLOCK set to 0");
	tap_ok(do_mlock(b, 3 * PAGE) == 0 && vm_flag(b, "lo") == 1,
	       "ML-6 as root (CAP_IPC_LOCK) mlock ignores RLIMIT_MEMLOCK 0");
	m = anon(NULL, PAGE, PROT_READ, MAP_LOCKED);
	tap_ok(m != MAP_FAILED && vm_flag(m, "lo") == 1, "ML-6 and so does MAP_LOCKED");
	if (m != MAP_FAILED)
		munmap(m, PAGE);
	if (ok)
		setrlimit(RLIMIT_MEMLOCK, &old);
	munmap(b, 3 * PAGE);
}

static void test_mlockall(void)
{
	char *b = three(), *m, *brk0;

	tap_ok(b != NULL, "set-up");
	if (!b)
		return;
	tap_ok(failed(do_mlockall(0), EINVAL), "ML-10 mlockall(0): EINVAL");
	tap_ok(failed(do_mlockall(MCL_ONFAULT), EINVAL), "ML-10 mlockall(MCL_ONFAULT) alone: EINVAL");
	tap_ok(failed(do_mlockall(8), EINVAL), "ML-10 mlockall with an unknown flag: EINVAL");
	tap_ok(vm_flag(b, "lo") == 0, "ML-10 nothing locked");

	tap_ok(do_mlockall(MCL_FUTURE) == 0 && vm_flag(b, "lo") == 0, "ML-11 MCL_FUTURE leaves what is mapped alone");
	m = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0);
	tap_ok(m != MAP_FAILED && vm_flag(m, "lo") == 1 && resident(m, 2) == 2,
	       "ML-11 a new mapping is locked and populated");
	brk0 = sbrk(0);
	tap_ok(sbrk(2 * PAGE) != (void *)-1 && vm_flag(brk0 + PAGE, "lo") == 1, "ML-11 so is new heap");
	sbrk(-2 * (long)PAGE);
	munmap(m, 2 * PAGE);
	tap_ok(do_mlockall(MCL_FUTURE | MCL_ONFAULT) == 0, "ML-11 mlockall(MCL_FUTURE | MCL_ONFAULT): 0");
	m = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0);
	tap_ok(m != MAP_FAILED && vm_flag(m, "lo") == 1 && resident(m, 2) == 0,
	       "ML-11 now a new mapping is locked but not populated");
	munmap(m, 2 * PAGE);
	tap_ok(do_munlockall() == 0, "ML-13 munlockall: 0");
	m = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0);
	tap_ok(m != MAP_FAILED && vm_flag(m, "lo") == 0, "ML-13 munlockall ends MCL_FUTURE");
	munmap(m, 2 * PAGE);

	tap_ok(do_mlockall(MCL_CURRENT) == 0, "ML-12 mlockall(MCL_CURRENT): 0");
	tap_ok(vm_flag(b, "lo") == 1 && resident(b, 3) == 3, "ML-12 an untouched mapping is locked and populated");
	tap_ok(vmlck() >= 3 * (long)PAGE / 1024, "ML-15 VmLck covers it (%ld kB)", vmlck());
	m = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0);
	tap_ok(m != MAP_FAILED && vm_flag(m, "lo") == 0, "ML-12 MCL_CURRENT alone does not lock later mappings");
	munmap(m, 2 * PAGE);
	tap_ok(do_munlockall() == 0 && vm_flag(b, "lo") == 0 && vmlck() == 0, "ML-13 munlockall: nothing locked, VmLck 0");
	tap_ok(strcmp(shape(b, b + 3 * PAGE), "rw-p:3") == 0, "ML-13 shapes unchanged: %s", shape(b, b + 3 * PAGE));
	munmap(b, 3 * PAGE);
}

static void test_fork(void)
{
	char *b = three();
	pid_t pid;

	tap_ok(b && do_mlock(b + PAGE, PAGE) == 0, "set-up: the middle page of three locked");
	if (!b)
		return;
	pid = fork();
	if (pid == 0) {
		int bad = 0;

		bad |= vm_flag(b + PAGE, "lo") != 0;
		bad |= (vmlck() != 0) << 1;
		bad |= (do_mlockall(MCL_FUTURE) != 0) << 2;
		_exit(bad);
	}
	tap_is_long(child_status(pid), 0, "ML-14 the fork child has no locks (no lo, VmLck 0)");
	tap_ok(vm_flag(b + PAGE, "lo") == 1, "ML-14 the parent keeps its lock");
	munmap(b, 3 * PAGE);
}

/*
 * ML-14: the child's VMAs are the parent's one to one. Three read-only
 * pages, never written (no anon identity), the middle one locked: in the
 * child the lock is gone and the three are alike, yet stay three.
 */
static void test_fork_pieces(void)
{
	char *h = hole(5), *b = h ? h + PAGE : NULL;
	pid_t pid;

	if (!h || anon(b, 3 * PAGE, PROT_READ, MAP_FIXED) != b || do_mlock(b + PAGE, PAGE) != 0) {
		tap_ok(0, "set-up: three read-only pages, the middle one locked (errno %d)", errno);
		return;
	}
	pid = fork();
	if (pid == 0)
		_exit(strcmp(shape(b, b + 3 * PAGE), "r--p:1 r--p:1 r--p:1") != 0);
	tap_is_long(child_status(pid), 0, "ML-14 the child keeps the three pieces the lock made, now alike");
	tap_ok(strcmp(shape(b, b + 3 * PAGE), "r--p:1 r--p:1 r--p:1") == 0, "ML-14 the parent too (%s)",
	       shape(b, b + 3 * PAGE));
	munmap(b, 3 * PAGE);
}

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

static void test_mremap(void)
{
	char *h = hole(8), *b, *r, *to;
	long before = vmlck();

	b = h ? anon(h, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED) : MAP_FAILED;
	tap_ok(b != MAP_FAILED && do_mlock(b, 2 * PAGE) == 0, "set-up: two locked pages before a hole");
	if (b == MAP_FAILED)
		return;
	r = mremap(b, 2 * PAGE, 4 * PAGE, 0);
	tap_ok(r == b && vm_flag(b + 3 * PAGE, "lo") == 1 && resident(b, 4) == 4,
	       "ML-17 growing a locked mapping in place: the growth is locked and populated");
	tap_is_long(vmlck() - before, 4 * PAGE / 1024, "ML-17 VmLck counts the growth");
	to = hole(4);
	r = to ? mremap(b, 4 * PAGE, 4 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, to) : MAP_FAILED;
	tap_ok(r == to && vm_flag(to, "lo") == 1 && vm_flag(b, "lo") == 0,
	       "ML-17 MREMAP_DONTUNMAP: the new mapping is locked, the old one not any more");
	if (r != MAP_FAILED)
		munmap(r, 4 * PAGE);
	munmap(b, 4 * PAGE);
	tap_is_long(vmlck() - before, 0, "ML-15 both unmapped: VmLck back");
}

/*
 * MR-20, ML-17: MREMAP_DONTUNMAP of the middle page of a locked VMA of
 * three written pages: the old VMA is split at the moved page, which alone
 * loses its lock and reads as zero (Linux 6.12 measured).
 */
static void test_dontunmap_part(void)
{
	char *b = three(), *to = hole(1), *r;

	if (!b || !to || do_mlock(b, 3 * PAGE) != 0) {
		tap_ok(0, "set-up: three locked pages and a hole (errno %d)", errno);
		return;
	}
	memset(b, 7, 3 * PAGE);
	r = mremap(b + PAGE, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, to);
	tap_ok(r == to && all_bytes(to, PAGE, 7) && vm_flag(to, "lo") == 1,
	       "MR-20 MREMAP_DONTUNMAP of the middle page: moved, locked at its new place");
	tap_ok(strcmp(shape(b, b + 3 * PAGE), "rw-p:1 rw-p:1 rw-p:1") == 0 && vm_flag(b, "lo") == 1 &&
		       vm_flag(b + PAGE, "lo") == 0 && vm_flag(b + 2 * PAGE, "lo") == 1 && all_bytes(b + PAGE, PAGE, 0) &&
		       all_bytes(b, PAGE, 7) && all_bytes(b + 2 * PAGE, PAGE, 7),
	       "MR-20 ML-17 the old VMA is cut in three: the middle unlocked and zero, the ends locked (%s)",
	       shape(b, b + 3 * PAGE));
	munmap(b, 3 * PAGE);
	if (r != MAP_FAILED)
		munmap(r, PAGE);
}

static void test_sealed(void)
{
	char *b = three();

	tap_ok(b && syscall(SYS_mseal, b, 3 * PAGE, 0) == 0, "set-up: three sealed pages");
	if (!b)
		return;
	tap_ok(do_mlock(b + PAGE, PAGE) == 0 && strcmp(shape(b, b + 3 * PAGE), "rw-p:1 rw-p:1 rw-p:1") == 0,
	       "MS-32 mlock splits a sealed VMA: %s", shape(b, b + 3 * PAGE));
	tap_ok(vm_flag(b, "sl") == 1 && vm_flag(b + PAGE, "sl") == 1 && vm_flag(b + 2 * PAGE, "sl") == 1,
	       "MS-32 every piece stays sealed");
	tap_ok(do_munlock(b, 3 * PAGE) == 0 && strcmp(shape(b, b + 3 * PAGE), "rw-p:3") == 0,
	       "MS-32 and merges back sealed on munlock");
	/* sealed memory cannot be unmapped: it stays for the rest of the run */
}

int main(void)
{
	tap_init();
	test_args();
	test_split_merge();
	test_onfault();
	test_map_locked();
	test_prot_none();
	test_rlimit();
	test_mlockall();
	test_fork();
	test_fork_pieces();
	test_mremap();
	test_dontunmap_part();
	test_sealed();
	return tap_done();
}
