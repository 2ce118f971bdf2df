/* mm_failinj.c - every address-space call with an allocation failure
 * injected at each allocation it makes (FI-*): the call fails with Linux's
 * errno for "no memory" and /proc/self/maps is exactly as before (the calls
 * here touch one VMA, where Linux is atomic too), the data is intact; or,
 * where Linux ignores the failure (MAP_POPULATE), the call succeeds. Pages
 * lost on a failure path show up in /init's leak check after this program.
 *
 * The kernel's /proc/sys/vm/fail_alloc (mm/fail_alloc.h): writing N makes
 * the Nth page or slab allocation from then on fail, once; writing 0
 * disarms; reading gives "<countdown> <fired>". For each call, N runs from
 * 1 up until the call no longer reaches the Nth allocation (fired did not
 * move). Linux has no such file: every point is skipped there.
 *
 * Allocation points each call reaches here (arm64 and MicroBlaze, make
 * check): mmap 1, mmap MAP_POPULATE 5, mmap MAP_FIXED 3, munmap 2,
 * mprotect 2, madvise(DONTFORK) 2, madvise(GUARD_INSTALL) 1, mseal 2,
 * mremap move 1, MREMAP_FIXED 2, mremap in place 1, mremap duplicate 1,
 * brk 1, fork 20 on arm64 (21 with glibc) / 16 on MicroBlaze (kernel stack, mm, root
 * table, each VMA and table of this process), mprotect over a huge page 2
 * (its split takes none), mremap MREMAP_FIXED of the second of two hugetlb
 * pages 3 on arm64 (the new VMA, the split, the table) / 2 on MicroBlaze
 * (its 4 MiB leaves need no table). The TAP
 * line of each says the count it found.
 */
#include "mm_util.h"

#define NSCEN 20
#define MAXN 512	/* more allocations than any call here makes */

static int ctl = -1;
static char before[sizeof(mm_procbuf)];

/* The number of failures injected so far, or -1. */
static long fired(void)
{
	char buf[64];
	int fd = open("/proc/sys/vm/fail_alloc", O_RDONLY);
	long n, cd = 0, f = -1;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0) {
		char *e;

		buf[n] = '\0';
		cd = strtol(buf, &e, 10);
		if (e != buf && *e == ' ')
			f = strtol(e + 1, NULL, 10);
	}
	(void)cd;
	return f;
}

static void arm(const char *n)
{
	if (write(ctl, n, strlen(n)) < 0)
		tap_diag("cannot write fail_alloc: errno %d", errno);
}

/* One scenario: set up, the measured call (its result: 0 ok, else errno), clean up. */
struct scen {
	const char *name;
	int want;		/* errno on an injected failure; 0: success, or ENOMEM changing nothing */
	void (*setup)(void);
	int (*call)(void);
	int (*intact)(void);	/* the data is still there (after a failure) */
	void (*cleanup)(void);
};

static char *region;	/* the scenario's mapping */
static char *aux;
static void *res;

static int ok_or_errno(int r)
{
	return r == 0 ? 0 : errno;
}

static void map3(void)
{
	region = anon(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, 0);
	memset(region, 'q', 3 * PAGE);
}

static void map3_shared(void)
{
	region = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	memset(region, 'q', 3 * PAGE);
}

static int intact3(void)
{
	return all_bytes(region, 3 * PAGE, 'q');
}

static int intact_none(void)
{
	return 1;
}

static void unmap3(void)
{
	munmap(region, 3 * PAGE);
	if (res && res != MAP_FAILED)
		munmap(res, 4 * PAGE);
	res = NULL;
}

static void nothing(void)
{
	region = NULL;
}

static int c_mmap(void)
{
	res = mmap(NULL, 4 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return res == MAP_FAILED ? errno : 0;
}

static int c_mmap_populate(void)
{
	res = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	return res == MAP_FAILED ? errno : 0;
}

static void unmap_res(void)
{
	if (res != MAP_FAILED)
		munmap(res, 4 * PAGE);
	res = NULL;
}

static int c_mmap_fixed(void)
{
	void *r = mmap(region + PAGE, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	return r == MAP_FAILED ? errno : 0;
}

static int c_munmap(void)
{
	return ok_or_errno(munmap(region + PAGE, PAGE));
}

static int c_mprotect(void)
{
	return ok_or_errno(mprotect(region + PAGE, PAGE, PROT_READ));
}

static int c_madvise(void)
{
	return ok_or_errno(madvise(region + PAGE, PAGE, MADV_DONTFORK));
}

static int c_guard(void)
{
	/* a page whose table is not there yet: the guard needs one */
	return ok_or_errno(madvise(aux, PAGE, MADV_GUARD_INSTALL));
}

/*
 * aux: a page in the middle of a fresh reservation of three FAR_ALIGNs,
 * FAR_ALIGN aligned, so no last-level table covers it yet (one table maps
 * PAGE * PAGE / 8 on arm64: 2 MiB with 4K pages, 32 MiB with 16K, 512 MiB
 * with 64K; PAGE * PAGE / 4 on MicroBlaze: 4 MiB, 64 MiB, 1 GiB; tables
 * stay after munmap, so only the first round of a scenario meets a missing
 * one). MAP_NORESERVE: with 64K pages the reservation (3 GiB) is larger
 * than RAM. MicroBlaze with 64K pages has 3 GiB of user space in three
 * 1 GiB tables, which the program's text and stack already need two of:
 * there the scenarios that need a fresh table are skipped (far_possible).
 */
#if defined(__aarch64__)
#define FAR_ALIGN (2 * PAGE * (PAGE / 8))
#else
#define FAR_ALIGN (PAGE * (PAGE / 4))
#endif
#define FAR (3 * FAR_ALIGN)
static char *far;

/* Is there room for a reservation of FAR bytes (below half the address space)? */
static int far_possible(void)
{
	return FAR_ALIGN < (1UL << (sizeof(long) * 8 - 3));
}

static void map_far(void)
{
	map3();
	far = anon(NULL, FAR, PROT_READ | PROT_WRITE, MAP_NORESERVE);
	aux = (char *)(((unsigned long)far + FAR_ALIGN) & ~(FAR_ALIGN - 1));
}

static void unmap_far(void)
{
	munmap(region, 3 * PAGE);
	munmap(far, FAR);
}

static int c_mseal(void)
{
	return ok_or_errno(do_mseal(region + PAGE, PAGE, 0));
}

static int c_mremap_move(void)
{
	/* region's next page is mapped (aux): growing must move */
	res = mremap(region, 2 * PAGE, 8 * PAGE, MREMAP_MAYMOVE);
	return res == MAP_FAILED ? errno : 0;
}

static void map_blocked(void)
{
	map3();
	munmap(region + 2 * PAGE, PAGE);
	aux = anon(region + 2 * PAGE, PAGE, PROT_READ, MAP_FIXED);
}

static int intact_moved(void)
{
	return all_bytes(region, 2 * PAGE, 'q');
}

static void unmap_blocked(void)
{
	munmap(region, 3 * PAGE);
	if (res && res != MAP_FAILED)
		munmap(res, 8 * PAGE);
	res = NULL;
}

static int c_mremap_far(void)
{
	res = mremap(region, 3 * PAGE, 3 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, aux);
	return res == MAP_FAILED ? errno : 0;
}

static void map_far_hole(void)
{
	map_far();
	munmap(far, FAR);	/* a hole that never had tables */
}

static void unmap_far_hole(void)
{
	munmap(region, 3 * PAGE);
	munmap(aux, 3 * PAGE);
	res = NULL;
}

static int c_mremap_grow(void)
{
	res = mremap(region, 3 * PAGE, 4 * PAGE, 0);
	return res == MAP_FAILED ? errno : 0;
}

static void map_growable(void)
{
	char *h = hole(8);

	region = anon(h, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	memset(region, 'q', 3 * PAGE);
}

static void unmap_growable(void)
{
	munmap(region, 4 * PAGE);
	res = NULL;
}

static int c_mremap_dup(void)
{
	res = mremap(region, 0, 3 * PAGE, MREMAP_MAYMOVE);
	return res == MAP_FAILED ? errno : 0;
}

static void unmap_dup(void)
{
	munmap(region, 3 * PAGE);
	if (res && res != MAP_FAILED)
		munmap(res, 3 * PAGE);
	res = NULL;
}

static char *brk0;

static void brk_setup(void)
{
	brk0 = (char *)syscall(SYS_brk, 0);
	region = NULL;
}

static int c_brk(void)
{
	char *r = (char *)syscall(SYS_brk, brk0 + 4 * PAGE);

	return r == brk0 + 4 * PAGE ? 0 : ENOMEM;
}

static void brk_cleanup(void)
{
	syscall(SYS_brk, brk0);
}

static int c_mlock(void)
{
	return ok_or_errno((int)syscall(SYS_mlock, region + PAGE, PAGE));
}

static void map3_locked(void)
{
	map3();
	syscall(SYS_mlock, region, 3 * PAGE);
}

static int c_munlock(void)
{
	return ok_or_errno((int)syscall(SYS_munlock, region + PAGE, PAGE));
}

/* Three untouched pages between holes (so a lock of all three needs no split). */
static void map3_fresh(void)
{
	char *h = hole(5);

	region = anon(h + PAGE, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
}

static int c_mlock_populate(void)
{
	return ok_or_errno((int)syscall(SYS_mlock, region, 3 * PAGE));
}

static int c_mlockall(void)
{
	return ok_or_errno((int)syscall(SYS_mlockall, 1 /* MCL_CURRENT */));
}

static void munlockall_unmap3(void)
{
	syscall(SYS_munlockall);
	unmap3();
}

#ifndef MADV_HUGEPAGE
#define MADV_HUGEPAGE 14
#endif
#define THP_SPAN (4UL << 20)	/* a huge leaf: 2 MiB on arm64, 4 MiB on MicroBlaze */
static char *thp_area;
static int thp_made;

/*
 * region: 4 MiB of one transparent huge page (or two), written with 'q':
 * the first aligned block of a fresh area that gets one (a block whose
 * slot already holds a table, left by an earlier mapping, gets none).
 */
static void map_thp(void)
{
	thp_area = anon(NULL, 9 * THP_SPAN, PROT_READ | PROT_WRITE, 0);
	region = (char *)(((unsigned long)thp_area + THP_SPAN - 1) & ~(THP_SPAN - 1));
	thp_made = 0;
	for (int i = 0; i < 8 && !thp_made; i++, region += THP_SPAN) {
		madvise(region, THP_SPAN, MADV_HUGEPAGE);
		memset(region, 'q', THP_SPAN);
		thp_made = meminfo("AnonHugePages") > 0;
	}
	region -= THP_SPAN;
}

static int c_mprotect_thp(void)
{
	if (!thp_made)
		return EDOM;	/* no huge page to split: the scenario would prove nothing */
	return ok_or_errno(mprotect(region + PAGE, PAGE, PROT_READ));
}

static int intact_thp(void)
{
	return all_bytes(region, THP_SPAN, 'q');
}

/* Kept mapped (until exit): the next round needs a place whose huge slot
 * no table has taken yet, and tables stay after munmap. */
static void unmap_thp(void)
{
	madvise(thp_area, 9 * THP_SPAN, MADV_DONTNEED);
}

#ifndef MAP_HUGETLB
#define MAP_HUGETLB 0x40000
#endif
static unsigned long hsz;	/* the default huge page size; 0: no hugetlb pool here */
static long pool_before = -1;

/* /proc/meminfo's Hugepagesize in bytes, or 0. */
static unsigned long huge_size(void)
{
	long kb = meminfo("Hugepagesize");

	return kb > 0 ? (unsigned long)kb * 1024 : 0;
}

/* Read or set /proc/sys/vm/nr_hugepages (set: n >= 0); the pool size, or -1. */
static long huge_pool(long n)
{
	char buf[32];
	int fd = open("/proc/sys/vm/nr_hugepages", n >= 0 ? O_RDWR : O_RDONLY);
	long r = -1, len;

	if (fd < 0)
		return -1;
	if (n >= 0) {
		len = snprintf(buf, sizeof(buf), "%ld", n);
		if (write(fd, buf, (size_t)len) != len)
			n = -1;
		lseek(fd, 0, SEEK_SET);
	}
	len = read(fd, buf, sizeof(buf) - 1);
	if (len > 0) {
		buf[len] = '\0';
		r = strtol(buf, NULL, 10);
	}
	close(fd);
	return r;
}

/*
 * region: two hugetlb pages written with 'q'; aux: a huge-aligned place in
 * a hole that never had tables, where one table of huge leaves (a huge
 * page per entry) would be needed. NULL region: no pool.
 */
static void map_huge2(void)
{
	unsigned long span = hsz * (PAGE / 8);
	char *h;

	region = mmap(NULL, 2 * hsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (region == MAP_FAILED) {
		region = NULL;
		return;
	}
	memset(region, 'q', 2 * hsz);
	h = anon(NULL, 3 * span, PROT_NONE, MAP_NORESERVE);
	aux = h == MAP_FAILED ? NULL : (char *)(((unsigned long)h + span) & ~(span - 1));
	if (h != MAP_FAILED)
		munmap(h, 3 * span);
}

static int c_mremap_huge(void)
{
	if (!region || !aux)
		return EDOM;	/* nothing to move: the scenario would prove nothing */
	res = mremap(region + hsz, hsz, hsz, MREMAP_MAYMOVE | MREMAP_FIXED, aux);
	return res == MAP_FAILED ? errno : 0;
}

static int intact_huge2(void)
{
	return all_bytes(region, 2 * hsz, 'q');
}

static void unmap_huge2(void)
{
	if (region)
		munmap(region, 2 * hsz);
	if (aux)
		munmap(aux, hsz);
	res = NULL;
}

static pid_t child;

/* fork: the child leaves at once; the parent reaps it in fork_cleanup. */
static int c_fork(void)
{
	child = fork();
	if (child == 0)
		_exit(0);
	return child < 0 ? errno : 0;
}

static void fork_cleanup(void)
{
	if (child > 0)
		waitpid(child, NULL, 0);
	child = 0;
	unmap3();
}

static const struct scen scens[NSCEN] = {
	{ "mmap", ENOMEM, nothing, c_mmap, intact_none, unmap_res },
	{ "mmap MAP_POPULATE (failures ignored)", 0, nothing, c_mmap_populate, intact_none, unmap_res },
	{ "mmap MAP_FIXED over a middle page", ENOMEM, map3, c_mmap_fixed, intact3, unmap3 },
	{ "munmap of a middle page", ENOMEM, map3, c_munmap, intact3, unmap3 },
	{ "mprotect of a middle page", ENOMEM, map3, c_mprotect, intact3, unmap3 },
	{ "madvise(MADV_DONTFORK) of a middle page", EAGAIN, map3, c_madvise, intact3, unmap3 },
	{ "madvise(MADV_GUARD_INSTALL) needing a table", ENOMEM, map_far, c_guard, intact3, unmap_far },
	{ "mseal of a middle page", ENOMEM, map3, c_mseal, intact3, unmap3 },
	{ "mremap growing with a move", ENOMEM, map_blocked, c_mremap_move, intact_moved, unmap_blocked },
	{ "mremap MREMAP_FIXED to where no table is yet", ENOMEM, map_far_hole, c_mremap_far, intact3, unmap_far_hole },
	{ "mremap growing in place", ENOMEM, map_growable, c_mremap_grow, intact3, unmap_growable },
	{ "mremap duplicate of shared memory", ENOMEM, map3_shared, c_mremap_dup, intact3, unmap_dup },
	{ "brk growing", ENOMEM, brk_setup, c_brk, intact_none, brk_cleanup },
	{ "mlock of a middle page", ENOMEM, map3, c_mlock, intact3, unmap3 },
	{ "munlock of a middle page", ENOMEM, map3_locked, c_munlock, intact3, unmap3 },
	{ "mlock populating fresh memory (EAGAIN, still locked)", EAGAIN, map3_fresh, c_mlock_populate, intact_none, unmap3 },
	{ "mlockall(MCL_CURRENT) (failures ignored)", 0, map3_fresh, c_mlockall, intact_none, munlockall_unmap3 },
	{ "fork", ENOMEM, map3, c_fork, intact3, fork_cleanup },
	{ "mprotect of a page of a transparent huge page (its split needs no memory)", ENOMEM, map_thp,
	  c_mprotect_thp, intact_thp, unmap_thp },
	{ "MR-21 mremap MREMAP_FIXED of the second of two hugetlb pages", ENOMEM, map_huge2, c_mremap_huge,
	  intact_huge2, unmap_huge2 },
};

static void run(const struct scen *s)
{
	int points = 0, bad = 0;
	char why[200] = "";

	if ((s->setup == map_far || s->setup == map_far_hole) && !far_possible()) {
		tap_skip("FI: %s: a last-level table spans %lu MiB, no room for a fresh one", s->name,
			 (unsigned long)(FAR_ALIGN >> 20));
		return;
	}

	int n;

	for (n = 1; n <= MAXN; n++) {
		char num[16];
		long f0, f1;
		int err;

		s->setup();
		if (read_proc("/proc/self/maps") < 0)
			break;
		strcpy(before, mm_procbuf);
		f0 = fired();
		snprintf(num, sizeof(num), "%d", n);
		errno = 0;
		arm(num);
		err = s->call();
		arm("0");
		f1 = fired();
		if (f1 == f0) {	/* the call made fewer than n allocations */
			if (err && !bad) {
				bad = 1;
				snprintf(why, sizeof(why), "no failure injected, yet errno %d", err);
			}
			s->cleanup();
			break;
		}
		points++;
		read_proc("/proc/self/maps");
		if (s->want && !bad && (err != s->want || strcmp(before, mm_procbuf) != 0 || !s->intact())) {
			bad = 1;
			snprintf(why, sizeof(why), "allocation %d: errno %d (want %d), maps %s, data %s", n, err,
				 s->want, strcmp(before, mm_procbuf) ? "changed" : "same", s->intact() ? "kept" : "lost");
		}
		if (!s->want && !bad && err && (err != ENOMEM || strcmp(before, mm_procbuf) != 0)) {
			bad = 1;
			snprintf(why, sizeof(why), "allocation %d: errno %d, want success or ENOMEM with the maps unchanged",
				 n, err);
		}
		s->cleanup();
	}
	if (n > MAXN && !bad) {
		bad = 1;
		snprintf(why, sizeof(why), "still failing after %d allocations", MAXN);
	}
	tap_ok(!bad && points > 0, "FI: %s: a failure at each of its %d allocations: %s%s%s%s", s->name, points,
	       s->want ? "the errno, maps unchanged, data kept" : "success or a clean ENOMEM", bad ? " (" : "",
	       why, bad ? ")" : "");
}

int main(void)
{
	tap_init();
	probe_init();
	ctl = open("/proc/sys/vm/fail_alloc", O_WRONLY);
	if (ctl < 0 || fired() < 0) {
		for (int i = 0; i < NSCEN; i++)
			tap_skip("no /proc/sys/vm/fail_alloc (not this kernel)");
		return tap_done();
	}
	for (int i = 0; i < NSCEN; i++) {
		if (scens[i].setup == map_thp) {
			map_thp();
			unmap_thp();
			if (!thp_made) {	/* no free huge block left at this point of the suite */
				tap_skip("FI: %s: no transparent huge page could be made", scens[i].name);
				continue;
			}
		}
		if (scens[i].setup == map_huge2) {
			hsz = huge_size();
			pool_before = huge_pool(-1);
			if (hsz && pool_before >= 0 && pool_before < 2)
				huge_pool(2);
			map_huge2();
			unmap_huge2();
			if (!region || !aux) {
				tap_skip("FI: %s: no pool of two huge pages here", scens[i].name);
				if (pool_before >= 0)
					huge_pool(pool_before);
				continue;
			}
		}
		run(&scens[i]);
		if (scens[i].setup == map_huge2 && pool_before >= 0)
			huge_pool(pool_before);
	}
	close(ctl);
	return tap_done();
}
