/* mm_limits.c - overcommit and the address-space limits (OC-*): the
 * vm.overcommit_memory modes, what Committed_AS charges for each kind of
 * mapping, CommitLimit in mode 2, vm.max_map_count, RLIMIT_AS and
 * RLIMIT_DATA. Every sysctl it changes is put back at the end.
 *
 * Committed_AS is system-wide, so other activity moves it too: each
 * expected change is a multiple of LEN (16 MiB) and is accepted within
 * SLACK (1 MiB) of it. The limits are set relative to what the process (or
 * the system) already uses, measured from /proc/self/maps or
 * /proc/meminfo just before, with margins of several MiB either way.
 *
 * OC-4 (hugetlb is not charged) is skipped when the pool cannot be given
 * two huge pages.
 */
#include "mm_util.h"

#define LEN (16UL << 20)
#define SLACK_KB 1024L

#if defined(__aarch64__) || defined(__x86_64__)
#define BIG (64UL << 40)	/* fits between the heap and the mmap area */
#else
#define BIG 0	/* set from MemTotal: RAM + 64 MiB */
#endif

static unsigned long big_len;

static long committed(void)
{
	return meminfo("Committed_AS");
}

/* Is a change of Committed_AS (kB) want within SLACK_KB? */
static int near(long got, long want)
{
	return got >= want - SLACK_KB && got <= want + SLACK_KB;
}

/* /proc/sys/vm/<name>: read (-1 on error), write (0 or -1). */
static long sysctl_get(const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	if (read_proc(path) < 0)
		return -1;
	return strtol(mm_procbuf, NULL, 10);
}

static int sysctl_set(const char *name, long v)
{
	char path[64], buf[32];
	int fd, n, ok;

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	n = snprintf(buf, sizeof(buf), "%ld\n", v);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, buf, (size_t)n) == n;
	close(fd);
	return ok ? 0 : -1;
}

static long saved_mode, saved_ratio, saved_kbytes, saved_maps, saved_huge;

static void restore_sysctls(void)
{
	sysctl_set("overcommit_memory", saved_mode);
	if (saved_kbytes)
		sysctl_set("overcommit_kbytes", saved_kbytes);	/* clears the ratio */
	else
		sysctl_set("overcommit_ratio", saved_ratio);	/* clears kbytes */
	sysctl_set("max_map_count", saved_maps);
	if (saved_huge >= 0)
		sysctl_set("nr_hugepages", saved_huge);
}

/* Bytes in /proc/self/maps: all VMAs, or only data ones (private writable, not the stack). */
static unsigned long maps_bytes(int data_only)
{
	unsigned long sum = 0;
	const char *line;

	if (read_proc("/proc/self/maps") < 0)
		return 0;
	for (line = mm_procbuf; line && *line;) {
		const char *eol = strchr(line, '\n');
		unsigned long s, e;
		char perms[5];
		int stack = eol && eol - line >= 7 && memcmp(eol - 7, "[stack]", 7) == 0;

		parse_maps_line(line, &s, &e, perms);
		if (!data_only || (perms[1] == 'w' && perms[3] == 'p' && !stack))
			sum += e - s;
		line = eol ? eol + 1 : NULL;
	}
	return sum;
}

static int map_count(void)
{
	int n = 0;

	if (read_proc("/proc/self/maps") < 0)
		return -1;
	for (const char *l = mm_procbuf; *l; l++)
		n += *l == '\n';
	return n;
}

static unsigned long sys_brk(unsigned long addr)
{
	return (unsigned long)syscall(SYS_brk, addr);
}

static void *shared_anon(size_t len, int prot)
{
	return mmap(NULL, len, prot, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
}

/* ---- modes 0 and 1 ---- */

static void test_modes(void)
{
	unsigned long brk0 = sys_brk(0);
	void *p;

	tap_ok(sysctl_set("overcommit_memory", 3) == -1 && errno == EINVAL && sysctl_get("overcommit_memory") == 0,
	       "OC-1: overcommit_memory takes 0..2 (3 is EINVAL)");
	tap_ok(sys_brk(brk0 + big_len) == brk0,
	       "OC-1, OC-2: mode 0 refuses a brk growing the heap by %#lx bytes (more than RAM)", big_len);
	p = anon(NULL, big_len, PROT_READ | PROT_WRITE, 0);
	tap_ok(p == MAP_FAILED && errno == ENOMEM, "OC-1: mode 0 refuses a private writable mapping larger than RAM");
	p = anon(NULL, big_len, PROT_READ | PROT_WRITE, MAP_NORESERVE);
	tap_ok(p != MAP_FAILED, "OC-1, OC-3: mode 0 accepts it with MAP_NORESERVE");
	if (p != MAP_FAILED)
		munmap(p, big_len);
	p = anon(NULL, big_len, PROT_READ, 0);
	tap_ok(p != MAP_FAILED, "OC-1: a read-only private mapping larger than RAM is not charged: accepted");
	if (p != MAP_FAILED)
		munmap(p, big_len);

	tap_ok(sysctl_set("overcommit_memory", 1) == 0 && sysctl_get("overcommit_memory") == 1,
	       "overcommit_memory set to 1");
	tap_ok(sys_brk(brk0 + big_len) == brk0 + big_len && sys_brk(brk0) == brk0,
	       "OC-1: mode 1 grows the heap by %#lx bytes (and shrinks it back)", big_len);
	p = anon(NULL, big_len, PROT_READ | PROT_WRITE, MAP_NORESERVE);
	tap_ok(p != MAP_FAILED, "OC-1: mode 1 accepts a huge MAP_NORESERVE mapping");
	if (p != MAP_FAILED)
		munmap(p, big_len);
	p = anon(NULL, big_len, PROT_READ | PROT_WRITE, 0);
	tap_ok(p != MAP_FAILED, "OC-1: mode 1 accepts a huge private writable mapping");
	if (p != MAP_FAILED)
		munmap(p, big_len);
	sysctl_set("overcommit_memory", 0);
}

/* ---- what is charged ---- */

/* Committed_AS change (kB) over mmap(len, prot, flags), the mapping in *pp. */
static long charge_of_mmap(void **pp, size_t len, int prot, int flags)
{
	long c0 = committed();

	*pp = mmap(NULL, len, prot, flags | MAP_ANONYMOUS, -1, 0);
	return committed() - c0;
}

/* Committed_AS change (kB) over munmap. */
static long charge_of_munmap(void *p, size_t len)
{
	long c0 = committed();

	munmap(p, len);
	return committed() - c0;
}

static void test_charges(void)
{
	const long L = (long)(LEN >> 10);
	long d, d2, c0;
	void *p, *q;
	int fds[2];
	pid_t pid;
	char c;

	d = charge_of_mmap(&p, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	d2 = charge_of_munmap(p, LEN);
	tap_ok(p != MAP_FAILED && near(d, L) && near(d2, -L),
	       "OC-5: a private writable mapping charges its size (%ld kB), munmap gives it back (%ld kB)", d, d2);
	d = charge_of_mmap(&p, LEN, PROT_READ | PROT_WRITE, MAP_SHARED);
	d2 = charge_of_munmap(p, LEN);
	tap_ok(p != MAP_FAILED && near(d, L) && near(d2, -L),
	       "OC-5: a shared anonymous mapping charges its size (%ld kB), munmap gives it back (%ld kB)", d, d2);
	d = charge_of_mmap(&p, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_NORESERVE);
	tap_ok(p != MAP_FAILED && near(d, 0), "OC-3: MAP_NORESERVE charges nothing in mode 0 (%ld kB)", d);
	c0 = committed();
	tap_ok(mprotect(p, LEN, PROT_READ) == 0 && mprotect(p, LEN, PROT_READ | PROT_WRITE) == 0 &&
		       near(committed() - c0, 0),
	       "OC-5: nor does making it writable again");
	munmap(p, LEN);

	d = charge_of_mmap(&p, LEN, PROT_READ, MAP_PRIVATE);
	tap_ok(p != MAP_FAILED && near(d, 0), "OC-5: a private read-only mapping charges nothing (%ld kB)", d);
	c0 = committed();
	d = mprotect(p, LEN, PROT_READ | PROT_WRITE) == 0 ? committed() - c0 : -1;
	tap_ok(near(d, L), "OC-5: mprotect making it writable charges it (%ld kB)", d);
	c0 = committed();
	d = mprotect(p, LEN, PROT_READ) == 0 ? committed() - c0 : -1;
	tap_ok(near(d, -L), "OC-5: made read-only again before any page was touched, it gives the charge back (%ld kB)",
	       d);
	mprotect(p, LEN, PROT_READ | PROT_WRITE);
	memset(p, 1, PAGE);	/* one page written: Linux now keeps the charge */
	c0 = committed();
	d = mprotect(p, LEN, PROT_READ) == 0 ? committed() - c0 : -1;
	tap_ok(near(d, 0), "OC-5: once a page was written the charge stays when it is made read-only (%ld kB)", d);
	mprotect(p, LEN, PROT_READ | PROT_WRITE);
	madvise(p, LEN, MADV_DONTNEED);
	c0 = committed();
	d = mprotect(p, LEN, PROT_READ) == 0 ? committed() - c0 : -1;
	tap_ok(near(d, 0), "OC-5: and after MADV_DONTNEED dropped that page too: Linux's anon_vma stays (%ld kB)", d);
	d = charge_of_munmap(p, LEN);
	tap_ok(near(d, -L), "OC-5: munmap gives it back (%ld kB)", d);

	p = anon(NULL, LEN, PROT_READ | PROT_WRITE, 0);
	c0 = committed();
	q = mremap(p, LEN, 2 * LEN, MREMAP_MAYMOVE);
	d = committed() - c0;
	tap_ok(q != MAP_FAILED && near(d, L), "OC-6: mremap growing a private writable mapping charges the growth (%ld kB)",
	       d);
	d = q != MAP_FAILED ? charge_of_munmap(q, 2 * LEN) : 0;
	tap_ok(near(d, -2 * L), "OC-6: munmap gives back all of it (%ld kB)", d);

	/* fork: the child's copy of a private writable mapping is charged until it exits */
	p = anon(NULL, LEN, PROT_READ | PROT_WRITE, 0);
	c0 = committed();
	if (p == MAP_FAILED || pipe(fds) != 0 || (pid = fork()) < 0) {
		tap_ok(0, "OC-7: fork setup");
		return;
	}
	if (pid == 0) {
		close(fds[1]);
		read(fds[0], &c, 1);	/* until the parent has measured */
		_exit(0);
	}
	close(fds[0]);
	d = committed() - c0;
	write(fds[1], "x", 1);
	close(fds[1]);
	waitpid(pid, NULL, 0);
	d2 = committed() - c0;
	tap_ok(d >= L - SLACK_KB && near(d2, 0),
	       "OC-7: a fork child's private writable mappings are charged (%ld kB, at least our %ld) until it exits (%ld kB after)",
	       d, L, d2);
	munmap(p, LEN);
}

/* OC-4: a hugetlb mapping is not charged (needs two pages in the pool). */
static void test_hugetlb(void)
{
	long hs = meminfo("Hugepagesize"), d;
	void *p;

	saved_huge = sysctl_get("nr_hugepages");
	if (hs <= 0 || saved_huge < 0 || sysctl_set("nr_hugepages", saved_huge + 2) != 0 ||
	    meminfo("HugePages_Free") < 1) {
		tap_skip("OC-4: no huge page can be put in the pool");
		return;
	}
	d = charge_of_mmap(&p, (size_t)hs << 10, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_HUGETLB);
	tap_ok(p != MAP_FAILED && near(d, 0), "OC-4: a private writable hugetlb mapping charges nothing (%ld kB)", d);
	if (p != MAP_FAILED)
		munmap(p, (size_t)hs << 10);
}

/* ---- mode 2 ---- */

static void test_strict(void)
{
	/* Hugetlb: the pools of every size (HugePages_Total counts the default size only) */
	long total = meminfo("MemTotal"), hugetlb = meminfo("Hugetlb");
	long swap = meminfo("SwapTotal"), want, limit, c0;
	unsigned long brk0 = sys_brk(0);
	void *p, *q;

	if (swap < 0)
		swap = 0;
	if (hugetlb < 0)
		hugetlb = 0;
	sysctl_set("overcommit_ratio", 30);
	/* Linux computes it in pages: pg kB each (4 with 4K pages, 64 with 64K). */
	long pg = getpagesize() / 1024;

	want = ((total - hugetlb) / pg * 30 / 100) * pg + swap;
	limit = meminfo("CommitLimit");
	tap_ok(limit >= want - 2 * pg && limit <= want + 2 * pg && sysctl_get("overcommit_kbytes") == 0,
	       "OC-8: CommitLimit is (RAM - hugetlb) * overcommit_ratio / 100 + swap (%ld kB, want %ld)", limit, want);
	c0 = committed();
	sysctl_set("overcommit_kbytes", c0 + 2 * (long)(LEN >> 10));
	tap_ok(meminfo("CommitLimit") == c0 + 2 * (long)(LEN >> 10) + swap && sysctl_get("overcommit_ratio") == 0,
	       "OC-8: overcommit_kbytes replaces it (and clears overcommit_ratio)");
	tap_ok(sysctl_set("overcommit_memory", 2) == 0, "overcommit_memory set to 2, CommitLimit %ld kB above Committed_AS",
	       2 * (long)(LEN >> 10));

	p = anon(NULL, LEN / 2, PROT_READ | PROT_WRITE, 0);
	tap_ok(p != MAP_FAILED, "OC-1: mode 2 accepts a mapping that fits under CommitLimit");
	q = anon(NULL, 4 * LEN, PROT_READ | PROT_WRITE, 0);
	tap_ok(q == MAP_FAILED && errno == ENOMEM, "OC-1: mode 2 refuses one beyond CommitLimit with ENOMEM");
	q = anon(NULL, 4 * LEN, PROT_READ | PROT_WRITE, MAP_NORESERVE);
	tap_ok(q == MAP_FAILED && errno == ENOMEM, "OC-3: mode 2 charges MAP_NORESERVE too: refused");
	q = shared_anon(4 * LEN, PROT_READ);
	tap_ok(q == MAP_FAILED && errno == ENOMEM, "OC-5: a shared anonymous mapping is charged even read-only: refused");
	tap_ok(sys_brk(brk0 + 4 * LEN) == brk0, "OC-2: brk beyond CommitLimit is refused");
	q = p != MAP_FAILED ? mremap(p, LEN / 2, 5 * LEN, MREMAP_MAYMOVE) : MAP_FAILED;
	tap_ok(q == MAP_FAILED && errno == ENOMEM, "OC-6: mremap growing beyond CommitLimit: ENOMEM");
	if (p != MAP_FAILED)
		munmap(p, LEN / 2);
	q = anon(NULL, 4 * LEN, PROT_READ, 0);
	tap_ok(q != MAP_FAILED, "OC-5: a read-only private mapping beyond CommitLimit is accepted (not charged)");
	if (q != MAP_FAILED) {
		tap_ok(mprotect(q, 4 * LEN, PROT_READ | PROT_WRITE) == -1 && errno == ENOMEM,
		       "OC-5: making it writable would charge it: ENOMEM");
		tap_ok(mprotect(q, LEN / 2, PROT_READ | PROT_WRITE) == 0, "OC-5: making a part that fits writable works");
		munmap(q, 4 * LEN);
	}
	sysctl_set("overcommit_memory", 0);
	restore_sysctls();
}

/* ---- max_map_count ---- */

static void test_map_count(void)
{
	char *p = anon(NULL, 10 * PAGE, PROT_NONE, 0), *q;
	int n;

	if (p == MAP_FAILED || mprotect(p + PAGE, 8 * PAGE, PROT_READ | PROT_WRITE) != 0) {
		tap_ok(0, "max_map_count setup");
		return;
	}
	n = map_count();
	tap_ok(sysctl_set("max_map_count", n) == 0 && sysctl_get("max_map_count") == n,
	       "OC-10: max_map_count lowered to the %d VMAs we have", n);
	tap_ok(mprotect(p + 4 * PAGE, PAGE, PROT_READ) == -1 && errno == ENOMEM && map_count() == n,
	       "OC-10: an mprotect that would split a VMA: ENOMEM");
	tap_ok(munmap(p + 4 * PAGE, PAGE) == -1 && errno == ENOMEM && map_count() == n,
	       "OC-11: a munmap punching a hole in one VMA: ENOMEM");
	tap_ok(munmap(p + PAGE, PAGE) == 0 && map_count() == n,
	       "OC-11: a munmap cutting a VMA's first page (one split, one VMA gone) works at the limit");
	q = mremap(p + 2 * PAGE, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, p + PAGE);
	tap_ok(q == MAP_FAILED && errno == ENOMEM, "OC-12: mremap moving a page needs room for 3 more VMAs: ENOMEM");
	q = anon(NULL, PAGE, PROT_READ | PROT_EXEC, 0);
	tap_ok(q != MAP_FAILED, "OC-10: at the limit mmap still makes one more (Linux's test is count > max)");
	if (q != MAP_FAILED) {
		char *r = anon(NULL, PAGE, PROT_EXEC, 0);

		tap_ok(r == MAP_FAILED && errno == ENOMEM, "OC-10: beyond it mmap gives ENOMEM");
		if (r != MAP_FAILED)
			munmap(r, PAGE);
		munmap(q, PAGE);
	}
	restore_sysctls();
	tap_ok(sysctl_get("max_map_count") == saved_maps && mprotect(p + 4 * PAGE, PAGE, PROT_READ) == 0,
	       "OC-10: with max_map_count back (%ld) the split works", saved_maps);
	munmap(p, 10 * PAGE);
}

/* ---- RLIMIT_AS and RLIMIT_DATA ---- */

static void test_rlimits(void)
{
	unsigned long brk0 = sys_brk(0), used;
	struct rlimit old, rl;
	void *p, *q;

	getrlimit(RLIMIT_AS, &old);
	p = anon(NULL, PAGE, PROT_READ | PROT_WRITE, 0);
	used = maps_bytes(0);
	rl.rlim_cur = used + LEN;
	rl.rlim_max = old.rlim_max;
	tap_ok(setrlimit(RLIMIT_AS, &rl) == 0, "RLIMIT_AS set %lu MiB above what is mapped", LEN >> 20);
	q = anon(NULL, LEN / 2, PROT_NONE, 0);
	tap_ok(q != MAP_FAILED, "OC-20: a mapping that fits under RLIMIT_AS");
	if (q != MAP_FAILED)
		munmap(q, LEN / 2);
	q = anon(NULL, 2 * LEN, PROT_NONE, 0);
	tap_ok(q == MAP_FAILED && errno == ENOMEM, "OC-20: one beyond it (even PROT_NONE): ENOMEM");
	q = mremap(p, PAGE, 2 * LEN, MREMAP_MAYMOVE);
	tap_ok(q == MAP_FAILED && errno == ENOMEM, "OC-20: mremap growing beyond it: ENOMEM");
	tap_ok(sys_brk(brk0 + 2 * LEN) == brk0, "OC-20: brk beyond it is refused");
	setrlimit(RLIMIT_AS, &old);

	getrlimit(RLIMIT_DATA, &old);
	used = maps_bytes(1);
	rl.rlim_cur = used + LEN;
	rl.rlim_max = old.rlim_max;
	tap_ok(setrlimit(RLIMIT_DATA, &rl) == 0, "RLIMIT_DATA set %lu MiB above the private writable mappings",
	       LEN >> 20);
	q = anon(NULL, LEN / 2, PROT_READ | PROT_WRITE, 0);
	tap_ok(q != MAP_FAILED, "OC-21: a private writable mapping that fits under RLIMIT_DATA");
	if (q != MAP_FAILED)
		munmap(q, LEN / 2);
	q = anon(NULL, 2 * LEN, PROT_READ | PROT_WRITE, 0);
	tap_ok(q == MAP_FAILED && errno == ENOMEM, "OC-21: one beyond it: ENOMEM");
	q = shared_anon(2 * LEN, PROT_READ | PROT_WRITE);
	tap_ok(q != MAP_FAILED, "OC-21: a shared writable one of that size is not data: accepted");
	if (q != MAP_FAILED)
		munmap(q, 2 * LEN);
	q = mremap(p, PAGE, 2 * LEN, MREMAP_MAYMOVE);
	tap_ok(q == MAP_FAILED && errno == ENOMEM, "OC-21: mremap growing a private writable mapping beyond it: ENOMEM");
	tap_ok(sys_brk(brk0 + 2 * LEN) == brk0, "OC-21: brk beyond it is refused");
	q = anon(NULL, 2 * LEN, PROT_READ, 0);
	tap_ok(q != MAP_FAILED, "OC-21: a private read-only mapping of that size is not data: accepted");
	if (q != MAP_FAILED) {
		tap_ok(mprotect(q, 2 * LEN, PROT_READ | PROT_WRITE) == -1 && errno == ENOMEM,
		       "OC-21: mprotect making it writable (data beyond the limit): ENOMEM");
		munmap(q, 2 * LEN);
	}
	setrlimit(RLIMIT_DATA, &old);
	munmap(p, PAGE);
}

int main(void)
{
	tap_init();
	saved_mode = sysctl_get("overcommit_memory");
	saved_ratio = sysctl_get("overcommit_ratio");
	saved_kbytes = sysctl_get("overcommit_kbytes");
	saved_maps = sysctl_get("max_map_count");
	saved_huge = -1;
	tap_ok(saved_mode >= 0 && saved_ratio >= 0 && saved_kbytes >= 0 && saved_maps > 0 && committed() >= 0 &&
		       meminfo("CommitLimit") >= 0,
	       "the sysctls (mode %ld, ratio %ld, kbytes %ld, max_map_count %ld) and Committed_AS/CommitLimit are there",
	       saved_mode, saved_ratio, saved_kbytes, saved_maps);
	if (on_teachos())
		tap_ok(saved_mode == 0 && saved_ratio == 50 && saved_kbytes == 0 && saved_maps == 65530,
		       "Linux's defaults: mode 0, ratio 50, kbytes 0, max_map_count 65530");
	big_len = BIG ? BIG : ((unsigned long)meminfo("MemTotal") << 10) + (64UL << 20);
	sysctl_set("overcommit_memory", 0);
	test_modes();
	test_charges();
	test_hugetlb();
	restore_sysctls();
	test_strict();
	test_map_count();
	test_rlimits();
	restore_sysctls();
	tap_ok(sysctl_get("overcommit_memory") == saved_mode && sysctl_get("overcommit_ratio") == saved_ratio &&
		       sysctl_get("overcommit_kbytes") == saved_kbytes && sysctl_get("max_map_count") == saved_maps,
	       "the sysctls are back as they were");
	return tap_done();
}
