/* fsmap.c - file mappings and the file's open mode and size, on a tmpfs
 * mounted on /tmp (Linux's initramfs has none):
 *   FM-1  a MAP_SHARED mapping of a file not open for writing can never
 *          become writable (mprotect: EACCES, MP-12); MAP_PRIVATE can; a
 *          MAP_SHARED writable mapping needs O_RDWR (O_APPEND is fine)
 *   FM-2  truncation unmaps the pages past the new end from every mapping
 *          (this process's, a child's made before, shared and private):
 *          an access there is SIGBUS, the pages are freed (Shmem drops
 *          while still mapped), and regrowing the file reads zeros.
 *   ETXTBSY a running program's file (a copy of this one, run with "wait")
 *          cannot be opened for writing or truncated, by any name, while
 *          a process runs it; a file open for writing cannot be executed.
 *   names  /proc/self/maps names the program's text with the path it was
 *          run from, for 80 programs of distinct paths (no table of names).
 */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "tap.h"

/* The calls the test libc lacks, as raw system calls (both arches). */
#include "arg64.h"

#if defined(__aarch64__)
#define NR(arm64, mb) (arm64)
#elif defined(__microblaze__)
#define NR(arm64, mb) (mb)
#else
#error "fsmap: unsupported architecture"
#endif
#define AT_FDCWD_	-100
#define AT_REMOVEDIR_	0x200

static long xpread(int fd, void *buf, size_t n, int64_t pos) { return syscall(NR(67, 180), fd, buf, n, ARG64(pos)); }
static long xftruncate(int fd, int64_t len) { return syscall(NR(46, 194), fd, ARG64(len)); }
static long xtruncate(const char *path, int64_t len) { return syscall(NR(45, 193), path, ARG64(len)); }
static long xaccess(const char *path) { return syscall(NR(48, 307), AT_FDCWD_, path, 0); }
static long xmkdir(const char *path, int mode) { return syscall(NR(34, 296), AT_FDCWD_, path, mode); }
static long xunlink(const char *path) { return syscall(NR(35, 301), AT_FDCWD_, path, 0); }
static long xrmdir(const char *path) { return syscall(NR(35, 301), AT_FDCWD_, path, AT_REMOVEDIR_); }
static long xumount(const char *path) { return syscall(NR(39, 52), path, 0); }
static long xlink(const char *a, const char *b) { return syscall(NR(37, 303), AT_FDCWD_, a, AT_FDCWD_, b, 0); }

#define PAGE ((long)getpagesize())
#define PAGE_MAX 65536L	/* the largest page size a target has */
#define NPAGES 64

/* Create path with n pages, page i filled with the byte 'a' + i % 26; an O_RDWR fd. */
static int make_file(const char *path, long n)
{
	static char buf[PAGE_MAX];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -1;
	for (long i = 0; i < n; i++) {
		memset(buf, 'a' + (int)(i % 26), (size_t)PAGE);
		if (write(fd, buf, (size_t)PAGE) != PAGE) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

static void test_open_mode(void)
{
	int rw = make_file("/tmp/fsmap/mode", 2), ro = open("/tmp/fsmap/mode", O_RDONLY);
	int ap = open("/tmp/fsmap/mode", O_RDWR | O_APPEND);
	char *p;

	if (rw < 0 || ro < 0 || ap < 0) {
		tap_ok(0, "FM-1: open the test file");
		return;
	}
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0);
	tap_ok(p == MAP_FAILED && errno == EACCES, "FM-1: MAP_SHARED|PROT_WRITE of an O_RDONLY file: EACCES");
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, ro, 0);
	tap_ok(p != MAP_FAILED, "FM-1: MAP_SHARED|PROT_READ of an O_RDONLY file");
	if (p != MAP_FAILED) {
		errno = 0;
		tap_ok(mprotect(p, PAGE, PROT_READ | PROT_WRITE) < 0 && errno == EACCES,
		       "FM-1: mprotect(PROT_WRITE) of it: EACCES (MP-12; errno %d)", errno);
		tap_ok(mprotect(p, PAGE, PROT_READ | PROT_EXEC) == 0, "FM-1: mprotect(PROT_EXEC) of it is allowed");
		tap_ok(p[0] == 'a', "FM-1: it still reads the file");
		munmap(p, PAGE);
	}
	p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, ro, 0);
	if (p != MAP_FAILED) {
		char c;

		tap_ok(mprotect(p, PAGE, PROT_READ | PROT_WRITE) == 0, "FM-1: mprotect(PROT_WRITE) of a MAP_PRIVATE mapping of it");
		p[0] = 'Z';
		tap_ok(xpread(ro, &c, 1, 0) == 1 && c == 'a', "FM-1: ... and its store stays private");
		munmap(p, PAGE);
	} else {
		tap_ok(0, "FM-1: MAP_PRIVATE of an O_RDONLY file");
	}
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, rw, 0);
	if (p != MAP_FAILED) {
		char c;

		tap_ok(mprotect(p, PAGE, PROT_READ | PROT_WRITE) == 0, "FM-1: mprotect(PROT_WRITE) of a MAP_SHARED mapping of an O_RDWR file");
		p[1] = 'Y';
		tap_ok(xpread(ro, &c, 1, 1) == 1 && c == 'Y', "FM-1: ... and its store reaches the file");
		munmap(p, PAGE);
	} else {
		tap_ok(0, "FM-1: MAP_SHARED of an O_RDWR file");
	}
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, ap, 0);
	tap_ok(p != MAP_FAILED, "FM-1: MAP_SHARED|PROT_WRITE of an O_RDWR|O_APPEND file is allowed");
	if (p != MAP_FAILED)
		munmap(p, PAGE);
	close(rw);
	close(ro);
	close(ap);
}

/* A /proc/meminfo field in kB, or -1. */
static long meminfo_kb(const char *key)
{
	char buf[4096], *s;
	int fd = open("/proc/meminfo", O_RDONLY);
	long n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	s = strstr(buf, key);
	return s ? strtol(s + strlen(key), NULL, 10) : -1;
}

/* Fork a child that reads *p: the signal that killed it, or 0 if it read c. */
static int touch_in_child(volatile char *p, char c)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(*p == c ? 0 : 3);
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status) == 0 ? 0 : -1;
}

static void test_truncate(void)
{
	int fd = make_file("/tmp/fsmap/trunc", NPAGES), fds[2], status;
	volatile char *sh, *pv;
	long before, after, free_before, free_after;
	pid_t early;
	char c;

	if (fd < 0 || pipe(fds) < 0) {
		tap_ok(0, "FM-2: create the test file");
		return;
	}
	sh = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	pv = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (sh == MAP_FAILED || pv == MAP_FAILED) {
		tap_ok(0, "FM-2: map the test file");
		return;
	}
	for (long i = 0; i < NPAGES; i++)
		c = sh[i * PAGE] + pv[i * PAGE];
	pv[5 * PAGE] = 'P';	/* a private copy past the coming end */
	early = fork();
	if (early == 0) {	/* mapped before the truncation: touches page 3 after it */
		close(fds[1]);
		if (read(fds[0], &c, 1) != 0)
			_exit(4);
		c = sh[3 * PAGE];
		_exit(0);
	}
	close(fds[0]);
	before = meminfo_kb("Shmem:");
	free_before = meminfo_kb("MemFree:");
	tap_is_long(xftruncate(fd, PAGE + 100), 0, "FM-2: ftruncate a mapped 64-page file to 1 page + 100 bytes");
	after = meminfo_kb("Shmem:");
	free_after = meminfo_kb("MemFree:");
	/* Linux updates Shmem in per-CPU batches: half the pages is a safe bound there */
	tap_ok(before - after >= (NPAGES / 2) * PAGE / 1024,
	       "FM-2: the file lets go of the pages past the end (Shmem %ld kB -> %ld kB)", before, after);
	if (xaccess("/proc/zeroed_bytes") == 0)	/* our kernel: MemFree is exact */
		tap_ok(free_after - free_before >= (NPAGES - 4) * PAGE / 1024,
		       "FM-2: ... and they are free while the file is still mapped (MemFree %ld kB -> %ld kB)",
		       free_before, free_after);
	else	/* Linux keeps freed pages in per-CPU lists outside MemFree */
		tap_skip("FM-2: MemFree is not exact on Linux");
	tap_ok(sh[0] == 'a' && sh[PAGE] == 'b' && sh[PAGE + 99] == 'b' && sh[PAGE + 100] == 0,
	       "FM-2: the pages before the end stay, the tail of the last one reads zeros");
	close(fds[1]);	/* let the early child touch page 3 */
	waitpid(early, &status, 0);
	tap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS,
	       "FM-2: a child mapped before the truncation gets SIGBUS past the end (status 0x%x)", status);
	tap_is_long(touch_in_child(sh + 10 * PAGE, 'k'), SIGBUS, "FM-2: a shared mapping past the new end: SIGBUS");
	tap_is_long(touch_in_child(pv + 10 * PAGE, 'k'), SIGBUS, "FM-2: a private mapping past the new end: SIGBUS");
	tap_is_long(touch_in_child(pv + 5 * PAGE, 'P'), SIGBUS, "FM-2: a private copy past the new end: SIGBUS too");
	tap_is_long(touch_in_child(sh + PAGE + 50, 'b'), 0, "FM-2: the last page still reads in a child");

	tap_is_long(xftruncate(fd, 8 * PAGE), 0, "FM-2: ftruncate back to 8 pages");
	tap_ok(sh[3 * PAGE] == 0 && pv[5 * PAGE] == 0 && sh[7 * PAGE + 10] == 0,
	       "FM-2: the regrown pages read zeros in both mappings, not the old bytes");
	sh[4 * PAGE] = 'n';
	tap_ok(xpread(fd, &c, 1, 4 * PAGE) == 1 && c == 'n', "FM-2: a store to a regrown page reaches the file");

	tap_is_long(xtruncate("/tmp/fsmap/trunc", 2 * PAGE), 0, "FM-2: truncate(path) to 2 pages");
	tap_is_long(touch_in_child(sh + 4 * PAGE, 'n'), SIGBUS, "FM-2: ... and past it is SIGBUS again");
	munmap((void *)sh, NPAGES * PAGE);
	munmap((void *)pv, NPAGES * PAGE);
	close(fd);
	xunlink("/tmp/fsmap/trunc");
}

/* The size of the file at path, or -1. */
static long file_size(const char *path)
{
	int fd = open(path, O_RDONLY);
	long n = fd >= 0 ? (long)lseek(fd, 0, SEEK_END) : -1;

	if (fd >= 0)
		close(fd);
	return n;
}

/* Copy /bin/fsmap (this program) to path, mode 0755: 0 or -1. */
static int copy_self(const char *path)
{
	static char prog[1 << 20];
	int in = open("/bin/fsmap", O_RDONLY), out;
	long n = in >= 0 ? read(in, prog, sizeof(prog)) : -1;

	if (in >= 0)
		close(in);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (n <= 0 || n >= (long)sizeof(prog) || out < 0 || write(out, prog, (size_t)n) != n) {
		if (out >= 0)
			close(out);
		return -1;
	}
	return close(out);
}

/* Start path "wait" (it runs until *stdin_w is closed); its pid once it runs, or -1. */
static pid_t start_waiting(const char *path, int *stdin_w)
{
	int in[2], ready[2];
	char c;
	pid_t pid;

	if (pipe(in) < 0 || pipe(ready) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		char *const argv[] = { (char *)path, "wait", NULL }, *const envp[] = { NULL };

		dup2(in[0], 0);
		dup2(ready[1], 1);
		close(in[1]);
		close(ready[0]);
		execve(path, argv, envp);
		_exit(127);
	}
	close(in[0]);
	close(ready[1]);
	*stdin_w = in[1];
	if (pid < 0 || read(ready[0], &c, 1) != 1) {	/* the program writes one byte once it runs */
		close(ready[0]);
		return -1;
	}
	close(ready[0]);
	return pid;
}

/* Fork and execve path: the child's exit status (126 + ETXTBSY seen, 0 ran, 127 other). */
static int exec_status(const char *path)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		char *const argv[] = { (char *)path, "exit", NULL }, *const envp[] = { NULL };

		execve(path, argv, envp);
		_exit(errno == ETXTBSY ? 126 : 127);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_txtbsy(void)
{
	const char *prog = "/tmp/fsmap/prog";
	int in_w, fd, status;
	pid_t pid;

	tap_is_long(copy_self(prog), 0, "ETXTBSY: copy this program into the tmpfs");
	tap_is_long(xlink(prog, "/tmp/fsmap/prog2"), 0, "ETXTBSY: a second name for it");
	pid = start_waiting(prog, &in_w);
	tap_ok(pid > 0, "ETXTBSY: the copy runs");
	if (pid <= 0)
		return;
	fd = open(prog, O_WRONLY);
	tap_ok(fd < 0 && errno == ETXTBSY, "ETXTBSY: open(O_WRONLY) of a running program (errno %d)", errno);
	fd = open(prog, O_RDWR);
	tap_ok(fd < 0 && errno == ETXTBSY, "ETXTBSY: open(O_RDWR) of it");
	fd = open(prog, O_WRONLY | O_TRUNC);
	tap_ok(fd < 0 && errno == ETXTBSY && file_size(prog) > 0,
	       "ETXTBSY: open(O_WRONLY|O_TRUNC) of it, and the file keeps its size");
	fd = open("/tmp/fsmap/prog2", O_WRONLY);
	tap_ok(fd < 0 && errno == ETXTBSY, "ETXTBSY: open(O_WRONLY) through another name of it");
	errno = 0;
	tap_ok(xtruncate(prog, 0) < 0 && errno == ETXTBSY, "ETXTBSY: truncate() of it (errno %d)", errno);
	fd = open(prog, O_RDONLY);
	tap_ok(fd >= 0, "ETXTBSY: open(O_RDONLY) of it is fine");
	if (fd >= 0)
		close(fd);
	tap_is_long(exec_status(prog), 0, "ETXTBSY: a second process can run it too");
	close(in_w);	/* the program ends */
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "ETXTBSY: the program exits 0");
	fd = open(prog, O_WRONLY);
	tap_ok(fd >= 0, "ETXTBSY: once it has exited, open(O_WRONLY) works (errno %d)", fd < 0 ? errno : 0);
	tap_is_long(exec_status(prog), 126, "ETXTBSY: execve of a file open for writing");
	if (fd >= 0)
		close(fd);
	tap_is_long(exec_status(prog), 0, "ETXTBSY: ... and it runs once that is closed");
	xunlink("/tmp/fsmap/prog2");
	xunlink(prog);
}

/* Run as "<path> maps": does our /proc/self/maps name path (at the end of a line)? */
static int maps_names_self(const char *path)
{
	static char maps[65536];
	char want[300];
	int fd = open("/proc/self/maps", O_RDONLY);
	long n = 0, got;

	if (fd < 0)
		return 0;
	while ((got = read(fd, maps + n, sizeof(maps) - 1 - (size_t)n)) > 0)
		n += got;
	close(fd);
	maps[n] = '\0';
	snprintf(want, sizeof(want), " %s\n", path);
	return strstr(maps, want) != NULL;
}

/* 80 copies of this program, each run from its own path, see that path in their maps. */
static void test_names(void)
{
	char path[64], copy_ok = 1;
	int named = 0;

	xmkdir("/tmp/fsmap/many", 0755);
	for (int i = 0; i < 80; i++) {
		int status;
		pid_t pid;

		snprintf(path, sizeof(path), "/tmp/fsmap/many/program-%02d", i);
		if (copy_self(path) < 0) {
			copy_ok = 0;
			break;
		}
		pid = fork();
		if (pid == 0) {
			char *const argv[] = { path, "maps", NULL }, *const envp[] = { NULL };

			execve(path, argv, envp);
			_exit(127);
		}
		waitpid(pid, &status, 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			named++;
		else
			tap_diag("%s: status 0x%x", path, status);
		xunlink(path);
	}
	xrmdir("/tmp/fsmap/many");
	tap_ok(copy_ok, "names: copy this program 80 times");
	tap_is_long(named, 80, "names: each of 80 programs finds its own path in /proc/self/maps");
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

/*
 * FM-2: past a file's end a shared mapping's pages are SIGBUS, which mlock
 * reports as ENOMEM and MADV_POPULATE_READ as EFAULT (as for shared
 * anonymous memory past its object's end, MR-23); the page holding the
 * end populates.
 */
static void test_past_end(void)
{
	int fd = make_file("/tmp/fsmap/end", 1);
	char *p = fd >= 0 ? mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;

	tap_ok(p != MAP_FAILED, "FM-2: map a 1-page file for 2 pages");
	if (p == MAP_FAILED)
		return;
	tap_ok(madvise(p, PAGE, MADV_POPULATE_READ) == 0 && syscall(NR(228, 150), p, PAGE) == 0,
	       "FM-2: the file's page populates and locks");
	errno = 0;
	tap_ok(syscall(NR(228, 150), p + PAGE, PAGE) == -1 && errno == ENOMEM,
	       "FM-2: mlock of the page past the file's end: ENOMEM (errno %d)", errno);
	errno = 0;
	tap_ok(madvise(p + PAGE, PAGE, MADV_POPULATE_READ) == -1 && errno == EFAULT,
	       "FM-2: MADV_POPULATE_READ past the file's end: EFAULT (errno %d)", errno);
	munmap(p, 2 * PAGE);
	close(fd);
	xunlink("/tmp/fsmap/end");
}

int main(int argc, char **argv)
{
	int mounted;

	if (argc > 1 && !strcmp(argv[1], "maps"))	/* run by test_names */
		return maps_names_self(argv[0]) ? 0 : 1;

	if (argc > 1 && !strcmp(argv[1], "wait")) {	/* run by test_txtbsy: until stdin closes */
		char c;

		if (write(1, "r", 1) != 1)
			return 1;
		while (read(0, &c, 1) > 0)
			;
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "exit"))
		return 0;
	tap_init();
	xmkdir("/tmp", 01777);
	mounted = mount("fsmap", "/tmp", "tmpfs", 0, NULL) == 0;
	tap_ok(mounted, "mount a tmpfs on /tmp");
	xmkdir("/tmp/fsmap", 0755);
	test_open_mode();
	test_truncate();
	test_txtbsy();
	test_names();
	test_past_end();
	xunlink("/tmp/fsmap/mode");
	xrmdir("/tmp/fsmap");
	if (mounted)
		xumount("/tmp");
	return tap_done();
}
