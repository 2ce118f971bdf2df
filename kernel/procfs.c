/*
 * procfs.c - the /proc files, in Linux's formats: /proc/meminfo,
 * /proc/mounts, /proc/sys/vm/..., /proc/sys/kernel/randomize_va_space, and per process /proc/<pid>/maps, smaps,
 * pagetables, mounts, stat, status, cmdline and comm (procfs_pid.c), and
 * /proc/stat, uptime, loadavg, cpuinfo (/proc/self is the caller's).
 *
 * procfs_entries[] is the one list of names: opening a path looks it up
 * there, and listing a directory (getdents64 on /proc, /proc/<pid>,
 * /proc/sys, /proc/sys/vm) walks it. A file's text, or a directory's
 * records, is generated when it is opened (a snapshot), into pages owned
 * by the open file.
 * pagemap and mem are not snapshots: they are read (mem written) at the
 * file offset, in the reader's address space (procfs_open_special).
 */
#include "vfs.h"
#include "fs.h"
#include "proc.h"
#include "mm.h"
#include "commit.h"
#include "hugetlb.h"
#include "fail_alloc.h"
#include "thp.h"
#include "ptdump.h"
#include "procfs_pid.h"
#include "exec.h"
#include "printk.h"
#include "kstring.h"
#include "errno.h"
#include "page_alloc.h"
#include <stdarg.h>
#include <asm/memlayout.h>

#define PROCFS_ORDER 4	/* a snapshot's first buffer: 64 KiB with 4K pages */
#define PROCFS_MAX_ORDER 10	/* and its largest (4 MiB with 4K pages): gen_entry() */

struct procbuf {
	char *buf;
	size_t size, len;
};

static void pb_printf(struct procbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pb_printf(struct procbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintk(b->buf + b->len, b->size - b->len, fmt, ap);
	va_end(ap);
	b->len = MIN(b->len + (size_t)n, b->size - 1);
}

/* Start an empty snapshot in b, in pages of the given order; NULL if none are free. */
static struct page *pb_start(struct procbuf *b, int order)
{
	struct page *pg = alloc_pages(0, order);

	if (pg) {
		b->buf = page_address(pg);
		b->size = PAGE_SIZE << order;
		b->len = 0;
		b->buf[0] = '\0';
	}
	return pg;
}

/* Has the text filled b? (pb_printf stops len at size - 1.) */
static bool pb_full(const struct procbuf *b)
{
	return b->len + 1 >= b->size;
}

/* One /proc/self/maps line, padded as Linux pads it before the name. */
static void maps_line(struct procbuf *b, const struct mm *mm, const struct vma *v)
{
	const char *name = v->name;
	size_t start = b->len;
	u32 dev = 0;
	u64 ino = v->name ? 1 : 0;

	if (!name && (v->flags & VM_STACK))
		name = "[stack]";
	else if (!name && (v->flags & VM_HEAP))
		name = "[heap]";
	if (v->name && v->file && v->file->ops->ident)
		v->file->ops->ident(v->file, &dev, &ino);
	(void)mm;
	/* The device as Linux prints it: major and minor in hex, at least two digits each. */
	pb_printf(b, "%08lx-%08lx %c%c%c%c %08llx %02x:%02x %llu ", v->start, v->end,
		  (v->flags & VM_READ) ? 'r' : '-', (v->flags & VM_WRITE) ? 'w' : '-',
		  (v->flags & VM_EXEC) ? 'x' : '-', (v->flags & VM_SHARED) ? 's' : 'p',
		  (unsigned long long)(name && v->name ? v->offset : 0), (unsigned)(dev >> 8) & 0xfff,
		  (unsigned)((dev & 0xff) | ((dev >> 12) & 0xfff00)), (unsigned long long)ino);
	if (name) {
		/* (a full buffer stops len growing: that ends the padding too) */
		while (b->len - start < 73 && !pb_full(b))
			pb_printf(b, " ");
		pb_printf(b, "%s", name);
	}
	pb_printf(b, "\n");
}

/*
 * smaps' VmFlags line: the two-letter names Linux prints, in Linux's order
 * (its VM_* bit order), for the flags this kernel has.
 */
static void vm_flags_line(struct procbuf *b, unsigned f)
{
	static const struct { unsigned flag; char name[3]; } names[] = {
		{ VM_READ, "rd" }, { VM_WRITE, "wr" }, { VM_EXEC, "ex" }, { VM_SHARED, "sh" },
		{ VM_MAYREAD, "mr" }, { VM_MAYWRITE, "mw" }, { VM_MAYEXEC, "me" },
		{ VM_SHARED, "ms" },	/* VM_MAYSHARE: every MAP_SHARED mapping here */
		{ VM_GROWSDOWN, "gd" }, { VM_LOCKED, "lo" }, { VM_SEQ_READ, "sr" }, { VM_RAND_READ, "rr" },
		{ VM_DONTFORK, "dc" },
		{ VM_HUGETLB, "de" },	/* VM_DONTEXPAND: hugetlbfs sets it on every hugetlb VMA */
		{ VM_LOCKONFAULT, "lf" }, { VM_ACCOUNT, "ac" }, { VM_NORESERVE, "nr" }, { VM_HUGETLB, "ht" },
		{ VM_WIPEONFORK, "wf" }, { VM_DONTDUMP, "dd" }, { VM_BTI, "bt" }, { VM_HUGEPAGE, "hg" },
		{ VM_NOHUGEPAGE, "nh" }, { VM_MERGEABLE, "mg" }, { VM_SEALED, "sl" },
	};

	pb_printf(b, "VmFlags:");
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (f & names[i].flag)
			pb_printf(b, " %s", names[i].name);
	pb_printf(b, "\n");
}

static void gen_maps(struct procbuf *b, struct mm *mm, bool smaps)
{
	for (const struct vma *v = mm->vmas; v; v = v->next) {
		maps_line(b, mm, v);
		if (!smaps)
			continue;
		u64 rss = (v->flags & VM_HUGETLB) ? 0 : mm_rss_pages(mm, v->start, v->end) * (PAGE_SIZE / 1024);

		pb_printf(b, "Size:           %8lu kB\n", (v->end - v->start) >> 10);
		unsigned long psz = (v->flags & VM_HUGETLB) ? (unsigned long)hugetlb_of_vma(v)->size : PAGE_SIZE;

		pb_printf(b, "KernelPageSize: %8lu kB\n", psz >> 10);
		pb_printf(b, "MMUPageSize:    %8lu kB\n", psz >> 10);
		pb_printf(b, "Rss:            %8llu kB\n", (unsigned long long)rss);
		pb_printf(b, "Pss:            %8llu kB\n", (unsigned long long)rss);
		pb_printf(b, "Anonymous:      %8llu kB\n", (unsigned long long)rss);
		u64 hshared = 0, hpriv = 0;	/* a hugetlb leaf is no transparent huge page */

		pb_printf(b, "AnonHugePages:  %8llu kB\n", (unsigned long long)((v->flags & VM_HUGETLB) ? 0 :
			  thp_range_bytes(mm, v->start, v->end) >> 10));
		if (v->flags & VM_HUGETLB)
			hugetlb_smaps_bytes(mm, (struct vma *)v, &hshared, &hpriv);
		pb_printf(b, "Shared_Hugetlb: %8llu kB\n", (unsigned long long)(hshared >> 10));
		pb_printf(b, "Private_Hugetlb: %7llu kB\n", (unsigned long long)(hpriv >> 10));
		vm_flags_line(b, v->flags);
	}
}

/*
 * /proc/zeroed_bytes (this kernel's own): how many bytes the kernel has
 * zeroed so far, so a test can show that a page is cleared exactly once,
 * then the zeroing policy it runs with.
 */
static void gen_zeroed(struct procbuf *b)
{
	struct page_stats st;

	page_alloc_stats(&st);
	pb_printf(b, "%llu\ninit_on_alloc %d\ninit_on_free %d\n", (unsigned long long)st.bytes_zeroed,
		  init_on_alloc, init_on_free);
}

/* A decimal number written to a sysctl file, with blanks and a newline around it: 0 or -EINVAL. */
static long parse_sysctl_u64(const char *s, size_t n, u64 *out)
{
	u64 v = 0;
	size_t i = 0;

	while (i < n && s[i] == ' ')
		i++;
	if (i == n || s[i] < '0' || s[i] > '9')
		return -EINVAL;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (u64)(s[i] - '0');
	while (i < n && (s[i] == '\n' || s[i] == ' '))
		i++;
	if (i != n)
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * A write to /proc/sys/vm/nr_hugepages (resize the default pool) or to
 * /sys/kernel/mm/hugepages/hugepages-<N>kB/nr_hugepages (f->sysctl: that
 * size's pool).
 */
long procfs_write(struct file *f, const void *buf, size_t n, u64 *off)
{
	struct hstate *h = f->sysctl ? (struct hstate *)f->sysctl : hugetlb_default();
	u64 v;

	(void)off;
	if (!h || parse_sysctl_u64(buf, n, &v))
		return -EINVAL;
	hugetlb_set_pool(h, v);
	return (long)n;
}

static int fail_alloc_pid;	/* the process that armed fail_alloc at run time */

/* fail_alloc_filter: an allocation inside a system call of that process. */
static bool in_armer_syscall(void)
{
	struct proc *p = current_proc();

	return p && p->pid == fail_alloc_pid && p->in_syscall;
}

long procfs_write_fail_alloc(struct file *f, const void *buf, size_t n, u64 *off)
{
	u64 v;

	(void)f;
	(void)off;
	if (parse_sysctl_u64(buf, n, &v))
		return -EINVAL;
	fail_alloc_pid = current_proc()->pid;
	fail_alloc_filter = in_armer_syscall;
	fail_alloc_countdown = v;	/* the write itself allocates nothing */
	return (long)n;
}

/*
 * The numeric /proc/sys files (mm/commit.h, and randomize_va_space of kernel/exec.c): the value, the largest one
 * a write may set (else EINVAL, as Linux's minmax handlers), and the one a
 * write sets to 0 (overcommit_ratio and overcommit_kbytes exclude each other).
 */
struct vm_sysctl {
	u64 *val;
	u64 max;
	u64 *cleared;
};

static const struct vm_sysctl vm_sysctls[] = {
	{ &sysctl_overcommit_memory, OVERCOMMIT_NEVER, NULL },
	{ &sysctl_overcommit_ratio, 0x7fffffff, &sysctl_overcommit_kbytes },
	{ &sysctl_overcommit_kbytes, ~0ull, &sysctl_overcommit_ratio },
	{ &sysctl_max_map_count, 0x7fffffff, NULL },
	{ &sysctl_randomize_va_space, 0x7fffffff, NULL },	/* kernel/exec.c; Linux checks no range */
};

long procfs_write_vm_sysctl(struct file *f, const void *buf, size_t n, u64 *off)
{
	const struct vm_sysctl *s = f->sysctl;
	u64 v;

	(void)off;
	if (parse_sysctl_u64(buf, n, &v) || v > s->max)
		return -EINVAL;
	*s->val = v;
	if (s->cleared)
		*s->cleared = 0;
	return (long)n;
}

static void gen_meminfo(struct procbuf *b)
{
	struct page_stats st;
	unsigned long kb = PAGE_SIZE / 1024;

	page_alloc_stats(&st);
	pb_printf(b, "MemTotal:       %8llu kB\n", (unsigned long long)st.total_pages * kb);
	pb_printf(b, "MemFree:        %8llu kB\n", (unsigned long long)st.free_pages * kb);
	pb_printf(b, "MemAvailable:   %8llu kB\n", (unsigned long long)st.free_pages * kb);
	pb_printf(b, "Buffers:        %8llu kB\n", 0ull);
	pb_printf(b, "Cached:         %8llu kB\n", (unsigned long long)pagecache_pages() * kb);
	pb_printf(b, "Shmem:          %8llu kB\n", (unsigned long long)pagecache_pages() * kb);
	pb_printf(b, "PageTables:     %8llu kB\n", (unsigned long long)st.pt_user_pages * kb);
	pb_printf(b, "SecPageTables:  %8llu kB\n", 0ull);
	pb_printf(b, "CommitLimit:    %8llu kB\n", (unsigned long long)vm_commit_limit() * kb);
	pb_printf(b, "Committed_AS:   %8llu kB\n", (unsigned long long)vm_committed_pages * kb);
	pb_printf(b, "AnonHugePages:  %8llu kB\n", (unsigned long long)(thp_total_bytes() >> 10));
	u64 htotal, hfree, hresv, hsize;

	hugetlb_meminfo(&htotal, &hfree, &hresv, &hsize);
	pb_printf(b, "HugePages_Total:   %5llu\n", (unsigned long long)htotal);
	pb_printf(b, "HugePages_Free:    %5llu\n", (unsigned long long)hfree);
	pb_printf(b, "HugePages_Rsvd:    %5llu\n", (unsigned long long)hresv);
	pb_printf(b, "HugePages_Surp:    %5u\n", 0u);
	pb_printf(b, "Hugepagesize:   %8llu kB\n", (unsigned long long)hsize);
	pb_printf(b, "Hugetlb:        %8llu kB\n", (unsigned long long)(hugetlb_total_bytes() >> 10));	/* every size */
}

/* ---- the table of names ---- */

struct procfs_entry;
/* Write the text of e for process p (NULL for a file of /proc itself). */
typedef void (*procfs_gen)(struct procbuf *b, struct proc *p, const struct procfs_entry *e);

struct procfs_entry {
	const char *name;	/* below /proc/<pid>/ when per_pid, else below /proc/ */
	bool per_pid;
	procfs_gen gen;
	const void *arg;	/* what gen needs besides p (a vm_sysctl) */
};

static void e_meminfo(struct procbuf *b, struct proc *p, const struct procfs_entry *e)
{
	(void)p, (void)e;
	gen_meminfo(b);
}

static void e_mounts(struct procbuf *b, struct proc *p, const struct procfs_entry *e)
{
	(void)p, (void)e;
	b->len = mounts_text(b->buf, b->size);
}

static void e_zeroed(struct procbuf *b, struct proc *p, const struct procfs_entry *e)
{
	(void)p, (void)e;
	gen_zeroed(b);
}

static void e_nr_hugepages(struct procbuf *b, struct proc *p, const struct procfs_entry *e)
{
	(void)p, (void)e;
	pb_printf(b, "%llu\n", (unsigned long long)(hugetlb_default() ? hugetlb_default()->nr : 0));
}

static void e_nr_overcommit_hugepages(struct procbuf *b, struct proc *p, const struct procfs_entry *e)
{
	(void)p, (void)e;
	pb_printf(b, "0\n");
}

static void e_fail_alloc(struct procbuf *b, struct proc *p, const struct procfs_entry *e)
{
	(void)p, (void)e;
	pb_printf(b, "%llu %llu\n", (unsigned long long)fail_alloc_countdown, (unsigned long long)fail_alloc_fired);
}

static void e_vm_sysctl(struct procbuf *b, struct proc *p, const struct procfs_entry *e)
{
	(void)p;
	pb_printf(b, "%llu\n", (unsigned long long)*((const struct vm_sysctl *)e->arg)->val);
}

/* A zombie has no address space left: its maps, smaps and pagetables are empty, as on Linux. */
static void e_maps(struct procbuf *b, struct proc *p, const struct procfs_entry *e)
{
	(void)e;
	if (p->mm)
		gen_maps(b, p->mm, false);
}

static void e_smaps(struct procbuf *b, struct proc *p, const struct procfs_entry *e)
{
	(void)e;
	if (p->mm)
		gen_maps(b, p->mm, true);
}

static void e_pagetables(struct procbuf *b, struct proc *p, const struct procfs_entry *e)
{
	(void)e;
	if (p->mm)
		b->len = MIN(ptdump_user_buf(&p->mm->pt, b->buf, b->size), b->size - 1);
}

/* A file of procfs_pid.c, by its path: /proc/<pid>/<name> or /proc/<name>. */
static void e_pidfile(struct procbuf *b, struct proc *p, const struct procfs_entry *e)
{
	char path[64];
	long n;

	if (p)
		snprintk(path, sizeof(path), "/proc/%d/%s", p->pid, e->name);
	else
		snprintk(path, sizeof(path), "/proc/%s", e->name);
	n = procfs_pid_generate(path, b->buf, b->size);
	b->len = n > 0 ? (size_t)n : 0;
}

static const struct procfs_entry procfs_entries[] = {
	{ "meminfo", false, e_meminfo, NULL },
	{ "stat", false, e_pidfile, NULL },
	{ "uptime", false, e_pidfile, NULL },
	{ "loadavg", false, e_pidfile, NULL },
	{ "cpuinfo", false, e_pidfile, NULL },
	{ "mounts", false, e_mounts, NULL },
	{ "zeroed_bytes", false, e_zeroed, NULL },
	{ "sys/vm/nr_hugepages", false, e_nr_hugepages, NULL },
	{ "sys/vm/nr_overcommit_hugepages", false, e_nr_overcommit_hugepages, NULL },
	{ "sys/vm/fail_alloc", false, e_fail_alloc, NULL },
	{ "sys/vm/overcommit_memory", false, e_vm_sysctl, &vm_sysctls[0] },
	{ "sys/vm/overcommit_ratio", false, e_vm_sysctl, &vm_sysctls[1] },
	{ "sys/vm/overcommit_kbytes", false, e_vm_sysctl, &vm_sysctls[2] },
	{ "sys/vm/max_map_count", false, e_vm_sysctl, &vm_sysctls[3] },
	{ "sys/kernel/randomize_va_space", false, e_vm_sysctl, &vm_sysctls[4] },
	{ "maps", true, e_maps, NULL },
	{ "smaps", true, e_smaps, NULL },
	{ "pagetables", true, e_pagetables, NULL },
	{ "mounts", true, e_mounts, NULL },
	{ "stat", true, e_pidfile, NULL },
	{ "status", true, e_pidfile, NULL },
	{ "cmdline", true, e_pidfile, NULL },
	{ "comm", true, e_pidfile, NULL },
};

/* The decimal number at *s (stopping before it could overflow), *s moved past its digits. */
static int take_number(const char **s)
{
	int n = 0;

	while (**s >= '0' && **s <= '9' && n < 100000000)
		n = n * 10 + (*(*s)++ - '0');
	return n;
}

/*
 * "task/<tid>[/x]" below process *p's directory: *p becomes that thread of
 * the process and *rest "x" ("" for its directory). -ENOENT for a tid that
 * is not a thread of *p's process.
 */
static long split_task(struct proc **p, const char **rest)
{
	const char *s = *rest + 5;
	struct proc *t;
	int tid;

	if (*s < '0' || *s > '9')
		return -ENOENT;
	tid = take_number(&s);
	if (*s != '/' && *s != '\0')
		return -ENOENT;
	t = proc_find(tid);
	if (!t || t->group_leader != (*p)->group_leader || t->state == P_EMBRYO)
		return -ENOENT;
	*p = t;
	*rest = *s == '/' ? s + 1 : s;
	return 0;
}

/*
 * Split a path below /proc (no leading or trailing '/') into the process it
 * is about and the rest: "self/x" and "<pid>/x" give that process and "x"
 * (rest "" for the directory itself), "<pid>/task/<tid>/x" that thread
 * (split_task()); any other path gives p NULL and the path itself. -ENOENT
 * for a pid that is not in use.
 */
static long split_pid(const char *rel, struct proc **p, const char **rest)
{
	const char *s = rel;
	int pid = 0;

	*p = NULL;
	*rest = rel;
	if (strncmp(s, "self", 4) == 0 && (s[4] == '/' || s[4] == '\0')) {
		*p = current_proc();
		s += 4;
	} else if (*s >= '0' && *s <= '9') {
		pid = take_number(&s);
		if (*s != '/' && *s != '\0')
			return 0;	/* a name that starts with a digit */
		*p = proc_find(pid);
		if (!*p)
			return -ENOENT;
	} else {
		return 0;
	}
	*rest = *s == '/' ? s + 1 : s;
	if (strncmp(*rest, "task/", 5) == 0)
		return split_task(p, rest);
	return 0;
}

/* The entry for name (per process or not), or NULL. */
static const struct procfs_entry *entry_find(const char *name, bool per_pid)
{
	for (size_t i = 0; i < ARRAY_SIZE(procfs_entries); i++)
		if (procfs_entries[i].per_pid == per_pid && strcmp(procfs_entries[i].name, name) == 0)
			return &procfs_entries[i];
	return NULL;
}

const void *procfs_vm_sysctl(const char *path)
{
	const struct procfs_entry *e;

	if (strncmp(path, "/proc/", 6) != 0)
		return NULL;
	e = entry_find(path + 6, false);
	return e && e->gen == e_vm_sysctl ? e->arg : NULL;
}

/* ---- directories ---- */

#define DT_DIR	4
#define DT_REG	8

struct procfs_dirent {
	u64 d_ino;
	s64 d_off;
	u16 d_reclen;
	u8 d_type;
} __attribute__((packed));

/* Append one linux_dirent64 record to the snapshot (dropped when full). */
static void dir_emit(struct procbuf *b, const char *name, size_t len, u8 type, u64 ino)
{
	size_t reclen = ALIGN_UP(sizeof(struct procfs_dirent) + len + 1, 8);
	struct procfs_dirent h;

	if (b->len + reclen > b->size)
		return;
	h.d_ino = ino;
	h.d_off = (s64)(b->len + reclen);	/* where the next record starts */
	h.d_reclen = (u16)reclen;
	h.d_type = type;
	memset(b->buf + b->len, 0, reclen);
	memcpy(b->buf + b->len, &h, sizeof(h));
	memcpy(b->buf + b->len + sizeof(h), name, len);
	b->len += reclen;
}

/*
 * The entries of the table (per process or not) directly below the
 * directory prefix ("" for the top, else "sys" or "sys/vm"): a name with
 * no further '/' is a file, the first component of a longer one a
 * directory, listed once. Returns how many there were.
 */
static int list_entries(struct procbuf *b, bool per_pid, const char *prefix)
{
	size_t plen = strlen(prefix);
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(procfs_entries); i++) {
		const struct procfs_entry *e = &procfs_entries[i];
		const char *c = e->name, *slash;
		bool dup = false;
		size_t len;

		if (e->per_pid != per_pid)
			continue;
		if (plen) {
			if (strncmp(c, prefix, plen) != 0 || c[plen] != '/')
				continue;
			c += plen + 1;
		}
		slash = strchr(c, '/');
		len = slash ? (size_t)(slash - c) : strlen(c);
		for (size_t j = 0; j < i && !dup; j++) {	/* an earlier entry listed this name */
			const struct procfs_entry *o = &procfs_entries[j];
			const char *oc = o->name;

			if (o->per_pid != per_pid || (plen && (strncmp(oc, prefix, plen) != 0 || oc[plen] != '/')))
				continue;
			oc += plen ? plen + 1 : 0;
			dup = strncmp(oc, c, len) == 0 && (oc[len] == '/' || oc[len] == '\0');
		}
		if (!dup)
			dir_emit(b, c, len, slash ? DT_DIR : DT_REG, 0x1000 + i);
		n++;
	}
	return n;
}

/* ---- /proc/PID/pagemap and /proc/PID/mem: read at the file offset, no snapshot ---- */

#define O_WRONLY_ 1	/* open()'s access modes, kept in f->order */

/*
 * pagemap: 8 bytes per page, the entry of page (offset / 8) of the
 * reader's own address space (PM-*); the file offset and the count must
 * be multiples of 8 (PM-5); past the end of user space it reads as EOF.
 */
static long pagemap_read(struct file *f, void *buf, size_t n, u64 *off)
{
	struct mm *mm = current_proc()->mm;
	size_t i;

	(void)f;
	if (*off % 8 || n % 8)
		return -EINVAL;	/* PM-5 */
	for (i = 0; i < n / 8 && *off / 8 + i < USER_VA_END / PAGE_SIZE; i++) {
		u64 e = mm_pagemap_entry(mm, (unsigned long)((*off / 8 + i) * PAGE_SIZE));

		memcpy((u8 *)buf + i * 8, &e, 8);
	}
	*off += i * 8;
	return (long)(i * 8);
}

/* mem: the reader's address space at the file offset (PM-10..PM-12). */
static long procmem_rw(struct file *f, void *buf, size_t n, u64 *off, bool write)
{
	long r;

	if (write ? f->order == O_RDONLY : f->order == O_WRONLY_)
		return -EBADF;	/* a write to a read-only fd, a read from a write-only one */
	if (*off >= USER_VA_END)
		return -EIO;	/* PM-12 */
	r = mm_access(current_proc()->mm, (unsigned long)*off, buf, MIN(n, USER_VA_END - *off), write);
	if (r > 0)
		*off += (u64)r;
	return r;
}

static long procmem_read(struct file *f, void *buf, size_t n, u64 *off)
{
	return procmem_rw(f, buf, n, off, false);
}

static long procmem_write(struct file *f, const void *buf, size_t n, u64 *off)
{
	return procmem_rw(f, (void *)buf, n, off, true);
}

static long pagemap_write(struct file *f, const void *buf, size_t n, u64 *off)
{
	(void)f; (void)buf; (void)n; (void)off;
	return -EBADF;
}

static const struct file_ops pagemap_ops = { .read = pagemap_read, .write = pagemap_write };
static const struct file_ops procmem_ops = { .read = procmem_read, .write = procmem_write };

long procfs_open_special(const char *path, int flags, struct file **out)
{
	struct proc *p;
	const char *rest;
	bool mem;
	struct file *f;

	if (strncmp(path, "/proc/", 6) != 0 || split_pid(path + 6, &p, &rest) || p != current_proc())
		return 1;	/* PM-13: only the reader's own (self or its pid) */
	mem = strcmp(rest, "mem") == 0;
	if (!mem && strcmp(rest, "pagemap") != 0)
		return 1;
	if (!mem && (flags & 3) != 0)
		return -EACCES;	/* pagemap is read-only */
	f = file_alloc();
	if (!f)
		return -ENFILE;
	f->ops = mem ? &procmem_ops : &pagemap_ops;
	f->order = (unsigned)(flags & 3);
	f->st.mode = S_IFREG | (mem ? 0600 : 0400);
	f->st.nlink = 1;
	*out = f;
	return 0;
}

/* /proc/<pid>/task: one directory per thread of p's process, the leader first (even exited). */
static void gen_task_dir(struct procbuf *b, struct proc *p)
{
	struct proc *leader = p->group_leader;
	char num[16];

	dir_emit(b, ".", 1, DT_DIR, ((u64)leader->pid << 8) | 1);
	dir_emit(b, "..", 2, DT_DIR, (u64)leader->pid << 8);
	dir_emit(b, num, (size_t)snprintk(num, sizeof(num), "%d", leader->pid), DT_DIR, (u64)leader->pid << 8);
	for (struct proc *t = proc_next_thread(leader, NULL); t; t = proc_next_thread(leader, t))
		if (t != leader)
			dir_emit(b, num, (size_t)snprintk(num, sizeof(num), "%d", t->pid), DT_DIR, (u64)t->pid << 8);
}

/* The records of the directory at rel (below /proc, "" for /proc), or -ENOENT if it is none. */
static long gen_dir(struct procbuf *b, struct proc *p, const char *rel)
{
	if (p && strcmp(rel, "task") == 0) {
		gen_task_dir(b, p);
		return 0;
	}
	dir_emit(b, ".", 1, DT_DIR, p ? (u64)p->pid << 8 : 1);
	dir_emit(b, "..", 2, DT_DIR, 1);
	if (p && rel[0])
		return -ENOENT;
	if (p) {
		if (p == p->group_leader)	/* a thread's own directory (task/<tid>) has no task/ */
			dir_emit(b, "task", 4, DT_DIR, ((u64)p->pid << 8) | 1);
		return list_entries(b, true, "") ? 0 : -ENOENT;
	}
	if (rel[0] == '\0') {
		int pids[NPROC], n = proc_pids(pids, NPROC);
		char num[16];

		for (int i = 0; i < n; i++)
			dir_emit(b, num, (size_t)snprintk(num, sizeof(num), "%d", pids[i]), DT_DIR,
				 (u64)pids[i] << 8);
		dir_emit(b, "self", 4, DT_DIR, 2);	/* a directory here, a symlink on Linux */
	}
	return list_entries(b, false, rel) ? 0 : -ENOENT;
}

long procfs_getdents(struct file *f, u8 *kbuf, size_t size)
{
	size_t used = 0;

	while (f->off + used < f->size) {
		const struct procfs_dirent *h = (const void *)(f->data + f->off + used);

		if (used + h->d_reclen > size)
			break;
		used += h->d_reclen;
	}
	if (!used && f->off < f->size)
		return -EINVAL;	/* the buffer cannot hold the next record */
	memcpy(kbuf, f->data + f->off, used);
	f->off += used;
	return (long)used;
}

/* ---- /sys (a sysfs mount): the hugepage pools ---- */

/*
 * The hugepage size a path below /sys/kernel/mm/hugepages names
 * ("hugepages-<N>kB..."); *rest: what follows the size's directory name.
 */
static struct hstate *sysfs_size(const char *rel, const char **rest)
{
	static const char dir[] = "kernel/mm/hugepages/hugepages-";
	u64 kb = 0;
	const char *s;

	if (strncmp(rel, dir, sizeof(dir) - 1) != 0)
		return NULL;
	for (s = rel + sizeof(dir) - 1; *s >= '0' && *s <= '9' && kb < (1ull << 40); s++)
		kb = kb * 10 + (u64)(*s - '0');
	if (strncmp(s, "kB", 2) != 0 || (s[2] != '/' && s[2] != '\0'))
		return NULL;
	for (int i = 0; i < hugetlb_nr_hstates(); i++) {
		if (hugetlb_hstate(i)->size == kb << 10) {
			*rest = s[2] ? s + 3 : s + 2;
			return hugetlb_hstate(i);
		}
	}
	return NULL;
}

static const char *const sysfs_pool_files[] = {
	"nr_hugepages", "free_hugepages", "resv_hugepages", "surplus_hugepages", "nr_overcommit_hugepages",
};

/*
 * A path below /sys (rel: without "/sys/"): a directory listing (*dir) or a
 * file's text. What Linux's sysfs has for hugetlb: kernel/mm/hugepages/
 * with a hugepages-<N>kB directory per size, each with its pool's counts.
 */
static long sysfs_gen(struct procbuf *b, const char *rel, bool *dir)
{
	static const char *const dirs[] = { "", "kernel", "kernel/mm" }, *const subdir[] = { "kernel", "mm", "hugepages" };
	const char *rest;
	struct hstate *h;
	char name[40];

	*dir = true;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (strcmp(rel, dirs[i]) == 0) {
			dir_emit(b, ".", 1, DT_DIR, 0x2000 + i);
			dir_emit(b, "..", 2, DT_DIR, 0x2000);
			dir_emit(b, subdir[i], strlen(subdir[i]), DT_DIR, 0x2001 + i);
			return 0;
		}
	}
	if (strcmp(rel, "kernel/mm/hugepages") == 0) {
		dir_emit(b, ".", 1, DT_DIR, 0x2003);
		dir_emit(b, "..", 2, DT_DIR, 0x2002);
		for (int i = 0; i < hugetlb_nr_hstates(); i++)
			dir_emit(b, name, (size_t)snprintk(name, sizeof(name), "hugepages-%llukB",
							   (unsigned long long)(hugetlb_hstate(i)->size >> 10)),
				 DT_DIR, 0x2100 + (u64)i * 16);
		return 0;
	}
	if (!(h = sysfs_size(rel, &rest)))
		return -ENOENT;
	if (!rest[0]) {
		dir_emit(b, ".", 1, DT_DIR, 0x2100 + (u64)h->index * 16);
		dir_emit(b, "..", 2, DT_DIR, 0x2003);
		for (size_t i = 0; i < ARRAY_SIZE(sysfs_pool_files); i++)
			dir_emit(b, sysfs_pool_files[i], strlen(sysfs_pool_files[i]), DT_REG,
				 0x2101 + (u64)h->index * 16 + i);
		return 0;
	}
	*dir = false;
	if (strcmp(rest, "nr_hugepages") == 0)
		pb_printf(b, "%llu\n", (unsigned long long)h->nr);
	else if (strcmp(rest, "free_hugepages") == 0)
		pb_printf(b, "%llu\n", (unsigned long long)h->free);
	else if (strcmp(rest, "resv_hugepages") == 0)
		pb_printf(b, "%llu\n", (unsigned long long)h->resv);
	else if (strcmp(rest, "surplus_hugepages") == 0 || strcmp(rest, "nr_overcommit_hugepages") == 0)
		pb_printf(b, "0\n");	/* no surplus pages */
	else
		return -ENOENT;
	return 0;
}

const void *sysfs_pool_file(const char *path)
{
	const char *rest;
	struct hstate *h;

	if (strncmp(path, "/sys/", 5) != 0 || !(h = sysfs_size(path + 5, &rest)))
		return NULL;
	return strcmp(rest, "nr_hugepages") == 0 ? h : NULL;
}

/* ---- opening ---- */

/* The snapshot of /sys/<rel> into f (procfs_generate's part for sysfs). */
static long sysfs_generate(const char *rel, struct file *f)
{
	struct procbuf b;
	struct page *pg = pb_start(&b, PROCFS_ORDER);
	bool dir;

	if (!pg)
		return -ENOMEM;
	if (sysfs_gen(&b, rel, &dir)) {
		free_pages(pg, PROCFS_ORDER);
		return -ENOENT;
	}
	if (dir) {
		f->st.mode = S_IFDIR | 0755;	/* as Linux's sysfs directories */
		f->st.nlink = 2;
	}
	f->priv = b.buf;
	f->order = PROCFS_ORDER;
	f->data = (const u8 *)b.buf;
	f->size = b.len;
	return 0;
}

/*
 * Write entry e of p into a fresh snapshot in *b: a buffer of PROCFS_ORDER
 * first, then one twice as big while the text fills it (a /proc/self/maps
 * of thousands of VMAs), up to PROCFS_MAX_ORDER. If the allocator has no
 * bigger block, the last snapshot stays, cut short. Returns its pages
 * (*order: their order), or NULL if not even the first buffer was free.
 */
static struct page *gen_entry(const struct procfs_entry *e, struct proc *p, struct procbuf *b, int *order)
{
	struct page *pg = NULL;

	for (int o = PROCFS_ORDER; o <= PROCFS_MAX_ORDER; o++) {
		struct procbuf bigger;
		struct page *bigger_pg = pb_start(&bigger, o);

		if (!bigger_pg)
			break;
		if (pg)
			free_pages(pg, o - 1);
		pg = bigger_pg;
		*order = o;
		*b = bigger;
		e->gen(b, p, e);
		if (!pb_full(b))
			break;	/* it fit */
	}
	return pg;
}

long procfs_generate(const char *path, struct file *f)
{
	struct page *pg;
	struct procbuf b;
	char rel[256];
	size_t len;
	struct proc *p;
	const char *rest;
	const struct procfs_entry *e;
	int order = PROCFS_ORDER;
	long err;

	bool sys = strncmp(path, "/sys", 4) == 0 && (path[4] == '/' || path[4] == '\0');

	if (!sys && (strncmp(path, "/proc", 5) != 0 || (path[5] != '/' && path[5] != '\0')))
		return -ENOENT;
	path += sys ? 4 : 5;
	while (*path == '/')
		path++;
	len = strlen(path);
	while (len && path[len - 1] == '/')
		len--;
	if (len >= sizeof(rel))
		return -ENAMETOOLONG;
	memcpy(rel, path, len);
	rel[len] = '\0';
	if (sys)
		return sysfs_generate(rel, f);
	err = split_pid(rel, &p, &rest);
	if (err)
		return err;
	e = rest[0] ? entry_find(rest, p != NULL) : NULL;
	if (e) {
		if (!(pg = gen_entry(e, p, &b, &order)))
			return -ENOMEM;
	} else {
		if (!(pg = pb_start(&b, PROCFS_ORDER)))
			return -ENOMEM;
		err = gen_dir(&b, p, rest);
		if (err) {
			free_pages(pg, PROCFS_ORDER);
			return -ENOENT;
		}
		f->st.mode = S_IFDIR | 0555;
		f->st.nlink = 2;
	}
	f->priv = b.buf;
	f->order = order;
	f->data = (const u8 *)b.buf;
	f->size = b.len;
	return 0;
}
