/*
 * layoutprobe.c - /init for `make layouts` (tools/layouts.sh): what the
 * kernel's page-table layout costs a process. It maps a region of anonymous
 * memory with MADV_NOHUGEPAGE (1 GiB, or probe_mib=N MiB from the kernel
 * command line, which the kernel hands to init in its environment: the
 * MicroBlaze boards have less RAM than 1 GiB), writes one byte to each
 * page, and reports where the region lies, the process's table pages
 * before it and the page-table pages the mapping added (from
 * /proc/self/pagetables, "pagetables: N table pages below the root"), then
 * runs /bin/mmbench for the fault and mprotect costs and powers off. Our
 * kernel only (it reads /proc/self/pagetables); the figures are printed as
 * "layout: KEY VALUE". Built with glibc for arm64 and with the test libc
 * for MicroBlaze (tests/bench/bench.mk), so sizes stay within 32 bits.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/wait.h>

#define MIB (1UL << 20)
/* The largest region: 1 GiB, which a 32-bit unsigned long still holds. */
#define MAX_MIB 1024UL

/* Table pages below the root of our page tables; -1 if unreadable. */
static long table_pages(void)
{
	static char buf[1 << 16];
	int fd = open("/proc/self/pagetables", O_RDONLY);
	long n = 0, r;
	const char *p;

	if (fd < 0)
		return -1;
	while ((r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	p = strstr(buf, "pagetables: ");
	return p ? atol(p + 12) : -1;
}

/* The region's size in MiB: probe_mib from the environment if it is a
 * number from 1 to MAX_MIB, else MAX_MIB. */
static unsigned long region_mib(void)
{
	const char *s = getenv("probe_mib");
	unsigned long n = s ? strtoul(s, NULL, 10) : 0;

	return n >= 1 && n <= MAX_MIB ? n : MAX_MIB;
}

int main(void)
{
	long pg = getpagesize(), before, after;
	unsigned long mib = region_mib(), size = mib * MIB;
	char *p;
	char *const argv[] = { "mmbench", NULL };
	int st;
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	printf("layout: page_size %ld\n", pg);
	printf("layout: region_mib %lu\n", mib);
	before = table_pages();
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		printf("layout: error mmap of %lu MiB\n", mib);
	} else {
		madvise(p, size, MADV_NOHUGEPAGE);
		for (unsigned long off = 0; off < size; off += pg)
			p[off] = 1;
		after = table_pages();
		printf("layout: region_at %p\n", (void *)p);
		printf("layout: tables_before %ld\n", before);
		printf("layout: user_pages %lu\n", size / pg);
		printf("layout: user_tables %ld\n", before < 0 || after < 0 ? -1 : after - before);
		munmap(p, size);
	}
	pid = fork();
	if (pid == 0) {
		execv("/bin/mmbench", argv);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	printf("kernel-exit: status=0\n");
	reboot(RB_POWER_OFF);
	return 0;
}
