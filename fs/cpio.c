/*
 * cpio.c - unpack the initramfs (a cpio "newc" archive, the format Linux
 * reads) into the root file system at boot: directories, regular files
 * (copied into the page cache), symbolic links and character devices, with
 * their modes, owners and mtimes. Missing parent directories are made
 * (0755). Members that share an inode number (newc's hard links, as GNU
 * cpio writes them: nlink >= 2, the contents with one of them, the others
 * of size 0) become one inode with several names, as Linux's reader makes.
 */
#include "fs.h"
#include "fs_file.h"
#include "vfs.h"
#include "printk.h"
#include "kstring.h"
#include "errno.h"

#define CPIO_HDR 110

/* Parse the 8-digit hex field at p; false on a non-hex digit. */
static bool hex8(const u8 *p, u32 *out)
{
	u32 v = 0;

	for (int i = 0; i < 8; i++) {
		u8 c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return false;
	}
	*out = v;
	return true;
}

/* The directory that holds name (made as needed); *base points at the last component. */
static struct inode *parent_of(const char *name, const char **base)
{
	struct inode *dir = root_mount->sb->root;
	const char *s = name, *slash;

	while ((slash = strchr(s, '/'))) {
		struct fs_dirent *d = dir_find(dir, s, (size_t)(slash - s));
		struct inode *sub;

		if (d && S_ISDIR(d->inode->mode))
			sub = d->inode;
		else if (d || dir_mkdir(dir, s, (size_t)(slash - s), 0755, &sub))
			return NULL;
		dir = sub;
		s = slash + 1;
	}
	*base = s;
	return dir;
}

/* One header's fields that unpack_one() uses. */
struct cpio_member {
	u32 ino, mode, uid, gid, nlink, mtime, rdev, size;
	const u8 *data;
};

/*
 * The hard-link groups seen so far in this archive: a regular member with
 * nlink >= 2 is remembered by inode number; a later member with the same
 * number (and type) is another name of it. A group beyond the table's size
 * is unpacked as separate files, with a message.
 */
#define CPIO_LINKS 64
static struct { u32 ino; struct inode *ip; } links[CPIO_LINKS];
static int nlinks;

/* The inode an earlier member of m's hard-link group made, or NULL. */
static struct inode *link_find(const struct cpio_member *m)
{
	if (!S_ISREG(m->mode) || m->nlink < 2)
		return NULL;
	for (int i = 0; i < nlinks; i++)
		if (links[i].ino == m->ino && links[i].ip->mode == m->mode)
			return links[i].ip;
	return NULL;
}

/* Remember ip as the inode of m's hard-link group (if m has one). */
static void link_remember(const struct cpio_member *m, struct inode *ip)
{
	if (!S_ISREG(m->mode) || m->nlink < 2)
		return;
	if (nlinks == CPIO_LINKS) {
		printk("initramfs: more than %d hard-link groups: inode %u unpacked as separate files\n",
		       CPIO_LINKS, (unsigned)m->ino);
		return;
	}
	links[nlinks].ino = m->ino;
	links[nlinks++].ip = ip;
}

/*
 * Another name, base in dir, for the hard-link group's inode ip; the member
 * that carries the group's contents (size > 0) writes them. False on failure.
 */
static bool unpack_link(struct inode *dir, const char *base, struct inode *ip,
			const struct cpio_member *m)
{
	if (m->size && file_write_data(ip, m->data, m->size, 0) != (long)m->size)
		return false;
	return dir_add(dir, base, strlen(base), ip) == 0;
}

/* Make one member; false if it could not be. */
static bool unpack_one(const char *name, const struct cpio_member *m)
{
	const char *base;
	struct inode *dir = parent_of(name, &base), *ip;
	struct fs_dirent *d;
	u32 mode = m->mode, size = m->size;
	const u8 *data = m->data;

	if (!dir || !*base)
		return false;
	d = dir_find(dir, base, strlen(base));
	if (d && S_ISDIR(d->inode->mode) && S_ISDIR(mode)) {
		ip = d->inode;	/* made earlier as a parent */
		ip->mode = mode;
	} else {
		if (d && S_ISDIR(d->inode->mode))
			return false;	/* a directory is not replaced by a file */
		if (d)
			dir_remove(dir, d);	/* a later member replaces an earlier one */
		if ((ip = link_find(m)))
			return unpack_link(dir, base, ip, m);
		if (S_ISDIR(mode)) {
			if (dir_mkdir(dir, base, strlen(base), mode, &ip))
				return false;
		} else {
			if (!(ip = inode_alloc(dir->sb, mode)))
				return false;
			if (S_ISREG(mode) && size && file_write_data(ip, data, size, 0) != (long)size)
				return false;
			if (S_ISLNK(mode) && inode_set_link(ip, (const char *)data, size))
				return false;
			ip->rdev = m->rdev;
			if (dir_add(dir, base, strlen(base), ip))
				return false;
			link_remember(m, ip);
			if (S_ISREG(mode)) {	/* named now: a first exec or mmap later allocates nothing */
				static char path[FS_PATH_MAX];

				snprintk(path, sizeof(path), "/%s", name[0] == '/' ? name + 1 : name);
				inode_set_map_name(ip, path);
			}
		}
	}
	ip->uid = m->uid;
	ip->gid = m->gid;
	ip->mtime = (u64)m->mtime * 1000000000ull;
	return true;
}

void cpio_unpack(const u8 *archive, u64 size)
{
	u64 off = 0;
	int n = 0, bad = 0;

	while (off + CPIO_HDR <= size && memcmp(archive + off, "070701", 6) == 0) {
		const u8 *h = archive + off;
		struct cpio_member m;
		u32 fsize, rmaj, rmin, namesize;
		const char *name;
		u64 data_off;

		if (!hex8(h + 6, &m.ino) || !hex8(h + 14, &m.mode) || !hex8(h + 22, &m.uid) ||
		    !hex8(h + 30, &m.gid) || !hex8(h + 38, &m.nlink) || !hex8(h + 46, &m.mtime) ||
		    !hex8(h + 54, &fsize) || !hex8(h + 78, &rmaj) || !hex8(h + 86, &rmin) ||
		    !hex8(h + 94, &namesize))
			break;
		if (namesize == 0 || off + CPIO_HDR + namesize > size)
			break;
		name = (const char *)h + CPIO_HDR;
		if (name[namesize - 1] != '\0' || strcmp(name, "TRAILER!!!") == 0)
			break;
		data_off = ALIGN_UP(off + CPIO_HDR + namesize, 4);
		if (data_off + fsize > size)
			break;
		while (name[0] == '.' && name[1] == '/')
			name += 2;
		while (name[0] == '/')
			name++;
		if (name[0] && strcmp(name, ".") != 0) {
			m.rdev = rmaj << 8 | rmin;
			m.size = fsize;
			m.data = archive + data_off;
			if (unpack_one(name, &m))
				n++;
			else
				bad++;
		}
		off = ALIGN_UP(data_off + fsize, 4);
	}
	printk("initramfs: %d entries unpacked into the root (%d failed), %llu bytes\n", n, bad,
	       (unsigned long long)size);
}

void fs_boot(const void *initrd, u64 size)
{
	fs_init();
	if (initrd && size)
		cpio_unpack(initrd, size);
	fs_mount_boot();
}
