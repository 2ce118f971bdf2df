/*
 * mmbench.c - the cost of address-space system calls, in guest
 * instructions (`make bench`, tools/bench.sh).
 *
 * Meant to run as /init under QEMU's -icount shift=0,align=off,sleep=off,
 * where CLOCK_MONOTONIC advances one nanosecond per guest instruction, so
 * every figure below is a deterministic instruction count (the cost of
 * reading the clock, measured first, is taken off). The same source builds
 * against glibc (static, arm64: the same binary runs on our kernel and on
 * Linux) and against the project's libc (tests/lib, for MicroBlaze).
 *
 * Each figure is the best of ROUNDS rounds (see below). Every result is one line "bench: KEY VALUE" that tools/bench.sh reads;
 * the lines starting with '#' explain. Measures:
 *   a) mmap + munmap of 128 KiB anonymous memory, never touched;
 *   b) mprotect of one page, PROT_READ then PROT_READ|PROT_WRITE;
 *   c) the quarantine loop: memset 128 KiB, mprotect(PROT_NONE),
 *      mprotect(PROT_READ|PROT_WRITE), with the minor faults it takes;
 *   d) mprotect, munmap and madvise(MADV_DONTNEED) over ranges of 1..32
 *      VMAs, without and with an unrelated sealed VMA in the address
 *      space (the seal check's overhead, as in the mseal cover letter);
 *   e) mmap + munmap with ~10 VMAs and with 10,000 more VMAs present;
 *   f) fork + the child's _exit + waitpid, the parent having 16 MiB of
 *      anonymous memory touched (so fork copies its page tables);
 *   g) the first write to a page of anonymous memory (a zeroed page),
 *      per page, and the first write to a page shared copy-on-write with
 *      a child after fork (a copy), per page.
 * Options (argv or environment): poweroff=1 prints "kernel-exit:
 * status=0" and powers off at the end (for Linux, where /init must not
 * exit).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define PAGE ((unsigned long)getpagesize())	/* 4, 16 or 64 KiB on arm64 */
#define KIB128 (128 * 1024UL)

#ifdef __GLIBC__
static int do_mseal(void *addr, size_t len)
{
	return (int)syscall(462, addr, len, 0UL);
}
#else
static int do_mseal(void *addr, size_t len)
{
	return mseal(addr, len, 0);
}
#endif

static long long clock_cost;	/* instructions one now() call adds to an interval */

static long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Instructions from t0 to now, less the clock's own cost. */
static long long since(long long t0)
{
	return now() - t0 - clock_cost;
}

static void die(const char *what)
{
	printf("# mmbench: %s failed\n", what);
	printf("bench: error 1\n");
}

static void result(const char *key, long long v)
{
	printf("bench: %s %lld\n", key, v);
}

static void measure_clock(void)
{
	long long best = -1;

	for (int r = 0; r < 5; r++) {
		long long t0 = now(), t1;

		for (int i = 0; i < 100; i++)
			t1 = now();
		t1 = (t1 - t0) / 100;
		if (best < 0 || t1 < best)
			best = t1;
	}
	clock_cost = best;
	result("clock_gettime", clock_cost);
}

static void *map(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * Every figure is the best of ROUNDS rounds: the clock counts every
 * instruction the machine runs, so a round that a timer interrupt or a
 * kernel thread (Linux's, right after boot) lands in reads high.
 */
#define ROUNDS 7

static long long best(long long a, long long b)
{
	return a < 0 || (b >= 0 && b < a) ? b : a;
}

/* a) and e): mmap + munmap of 128 KiB, untouched; instructions per pair. */
static long long mmap_munmap_cost(int iters)
{
	long long t0, b = -1;

	for (int i = 0; i < 10; i++)	/* warm up */
		munmap(map(KIB128, PROT_READ | PROT_WRITE), KIB128);
	for (int r = 0; r < ROUNDS; r++) {
		t0 = now();
		for (int i = 0; i < iters; i++) {
			void *p = map(KIB128, PROT_READ | PROT_WRITE);

			if (!p || munmap(p, KIB128))
				return -1;
		}
		b = best(b, since(t0) / iters);
	}
	return b;
}

/* b) one page to PROT_READ and back, per call. */
static void bench_mprotect(void)
{
	int iters = 200;
	char *p = map(4 * PAGE, PROT_READ | PROT_WRITE);
	long long t0, b = -1;

	if (!p)
		return die("mmap");
	p[PAGE] = 1;
	for (int r = 0; r < ROUNDS; r++) {
		t0 = now();
		for (int i = 0; i < iters; i++) {
			mprotect(p + PAGE, PAGE, PROT_READ);
			mprotect(p + PAGE, PAGE, PROT_READ | PROT_WRITE);
		}
		b = best(b, since(t0) / (2 * iters));
	}
	result("mprotect_1page", b);
	munmap(p, 4 * PAGE);
}

/* c) the quarantine loop: per iteration, and the faults it took. */
static void bench_quarantine(void)
{
	int iters = 30;
	char *p = map(KIB128, PROT_READ | PROT_WRITE);
	struct rusage r0, r1;
	long long t0, b = -1;

	if (!p)
		return die("mmap");
	memset(p, 1, KIB128);	/* first touch: faults that are not the loop's */
	getrusage(RUSAGE_SELF, &r0);
	for (int r = 0; r < ROUNDS; r++) {
		t0 = now();
		for (int i = 0; i < iters; i++) {
			memset(p, i + 2, KIB128);
			mprotect(p, KIB128, PROT_NONE);
			mprotect(p, KIB128, PROT_READ | PROT_WRITE);
		}
		b = best(b, since(t0) / iters);
	}
	result("quarantine_iter", b);
	getrusage(RUSAGE_SELF, &r1);
	result("quarantine_minflt", r1.ru_minflt - r0.ru_minflt);
	munmap(p, KIB128);
}

/*
 * A range of n VMAs: n pages, every other one PROT_NONE so that no two
 * neighbours merge, and a hole of one page above it so that it never
 * merges with the next range either. Returns its start, or NULL.
 */
static char *make_vmas(int n)
{
	char *p = map((size_t)(n + 1) * PAGE, PROT_READ | PROT_WRITE);

	if (!p || munmap(p + (size_t)n * PAGE, PAGE))
		return NULL;
	for (int i = 1; i < n; i += 2)
		mprotect(p + (size_t)i * PAGE, PAGE, PROT_NONE);
	return p;
}

#define NRANGES 16

enum vma_op { OP_MPROTECT, OP_MUNMAP, OP_MADVISE };
static const char *const op_names[] = { "mprotect", "munmap", "madvise" };

/* d) one op over NRANGES fresh ranges of n VMAs each; instructions per call. */
static long long vma_op_round(enum vma_op op, int n)
{
	static char *ranges[NRANGES];
	long long t0, t;

	for (int r = 0; r < NRANGES; r++)
		if (!(ranges[r] = make_vmas(n)))
			return -1;
	t0 = now();
	for (int r = 0; r < NRANGES; r++) {
		size_t len = (size_t)n * PAGE;

		if (op == OP_MPROTECT)
			mprotect(ranges[r], len, PROT_READ);
		else if (op == OP_MUNMAP)
			munmap(ranges[r], len);
		else
			madvise(ranges[r], len, MADV_DONTNEED);
	}
	t = since(t0) / NRANGES;
	if (op != OP_MUNMAP)
		for (int r = 0; r < NRANGES; r++)
			munmap(ranges[r], (size_t)n * PAGE);
	return t;
}

static long long vma_op_cost(enum vma_op op, int n)
{
	long long b = -1;

	for (int r = 0; r < ROUNDS; r++)
		b = best(b, vma_op_round(op, n));
	return b;
}

static void bench_seal_overhead(void)
{
	static const int counts[] = { 1, 2, 4, 8, 16, 32 };
	long long plain[3][6];
	char *sealed;
	int have_seal;

	/* The unrelated VMA exists in both runs, so the layout is the same;
	 * only its seal differs. */
	sealed = map(3 * PAGE, PROT_READ);
	if (sealed) {	/* alone, with a hole on each side */
		munmap(sealed, PAGE);
		munmap(sealed + 2 * PAGE, PAGE);
		sealed += PAGE;
	}
	for (int o = 0; o < 3; o++)
		for (int c = 0; c < 6; c++)
			plain[o][c] = vma_op_cost((enum vma_op)o, counts[c]);
	have_seal = sealed && do_mseal(sealed, PAGE) == 0;
	if (!have_seal)
		printf("# mmbench: mseal is not available here: no sealed column\n");
	for (int o = 0; o < 3; o++) {
		for (int c = 0; c < 6; c++) {
			char key[64];

			snprintf(key, sizeof(key), "%s_%dvma", op_names[o], counts[c]);
			result(key, plain[o][c]);
			if (have_seal) {
				snprintf(key, sizeof(key), "%s_%dvma_sealed", op_names[o], counts[c]);
				result(key, vma_op_cost((enum vma_op)o, counts[c]));
			}
		}
	}
}

/* e) mmap + munmap at the process's own few VMAs, then with 10,000 more. */
static void bench_many_vmas(void)
{
	int extra = 10000;

	result("mmap_munmap_few_vmas", mmap_munmap_cost(200));
	for (int i = 0; i < extra; i++) {
		if (!map(PAGE, (i & 1) ? PROT_READ : PROT_READ | PROT_WRITE)) {
			printf("# mmbench: mapping %d of %d failed\n", i, extra);
			break;
		}
	}
	result("mmap_munmap_10000_vmas", mmap_munmap_cost(200));
}

#define MIB16 (16UL << 20)

/* f) fork + child exit + wait with 16 MiB touched; instructions per cycle. */
static void bench_fork(void)
{
	char *p = map(MIB16, PROT_READ | PROT_WRITE);
	long long t0, b = -1;
	int iters = 4;

	if (!p)
		return die("mmap");
	memset(p, 1, MIB16);
	for (int r = 0; r < ROUNDS; r++) {
		t0 = now();
		for (int i = 0; i < iters; i++) {
			pid_t pid = fork();
			int st;

			if (pid == 0)
				_exit(0);
			if (pid < 0 || waitpid(pid, &st, 0) != pid)
				return die("fork");
		}
		b = best(b, since(t0) / iters);
	}
	result("fork_exit_wait_16m", b);
	munmap(p, MIB16);
}

/* Write one byte to each of the npages pages at p; instructions per page. */
static long long touch_cost(char *p, size_t npages)
{
	long long t0 = now();

	for (size_t i = 0; i < npages; i++)
		p[i * PAGE] = 2;
	return since(t0) / (long long)npages;
}

/*
 * g) first-touch faults: a fresh 1 MiB mapping written a byte a page; then
 * copy-on-write faults: the parent forks a child that blocks reading an
 * empty pipe (so the pages stay shared) and writes every page again.
 */
static void bench_faults(void)
{
	size_t len = 1UL << 20, npages = len / PAGE;
	long long banon = -1, bcow = -1;

	for (int r = 0; r < ROUNDS; r++) {
		char *p = map(len, PROT_READ | PROT_WRITE);
		int fds[2], st;
		pid_t pid;
		char c;

		if (!p || pipe(fds))
			return die("mmap/pipe");
		banon = best(banon, touch_cost(p, npages));
		pid = fork();
		if (pid == 0) {	/* keep the pages shared until the parent is done */
			close(fds[1]);
			_exit(read(fds[0], &c, 1) < 0);
		}
		if (pid < 0)
			return die("fork");
		bcow = best(bcow, touch_cost(p, npages));
		close(fds[1]);	/* the child's read returns 0: it exits */
		close(fds[0]);
		waitpid(pid, &st, 0);
		munmap(p, len);
	}
	result("anon_fault_page", banon);
	result("cow_fault_page", bcow);
}

static int want_poweroff(int argc, char **argv)
{
	const char *e = getenv("poweroff");

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "poweroff=1"))
			return 1;
	return e && !strcmp(e, "1");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("# mmbench: instructions per operation (CLOCK_MONOTONIC under -icount shift=0)\n");
	measure_clock();
	result("mmap_munmap_128k", mmap_munmap_cost(200));
	bench_mprotect();
	bench_quarantine();
	bench_seal_overhead();
	bench_fork();
	bench_faults();
	bench_many_vmas();
	printf("# mmbench: done\n");
	if (want_poweroff(argc, argv)) {
		printf("kernel-exit: status=0\n");
		reboot(RB_POWER_OFF);
	}
	return 0;
}
