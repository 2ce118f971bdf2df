/*
 * procfs.c - the /proc files the tests read, in Linux's formats:
 * /proc/self/maps, /proc/self/smaps, /proc/self/status (memory lines),
 * /proc/self/pagemap and /proc/self/mem, /proc/meminfo (and /proc/<pid>/...
 * for the current process's own pid).
 *
 * A file's text is generated when it is opened (a snapshot), into pages
 * owned by the open file; pagemap and mem are read (and mem written) at
 * the file offset instead, in the reader's address space.
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
#include "printk.h"
#include "kstring.h"
#include "errno.h"
#include "page_alloc.h"
#include <stdarg.h>
#include <asm/memlayout.h>

#define PROCFS_ORDER 4	/* snapshots up to 64 KiB */

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

/* One /proc/self/maps line, padded as Linux pads it before the name. */
static void maps_line(struct procbuf *b, const struct mm *mm, const struct vma *v)
{
	const char *name = v->name;
	size_t start = b->len;

	if (!name && (v->flags & VM_STACK))
		name = "[stack]";
	else if (!name && (v->flags & VM_HEAP))
		name = "[heap]";
	(void)mm;
	pb_printf(b, "%08lx-%08lx %c%c%c%c %08llx 00:00 %lu ", v->start, v->end,
		  (v->flags & VM_READ) ? 'r' : '-', (v->flags & VM_WRITE) ? 'w' : '-',
		  (v->flags & VM_EXEC) ? 'x' : '-', (v->flags & VM_SHARED) ? 's' : 'p',
		  (unsigned long long)(name && v->name ? v->offset : 0), name && v->name ? 1ul : 0ul);
	if (name) {
		while (b->len - start < 73)
			pb_printf(b, " ");
		pb_printf(b, "%s", name);
	}
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
		pb_printf(b, "AnonHugePages:  %8llu kB\n",
			  (unsigned long long)(thp_range_bytes(mm, v->start, v->end) >> 10));
		if (v->flags & VM_HUGETLB)
			pb_printf(b, "Private_Hugetlb: %7llu kB\n",
				  (unsigned long long)(hugetlb_rss_bytes(mm, (struct vma *)v, v->start, v->end) >> 10));
		pb_printf(b, "VmFlags:%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s\n", (v->flags & VM_READ) ? " rd" : "",
			  (v->flags & VM_WRITE) ? " wr" : "", (v->flags & VM_EXEC) ? " ex" : "",
			  (v->flags & VM_SHARED) ? " sh" : "", (v->flags & VM_MAYREAD) ? " mr" : "",
			  (v->flags & VM_MAYWRITE) ? " mw" : "", (v->flags & VM_MAYEXEC) ? " me" : "",
			  (v->flags & VM_GROWSDOWN) ? " gd" : "", (v->flags & VM_SEQ_READ) ? " sr" : "",
			  (v->flags & VM_RAND_READ) ? " rr" : "", (v->flags & VM_LOCKED) ? " lo" : "",
			  (v->flags & VM_DONTFORK) ? " dc" : "", (v->flags & VM_DONTDUMP) ? " dd" : "",
			  (v->flags & VM_ACCOUNT) ? " ac" : "", (v->flags & VM_WIPEONFORK) ? " wf" : "", (v->flags & VM_SEALED) ? " sl" : "");
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

/* A write to /proc/sys/vm/nr_hugepages: resize the default pool. */
long procfs_write(struct file *f, const void *buf, size_t n, u64 *off)
{
	u64 v;

	(void)f;
	(void)off;
	if (!hugetlb_default() || parse_sysctl_u64(buf, n, &v))
		return -EINVAL;
	hugetlb_set_pool(hugetlb_default(), v);
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
 * The numeric /proc/sys/vm files (mm/commit.h): the value, the largest one
 * a write may set (else EINVAL, as Linux's minmax handlers), and the one a
 * write sets to 0 (overcommit_ratio and overcommit_kbytes exclude each other).
 */
struct vm_sysctl {
	const char *path;
	u64 *val;
	u64 max;
	u64 *cleared;
};

static const struct vm_sysctl vm_sysctls[] = {
	{ "/proc/sys/vm/overcommit_memory", &sysctl_overcommit_memory, OVERCOMMIT_NEVER, NULL },
	{ "/proc/sys/vm/overcommit_ratio", &sysctl_overcommit_ratio, 0x7fffffff, &sysctl_overcommit_kbytes },
	{ "/proc/sys/vm/overcommit_kbytes", &sysctl_overcommit_kbytes, ~0ull, &sysctl_overcommit_ratio },
	{ "/proc/sys/vm/max_map_count", &sysctl_max_map_count, 0x7fffffff, NULL },
};

const void *procfs_vm_sysctl(const char *path)
{
	for (size_t i = 0; i < ARRAY_SIZE(vm_sysctls); i++)
		if (strcmp(path, vm_sysctls[i].path) == 0)
			return &vm_sysctls[i];
	return NULL;
}

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
	pb_printf(b, "Hugetlb:        %8llu kB\n", (unsigned long long)(htotal * hsize));
}

/* Strip "/proc/self/" or "/proc/<own pid>/"; NULL if it names another process. */
static const char *self_path(const char *path, int pid)
{
	const char *p = path + 6;	/* after "/proc/" */
	int n = 0;

	if (strncmp(p, "self/", 5) == 0)
		return p + 5;
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		n = n * 10 + (*p++ - '0');
	return n == pid && *p == '/' ? p + 1 : NULL;
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
	const char *rest = self_path(path, current_proc()->pid);
	bool mem = rest && strcmp(rest, "mem") == 0;
	struct file *f;

	if (!mem && !(rest && strcmp(rest, "pagemap") == 0))
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

long procfs_generate(const char *path, struct file *f)
{
	struct proc *me = current_proc();
	struct page *pg = alloc_pages(0, PROCFS_ORDER);
	struct procbuf b;
	const char *rest = self_path(path, me->pid);
	long n;

	if (!pg)
		return -ENOMEM;
	b.buf = page_address(pg);
	b.size = PAGE_SIZE << PROCFS_ORDER;
	b.len = 0;
	b.buf[0] = '\0';
	if (strcmp(path, "/proc/meminfo") == 0)
		gen_meminfo(&b);
	else if (strcmp(path, "/proc/mounts") == 0 || (rest && strcmp(rest, "mounts") == 0))
		b.len = mounts_text(b.buf, b.size);
	else if (strcmp(path, "/proc/sys/vm/nr_hugepages") == 0)
		pb_printf(&b, "%llu\n", (unsigned long long)(hugetlb_default() ? hugetlb_default()->nr : 0));
	else if (strcmp(path, "/proc/sys/vm/fail_alloc") == 0)
		pb_printf(&b, "%llu %llu\n", (unsigned long long)fail_alloc_countdown,
			  (unsigned long long)fail_alloc_fired);
	else if (strcmp(path, "/proc/sys/vm/nr_overcommit_hugepages") == 0)
		pb_printf(&b, "0\n");
	else if (procfs_vm_sysctl(path))
		pb_printf(&b, "%llu\n", (unsigned long long)*((const struct vm_sysctl *)procfs_vm_sysctl(path))->val);
	else if (strcmp(path, "/proc/zeroed_bytes") == 0)
		gen_zeroed(&b);
	else if (rest && strcmp(rest, "pagetables") == 0)
		b.len = MIN(ptdump_user_buf(&me->mm->pt, b.buf, b.size), b.size - 1);
	else if (rest && strcmp(rest, "maps") == 0)
		gen_maps(&b, me->mm, false);
	else if (rest && strcmp(rest, "smaps") == 0)
		gen_maps(&b, me->mm, true);
	else if ((n = procfs_pid_generate(path, b.buf, b.size)) >= 0)
		b.len = (size_t)n;	/* the process and system files (procfs_pid.c) */
	else {
		free_pages(pg, PROCFS_ORDER);
		return -ENOENT;
	}
	f->priv = b.buf;
	f->order = PROCFS_ORDER;
	f->data = (const u8 *)b.buf;
	f->size = b.len;
	return 0;
}
