/*
 * inode.c - inodes and directories of the RAM file systems (see fs.h for
 * the counting rules).
 */
#include "fs.h"
#include "slab.h"
#include "page_alloc.h"
#include "kstring.h"
#include "errno.h"
#include "printk.h"
#include "ktime.h"

static struct slab_cache inode_cache = SLAB_CACHE("inode", struct inode);
static struct slab_cache dirent_cache = SLAB_CACHE("dirent", struct fs_dirent);
struct inode *inode_list;

u64 fs_now(void)
{
	return ktime_ns();
}

void inode_touch(struct inode *ip, unsigned which)
{
	u64 now = fs_now();

	if (which & T_A)
		ip->atime = now;
	if (which & T_M)
		ip->mtime = now;
	if (which & T_C)
		ip->ctime = now;
}

/* The last open file, cwd or mapping of the inode is gone. */
static void inode_release(struct vma_file *vf)
{
	inode_maybe_free((struct inode *)vf);
}

static struct page *inode_vma_page(struct vma_file *vf, u64 pgoff)
{
	struct inode *ip = (struct inode *)vf;

	if (pgoff >= (ip->size + PAGE_SIZE - 1) / PAGE_SIZE)
		return NULL;	/* beyond the end of the file: SIGBUS */
	return pagecache_page(ip, pgoff, true);
}

/* Does the page cache hold the file's page at pgoff (mincore)? */
static bool inode_vma_cached(struct vma_file *vf, u64 pgoff)
{
	return pagecache_page((struct inode *)vf, pgoff, false) != NULL;
}

/* The device and inode number /proc/<pid>/maps shows for a mapping of the file. */
static void inode_vma_ident(struct vma_file *vf, u32 *dev, u64 *ino)
{
	struct inode *ip = (struct inode *)vf;

	*dev = ip->sb->dev;
	*ino = ip->ino;
}

/* Its size: a fault at or past it is SIGBUS, which mlock and MADV_POPULATE_* report. */
static u64 inode_vma_size(struct vma_file *vf)
{
	return ((struct inode *)vf)->size;
}

/* MADV_REMOVE through a shared mapping: a hole punched in the file (MA-9). */
static void inode_vma_punch(struct vma_file *vf, u64 off, u64 end)
{
	file_punch((struct inode *)vf, off, end);
}

/* What a mapping of a regular file uses (exec's segments, mmap of a file). */
static const struct vma_file_ops inode_vma_ops = {
	.page = inode_vma_page,
	.cached = inode_vma_cached,
	.release = inode_release,
	.ident = inode_vma_ident,
	.punch = inode_vma_punch,
	.size = inode_vma_size,
};

struct inode *inode_alloc(struct fs_sb *sb, u32 mode)
{
	struct inode *ip = slab_alloc(&inode_cache);

	if (!ip)
		return NULL;
	ip->vf.ops = &inode_vma_ops;
	ip->sb = sb;
	ip->ino = sb->next_ino++;
	ip->mode = mode;
	ip->next_cookie = 3;	/* 1 and 2 are "." and ".." */
	inode_touch(ip, T_A | T_M | T_C);
	sb->inodes++;
	ip->all_next = inode_list;
	if (inode_list)
		inode_list->all_prev = ip;
	inode_list = ip;
	return ip;
}

struct inode *inode_get(struct inode *ip)
{
	ip->vf.refs++;
	ip->sb->refs++;
	return ip;
}

void inode_put(struct inode *ip)
{
	BUG_ON(ip->vf.refs <= 0);
	ip->sb->refs--;
	vma_file_put(&ip->vf);
}

/*
 * Mapping names (/proc/<pid>/maps) of up to MAP_NAME_SLOT - 1 bytes live in
 * slots of a slab cache, longer ones in a page of their own.
 */
#define MAP_NAME_SLOT 128
struct map_name_slot {
	char s[MAP_NAME_SLOT];
};
static struct slab_cache map_name_cache = SLAB_CACHE("map_name", struct map_name_slot);

static void free_map_name(char *s)
{
	if (strlen(s) < MAP_NAME_SLOT)
		slab_free(&map_name_cache, s);
	else
		free_page_va(s);
}

bool inode_set_map_name(struct inode *ip, const char *path)
{
	size_t n = strlen(path);
	char *s;

	if (n >= PAGE_SIZE)
		return false;
	s = n < MAP_NAME_SLOT ? slab_alloc(&map_name_cache) : alloc_page_va(0);
	if (!s)
		return false;
	memcpy(s, path, n + 1);
	if (ip->map_name)
		free_map_name(ip->map_name);
	ip->map_name = s;
	return true;
}

void inode_maybe_free(struct inode *ip)
{
	if (ip->nlink || ip->vf.refs)
		return;
	BUG_ON(ip->entries);	/* a directory loses its last link only when empty */
	pagecache_free(ip);
	if (ip->link)
		free_page_va(ip->link);
	if (ip->map_name)
		free_map_name(ip->map_name);
	if (ip->all_prev)
		ip->all_prev->all_next = ip->all_next;
	else
		inode_list = ip->all_next;
	if (ip->all_next)
		ip->all_next->all_prev = ip->all_prev;
	sb_inode_gone(ip->sb);
	slab_free(&inode_cache, ip);
}

long inode_set_link(struct inode *ip, const char *target, size_t n)
{
	struct page *pg;

	if (n >= FS_PATH_MAX)
		return -ENAMETOOLONG;
	if (!(pg = alloc_pages(0, 0)))
		return -ENOMEM;
	ip->link = page_address(pg);
	memcpy(ip->link, target, n);
	ip->link[n] = '\0';
	ip->size = n;
	return 0;
}

/* ---- directories ---- */

struct fs_dirent *dir_find(struct inode *dir, const char *name, size_t len)
{
	for (struct fs_dirent *d = dir->entries; d; d = d->next)
		if (d->len == len && memcmp(d->name, name, len) == 0)
			return d;
	return NULL;
}

long dir_add(struct inode *dir, const char *name, size_t len, struct inode *ip)
{
	struct fs_dirent *d, **pp;

	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	if (!(d = slab_alloc(&dirent_cache)))
		return -ENOMEM;
	memcpy(d->name, name, len);
	d->name[len] = '\0';
	d->len = (u16)len;
	d->inode = ip;
	d->cookie = dir->next_cookie++;
	for (pp = &dir->entries; *pp; pp = &(*pp)->next)
		;
	*pp = d;
	ip->nlink++;
	if (S_ISDIR(ip->mode)) {
		ip->parent = dir;
		dir->nlink++;	/* the child's ".." */
	}
	inode_touch(dir, T_M | T_C);
	inode_touch(ip, T_C);
	return 0;
}

void dir_remove(struct inode *dir, struct fs_dirent *d)
{
	struct fs_dirent **pp;
	struct inode *ip = d->inode;

	for (pp = &dir->entries; *pp != d; pp = &(*pp)->next)
		;
	*pp = d->next;
	slab_free(&dirent_cache, d);
	ip->nlink--;
	if (S_ISDIR(ip->mode)) {
		dir->nlink--;
		ip->nlink--;	/* its own "." */
		BUG_ON(ip->nlink);
	}
	inode_touch(dir, T_M | T_C);
	inode_touch(ip, T_C);
	inode_maybe_free(ip);
}

long dir_move(struct inode *odir, struct fs_dirent *d, struct inode *ndir, const char *name, size_t len,
	      struct fs_dirent *victim)
{
	struct fs_dirent **pp;
	struct inode *ip = d->inode;

	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	if (victim)
		dir_remove(ndir, victim);
	for (pp = &odir->entries; *pp != d; pp = &(*pp)->next)
		;
	*pp = d->next;
	d->next = NULL;
	memcpy(d->name, name, len);
	d->name[len] = '\0';
	d->len = (u16)len;
	d->cookie = ndir->next_cookie++;
	for (pp = &ndir->entries; *pp; pp = &(*pp)->next)
		;
	*pp = d;
	if (S_ISDIR(ip->mode)) {
		odir->nlink--;
		ndir->nlink++;
		ip->parent = ndir;
	}
	inode_touch(odir, T_M | T_C);
	inode_touch(ndir, T_M | T_C);
	inode_touch(ip, T_C);
	return 0;
}

long dir_mkdir(struct inode *dir, const char *name, size_t len, u32 mode, struct inode **out)
{
	struct inode *ip = inode_alloc(dir->sb, S_IFDIR | (mode & 07777));
	long err;

	if (!ip)
		return -ENOMEM;
	ip->nlink = 1;	/* "." */
	err = dir_add(dir, name, len, ip);
	if (err) {
		ip->nlink = 0;
		inode_maybe_free(ip);
		return err;
	}
	if (out)
		*out = ip;
	return 0;
}

void fs_free_tree(struct inode *dir)
{
	while (dir->entries) {
		struct fs_dirent *d = dir->entries;

		if (S_ISDIR(d->inode->mode))
			fs_free_tree(d->inode);
		dir_remove(dir, d);
	}
}
