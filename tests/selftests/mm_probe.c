/*
 * mm_probe.c - what the Linux selftests lean on besides mmap and friends:
 * memfd_create, ftruncate, fallocate, mapping a memfd (shared and
 * private), and the pkey calls on a machine without protection keys.
 *
 * Each point's text carries the result observed ("= 0", "= -1 EINVAL",
 * "= 8192"), and every point passes once the call returned. So this
 * program asserts nothing by itself: tools/check-linux-selftests.sh
 * compares the texts with Linux's, point by point, and any difference in a
 * return value or errno shows up there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#ifndef __NR_pkey_mprotect
#define __NR_pkey_mprotect 288
#define __NR_pkey_alloc 289
#define __NR_pkey_free 290
#endif

static int npoints;

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	case EBADF: return "EBADF";
	case ENOMEM: return "ENOMEM";
	case EFAULT: return "EFAULT";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENODEV: return "ENODEV";
	case ENOSYS: return "ENOSYS";
	case ESPIPE: return "ESPIPE";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EFBIG: return "EFBIG";
	case EEXIST: return "EEXIST";
	default: return "E?";
	}
}

/* One point: "what = ret" or "what = -1 ENAME". */
static void report(const char *what, long ret, int err)
{
	npoints++;
	if (ret < 0)
		printf("ok %d - %s = -1 %s\n", npoints, what, errname(err));
	else
		printf("ok %d - %s = %ld\n", npoints, what, ret);
}

#define PROBE(what, call)                        \
	do {                                     \
		long r_;                         \
		errno = 0;                       \
		r_ = (long)(call);               \
		report(what, r_, errno);         \
	} while (0)

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	va_list ap;

	npoints++;
	printf("ok %d - ", npoints);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static long file_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long)st.st_size;
}

/* The name column of the /proc/self/maps line that starts at addr. */
static void maps_name(void *addr, char *out, size_t size)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long lo, hi;
	int off;

	snprintf(out, size, "(none)");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s%n", &lo, &hi, &off) >= 2 && lo == (unsigned long)addr) {
			char *s = line + off;

			while (*s == ' ')
				s++;
			s[strcspn(s, "\n")] = 0;
			snprintf(out, size, "'%s' %lu KiB", s, (hi - lo) >> 10);
			break;
		}
	}
	fclose(f);
}

static void probe_memfd(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char name[128], buf[8];
	int fd, fd2;
	char *sh, *pv;

	PROBE("memfd_create(\"probe\", 0x100) bad flag", syscall(SYS_memfd_create, "probe", 0x100));
	fd = memfd_create("probe", MFD_CLOEXEC);
	note("memfd_create(\"probe\", MFD_CLOEXEC) %s", fd >= 0 ? "gives an fd" : "fails");
	if (fd < 0)
		return;
	PROBE("fstat size of a new memfd", file_size(fd));
	PROBE("ftruncate(memfd, -1)", ftruncate(fd, -1));
	PROBE("ftruncate(memfd, 2 pages)", ftruncate(fd, 2 * pg));
	PROBE("fstat size", file_size(fd) / pg);
	PROBE("fallocate(memfd, 0, 0, 4 pages)", fallocate(fd, 0, 0, 4 * pg));
	PROBE("fstat size in pages", file_size(fd) / pg);
	PROBE("fallocate(memfd, 0, 0, 1 page) keeps the size", fallocate(fd, 0, 0, pg));
	PROBE("fstat size in pages", file_size(fd) / pg);
	PROBE("fallocate(memfd, 0, -1, 1)", fallocate(fd, 0, -1, 1));
	PROBE("fallocate(memfd, 0, 0, 0)", fallocate(fd, 0, 0, 0));
	PROBE("fallocate(memfd, PUNCH_HOLE without KEEP_SIZE)", fallocate(fd, FALLOC_FL_PUNCH_HOLE, 0, pg));
	PROBE("fallocate(1, 0, 0, 1 page) on the console", fallocate(1, 0, 0, pg));
	PROBE("ftruncate(1, 0) on the console", ftruncate(1, 0));
	PROBE("ftruncate(999, 0)", ftruncate(999, 0));
	PROBE("write(memfd, \"hello\", 5)", write(fd, "hello", 5));
	PROBE("lseek(memfd, 0, SEEK_END) in pages", lseek(fd, 0, SEEK_END) / pg);

	sh = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	note("mmap(MAP_SHARED, memfd) %s", sh == MAP_FAILED ? "fails" : "maps");
	pv = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	note("mmap(MAP_PRIVATE, memfd) %s", pv == MAP_FAILED ? "fails" : "maps");
	if (sh == MAP_FAILED || pv == MAP_FAILED)
		return;
	maps_name(sh, name, sizeof(name));
	note("/proc/self/maps names the shared mapping %s", name);
	note("the shared mapping shows what write() put there: %.5s", sh);
	note("the private mapping too: %.5s", pv);
	memcpy(sh + pg, "WORLD", 5);
	lseek(fd, pg, SEEK_SET);
	PROBE("read(memfd) of a store through MAP_SHARED", read(fd, buf, 5));
	note("it reads %.5s", buf);
	note("the private mapping sees it before its own write: %.5s", pv + pg);
	memcpy(pv + pg, "priv!", 5);
	note("after a private write, shared %.5s, private %.5s", sh + pg, pv + pg);
	PROBE("MADV_DONTNEED on the shared mapping", madvise(sh, 4 * pg, MADV_DONTNEED));
	note("the shared mapping still reads %.5s", sh + pg);
	PROBE("MADV_DONTNEED on the private mapping", madvise(pv, 4 * pg, MADV_DONTNEED));
	note("the private mapping reads the file again: %.5s", pv + pg);
	PROBE("mmap(memfd, offset 1 page) + munmap",
	      munmap(mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, pg), pg));
	PROBE("mmap(memfd, offset not page aligned)",
	      (long)mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 1));
	fd2 = open("/init", O_RDONLY);
	PROBE("mmap(MAP_SHARED|PROT_WRITE) of a read-only fd",
	      (long)mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, 0));
	close(fd2);
	PROBE("close(memfd) with mappings left", close(fd));
	note("the shared mapping outlives the fd: %.5s", sh + pg);
	PROBE("munmap(shared)", munmap(sh, 4 * pg));
	PROBE("munmap(private)", munmap(pv, 4 * pg));
}

static void probe_pkeys(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	PROBE("pkey_alloc(0, 0)", syscall(__NR_pkey_alloc, 0, 0));
	PROBE("pkey_alloc(1, 0) bad flags", syscall(__NR_pkey_alloc, 1, 0));
	PROBE("pkey_alloc(0, 0x100) bad rights", syscall(__NR_pkey_alloc, 0, 0x100));
	PROBE("pkey_mprotect(pkey -1) is mprotect", syscall(__NR_pkey_mprotect, p, pg, PROT_READ, -1));
	PROBE("pkey_mprotect(pkey 0)", syscall(__NR_pkey_mprotect, p, pg, PROT_READ, 0));
	PROBE("pkey_mprotect(pkey 1)", syscall(__NR_pkey_mprotect, p, pg, PROT_READ, 1));
	PROBE("pkey_mprotect(pkey 1, len 0)", syscall(__NR_pkey_mprotect, p, 0, PROT_READ, 1));
	PROBE("pkey_free(1)", syscall(__NR_pkey_free, 1));
	PROBE("pkey_free(0)", syscall(__NR_pkey_free, 0));
	PROBE("pkey_free(0) again", syscall(__NR_pkey_free, 0));
	PROBE("pkey_mprotect(pkey 0) once freed", syscall(__NR_pkey_mprotect, p, pg, PROT_READ, 0));
	PROBE("pkey_mprotect(pkey -1, unaligned)", syscall(__NR_pkey_mprotect, (char *)p + 1, pg, PROT_READ, -1));
	munmap(p, 2 * pg);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	probe_memfd();
	probe_pkeys();
	printf("1..%d\n", npoints);
	return 0;
}
