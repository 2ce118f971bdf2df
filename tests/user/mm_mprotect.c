/* mm_mprotect.c - mprotect(2): argument checks in Linux's order (MP-1..MP-5,
 * MP-8, MP-9), PROT_GROWSDOWN, holes (MP-9b, MP-10, MP-17) and the partial
 * change they leave behind (MP-18), the new protection (MP-19), no split
 * when nothing changes (MF-2), splits (MF-6), and that data survives.
 *
 * Rows not tested here:
 *   MP-6   EINTR on the lock: not reproducible.
 *   MP-7   pkeys: not implemented.
 *   MP-11  READ_IMPLIES_EXEC: no personality(2).
 *   MP-12  EACCES for a missing VM_MAY* bit: needs read-only file mappings.
 *   MP-13  memory-deny-write-execute (prctl PR_SET_MDWE): not implemented.
 *   MP-14, MP-15  arch flags, LSM hooks, vm_ops: none.
 *   MF-3..MF-5, MF-8  PFN maps, overcommit accounting, mlock: none.
 *   MS-25  sealed VMAs: in mm_mseal.c. WU-*: in mm_quarantine.c.
 */
#include "mm_util.h"

static void test_args(void)
{
	char *p = anon(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, 0), *h = hole(2);

	errno = 0;
	tap_ok(mprotect(p, PAGE, PROT_READ | PROT_GROWSDOWN | PROT_GROWSUP) == -1 && errno == EINVAL,
	       "MP-1: PROT_GROWSDOWN and PROT_GROWSUP together: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(mprotect(p + 1, PAGE, PROT_READ) == -1 && errno == EINVAL, "MP-2: unaligned start: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(mprotect(h + 1, 0, PROT_READ) == -1 && errno == EINVAL,
	       "MP-2: unaligned start and length 0: EINVAL comes first (errno %d)", errno);
	tap_ok(mprotect(h, 0, PROT_READ) == 0, "MP-3: length 0 at an unmapped address: 0");
	tap_ok(mprotect(p, 0, 0x40) == 0, "MP-3: length 0 wins over an invalid prot");
	errno = 0;
	tap_ok(mprotect(p, (size_t)-PAGE, PROT_READ) == -1 && errno == ENOMEM,
	       "MP-4: start + length wraps: ENOMEM (errno %d)", errno);
	errno = 0;
	tap_ok(mprotect(p, (size_t)-1, PROT_READ) == -1 && errno == ENOMEM,
	       "MP-4: a length whose rounding wraps to 0: ENOMEM (errno %d)", errno);
	errno = 0;
	tap_ok(mprotect(p, PAGE, 0x40) == -1 && errno == EINVAL, "MP-5: an unknown prot bit (0x40): EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(mprotect(h, PAGE, 0x40) == -1 && errno == EINVAL,
	       "MP-5: an unknown prot bit on an unmapped range: EINVAL before ENOMEM (errno %d)", errno);
	tap_ok(mprotect(p, PAGE, PROT_READ | PROT_WRITE | PROT_SEM) == 0, "MP-5: PROT_SEM is accepted");
	errno = 0;
	tap_ok(mprotect(h, 2 * PAGE, PROT_READ) == -1 && errno == ENOMEM, "MP-8: nothing mapped in the range: ENOMEM (errno %d)",
	       errno);
	errno = 0;
	tap_ok(mprotect(p, PAGE, PROT_READ | PROT_GROWSDOWN) == -1 && errno == EINVAL,
	       "MP-9a: PROT_GROWSDOWN on a VMA that does not grow down: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(mprotect(p, PAGE, PROT_READ | PROT_GROWSUP) == -1 && errno == EINVAL,
	       "MP-9c: PROT_GROWSUP on a VMA that does not grow up: EINVAL (errno %d)", errno);
	tap_ok(strcmp(shape(p, p + 2 * PAGE), "rw-p:2") == 0, "after the refused calls nothing changed (%s)",
	       shape(p, p + 2 * PAGE));
	munmap(p, 2 * PAGE);
}

static void test_holes(void)
{
	char *h = hole(6), *b = h + PAGE;

	anon(b, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	anon(b + 2 * PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED);
	errno = 0;
	tap_ok(mprotect(h, 2 * PAGE, PROT_READ) == -1 && errno == ENOMEM &&
		       strcmp(shape(h, h + 6 * PAGE), "hole:1 rw-p:1 hole:1 rw-p:2 hole:1") == 0,
	       "MP-9b: a hole at the start: ENOMEM, nothing changed (errno %d, %s)", errno, shape(h, h + 6 * PAGE));
	errno = 0;
	tap_ok(mprotect(b, 4 * PAGE, PROT_READ) == -1 && errno == ENOMEM &&
		       strcmp(shape(h, h + 6 * PAGE), "hole:1 r--p:1 hole:1 rw-p:2 hole:1") == 0,
	       "MP-10, MP-18: a hole in the middle: ENOMEM, the VMA before it already changed (errno %d, %s)", errno,
	       shape(h, h + 6 * PAGE));
	errno = 0;
	tap_ok(mprotect(b + 2 * PAGE, 3 * PAGE, PROT_NONE) == -1 && errno == ENOMEM &&
		       strcmp(shape(h, h + 6 * PAGE), "hole:1 r--p:1 hole:1 ---p:2 hole:1") == 0,
	       "MP-17: running past the last VMA: ENOMEM, the VMA changed (errno %d, %s)", errno,
	       shape(h, h + 6 * PAGE));
	munmap(h, 6 * PAGE);
}

static void test_growsdown(void)
{
	char *h = hole(1024), *top = h + 1000 * PAGE, *p;

	p = anon(top, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED | MAP_GROWSDOWN);
	tap_ok(p == top && mprotect(p + PAGE, PAGE, PROT_READ | PROT_GROWSDOWN) == 0 &&
		       strcmp(shape(p, p + 3 * PAGE), "r--p:2 rw-p:1") == 0,
	       "MP-9a: PROT_GROWSDOWN extends the change down to the start of the VMA (%s)", shape(p, p + 3 * PAGE));
	munmap(h, 1024 * PAGE);
}

static void test_protections(void)
{
	char *p = anon(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, 0);

	memset(p, 0x33, 3 * PAGE);
	tap_ok(mprotect(p, 3 * PAGE, PROT_READ) == 0 && can_read(p) && !can_write(p) && probe_sig == SIGSEGV,
	       "MP-19: PROT_READ: reads work, writes fault");
	tap_ok(mprotect(p, 3 * PAGE, PROT_NONE) == 0 && !can_read(p + PAGE) && probe_sig == SIGSEGV,
	       "MP-19: PROT_NONE: reads fault");
	tap_ok(mprotect(p, 3 * PAGE, PROT_WRITE) == 0 && can_read(p) && can_write(p),
	       "MP-19: PROT_WRITE alone: reads work too (arm64 and MicroBlaze have no write-only pages)");
	tap_ok(strcmp(shape(p, p + 3 * PAGE), "-w-p:3") == 0, "MP-19: /proc/self/maps says -w-p (%s)",
	       shape(p, p + 3 * PAGE));
	tap_ok(mprotect(p, 3 * PAGE, PROT_READ | PROT_WRITE) == 0 && all_bytes(p, 3 * PAGE, 0x33),
	       "the data survived every change");
	tap_ok(mprotect(p, 3 * PAGE, PROT_READ | PROT_WRITE) == 0 && strcmp(shape(p, p + 3 * PAGE), "rw-p:3") == 0,
	       "MF-2: the same protection again: 0, no split");
	tap_ok(mprotect(p + PAGE, PAGE, PROT_READ | PROT_EXEC) == 0 &&
		       strcmp(shape(p, p + 3 * PAGE), "rw-p:1 r-xp:1 rw-p:1") == 0,
	       "MF-6: the middle page alone: three VMAs (%s)", shape(p, p + 3 * PAGE));
	tap_ok(mprotect(p + PAGE, 1, PROT_READ | PROT_WRITE) == 0 && strcmp(shape(p, p + 3 * PAGE), "rw-p:3") == 0,
	       "MF-6: back (length 1 means the whole page): one VMA (%s)", shape(p, p + 3 * PAGE));
	tap_ok(mprotect(p, 2 * PAGE, PROT_READ) == 0 && mprotect(p + PAGE, 2 * PAGE, PROT_NONE) == 0 &&
		       strcmp(shape(p, p + 3 * PAGE), "r--p:1 ---p:2") == 0,
	       "overlapping changes across a VMA boundary (%s)", shape(p, p + 3 * PAGE));
	munmap(p, 3 * PAGE);

	/* untouched pages: the protection applies when they are first faulted in */
	p = anon(NULL, 2 * PAGE, PROT_NONE, 0);
	tap_ok(!can_read(p) && mprotect(p, 2 * PAGE, PROT_READ) == 0 && can_read(p) && !can_write(p) &&
		       mprotect(p, 2 * PAGE, PROT_READ | PROT_WRITE) == 0 && can_write(p + PAGE) && all_bytes(p, 2 * PAGE, 0),
	       "a never-touched PROT_NONE mapping made readable, then writable: zero pages with those rights");
	munmap(p, 2 * PAGE);
}

int main(void)
{
	tap_init();
	probe_init();
	test_args();
	test_holes();
	test_growsdown();
	test_protections();
	return tap_done();
}
