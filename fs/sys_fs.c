/*
 * sys_fs.c - the file system calls: open, stat, directories, links,
 * rename, the cwd and umask, modes and times, sizes, statfs, fsync,
 * pread/pwrite. Arguments are checked in Linux's order where it matters
 * for the errno.
 */
#include "fs.h"
#include "fs_file.h"
#include "syscall.h"
#include "proc.h"
#include "vfs.h"
#include "uaccess.h"
#include "page_alloc.h"
#include "kstring.h"
#include "errno.h"
#include "slab.h"

#define AT_FDCWD		(-100)
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_REMOVEDIR		0x200
#define AT_EACCESS		0x200
#define AT_SYMLINK_FOLLOW	0x400
#define AT_NO_AUTOMOUNT		0x800
#define AT_EMPTY_PATH		0x1000
#define AT_STATX_SYNC_TYPE	0x6000

#define RENAME_NOREPLACE	1
#define RENAME_EXCHANGE		2
#define RENAME_WHITEOUT		4

static struct file *fd_file(int fd)
{
	return fd >= 0 && fd < NOFILE ? current_proc()->fdt->files[fd] : NULL;
}

/*
 * Resolve (dirfd, upath) for a call that acts on the object itself:
 * AT_EMPTY_PATH with "" names dirfd's file (*f set, loc untouched if it is
 * not an fs/ file). follow: the last symlink is followed.
 */
static long lookup_at(int dirfd, unsigned long upath, bool follow, bool empty_ok,
		      struct fs_loc *loc, struct file **f)
{
	struct fs_loc start;
	char *path;
	long err = path_from_user(upath, &path, empty_ok);

	*f = NULL;
	if (err)
		return err;
	if (!path[0]) {
		path_free(path);
		if (dirfd == AT_FDCWD) {
			*loc = fs_cwd();
			return 0;
		}
		if (!(*f = fd_file(dirfd)))
			return -EBADF;
		if ((*f)->inode) {
			loc->mnt = (*f)->mnt;
			loc->inode = (*f)->inode;
		} else {
			loc->inode = NULL;
		}
		return 0;
	}
	err = fs_start(dirfd, &start);
	if (!err)
		err = fs_walk(start, path, follow ? WALK_FOLLOW : 0, loc, NULL);
	path_free(path);
	return err;
}

/* Resolve (dirfd, upath) to its directory and last name. */
static long parent_at(int dirfd, unsigned long upath, struct fs_loc *dir, char *last, bool *slash)
{
	struct fs_loc start;
	char *path;
	long err = path_from_user(upath, &path, false);

	if (err)
		return err;
	err = fs_start(dirfd, &start);
	if (!err)
		err = fs_walk_parent(start, path, dir, last, slash);
	path_free(path);
	return err;
}

static bool is_dot(const char *s)
{
	return !strcmp(s, ".") || !strcmp(s, "..") || !s[0];
}

/* ---- open, stat ---- */

long sys_openat(const unsigned long *a)
{
	struct fs_loc start;
	struct file *f;
	char *path;
	int flags = arg_int(a[2]);
	long err = path_from_user(a[1], &path, false), fd;

	if (err)
		return err;
	err = fs_start(arg_int(a[0]), &start);
	if (!err)
		err = fs_open(start, path, flags, arg_uint(a[3]), &f);
	path_free(path);
	if (err)
		return err;
	fd = fd_install(f, 0);
	if (fd < 0)
		file_close(f);
	else
		current_proc()->fdt->cloexec[fd] = flags & O_CLOEXEC;
	return fd;
}

/* The status of an open file: an fs/ file's inode, else what the file says. */
static void file_stat(struct file *f, struct kstat *st)
{
	if (f->inode)
		fs_stat(f->inode, st);
	else
		*st = f->st;
}

long sys_fstat(const unsigned long *a)
{
	struct file *f = fd_file(arg_int(a[0]));
	struct kstat st;

	if (!f)
		return -EBADF;
	file_stat(f, &st);
	return arch_stat_to_user(&st, a[1]);
}

/* The status of (dirfd, upath) for fstatat and statx; /proc files are opened to see them. */
static long stat_at(int dirfd, unsigned long upath, int flags, struct kstat *st)
{
	struct fs_loc loc, start;
	struct file *f;
	const char *proc_rest;
	char *path;
	long err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	err = path_from_user(upath, &path, flags & AT_EMPTY_PATH);
	if (err)
		return err;
	if (!path[0]) {
		path_free(path);
		if (dirfd == AT_FDCWD) {
			fs_stat(fs_cwd().inode, st);
			return 0;
		}
		if (!(f = fd_file(dirfd)))
			return -EBADF;
		file_stat(f, st);
		return 0;
	}
	err = fs_start(dirfd, &start);
	if (!err)
		err = fs_walk(start, path, ((flags & AT_SYMLINK_NOFOLLOW) ? 0 : WALK_FOLLOW) | WALK_PROC,
			      &loc, &proc_rest);
	if (!err && proc_rest) {
		char name[256];

		snprintk(name, sizeof(name), "%s/%s", fs_sb_synthetic_root(loc.inode->sb), proc_rest);
		err = procfs_open(name, 0, &f);
		if (!err) {
			*st = f->st;
			file_close(f);
		}
	} else if (!err) {
		fs_stat(loc.inode, st);
	}
	path_free(path);
	return err;
}

long sys_newfstatat(const unsigned long *a)
{
	struct kstat st;
	long err = stat_at(arg_int(a[0]), a[1], arg_int(a[3]), &st);

	return err ? err : arch_stat_to_user(&st, a[2]);
}

/* Linux's struct statx (256 bytes on every arch). */
struct statx_ts { s64 tv_sec; u32 tv_nsec; s32 reserved; };
struct statx_user {
	u32 stx_mask, stx_blksize;
	u64 stx_attributes;
	u32 stx_nlink, stx_uid, stx_gid;
	u16 stx_mode, pad1;
	u64 stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct statx_ts stx_atime, stx_btime, stx_ctime, stx_mtime;
	u32 stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	u64 spare[14];
};
_Static_assert(sizeof(struct statx_user) == 256, "struct statx");

#define STATX_BASIC_STATS	0x7ff
#define STATX__RESERVED		0x80000000u

static struct statx_ts to_statx_ts(u64 ns)
{
	struct statx_ts t = { (s64)(ns / 1000000000ull), (u32)(ns % 1000000000ull), 0 };

	return t;
}

long sys_statx(const unsigned long *a)
{
	struct kstat st;
	struct statx_user sx;
	long err;

	if (arg_uint(a[3]) & STATX__RESERVED)
		return -EINVAL;
	if ((arg_int(a[2]) & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		return -EINVAL;
	err = stat_at(arg_int(a[0]), a[1], arg_int(a[2]), &st);
	if (err)
		return err;
	memset(&sx, 0, sizeof(sx));
	sx.stx_mask = STATX_BASIC_STATS;
	sx.stx_blksize = st.blksize;
	sx.stx_nlink = st.nlink;
	sx.stx_uid = st.uid;
	sx.stx_gid = st.gid;
	sx.stx_mode = (u16)st.mode;
	sx.stx_ino = st.ino;
	sx.stx_size = st.size;
	sx.stx_blocks = st.blocks;
	sx.stx_atime = to_statx_ts(st.atime);
	sx.stx_mtime = to_statx_ts(st.mtime);
	sx.stx_ctime = to_statx_ts(st.ctime);
	sx.stx_rdev_major = (u32)(st.rdev >> 8);
	sx.stx_rdev_minor = (u32)(st.rdev & 0xff);
	sx.stx_dev_major = 0;
	sx.stx_dev_minor = (u32)st.dev;
	return copy_to_user((void *)a[4], &sx, sizeof(sx)) ? -EFAULT : 0;
}

#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4

/* faccessat2(dirfd, path, mode, flags); faccessat is the same with flags 0. */
long sys_faccessat2(const unsigned long *a)
{
	int mode = arg_int(a[2]), flags = arg_int(a[3]);
	struct fs_loc loc;
	struct file *f;
	long err;

	if (mode & ~(F_OK | X_OK | W_OK | R_OK))
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	{
		struct fs_loc start;
		const char *proc_rest;
		char *path;

		err = path_from_user(a[1], &path, flags & AT_EMPTY_PATH);
		if (err)
			return err;
		if (!path[0]) {
			path_free(path);
			err = lookup_at(arg_int(a[0]), a[1], true, true, &loc, &f);
			if (err)
				return err;
			return 0;
		}
		err = fs_start(arg_int(a[0]), &start);
		if (!err)
			err = fs_walk(start, path, ((flags & AT_SYMLINK_NOFOLLOW) ? 0 : WALK_FOLLOW) | WALK_PROC,
				      &loc, &proc_rest);
		if (!err && proc_rest) {
			char name[256];

			snprintk(name, sizeof(name), "%s/%s", fs_sb_synthetic_root(loc.inode->sb), proc_rest);
			err = procfs_open(name, 0, &f);
			if (!err)
				file_close(f);
			path_free(path);
			return err;
		}
		path_free(path);
		if (err)
			return err;
	}
	/* root: X_OK needs an execute bit somewhere, unless a directory */
	if ((mode & X_OK) && !S_ISDIR(loc.inode->mode) && !(loc.inode->mode & 0111))
		return -EACCES;
	return 0;
}

long sys_faccessat(const unsigned long *a)
{
	unsigned long b[4] = { a[0], a[1], a[2], 0 };

	return sys_faccessat2(b);
}

/* ---- directories, links, names ---- */

long sys_mkdirat(const unsigned long *a)
{
	struct fs_loc dir;
	char last[NAME_MAX + 1];
	bool slash;
	long err = parent_at(arg_int(a[0]), a[1], &dir, last, &slash);

	if (err)
		return err;
	if (is_dot(last) || dir_find(dir.inode, last, strlen(last)))
		return -EEXIST;
	return dir_mkdir(dir.inode, last, strlen(last), arg_uint(a[2]) & 01777 & ~fs_umask(), NULL);
}

/* Is dir a mount point or the root of a mount? */
static bool is_mount_dir(struct inode *ip)
{
	return ip->mounted || ip == ip->sb->root;
}

long sys_unlinkat(const unsigned long *a)
{
	int flags = arg_int(a[2]);
	struct fs_loc dir;
	struct fs_dirent *d;
	char last[NAME_MAX + 1];
	bool slash;
	long err;

	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	err = parent_at(arg_int(a[0]), a[1], &dir, last, &slash);
	if (err)
		return err;
	if (flags & AT_REMOVEDIR) {
		if (!last[0])
			return -EBUSY;
		if (!strcmp(last, "."))
			return -EINVAL;
		if (!strcmp(last, ".."))
			return -ENOTEMPTY;
	} else if (is_dot(last)) {
		return -EISDIR;
	}
	if (!(d = dir_find(dir.inode, last, strlen(last))))
		return -ENOENT;
	if (flags & AT_REMOVEDIR) {
		if (!S_ISDIR(d->inode->mode))
			return -ENOTDIR;
		if (is_mount_dir(d->inode))
			return -EBUSY;
		if (d->inode->entries)
			return -ENOTEMPTY;
	} else {
		if (S_ISDIR(d->inode->mode))
			return -EISDIR;
		if (slash)
			return -ENOTDIR;
	}
	dir_remove(dir.inode, d);
	return 0;
}

long sys_symlinkat(const unsigned long *a)
{
	struct fs_loc dir;
	struct inode *ip;
	char last[NAME_MAX + 1], *target;
	bool slash;
	long err = path_from_user(a[0], &target, false);

	if (err)
		return err;
	err = parent_at(arg_int(a[1]), a[2], &dir, last, &slash);
	if (!err && (is_dot(last) || dir_find(dir.inode, last, strlen(last))))
		err = -EEXIST;
	if (!err && !(ip = inode_alloc(dir.inode->sb, S_IFLNK | 0777)))
		err = -ENOMEM;
	if (!err) {
		err = inode_set_link(ip, target, strlen(target));
		if (!err)
			err = dir_add(dir.inode, last, strlen(last), ip);
		if (err)
			inode_maybe_free(ip);
	}
	path_free(target);
	return err;
}

long sys_linkat(const unsigned long *a)
{
	int flags = arg_int(a[4]);
	struct fs_loc old, dir;
	struct file *f;
	char last[NAME_MAX + 1];
	bool slash;
	long err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = lookup_at(arg_int(a[0]), a[1], flags & AT_SYMLINK_FOLLOW, flags & AT_EMPTY_PATH, &old, &f);
	if (err)
		return err;
	if (!old.inode)
		return -ENOENT;
	err = parent_at(arg_int(a[2]), a[3], &dir, last, &slash);
	if (err)
		return err;
	if (is_dot(last) || dir_find(dir.inode, last, strlen(last)))
		return -EEXIST;
	if (dir.inode->sb != old.inode->sb || dir.mnt != old.mnt)
		return -EXDEV;
	if (S_ISDIR(old.inode->mode))
		return -EPERM;
	if (old.inode->nlink == 0)
		return -ENOENT;	/* an unlinked file cannot be linked back */
	return dir_add(dir.inode, last, strlen(last), old.inode);
}

/* Is ip dir or inside it? */
static bool is_within(struct inode *ip, struct inode *dir)
{
	for (;;) {
		if (ip == dir)
			return true;
		if (ip == ip->sb->root || !ip->parent)
			return false;
		ip = ip->parent;
	}
}

/* Swap the inodes of two entries (RENAME_EXCHANGE). */
static void exchange(struct inode *odir, struct fs_dirent *od, struct inode *ndir, struct fs_dirent *nd)
{
	struct inode *o = od->inode, *n = nd->inode;

	od->inode = n;
	nd->inode = o;
	if (S_ISDIR(o->mode)) {
		o->parent = ndir;
		odir->nlink--;
		ndir->nlink++;
	}
	if (S_ISDIR(n->mode)) {
		n->parent = odir;
		ndir->nlink--;
		odir->nlink++;
	}
	inode_touch(o, T_C);
	inode_touch(n, T_C);
	inode_touch(odir, T_M | T_C);
	inode_touch(ndir, T_M | T_C);
}

static long do_rename(int odfd, unsigned long oupath, int ndfd, unsigned long nupath, unsigned flags)
{
	struct fs_loc odir, ndir;
	struct fs_dirent *od, *nd;
	char *oname, *nname;
	bool oslash, nslash;
	long err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & RENAME_EXCHANGE) && (flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)))
		return -EINVAL;
	if (flags & RENAME_WHITEOUT)
		return -EINVAL;	/* no whiteouts here */
	{
		struct page *pg = alloc_pages(0, 0);

		if (!pg)
			return -ENOMEM;
		oname = page_address(pg);
		nname = oname + NAME_MAX + 1;
	}
	err = parent_at(odfd, oupath, &odir, oname, &oslash);
	if (!err)
		err = parent_at(ndfd, nupath, &ndir, nname, &nslash);
	if (err)
		goto out;
	err = -EXDEV;
	if (odir.mnt != ndir.mnt)
		goto out;
	err = -EBUSY;
	if (is_dot(oname))
		goto out;
	if (is_dot(nname)) {
		err = (flags & RENAME_NOREPLACE) ? -EEXIST : -EBUSY;
		goto out;
	}
	err = -ENOENT;
	if (!(od = dir_find(odir.inode, oname, strlen(oname))))
		goto out;
	nd = dir_find(ndir.inode, nname, strlen(nname));
	err = -ENOENT;
	if ((flags & RENAME_EXCHANGE) && !nd)
		goto out;
	err = -EEXIST;
	if ((flags & RENAME_NOREPLACE) && nd)
		goto out;
	err = -ENOTDIR;
	if ((oslash && !S_ISDIR(od->inode->mode)) ||
	    (nslash && !S_ISDIR(od->inode->mode) && !(flags & RENAME_EXCHANGE)))
		goto out;
	err = -EINVAL;	/* a directory into itself */
	if (S_ISDIR(od->inode->mode) && is_within(ndir.inode, od->inode))
		goto out;
	if ((flags & RENAME_EXCHANGE) && S_ISDIR(nd->inode->mode) && is_within(odir.inode, nd->inode))
		goto out;
	err = -EBUSY;
	if (is_mount_dir(od->inode) || (nd && is_mount_dir(nd->inode)))
		goto out;
	err = 0;
	if (flags & RENAME_EXCHANGE) {
		exchange(odir.inode, od, ndir.inode, nd);
		goto out;
	}
	if (nd && nd->inode == od->inode)
		goto out;	/* the same file: nothing happens */
	if (nd) {
		bool odirp = S_ISDIR(od->inode->mode), ndirp = S_ISDIR(nd->inode->mode);

		err = odirp && !ndirp ? -ENOTDIR : !odirp && ndirp ? -EISDIR :
		      ndirp && nd->inode->entries ? -ENOTEMPTY : 0;
		if (err)
			goto out;
	}
	err = dir_move(odir.inode, od, ndir.inode, nname, strlen(nname), nd);
out:
	free_page_va(oname);
	return err;
}

long sys_renameat2(const unsigned long *a)
{
	return do_rename(arg_int(a[0]), a[1], arg_int(a[2]), a[3], arg_uint(a[4]));
}

long sys_renameat(const unsigned long *a)
{
	return do_rename(arg_int(a[0]), a[1], arg_int(a[2]), a[3], 0);
}

long sys_readlinkat(const unsigned long *a)
{
	struct fs_loc loc;
	struct file *f;
	long n = (long)a[3], err;

	if (arg_int(a[3]) <= 0)
		return -EINVAL;
	n = arg_int(a[3]);
	err = lookup_at(arg_int(a[0]), a[1], false, false, &loc, &f);
	if (err)
		return err;
	if (!S_ISLNK(loc.inode->mode))
		return -EINVAL;
	n = (long)MIN((u64)n, loc.inode->size);
	inode_touch(loc.inode, T_A);
	return copy_to_user((void *)a[2], loc.inode->link, (size_t)n) ? -EFAULT : n;
}

long sys_getdents64(const unsigned long *a)
{
	struct file *f = fd_file(arg_int(a[0]));
	size_t n = MIN((size_t)arg_uint(a[2]), (size_t)PAGE_SIZE);
	struct page *pg;
	long got;
	u64 off;

	if (!f)
		return -EBADF;
	if (!f->inode && !S_ISDIR(f->st.mode))
		return -ENOTDIR;
	if (!user_range_ok(a[1], arg_uint(a[2])))
		return -EFAULT;
	if (!(pg = alloc_pages(0, 0)))
		return -ENOMEM;
	off = f->off;
	got = f->inode ? fs_getdents(f, page_address(pg), n) : procfs_getdents(f, page_address(pg), n);
	if (got > 0 && copy_to_user((void *)a[1], page_address(pg), (size_t)got)) {
		f->off = off;
		got = -EFAULT;
	}
	free_pages(pg, 0);
	return got;
}

/* ---- cwd, umask ---- */

static void set_cwd(struct fs_loc loc)
{
	struct proc *p = current_proc();

	inode_get(loc.inode);
	loc.mnt->refs++;
	if (p->fs->cwd) {
		p->fs->cwd_mnt->refs--;
		inode_put(p->fs->cwd);
	}
	p->fs->cwd = loc.inode;
	p->fs->cwd_mnt = loc.mnt;
}

long sys_chdir(const unsigned long *a)
{
	struct fs_loc loc;
	struct file *f;
	long err = lookup_at(AT_FDCWD, a[0], true, false, &loc, &f);

	if (err)
		return err;
	if (!S_ISDIR(loc.inode->mode))
		return -ENOTDIR;
	set_cwd(loc);
	return 0;
}

long sys_fchdir(const unsigned long *a)
{
	struct file *f = fd_file(arg_int(a[0]));

	if (!f)
		return -EBADF;
	if (!f->inode || !S_ISDIR(f->inode->mode))
		return -ENOTDIR;
	set_cwd((struct fs_loc){ f->mnt, f->inode });
	return 0;
}

long sys_getcwd(const unsigned long *a)
{
	struct page *pg = alloc_pages(0, 0);
	char *buf;
	long n;

	if (!pg)
		return -ENOMEM;
	buf = page_address(pg);
	n = fs_path_of(fs_cwd(), buf, FS_PATH_MAX);
	if (n > 0 && (size_t)n > a[1])
		n = -ERANGE;
	if (n > 0 && copy_to_user((void *)a[0], buf, (size_t)n))
		n = -EFAULT;
	free_page_va(buf);
	return n;
}

long sys_umask(const unsigned long *a)
{
	struct proc *p = current_proc();
	unsigned old = p->fs->umask;

	p->fs->umask = arg_uint(a[0]) & 0777;
	return old;
}

/* Make ip p's program (or none, NULL): the old one may be written again, the new one not. */
static void set_exe(struct proc *p, struct inode *ip)
{
	if (ip) {
		inode_get(ip);
		ip->writecount--;
	}
	if (p->exe) {
		p->exe->writecount++;
		inode_put(p->exe);
	}
	p->exe = ip;
}

void fs_proc_exec(struct proc *p, struct inode *ip)
{
	set_exe(p, ip);
}

static struct slab_cache fs_state_cache = SLAB_CACHE("fs_state", struct fs_state);

long fs_proc_fork(struct proc *child, struct proc *parent, bool share)
{
	struct fs_state *fs = parent->fs;

	child->exe = NULL;
	set_exe(child, parent->exe);
	if (share) {
		fs->refs++;
		child->fs = fs;
		return 0;
	}
	child->fs = slab_alloc(&fs_state_cache);
	if (!child->fs)
		return -ENOMEM;
	child->fs->refs = 1;
	child->fs->umask = fs->umask;
	child->fs->cwd_mnt = fs->cwd_mnt;
	child->fs->cwd = fs->cwd ? inode_get(fs->cwd) : NULL;
	if (child->fs->cwd)
		child->fs->cwd_mnt->refs++;
	return 0;
}

long fs_proc_init(struct proc *p)
{
	p->fs = slab_alloc(&fs_state_cache);
	if (!p->fs)
		return -ENOMEM;
	p->fs->refs = 1;
	return 0;
}

void fs_proc_exit(struct proc *p)
{
	struct fs_state *fs = p->fs;

	set_exe(p, NULL);
	p->fs = NULL;
	if (!fs || --fs->refs > 0)
		return;
	if (fs->cwd) {
		fs->cwd_mnt->refs--;
		inode_put(fs->cwd);
	}
	slab_free(&fs_state_cache, fs);
}

/* ---- modes, owners, times ---- */

static long chmod_loc(struct inode *ip, u32 mode)
{
	ip->mode = (ip->mode & S_IFMT) | (mode & 07777);
	inode_touch(ip, T_C);
	return 0;
}

long sys_fchmodat(const unsigned long *a)
{
	struct fs_loc loc;
	struct file *f;
	long err = lookup_at(arg_int(a[0]), a[1], true, false, &loc, &f);

	return err ? err : chmod_loc(loc.inode, arg_uint(a[2]));
}

long sys_fchmod(const unsigned long *a)
{
	struct file *f = fd_file(arg_int(a[0]));

	if (!f)
		return -EBADF;
	if (!f->inode)
		return 0;	/* a pipe or the console: nothing kept */
	return chmod_loc(f->inode, arg_uint(a[1]));
}

static long chown_inode(struct inode *ip, u32 uid, u32 gid)
{
	if (uid != (u32)-1)
		ip->uid = uid;
	if (gid != (u32)-1)
		ip->gid = gid;
	if (!S_ISDIR(ip->mode) && (ip->mode & 0111))
		ip->mode &= ~04000u;	/* chown clears set-user-ID */
	inode_touch(ip, T_C);
	return 0;
}

long sys_fchownat(const unsigned long *a)
{
	int flags = arg_int(a[4]);
	struct fs_loc loc;
	struct file *f;
	long err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = lookup_at(arg_int(a[0]), a[1], !(flags & AT_SYMLINK_NOFOLLOW), flags & AT_EMPTY_PATH, &loc, &f);
	if (err)
		return err;
	if (!loc.inode)
		return 0;
	return chown_inode(loc.inode, arg_uint(a[2]), arg_uint(a[3]));
}

long sys_fchown(const unsigned long *a)
{
	struct file *f = fd_file(arg_int(a[0]));

	if (!f)
		return -EBADF;
	return f->inode ? chown_inode(f->inode, arg_uint(a[1]), arg_uint(a[2])) : 0;
}

#define UTIME_NOW	((1l << 30) - 1)
#define UTIME_OMIT	((1l << 30) - 2)

/* utimensat with the two times already in the kernel (NULL: both now). */
static long do_utimensat(int dirfd, unsigned long upath, const s64 (*ts)[2], int flags)
{
	struct fs_loc loc;
	struct file *f = NULL;
	long err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	for (int i = 0; ts && i < 2; i++)
		if ((ts[i][1] < 0 || ts[i][1] >= 1000000000) && ts[i][1] != UTIME_NOW && ts[i][1] != UTIME_OMIT)
			return -EINVAL;
	if (!upath) {	/* futimens: the file of dirfd */
		if (!(f = fd_file(dirfd)))
			return -EBADF;
		if (!f->inode)
			return 0;
		loc.inode = f->inode;
	} else {
		err = lookup_at(dirfd, upath, !(flags & AT_SYMLINK_NOFOLLOW), flags & AT_EMPTY_PATH, &loc, &f);
		if (err)
			return err;
		if (!loc.inode)
			return 0;
	}
	for (int i = 0; i < 2; i++) {
		u64 *t = i ? &loc.inode->mtime : &loc.inode->atime;

		if (!ts || ts[i][1] == UTIME_NOW)
			*t = fs_now();
		else if (ts[i][1] != UTIME_OMIT)
			*t = (u64)ts[i][0] * 1000000000ull + (u64)ts[i][1];
	}
	inode_touch(loc.inode, T_C);
	return 0;
}

/* utimensat with the arch's native struct timespec (two longs). */
long sys_utimensat(const unsigned long *a)
{
	long uts[4];
	s64 ts[2][2];

	if (a[2]) {
		if (copy_from_user(uts, (const void *)a[2], sizeof(uts)))
			return -EFAULT;
		for (int i = 0; i < 2; i++)
			ts[i][0] = uts[2 * i], ts[i][1] = uts[2 * i + 1];
	}
	return do_utimensat(arg_int(a[0]), a[1], a[2] ? (const s64 (*)[2])ts : NULL, arg_int(a[3]));
}

/* utimensat_time64 (32-bit arches): struct __kernel_timespec, 64-bit seconds and nanoseconds. */
long sys_utimensat_time64(const unsigned long *a)
{
	s64 ts[2][2];

	if (a[2] && copy_from_user(ts, (const void *)a[2], sizeof(ts)))
		return -EFAULT;
	if (a[2])
		for (int i = 0; i < 2; i++)
			ts[i][1] = (long)ts[i][1];	/* Linux reads tv_nsec as a long */
	return do_utimensat(arg_int(a[0]), a[1], a[2] ? (const s64 (*)[2])ts : NULL, arg_int(a[3]));
}

/* ---- sizes, sync, positioned I/O ---- */

long fs_truncate_path(unsigned long upath, s64 len)
{
	struct fs_loc loc;
	struct file *f;
	long err;

	if (len < 0)
		return -EINVAL;
	err = lookup_at(AT_FDCWD, upath, true, false, &loc, &f);
	if (err)
		return err;
	if (S_ISDIR(loc.inode->mode))
		return -EISDIR;
	if (!S_ISREG(loc.inode->mode))
		return -EINVAL;
	if (loc.inode->writecount < 0)
		return -ETXTBSY;	/* a running program's file */
	return file_truncate(loc.inode, (u64)len);
}

long sys_truncate(const unsigned long *a)
{
	return fs_truncate_path(a[0], (long)a[1]);
}

u64 fs_file_size(struct file *f)
{
	return f->inode ? f->inode->size : f->size;
}

/* fsync and fdatasync: everything is in memory; a pipe or the console cannot be synced. */
long sys_fsync(const unsigned long *a)
{
	struct file *f = fd_file(arg_int(a[0]));

	if (!f)
		return -EBADF;
	return f->inode || (f->st.mode & S_IFMT) == S_IFREG ? 0 : -EINVAL;
}

long sys_fdatasync(const unsigned long *a)
{
	return sys_fsync(a);
}

/* The file for positioned I/O at pos on fd, in ksys_pread64()'s order:
 * -EINVAL for a negative pos, -EBADF, -ESPIPE for a pipe or the console. */
static long pio_file(int fd, s64 pos, struct file **out)
{
	struct file *f;

	if (pos < 0)
		return -EINVAL;
	if (!(f = fd_file(fd)))
		return -EBADF;
	if ((f->st.mode & S_IFMT) == 0010000 || (!f->inode && S_ISCHR(f->st.mode)))
		return -ESPIPE;
	*out = f;
	return 0;
}

/* Linux's rw_verify_area(): n bytes from pos must end at or below 2^63 - 1
 * (checked after the buffer's EFAULT). */
static bool pio_range_ok(s64 pos, size_t n)
{
	return (u64)n <= (u64)INT64_MAX - (u64)pos;
}

long fs_pread(int fd, unsigned long ubuf, size_t n, s64 pos)
{
	struct file *f;
	struct page *pg;
	size_t done = 0;
	u64 off = (u64)pos;
	long err = pio_file(fd, pos, &f);

	if (err)
		return err;
	if (f->inode && S_ISDIR(f->inode->mode))
		return -EISDIR;
	if (!user_range_ok(ubuf, n))
		return -EFAULT;
	if (!pio_range_ok(pos, n))
		return -EINVAL;
	if (!(pg = alloc_pages(0, 0)))
		return -ENOMEM;
	while (done < n) {
		size_t want = MIN(n - done, (size_t)PAGE_SIZE);
		long got = f->ops->read(f, page_address(pg), want, &off);

		if (got < 0) {
			err = got;
			break;
		}
		if (got && copy_to_user((void *)(ubuf + done), page_address(pg), (size_t)got)) {
			err = -EFAULT;
			break;
		}
		done += (size_t)got;
		if ((size_t)got < want)
			break;
	}
	free_pages(pg, 0);
	return done ? (long)done : err;
}

long fs_pwrite(int fd, unsigned long ubuf, size_t n, s64 pos)
{
	struct file *f;
	struct page *pg;
	size_t done = 0;
	u64 off = (u64)pos;
	long err = pio_file(fd, pos, &f);
	unsigned saved;

	if (err)
		return err;
	if (!user_range_ok(ubuf, n))
		return -EFAULT;
	if (!pio_range_ok(pos, n))
		return -EINVAL;
	if (!(pg = alloc_pages(0, 0)))
		return -ENOMEM;
	saved = f->flags;
	while (done < n) {
		size_t chunk = MIN(n - done, (size_t)PAGE_SIZE);
		long put;

		if (copy_from_user(page_address(pg), (const void *)(ubuf + done), chunk)) {
			err = -EFAULT;
			break;
		}
		put = f->ops->write(f, page_address(pg), chunk, &off);
		if (put < 0) {
			err = put;
			break;
		}
		done += (size_t)put;
		if ((size_t)put < chunk)
			break;
	}
	f->flags = saved;
	free_pages(pg, 0);
	return done ? (long)done : err;
}

long sys_pread64(const unsigned long *a)
{
	return fs_pread(arg_int(a[0]), a[1], a[2], (long)a[3]);
}

long sys_pwrite64(const unsigned long *a)
{
	return fs_pwrite(arg_int(a[0]), a[1], a[2], (long)a[3]);
}

/* ---- statfs ---- */


/*
 * Lay out st as the arch's statfs: 64-bit arches have struct statfs of
 * longs (120 bytes); 32-bit ones use struct statfs64 (88 bytes), 32-bit
 * words except the block and file counts.
 */
static long statfs_to_user(const struct kstatfs *st, unsigned long ubuf)
{
	if (sizeof(long) == 8) {
		u64 s[15] = { st->type, st->bsize, st->blocks, st->bfree, st->bavail, st->files, st->ffree,
			      st->fsid, st->namelen, st->frsize, st->flags, 0, 0, 0, 0 };

		return copy_to_user((void *)ubuf, s, sizeof(s)) ? -EFAULT : 0;
	} else {
		struct {
			u32 type, bsize;
			u64 blocks, bfree, bavail, files, ffree;
			u32 fsid[2], namelen, frsize, flags, spare[4];
		} __attribute__((aligned(8))) s;

		_Static_assert(sizeof(s) == 88, "struct statfs64");
		memset(&s, 0, sizeof(s));
		s.type = (u32)st->type, s.bsize = (u32)st->bsize;
		s.blocks = st->blocks, s.bfree = st->bfree, s.bavail = st->bavail;
		s.files = st->files, s.ffree = st->ffree;
		s.fsid[0] = (u32)st->fsid, s.namelen = (u32)st->namelen;
		s.frsize = (u32)st->frsize, s.flags = (u32)st->flags;
		return copy_to_user((void *)ubuf, &s, sizeof(s)) ? -EFAULT : 0;
	}
}

long sys_statfs(const unsigned long *a)
{
	struct fs_loc loc;
	struct file *f;
	struct kstatfs st;
	long err = lookup_at(AT_FDCWD, a[0], true, false, &loc, &f);

	if (err)
		return err;
	fs_statfs(loc.inode, &st);
	return statfs_to_user(&st, a[1]);
}

long sys_fstatfs(const unsigned long *a)
{
	struct file *f = fd_file(arg_int(a[0]));
	struct kstatfs st;

	if (!f)
		return -EBADF;
	if (!f->inode)
		return -ENOSYS;	/* pipefs and the console have no statfs here */
	fs_statfs(f->inode, &st);
	return statfs_to_user(&st, a[1]);
}

/* statfs64(path, size, buf) and fstatfs64(fd, size, buf): 32-bit arches. */
long sys_statfs64(const unsigned long *a)
{
	unsigned long b[2] = { a[0], a[2] };

	return a[1] != 88 ? -EINVAL : sys_statfs(b);
}

long sys_fstatfs64(const unsigned long *a)
{
	unsigned long b[2] = { a[0], a[2] };

	return a[1] != 88 ? -EINVAL : sys_fstatfs(b);
}
