/* procfs.c - /proc/self/maps describes this process's own mappings and
 * /proc/meminfo has MemTotal and MemFree.
 *
 * maps lines are "start-end perms offset major:minor inode [path]" with
 * hexadecimal start/end and perms like "r-xp". Only what Linux guarantees
 * is checked: the line that holds an address, its permissions, exact
 * boundaries where a split makes them certain, sorted non-overlapping
 * lines. Paths such as "[stack]" are only reported.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "tap.h"

/* The page size is the kernel's (4, 16 or 64 KiB on arm64). */
#define PAGE ((unsigned long)getpagesize())

static char maps[65536];
static size_t maps_len;

static long read_file(const char *path, char *buf, size_t size, size_t chunk)
{
	int fd = open(path, O_RDONLY);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (len < size - 1) {
		size_t want = size - 1 - len;
		if (chunk && want > chunk)
			want = chunk;
		n = read(fd, buf + len, want);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = 0;
	return (long)len;
}

static int load_maps(void)
{
	long n = read_file("/proc/self/maps", maps, sizeof(maps), 0);

	maps_len = n < 0 ? 0 : (size_t)n;
	return n > 0;
}

struct mapping {
	unsigned long start, end;
	char perms[5];
	char path[64];
};

/* Parse the line at *p; advance *p to the next line. 0 if malformed. */
static int parse_line(const char **p, struct mapping *m)
{
	const char *s = *p, *eol = strchr(s, '\n');
	char *e;
	size_t n;

	if (!eol)
		return 0;
	*p = eol + 1;
	m->start = strtoul(s, &e, 16);
	if (*e != '-')
		return 0;
	m->end = strtoul(e + 1, &e, 16);
	if (*e != ' ' || m->start >= m->end)
		return 0;
	memcpy(m->perms, e + 1, 4);
	m->perms[4] = 0;
	if (!strchr("r-", m->perms[0]) || !strchr("w-", m->perms[1]) || !strchr("x-", m->perms[2]) ||
	    !strchr("ps", m->perms[3]) || e[5] != ' ')
		return 0;
	/* the path is the sixth field, if any */
	s = e + 6;
	for (int field = 0; field < 3; field++) {
		const char *sp = strchr(s, ' ');

		if (!sp || sp > eol) {
			if (field < 2)
				return 0;
			s = eol;	/* no path */
			break;
		}
		for (s = sp; *s == ' '; s++)
			;
	}
	n = (size_t)(eol - s);
	if (n >= sizeof(m->path))
		n = sizeof(m->path) - 1;
	memcpy(m->path, s, n);
	m->path[n] = 0;
	return 1;
}

/* The mapping that holds addr, from a fresh read of maps. */
static int find(const void *addr, struct mapping *out)
{
	unsigned long a = (unsigned long)(uintptr_t)addr;
	const char *p = maps;
	struct mapping m;

	if (!load_maps())
		return 0;
	while (p < maps + maps_len && parse_line(&p, &m))
		if (m.start <= a && a < m.end) {
			*out = m;
			return 1;
		}
	return 0;
}

static void check_perms(const void *addr, const char *want, const char *what)
{
	struct mapping m = { 0, 0, "none", "" };
	int found = find(addr, &m);

	tap_ok(found && !strncmp(m.perms, want, strlen(want)), "maps: %s at %p is in a %s mapping (%lx-%lx %s %s)",
	       what, addr, want, m.start, m.end, m.perms, m.path);
}

int main(void);
int data_var = 1;
int bss_var;
static const char rodata_var[] = "constant";

static void test_maps_format(void)
{
	const char *p = maps;
	struct mapping m;
	unsigned long prev_end = 0;
	int lines = 0, good = 1, sorted = 1;

	tap_ok(load_maps() && maps[maps_len - 1] == '\n', "/proc/self/maps can be read (%zu bytes)", maps_len);
	while (p < maps + maps_len) {
		if (!parse_line(&p, &m)) {
			good = 0;
			break;
		}
		if (m.start < prev_end)
			sorted = 0;
		prev_end = m.end;
		lines++;
	}
	tap_ok(good && lines >= 3, "every line parses as start-end perms offset dev inode [path] (%d lines)", lines);
	tap_ok(sorted, "lines are sorted by address and do not overlap");
}

static void test_small_reads(void)
{
	static char again[sizeof(maps)];
	long n;

	load_maps();
	n = read_file("/proc/self/maps", again, sizeof(again), 7);
	tap_ok(n == (long)maps_len && !memcmp(maps, again, maps_len),
	       "reading maps 7 bytes at a time gives the same text (%ld bytes)", n);
}

static void test_own_mappings(void)
{
	int on_stack = 0;
	struct mapping m;

	check_perms(&data_var, "rw-p", "an initialized global");
	check_perms(&bss_var, "rw-p", "a zero-initialized global");
	check_perms((void *)(uintptr_t)main, "r-xp", "main()");
	check_perms(rodata_var, "r-", "a string constant");
	check_perms(&on_stack, "rw-p", "a stack variable");
	if (find(&on_stack, &m))
		tap_diag("stack mapping: %lx-%lx %s %s", m.start, m.end, m.perms, m.path);
}

static void test_mmap_regions(void)
{
	char *rw = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *none = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct mapping m;

	if (rw == MAP_FAILED || none == MAP_FAILED) {
		tap_ok(0, "mmap for the maps tests");
		return;
	}
	check_perms(rw + PAGE, "rw-p", "an anonymous read-write mmap");
	check_perms(none, "---p", "a PROT_NONE mmap");
	tap_ok(mprotect(rw + PAGE, PAGE, PROT_READ) == 0, "mprotect of the middle page to read-only");
	tap_ok(find(rw + PAGE, &m) && m.start == (unsigned long)(uintptr_t)(rw + PAGE) &&
	       m.end == (unsigned long)(uintptr_t)(rw + 2 * PAGE) && !strcmp(m.perms, "r--p"),
	       "maps: the middle page is now its own r--p line (%lx-%lx %s)", m.start, m.end, m.perms);
	check_perms(rw, "rw-p", "the first page (still read-write)");
	check_perms(rw + 2 * PAGE, "rw-p", "the last page (still read-write)");
	munmap(rw, 3 * PAGE);
	tap_ok(!find(rw + PAGE, &m), "maps: after munmap no line holds the region");
	munmap(none, PAGE);
}

static long meminfo_kb(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	char *end;
	long v;

	if (!p)
		return -1;
	v = strtol(p + strlen(key), &end, 10);
	while (*end == ' ')
		end++;
	return strncmp(end, "kB\n", 3) ? -2 : v;
}

static void test_meminfo(void)
{
	static char text[8192];
	long n = read_file("/proc/meminfo", text, sizeof(text), 0);
	long total = meminfo_kb(text, "MemTotal:"), avail = meminfo_kb(text, "MemFree:");

	tap_ok(n > 0, "/proc/meminfo can be read (%ld bytes)", n);
	tap_ok(total > 16 * 1024, "MemTotal: %ld kB (more than 16 MiB, unit kB)", total);
	tap_ok(avail > 0 && avail <= total, "MemFree: %ld kB (positive, at most MemTotal, unit kB)", avail);
}

int main(void)
{
	tap_init();
	test_maps_format();
	test_small_reads();
	test_own_mappings();
	test_mmap_regions();
	test_meminfo();
	return tap_done();
}
