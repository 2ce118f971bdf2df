/*
 * open.c - open files of the file system: opening (with O_CREAT, O_EXCL,
 * O_TRUNC, O_DIRECTORY, O_NOFOLLOW), reading and writing regular files
 * through the page cache, directories (getdents64) and the character
 * devices of /dev.
 */
#include "fs.h"
#include "fs_file.h"
#include "vfs.h"
#include "proc.h"
#include "random.h"
#include "kstring.h"
#include "errno.h"
#include "page_alloc.h"

/* ---- regular files ---- */

static long reg_read(struct file *f, void *buf, size_t n, u64 *off)
{
	size_t got;

	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	got = file_read_data(f->inode, buf, n, *off);
	*off += got;
	return (long)got;
}

static long reg_write(struct file *f, const void *buf, size_t n, u64 *off)
{
	long put;

	if ((f->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (f->flags & O_APPEND)
		*off = f->inode->size;
	if (n == 0)
		return 0;
	put = file_write_data(f->inode, buf, n, *off);
	if (put > 0)
		*off += (u64)put;
	return put;
}

static void inode_file_release(struct file *f)
{
	if (S_ISREG(f->inode->mode) && (f->flags & O_ACCMODE) != O_RDONLY)
		f->inode->writecount--;
	f->mnt->refs--;
	inode_put(f->inode);
}

void fs_file_release(struct file *f)
{
	inode_file_release(f);
}

static const struct file_ops reg_ops = { .read = reg_read, .write = reg_write,
					 .release = inode_file_release };

/* ---- directories ---- */

static long dir_read(struct file *f, void *buf, size_t n, u64 *off)
{
	(void)f; (void)buf; (void)n; (void)off;
	return -EISDIR;
}

static long dir_write(struct file *f, const void *buf, size_t n, u64 *off)
{
	(void)f; (void)buf; (void)n; (void)off;
	return -EBADF;
}

static const struct file_ops dir_ops = { .read = dir_read, .write = dir_write,
					 .release = inode_file_release };

/* Linux's struct linux_dirent64, without the name. */
struct dirent64_head {
	u64 d_ino;
	s64 d_off;
	u16 d_reclen;
	u8 d_type;
} __attribute__((packed));

#define DT_CHR	2
#define DT_DIR	4
#define DT_REG	8
#define DT_LNK	10

static u8 dtype(u32 mode)
{
	return S_ISDIR(mode) ? DT_DIR : S_ISREG(mode) ? DT_REG : S_ISLNK(mode) ? DT_LNK : DT_CHR;
}

/*
 * Fill kbuf (size bytes) with the entries of f's directory from f->off on:
 * "." (offset 0), ".." (1), then the entries whose cookie is above the
 * offset. f->off becomes the cookie of the last entry given. Returns the
 * bytes filled; -EINVAL if not even one entry fits.
 */
long fs_getdents(struct file *f, u8 *kbuf, size_t size)
{
	struct inode *dir = f->inode;
	size_t used = 0;

	if (!S_ISDIR(dir->mode))
		return -ENOTDIR;
	for (;;) {
		const char *name;
		size_t len, reclen;
		u64 ino, cookie;
		u8 type;
		struct dirent64_head h;

		if (f->off == 0) {
			name = ".", len = 1, ino = dir->ino, type = DT_DIR, cookie = 1;
		} else if (f->off == 1) {
			struct inode *p = dir == f->mnt->sb->root ? dir : dir->parent;

			name = "..", len = 2, ino = p->ino, type = DT_DIR, cookie = 2;
		} else {
			struct fs_dirent *d = dir->entries;

			while (d && d->cookie <= f->off)
				d = d->next;
			if (!d || dir->nlink == 0)
				break;
			name = d->name, len = d->len, ino = d->inode->ino, type = dtype(d->inode->mode);
			cookie = d->cookie;
		}
		reclen = ALIGN_UP(sizeof(h) + len + 1, 8);
		if (used + reclen > size)
			return used ? (long)used : -EINVAL;
		h.d_ino = ino;
		h.d_off = (s64)cookie;
		h.d_reclen = (u16)reclen;
		h.d_type = type;
		memset(kbuf + used, 0, reclen);
		memcpy(kbuf + used, &h, sizeof(h));
		memcpy(kbuf + used + sizeof(h), name, len);
		used += reclen;
		f->off = cookie;
	}
	inode_touch(dir, T_A);
	return (long)used;
}

/* ---- character devices ---- */

static long null_read(struct file *f, void *buf, size_t n, u64 *off)
{
	(void)f; (void)buf; (void)n; (void)off;
	return 0;
}

static long null_write(struct file *f, const void *buf, size_t n, u64 *off)
{
	(void)f; (void)buf; (void)off;
	return (long)n;
}

static long zero_read(struct file *f, void *buf, size_t n, u64 *off)
{
	(void)f; (void)off;
	memset(buf, 0, n);
	return (long)n;
}

static long full_write(struct file *f, const void *buf, size_t n, u64 *off)
{
	(void)f; (void)buf; (void)n; (void)off;
	return -ENOSPC;
}

static long random_read(struct file *f, void *buf, size_t n, u64 *off)
{
	(void)f; (void)off;
	for (size_t i = 0; i < n; i += 8) {
		u64 r = get_random_u64();

		memcpy((u8 *)buf + i, &r, MIN((size_t)8, n - i));
	}
	return (long)n;
}

static const struct file_ops null_ops = { .read = null_read, .write = null_write,
					  .release = inode_file_release };
static const struct file_ops zero_ops = { .read = zero_read, .write = null_write,
					  .release = inode_file_release };
static const struct file_ops full_ops = { .read = zero_read, .write = full_write,
					  .release = inode_file_release };
static const struct file_ops random_ops = { .read = random_read, .write = null_write,
					    .release = inode_file_release };

/* The ops of device rdev, or NULL (ENXIO). The console is set up by kernel/vfs.c. */
static long chrdev_open(struct file *f, u32 rdev)
{
	switch (rdev) {
	case 1 << 8 | 3: f->ops = &null_ops; return 0;
	case 1 << 8 | 5: f->ops = &zero_ops; return 0;
	case 1 << 8 | 7: f->ops = &full_ops; return 0;
	case 1 << 8 | 8:
	case 1 << 8 | 9: f->ops = &random_ops; return 0;
	case 5 << 8 | 0:
	case 5 << 8 | 1: console_file_init(f); return 0;
	default: return -ENXIO;
	}
}

/* ---- stat ---- */

void fs_stat(struct inode *ip, struct kstat *st)
{
	memset(st, 0, sizeof(*st));
	st->dev = ip->sb->dev;
	st->ino = ip->ino;
	st->mode = ip->mode;
	st->nlink = ip->nlink;
	st->uid = ip->uid;
	st->gid = ip->gid;
	st->rdev = ip->rdev;
	st->size = S_ISDIR(ip->mode) ? 0 : ip->size;
	st->blksize = PAGE_SIZE;
	st->blocks = ip->pages.nr * (PAGE_SIZE / 512);
	st->atime = ip->atime;
	st->mtime = ip->mtime;
	st->ctime = ip->ctime;
}

/* ---- open ---- */

/* A new open file of loc's inode, with its ops. */
static long file_of(struct fs_loc loc, int flags, struct file **out)
{
	struct inode *ip = loc.inode;
	struct file *f = file_alloc();
	long err = 0;

	if (!f)
		return -ENFILE;
	f->inode = inode_get(ip);
	f->mnt = loc.mnt;
	f->mnt->refs++;
	f->flags = (unsigned)flags & (O_ACCMODE | O_APPEND | O_NONBLOCK);
	f->st.mode = ip->mode;
	f->st.nlink = 1;
	if (S_ISREG(ip->mode) && (flags & O_ACCMODE) != O_RDONLY)
		ip->writecount++;	/* the caller checked that no process runs it */
	if (S_ISDIR(ip->mode))
		f->ops = &dir_ops;
	else if (S_ISCHR(ip->mode))
		err = chrdev_open(f, ip->rdev);
	else
		f->ops = &reg_ops;
	if (err) {
		inode_put(ip);
		f->mnt->refs--;
		f->refs = 0;
		return err;
	}
	*out = f;
	return 0;
}

/* A new regular file called name in dir; -ENOMEM or -ENAMETOOLONG. */
static long create_file(struct fs_loc dir, const char *name, u32 mode, struct fs_loc *out)
{
	struct inode *ip = inode_alloc(dir.inode->sb, S_IFREG | (mode & 07777 & ~fs_umask()));
	long err;

	if (!ip)
		return -ENOMEM;
	err = dir_add(dir.inode, name, strlen(name), ip);
	if (err) {
		inode_maybe_free(ip);
		return err;
	}
	out->mnt = dir.mnt;
	out->inode = ip;
	return 0;
}

long fs_open(struct fs_loc start, const char *path, int flags, u32 mode, struct file **out)
{
	unsigned wf = (flags & O_NOFOLLOW) ? 0 : WALK_FOLLOW;
	struct fs_loc loc;
	const char *proc_rest;
	int acc = flags & O_ACCMODE;
	long err;

	if ((flags & O_TMPFILE_BIT) || ((flags & O_CREAT) && (flags & O_DIRECTORY)))
		return (flags & O_TMPFILE_BIT) ? -EOPNOTSUPP : -EINVAL;
	if (flags & O_CREAT) {
		struct fs_loc dir;
		char last[NAME_MAX + 1];
		bool slash;

		err = fs_walk_parent(start, path, &dir, last, &slash);
		if (err)
			return err;
		if (!strcmp(last, "") || !strcmp(last, ".") || !strcmp(last, ".."))
			return -EISDIR;
		err = fs_walk(dir, last, (flags & O_EXCL) ? 0 : wf, &loc, NULL);
		if (err == -ENOENT) {
			struct fs_dirent *d = dir_find(dir.inode, last, strlen(last));

			if (d)	/* a dangling symlink: Linux creates its target; we refuse */
				return -ENOENT;
			if (slash)
				return -EISDIR;
			err = create_file(dir, last, mode, &loc);
			if (err)
				return err;
			inode_touch(loc.inode, 0);
			flags &= ~O_TRUNC;
		} else if (err) {
			return err;
		} else if (flags & O_EXCL) {
			return -EEXIST;
		}
	} else {
		err = fs_walk(start, path, wf | WALK_PROC, &loc, &proc_rest);
		if (err)
			return err;
		if (proc_rest) {
			char name[256];

			if ((size_t)snprintk(name, sizeof(name), "%s/%s", fs_sb_synthetic_root(loc.inode->sb),
					     proc_rest) >= sizeof(name))
				return -ENAMETOOLONG;
			return procfs_open(name, flags, out);
		}
		if (fs_sb_synthetic(loc.inode->sb))	/* the root of a proc or sysfs mount: listed by procfs */
			return procfs_open(fs_sb_synthetic_root(loc.inode->sb), flags, out);
	}
	if (S_ISLNK(loc.inode->mode))
		return -ELOOP;	/* O_NOFOLLOW on a symlink */
	if ((flags & O_DIRECTORY) && !S_ISDIR(loc.inode->mode))
		return -ENOTDIR;
	if (S_ISDIR(loc.inode->mode) && (acc != O_RDONLY || (flags & O_CREAT)))
		return -EISDIR;
	if (fs_sb_synthetic(loc.inode->sb) && acc != O_RDONLY)
		return -EACCES;
	if (S_ISREG(loc.inode->mode) && acc != O_RDONLY && loc.inode->writecount < 0)
		return -ETXTBSY;	/* a running program's file */
	if ((flags & O_TRUNC) && S_ISREG(loc.inode->mode) && acc != O_RDONLY)
		file_truncate(loc.inode, 0);
	return file_of(loc, flags, out);
}

long fs_ftruncate_file(struct file *f, s64 len)
{
	if (len < 0)
		return -EINVAL;
	if (!S_ISREG(f->inode->mode) || (f->flags & O_ACCMODE) == O_RDONLY)
		return -EINVAL;
	if (f->flags & O_APPEND)
		return -EPERM;
	return file_truncate(f->inode, (u64)len);
}

long fs_fallocate_file(struct file *f, int mode, s64 off, s64 len)
{
	if ((f->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (S_ISDIR(f->inode->mode))
		return -EISDIR;
	if (!S_ISREG(f->inode->mode))
		return -ENODEV;
	if ((u64)off + (u64)len > MAX_FILE_BYTES)
		return -EFBIG;	/* vfs_fallocate(), before the file system's own check */
	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE))
		return -EOPNOTSUPP;	/* tmpfs supports only these, as shmem_fallocate() */
	if (mode & FALLOC_FL_PUNCH_HOLE) {
		file_punch(f->inode, (u64)off, (u64)off + (u64)len);
		return 0;
	}
	return file_allocate(f->inode, (u64)off, (u64)len, mode & FALLOC_FL_KEEP_SIZE);
}

/* ---- exec ---- */

/* ---- mmap ---- */

/* The entry naming ip somewhere below dir, and its directory, or NULL. */
static struct fs_dirent *find_name(struct inode *dir, struct inode *ip, struct inode **in)
{
	for (struct fs_dirent *d = dir->entries; d; d = d->next) {
		struct fs_dirent *sub;

		if (d->inode == ip) {
			*in = dir;
			return d;
		}
		if (S_ISDIR(d->inode->mode) && !d->inode->mounted && (sub = find_name(d->inode, ip, in)))
			return sub;
	}
	return NULL;
}

/*
 * The path a mapping of ip (reached through mnt) shows in /proc/<pid>/maps:
 * found under mnt now, at its first mapping or exec, and kept in one page
 * for the inode's life (the VMAs hold the inode, so the name outlives
 * them). NULL (an unnamed mapping) when out of memory.
 */
static const char *map_name(struct mount *mnt, struct inode *ip)
{
	struct inode *dir;
	struct fs_dirent *d;
	char *buf;
	long n;

	if (ip->map_name)
		return ip->map_name;
	if (!(buf = alloc_page_va(0)))
		return NULL;
	d = find_name(mnt->sb->root, ip, &dir);
	n = d ? fs_path_of((struct fs_loc){ mnt, dir }, buf, PAGE_SIZE - NAME_MAX - 2) : -1;
	if (n > 0)
		snprintk(buf + n - 1, PAGE_SIZE - (size_t)n, "%s%s", n > 2 ? "/" : "", d->name);
	else
		snprintk(buf, PAGE_SIZE, "/ (deleted)");
	inode_set_map_name(ip, buf);
	free_page_va(buf);
	return ip->map_name;
}

long fs_exec_open(const char *path, struct inode **out, const char **name, void *hdr, size_t hdr_size, u64 *size)
{
	struct fs_loc loc;
	long err;

	if (!*path)
		return -ENOENT;
	err = fs_walk(fs_cwd(), path, WALK_FOLLOW, &loc, NULL);
	if (err)
		return err;
	if (!S_ISREG(loc.inode->mode) || !(loc.inode->mode & 0111) ||
	    fs_sb_synthetic(loc.inode->sb))
		return -EACCES;
	if (loc.inode->writecount > 0)
		return -ETXTBSY;	/* open for writing somewhere */
	*out = inode_get(loc.inode);
	*name = map_name(loc.mnt, loc.inode);
	*size = loc.inode->size;
	memset(hdr, 0, hdr_size);
	file_read_data(loc.inode, hdr, hdr_size, 0);
	inode_touch(loc.inode, T_A);
	return 0;
}

size_t fs_inode_read(struct inode *ip, void *buf, size_t n, u64 off)
{
	if (off >= ip->size)
		return 0;
	return file_read_data(ip, buf, MIN(n, ip->size - off), off);
}

struct vma_file *fs_inode_vma_file(struct inode *ip)
{
	return &ip->vf;
}

void fs_inode_put(struct inode *ip)
{
	inode_put(ip);
}

long fs_mmap_file(struct file *f, unsigned long prot, bool shared, struct vma_file **vf, const char **name)
{
	if (!S_ISREG(f->inode->mode))
		return -ENODEV;
	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EACCES;
	if (shared && (prot & 2 /* PROT_WRITE */) && (f->flags & O_ACCMODE) != O_RDWR)
		return -EACCES;
	*vf = &f->inode->vf;
	*name = map_name(f->mnt, f->inode);
	return 0;
}
