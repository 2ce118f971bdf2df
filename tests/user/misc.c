/* misc.c - uname, getrandom, resource limits (prlimit64), the auxiliary
 * vector, and process ids.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include "tap.h"

#if defined(__aarch64__)
#define MACHINE "aarch64"
#elif defined(__microblaze__)
#define MACHINE "microblaze"
#endif

extern char _start[];

static void test_uname(void)
{
	struct utsname u;

	memset(&u, 0, sizeof(u));
	tap_ok(uname(&u) == 0, "uname() succeeds");
	tap_ok(u.sysname[0] && u.release[0] && u.version[0], "sysname, release and version are set");
	tap_ok(!strcmp(u.machine, MACHINE), "machine is \"%s\" (\"%s\")", MACHINE, u.machine);
	tap_diag("uname: %s %s %s %s", u.sysname, u.nodename, u.release, u.machine);
}

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static void test_getrandom(void)
{
	unsigned char a[32], b[32];

	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	tap_is_long(getrandom(a, sizeof(a), 0), sizeof(a), "getrandom(32 bytes) fills the buffer");
	tap_is_long(getrandom(b, sizeof(b), GRND_NONBLOCK), sizeof(b), "getrandom(GRND_NONBLOCK)");
	tap_ok(!all_zero(a, sizeof(a)) && memcmp(a, b, sizeof(a)), "the bytes are not zero and differ between calls");
	errno = 0;
	tap_ok(getrandom(a, sizeof(a), 0x1000) == -1 && errno == EINVAL, "getrandom with unknown flags: EINVAL");
}

static void test_rlimits(void)
{
	struct rlimit stack, old, cur, set;

	tap_ok(getrlimit(RLIMIT_STACK, &stack) == 0 && stack.rlim_cur > 0 && stack.rlim_cur <= stack.rlim_max,
	       "getrlimit(RLIMIT_STACK): soft limit set and not above the hard one (%llu)",
	       (unsigned long long)stack.rlim_cur);
	tap_ok(prlimit(0, RLIMIT_NOFILE, NULL, &old) == 0 && old.rlim_cur <= old.rlim_max,
	       "prlimit(RLIMIT_NOFILE) reads the limits (%llu, %llu)", (unsigned long long)old.rlim_cur,
	       (unsigned long long)old.rlim_max);
	set.rlim_cur = 64;
	set.rlim_max = old.rlim_max;
	tap_ok(setrlimit(RLIMIT_NOFILE, &set) == 0 && getrlimit(RLIMIT_NOFILE, &cur) == 0 && cur.rlim_cur == 64 &&
	       cur.rlim_max == old.rlim_max, "lowering the soft RLIMIT_NOFILE to 64 reads back");
	tap_ok(prlimit(0, RLIMIT_NOFILE, &old, &cur) == 0 && cur.rlim_cur == 64,
	       "prlimit sets a new limit and returns the previous one in one call");
	set.rlim_cur = old.rlim_max + 1;
	set.rlim_max = old.rlim_max;
	errno = 0;
	tap_ok(old.rlim_max == RLIM_INFINITY || (setrlimit(RLIMIT_NOFILE, &set) == -1 && errno == EINVAL),
	       "a soft limit above the hard one: EINVAL");
	errno = 0;
	tap_ok(prlimit(0, 1000, NULL, &cur) == -1 && errno == EINVAL, "an unknown resource: EINVAL");
}

/*
 * AT_PAGESZ is the page size munmap works in: in a fresh two-page mapping
 * a page-aligned second page can be unmapped, half a page in cannot.
 */
static void test_pagesize(long pg)
{
	char *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	errno = 0;
	tap_ok(p != MAP_FAILED && munmap(p + pg / 2, pg) == -1 && errno == EINVAL,
	       "munmap half an AT_PAGESZ page in: EINVAL (errno %d)", errno);
	tap_ok(p != MAP_FAILED && munmap(p + pg, pg) == 0, "munmap one AT_PAGESZ page in: 0 (errno %d)", errno);
	if (p != MAP_FAILED)
		munmap(p, 2 * pg);
}

static void test_auxv(void)
{
	long pg = (long)getauxval(AT_PAGESZ);

	tap_ok(pg == 4096 || pg == 16384 || pg == 65536, "auxv AT_PAGESZ is 4, 16 or 64 KiB (%ld)", pg);
	tap_is_long((long)getpagesize(), pg, "getpagesize() is AT_PAGESZ");
	test_pagesize(pg);
	tap_ok(getauxval(AT_ENTRY) == (unsigned long)(uintptr_t)_start, "auxv AT_ENTRY is _start (%#lx)",
	       getauxval(AT_ENTRY));
	tap_ok(getauxval(AT_PHDR) != 0, "auxv AT_PHDR is set (%#lx)", getauxval(AT_PHDR));
	tap_ok(getauxval(AT_RANDOM) != 0, "auxv AT_RANDOM points to 16 random bytes (%#lx)", getauxval(AT_RANDOM));
	tap_is_long((long)getauxval(AT_UID), (long)getuid(), "auxv AT_UID is the uid");
	tap_is_long(sysconf(_SC_PAGESIZE), pg, "sysconf(_SC_PAGESIZE) is AT_PAGESZ");
}

static void test_ids(void)
{
	tap_ok(getpid() > 0 && gettid() == getpid(), "getpid() > 0 and gettid() == getpid()");
	tap_ok(getppid() > 0 && getppid() != getpid(), "getppid() > 0 and is another process");
}

int main(void)
{
	tap_init();
	test_uname();
	test_getrandom();
	test_rlimits();
	test_auxv();
	test_ids();
	return tap_done();
}
