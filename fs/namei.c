/*
 * namei.c - path resolution: from the root, the cwd or a directory fd,
 * through ".", "..", mount points and symbolic links (at most SYMLOOP_MAX
 * of them, then ELOOP), with Linux's errnos.
 */
#include "fs.h"
#include "proc.h"
#include "vfs.h"
#include "uaccess.h"
#include "page_alloc.h"
#include "kstring.h"
#include "errno.h"

#define AT_FDCWD	(-100)

long path_from_user(unsigned long upath, char **out, bool empty_ok)
{
	struct page *pg = alloc_pages(0, 0);
	char *buf;
	long n;

	if (!pg)
		return -ENOMEM;
	buf = page_address(pg);
	n = strncpy_from_user(buf, (const char *)upath, FS_PATH_MAX);
	if (n >= 0 && n == 0 && !empty_ok)
		n = -ENOENT;
	if (n < 0) {
		free_pages(pg, 0);
		return n;
	}
	*out = buf;
	return 0;
}

void path_free(char *p)
{
	if (p)
		free_page_va(p);
}

struct fs_loc fs_cwd(void)
{
	struct proc *p = current_proc();
	struct fs_loc loc = { root_mount, root_mount->sb->root };

	if (p && p->fs->cwd) {
		loc.mnt = p->fs->cwd_mnt;
		loc.inode = p->fs->cwd;
	}
	return loc;
}

u32 fs_umask(void)
{
	struct proc *p = current_proc();

	return p ? p->fs->umask : 022;
}

long fs_start(int dirfd, struct fs_loc *out)
{
	struct file *f;

	if (dirfd == AT_FDCWD) {
		*out = fs_cwd();
		return 0;
	}
	if (dirfd < 0 || dirfd >= NOFILE || !(f = current_proc()->fdt->files[dirfd]))
		return -EBADF;
	if (!f->inode || !S_ISDIR(f->inode->mode))
		return -ENOTDIR;
	out->mnt = f->mnt;
	out->inode = f->inode;
	return 0;
}

/* Go down into whatever is mounted on cur. */
static void cross_mounts(struct fs_loc *cur)
{
	struct mount *m;

	while (cur->inode->mounted && (m = mount_on(cur->mnt, cur->inode))) {
		cur->mnt = m;
		cur->inode = m->sb->root;
	}
}

/* "..": up to the parent, leaving a mount at its root; the root stays. */
static void go_up(struct fs_loc *cur)
{
	while (cur->inode == cur->mnt->sb->root && cur->mnt->parent) {
		cur->inode = cur->mnt->mountpoint;
		cur->mnt = cur->mnt->parent;
	}
	if (cur->inode != cur->mnt->sb->root)
		cur->inode = cur->inode->parent;
	cross_mounts(cur);
}

/* One component: cur (a directory) to its entry name[0..len). */
static long step(struct fs_loc *cur, const char *name, size_t len)
{
	struct fs_dirent *d;

	if (!S_ISDIR(cur->inode->mode))
		return -ENOTDIR;
	if (len == 1 && name[0] == '.')
		return 0;
	if (len == 2 && name[0] == '.' && name[1] == '.') {
		go_up(cur);
		return 0;
	}
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	if (!(d = dir_find(cur->inode, name, len)))
		return -ENOENT;
	cur->inode = d->inode;
	cross_mounts(cur);
	return 0;
}

/*
 * Resolve path[0..plen) from *cur into *cur. *links counts the symlinks
 * followed so far. See fs_walk for flags and proc_rest.
 */
static long walk(struct fs_loc *cur, const char *path, size_t plen, unsigned flags, int *links,
		 const char **proc_rest)
{
	size_t i = 0;
	long err;

	if (plen && path[0] == '/') {
		cur->mnt = root_mount;
		cur->inode = root_mount->sb->root;
		cross_mounts(cur);
	}
	for (;;) {
		size_t j, k;
		bool last, slash;
		struct fs_loc before;

		while (i < plen && path[i] == '/')
			i++;
		if (i == plen)
			break;
		for (j = i; j < plen && path[j] != '/'; j++)
			;
		for (k = j; k < plen && path[k] == '/'; k++)
			;
		last = k == plen;
		slash = j < plen;
		if (fs_sb_synthetic(cur->inode->sb) && S_ISDIR(cur->inode->mode)) {
			if (!proc_rest || path[plen] != '\0')
				return -ENOENT;	/* only a whole path may end in /proc */
			*proc_rest = path + i;
			return 0;
		}
		before = *cur;
		err = step(cur, path + i, j - i);
		if (err)
			return err;
		if (S_ISLNK(cur->inode->mode) && (!last || slash || (flags & WALK_FOLLOW))) {
			const char *target = cur->inode->link;

			if (++*links > SYMLOOP_MAX)
				return -ELOOP;
			*cur = before;
			err = walk(cur, target, strlen(target), WALK_FOLLOW | (last ? flags & WALK_PROC : 0),
				   links, last ? proc_rest : NULL);
			if (err)
				return err;
			if (proc_rest && *proc_rest)
				return 0;
		}
		if (last && slash && !S_ISDIR(cur->inode->mode))
			return -ENOTDIR;
		i = j;
	}
	if ((flags & WALK_DIR) && !S_ISDIR(cur->inode->mode))
		return -ENOTDIR;
	return 0;
}

long fs_walk(struct fs_loc start, const char *path, unsigned flags, struct fs_loc *out,
	     const char **proc_rest)
{
	int links = 0;

	if (proc_rest)
		*proc_rest = NULL;
	*out = start;
	return walk(out, path, strlen(path), flags, &links, (flags & WALK_PROC) ? proc_rest : NULL);
}

long fs_walk_parent(struct fs_loc start, const char *path, struct fs_loc *dir, char *last,
		    bool *trailing_slash)
{
	size_t end = strlen(path), begin;
	int links = 0;
	long err;

	while (end > 1 && path[end - 1] == '/')
		end--;
	*trailing_slash = end < strlen(path) || (end == 1 && path[0] == '/');
	begin = end;
	while (begin > 0 && path[begin - 1] != '/')
		begin--;
	if (end - begin > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(last, path + begin, end - begin);
	last[end - begin] = '\0';
	*dir = start;
	err = walk(dir, path, begin, WALK_FOLLOW | WALK_DIR, &links, NULL);
	if (!err && !S_ISDIR(dir->inode->mode))
		err = -ENOTDIR;
	if (!err && fs_sb_synthetic(dir->inode->sb))
		err = -ENOENT;	/* nothing is created or removed in /proc or /sys */
	if (!err && dir->inode->nlink == 0)
		err = -ENOENT;	/* a removed directory (someone's cwd) takes no new names */
	return err;
}

long fs_path_of(struct fs_loc loc, char *buf, size_t size)
{
	size_t pos = size;

	if (loc.inode->nlink == 0)
		return -ENOENT;	/* a removed directory */
	if (size < 2)
		return -ERANGE;
	buf[--pos] = '\0';
	for (;;) {
		struct fs_dirent *d;
		struct inode *up;

		if (loc.inode == loc.mnt->sb->root) {
			if (!loc.mnt->parent)
				break;
			loc.inode = loc.mnt->mountpoint;
			loc.mnt = loc.mnt->parent;
			continue;
		}
		up = loc.inode->parent;
		for (d = up->entries; d && d->inode != loc.inode; d = d->next)
			;
		if (!d)
			return -ENOENT;
		if (pos < (size_t)d->len + 2)
			return -ERANGE;
		pos -= d->len;
		memcpy(buf + pos, d->name, d->len);
		buf[--pos] = '/';
		loc.inode = up;
	}
	if (pos == size - 1)
		buf[--pos] = '/';
	memmove(buf, buf + pos, size - pos);
	return (long)(size - pos);
}
