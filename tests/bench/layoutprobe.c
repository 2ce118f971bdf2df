/*
 * layoutprobe.c - /init for `make layouts` (tools/layouts.sh): what the
 * kernel's page-table layout costs a process. It maps 1 GiB of anonymous
 * memory with MADV_NOHUGEPAGE, writes one byte to each page, and reports
 * the page-table pages the mapping added (from /proc/self/pagetables,
 * "pagetables: N table pages below the root"), then runs /bin/mmbench for
 * the fault and mprotect costs and powers off. Our kernel only (it reads
 * /proc/self/pagetables); the figures are printed as "layout: KEY VALUE".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/wait.h>

#define GIB (1UL << 30)

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

int main(void)
{
	long pg = getpagesize(), before, after;
	char *p;
	char *const argv[] = { "mmbench", NULL };
	int st;
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	printf("layout: page_size %ld\n", pg);
	before = table_pages();
	p = mmap(NULL, GIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		printf("layout: error mmap of 1 GiB\n");
	} else {
		madvise(p, GIB, MADV_NOHUGEPAGE);
		for (unsigned long off = 0; off < GIB; off += pg)
			p[off] = 1;
		after = table_pages();
		printf("layout: user_pages_1g %lu\n", GIB / pg);
		printf("layout: user_tables_1g %ld\n", before < 0 || after < 0 ? -1 : after - before);
		munmap(p, GIB);
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
