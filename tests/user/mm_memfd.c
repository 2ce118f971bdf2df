/* mm_memfd.c - a memfd and its mappings (MD-*): shrinking the file takes
 * the pages past the new end out of every mapping (SIGBUS there, shared and
 * private alike), and file seals (F_ADD_SEALS/F_GET_SEALS: SEAL, SHRINK,
 * GROW, WRITE, FUTURE_WRITE, EXEC) with what they refuse: ftruncate,
 * write, fallocate, shared writable mmap, mprotect to PROT_WRITE; the
 * file's and its mappings' identity (MD-8); sizes up to Linux's largest
 * file (MD-9).
 */
#include "mm_util.h"
#include "arg64.h"

#ifndef SYS_fallocate
#if defined(__aarch64__)
#define SYS_fallocate 47
#else
#define SYS_fallocate 324
#endif
#endif

#define MFD_ALLOW_SEALING_	0x2
#define MFD_NOEXEC_SEAL_	0x8
#define F_ADD_SEALS_	1033
#define F_GET_SEALS_	1034
#define SEAL_SEAL	0x01
#define SEAL_SHRINK	0x02
#define SEAL_GROW	0x04
#define SEAL_WRITE	0x08
#define SEAL_FUTURE_WRITE 0x10
#define SEAL_EXEC	0x20

#ifdef __aarch64__
#define NR_newfstatat 79
#define NR_unlinkat 35
#define NR_ftruncate64 46	/* ftruncate: a 64-bit length already */
#define NR_pread64 67
#define NR_pwrite64 68
#else
#define NR_newfstatat 300	/* fstatat64 */
#define NR_unlinkat 301
#define NR_ftruncate64 194
#define NR_pread64 180
#define NR_pwrite64 181
#endif

static int failed(long ret, int err)
{
	return ret == -1 && errno == err;
}

static int mfd(unsigned flags, size_t size)
{
	int fd = (int)syscall(SYS_memfd_create, "md", flags);

	if (fd >= 0 && syscall(SYS_ftruncate, fd, size) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static long add_seals(int fd, long seals)
{
	return syscall(SYS_fcntl, fd, F_ADD_SEALS_, seals);
}

static long get_seals(int fd)
{
	return syscall(SYS_fcntl, fd, F_GET_SEALS_, 0);
}

/* read and write at an offset (lseek, then read or write: no pread64 needed) */
static long read_at(int fd, void *buf, size_t n, long off)
{
	return lseek(fd, off, SEEK_SET) == off ? read(fd, buf, n) : -1;
}

static long write_at(int fd, const void *buf, size_t n, long off)
{
	return lseek(fd, off, SEEK_SET) == off ? write(fd, buf, n) : -1;
}

/* 1 if reading p faults with SIGBUS. */
static int sigbus(const void *p)
{
	return !can_read(p) && probe_sig == SIGBUS;
}

static void test_truncate(void)
{
	int fd = mfd(0, 3 * PAGE);
	char *s, *q, buf[4];

	s = fd >= 0 ? mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
	q = fd >= 0 ? mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	tap_ok(s != MAP_FAILED && q != MAP_FAILED, "set-up: a 3-page memfd mapped shared and private");
	if (s == MAP_FAILED || q == MAP_FAILED)
		return;
	memset(s, 'a', 3 * PAGE);
	q[2 * PAGE] = 'p';	/* a private copy of the last page */
	tap_ok(q[0] == 'a' && can_read(s + 2 * PAGE), "the mappings see the file");
	tap_ok(syscall(SYS_ftruncate, fd, PAGE + 100) == 0, "ftruncate to a page and 100 bytes");
	tap_ok(sigbus(s + 2 * PAGE), "MD-1 the shared mapping past the new end: SIGBUS");
	tap_ok(sigbus(q + 2 * PAGE), "MD-1 the private copy past the end is gone too: SIGBUS");
	tap_ok(s[PAGE + 99] == 'a' && s[PAGE + 100] == 0 && s[2 * PAGE - 1] == 0,
	       "MD-1 the page holding the end is kept, zero past the end");
	tap_ok(read_at(fd, buf, 4, PAGE + 98) == 2 && buf[0] == 'a', "MD-1 read() sees the same end");
	tap_ok(syscall(SYS_ftruncate, fd, 3 * PAGE) == 0 && s[2 * PAGE] == 0 && q[2 * PAGE] == 0,
	       "MD-1 grown again: the pages come back as zeros in both mappings");
	munmap(s, 3 * PAGE);
	munmap(q, 3 * PAGE);
	close(fd);
}

static void test_seal_rules(void)
{
	int plain = mfd(0, PAGE), fd = mfd(MFD_ALLOW_SEALING_, 2 * PAGE), pp[2];

	tap_ok(plain >= 0 && fd >= 0 && pipe(pp) == 0, "set-up");
	if (plain < 0 || fd < 0)
		return;
	tap_is_long(get_seals(plain), SEAL_SEAL, "MD-2 a memfd without MFD_ALLOW_SEALING has F_SEAL_SEAL");
	tap_ok(failed(add_seals(plain, SEAL_WRITE), EPERM), "MD-2 so F_ADD_SEALS is EPERM");
	/* the write end: Linux answers EPERM for a file not open for writing first */
	tap_ok(failed(get_seals(pp[1]), EINVAL) && failed(add_seals(pp[1], SEAL_WRITE), EINVAL),
	       "MD-2 F_GET_SEALS and F_ADD_SEALS on a pipe: EINVAL");
	tap_is_long(get_seals(fd), 0, "MD-2 MFD_ALLOW_SEALING: no seals yet");
	tap_ok(failed(add_seals(fd, 0x40), EINVAL), "MD-2 an unknown seal: EINVAL");
	tap_ok(add_seals(fd, SEAL_SHRINK) == 0 && get_seals(fd) == SEAL_SHRINK, "MD-3 F_SEAL_SHRINK added");
	tap_ok(failed(syscall(SYS_ftruncate, fd, PAGE), EPERM), "MD-3 shrinking: EPERM");
	tap_ok(syscall(SYS_ftruncate, fd, 3 * PAGE) == 0, "MD-3 growing is still fine");
	tap_ok(add_seals(fd, SEAL_GROW) == 0 && failed(syscall(SYS_ftruncate, fd, 4 * PAGE), EPERM),
	       "MD-3 F_SEAL_GROW: growing is EPERM");
	tap_ok(failed(write_at(fd, "x", 1, 3 * PAGE), EPERM), "MD-3 a write at the end: EPERM");
	tap_ok(failed(syscall(SYS_fallocate, fd, 0, ARG64(0), ARG64(4 * PAGE)), EPERM), "MD-3 fallocate past the end: EPERM");
	tap_ok(write_at(fd, "x", 1, 0) == 1, "MD-3 a write inside the file is fine");
	tap_ok(add_seals(fd, SEAL_SEAL) == 0 && failed(add_seals(fd, SEAL_WRITE), EPERM),
	       "MD-2 after F_SEAL_SEAL nothing more can be added");
	tap_is_long(get_seals(fd), SEAL_SHRINK | SEAL_GROW | SEAL_SEAL, "MD-2 F_GET_SEALS lists them");
	close(plain);
	close(fd);
	close(pp[0]);
	close(pp[1]);
}

static void test_seal_write(void)
{
	int fd = mfd(MFD_ALLOW_SEALING_, 2 * PAGE), fut = mfd(MFD_ALLOW_SEALING_, PAGE);
	char *s, *r, *p, *w;

	s = fd >= 0 ? mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
	tap_ok(s != MAP_FAILED && fut >= 0, "set-up: a read-only shared mapping");
	if (s == MAP_FAILED || fut < 0)
		return;
	tap_ok(failed(add_seals(fd, SEAL_WRITE), EBUSY), "MD-4 F_SEAL_WRITE with a shared mapping that may write: EBUSY");
	munmap(s, PAGE);
	tap_ok(add_seals(fd, SEAL_WRITE) == 0, "MD-4 with the mapping gone: sealed");
	tap_ok(failed(write_at(fd, "x", 1, 0), EPERM), "MD-5 write(): EPERM");
	tap_ok(mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED && errno == EPERM,
	       "MD-5 a shared writable mapping: EPERM");
	r = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	tap_ok(r != MAP_FAILED, "MD-5 a shared read-only mapping is allowed");
	tap_ok(r != MAP_FAILED && failed(mprotect(r, PAGE, PROT_READ | PROT_WRITE), EACCES),
	       "MD-5 but it may never become writable: mprotect EACCES");
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	tap_ok(p != MAP_FAILED && (p[0] = 'c') == 'c' && r[0] == 0, "MD-5 a private writable mapping works, the file unchanged");
	tap_ok(failed(syscall(SYS_fallocate, fd, 3 /* PUNCH_HOLE | KEEP_SIZE */, ARG64(0), ARG64(PAGE)), EPERM),
	       "MD-5 punching a hole: EPERM");
	if (r != MAP_FAILED)
		munmap(r, PAGE);
	if (p != MAP_FAILED)
		munmap(p, PAGE);

	w = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fut, 0);
	tap_ok(w != MAP_FAILED && add_seals(fut, SEAL_FUTURE_WRITE) == 0,
	       "MD-5 F_SEAL_FUTURE_WRITE is added with a shared writable mapping in place");
	tap_ok(w != MAP_FAILED && (w[0] = 'w') == 'w', "MD-5 that mapping still writes");
	tap_ok(mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fut, 0) == MAP_FAILED && errno == EPERM,
	       "MD-5 a new shared writable mapping: EPERM");
	tap_ok(failed(write_at(fut, "x", 1, 0), EPERM), "MD-5 write(): EPERM");
	if (w != MAP_FAILED)
		munmap(w, PAGE);
	close(fd);
	close(fut);
}

static void test_seal_exec(void)
{
	int ne = mfd(MFD_NOEXEC_SEAL_, PAGE), ex = mfd(MFD_ALLOW_SEALING_, PAGE);

	tap_ok(ne >= 0 && ex >= 0, "set-up");
	if (ne < 0 || ex < 0)
		return;
	tap_is_long(get_seals(ne), SEAL_EXEC, "MD-6 MFD_NOEXEC_SEAL: F_SEAL_EXEC, sealing allowed");
	tap_ok(add_seals(ex, SEAL_EXEC) == 0, "MD-6 F_SEAL_EXEC on an executable memfd");
	tap_is_long(get_seals(ex), SEAL_EXEC | SEAL_SHRINK | SEAL_GROW | SEAL_WRITE | SEAL_FUTURE_WRITE,
		    "MD-6 it brings the write and size seals with it");
	close(ne);
	close(ex);
}

/*
 * MD-5 with MAP_FIXED: a write seal refuses a shared writable mapping
 * before MAP_FIXED's old mappings go (Linux checks the seals in do_mmap()
 * and mapping_map_writable() before mmap_region() clears the range), so
 * the old mapping stays, data and all. Both seals, over two VMAs.
 */
static void test_seal_fixed(void)
{
	static const struct { long seal; const char *name; } seals[] = {
		{ SEAL_WRITE, "F_SEAL_WRITE" }, { SEAL_FUTURE_WRITE, "F_SEAL_FUTURE_WRITE" },
	};

	for (unsigned i = 0; i < sizeof(seals) / sizeof(seals[0]); i++) {
		int fd = mfd(MFD_ALLOW_SEALING_, 4 * PAGE);
		char *o = anon(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, 0), *m;
		int e, kept;
		char before[64], after[64];

		if (fd < 0 || o == MAP_FAILED || add_seals(fd, seals[i].seal) != 0) {
			tap_skip("MD-5 MAP_FIXED over a mapping with %s: no set-up (errno %d)", seals[i].name, errno);
			continue;
		}
		memset(o, 0x33, 4 * PAGE);
		mprotect(o + 2 * PAGE, PAGE, PROT_READ);	/* two VMAs under the new mapping */
		snprintf(before, sizeof(before), "%s", shape(o, o + 4 * PAGE));
		errno = 0;
		m = mmap(o + PAGE, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
		e = errno;
		snprintf(after, sizeof(after), "%s", shape(o, o + 4 * PAGE));
		kept = can_read(o + PAGE) && o[PAGE] == 0x33 && o[2 * PAGE] == 0x33 && strcmp(before, after) == 0;
		tap_ok(m == MAP_FAILED && e == EPERM && kept,
		       "MD-5 MAP_FIXED of a memfd with %s, shared and writable, over a mapping: EPERM (errno %d), the old "
		       "mapping kept with its data (%s)", seals[i].name, e, after);
		munmap(o, 4 * PAGE);
		close(fd);
	}
}

/*
 * MD-7: a hole punched in a memfd (fallocate PUNCH_HOLE, or MADV_REMOVE
 * through a shared mapping) takes the pages out of every mapping that
 * maps them: the shared ones read zero, and a private mapping reads zero
 * where it had not copied the page, but keeps its private copy.
 */
static int64_t fd_size(int fd);

/* MD-7 on fd, a file of 3 pages (a memfd, or a tmpfs file in /tmp). */
static void punch_file(int fd, const char *what)
{
	char *s, *t, *q;

	s = fd >= 0 ? mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
	t = fd >= 0 ? mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
	q = fd >= 0 ? mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	tap_ok(s != MAP_FAILED && t != MAP_FAILED && q != MAP_FAILED, "set-up: %s of 3 pages mapped twice shared, once private", what);
	if (s == MAP_FAILED || t == MAP_FAILED || q == MAP_FAILED)
		return;
	memset(s, 'a', 3 * PAGE);
	q[PAGE] = 'p';	/* a private copy of page 1; pages 0 and 2 stay the file's */
	tap_ok(t[0] == 'a' && q[0] == 'a' && q[2 * PAGE] == 'a', "%s: the mappings see the file", what);
	tap_ok(syscall(SYS_fallocate, fd, 3 /* PUNCH_HOLE | KEEP_SIZE */, ARG64(0), ARG64(2 * PAGE)) == 0,
	       "MD-7 %s: fallocate(PUNCH_HOLE) of pages 0 and 1: 0", what);
	tap_ok(s[0] == 0 && t[0] == 0 && s[PAGE] == 0 && t[PAGE] == 0 && s[2 * PAGE] == 'a',
	       "MD-7 %s: both shared mappings read zero in the hole (%d %d), the file's data after it", what, s[0], t[0]);
	tap_ok(q[0] == 0 && q[PAGE] == 'p' && q[2 * PAGE] == 'a',
	       "MD-7 %s: the private mapping: zero where it had the file's page, its own copy kept (%d %d)", what,
	       q[0], q[PAGE]);
	memset(s, 'b', 3 * PAGE);
	tap_ok(madvise(t + 2 * PAGE, PAGE, MADV_REMOVE) == 0 && s[2 * PAGE] == 0 && t[2 * PAGE] == 0 && q[2 * PAGE] == 0 &&
		       s[0] == 'b',
	       "MD-7, MA-9 %s: MADV_REMOVE through one shared mapping punches the file: every mapping reads zero there (%d)",
	       what, s[2 * PAGE]);
	munmap(s, 3 * PAGE);
	munmap(t, 3 * PAGE);
	munmap(q, 3 * PAGE);
}

/* MD-7 on a memfd and on a /tmp file; fallocate's other modes on the file. */
static void test_punch(void)
{
	int fd = mfd(0, 3 * PAGE);
	char c = 1;

	if (fd >= 0) {
		punch_file(fd, "a memfd");
		close(fd);
	}
	fd = open("/tmp/md-punch", O_CREAT | O_TRUNC | O_RDWR, 0600);
	tap_ok(fd >= 0 && syscall(SYS_ftruncate, fd, 3 * PAGE) == 0, "set-up: a 3-page file in /tmp");
	if (fd < 0)
		return;
	punch_file(fd, "a /tmp file");
	tap_ok(syscall(SYS_fallocate, fd, 1 /* KEEP_SIZE */, ARG64(0), ARG64(8 * PAGE)) == 0 &&
		       fd_size(fd) == (int64_t)(3 * PAGE) && syscall(SYS_fallocate, fd, 0, ARG64(0), ARG64(5 * PAGE)) == 0 &&
		       fd_size(fd) == (int64_t)(5 * PAGE),
	       "MD-7 a /tmp file: fallocate KEEP_SIZE allocates without growing it, mode 0 grows it");
	tap_ok(failed(syscall(SYS_fallocate, fd, 0x10 /* ZERO_RANGE */, ARG64(0), ARG64(PAGE)), EOPNOTSUPP) &&
		       failed(syscall(SYS_fallocate, fd, 2 /* PUNCH_HOLE alone */, ARG64(0), ARG64(PAGE)), EOPNOTSUPP),
	       "MD-7 a /tmp file: ZERO_RANGE and a PUNCH_HOLE without KEEP_SIZE: EOPNOTSUPP, as tmpfs");
	tap_ok(syscall(SYS_fallocate, fd, 3, ARG64(PAGE / 2), ARG64(PAGE)) == 0 && read_at(fd, &c, 1, PAGE / 2) == 1 &&
		       c == 0 && read_at(fd, &c, 1, PAGE / 2 - 1) == 1 && c == 'b' && read_at(fd, &c, 1, 3 * PAGE / 2) == 1 &&
		       c == 'b' && fd_size(fd) == (int64_t)(5 * PAGE),
	       "MD-7 a /tmp file: a hole across two pages zeroes just their parts in it, the size stays");
	close(fd);
	syscall(NR_unlinkat, -100 /* AT_FDCWD */, "/tmp/md-punch", 0);
}

/* st_dev and st_ino of fd: the first two 64-bit fields of struct stat (stat64). */
static int fd_dev_ino(int fd, uint64_t *dev, uint64_t *ino)
{
	unsigned char buf[256];

	if (syscall(NR_newfstatat, fd, "", buf, 0x1000 /* AT_EMPTY_PATH */) != 0)
		return -1;
	memcpy(dev, buf, 8);
	memcpy(ino, buf + 8, 8);
	return 0;
}

/* Does the maps entry m show device dev (major:minor as Linux encodes them)? */
static int maps_dev_is(const struct maps_entry *m, uint64_t dev)
{
	return m->major == (unsigned)((dev >> 8) & 0xfff) && m->minor == (unsigned)((dev & 0xff) | ((dev >> 12) & 0xfff00));
}

/*
 * MD-8: a memfd's mapping shows the file's device and inode in
 * /proc/self/maps, as fstat gives them; two memfds have two inodes; shared
 * anonymous memory (a shmem file of its own) shows the same device and an
 * inode of its own.
 */
static void test_ident(void)
{
	int a = mfd(0, PAGE), b = mfd(0, PAGE);
	uint64_t adev = 0, aino = 0, bdev = 0, bino = 0;
	struct maps_entry ma, mb, ms, mt;
	char *pa, *pb, *s, *t;

	pa = a >= 0 ? mmap(NULL, PAGE, PROT_READ, MAP_SHARED, a, 0) : MAP_FAILED;
	pb = b >= 0 ? mmap(NULL, PAGE, PROT_READ, MAP_SHARED, b, 0) : MAP_FAILED;
	s = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	t = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	tap_ok(pa != MAP_FAILED && pb != MAP_FAILED && s != MAP_FAILED && t != MAP_FAILED &&
		       fd_dev_ino(a, &adev, &aino) == 0 && fd_dev_ino(b, &bdev, &bino) == 0,
	       "set-up: two memfds mapped, two shared anonymous mappings, fstat of both memfds");
	if (pa == MAP_FAILED || pb == MAP_FAILED || s == MAP_FAILED || t == MAP_FAILED)
		return;
	tap_ok(maps_entry(pa, &ma) == 0 && maps_entry(pb, &mb) == 0 && maps_entry(s, &ms) == 0 &&
		       maps_entry(t, &mt) == 0,
	       "all four have a line in /proc/self/maps");
	tap_ok(ma.ino == aino && maps_dev_is(&ma, adev) && aino != 0,
	       "MD-8 a memfd's maps line shows fstat's device and inode (%02x:%02x %llu; st_dev %#llx st_ino %llu)",
	       ma.major, ma.minor, ma.ino, (unsigned long long)adev, (unsigned long long)aino);
	tap_ok(mb.ino == bino && bino != aino && bdev == adev,
	       "MD-8 a second memfd: the same device, another inode (%llu, %llu)", (unsigned long long)aino,
	       (unsigned long long)bino);
	tap_ok(maps_dev_is(&ms, adev) && maps_dev_is(&mt, adev) && ms.ino != 0 && mt.ino != 0 && ms.ino != mt.ino,
	       "MD-8 shared anonymous mappings: the memfds' device, an inode each (%02x:%02x %llu, %llu)", ms.major,
	       ms.minor, ms.ino, mt.ino);
	munmap(pa, PAGE);
	munmap(pb, PAGE);
	munmap(s, PAGE);
	munmap(t, PAGE);
	close(a);
	close(b);
}

/* st_size of fd: at byte 48 of struct stat (arm64) and struct stat64 (MicroBlaze). */
static int64_t fd_size(int fd)
{
	unsigned char buf[256];
	int64_t size;

	if (syscall(NR_newfstatat, fd, "", buf, 0x1000 /* AT_EMPTY_PATH */) != 0)
		return -1;
	memcpy(&size, buf + 48, 8);
	return size;
}

static long ftruncate_64(int fd, uint64_t len)
{
	return syscall(NR_ftruncate64, fd, ARG64(len));
}

static long pwrite_64(int fd, const void *buf, size_t n, uint64_t off)
{
	return syscall(NR_pwrite64, fd, buf, n, ARG64(off));
}

static long pread_64(int fd, void *buf, size_t n, uint64_t off)
{
	return syscall(NR_pread64, fd, buf, n, ARG64(off));
}

/* MD-9 on fd (a memfd, or on arm64 a tmpfs file): 3 GiB, a byte at its end. */
static void big_file(int fd, const char *what)
{
	uint64_t big = 3ull << 30;
	char c = 0, d = 1;

	tap_ok(ftruncate_64(fd, big) == 0 && fd_size(fd) == (int64_t)big,
	       "MD-9 %s: ftruncate to 3 GiB: 0, fstat's size 3 GiB (errno %d)", what, errno);
	tap_ok(pwrite_64(fd, "x", 1, big - 1) == 1 && pread_64(fd, &c, 1, big - 1) == 1 && c == 'x' &&
		       pread_64(fd, &d, 1, big) == 0 && pread_64(fd, &d, 1, big / 2) == 1 && d == 0,
	       "MD-9 %s: a byte written at 3 GiB - 1 reads back, nothing past the end, zero in the middle", what);
#ifdef __aarch64__
	{
		char *p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, (off_t)(big - PAGE));

		tap_ok(p != MAP_FAILED && can_read(p + PAGE - 1) && p[PAGE - 1] == 'x',
		       "MD-9 %s: its last page maps shared and shows the byte", what);
		if (p != MAP_FAILED)
			munmap(p, PAGE);
	}
	tap_ok(ftruncate_64(fd, 1ull << 62) == 0 && pwrite_64(fd, "y", 1, (1ull << 62) - 1) == 1 &&
		       pread_64(fd, &c, 1, (1ull << 62) - 1) == 1 && c == 'y' && pread_64(fd, &c, 1, big - 1) == 1 &&
		       c == 'x',
	       "MD-9 %s: grown to 2^62 bytes, a byte at its end reads back, the one at 3 GiB stays", what);
	tap_ok(ftruncate_64(fd, (uint64_t)INT64_MAX) == 0 && fd_size(fd) == INT64_MAX,
	       "MD-9 %s: ftruncate to 2^63 - 1 (MAX_LFS_FILESIZE): 0 (errno %d)", what, errno);
	tap_ok(pwrite_64(fd, "w", 1, INT64_MAX - 1) == 1 && pread_64(fd, &c, 1, INT64_MAX - 1) == 1 && c == 'w',
	       "MD-9 %s: a byte written at 2^63 - 2, the last one a file can hold, reads back", what);
	tap_ok(failed(pwrite_64(fd, "ww", 2, INT64_MAX - 1), EINVAL) && failed(pread_64(fd, &c, 2, INT64_MAX - 1), EINVAL) &&
		       failed(pwrite_64(fd, "w", 1, INT64_MAX), EINVAL),
	       "MD-9 %s: pwrite64 and pread64 that would end past 2^63 - 1: EINVAL (rw_verify_area)", what);
#else
	tap_ok(ftruncate_64(fd, 0xfffffffful * (uint64_t)PAGE) == 0 &&
		       failed(ftruncate_64(fd, 0xfffffffful * (uint64_t)PAGE + 1), EFBIG),
	       "MD-9 %s: ftruncate64 to 2^32 - 1 pages (MAX_LFS_FILESIZE): 0; a byte more: EFBIG (errno %d)", what,
	       errno);
	tap_ok(pwrite_64(fd, "vv", 2, 0xfffffffful * (uint64_t)PAGE - 1) == 1 &&
		       failed(pwrite_64(fd, "v", 1, 0xfffffffful * (uint64_t)PAGE), EFBIG),
	       "MD-9 %s: pwrite64 of 2 bytes ending past the limit writes 1; one at the limit: EFBIG (errno %d)", what,
	       errno);
#endif
	tap_ok(ftruncate_64(fd, 0) == 0 && fd_size(fd) == 0, "MD-9 %s: shrunk to 0 again", what);
}

/*
 * MD-9: a memfd may grow to MAX_LFS_FILESIZE, as shmem's s_maxbytes, its
 * pages only where written; so may a tmpfs file (arm64 only: a 32-bit
 * open without O_LARGEFILE stops at 2 GiB), and a shared anonymous
 * mapping with MAP_NORESERVE may be larger than RAM.
 */
static void test_large(void)
{
	int fd = (int)syscall(SYS_memfd_create, "big", 0);
	char c;

	tap_ok(failed(pread_64(-1, &c, 1, -1), EINVAL) && failed(pwrite_64(-1, &c, 1, -1), EINVAL),
	       "pread64 and pwrite64 with a bad fd and a negative offset: EINVAL (the offset is checked first)");

	tap_ok(fd >= 0, "set-up: a memfd");
	if (fd >= 0) {
		big_file(fd, "a memfd");
		close(fd);
	}
#ifdef __aarch64__
	fd = open("/tmp/md-big", O_CREAT | O_TRUNC | O_RDWR, 0600);
	tap_ok(fd >= 0, "set-up: a file in /tmp");
	if (fd >= 0) {
		big_file(fd, "a /tmp file");
		close(fd);
		syscall(NR_unlinkat, -100 /* AT_FDCWD */, "/tmp/md-big", 0);
	}
	{
		size_t len = 3ul << 30;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		tap_ok(p != MAP_FAILED, "MD-9 a 3 GiB shared anonymous mmap with MAP_NORESERVE: mapped (errno %d)", errno);
		if (p != MAP_FAILED) {
			p[len - 1] = 'z';
			p[0] = 'a';
			tap_ok(p[len - 1] == 'z' && p[len / 2] == 0 && p[0] == 'a',
			       "MD-9 its first and last bytes take writes, the middle reads zero");
			munmap(p, len);
		}
	}
#endif
}

int main(void)
{
	tap_init();
	probe_init();
	test_truncate();
	test_punch();
	test_seal_rules();
	test_seal_write();
	test_seal_exec();
	test_seal_fixed();
	test_ident();
	test_large();
	return tap_done();
}
