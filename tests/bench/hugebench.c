/* hugebench.c - the cost of filling the huge page pool and populating it,
 * in guest instructions (run under -icount shift=0,align=off,sleep=off,
 * where CLOCK_MONOTONIC advances one nanosecond per instruction).
 *
 * One run: write N (64, or what half the RAM holds) to /proc/sys/vm/nr_hugepages, mmap N huge pages with
 * MAP_HUGETLB, touch each one, and report the instructions that took and
 * (on this kernel) the bytes the kernel zeroed meanwhile. tools/hugebench.sh
 * boots it with init_on_alloc=0 and =1 on this kernel and on Linux: a page
 * cleared once costs the same either way (ratio near 1.0); a page cleared
 * on entering the pool and again at its first fault costs about twice.
 *
 * It runs as /init: on Linux it mounts /proc and powers off at the end.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>

#ifndef MAP_HUGETLB
#define MAP_HUGETLB 0x40000
#endif

static char buf[4096];

static long read_num(const char *path)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

static long meminfo(const char *key)
{
	int fd = open("/proc/meminfo", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	char *p;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, key);
	return p ? strtol(p + strlen(key) + 1, NULL, 10) : -1;
}

static int set_pool(long n)
{
	char s[32];
	int fd = open("/proc/sys/vm/nr_hugepages", O_WRONLY);
	int len = snprintf(s, sizeof(s), "%ld\n", n);
	int ok = fd >= 0 && write(fd, s, (size_t)len) == len;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

static unsigned long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

int main(void)
{
	long want = 64, got, hkb, z0 = -1, z1, mem_kb;
	unsigned long long t0, t1;
	unsigned long hsz;
	char *p;
	int status = 0;

	mount("proc", "/proc", "proc", 0, NULL);	/* Linux's initramfs has no /proc yet */
	hkb = meminfo("Hugepagesize");
	if (hkb <= 0) {
		printf("hugebench: no huge pages on this kernel\n");
		status = 1;
		goto out;
	}
	hsz = (unsigned long)hkb * 1024;
	/* 64 pages, or as many as half of the RAM allows (MicroBlaze boards are small). */
	mem_kb = meminfo("MemTotal");
	if (mem_kb > 0 && want * hkb > mem_kb / 2)
		want = mem_kb / 2 / hkb;
	z0 = read_num("/proc/zeroed_bytes");
	t0 = now();
	set_pool(want);
	got = read_num("/proc/sys/vm/nr_hugepages");
	p = mmap(NULL, (unsigned long)got * hsz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (p == MAP_FAILED || got <= 0) {
		printf("hugebench: could not map %ld huge pages\n", got);
		status = 1;
		goto out;
	}
	for (long i = 0; i < got; i++)
		p[(unsigned long)i * hsz] = 1;
	t1 = now();
	z1 = read_num("/proc/zeroed_bytes");
	printf("hugebench: pages %ld size %lu kB instructions %llu per-page %llu", got, hsz >> 10, t1 - t0,
	       (t1 - t0) / (unsigned long long)got);
	if (z0 >= 0 && z1 >= 0)	/* hundredths: the test libc's printf has no %f */
		printf(" zeroed %ld clears-per-page-x100 %ld", z1 - z0,
		       (long)((long long)(z1 - z0) * 100 / ((long long)got * (long long)hsz)));
	printf("\n");
	munmap(p, (unsigned long)got * hsz);
	set_pool(0);
out:
	printf("kernel-exit: status=%d\n", status);
	fflush(stdout);
	if (getpid() == 1 && z0 < 0)	/* Linux: /init powers off itself */
		reboot(RB_POWER_OFF);
	return status;
}
