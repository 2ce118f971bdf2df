/*
 * mount.c - file system instances and the mount table: the root file
 * system, devtmpfs on /dev and proc on /proc at boot; mount(2) of tmpfs,
 * proc and devtmpfs; umount2(2); the text of /proc/mounts.
 *
 * A mount puts the root of an instance on a directory of another mount
 * (stacking is allowed: the last one mounted is the one seen). tmpfs
 * creates a fresh instance per mount; devtmpfs and proc are one instance
 * each, mounted as often as asked.
 */
#include "fs.h"
#include "slab.h"
#include "syscall.h"
#include "uaccess.h"
#include "kstring.h"
#include "errno.h"
#include "printk.h"
#include "page_alloc.h"
#include "hugetlb.h"

static struct slab_cache sb_cache = SLAB_CACHE("fs_sb", struct fs_sb);
static struct slab_cache mount_cache = SLAB_CACHE("mount", struct mount);

struct mount *root_mount;
static struct mount *mounts;	/* in mount order */
static struct fs_sb *devtmpfs_sb, *proc_sb, *sysfs_sb;
static u32 next_dev = 0x10;

void sb_inode_gone(struct fs_sb *sb)
{
	sb->inodes--;
	if (sb->inodes == 0 && sb->mounts == 0)
		slab_free(&sb_cache, sb);
}

/* A new instance of type with an empty root directory, or NULL. */
static struct fs_sb *sb_new(const char *type, u32 magic, u32 mode)
{
	struct fs_sb *sb = slab_alloc(&sb_cache);

	if (!sb)
		return NULL;
	sb->type = type;
	sb->magic = magic;
	sb->dev = next_dev++;
	sb->next_ino = 1;
	sb->root = inode_alloc(sb, S_IFDIR | mode);
	if (!sb->root) {
		slab_free(&sb_cache, sb);
		return NULL;
	}
	sb->root->nlink = 2;	/* "." and its name in the mount point's place */
	sb->root->parent = sb->root;
	return sb;
}

struct mount *mount_on(struct mount *parent, struct inode *dir)
{
	struct mount *found = NULL;

	for (struct mount *m = mounts; m; m = m->next)
		if (m->parent == parent && m->mountpoint == dir)
			found = m;
	return found;
}

/* Mount sb on at (a directory); -ENOMEM. */
static long mount_add(struct fs_sb *sb, struct fs_loc at, const char *source)
{
	struct mount *m = slab_alloc(&mount_cache), **pp;

	if (!m)
		return -ENOMEM;
	m->sb = sb;
	sb->mounts++;
	snprintk(m->source, sizeof(m->source), "%s", source);
	if (at.inode) {
		m->parent = at.mnt;
		m->mountpoint = at.inode;
		at.inode->mounted++;
		inode_get(at.inode);
	}
	for (pp = &mounts; *pp; pp = &(*pp)->next)
		;
	*pp = m;
	return 0;
}

/* ---- devtmpfs ---- */

static const struct { const char *name; u32 mode, rdev; } dev_nodes[] = {
	{ "null",    0666, 1 << 8 | 3 },
	{ "zero",    0666, 1 << 8 | 5 },
	{ "full",    0666, 1 << 8 | 7 },
	{ "random",  0666, 1 << 8 | 8 },
	{ "urandom", 0666, 1 << 8 | 9 },
	{ "tty",     0666, 5 << 8 | 0 },
	{ "console", 0600, 5 << 8 | 1 },
};

static void devtmpfs_fill(struct fs_sb *sb)
{
	struct inode *shm;

	for (size_t i = 0; i < sizeof(dev_nodes) / sizeof(dev_nodes[0]); i++) {
		struct inode *ip = inode_alloc(sb, S_IFCHR | dev_nodes[i].mode);

		if (!ip || dir_add(sb->root, dev_nodes[i].name, strlen(dev_nodes[i].name), ip))
			panic("fs: out of memory creating /dev/%s", dev_nodes[i].name);
		ip->rdev = dev_nodes[i].rdev;
	}
	if (dir_mkdir(sb->root, "shm", 3, 01777, &shm))
		panic("fs: out of memory creating /dev/shm");
}

/* ---- boot ---- */

/* Make the directory name in the root, if it is missing; panics if it cannot. */
static struct inode *root_dir(const char *name)
{
	struct inode *root = root_mount->sb->root, *ip;
	struct fs_dirent *d = dir_find(root, name, strlen(name));

	if (d && S_ISDIR(d->inode->mode))
		return d->inode;
	if (d || dir_mkdir(root, name, strlen(name), 0755, &ip))
		panic("fs: cannot make /%s", name);
	return ip;
}

void fs_init(void)
{
	struct fs_sb *rootfs = sb_new("rootfs", RAMFS_MAGIC, 0755);

	if (!rootfs || mount_add(rootfs, (struct fs_loc){ NULL, NULL }, "rootfs"))
		panic("fs: out of memory for the root file system");
	root_mount = mounts;
	devtmpfs_sb = sb_new("devtmpfs", TMPFS_MAGIC, 0755);
	proc_sb = sb_new("proc", PROC_SUPER_MAGIC, 0555);
	sysfs_sb = sb_new("sysfs", SYSFS_MAGIC, 0555);	/* mounted by whoever wants it, as on Linux */
	hugetlb_set_dev(next_dev++);	/* MAP_HUGETLB's files: Linux's internal hugetlbfs mount */
	if (!devtmpfs_sb || !proc_sb || !sysfs_sb)
		panic("fs: out of memory for /dev, /proc and sysfs");
	sysfs_sb->mounts = 1;	/* its own reference: the one instance outlives every umount */
	devtmpfs_fill(devtmpfs_sb);
}

void fs_mount_boot(void)
{
	struct fs_loc dev = { root_mount, root_dir("dev") }, proc = { root_mount, root_dir("proc") };

	if (mount_add(devtmpfs_sb, dev, "devtmpfs") || mount_add(proc_sb, proc, "proc"))
		panic("fs: out of memory mounting /dev and /proc");
}

/* ---- mount(2), umount2(2) ---- */

#define MS_RDONLY	1
#define MS_REMOUNT	32
#define MS_BIND		4096
#define MS_MOVE		8192

long sys_mount(const unsigned long *a)
{
	char type[32], source[32] = "none", *path;
	struct fs_loc at;
	struct fs_sb *sb;
	unsigned long flags = a[3];
	long err;

	if (flags & (MS_REMOUNT | MS_BIND | MS_MOVE))
		return -EINVAL;	/* not supported (yet) */
	if (!a[2])
		return -EFAULT;
	err = strncpy_from_user(type, (const char *)a[2], sizeof(type));
	if (err < 0)
		return err == -ENAMETOOLONG ? -ENODEV : err;
	if (a[0] && strncpy_from_user(source, (const char *)a[0], sizeof(source)) < 0)
		snprintk(source, sizeof(source), "none");
	if ((err = path_from_user(a[1], &path, false)))
		return err;
	err = fs_walk(fs_cwd(), path, WALK_FOLLOW, &at, NULL);
	path_free(path);
	if (err)
		return err;
	if (!S_ISDIR(at.inode->mode))
		return -ENOTDIR;
	if (strcmp(type, "tmpfs") == 0) {
		if (!(sb = sb_new("tmpfs", TMPFS_MAGIC, 01777)))
			return -ENOMEM;
		err = mount_add(sb, at, source);
		if (err)
			fs_free_tree(sb->root), inode_maybe_free(sb->root);
		return err;
	}
	if (strcmp(type, "proc") == 0)
		return mount_add(proc_sb, at, source);
	if (strcmp(type, "sysfs") == 0)
		return mount_add(sysfs_sb, at, source);
	if (strcmp(type, "devtmpfs") == 0)
		return mount_add(devtmpfs_sb, at, source);
	return -ENODEV;
}

#define MNT_FORCE	1
#define MNT_DETACH	2
#define MNT_EXPIRE	4
#define UMOUNT_NOFOLLOW	8

long sys_umount2(const unsigned long *a)
{
	int flags = arg_int(a[1]);
	struct fs_loc at;
	struct mount *m, **pp;
	char *path;
	long err;

	if (flags & ~(MNT_FORCE | MNT_DETACH | MNT_EXPIRE | UMOUNT_NOFOLLOW))
		return -EINVAL;
	if ((err = path_from_user(a[0], &path, false)))
		return err;
	err = fs_walk(fs_cwd(), path, (flags & UMOUNT_NOFOLLOW) ? 0 : WALK_FOLLOW, &at, NULL);
	path_free(path);
	if (err)
		return err;
	m = at.mnt;
	if (at.inode != m->sb->root)
		return -EINVAL;	/* not a mount point */
	if (!m->parent)
		return -EBUSY;	/* the root */
	for (struct mount *c = mounts; c; c = c->next)
		if (c->parent == m)
			return -EBUSY;
	if (m->refs)
		return -EBUSY;	/* open files or working directories inside (MNT_DETACH too: not supported) */
	for (pp = &mounts; *pp != m; pp = &(*pp)->next)
		;
	*pp = m->next;
	m->mountpoint->mounted--;
	inode_put(m->mountpoint);
	if (--m->sb->mounts == 0) {
		struct fs_sb *sb = m->sb;

		sb->mounts++;	/* keep sb while its tree goes */
		fs_free_tree(sb->root);
		sb->root->nlink = 0;
		sb->mounts--;
		inode_maybe_free(sb->root);	/* the last inode frees sb */
	}
	slab_free(&mount_cache, m);
	return 0;
}

size_t mounts_text(char *buf, size_t size)
{
	size_t n = 0;
	char path[256];

	for (struct mount *m = mounts; m; m = m->next) {
		struct fs_loc at = { m, m->sb->root };

		if (fs_path_of(at, path, sizeof(path)) < 0)
			continue;
		n += snprintk(buf + n, size - n, "%s %s %s rw%s 0 0\n", m->source, path, m->sb->type,
			      fs_sb_synthetic(m->sb) ? ",nosuid,nodev,noexec,relatime" : ",relatime");
		if (n >= size)
			return size;
	}
	return n;
}

/* ---- statfs ---- */

long fs_statfs(struct inode *ip, struct kstatfs *st)
{
	struct fs_sb *sb = ip->sb;
	struct page_stats ps;
	u64 free;

	page_alloc_stats(&ps);
	free = ps.free_pages;

	memset(st, 0, sizeof(*st));
	st->type = sb->magic;
	st->bsize = st->frsize = PAGE_SIZE;
	st->blocks = sb->pages + free;
	st->bfree = st->bavail = free;
	st->files = sb->inodes + free;
	st->ffree = free;
	st->fsid = sb->dev;
	st->namelen = NAME_MAX;
	st->flags = 0x20;	/* ST_RELATIME */
	return 0;
}
