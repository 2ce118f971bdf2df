/* wideargs.c - system calls whose arguments or results are wider than a
 * register on a 32-bit arch, and the calls only 32-bit arches have.
 *
 * A 64-bit file offset or length (fallocate, ftruncate, a seek) is one
 * register on arm64 and two on MicroBlaze, where glibc passes the pair in
 * the order the C ABI gives a long long (high word first on big-endian,
 * low word first on little-endian), with no padding to an even register;
 * the seek is lseek on arm64 and _llseek on MicroBlaze. A 64-bit time is
 * struct timespec on arm64 and struct __kernel_timespec through the
 * *_time64 calls on MicroBlaze. The values chosen make a kernel that drops
 * or swaps a half fail: an offset whose low word is zero, a punched hole
 * whose offset only the high word puts past the data.
 *
 * Protection keys (no CPU here has them): pkey_alloc gives ENOSPC, rights
 * bits outside the arch's mask are EINVAL, pkey_mprotect with key 0 is
 * mprotect. pkey_free(0) differs: arm64 (ARCH_HAS_PKEYS) frees key 0 once,
 * MicroBlaze (Linux's generic no-pkeys answers) refuses it.
 *
 * Points that only a 32-bit arch has (lseek's EOVERFLOW, ugetrlimit,
 * setrlimit, the ignored upper half of a 32-bit kernel's tv_nsec) are
 * skips on arm64, so every arch runs the same number of points.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

#include "arg64.h"

#if defined(__aarch64__)
#define NR(arm64, mb) (arm64)
#elif defined(__microblaze__)
#define NR(arm64, mb) (mb)
#else
#error "wideargs: unsupported architecture"
#endif

#define L64 (sizeof(long) == 8)

#define NR_memfd_create       NR(279, 386)
#define NR_fallocate          NR(47, 324)
#define NR_ftruncate          NR(46, 194)	/* MicroBlaze: ftruncate64 */
#define NR_lseek              NR(62, 19)
#define NR_llseek             NR(-1, 140)	/* _llseek */
#define NR_pkey_mprotect      NR(288, 395)
#define NR_pkey_alloc         NR(289, 396)
#define NR_pkey_free          NR(290, 397)
#define NR_clock_gettime64    NR(113, 403)	/* arm64: clock_gettime */
#define NR_clock_nanosleep64  NR(115, 407)	/* arm64: clock_nanosleep */
#define NR_clock_gettime32    NR(-1, 265)
#define NR_ugetrlimit         NR(-1, 191)
#define NR_setrlimit          NR(-1, 75)
#define NR_prlimit64          NR(261, 370)

#define FALLOC_FL_KEEP_SIZE  1
#define FALLOC_FL_PUNCH_HOLE 2

struct ts64 {
	int64_t sec, nsec;
};

/* The size of fd's file, by lseek(SEEK_END); the offset is put back to 0. */
static long file_size(int fd)
{
	long size = lseek(fd, 0, SEEK_END);

	lseek(fd, 0, SEEK_SET);
	return size;
}

/* Set fd's offset to off (64 bits on every arch); the new offset or -errno. */
static int64_t seek64(int fd, int64_t off)
{
	if (L64)
		return syscall(NR_lseek, (long)fd, (long)off, (long)SEEK_SET) < 0 ? -errno : off;
	int64_t pos = -1;
	long r = syscall(NR_llseek, (long)fd, (long)(uint32_t)((uint64_t)off >> 32),
			 (long)(uint32_t)off, (long)&pos, (long)SEEK_SET);

	return r < 0 ? -errno : pos;
}

static void test_file_offsets(void)
{
	int fd = (int)syscall(NR_memfd_create, (long)"wideargs", 0L);
	char c = 0;

	if (fd < 0) {
		tap_ok(0, "memfd_create (errno %d)", errno);
		return;
	}
	tap_ok(syscall(NR_fallocate, (long)fd, 0L, ARG64(0), ARG64(8192)) == 0 && file_size(fd) == 8192,
	       "fallocate(0, 8192) allocates and extends the file to 8192 bytes");
	(void)!write(fd, "x", 1);
	tap_ok(syscall(NR_fallocate, (long)fd, (long)(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE),
		       ARG64(1ULL << 32), ARG64(4096)) == 0 && lseek(fd, 0, SEEK_SET) == 0 && read(fd, &c, 1) == 1 &&
	       c == 'x' &&
	       file_size(fd) == 8192,
	       "a hole punched at 4 GiB (high word only) leaves the data at 0 and the size alone");
	tap_ok(syscall(NR_fallocate, (long)fd, 0L, ARG64(INT64_MIN), ARG64(4096)) == -1 && errno == EINVAL,
	       "fallocate at offset -2^63 (low word 0): EINVAL (errno %d)", errno);
	tap_ok(syscall(NR_fallocate, (long)fd, 0L, ARG64(4096), ARG64(INT64_MAX)) == -1 && errno == EFBIG,
	       "fallocate of 2^63-1 bytes from 4096: EFBIG (errno %d)", errno);
	tap_ok(syscall(NR_ftruncate, (long)fd, ARG64(12288)) == 0 && file_size(fd) == 12288,
	       "ftruncate to 12288 bytes");
	tap_ok(syscall(NR_ftruncate, (long)fd, ARG64(INT64_MIN)) == -1 && errno == EINVAL && file_size(fd) == 12288,
	       "ftruncate to -2^63 (low word 0): EINVAL, size unchanged (errno %d)", errno);
	tap_ok(seek64(fd, (1LL << 32) + 5) == (1LL << 32) + 5, "a seek to 2^32 + 5 lands there");
	if (L64) {
		tap_skip("lseek's EOVERFLOW: offsets fit a long on a 64-bit arch");
	} else {
		long r = syscall(NR_lseek, (long)fd, 0L, (long)SEEK_CUR);

		tap_ok(r == -1 && errno == EOVERFLOW, "lseek(SEEK_CUR) at 2^32 + 5: EOVERFLOW (errno %d)", errno);
	}
	close(fd);
}

static void test_pkeys(void)
{
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long r;

	tap_ok(syscall(NR_pkey_alloc, 0L, 0L) == -1 && errno == ENOSPC, "pkey_alloc(0, 0): ENOSPC (errno %d)", errno);
	tap_ok(syscall(NR_pkey_alloc, 0L, 0x10L) == -1 && errno == EINVAL &&
	       syscall(NR_pkey_alloc, 1L, 0L) == -1 && errno == EINVAL,
	       "pkey_alloc with an unknown rights bit or a flag: EINVAL");
	r = syscall(NR_pkey_mprotect, (long)p, 4096L, (long)PROT_READ, 0L);
	tap_ok(r == 0 && syscall(NR_pkey_mprotect, (long)p, 4096L, (long)PROT_READ, 1L) == -1 && errno == EINVAL,
	       "pkey_mprotect with key 0 is mprotect; key 1 is EINVAL");
	r = syscall(NR_pkey_free, 0L);
	if (L64)
		tap_ok(r == 0, "pkey_free(0) frees the default key once (arm64)");
	else
		tap_ok(r == -1 && errno == EINVAL, "pkey_free(0): EINVAL (no pkeys on this arch)");
	munmap(p, 4096);
}

static void test_time64(void)
{
	unsigned char buf[sizeof(struct ts64) + 8];
	struct ts64 t;
	int guard = 1;

	memset(buf, 0xa5, sizeof(buf));
	tap_ok(syscall(NR_clock_gettime64, (long)CLOCK_MONOTONIC, (long)buf) == 0,
	       "clock_gettime with a 64-bit time_t");
	memcpy(&t, buf, sizeof(t));
	for (size_t i = sizeof(t); i < sizeof(buf); i++)
		guard &= buf[i] == 0xa5;
	tap_ok(guard && t.sec >= 0 && t.nsec >= 0 && t.nsec < 1000000000,
	       "it writes 16 bytes: %lld s, %lld ns, guard intact", (long long)t.sec, (long long)t.nsec);

	struct ts64 req = { 0, 1000000 }, bad = { 0, 1000000000 };

	tap_ok(syscall(NR_clock_nanosleep64, (long)CLOCK_MONOTONIC, 0L, (long)&req, 0L) == 0 &&
	       syscall(NR_clock_nanosleep64, (long)CLOCK_MONOTONIC, 0L, (long)&bad, 0L) == -1 && errno == EINVAL,
	       "clock_nanosleep with a 64-bit time_t: 1 ms sleeps, tv_nsec 10^9 is EINVAL");
	if (L64) {
		tap_skip("a 32-bit kernel's tv_nsec: the arch is 64-bit");
	} else {
		/* get_timespec64() on a 32-bit kernel keeps tv_nsec's low half only */
		struct ts64 odd = { 0, (int64_t)0x7eadbeef00000000LL | 1000 };

		tap_is_long(syscall(NR_clock_nanosleep64, (long)CLOCK_MONOTONIC, 0L, (long)&odd, 0L), 0,
			    "clock_nanosleep_time64 ignores the upper half of tv_nsec");
	}
}

/* Only 32-bit arches have these; the rlimit is two unsigned longs there. */
static void test_rlimit32(void)
{
	unsigned long lim[2];
	uint64_t lim64[2], infinite[2];

	if (L64) {
		tap_skip("ugetrlimit: 32-bit arches only");
		tap_skip("setrlimit with RLIM_INFINITY: 32-bit arches only");
		return;
	}
	tap_ok(syscall(NR_ugetrlimit, (long)RLIMIT_NOFILE, (long)lim) == 0 &&
	       syscall(NR_prlimit64, 0L, (long)RLIMIT_NOFILE, 0L, (long)lim64) == 0 &&
	       lim[0] == lim64[0] && lim[1] == lim64[1],
	       "ugetrlimit(RLIMIT_NOFILE) matches prlimit64 (%lu, %lu)", lim[0], lim[1]);
	lim[0] = lim[1] = ~0ul;
	tap_ok(syscall(NR_setrlimit, (long)RLIMIT_CORE, (long)lim) == 0 &&
	       syscall(NR_prlimit64, 0L, (long)RLIMIT_CORE, 0L, (long)infinite) == 0 &&
	       infinite[0] == ~0ULL && infinite[1] == ~0ULL,
	       "setrlimit(RLIMIT_CORE, RLIM_INFINITY) reads back as RLIM64_INFINITY");
}

int main(void)
{
	tap_init();
	test_file_offsets();
	test_pkeys();
	test_time64();
	test_rlimit32();
	return tap_done();
}
