/*
 * vfs.h - open files: the console, pipes, memfds, generated /proc files
 * and the files of the file system (fs/). File descriptors index the
 * per-process table of open files.
 */
#ifndef VFS_H
#define VFS_H

#include "types.h"

struct file;
struct proc;

/* open() flags the VFS looks at (Linux's values, the same on both arches). */
#define O_ACCMODE	3
#define O_RDONLY	0
#define O_CLOEXEC	0x80000	/* 02000000 */

/* The status fstat() reports, before the arch lays it out for the user. */
struct kstat {
	u64 dev, ino, rdev, size, blocks;
	u32 mode, nlink, blksize, uid, gid;
	u64 atime, mtime, ctime;	/* nanoseconds */
};

#ifndef S_IFMT
#define S_IFMT		0170000
#define S_IFREG		0100000
#define S_IFDIR		0040000
#define S_IFCHR		0020000
#endif

struct file_ops {
	/* Read or write at *off through a kernel buffer; bytes done or -errno. */
	long (*read)(struct file *f, void *buf, size_t n, u64 *off);
	long (*write)(struct file *f, const void *buf, size_t n, u64 *off);
	long (*ioctl)(struct file *f, unsigned long cmd, unsigned long arg);
	/* What f is ready for now, POLL* bits (kernel/poll.h); NULL: always
	 * readable and writable. */
	unsigned (*poll)(struct file *f);
	void (*release)(struct file *f);
};

struct file {
	int refs;
	const struct file_ops *ops;
	const u8 *data;		/* contents of a read-only file (initramfs, /proc snapshot) */
	u64 size;
	u64 off;
	struct kstat st;
	void *priv;		/* e.g. the pages of a /proc snapshot */
	unsigned order;		/* ... which are 2^order pages */
	const void *sysctl;	/* a /proc/sys/vm file of kernel/procfs.c's table, a sysfs pool's hstate, or NULL */
	struct inode *inode;	/* a file of the file system (fs/), or NULL */
	struct mount *mnt;	/* ... and the mount it was opened through */
	unsigned flags;		/* open() flags of an fs/ file (access mode, O_APPEND) */
};

/* Lay out st as the arch's struct stat at user address ubuf (0 or -EFAULT). */
long arch_stat_to_user(const struct kstat *st, unsigned long ubuf);

/* Open a /proc path ("/proc/..."): a generated snapshot or a sysctl file. */
long procfs_open(const char *path, int flags, struct file **out);

/* Make f the console (the character device 5:1 or 5:0). */
void console_file_init(struct file *f);

struct file *file_dup(struct file *f);

/* Put f at the current process's lowest free descriptor >= from (close-on-
 * exec clear); returns it, or -EMFILE (RLIMIT_NOFILE). */
long fd_install(struct file *f, unsigned from);

/* A fresh open file (refs 1, everything else zero), or NULL when the table is full. */
struct file *file_alloc(void);

/* Two fresh open files (refs 1, no ops yet), or -ENFILE. */
long file_alloc_pair(struct file *out[2]);
void file_close(struct file *f);

/* Install the console as fds 0, 1 and 2 of p. */
void console_open_stdio(struct proc *p);


/* A write to a writable /proc file (/proc/sys/vm/nr_hugepages). */
long procfs_write(struct file *f, const void *buf, size_t n, u64 *off);

/* A write to /proc/sys/vm/fail_alloc: arm (N) or disarm (0) the countdown (mm/fail_alloc.h). */
/* The /proc/sys/vm entry of procfs.c's table at path, or NULL; a write to its file sets it. */
const void *procfs_vm_sysctl(const char *path);
/* The pool a /sys/kernel/mm/hugepages/hugepages-<N>kB/nr_hugepages path names (a struct hstate), or NULL. */
const void *sysfs_pool_file(const char *path);
long procfs_write_vm_sysctl(struct file *f, const void *buf, size_t n, u64 *off);

long procfs_write_fail_alloc(struct file *f, const void *buf, size_t n, u64 *off);

/* Open /proc/self/pagemap or /proc/self/mem (0 or -errno), or return 1 for another path. */
long procfs_open_special(const char *path, int flags, struct file **out);
/* Build the snapshot of the /proc file or directory at path ("/proc/..."):
 * a file's text, or a directory's linux_dirent64 records (then f->st.mode
 * is S_IFDIR); -ENOENT if procfs has no such name. */
long procfs_generate(const char *path, struct file *f);

/* getdents64 on a /proc directory opened by procfs_open: whole records
 * from the snapshot at f->off; bytes given, or -EINVAL if size cannot
 * hold the next one. */
long procfs_getdents(struct file *f, u8 *kbuf, size_t size);

#endif
