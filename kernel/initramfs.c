/*
 * initramfs.c - the read-only files of a cpio "newc" archive (the format
 * the Linux kernel reads), looked up by path in place. Hard links (entries
 * sharing an inode number) share the contents stored with one of them.
 */
#include "vfs.h"
#include "printk.h"
#include "kstring.h"
#include "errno.h"

#define CPIO_HDR 110

static const u8 *archive;
static u64 archive_size;

/* Parse an 8-digit hex field; returns false on a non-hex digit. */
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

/* One archive member. */
struct cpio_entry {
	const char *name;	/* without a leading "./" or "/" */
	const u8 *data;
	u32 size, mode;
	u32 ino, nlink;		/* entries with one ino and nlink > 1 are hard links */
	u64 next;		/* offset of the next header */
};

/* Decode the member at off; false at the trailer or on a malformed header. */
static bool cpio_entry_at(u64 off, struct cpio_entry *e)
{
	const u8 *h = archive + off;
	u32 mode, size, namesize;
	u64 data_off;

	if (off + CPIO_HDR > archive_size || memcmp(h, "070701", 6) != 0)
		return false;
	if (!hex8(h + 6, &e->ino) || !hex8(h + 14, &mode) || !hex8(h + 38, &e->nlink) ||
	    !hex8(h + 54, &size) || !hex8(h + 94, &namesize))
		return false;
	if (namesize == 0 || off + CPIO_HDR + namesize > archive_size)
		return false;
	e->name = (const char *)h + CPIO_HDR;
	if (e->name[namesize - 1] != '\0' || strcmp(e->name, "TRAILER!!!") == 0)
		return false;
	data_off = ALIGN_UP(off + CPIO_HDR + namesize, 4);
	if (data_off + size > archive_size)
		return false;
	while (e->name[0] == '.' && e->name[1] == '/')
		e->name += 2;
	while (e->name[0] == '/')
		e->name++;
	e->data = archive + data_off;
	e->size = size;
	e->mode = mode;
	e->next = ALIGN_UP(data_off + size, 4);
	return true;
}

void initramfs_init(const void *data, u64 size)
{
	struct cpio_entry e;
	int n = 0;

	archive = data;
	archive_size = size;
	for (u64 off = 0; cpio_entry_at(off, &e); off = e.next)
		n++;
	printk("initramfs: %d entries, %llu bytes\n", n, (unsigned long long)size);
}

long initramfs_missing_error(const char *path)
{
	char prefix[256];
	const u8 *data;
	u64 size;
	u32 mode;

	for (size_t i = 1; path[i] && i < sizeof(prefix); i++) {
		if (path[i] != '/')
			continue;
		memcpy(prefix, path, i);
		prefix[i] = '\0';
		if (initramfs_lookup(prefix, &data, &size, &mode) && (mode & 0170000) != 0040000)
			return -ENOTDIR;
	}
	return -ENOENT;
}

/*
 * The contents of hard-linked regular file e: newc stores them once, in one
 * of the entries that share e's ino (the others have size 0), so take the
 * entry of that ino that has data. e is left as it is when none has.
 */
static void hardlink_data(struct cpio_entry *e)
{
	struct cpio_entry o;

	if ((e->mode & 0170000) != 0100000 || e->nlink < 2 || e->size)
		return;
	for (u64 off = 0; cpio_entry_at(off, &o); off = o.next) {
		if (o.ino == e->ino && o.size && (o.mode & 0170000) == 0100000) {
			e->data = o.data;
			e->size = o.size;
			return;
		}
	}
}

bool initramfs_lookup(const char *path, const u8 **data, u64 *size, u32 *mode)
{
	struct cpio_entry e;

	while (*path == '/')
		path++;
	for (u64 off = 0; archive && cpio_entry_at(off, &e); off = e.next) {
		if (strcmp(e.name, path) == 0) {
			hardlink_data(&e);
			*data = e.data;
			*size = e.size;
			*mode = e.mode;
			return true;
		}
	}
	return false;
}
