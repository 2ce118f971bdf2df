/* mm_util.h - helpers shared by the address-space tests (tests/user/mm_*.c).
 *
 * Portable to both libcs (glibc and tests/lib). Everything is static: each
 * test program includes this once.
 *
 *   anon(hint, len, prot, extra)   mmap of private anonymous memory
 *   hole(pages)                    a free range of that many pages: mapped and
 *                                  unmapped again, so nothing is there (until
 *                                  the test's next mmap without MAP_FIXED)
 *   shape(a, b)                    what /proc/self/maps says about [a, b), one
 *                                  word per VMA piece clipped to the range:
 *                                  "hole:1 rw-p:3 hole:1" (counts in pages)
 *   vm_flag(addr, "sl")            1 if the VMA holding addr has that word in
 *                                  its smaps VmFlags line, 0 if not, -1 if
 *                                  there is no VMA there
 *   maps_entry(addr, &m)           the fields of the maps line of the VMA
 *                                  holding addr (perms, offset, device, inode,
 *                                  name); vma_line(addr) that line in mm_procbuf
 *   probe_init(); can_read(p), can_write(p)   an access that may fault:
 *                                  SIGSEGV and SIGBUS are caught (sigsetjmp)
 *   do_mseal(addr, len, flags)     mseal(2) through syscall()
 *   meminfo("HugePages_Free")      the number on that line of /proc/meminfo
 *                                  (kB for sizes), -1 if it has no such line
 *   on_teachos()                   uname's release ends in "-teachos"
 */
#ifndef MM_UTIL_H
#define MM_UTIL_H

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
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "tap.h"

/* The page size is the kernel's (4, 16 or 64 KiB on arm64). */
#define PAGE ((unsigned long)getpagesize())

/* glibc 2.36 and its kernel headers (6.1) predate these. */
#ifndef SYS_mseal
#define SYS_mseal 462
#endif
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#define MADV_GUARD_REMOVE 103
#endif
#ifndef PROT_SEM
#define PROT_SEM 0x8
#endif
#ifndef MAP_DROPPABLE
#define MAP_DROPPABLE 0x08
#endif

/* The test libc has no numbers for these (mm_edges, mm_memfd, mm_mincore). */
#ifndef SYS_memfd_create
#if defined(__aarch64__)
#define SYS_memfd_create 279
#else
#define SYS_memfd_create 386
#endif
#endif
#ifndef SYS_ftruncate
#if defined(__aarch64__)
#define SYS_ftruncate 46
#else
#define SYS_ftruncate 93
#endif
#endif

/* A length larger than any user address space: Debian's arm64 kernel has
 * 52-bit user addresses, ours 48-bit; MicroBlaze user space ends at 3 GiB. */
#if defined(__aarch64__)
#define HUGE_LEN (1UL << 60)
#else
#define HUGE_LEN 0xf0000000UL
#endif

static inline int do_mseal(void *addr, size_t len, unsigned long flags)
{
	return (int)syscall(SYS_mseal, addr, len, flags);
}

static inline void *anon(void *hint, size_t len, int prot, int extra)
{
	return mmap(hint, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | extra, -1, 0);
}

static inline char *hole(size_t pages)
{
	char *p = anon(NULL, pages * PAGE, PROT_NONE, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p, pages * PAGE);
	return p;
}

static inline int on_teachos(void)
{
	struct utsname u;
	size_t n;

	if (uname(&u) != 0)
		return 0;
	n = strlen(u.release);
	return n >= 8 && strcmp(u.release + n - 8, "-teachos") == 0;
}

static inline int all_bytes(const void *p, size_t n, unsigned char c)
{
	const unsigned char *q = p;

	for (size_t i = 0; i < n; i++)
		if (q[i] != c)
			return 0;
	return 1;
}

/* ---- /proc/self/maps and smaps ---- */

static char mm_procbuf[256 * 1024];

/* The whole file in mm_procbuf (NUL-terminated); its length, or -1. */
static inline long read_proc(const char *path)
{
	int fd = open(path, O_RDONLY);
	long len = 0, n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, mm_procbuf + len, sizeof(mm_procbuf) - 1 - (size_t)len)) > 0)
		len += n;
	close(fd);
	mm_procbuf[len] = '\0';
	return len;
}

/* Parse "start-end perms" at line; the next line or NULL. */
static inline const char *parse_maps_line(const char *line, unsigned long *start, unsigned long *end,
					  char perms[5])
{
	char *e;
	const char *nl;

	*start = strtoul(line, &e, 16);
	*end = strtoul(e + 1, &e, 16);
	memcpy(perms, e + 1, 4);
	perms[4] = '\0';
	nl = strchr(line, '\n');
	return nl ? nl + 1 : NULL;
}

/* One line of /proc/self/maps, split into its fields. */
struct maps_entry {
	unsigned long start, end;
	char perms[5];
	unsigned long long off, ino;
	unsigned major, minor;
	int name_col;		/* where the name starts in the line */
	char name[64];
};

/* The start of the maps/smaps header line of the VMA holding addr in mm_procbuf, or NULL. */
static inline const char *vma_line(const void *addr)
{
	for (const char *l = mm_procbuf; l && *l;) {
		char *e;
		unsigned long s = strtoul(l, &e, 16), end = *e == '-' ? strtoul(e + 1, &e, 16) : 0;

		if (*e == ' ' && s <= (unsigned long)addr && (unsigned long)addr < end)
			return l;
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	return NULL;
}

/* Fill m from the /proc/self/maps line of the VMA holding addr; 0, or -1 if none. */
static inline int maps_entry(const void *addr, struct maps_entry *m)
{
	const char *l, *nl, *p;
	char *e;

	memset(m, 0, sizeof(*m));
	if (read_proc("/proc/self/maps") < 0 || !(l = vma_line(addr)) || !(p = strchr(l, ' ')))
		return -1;
	nl = strchr(l, '\n');
	nl = nl ? nl : l + strlen(l);
	m->start = strtoul(l, &e, 16);
	m->end = strtoul(e + 1, NULL, 16);
	memcpy(m->perms, p + 1, 4);	/* "start-end perms offset major:minor inode   name" */
	m->off = strtoull(p + 6, &e, 16);
	m->major = (unsigned)strtoul(e + 1, &e, 16);
	if (*e != ':')
		return -1;
	m->minor = (unsigned)strtoul(e + 1, &e, 16);
	m->ino = strtoull(e + 1, &e, 10);
	while (*e == ' ')
		e++;
	m->name_col = (int)(e - l);
	snprintf(m->name, sizeof(m->name), "%.*s", (int)(nl - e), e);
	return 0;
}

/* The VMA pieces in [a, b), see the top of the file. */
static inline const char *shape(const void *a_, const void *b_)
{
	static char out[512];
	unsigned long a = (unsigned long)a_, b = (unsigned long)b_, pos = a;
	size_t len = 0;
	const char *line;

	out[0] = '\0';
	if (read_proc("/proc/self/maps") < 0)
		return "(no /proc/self/maps)";
	for (line = mm_procbuf; line && *line && pos < b;) {
		unsigned long s, e;
		char perms[5];

		line = parse_maps_line(line, &s, &e, perms);
		if (e <= pos)
			continue;
		if (s >= b)
			break;
		if (s > pos)
			len += (size_t)snprintf(out + len, sizeof(out) - len, "%shole:%lu", len ? " " : "",
						(s - pos) / PAGE);
		s = s > pos ? s : pos;
		e = e < b ? e : b;
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%s:%lu", len ? " " : "", perms, (e - s) / PAGE);
		pos = e;
	}
	if (pos < b)
		snprintf(out + len, sizeof(out) - len, "%shole:%lu", len ? " " : "", (b - pos) / PAGE);
	return out;
}

/* Does the VMA holding addr have flag in its VmFlags? 1, 0, or -1 (no VMA).
 * In smaps a VMA's header line starts with its hex range; its field lines
 * ("Size:", "VmFlags:") start with a capital letter. */
static inline int vm_flag(const void *addr, const char *flag)
{
	unsigned long a = (unsigned long)addr, s = 0, e = 0;
	const char *line;
	size_t fl = strlen(flag);

	if (read_proc("/proc/self/smaps") < 0)
		return -1;
	for (line = mm_procbuf; line && *line;) {
		const char *next;
		char perms[5];

		if ((*line >= '0' && *line <= '9') || (*line >= 'a' && *line <= 'f')) {
			parse_maps_line(line, &s, &e, perms);
		} else if (s <= a && a < e && strncmp(line, "VmFlags:", 8) == 0) {
			const char *eol = strchr(line, '\n');

			for (const char *p = line + 8; p && (!eol || p < eol); p = strchr(p, ' ')) {
				while (*p == ' ')
					p++;
				if (strncmp(p, flag, fl) == 0 && (p[fl] == ' ' || p[fl] == '\n' || !p[fl]))
					return 1;
			}
			return 0;
		}
		next = strchr(line, '\n');
		line = next ? next + 1 : NULL;
	}
	return s <= a && a < e ? 0 : -1;
}

/* ---- /proc/meminfo ---- */

/* The number on /proc/meminfo's line "key: N ..." (key without its colon),
 * or -1. Read into a buffer of its own: mm_procbuf is left alone. */
static inline long meminfo(const char *key)
{
	static char text[8192];
	int fd = open("/proc/meminfo", O_RDONLY);
	size_t len = 0, kl = strlen(key);
	const char *l;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (len < sizeof(text) - 1 && (n = read(fd, text + len, sizeof(text) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	text[len] = '\0';
	for (l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, key, kl) == 0 && l[kl] == ':')
			return strtol(l + kl + 1, NULL, 10);
	return -1;
}

/* ---- accesses that may fault ---- */

static sigjmp_buf probe_env;
static volatile int probe_sig;

static void probe_handler(int sig)
{
	probe_sig = sig;
	siglongjmp(probe_env, 1);
}

static inline void probe_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = probe_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

/* 1 if reading *p works, 0 if it faults (probe_sig says with what). */
static inline int can_read(const void *p)
{
	probe_sig = 0;
	if (sigsetjmp(probe_env, 1))
		return 0;
	(void)*(const volatile char *)p;
	return 1;
}

/* 1 if writing *p works (it writes back the byte there), 0 if it faults. */
static inline int can_write(void *p)
{
	probe_sig = 0;
	if (sigsetjmp(probe_env, 1))
		return 0;
	*(volatile char *)p = *(volatile char *)p;
	return 1;
}

static inline long minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* Wait for pid; its exit status, or -1 if it did not exit normally. */
static inline int child_status(pid_t pid)
{
	int st = 0;

	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

#endif
