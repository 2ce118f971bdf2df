/*
 * sendfile.c - sendfile(2) (MicroBlaze: sendfile64 too): a file copied to
 * a pipe from the file position (which moves) and from an offset (which
 * is updated while the position stays), a count past the end, and the
 * errno values of bad arguments. Debian's busybox cat copies with it.
 * Runs in a tmpfs of its own on /tmp.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include "tap.h"

#ifdef __aarch64__
#define NR_sendfile 71
#define NR_umount2 39
#define NR_unlinkat 35
#define NR_mkdirat 34
#else
#define NR_sendfile 187
#define NR_sendfile64 239
#define NR_umount2 52
#define NR_unlinkat 301
#define NR_mkdirat 296
#endif

#define PATH "/tmp/sendfile-data"

static const char data[] = "0123456789abcdefghijklmnopqrstuvwxyz";

static long sendfile_(int out, int in, long *off, unsigned long n)
{
	return syscall(NR_sendfile, out, in, off, n);
}

/* Read what the pipe holds (up to size - 1 bytes) as a string. */
static const char *drain(int fd)
{
	static char buf[128];
	long n = read(fd, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

int main(void)
{
	int mounted, fd, p[2], wo, ap;
	long off;

	tap_init();
	syscall(NR_mkdirat, AT_FDCWD, "/tmp", 01777);
	mounted = mount("sendfile", "/tmp", "tmpfs", 0, NULL) == 0;
	tap_ok(mounted, "mount a tmpfs on /tmp");
	fd = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0644);
	tap_ok(fd >= 0 && write(fd, data, sizeof(data) - 1) == (long)sizeof(data) - 1 && pipe(p) == 0,
	       "a file of %u bytes and a pipe", (unsigned)sizeof(data) - 1);
	lseek(fd, 0, SEEK_SET);

	tap_is_long(sendfile_(p[1], fd, NULL, 10), 10, "from the file position: 10 bytes");
	tap_ok(strcmp(drain(p[0]), "0123456789") == 0, "the pipe holds the first 10");
	tap_is_long(lseek(fd, 0, SEEK_CUR), 10, "the position moved to 10");

	off = 30;
	tap_is_long(sendfile_(p[1], fd, &off, 4), 4, "from offset 30: 4 bytes");
	tap_ok(strcmp(drain(p[0]), "uvwx") == 0 && off == 34, "those bytes, and the offset is now 34 (%ld)", off);
	tap_is_long(lseek(fd, 0, SEEK_CUR), 10, "the position stays at 10");

	off = 32;
	tap_is_long(sendfile_(p[1], fd, &off, 100), 4, "a count past the end: the 4 bytes left");
	tap_ok(strcmp(drain(p[0]), "wxyz") == 0 && off == 36, "and the offset at the end (%ld)", off);
	tap_is_long(sendfile_(p[1], fd, &off, 100), 0, "at the end: 0");
#ifdef NR_sendfile64
	{
		int64_t off64 = 3;

		tap_is_long(syscall(NR_sendfile64, p[1], fd, &off64, 2), 2, "sendfile64 from offset 3: 2 bytes");
		tap_ok(strcmp(drain(p[0]), "34") == 0 && off64 == 5, "those bytes, offset 5");
	}
#endif

	errno = 0;
	off = -1;
	tap_ok(sendfile_(p[1], fd, &off, 1) == -1 && errno == EINVAL, "a negative offset: EINVAL (errno %d)", errno);
	errno = 0;
	tap_ok(sendfile_(p[1], fd, (long *)8, 1) == -1 && errno == EFAULT, "a bad offset pointer: EFAULT (errno %d)",
	       errno);
	errno = 0;
	tap_ok(sendfile_(p[1], 99, NULL, 1) == -1 && errno == EBADF, "in_fd not open: EBADF (errno %d)", errno);
	errno = 0;
	tap_ok(sendfile_(99, fd, NULL, 1) == -1 && errno == EBADF, "out_fd not open: EBADF (errno %d)", errno);
	wo = open(PATH, O_WRONLY);
	errno = 0;
	tap_ok(sendfile_(p[1], wo, NULL, 1) == -1 && errno == EBADF, "in_fd open write-only: EBADF (errno %d)",
	       errno);
	ap = open(PATH, O_WRONLY | O_APPEND);
	lseek(fd, 0, SEEK_SET);
	errno = 0;
	tap_ok(sendfile_(ap, fd, NULL, 1) == -1 && errno == EINVAL, "out_fd opened O_APPEND: EINVAL (errno %d)",
	       errno);
	close(ap);
	close(wo);
	close(fd);
	close(p[0]);
	close(p[1]);
	syscall(NR_unlinkat, AT_FDCWD, PATH, 0);
	if (mounted)
		tap_is_long(syscall(NR_umount2, "/tmp", 0), 0, "umount the tmpfs");
	return tap_done();
}
