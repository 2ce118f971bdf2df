/* procdir.c - listing /proc with getdents64, as ps and ls do: /proc has a
 * directory per live pid (a child appears while it lives and goes when it
 * is reaped), self, meminfo, mounts and sys; /proc/<pid> lists maps,
 * smaps and mounts; /proc/sys/vm lists the sysctls. Every name listed
 * opens (or is refused with EACCES, as Linux's write-only sysctls are),
 * chunked listing gives the same names, a too small buffer is EINVAL and
 * read() of a /proc directory is EISDIR.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "tap.h"

#if defined(__aarch64__)
#define NR_getdents64	61
#elif defined(__microblaze__)
#define NR_getdents64	220
#else
#error "procdir: unsupported architecture"
#endif

#define DT_DIR_	4
#define DT_REG_	8

static char names[16384];	/* ",name:type,name:type,..." */

/* List path with a bufsz-byte buffer into names[]; returns the entry count or -errno. */
static int list(const char *path, size_t bufsz)
{
	static char buf[4096];
	int fd = open(path, O_RDONLY | O_DIRECTORY), count = 0;
	long n;

	strcpy(names, ",");
	if (fd < 0)
		return -errno;
	while ((n = syscall(NR_getdents64, fd, buf, bufsz)) > 0) {
		for (long off = 0; off < n;) {
			unsigned short reclen;
			char item[300];

			memcpy(&reclen, buf + off + 16, 2);
			snprintf(item, sizeof(item), "%s:%d,", buf + off + 19, buf[off + 18]);
			if (strlen(names) + strlen(item) < sizeof(names))
				strcat(names, item);
			count++;
			off += reclen;
		}
	}
	if (n < 0)
		count = -errno;
	close(fd);
	return count;
}

/* Is name listed in names[] (with type, or any type when type < 0)? */
static int listed(const char *name, int type)
{
	char want[300];

	if (type >= 0) {
		snprintf(want, sizeof(want), ",%s:%d,", name, type);
		return strstr(names, want) != NULL;
	}
	snprintf(want, sizeof(want), ",%s:", name);
	return strstr(names, want) != NULL;
}

/* Every name of names[] but ., .. and symlinks opens below dir, or gives EACCES: how many did not. */
static int open_all(const char *dir)
{
	char copy[sizeof(names)], path[400];
	int bad = 0;

	strcpy(copy, names);
	for (char *s = copy + 1, *e; (e = strchr(s, ',')); s = e + 1) {
		char *colon;
		int fd;

		*e = '\0';
		colon = strrchr(s, ':');
		if (!colon)
			continue;
		*colon = '\0';
		if (!strcmp(s, ".") || !strcmp(s, "..") || atoi(colon + 1) == 10)
			continue;	/* a symlink may dangle (Linux: device-tree without /sys) */
		if (strlen(dir) + strlen(s) + 2 > sizeof(path))
			continue;
		strcpy(path, dir);
		strcat(path, "/");
		strcat(path, s);
		fd = open(path, O_RDONLY);
		if (fd >= 0)
			close(fd);
		else if (errno != EACCES) {
			tap_diag("%s: errno %d", path, errno);
			bad++;
		}
	}
	return bad;
}

static void test_root(void)
{
	char pid[32], path[64];
	int fds[2], n, whole;
	pid_t child;
	char c;

	tap_ok(list("/proc", 4096) > 0, "/proc lists with getdents64");
	whole = (int)strlen(names);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	tap_ok(listed(pid, DT_DIR_), "/proc lists our own pid as a directory");
	tap_ok(listed("1", DT_DIR_), "/proc lists pid 1");
	tap_ok(listed("self", -1), "/proc lists self");
	tap_ok(listed("meminfo", DT_REG_) && listed("mounts", -1), "/proc lists meminfo and mounts");
	tap_ok(listed("sys", DT_DIR_), "/proc lists sys as a directory");
	tap_ok(listed(".", DT_DIR_) && listed("..", DT_DIR_), "/proc lists . and ..");
	tap_is_long(open_all("/proc"), 0, "every name /proc lists opens");

	n = list("/proc", 64);
	tap_ok(n > 0 && listed(pid, DT_DIR_) && listed("meminfo", DT_REG_) && listed("self", -1),
	       "/proc listed 64 bytes at a time has the same names");
	tap_ok(n > 0 && (int)strlen(names) > whole / 2, "... and about as many of them");
	tap_is_long(list("/proc", 8), -EINVAL, "getdents64 with an 8-byte buffer is EINVAL");

	if (pipe(fds) < 0) {
		tap_ok(0, "pipe");
		return;
	}
	child = fork();
	if (child == 0) {
		close(fds[1]);
		read(fds[0], &c, 1);	/* until the parent closes its end */
		_exit(0);
	}
	close(fds[0]);
	snprintf(pid, sizeof(pid), "%d", (int)child);
	list("/proc", 4096);
	tap_ok(listed(pid, DT_DIR_), "a live child's pid is listed in /proc");
	snprintf(path, sizeof(path), "/proc/%d", (int)child);
	tap_ok(list(path, 4096) > 0 && listed("maps", DT_REG_), "/proc/<child> lists maps");
	tap_is_long(open_all(path), 0, "every name /proc/<child> lists opens");
	close(fds[1]);
	waitpid(child, NULL, 0);
	list("/proc", 4096);
	tap_ok(!listed(pid, -1), "a reaped child's pid is gone from /proc");
	tap_is_long(list(path, 4096), -ENOENT, "/proc/<reaped child> is ENOENT");
}

static void test_dirs(void)
{
	char buf[16];
	int fd;

	tap_ok(list("/proc/self", 4096) > 0, "/proc/self lists");
	tap_ok(listed("maps", DT_REG_) && listed("smaps", DT_REG_) && listed("mounts", DT_REG_),
	       "/proc/self lists maps, smaps and mounts");
	tap_is_long(open_all("/proc/self"), 0, "every name /proc/self lists opens");

	tap_ok(list("/proc/sys", 4096) > 0 && listed("vm", DT_DIR_), "/proc/sys lists vm");
	tap_ok(list("/proc/sys/vm", 4096) > 0, "/proc/sys/vm lists");
	tap_ok(listed("overcommit_memory", DT_REG_) && listed("overcommit_ratio", DT_REG_) &&
	       listed("overcommit_kbytes", DT_REG_) && listed("max_map_count", DT_REG_) &&
	       listed("nr_hugepages", DT_REG_),
	       "/proc/sys/vm lists overcommit_memory/ratio/kbytes, max_map_count, nr_hugepages");
	tap_is_long(open_all("/proc/sys/vm"), 0, "every name /proc/sys/vm lists opens");

	fd = open("/proc/self", O_RDONLY | O_DIRECTORY);
	errno = 0;
	tap_ok(fd >= 0 && read(fd, buf, sizeof(buf)) < 0 && errno == EISDIR, "read() of /proc/self is EISDIR");
	if (fd >= 0)
		close(fd);
	fd = open("/proc/meminfo", O_RDONLY | O_DIRECTORY);
	tap_ok(fd < 0 && errno == ENOTDIR, "O_DIRECTORY on /proc/meminfo is ENOTDIR");
	if (fd >= 0)
		close(fd);
	tap_is_long(list("/proc/no-such-dir", 4096), -ENOENT, "/proc/no-such-dir is ENOENT");
}

int main(void)
{
	tap_init();
	test_root();
	test_dirs();
	return tap_done();
}
