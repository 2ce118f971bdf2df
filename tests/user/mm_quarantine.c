/* mm_quarantine.c - the allocator quarantine loop (Scudo's): memset a
 * 128 KiB block, mprotect(PROT_NONE), mprotect(PROT_READ | PROT_WRITE),
 * again and again. Once the pages exist, a private page that belongs to
 * this process alone is made writable by the mprotect itself (WU-1, WU-2),
 * so the loop takes no page fault at all (ru_minflt does not move).
 * A page still shared copy-on-write with a fork child must stay read-only
 * after the same mprotect and fault on the first write. MAP_SHARED memory
 * needs no write fault either.
 */
#include "mm_util.h"

#define SIZE (128 * 1024)
#define PAGES ((long)(SIZE / PAGE))
#define ROUNDS 50

/* ROUNDS iterations of the loop; the minor faults they took. */
static long quarantine(char *p)
{
	long before = minflt();

	for (int i = 0; i < ROUNDS; i++) {
		memset(p, i, SIZE);
		mprotect(p, SIZE, PROT_NONE);
		mprotect(p, SIZE, PROT_READ | PROT_WRITE);
	}
	return minflt() - before;
}

int main(void)
{
	char *p = anon(NULL, SIZE, PROT_READ | PROT_WRITE, 0);
	char *s = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int to_child[2], st;
	long first, faults;
	pid_t pid;

	tap_init();
	first = minflt();
	memset(p, 0xff, SIZE);
	first = minflt() - first;
	tap_ok(first >= PAGES, "the first touch of %ld pages faults them in (%ld minor faults)", PAGES, first);
	faults = quarantine(p);
	tap_ok(faults == 0, "WU-2: %d rounds of memset, mprotect(PROT_NONE), mprotect(RW) on private memory: no fault (%ld)",
	       ROUNDS, faults);
	tap_ok(all_bytes(p, SIZE, ROUNDS - 1), "the last round's data is there");

	memset(s, 1, SIZE);
	faults = quarantine(s);
	tap_ok(faults == 0, "WU-1: the same loop on MAP_SHARED memory: no fault (%ld)", faults);

	/* copy-on-write pages must still fault */
	pipe(to_child);
	pid = fork();
	if (pid == 0) {
		char c;

		while (read(to_child[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(all_bytes(p, SIZE, ROUNDS - 1) ? 0 : 1);
	}
	mprotect(p, SIZE, PROT_NONE);
	mprotect(p, SIZE, PROT_READ | PROT_WRITE);
	faults = minflt();
	memset(p, 0x11, SIZE);
	faults = minflt() - faults;
	tap_ok(faults >= PAGES, "WU-2: with a fork child alive the pages are shared: after the same mprotect every "
	       "write faults (%ld for %ld pages)", faults, PAGES);
	write(to_child[1], "x", 1);
	st = child_status(pid);
	tap_ok(st == 0, "the child still sees the old data (status %d)", st);
	faults = quarantine(p);
	tap_ok(faults == 0, "once the copies are our own, the loop takes no fault again (%ld)", faults);
	munmap(p, SIZE);
	munmap(s, SIZE);
	return tap_done();
}
