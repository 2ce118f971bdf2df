/*
 * vfs.c - open files: the table of them, the console and /proc
 * snapshots (see vfs.h; the file system itself is fs/).
 */
#include "vfs.h"
#include "tty.h"
#include "poll.h"
#include "proc.h"
#include "console.h"
#include "printk.h"
#include "kstring.h"
#include "errno.h"
#include "page_alloc.h"
#include "fs_file.h"

#define NFILE 256	/* open files in the whole system */

static struct file files[NFILE];

struct file *file_alloc(void)
{
	for (int i = 0; i < NFILE; i++) {
		if (files[i].refs == 0) {
			memset(&files[i], 0, sizeof(files[i]));
			files[i].refs = 1;
			return &files[i];
		}
	}
	return NULL;
}

long file_alloc_pair(struct file *out[2])
{
	out[0] = file_alloc();
	out[1] = out[0] ? file_alloc() : NULL;
	if (!out[1]) {
		if (out[0])
			out[0]->refs = 0;
		return -ENFILE;
	}
	return 0;
}

struct file *file_dup(struct file *f)
{
	f->refs++;
	return f;
}

void file_close(struct file *f)
{
	BUG_ON(f->refs <= 0);
	if (--f->refs)
		return;
	if (f->ops->release)
		f->ops->release(f);
}

/* ---- read-only memory files (/proc snapshots) ---- */

static long mem_read(struct file *f, void *buf, size_t n, u64 *off)
{
	if (*off >= f->size)
		return 0;
	n = MIN(n, f->size - *off);
	memcpy(buf, f->data + *off, n);
	*off += n;
	return (long)n;
}

static long mem_write(struct file *f, const void *buf, size_t n, u64 *off)
{
	(void)f; (void)buf; (void)n; (void)off;
	return -EBADF;	/* opened read-only */
}

static void snapshot_release(struct file *f)
{
	if (f->priv)
		free_pages(phys_to_page(virt_to_phys(f->priv)), f->order);
}

static const struct file_ops procfs_ops = { .read = mem_read, .write = mem_write,
					    .release = snapshot_release };
static const struct file_ops sysctl_ops = { .read = mem_read, .write = procfs_write,
					    .release = snapshot_release };
static const struct file_ops vm_sysctl_ops = { .read = mem_read, .write = procfs_write_vm_sysctl,
					       .release = snapshot_release };
/* A /proc directory: its snapshot holds linux_dirent64 records for getdents64. */
static long dir_read(struct file *f, void *buf, size_t n, u64 *off)
{
	(void)f; (void)buf; (void)n; (void)off;
	return -EISDIR;
}

static const struct file_ops procfs_dir_ops = { .read = dir_read, .write = mem_write,
						.release = snapshot_release };
static const struct file_ops fail_alloc_ops = { .read = mem_read, .write = procfs_write_fail_alloc,
						.release = snapshot_release };

/* ---- the console ---- */

#define TCGETS		0x5401
#define TIOCGWINSZ	0x5413

static long con_read(struct file *f, void *buf, size_t n, u64 *off)
{
	(void)f; (void)off;
	return console_read_bytes(buf, n);
}

static long con_write(struct file *f, const void *buf, size_t n, u64 *off)
{
	(void)f; (void)off;
	console_write(buf, n);
	return (long)n;
}

static long con_ioctl(struct file *f, unsigned long cmd, unsigned long arg)
{
	(void)f;
	return console_tty_ioctl(cmd, arg);
}

static unsigned con_poll(struct file *f)
{
	(void)f;
	return (tty_can_read() ? POLLIN | POLLRDNORM : 0) | POLLOUT | POLLWRNORM;
}

static const struct file_ops console_ops = { .read = con_read, .write = con_write,
					     .ioctl = con_ioctl, .poll = con_poll };
/* The console opened through a device inode of fs/ (/dev/console, /dev/tty). */
static const struct file_ops console_dev_ops = { .read = con_read, .write = con_write,
						 .ioctl = con_ioctl, .poll = con_poll,
						 .release = fs_file_release };

void console_open_stdio(struct proc *p)
{
	struct file *f = file_alloc();

	BUG_ON(!f);
	f->ops = &console_ops;
	f->st.mode = S_IFCHR | 0620;
	f->st.rdev = (5 << 8) | 1;	/* like /dev/console */
	f->st.nlink = 1;
	f->st.blksize = 1024;
	p->fdt->files[0] = f;
	p->fdt->files[1] = file_dup(f);
	p->fdt->files[2] = file_dup(f);
}

/* ---- /proc ---- */

void console_file_init(struct file *f)
{
	f->ops = &console_dev_ops;
}

long procfs_open(const char *path, int flags, struct file **out)
{
	bool fail_alloc = strcmp(path, "/proc/sys/vm/fail_alloc") == 0;
	const void *vm_sysctl = procfs_vm_sysctl(path), *pool = sysfs_pool_file(path);
	bool sysctl = fail_alloc || vm_sysctl || pool || strcmp(path, "/proc/sys/vm/nr_hugepages") == 0;
	struct file *f;
	long err;

	if ((err = procfs_open_special(path, flags, out)) != 1)
		return err;	/* pagemap, mem */
	if ((flags & O_ACCMODE) != O_RDONLY && (!sysctl || current_proc()->uid[1] != 0))
		return -EACCES;	/* a sysctl is root's 0644 file: only euid 0 writes it */
	f = file_alloc();
	if (!f)
		return -ENFILE;
	f->ops = fail_alloc ? &fail_alloc_ops : vm_sysctl ? &vm_sysctl_ops : sysctl ? &sysctl_ops : &procfs_ops;
	f->sysctl = vm_sysctl ? vm_sysctl : pool;	/* sysctl_ops: the pool procfs_write resizes */
	f->st.mode = S_IFREG | (sysctl ? 0644 : 0444);
	f->st.nlink = 1;
	err = procfs_generate(path, f);
	if (!err && (f->st.mode & S_IFMT) == S_IFDIR)
		f->ops = &procfs_dir_ops;
	else if (!err && (flags & O_DIRECTORY))
		err = -ENOTDIR;
	if (err) {
		if (f->priv)
			snapshot_release(f);
		f->refs = 0;
		return err;
	}
	*out = f;
	return 0;
}
