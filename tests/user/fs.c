/* fs.c - the file system: a tmpfs mounted on /tmp (by the test itself, as
 * Linux's initramfs has none), files whose data crosses page boundaries
 * through write/read/pread/pwrite/truncate, O_CREAT/O_EXCL/O_TRUNC/
 * O_APPEND/O_DIRECTORY/O_NOFOLLOW, directories and getdents64, hard and
 * symbolic links, rename (RENAME_NOREPLACE/EXCHANGE), unlink and rmdir, an
 * unlinked file still open, cwd and relative paths, dirfds, umask, chmod,
 * chown, utimensat, stat/statx/statfs, devtmpfs's devices, /proc/mounts,
 * a program copied into the tmpfs and run from there, mmap of a file
 * (MAP_SHARED writes reach it, MAP_PRIVATE copies, SIGBUS past the end),
 * and each call's Linux errnos. The page-cache pages of a file show in
 * /proc/meminfo's Shmem and go when the file does.
 *
 * Every call is made with syscall(2) and the arch's Linux numbers, and
 * struct stat is read at the offsets the arch's kernel writes, so both
 * libcs run the same code.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include "tap.h"

#include "arg64.h"

#if defined(__aarch64__)
#define NR(arm64, mb) (arm64)
#elif defined(__microblaze__)
#define NR(arm64, mb) (mb)
#else
#error "fs: unsupported architecture"
#endif

#define NR_openat	NR(56, 295)
#define NR_mkdirat	NR(34, 296)
#define NR_unlinkat	NR(35, 301)
#define NR_symlinkat	NR(36, 304)
#define NR_linkat	NR(37, 303)
#define NR_renameat2	NR(276, 383)
#define NR_umount2	NR(39, 52)
#define NR_readlinkat	NR(78, 305)
#define NR_newfstatat	NR(79, 300)	/* MicroBlaze: fstatat64 */
#define NR_fstat	NR(80, 197)	/* MicroBlaze: fstat64 */
#define NR_getdents64	NR(61, 220)
#define NR_chdir	NR(49, 12)
#define NR_fchdir	NR(50, 133)
#define NR_getcwd	NR(17, 183)
#define NR_umask	NR(166, 60)
#define NR_fchmodat	NR(53, 306)
#define NR_fchownat	NR(54, 298)
#define NR_utimensat	NR(88, 412)	/* MicroBlaze: utimensat_time64 */
#define NR_statx	NR(291, 398)
#define NR_fsync	NR(82, 118)
#define NR_faccessat	NR(48, 307)
#define NR_pread64	NR(67, 180)
#define NR_pwrite64	NR(68, 181)
#define NR_ftruncate	NR(46, 194)	/* MicroBlaze: ftruncate64 */

#ifndef AT_FDCWD
#define AT_FDCWD		-100
#endif
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_REMOVEDIR		0x200
#define AT_EMPTY_PATH		0x1000
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE	1
#define RENAME_EXCHANGE		2
#endif
#ifndef O_DIRECTORY
#define O_DIRECTORY		040000
#endif
#ifndef O_NOFOLLOW
#define O_NOFOLLOW		0100000
#endif
#define S_IFMT_	0170000
#define S_IFDIR_	0040000
#define S_IFREG_	0100000
#define S_IFLNK_	0120000
#define S_IFCHR_	0020000

/* The fields of the arch's struct stat (stat64 on MicroBlaze) the tests read. */
struct st {
	uint64_t ino, rdev, size;
	uint32_t mode, nlink, uid, gid;
	int64_t mtime;
};

static void decode(const unsigned char *b, struct st *s)
{
	memcpy(&s->ino, b + 8, 8);
	memcpy(&s->mode, b + 16, 4);
	memcpy(&s->nlink, b + 20, 4);
	memcpy(&s->uid, b + 24, 4);
	memcpy(&s->gid, b + 28, 4);
	memcpy(&s->rdev, b + 32, 8);
	memcpy(&s->size, b + 48, 8);
	if (sizeof(long) == 8) {
		memcpy(&s->mtime, b + 88, 8);
	} else {
		int32_t t;

		memcpy(&t, b + 80, 4);
		s->mtime = t;
	}
}

static long st_at(int dirfd, const char *path, int flags, struct st *s)
{
	unsigned char buf[256];
	long r = syscall(NR_newfstatat, dirfd, path, buf, flags);

	if (r == 0)
		decode(buf, s);
	return r;
}

static long st_path(const char *path, struct st *s) { return st_at(AT_FDCWD, path, 0, s); }
static long lst_path(const char *path, struct st *s) { return st_at(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, s); }

static long st_fd(int fd, struct st *s)
{
	unsigned char buf[256];
	long r = syscall(NR_fstat, fd, buf);

	if (r == 0)
		decode(buf, s);
	return r;
}

static long xpread(int fd, void *buf, size_t n, int64_t pos) { return syscall(NR_pread64, fd, buf, n, ARG64(pos)); }
static long xpwrite(int fd, const void *buf, size_t n, int64_t pos) { return syscall(NR_pwrite64, fd, buf, n, ARG64(pos)); }
static long xftruncate(int fd, int64_t len) { return syscall(NR_ftruncate, fd, ARG64(len)); }
static int xopen(const char *path, int flags, int mode) { return (int)syscall(NR_openat, AT_FDCWD, path, flags, mode); }
static long xmkdir(const char *path, int mode) { return syscall(NR_mkdirat, AT_FDCWD, path, mode); }
static long xunlink(const char *path) { return syscall(NR_unlinkat, AT_FDCWD, path, 0); }
static long xrmdir(const char *path) { return syscall(NR_unlinkat, AT_FDCWD, path, AT_REMOVEDIR); }
static long xrename(const char *a, const char *b, int flags)
{
	return syscall(NR_renameat2, AT_FDCWD, a, AT_FDCWD, b, flags);
}

/* The call returned -1 with errno e. */
static int fails(long r, int e, const char *what)
{
	int err = errno;

	return tap_ok(r == -1 && err == e, "%s: %s (got %ld, errno %d)", what, strerror(e), r, r == -1 ? err : 0);
}

static void fill(unsigned char *b, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(i * 7 + seed + (i >> 8));
}

/* Shmem of /proc/meminfo in kB, or -1. */
static long shmem_kb(void)
{
	char buf[4096], *p;
	int fd = xopen("/proc/meminfo", O_RDONLY, 0);
	long n, kb = -1;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if ((p = strstr(buf, "\nShmem:"))) {
		for (p += 7; *p == ' '; p++)
			;
		for (kb = 0; *p >= '0' && *p <= '9'; p++)
			kb = kb * 10 + (*p - '0');
	}
	return kb;
}

static unsigned char big[3 * 65536 + 1000], back[sizeof(big)];	/* room for file_mmap's three pages of any size */

static void file_data(void)
{
	struct st s;
	int fd = xopen("/tmp/fs/data", O_CREAT | O_EXCL | O_RDWR, 0644);
	long n;

	tap_ok(fd >= 0, "open O_CREAT|O_EXCL makes a new file");
	fails(xopen("/tmp/fs/data", O_CREAT | O_EXCL | O_RDWR, 0644), EEXIST, "O_EXCL on an existing file");
	fill(big, sizeof(big), 1);
	tap_is_long(write(fd, big, sizeof(big)), sizeof(big), "write across three page boundaries");
	tap_ok(st_fd(fd, &s) == 0 && s.size == sizeof(big) && (s.mode & S_IFMT_) == S_IFREG_ &&
	       (s.mode & 07777) == 0644 && s.nlink == 1, "fstat: regular, 0644, size %llu, nlink 1",
	       (unsigned long long)s.size);
	tap_is_long(lseek(fd, 0, SEEK_SET), 0, "lseek to 0");
	memset(back, 0, sizeof(back));
	tap_is_long(read(fd, back, sizeof(back)), sizeof(big), "read it back");
	tap_ok(memcmp(big, back, sizeof(big)) == 0, "the bytes are the ones written");
	tap_is_long(read(fd, back, 10), 0, "read at end of file gives 0");
	/* pwrite/pread across the boundary at 4096 */
	tap_is_long(xpwrite(fd, "ABCDEFGH", 8, 4092), 8, "pwrite across a page boundary");
	tap_ok(xpread(fd, back, 8, 4092) == 8 && memcmp(back, "ABCDEFGH", 8) == 0, "pread sees it");
	tap_is_long(lseek(fd, 0, SEEK_CUR), sizeof(big), "pread/pwrite leave the offset alone");
	fails(xpread(fd, back, 8, -1), EINVAL, "pread at a negative offset");
	tap_is_long(lseek(fd, 0, SEEK_END), sizeof(big), "SEEK_END is the size");
	/* truncate down, then up: the tail reads as zeros */
	tap_is_long(xftruncate(fd, 5000), 0, "ftruncate to 5000");
	tap_is_long(xftruncate(fd, 9000), 0, "ftruncate up to 9000");
	memset(back, 0xff, sizeof(back));
	n = xpread(fd, back, sizeof(back), 0);
	tap_is_long(n, 9000, "read gives the new size");
	{
		int zeros = 1;

		for (int i = 5000; i < 9000; i++)
			zeros &= back[i] == 0;
		tap_ok(zeros && back[4092] == 'A' && back[4999] == big[4999],
		       "bytes past the old truncation point read as zeros, the rest is kept");
	}
	/* a hole: writing far away leaves zeros between */
	tap_is_long(xpwrite(fd, "Z", 1, 40000), 1, "pwrite past the end makes a hole");
	tap_ok(xpread(fd, back, 4, 20000) == 4 && !back[0] && !back[1] && !back[2] && !back[3], "a hole reads as zeros");
	tap_ok(st_fd(fd, &s) == 0 && s.size == 40001, "the size is 40001");
	tap_is_long(syscall(NR_fsync, fd), 0, "fsync");
	close(fd);
	/* O_TRUNC and O_APPEND */
	fd = xopen("/tmp/fs/data", O_WRONLY | O_TRUNC, 0);
	tap_ok(fd >= 0 && st_fd(fd, &s) == 0 && s.size == 0, "O_TRUNC empties the file");
	tap_is_long(write(fd, "hello", 5), 5, "write 5 bytes");
	close(fd);
	fd = xopen("/tmp/fs/data", O_WRONLY | O_APPEND, 0);
	lseek(fd, 0, SEEK_SET);
	tap_is_long(write(fd, " world", 6), 6, "O_APPEND write");
	close(fd);
	fd = xopen("/tmp/fs/data", O_RDONLY, 0);
	memset(back, 0, 32);
	tap_ok(read(fd, back, 32) == 11 && memcmp(back, "hello world", 11) == 0, "O_APPEND wrote at the end");
	fails(write(fd, "x", 1), EBADF, "write to an O_RDONLY file");
	fails(xftruncate(fd, 0), EINVAL, "ftruncate of an O_RDONLY file");
	close(fd);
	fd = xopen("/tmp/fs/data", O_WRONLY, 0);
	fails(read(fd, back, 1), EBADF, "read from an O_WRONLY file");
	close(fd);
}

static void open_errors(void)
{
	char longname[300];

	fails(xopen("/tmp/fs/missing", O_RDONLY, 0), ENOENT, "open a missing file");
	fails(xopen("/tmp/fs/data/x", O_RDONLY, 0), ENOTDIR, "a file used as a directory");
	fails(xopen("/tmp/fs/data", O_RDONLY | O_DIRECTORY, 0), ENOTDIR, "O_DIRECTORY on a file");
	fails(xopen("/tmp/fs", O_WRONLY, 0), EISDIR, "a directory opened for writing");
	fails(xopen("/tmp/fs/nodir/x", O_CREAT | O_RDWR, 0644), ENOENT, "O_CREAT under a missing directory");
	fails(xopen("/tmp/fs/newdir", O_CREAT | O_DIRECTORY | O_RDONLY, 0755), EINVAL, "O_CREAT with O_DIRECTORY");
	fails(xopen("", O_RDONLY, 0), ENOENT, "the empty path");
	fails(xopen((const char *)1, O_RDONLY, 0), EFAULT, "a bad path pointer");
	memset(longname, 'n', sizeof(longname));
	memcpy(longname, "/tmp/", 5);
	longname[sizeof(longname) - 1] = '\0';
	fails(xopen(longname, O_RDONLY, 0), ENAMETOOLONG, "a component longer than 255 bytes");
	fails(syscall(NR_openat, 12345, "x", O_RDONLY, 0), EBADF, "openat with a closed dirfd");
	{
		int fd = xopen("/tmp/fs/data", O_RDONLY, 0);

		fails(syscall(NR_openat, fd, "x", O_RDONLY, 0), ENOTDIR, "openat with a file as dirfd");
		close(fd);
	}
}

/* The names getdents64 gives for path, joined with ',' after "." and "..", in seen[]. */
static int list_dir(const char *path, char *out, size_t outsz, int *types_ok)
{
	char buf[512];
	int fd = xopen(path, O_RDONLY | O_DIRECTORY, 0), count = 0;
	long n;

	out[0] = '\0';
	*types_ok = 1;
	if (fd < 0)
		return -1;
	while ((n = syscall(NR_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			unsigned short reclen;
			unsigned char type = (unsigned char)buf[off + 18];
			const char *name = buf + off + 19;

			memcpy(&reclen, buf + off + 16, 2);
			if (strcmp(name, ".") && strcmp(name, "..")) {
				if (strlen(out) + strlen(name) + 2 < outsz) {
					strcat(out, name);
					strcat(out, ",");
				}
				if ((!strcmp(name, "sub") && type != 4) || (!strcmp(name, "a") && type != 8) ||
				    (!strcmp(name, "ln") && type != 10))
					*types_ok = 0;
			} else if (type != 4) {
				*types_ok = 0;
			}
			count++;
			off += reclen;
		}
	}
	close(fd);
	return n < 0 ? -1 : count;
}

static void directories(void)
{
	char names[256];
	int types_ok, fd;
	struct st s, s2;

	tap_is_long(xmkdir("/tmp/fs/d", 0755), 0, "mkdir");
	fails(xmkdir("/tmp/fs/d", 0755), EEXIST, "mkdir of an existing name");
	fails(xmkdir("/tmp/fs/none/d", 0755), ENOENT, "mkdir under a missing directory");
	fails(xmkdir("/tmp/fs/data/d", 0755), ENOTDIR, "mkdir under a file");
	tap_ok(st_path("/tmp/fs/d", &s) == 0 && (s.mode & S_IFMT_) == S_IFDIR_ && s.nlink == 2,
	       "a new directory: nlink 2");
	xmkdir("/tmp/fs/d/sub", 0755);
	tap_ok(st_path("/tmp/fs/d", &s) == 0 && s.nlink == 3, "a subdirectory adds a link to its parent");
	fd = xopen("/tmp/fs/d/a", O_CREAT | O_WRONLY, 0644);
	close(fd);
	syscall(NR_symlinkat, "a", AT_FDCWD, "/tmp/fs/d/ln");
	tap_is_long(list_dir("/tmp/fs/d", names, sizeof(names), &types_ok), 5, "getdents64: 5 entries with . and ..");
	tap_ok(strstr(names, "sub,") && strstr(names, "a,") && strstr(names, "ln,"), "the names: %s", names);
	tap_ok(types_ok, "d_type: DT_DIR, DT_REG, DT_LNK");
	fails(syscall(NR_getdents64, 12345, names, sizeof(names)), EBADF, "getdents64 of a closed fd");
	fd = xopen("/tmp/fs/data", O_RDONLY, 0);
	fails(syscall(NR_getdents64, fd, names, sizeof(names)), ENOTDIR, "getdents64 of a file");
	close(fd);
	fails(xrmdir("/tmp/fs/d"), ENOTEMPTY, "rmdir of a non-empty directory");
	fails(xrmdir("/tmp/fs/d/a"), ENOTDIR, "rmdir of a file");
	fails(xunlink("/tmp/fs/d/sub"), EISDIR, "unlink of a directory");
	fails(xrmdir("/tmp/fs/d/."), EINVAL, "rmdir of \".\"");
	fails(xunlink("/tmp/fs/d/none"), ENOENT, "unlink of a missing name");
	fails(syscall(NR_unlinkat, AT_FDCWD, "/tmp/fs/d/a", 0x1), EINVAL, "unlinkat with an unknown flag");
	tap_is_long(xrmdir("/tmp/fs/d/sub"), 0, "rmdir of an empty directory");
	tap_ok(st_path("/tmp/fs/d", &s2) == 0 && s2.nlink == 2, "its parent lost the link");
	tap_is_long(xunlink("/tmp/fs/d/ln"), 0, "unlink a symlink");
	tap_is_long(xunlink("/tmp/fs/d/a"), 0, "unlink a file");
	tap_is_long(list_dir("/tmp/fs/d", names, sizeof(names), &types_ok), 2, "an empty directory lists . and ..");
}

static void links(void)
{
	struct st a, b;
	char buf[64];
	int fd;
	long n;

	fd = xopen("/tmp/fs/f1", O_CREAT | O_WRONLY, 0600);
	write(fd, "one", 3);
	close(fd);
	tap_is_long(syscall(NR_linkat, AT_FDCWD, "/tmp/fs/f1", AT_FDCWD, "/tmp/fs/f2", 0), 0, "link");
	tap_ok(st_path("/tmp/fs/f1", &a) == 0 && st_path("/tmp/fs/f2", &b) == 0 && a.ino == b.ino && b.nlink == 2,
	       "both names are one inode, nlink 2");
	fails(syscall(NR_linkat, AT_FDCWD, "/tmp/fs/f1", AT_FDCWD, "/tmp/fs/f2", 0), EEXIST, "link onto an existing name");
	fails(syscall(NR_linkat, AT_FDCWD, "/tmp/fs/d", AT_FDCWD, "/tmp/fs/d2", 0), EPERM, "link of a directory");
	fails(syscall(NR_linkat, AT_FDCWD, "/tmp/fs/none", AT_FDCWD, "/tmp/fs/n2", 0), ENOENT, "link of a missing file");
	xunlink("/tmp/fs/f1");
	tap_ok(st_path("/tmp/fs/f2", &b) == 0 && b.nlink == 1, "unlink one name: nlink 1, the other stays");
	/* symbolic links */
	tap_is_long(syscall(NR_symlinkat, "f2", AT_FDCWD, "/tmp/fs/sl"), 0, "symlink");
	fails(syscall(NR_symlinkat, "x", AT_FDCWD, "/tmp/fs/sl"), EEXIST, "symlink onto an existing name");
	n = syscall(NR_readlinkat, AT_FDCWD, "/tmp/fs/sl", buf, sizeof(buf));
	tap_ok(n == 2 && memcmp(buf, "f2", 2) == 0, "readlink gives the target (%ld bytes)", n);
	fails(syscall(NR_readlinkat, AT_FDCWD, "/tmp/fs/f2", buf, sizeof(buf)), EINVAL, "readlink of a file");
	fails(syscall(NR_readlinkat, AT_FDCWD, "/tmp/fs/sl", buf, 0), EINVAL, "readlink with size 0");
	tap_ok(lst_path("/tmp/fs/sl", &a) == 0 && (a.mode & S_IFMT_) == S_IFLNK_ && a.size == 2,
	       "lstat: a symlink of size 2");
	tap_ok(st_path("/tmp/fs/sl", &a) == 0 && a.ino == b.ino, "stat follows it");
	fd = xopen("/tmp/fs/sl", O_RDONLY, 0);
	tap_ok(fd >= 0 && read(fd, buf, 3) == 3 && memcmp(buf, "one", 3) == 0, "open follows it");
	close(fd);
	fails(xopen("/tmp/fs/sl", O_RDONLY | O_NOFOLLOW, 0), ELOOP, "O_NOFOLLOW on a symlink");
	syscall(NR_symlinkat, "loop2", AT_FDCWD, "/tmp/fs/loop1");
	syscall(NR_symlinkat, "loop1", AT_FDCWD, "/tmp/fs/loop2");
	fails(xopen("/tmp/fs/loop1", O_RDONLY, 0), ELOOP, "a symlink loop");
	syscall(NR_symlinkat, "/tmp/fs/d", AT_FDCWD, "/tmp/fs/dl");
	fd = xopen("/tmp/fs/dl/../f2", O_RDONLY, 0);
	tap_ok(fd >= 0, "\"..\" after a symlink to a directory goes up from its target");
	close(fd);
	fails(xopen("/tmp/fs/dangling", O_RDONLY, 0), ENOENT, "before the dangling link");
	syscall(NR_symlinkat, "nowhere", AT_FDCWD, "/tmp/fs/dangling");
	fails(xopen("/tmp/fs/dangling", O_RDONLY, 0), ENOENT, "a dangling symlink");
	xunlink("/tmp/fs/dangling");
	xunlink("/tmp/fs/loop1");
	xunlink("/tmp/fs/loop2");
	xunlink("/tmp/fs/dl");
	xunlink("/tmp/fs/sl");
}

static void renames(void)
{
	struct st a, b, c;
	int fd;

	fd = xopen("/tmp/fs/r1", O_CREAT | O_WRONLY, 0600);
	close(fd);
	fd = xopen("/tmp/fs/r2", O_CREAT | O_WRONLY, 0600);
	close(fd);
	st_path("/tmp/fs/r1", &a);
	st_path("/tmp/fs/r2", &b);
	tap_is_long(xrename("/tmp/fs/r1", "/tmp/fs/r3", 0), 0, "rename to a new name");
	tap_ok(st_path("/tmp/fs/r3", &c) == 0 && c.ino == a.ino && st_path("/tmp/fs/r1", &c) == -1,
	       "the inode moved, the old name is gone");
	fails(xrename("/tmp/fs/r3", "/tmp/fs/r2", RENAME_NOREPLACE), EEXIST, "RENAME_NOREPLACE onto an existing name");
	tap_is_long(xrename("/tmp/fs/r3", "/tmp/fs/r2", RENAME_EXCHANGE), 0, "RENAME_EXCHANGE");
	tap_ok(st_path("/tmp/fs/r2", &c) == 0 && c.ino == a.ino && st_path("/tmp/fs/r3", &c) == 0 && c.ino == b.ino,
	       "the two names swapped inodes");
	fails(xrename("/tmp/fs/r3", "/tmp/fs/none", RENAME_EXCHANGE), ENOENT, "RENAME_EXCHANGE with a missing target");
	fails(xrename("/tmp/fs/r3", "/tmp/fs/r2", RENAME_EXCHANGE | RENAME_NOREPLACE), EINVAL,
	      "RENAME_EXCHANGE with RENAME_NOREPLACE");
	tap_is_long(xrename("/tmp/fs/r3", "/tmp/fs/r2", 0), 0, "rename replaces an existing file");
	tap_ok(st_path("/tmp/fs/r2", &c) == 0 && c.ino == b.ino && st_path("/tmp/fs/r3", &c) == -1,
	       "the target names the moved inode");
	xmkdir("/tmp/fs/rd", 0755);
	xmkdir("/tmp/fs/rd/in", 0755);
	fails(xrename("/tmp/fs/rd", "/tmp/fs/rd/in/x", 0), EINVAL, "a directory into itself");
	fails(xrename("/tmp/fs/r2", "/tmp/fs/rd", 0), EISDIR, "a file over a directory");
	fails(xrename("/tmp/fs/rd/in", "/tmp/fs/r2", 0), ENOTDIR, "a directory over a file");
	xmkdir("/tmp/fs/rd2", 0755);
	fails(xrename("/tmp/fs/rd2", "/tmp/fs/rd", 0), ENOTEMPTY, "a directory over a non-empty one");
	tap_is_long(xrename("/tmp/fs/rd/in", "/tmp/fs/rd2", 0), 0, "a directory over an empty one");
	tap_ok(st_path("/tmp/fs/rd", &a) == 0 && a.nlink == 2 && st_path("/tmp/fs/rd2", &b) == 0 && b.nlink == 2,
	       "link counts of the parents follow");
	fails(xrename("/tmp/fs/none", "/tmp/fs/x", 0), ENOENT, "rename of a missing name");
	fails(xrename("/tmp/fs/r2", "/fs-test-exdev", 0), EXDEV, "rename across mounts");
	xrmdir("/tmp/fs/rd2");
	xrmdir("/tmp/fs/rd");
	xunlink("/tmp/fs/r2");
}

static void unlinked_open(void)
{
	struct st s;
	char buf[16];
	long before = shmem_kb(), during, after;
	int fd = xopen("/tmp/fs/gone", O_CREAT | O_RDWR, 0600);

	/* 2 MiB, so that Linux's per-CPU counter batching (a few dozen pages) does not hide it */
	for (int i = 0; i < 512; i++)
		write(fd, big, 4096);
	during = shmem_kb();
	tap_ok(before < 0 || during - before >= 1792, "2 MiB of file data show in Shmem (%ld -> %ld kB)", before, during);
	tap_is_long(xunlink("/tmp/fs/gone"), 0, "unlink an open file");
	fails(st_path("/tmp/fs/gone", &s), ENOENT, "its name is gone");
	tap_ok(st_fd(fd, &s) == 0 && s.nlink == 0 && s.size == 2 << 20, "fstat: nlink 0, size kept");
	tap_ok(xpread(fd, buf, 4, 4096) == 4 && memcmp(buf, big, 4) == 0, "the data is still readable");
	tap_is_long(xpwrite(fd, "w", 1, 0), 1, "and writable");
	close(fd);
	after = shmem_kb();
	tap_ok(before < 0 || during - after >= 1792, "closing it frees its pages (Shmem %ld -> %ld kB)", during, after);
}

static void cwd(void)
{
	char buf[256];
	struct st s;
	int dfd, fd, status;
	pid_t pid;

	tap_is_long(syscall(NR_chdir, "/tmp/fs/d"), 0, "chdir");
	tap_ok(syscall(NR_getcwd, buf, sizeof(buf)) > 0 && strcmp(buf, "/tmp/fs/d") == 0, "getcwd: %s", buf);
	fails(syscall(NR_getcwd, buf, 3), ERANGE, "getcwd into a small buffer");
	fd = xopen("rel", O_CREAT | O_WRONLY, 0644);
	tap_ok(fd >= 0 && st_path("/tmp/fs/d/rel", &s) == 0, "a relative path starts at the cwd");
	close(fd);
	tap_ok(st_path("../data", &s) == 0, "\"..\" from the cwd");
	tap_ok(st_path("./../d/./rel", &s) == 0, "\".\" and \"..\" in the middle of a path");
	fails(syscall(NR_chdir, "/tmp/fs/data"), ENOTDIR, "chdir to a file");
	fails(syscall(NR_chdir, "/tmp/fs/none"), ENOENT, "chdir to a missing directory");
	pid = fork();
	if (pid == 0) {
		syscall(NR_chdir, "/");
		_exit(st_path("rel", &s) == 0 ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a child inherits the cwd and changes its own");
	tap_ok(syscall(NR_getcwd, buf, sizeof(buf)) > 0 && strcmp(buf, "/tmp/fs/d") == 0,
	       "the parent's cwd is unchanged: %s", buf);
	syscall(NR_chdir, "/");
	dfd = xopen("/tmp/fs/d", O_RDONLY | O_DIRECTORY, 0);
	tap_ok(st_at(dfd, "rel", 0, &s) == 0, "fstatat relative to a directory fd");
	tap_ok(st_at(dfd, "", AT_EMPTY_PATH, &s) == 0 && (s.mode & S_IFMT_) == S_IFDIR_, "AT_EMPTY_PATH on the dirfd");
	tap_is_long(syscall(NR_fchdir, dfd), 0, "fchdir");
	tap_ok(syscall(NR_getcwd, buf, sizeof(buf)) > 0 && strcmp(buf, "/tmp/fs/d") == 0, "getcwd after fchdir");
	close(dfd);
	xunlink("rel");
	/* a removed cwd takes no new names */
	xmkdir("/tmp/fs/dead", 0755);
	syscall(NR_chdir, "/tmp/fs/dead");
	tap_is_long(xrmdir("/tmp/fs/dead"), 0, "rmdir of the cwd");
	fails(xopen("x", O_CREAT | O_WRONLY, 0644), ENOENT, "O_CREAT in a removed cwd");
	fails(xmkdir("y", 0755), ENOENT, "mkdir in a removed cwd");
	fails(syscall(NR_getcwd, buf, sizeof(buf)), ENOENT, "getcwd of a removed directory");
	syscall(NR_chdir, "/");
}

static void attributes(void)
{
	struct st s;
	long old = syscall(NR_umask, 077);
	int fd;
	struct { int64_t sec; long nsec; } ts64[2];

	fd = xopen("/tmp/fs/m", O_CREAT | O_WRONLY, 0666);
	close(fd);
	tap_ok(st_path("/tmp/fs/m", &s) == 0 && (s.mode & 0777) == 0600, "umask 077: 0666 becomes 0600 (0%o)",
	       (unsigned)(s.mode & 0777));
	tap_is_long(syscall(NR_umask, old), 077, "umask returns the old mask");
	xmkdir("/tmp/fs/md", 0777);
	tap_ok(st_path("/tmp/fs/md", &s) == 0 && (s.mode & 0777) == (0777 & ~old), "mkdir applies the umask");
	xrmdir("/tmp/fs/md");
	tap_is_long(syscall(NR_fchmodat, AT_FDCWD, "/tmp/fs/m", 0751, 0), 0, "chmod");
	tap_ok(st_path("/tmp/fs/m", &s) == 0 && (s.mode & 07777) == 0751 && (s.mode & S_IFMT_) == S_IFREG_,
	       "the mode changed, the type did not");
	tap_is_long(syscall(NR_fchownat, AT_FDCWD, "/tmp/fs/m", 1000, 1001, 0), 0, "chown");
	tap_ok(st_path("/tmp/fs/m", &s) == 0 && s.uid == 1000 && s.gid == 1001, "uid 1000, gid 1001");
	tap_is_long(syscall(NR_fchownat, AT_FDCWD, "/tmp/fs/m", -1, 5, 0), 0, "chown with uid -1");
	tap_ok(st_path("/tmp/fs/m", &s) == 0 && s.uid == 1000 && s.gid == 5, "uid kept, gid 5");
	ts64[0].sec = 100, ts64[0].nsec = 0;
	ts64[1].sec = 12345, ts64[1].nsec = 6;
	(void)ts64;
#if defined(__microblaze__)
	{	/* struct __kernel_timespec: two 64-bit fields */
		int64_t k[4] = { 100, 0, 12345, 6 };

		tap_is_long(syscall(NR_utimensat, AT_FDCWD, "/tmp/fs/m", k, 0), 0, "utimensat");
	}
#else
	tap_is_long(syscall(NR_utimensat, AT_FDCWD, "/tmp/fs/m", ts64, 0), 0, "utimensat");
#endif
	tap_ok(st_path("/tmp/fs/m", &s) == 0 && s.mtime == 12345, "mtime is 12345 (%lld)", (long long)s.mtime);
	ts64[1].nsec = 2000000000;
	{
#if defined(__microblaze__)
		int64_t k[4] = { 100, 0, 12345, 2000000000 };
		fails(syscall(NR_utimensat, AT_FDCWD, "/tmp/fs/m", k, 0), EINVAL, "utimensat with tv_nsec >= 1e9");
#else
		fails(syscall(NR_utimensat, AT_FDCWD, "/tmp/fs/m", ts64, 0), EINVAL, "utimensat with tv_nsec >= 1e9");
#endif
	}
	{
		unsigned char sx[256];
		uint64_t size;
		uint16_t mode;

		memset(sx, 0, sizeof(sx));
		tap_is_long(syscall(NR_statx, AT_FDCWD, "/tmp/fs/data", 0, 0x7ff, sx), 0, "statx");
		memcpy(&mode, sx + 28, 2);
		memcpy(&size, sx + 40, 8);
		tap_ok((mode & S_IFMT_) == S_IFREG_ && size == 11, "statx: a regular file of 11 bytes");
	}
	tap_is_long(syscall(NR_faccessat, AT_FDCWD, "/tmp/fs/m", 1, 0), 0, "access X_OK with an execute bit");
	syscall(NR_fchmodat, AT_FDCWD, "/tmp/fs/m", 0644, 0);
	fails(syscall(NR_faccessat, AT_FDCWD, "/tmp/fs/m", 1, 0), EACCES, "access X_OK without one");
	fails(syscall(NR_faccessat, AT_FDCWD, "/tmp/fs/none", 0, 0), ENOENT, "access of a missing file");
	xunlink("/tmp/fs/m");
}

static void mounts_and_devices(void)
{
	char buf[4096];
	struct st s;
	int fd;
	long n;

	fd = xopen("/proc/mounts", O_RDONLY, 0);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	tap_ok(n > 0 && strstr(buf, "fstest /tmp tmpfs rw"), "/proc/mounts lists the tmpfs on /tmp");
	xmkdir("/tmp/fs/dev", 0755);
	tap_is_long(mount("devtmpfs", "/tmp/fs/dev", "devtmpfs", 0, NULL), 0, "mount devtmpfs");
	tap_ok(st_path("/tmp/fs/dev/null", &s) == 0 && (s.mode & S_IFMT_) == S_IFCHR_ && s.rdev == 0x103,
	       "null is the character device 1:3");
	tap_ok(st_path("/tmp/fs/dev/zero", &s) == 0 && s.rdev == 0x105, "zero is 1:5");
	tap_ok(st_path("/tmp/fs/dev/full", &s) == 0 && s.rdev == 0x107, "full is 1:7");
	tap_ok(st_path("/tmp/fs/dev/urandom", &s) == 0 && s.rdev == 0x109, "urandom is 1:9");
	tap_ok(st_path("/tmp/fs/dev/tty", &s) == 0 && s.rdev == 0x500, "tty is 5:0");
	fd = xopen("/tmp/fs/dev/null", O_RDWR, 0);
	tap_ok(fd >= 0 && read(fd, buf, 10) == 0 && write(fd, buf, 10) == 10, "null: reads end, writes vanish");
	close(fd);
	fd = xopen("/tmp/fs/dev/zero", O_RDONLY, 0);
	memset(buf, 1, 100);
	tap_ok(fd >= 0 && read(fd, buf, 100) == 100 && buf[0] == 0 && buf[99] == 0, "zero reads zeros");
	close(fd);
	fd = xopen("/tmp/fs/dev/full", O_WRONLY, 0);
	fails(write(fd, buf, 1), ENOSPC, "a write to full");
	close(fd);
	fd = xopen("/tmp/fs/dev/console", O_WRONLY, 0);
	tap_ok(fd >= 0 && write(fd, "", 0) == 0, "open the console device");
	close(fd);
	fails(syscall(NR_umount2, "/tmp/fs/dev/null", 0), EINVAL, "umount of a file that is no mount point");
	tap_is_long(syscall(NR_umount2, "/tmp/fs/dev", 0), 0, "umount devtmpfs");
	fails(st_path("/tmp/fs/dev/null", &s), ENOENT, "its files are gone from the mount point");
	xrmdir("/tmp/fs/dev");
}

/* Run path (argv[0] as given) with stdout into /tmp/fs/out; its exit status, or -1. */
static int run_prog(const char *path)
{
	char *const argv[] = { (char *)path, NULL }, *const envp[] = { NULL };
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int fd = xopen("/tmp/fs/out", O_CREAT | O_WRONLY | O_TRUNC, 0644);

		dup2(fd, 1);
		execve(path, argv, envp);
		_exit(errno == EACCES ? 126 : 127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* A program copied into the tmpfs runs from there (exec maps the copy's pages). */
static void exec_copy(void)
{
	static char prog[1 << 20];
	char out[256];
	int in = xopen("/bin/hello", O_RDONLY, 0), fd;
	long n = in >= 0 ? read(in, prog, sizeof(prog)) : -1, got;

	close(in);
	fd = xopen("/tmp/fs/prog", O_CREAT | O_WRONLY | O_TRUNC, 0755);
	tap_ok(n > 0 && n < (long)sizeof(prog) && write(fd, prog, (size_t)n) == n, "copy /bin/hello into the tmpfs (%ld bytes)", n);
	close(fd);
	tap_is_long(run_prog("/tmp/fs/prog"), 0, "the copy runs and exits 0");
	fd = xopen("/tmp/fs/out", O_RDONLY, 0);
	got = fd >= 0 ? read(fd, out, sizeof(out) - 1) : -1;
	close(fd);
	out[got > 0 ? got : 0] = '\0';
	tap_ok(strstr(out, "hello, world") != NULL, "its output went to the file it was given");
	syscall(NR_chdir, "/tmp/fs");
	tap_is_long(run_prog("./prog"), 0, "exec by a path relative to the cwd");
	syscall(NR_chdir, "/");
	syscall(NR_fchmodat, AT_FDCWD, "/tmp/fs/prog", 0644, 0);
	tap_is_long(run_prog("/tmp/fs/prog"), 126, "exec of a file without an execute bit: EACCES");
	xunlink("/tmp/fs/prog");
	xunlink("/tmp/fs/out");
}

/* mmap of a regular file: shared and private mappings of its page-cache pages. */
static void file_mmap(void)
{
	int fd = xopen("/tmp/fs/mapped", O_CREAT | O_RDWR | O_TRUNC, 0644), ro, wo, dfd, status;
	size_t pg = (size_t)getpagesize(), size = 2 * pg + 100;
	unsigned char *sh, *pv, c;
	char maps[8192];
	long n;
	pid_t pid;

	fill(big, size, 3);
	tap_is_long(write(fd, big, size), size, "a file of two pages and 100 bytes");
	sh = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	tap_ok(sh != MAP_FAILED, "MAP_SHARED of it");
	if (sh == MAP_FAILED)
		return;
	tap_ok(memcmp(sh, big, size) == 0 && sh[size] == 0 && sh[3 * pg - 1] == 0,
	       "the mapping shows the file, zeros past its end in the last page");
	sh[pg + 904] = 'S';
	tap_ok(xpread(fd, &c, 1, pg + 904) == 1 && c == 'S', "a store through MAP_SHARED reaches the file");
	xpwrite(fd, "W", 1, 10);
	tap_ok(sh[10] == 'W', "a write() shows in the shared mapping");
	pv = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	tap_ok(pv != MAP_FAILED && pv[10] == 'W' && pv[pg + 904] == 'S', "MAP_PRIVATE of it sees the file");
	xpwrite(fd, "X", 1, pg + 7);
	tap_ok(pv[pg + 7] == 'X', "a page not yet written privately follows the file");
	pv[20] = 'P';
	tap_ok(xpread(fd, &c, 1, 20) == 1 && c == big[20] && sh[20] == big[20], "a private store stays private");
	xpwrite(fd, "Y", 1, 21);
	tap_ok(pv[21] == big[21] && pv[20] == 'P', "the copied page no longer follows the file");
	{
		int mfd = xopen("/proc/self/maps", O_RDONLY, 0);

		n = mfd >= 0 ? read(mfd, maps, sizeof(maps) - 1) : -1;
		close(mfd);
		maps[n > 0 ? n : 0] = '\0';
		tap_ok(strstr(maps, "/tmp/fs/mapped") != NULL, "/proc/self/maps names the file");
	}
	pid = fork();
	if (pid == 0) {
		volatile unsigned char *p = mmap(NULL, 4 * pg, PROT_READ, MAP_SHARED, fd, 0);

		if (p == MAP_FAILED)
			_exit(2);
		c = p[3 * pg];	/* a page wholly past the end of the file */
		_exit(0);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS, "a touch past the end of the file: SIGBUS (status 0x%x)", status);
	munmap(pv, 3 * pg);
	munmap(sh, 3 * pg);
	ro = xopen("/tmp/fs/mapped", O_RDONLY, 0);
	wo = xopen("/tmp/fs/mapped", O_WRONLY, 0);
	dfd = xopen("/tmp/fs", O_RDONLY | O_DIRECTORY, 0);
	fails((long)mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0), EACCES,
	      "MAP_SHARED writable of an O_RDONLY file");
	pv = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, ro, 0);
	tap_ok(pv != MAP_FAILED, "MAP_PRIVATE writable of an O_RDONLY file");
	if (pv != MAP_FAILED)
		munmap(pv, pg);
	fails((long)mmap(NULL, pg, PROT_READ, MAP_SHARED, wo, 0), EACCES, "mmap of an O_WRONLY file");
	fails((long)mmap(NULL, pg, PROT_READ, MAP_SHARED, dfd, 0), ENODEV, "mmap of a directory");
	close(ro);
	close(wo);
	close(dfd);
	close(fd);
	xunlink("/tmp/fs/mapped");
}

int main(void)
{
	int tmp_mounted;
	struct st s;

	tap_init();
	xmkdir("/tmp", 01777);
	tmp_mounted = mount("fstest", "/tmp", "tmpfs", 0, NULL) == 0;
	tap_ok(tmp_mounted, "mount a tmpfs on /tmp");
	tap_is_long(xmkdir("/tmp/fs", 0755), 0, "mkdir in it");
	{
		unsigned char sf[128];
		long r = syscall(NR(43, 268), "/tmp", NR(sf, 88), NR(0, sf));
		uint32_t type;

		memcpy(&type, sf, 4);
		tap_ok(r == 0 && type == 0x01021994, "statfs: the tmpfs magic");
	}
	file_data();
	open_errors();
	directories();
	links();
	renames();
	unlinked_open();
	cwd();
	attributes();
	mounts_and_devices();
	exec_copy();
	file_mmap();
	xunlink("/tmp/fs/data");
	xunlink("/tmp/fs/f2");
	xrmdir("/tmp/fs/d");
	tap_is_long(xrmdir("/tmp/fs"), 0, "the test's directory is empty at the end");
	syscall(NR_chdir, "/tmp");
	fails(syscall(NR_umount2, "/tmp", 0), EBUSY, "umount of a mount holding a cwd");
	syscall(NR_chdir, "/");
	{
		int fd = xopen("/tmp/open", O_CREAT | O_RDWR, 0644);

		fails(syscall(NR_umount2, "/tmp", 0), EBUSY, "umount of a mount with an open file");
		close(fd);
		xunlink("/tmp/open");
	}
	tap_is_long(syscall(NR_umount2, "/tmp", 0), 0, "umount /tmp");
	tap_ok(st_path("/tmp/fs", &s) == -1, "the tmpfs is gone");
	return tap_done();
}
