/* hugesizes.c - hugetlb pages of every size the kernel offers, chosen with
 * mmap's MAP_HUGE_SHIFT bits, as Linux does them:
 *   - the sizes mmap accepts are exactly the arch's (arm64 with 4K pages:
 *     64K, 2M, 32M, 1G; 16K pages: 2M, 32M, 1G; 64K pages: 2M, 512M, 16G;
 *     MicroBlaze: 4M, 16M), any other size is EINVAL, and /proc/meminfo's
 *     Hugepagesize is the default one (the block above pages);
 *   - /sys/kernel/mm/hugepages lists the same sizes, each pool's counts
 *     follow mmap (resv_hugepages) and faults (free_hugepages), and the
 *     test fills each pool through its nr_hugepages;
 *   - for each size but the default with two pages in its pool (sizes up
 *     to 32M: Linux's filled through sysfs, larger ones only from the
 *     boot's pools): the mapping is
 *     aligned to the size, zeroed, misaligned munmap/mprotect/MAP_FIXED and
 *     mremap are EINVAL, an aligned part unmaps, mprotect of a whole page
 *     (read-only, PROT_NONE and back) keeps its data, a private page is
 *     copied on write after fork, a shared one is shared, mremap moves one
 *     with its data and never grows it.
 * Pools: through sysfs on both kernels (the test mounts it on /sys if it is
 * not there, and unmounts it after), on top of any the bootargs filled
 * (hugepagesz=64K hugepages=2 ..., tests/qemu-configs); a size that cannot
 * get two pages is skipped.
 * On this kernel only (uname release ending in "-teachos"):
 * /proc/self/pagetables shows the pages of a contiguous-run size as runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "tap.h"
#include "mm_util.h"

#ifndef MAP_HUGETLB
#define MAP_HUGETLB 0x40000
#endif
#ifndef MREMAP_MAYMOVE
#define MREMAP_MAYMOVE 1
#endif
#ifndef MREMAP_FIXED
#define MREMAP_FIXED 2
#endif
#define HUGE_SHIFT 26	/* MAP_HUGE_SHIFT */
#define MAX_SIZES 8

#if defined(__aarch64__)
#define NR(a, m) (a)
#elif defined(__microblaze__)
#define NR(a, m) (m)
#else
#error "hugesizes: unsupported architecture"
#endif
#define NR_getdents64	NR(61, 220)
#define NR_mkdirat	NR(34, 296)
#define NR_unlinkat	NR(35, 301)
#define NR_umount2	NR(39, 52)
#define AT_FDCWD_	-100
#define AT_REMOVEDIR_	0x200

static char buf[16384];
static unsigned long cur_size;	/* the huge page size test_size() is at */
static int use_sysfs;		/* /sys/kernel/mm/hugepages is there */

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

/* The huge-page shifts this arch's Linux offers, smallest first; *dflt: the default one. */
static int expected_shifts(int *shifts, int *dflt)
{
#if defined(__aarch64__)
	static const int s4k[] = { 16, 21, 25, 30 }, s16k[] = { 21, 25, 30 }, s64k[] = { 21, 29, 34 };
	const int *s = PAGE == 4096 ? s4k : PAGE == 16384 ? s16k : s64k;
	int n = PAGE == 4096 ? 4 : 3;

	*dflt = PAGE == 4096 ? 21 : PAGE == 16384 ? 25 : 29;
#else
	/* Ours (asm/mmu.h): 4K pages: 4M block, 16M run of blocks; 16K: 16M run
	 * of pages, 64M block (the default); 64K: 16M run of pages only. */
	static const int s4k[] = { 22, 24 }, s16k[] = { 24, 26 }, s64k[] = { 24 };
	const int *s = PAGE == 4096 ? s4k : PAGE == 16384 ? s16k : s64k;
	int n = PAGE == 65536 ? 1 : 2;

	*dflt = PAGE == 4096 ? 22 : PAGE == 16384 ? 26 : 24;
#endif
	memcpy(shifts, s, (size_t)n * sizeof(int));
	return n;
}

static void *map_huge(unsigned long len, int shift, int flags, void *addr)
{
	return mmap(addr, len, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS | MAP_HUGETLB |
		    (shift << HUGE_SHIFT), -1, 0);
}

/* The shifts mmap(MAP_HUGETLB | MAP_NORESERVE) accepts; every other one must be EINVAL. */
static int probe_shifts(int *shifts, int *bad_errno)
{
	int n = 0, top = sizeof(long) == 8 ? 40 : 31;

	*bad_errno = 0;
	for (int sh = 12; sh <= top; sh++) {
		void *p;

		errno = 0;
		p = map_huge(PAGE, sh, MAP_PRIVATE | MAP_NORESERVE, NULL);
		if (p != MAP_FAILED) {
			munmap(p, 1ul << sh);
			if (n < MAX_SIZES)
				shifts[n++] = sh;
		} else if (errno != EINVAL && !*bad_errno) {
			*bad_errno = errno;
		}
	}
	return n;
}

static void shifts_text(const int *s, int n, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%lukB", i ? "," : "", (1ul << s[i]) >> 10);
}

/* ---- sysfs: the sizes listed, and each size's pool ---- */

static int sysfs_made_dir, sysfs_mounted;	/* by this test: undone at its end */

/* Is /sys/kernel/mm/hugepages there (mounting sysfs on /sys if nothing is)? */
static int sysfs_ready(void)
{
	int fd = open("/sys/kernel/mm/hugepages", O_RDONLY | O_DIRECTORY);

	if (fd < 0) {
		if (syscall(NR_mkdirat, AT_FDCWD_, "/sys", 0755) == 0)
			sysfs_made_dir = 1;
		if (mount("sysfs", "/sys", "sysfs", 0, NULL) == 0) {
			sysfs_mounted = 1;
			fd = open("/sys/kernel/mm/hugepages", O_RDONLY | O_DIRECTORY);
		}
	}
	if (fd < 0) {
		if (sysfs_mounted)
			syscall(NR_umount2, "/sys", 0);
		sysfs_mounted = 0;
		if (sysfs_made_dir)
			syscall(NR_unlinkat, AT_FDCWD_, "/sys", AT_REMOVEDIR_);
		sysfs_made_dir = 0;
		return 0;
	}
	close(fd);
	return 1;
}

/* The sizes /sys/kernel/mm/hugepages lists (hugepages-<N>kB), as shifts, sorted. */
static int sysfs_shifts(int *shifts)
{
	static char d[4096];
	int fd = open("/sys/kernel/mm/hugepages", O_RDONLY | O_DIRECTORY), n = 0;
	long got;

	if (fd < 0)
		return -1;
	while ((got = syscall(NR_getdents64, fd, d, sizeof(d))) > 0) {
		for (long off = 0; off < got;) {
			unsigned short reclen;
			const char *name = d + off + 19;
			unsigned long kb;

			memcpy(&reclen, d + off + 16, 2);
			off += reclen;
			if (strncmp(name, "hugepages-", 10) != 0)
				continue;
			kb = strtoul(name + 10, NULL, 10);
			for (int sh = 10; sh < (int)(8 * sizeof(long)) && n < MAX_SIZES; sh++)
				if ((1ul << sh) == kb << 10)
					shifts[n++] = sh;
		}
	}
	close(fd);
	for (int i = 1; i < n; i++)	/* insertion sort */
		for (int j = i; j > 0 && shifts[j - 1] > shifts[j]; j--) {
			int t = shifts[j];

			shifts[j] = shifts[j - 1];
			shifts[j - 1] = t;
		}
	return n;
}

/* A count of a size's pool directory (free_hugepages, resv_hugepages ...), or -1. */
static long sysfs_count(int shift, const char *file)
{
	char path[112];

	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%lukB/%s", (1ul << shift) >> 10, file);
	return read_text(path) < 0 ? -1 : strtol(buf, NULL, 10);
}

/* Read (set < 0) or write the pool of a size through sysfs; the pool size, or -1. */
static long sysfs_pool(int shift, long set)
{
	char path[96], s[32];
	int fd, len;

	snprintf(path, sizeof(path), "/sys/kernel/mm/hugepages/hugepages-%lukB/nr_hugepages",
		 (1ul << shift) >> 10);
	if (set >= 0) {
		fd = open(path, O_WRONLY);
		len = snprintf(s, sizeof(s), "%ld\n", set);
		if (fd < 0 || write(fd, s, (size_t)len) != len) {
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
	}
	return read_text(path) < 0 ? -1 : strtol(buf, NULL, 10);
}

/* ---- one size ---- */

static unsigned char tag(int i)
{
	return (unsigned char)(0x30 + i);
}

/* Every word we sample of [p, p + len) is zero: the first and last of each page. */
static int zeroed(const unsigned char *p, unsigned long len)
{
	for (unsigned long off = 0; off < len; off += PAGE)
		if (*(const volatile uint32_t *)(p + off) != 0 || *(const volatile uint32_t *)(p + off + PAGE - 4) != 0)
			return 0;
	return 1;
}

/* The /proc/self/pagemap entry of va (0 if unreadable). */
static uint64_t pagemap(const void *va)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd >= 0) {
		off_t off = (off_t)((uintptr_t)va / PAGE * sizeof(e));	/* below 2 GiB on 32-bit MicroBlaze */

		if (lseek(fd, off, SEEK_SET) != off || read(fd, &e, sizeof(e)) != (ssize_t)sizeof(e))
			e = 0;
		close(fd);
	}
	return e;
}

/* Are the small pages of the huge page at p present, the 2nd and the last on the frames after the 1st's? */
static int frames_follow(const unsigned char *p)
{
	const uint64_t present = 1ull << 63, pfn = (1ull << 55) - 1;
	uint64_t a = pagemap(p), b = pagemap(p + PAGE), z = pagemap(p + cur_size - PAGE);

	return (a & present) && (b & present) && (z & present) && (a & pfn) != 0 &&
	       (b & pfn) == (a & pfn) + 1 && (z & pfn) == (a & pfn) + cur_size / PAGE - 1;
}

/* Where a mapping of len bytes aligned to align can go (a hole, found and given back). */
static unsigned char *aligned_hole(unsigned long len, unsigned long align)
{
	unsigned char *r = mmap(NULL, len + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (r == MAP_FAILED)
		return NULL;
	munmap(r, len + align);
	return (unsigned char *)(((uintptr_t)r + align - 1) & ~(uintptr_t)(align - 1));
}

static void test_fork_shared(int shift, unsigned long s, const char *name)
{
	unsigned char *m = map_huge(s, shift, MAP_SHARED, NULL);
	int st = -1;

	if (m == MAP_FAILED) {
		tap_ok(0, "%s: MAP_SHARED mapping (errno %d)", name, errno);
		return;
	}
	m[PAGE] = 1;
	pid_t pid = fork();

	if (pid == 0) {
		m[PAGE] = 2;
		_exit(0);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && m[PAGE] == 2,
	       "%s: a shared page after fork: the child's write is seen by the parent", name);
	munmap(m, s);
}

static void test_size(int shift)
{
	const unsigned long s = 1ul << shift;
	char name[32];
	unsigned char *p, *t;
	void *r;
	int st = -1, ok;

	long resv0 = use_sysfs ? sysfs_count(shift, "resv_hugepages") : 0;
	long free0 = use_sysfs ? sysfs_count(shift, "free_hugepages") : 0;

	cur_size = s;
	snprintf(name, sizeof(name), "%lu kB pages", s >> 10);
	errno = 0;
	p = map_huge(2 * s - PAGE, shift, MAP_PRIVATE, NULL);	/* the length rounds up to two pages */
	if (p == MAP_FAILED) {
		tap_skip("%s: no pool of 2 pages (errno %d; our kernel: hugepagesz=%lu%s hugepages=2)", name, errno,
			 s >= (1ul << 20) ? s >> 20 : s >> 10, s >= (1ul << 20) ? "M" : "K");
		return;
	}
	tap_ok(((uintptr_t)p & (s - 1)) == 0, "%s: the mapping is aligned to its size (%p)", name, (void *)p);
	if (use_sysfs)
		tap_ok(sysfs_count(shift, "resv_hugepages") == resv0 + 2 && sysfs_count(shift, "free_hugepages") == free0,
		       "%s: sysfs: the mmap reserved 2 pages (resv_hugepages %ld, free_hugepages %ld)", name,
		       sysfs_count(shift, "resv_hugepages"), sysfs_count(shift, "free_hugepages"));
	tap_ok(zeroed(p, 2 * s), "%s: both pages read as zero", name);
	if (use_sysfs)
		tap_ok(sysfs_count(shift, "resv_hugepages") == resv0 && sysfs_count(shift, "free_hugepages") == free0 - 2,
		       "%s: sysfs: the faults took the reserved pages (resv_hugepages %ld, free_hugepages %ld)", name,
		       sysfs_count(shift, "resv_hugepages"), sysfs_count(shift, "free_hugepages"));
	for (unsigned long off = 0; off < 2 * s; off += PAGE)
		p[off] = tag((int)(off / s));

	if (on_teachos()) {
		char want[64], sz[24];
		unsigned long n = s >> 10;
		int u = 0;

		while (n % 1024 == 0 && u < 2) {	/* ptdump's unit: the largest that divides it */
			n /= 1024;
			u++;
		}
		snprintf(sz, sizeof(sz), "%lu%c", n, "KMG"[u]);
		snprintf(want, sizeof(want), "%s cont runs: 2", sz);
		ok = read_text("/proc/self/pagetables") > 0 && strstr(buf, want) != NULL;
		tap_ok(ok, "%s: /proc/self/pagetables shows each page as one contiguous run (%s)", name, want);
		if (!ok)
			tap_diag("%s", buf);
	}

	errno = 0;
	tap_ok(munmap(p + PAGE, PAGE) == -1 && errno == EINVAL, "%s: MU-5: munmap inside a page: EINVAL (errno %d)",
	       name, errno);
	errno = 0;
	tap_ok(munmap(p, s + PAGE) == -1 && errno == EINVAL,
	       "%s: MU-5: munmap ending inside a page: EINVAL (errno %d)", name, errno);
	errno = 0;
	tap_ok(mprotect(p + PAGE, s, PROT_READ) == -1 && errno == EINVAL,
	       "%s: mprotect starting inside a page: EINVAL (errno %d)", name, errno);
	errno = 0;
	r = map_huge(s, shift, MAP_PRIVATE | MAP_FIXED | MAP_NORESERVE, p + 2 * s + PAGE);
	tap_ok(r == MAP_FAILED && errno == EINVAL, "%s: MAP_FIXED at an address not aligned to the size: EINVAL (errno %d)",
	       name, errno);
	errno = 0;
	tap_ok(mremap(p + PAGE, s - PAGE, s - PAGE, MREMAP_MAYMOVE) == MAP_FAILED && errno == EINVAL,
	       "%s: MR-7: mremap of an address inside a page: EINVAL (errno %d)", name, errno);

	tap_ok(frames_follow(p), "%s: /proc/self/pagemap: each page present, on consecutive frames", name);
	ok = mprotect(p, s, PROT_READ) == 0 && p[0] == tag(0) && p[s - PAGE] == tag(0);
	ok = ok && mprotect(p + s, s, PROT_NONE) == 0;
	tap_ok(ok && frames_follow(p + s), "%s: a PROT_NONE page stays present in pagemap, on consecutive frames", name);
	ok = ok && mprotect(p, 2 * s, PROT_READ | PROT_WRITE) == 0;
	tap_ok(ok && p[s] == tag(1) && p[2 * s - PAGE] == tag(1),
	       "%s: mprotect of whole pages (read-only, PROT_NONE, back to read-write) keeps the data", name);
	p[1] = 0x11;	/* writable again */

	tap_ok(munmap(p + s, s) == 0 && p[0] == tag(0), "%s: munmap of the second page (aligned) works", name);

	/* fork: the child's write to the private page is its own (the freed page takes the copy) */
	pid_t pid = fork();

	if (pid == 0) {
		p[0] = 0x77;
		_exit(p[0] == 0x77 && p[PAGE] == tag(0) && p[1] == 0x11 ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && p[0] == tag(0) && p[1] == 0x11,
	       "%s: copy-on-write after fork: the child sees its write, the parent keeps its data", name);
	p[2] = 0x22;

	t = aligned_hole(s, s);
	errno = 0;
	r = t ? mremap(p, s, s, MREMAP_MAYMOVE | MREMAP_FIXED, t) : MAP_FAILED;
	tap_ok(r == (void *)t && t[0] == tag(0) && t[2] == 0x22 && t[s - PAGE] == tag(0),
	       "%s: mremap MREMAP_FIXED moves the page with its data (errno %d)", name, errno);
	if (r == MAP_FAILED)
		t = p;
	errno = 0;
	tap_ok(mremap(t, s, 2 * s, MREMAP_MAYMOVE) == MAP_FAILED && errno == EINVAL,
	       "%s: MR-7: mremap never grows a hugetlb mapping: EINVAL (errno %d)", name, errno);
	munmap(t, s);

	test_fork_shared(shift, s, name);
}

int main(void)
{
	int want[MAX_SIZES], got[MAX_SIZES], dflt, bad_errno;
	int nw, ng, sysfs;
	char ws[128], gs[128];
	long saved[MAX_SIZES];

	tap_init();
	nw = expected_shifts(want, &dflt);
	ng = probe_shifts(got, &bad_errno);
	shifts_text(want, nw, ws, sizeof(ws));
	shifts_text(got, ng, gs, sizeof(gs));
	tap_ok(ng == nw && memcmp(want, got, (size_t)nw * sizeof(int)) == 0 && !bad_errno,
	       "MM-2: MAP_HUGE_SHIFT sizes accepted: %s (want %s; other sizes EINVAL, errno %d)", gs, ws, bad_errno);
	errno = 0;
	tap_ok(map_huge(PAGE, 20, MAP_PRIVATE | MAP_NORESERVE, NULL) == MAP_FAILED && errno == EINVAL,
	       "MM-2: MAP_HUGE_1MB, a size no arch here has: EINVAL (errno %d)", errno);
	tap_ok(meminfo("Hugepagesize") == (long)((1ul << dflt) >> 10), "/proc/meminfo's Hugepagesize is the default size (%ld kB)",
	       meminfo("Hugepagesize"));

	sysfs = use_sysfs = sysfs_ready();
	if (sysfs) {
		ng = sysfs_shifts(got);
		shifts_text(got, ng > 0 ? ng : 0, gs, sizeof(gs));
		tap_ok(ng == nw && memcmp(want, got, (size_t)nw * sizeof(int)) == 0,
		       "/sys/kernel/mm/hugepages lists %s (want %s)", gs, ws);
		errno = 0;
		tap_ok(open("/sys/kernel/mm/hugepages/hugepages-1024kB/nr_hugepages", O_RDONLY) < 0 && errno == ENOENT,
		       "sysfs: no directory for a size there is none of: ENOENT (errno %d)", errno);
		tap_ok(sysfs_count(dflt, "nr_hugepages") == meminfo("HugePages_Total") &&
		       sysfs_count(dflt, "free_hugepages") == meminfo("HugePages_Free") &&
		       sysfs_count(dflt, "surplus_hugepages") == 0,
		       "sysfs: the default size's nr/free/surplus_hugepages match /proc/meminfo");
	} else {
		tap_skip("no /sys/kernel/mm/hugepages here");
	}

	for (int i = 0; i < nw; i++) {
		if (want[i] == dflt)
			continue;	/* the default size is hugetlb's (tests/user/hugetlb.c) */
		/* sizes above 32M only from a pool the boot filled: they would not fit these boots */
		saved[i] = sysfs && want[i] <= 25 ? sysfs_pool(want[i], -1) : -1;
		if (saved[i] >= 0)
			sysfs_pool(want[i], saved[i] + 2);
		test_size(want[i]);
		if (saved[i] >= 0)
			tap_ok(sysfs_pool(want[i], saved[i]) == saved[i], "%lu kB pool given back through sysfs",
			       (1ul << want[i]) >> 10);
	}
	if (sysfs_mounted)
		syscall(NR_umount2, "/sys", 0);
	if (sysfs_made_dir)
		syscall(NR_unlinkat, AT_FDCWD_, "/sys", AT_REMOVEDIR_);
	return tap_done();
}
