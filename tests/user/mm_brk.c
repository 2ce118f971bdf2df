/* mm_brk.c - brk(2) through the raw system call: it never reports an errno,
 * it returns the new break or, on any failure, the unchanged old one
 * (BR-1..BR-5). The heap is only moved above the break the program started
 * with, and put back at the end (glibc's malloc owns what is below).
 *
 * Rows not tested here:
 *   BR-4   a sealed heap: in mm_mseal.c (MS-33).
 *   BR-5   address-space and mlock limits: not reachable in a small
 *          test / no mlock.
 *   BR-6   mlockall(MCL_FUTURE): no mlock.
 */
#include "mm_util.h"

static unsigned long sys_brk(unsigned long addr)
{
	return (unsigned long)syscall(SYS_brk, addr);
}

/* The end of the "[heap]" line in /proc/self/maps, or 0. */
static unsigned long heap_end(void)
{
	const char *l;

	if (read_proc("/proc/self/maps") < 0 || !(l = strstr(mm_procbuf, "[heap]")))
		return 0;
	while (l > mm_procbuf && l[-1] != '\n')
		l--;
	return strtoul(strchr(l, '-') + 1, NULL, 16);
}

int main(void)
{
	unsigned long start, base, r;

	tap_init();
	probe_init();
	start = sys_brk(0);
	base = (start + 2 * PAGE - 1) & ~(PAGE - 1);	/* at least one page above the start */
	tap_ok(start != 0, "brk(0) gives the current break (%#lx)", start);
	tap_ok(sys_brk(PAGE) == start && sys_brk(1) == start && sys_brk(0) == start,
	       "BR-1: a break below the start of the heap is refused: the old break comes back");

	r = sys_brk(base);
	tap_ok(r == base && heap_end() == base, "brk grows the heap to %#lx; /proc/self/maps shows [heap] ending there",
	       base);
	tap_ok(can_write((void *)(base - 1)), "the heap's last byte is writable");
	r = sys_brk(base + 1);
	tap_ok(r == base + 1 && heap_end() == base + PAGE && can_write((void *)(base + PAGE - 1)),
	       "BR-3, BR-5: one byte more maps one more page; the unaligned break is returned as it is");
	tap_ok(sys_brk(base + 100) == base + 100 && sys_brk(base + PAGE) == base + PAGE && heap_end() == base + PAGE,
	       "BR-3: moves inside the same page just store the value");

	r = sys_brk(base + 4 * PAGE);
	tap_ok(r == base + 4 * PAGE && all_bytes((void *)(base + PAGE), 3 * PAGE, 0),
	       "growing by 3 pages: new memory reads as zero");
	memset((void *)base, 0x44, 4 * PAGE);
	r = sys_brk(base + PAGE + 1);
	tap_ok(r == base + PAGE + 1 && heap_end() == base + 2 * PAGE && !can_read((void *)(base + 2 * PAGE)) &&
		       probe_sig == SIGSEGV,
	       "BR-4: shrinking unmaps the pages above the new break (SIGSEGV there)");
	tap_ok(all_bytes((void *)base, 2 * PAGE, 0x44), "BR-4: the pages below it keep their data");
	r = sys_brk(base + 4 * PAGE);
	tap_ok(r == base + 4 * PAGE && all_bytes((void *)(base + 2 * PAGE), 2 * PAGE, 0),
	       "growing again: the given-back pages read as zero");
	sys_brk(base);

	/* BR-5: a mapping above the heap */
	{
		char *blk = anon((void *)(base + 8 * PAGE), PAGE, PROT_READ, MAP_FIXED_NOREPLACE);

		if (blk != (char *)(base + 8 * PAGE)) {
			tap_skip("BR-5: the space above the heap is not free here");
		} else {
			tap_ok(sys_brk(base + 8 * PAGE) == base && sys_brk(base + 9 * PAGE) == base,
			       "BR-5: growing up to or over the next mapping is refused");
			tap_ok(sys_brk(base + 7 * PAGE + 1) == base,
			       "BR-5: so is ending in the page just below it (a page must stay free)");
			tap_ok(sys_brk(base + 7 * PAGE) == base + 7 * PAGE && heap_end() == base + 7 * PAGE,
			       "BR-5: leaving one free page below it works");
			sys_brk(base);
			munmap(blk, PAGE);
		}
	}

	/* BR-5, MM-15: the stack guard gap below a MAP_GROWSDOWN mapping above the heap */
	{
		char *gd = anon((void *)(base + 300 * PAGE), PAGE, PROT_READ, MAP_FIXED_NOREPLACE | MAP_GROWSDOWN);

		if (gd != (char *)(base + 300 * PAGE)) {
			tap_skip("BR-5, MM-15: the space above the heap is not free here");
		} else {	/* the gap is 256 pages: [base + 44 pages, base + 300 pages) */
			tap_ok(sys_brk(base + 50 * PAGE) == base && sys_brk(base + 43 * PAGE + 1) == base,
			       "BR-5, MM-15: growing into the guard gap below a MAP_GROWSDOWN mapping is refused");
			tap_ok(sys_brk(base + 43 * PAGE) == base + 43 * PAGE,
			       "BR-5, MM-15: stopping a page short of the guard gap works");
			sys_brk(base);
			munmap(gd, PAGE);
		}
	}

	/* BR-2: RLIMIT_DATA, in a child */
	{
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			struct rlimit rl = { 64 * 1024, RLIM_INFINITY };
			unsigned long cur = sys_brk(0);

			if (setrlimit(RLIMIT_DATA, &rl) != 0)
				_exit(10);
			if (sys_brk(cur + (1UL << 20)) != cur)
				_exit(11);
			rl.rlim_cur = RLIM_INFINITY;
			setrlimit(RLIMIT_DATA, &rl);
			if (sys_brk(cur + (1UL << 20)) != cur + (1UL << 20))
				_exit(12);
			_exit(0);
		}
		st = child_status(pid);
		tap_ok(st == 0, "BR-2: over RLIMIT_DATA the break does not move; without the limit it does (child status %d)",
		       st);
	}
	tap_ok(sys_brk(start) == start, "the break is back where it started");
	return tap_done();
}
