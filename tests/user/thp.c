/* thp.c - transparent huge pages: a fault in a MADV_HUGEPAGE region maps a
 * whole huge leaf; mprotect of one small page, MADV_DONTNEED of another and
 * a partial munmap split it without losing data; fork keeps the data.
 * MADV_COLLAPSE (MA-13) makes one from small pages, and its errno values.
 *
 * Whether Linux gives a huge page depends on its policy and on free memory,
 * so the checks that a huge leaf was used ("AnonHugePages", the page-table
 * dump) run on this kernel only (uname release ending in "-teachos"); the
 * data checks run everywhere.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "tap.h"

#ifndef MADV_HUGEPAGE
#define MADV_HUGEPAGE 14
#endif
/* The page size is the kernel's (4, 16 or 64 KiB on arm64). */
#define PAGE ((unsigned long)getpagesize())

#ifndef SYS_mseal
#define SYS_mseal 462
#endif

static char buf[65536];
static sigjmp_buf jb;

static void on_segv(int sig)
{
	siglongjmp(jb, sig);
}

static int on_teachos(void)
{
	struct utsname u;
	size_t n;

	if (uname(&u))
		return 0;
	n = strlen(u.release);
	return n > 8 && strcmp(u.release + n - 8, "-teachos") == 0;
}

static long read_text(const char *path)
{
	int fd = open(path, O_RDONLY);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (len < sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return (long)len;
}

/* AnonHugePages (kB) of the smaps entry that contains addr, or -1. */
static long smaps_anon_huge(void *addr)
{
	char *line, *p;

	if (read_text("/proc/self/smaps") < 0)
		return -1;
	for (line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char *end;
		unsigned long lo = strtoul(line, &end, 16), hi = *end == '-' ? strtoul(end + 1, &end, 16) : 0;

		if (*end == ' ' && (uintptr_t)addr >= lo && (uintptr_t)addr < hi) {
			p = strstr(line, "AnonHugePages:");
			return p ? strtol(p + 14, NULL, 10) : -1;
		}
	}
	return -1;
}

/* Every byte of [p, p+len) equals the pattern for its offset (skipping [hole, hole+hlen)). */
static int intact(const unsigned char *p, unsigned long len, unsigned long hole, unsigned long hlen)
{
	for (unsigned long i = 0; i < len; i++) {
		if (i >= hole && i < hole + hlen)
			continue;
		if (p[i] != (unsigned char)(i * 7 + 3))
			return 0;
	}
	return 1;
}

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
#ifndef MADV_NOHUGEPAGE
#define MADV_NOHUGEPAGE 15
#endif

/* madvise(p, len, MADV_COLLAPSE) == want (0, or -1 with errno want) */
static int collapse_is(void *p, unsigned long len, int want)
{
	int r;

	errno = 0;
	r = madvise(p, len, MADV_COLLAPSE);
	return want ? r == -1 && errno == want : r == 0;
}

/* MA-13: MADV_COLLAPSE (without MADV_HUGEPAGE: it ignores the policy). */
static void test_collapse(unsigned long huge, int teachos)
{
	unsigned char *raw = mmap(NULL, 4 * huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *p = (unsigned char *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
	unsigned char *s;

	if (raw == MAP_FAILED) {
		tap_ok(0, "mmap for MADV_COLLAPSE (errno %d)", errno);
		return;
	}
	p[7] = 7;
	p[100 * PAGE] = 100;
	tap_ok(collapse_is(p, huge, 0) && p[7] == 7 && p[100 * PAGE] == 100 && p[PAGE] == 0,
	       "MA-13: MADV_COLLAPSE of a block with two written pages: 0, the data kept, the rest zero (errno %d)", errno);
	if (teachos)
		tap_ok(smaps_anon_huge(p) >= (long)(huge >> 10), "MA-13: ... and one huge leaf maps it (%ld kB)",
		       smaps_anon_huge(p));
	tap_ok(collapse_is(p, huge, 0), "MA-13: collapsing it again: 0 (errno %d)", errno);
	tap_ok(collapse_is(p + huge + PAGE, 2 * PAGE, EINVAL),
	       "MA-13: a range inside one block, short of its end: EINVAL (errno %d)", errno);
	tap_ok(collapse_is(p + huge + PAGE, huge - PAGE, 0),
	       "MA-13: a range that ends at the block's end, holding no whole block: 0 (errno %d)", errno);
	tap_ok(collapse_is(p + 2 * huge, huge, EINVAL), "MA-13: a block nothing was written to: EINVAL (errno %d)", errno);
	p[huge] = 1;
	mprotect(p + huge, huge, PROT_READ);
	tap_ok(collapse_is(p + huge, huge, EINVAL) && p[huge] == 1,
	       "MA-13: a block whose pages are all read-only: EINVAL (errno %d)", errno);
	madvise(p + 2 * huge, huge, MADV_NOHUGEPAGE);
	p[2 * huge] = 1;
	tap_ok(collapse_is(p + 2 * huge, huge, EINVAL), "MA-13: a MADV_NOHUGEPAGE block: EINVAL (errno %d)", errno);
	munmap(raw, 4 * huge);
	raw = mmap(NULL, 3 * huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	p = (unsigned char *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
	tap_ok(raw != MAP_FAILED && p[0] == 0 && collapse_is(p + PAGE, huge - PAGE, EINVAL),
	       "MA-13, MF-7: in a mapping never written (no anon_vma), even a range holding no whole block: EINVAL "
	       "(errno %d)", errno);
	munmap(raw, 3 * huge);
	s = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	s[0] = 1;
	tap_ok(collapse_is(s, PAGE, EINVAL), "MA-13: a mapping too small for a huge page: EINVAL (errno %d)", errno);
	munmap(s, PAGE);
}

/* How many maps lines start inside [a, b). */
static int vmas_in(const void *a, const void *b)
{
	int n = 0;

	if (read_text("/proc/self/maps") <= 0)
		return -1;
	for (char *l = buf; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		unsigned long lo = strtoul(l, NULL, 16);

		n += lo >= (unsigned long)a && lo < (unsigned long)b;
	}
	return n;
}

/*
 * MU-7: a munmap that fails on a sealed page after it has cut its first
 * VMA inside a huge leaf keeps the cut, and the leaf is split with it (no
 * block across two VMAs: mm_check=1 would stop the kernel); data stays.
 */
static void test_kept_cut(unsigned long huge)
{
	unsigned char *raw = mmap(NULL, 3 * huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *p;
	int r, e;

	if (raw == MAP_FAILED) {
		tap_skip("MU-7: no room for two huge blocks (errno %d)", errno);
		return;
	}
	p = (unsigned char *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
	madvise(p, huge, MADV_HUGEPAGE);
	for (unsigned long i = 0; i < huge; i++)
		p[i] = (unsigned char)(i * 7 + 3);
	if (syscall(SYS_mseal, p + huge, PAGE, 0) != 0) {
		tap_skip("MU-7: no mseal (errno %d)", errno);
		munmap(raw, 3 * huge);
		return;
	}
	if (on_teachos())
		tap_ok(smaps_anon_huge(p) >= (long)(huge >> 10), "MU-7 set-up: the block is one huge leaf (%ld kB)",
		       smaps_anon_huge(p));
	errno = 0;
	r = munmap(p + PAGE, huge);
	e = errno;
	tap_ok(r == -1 && e == EPERM && vmas_in(p, p + huge) == 2 && intact(p, huge, 0, 0),
	       "MU-7: munmap from inside a huge leaf up to a sealed page: EPERM (errno %d), cut there (%d VMAs), data intact",
	       e, vmas_in(p, p + huge));
	munmap(raw, (size_t)(p - raw) + huge);	/* all but the sealed page and what follows it */
}

int main(void)
{
	/* The PMD size: one last-level table's reach (arm64: 2M, 32M or 512M by page size). */
	unsigned long huge = PAGE * (PAGE / 8), len;
	static char want[32];
	int teachos = on_teachos(), st;
	unsigned char *raw, *p;
	volatile int sig;

	tap_init();
#if defined(__microblaze__)
	huge = PAGE * (PAGE / 4);	/* a level-0 block: 4M, 64M (16K pages); 64K pages have none */
#endif
	test_kept_cut(huge);	/* first: a block with no table left in it by an earlier test */
	len = 2 * huge;
	raw = mmap(NULL, len + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tap_ok(raw != MAP_FAILED, "mmap a region with room to align");
	if (raw == MAP_FAILED)
		return tap_done();
	p = (unsigned char *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
	tap_ok(madvise(p, len, MADV_HUGEPAGE) == 0, "madvise(MADV_HUGEPAGE)");
	for (unsigned long i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 7 + 3);
	if (teachos) {
		tap_ok(smaps_anon_huge(p) >= (long)(len >> 10), "smaps AnonHugePages covers the region (%ld kB)",
		       smaps_anon_huge(p));
		snprintf(want, sizeof(want), "%luM leaves: 2", huge >> 20);
		tap_ok(read_text("/proc/self/pagetables") > 0 && strstr(buf, want),
		       "the page tables hold huge leaves (%s)", want);
	}
	tap_ok(intact(p, len, 0, 0), "data written through huge leaves reads back");

	/* mprotect of one small page splits the first huge leaf; data stays. */
	tap_ok(mprotect(p + 5 * PAGE, PAGE, PROT_READ) == 0, "mprotect one small page read-only");
	tap_ok(intact(p, len, 0, 0), "after the split every byte is intact");
	signal(SIGSEGV, on_segv);
	if ((sig = sigsetjmp(jb, 1)) == 0)
		p[5 * PAGE] = 1;
	tap_ok(sig == SIGSEGV && p[5 * PAGE] == (unsigned char)(5 * PAGE * 7 + 3),
	       "a write to that page faults (signal %d) and changes nothing", sig);
	p[6 * PAGE] = (unsigned char)(6 * PAGE * 7 + 3);	/* its neighbour stays writable */
	tap_ok(1, "the neighbouring page is still writable");
	if (teachos)
		tap_ok(smaps_anon_huge(p + huge) >= (long)(huge >> 10),
		       "the second huge leaf is untouched (%ld kB)", smaps_anon_huge(p + huge));

	/* MADV_DONTNEED of a page of the second leaf: that page reads zero, the rest stays. */
	tap_ok(madvise(p + huge + 3 * PAGE, PAGE, MADV_DONTNEED) == 0, "MADV_DONTNEED one page of the second leaf");
	tap_ok(p[huge + 3 * PAGE] == 0 && p[huge + 4 * PAGE - 1] == 0, "that page reads back as zero");
	tap_ok(intact(p + huge, huge, 3 * PAGE, PAGE) && intact(p, huge, 0, 0) == 1,
	       "every other byte is intact");

	/* fork: the child sees the same data. */
	pid_t pid = fork();

	if (pid == 0)
		_exit(intact(p, huge, 0, 0) ? 0 : 1);
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a fork child reads the same data");

	tap_ok(munmap(p + huge / 2, PAGE) == 0 && intact(p, huge / 2, 0, 0), "partial munmap keeps the rest");
	munmap(raw, len + huge);
	test_collapse(huge, teachos);
	return tap_done();
}
