/*
 * pagecache.c - the data of regular files: a per-inode index from page
 * number to an ordinary page (struct page), one page per file page,
 * allocated when the page is first written (or mapped), a hole reading as
 * zeros. read() and write() copy through these pages, and a mapping of the
 * file maps the same pages (the inode's vma_file, inode.c): exec's private
 * text mappings today; a MAP_SHARED file mapping would map them writable.
 *
 * The index is a radix tree (mm/page_tree.h), so a file may be as large
 * as Linux's tmpfs allows (MAX_FILE_BYTES) and costs index nodes only
 * where it has pages.
 *
 * The pages count in /proc/meminfo as Cached and Shmem, as tmpfs pages do
 * on Linux; the index nodes themselves are kernel memory (not counted).
 */
#include "fs.h"
#include "fs_file.h"
#include "page_alloc.h"
#include "kstring.h"
#include "errno.h"
#include "filemap.h"

static u64 total_pages;		/* every file's pages */

u64 pagecache_pages(void)
{
	return total_pages;
}

struct page *pagecache_page(struct inode *ip, u64 idx, bool alloc)
{
	struct page *pg = page_tree_get(&ip->pages, idx);

	if (pg || !alloc || !(pg = alloc_pages(GFP_ZERO, 0)))
		return pg;
	if (!page_tree_insert(&ip->pages, idx, pg)) {
		page_put(pg);
		return NULL;
	}
	ip->sb->pages++;
	total_pages++;
	return pg;
}

/* page_tree_take()'s hand-over: the file lets go of its reference. */
static void drop_one(u64 idx, struct page *pg, void *arg)
{
	struct inode *ip = arg;

	(void)idx;
	page_put(pg);
	ip->sb->pages--;
	total_pages--;
}

/* The same for a hole punch: the page leaves every mapping first (private
 * copies stay), as Linux's shmem_fallocate(PUNCH_HOLE). */
static void drop_one_unmapped(u64 idx, struct page *pg, void *arg)
{
	struct inode *ip = arg;

	mm_unmap_file_page(&ip->vf, idx, pg);
	drop_one(idx, pg, arg);
}

/* Drop the pages [from, to) (page indexes); mappings keep their own references. */
static void drop_pages(struct inode *ip, u64 from, u64 to)
{
	page_tree_take(&ip->pages, from, to, drop_one, ip);
}

void pagecache_free(struct inode *ip)
{
	drop_pages(ip, 0, ~0ull);	/* frees the index's nodes too */
}

size_t file_read_data(struct inode *ip, void *buf, size_t n, u64 off)
{
	size_t done = 0;

	if (off >= ip->size)
		return 0;
	n = (size_t)MIN((u64)n, ip->size - off);
	while (done < n) {
		u64 pos = off + done;
		size_t in = (size_t)MIN((u64)(n - done), PAGE_SIZE - pos % PAGE_SIZE);
		struct page *pg = pagecache_page(ip, pos / PAGE_SIZE, false);

		if (pg)
			memcpy((u8 *)buf + done, (u8 *)page_address(pg) + pos % PAGE_SIZE, in);
		else
			memset((u8 *)buf + done, 0, in);
		done += in;
	}
	return n;
}

long file_write_data(struct inode *ip, const void *buf, size_t n, u64 off)
{
	size_t done = 0;

	if (off >= MAX_FILE_BYTES)
		return -EFBIG;	/* Linux's generic_write_check_limits() */
	n = (size_t)MIN((u64)n, MAX_FILE_BYTES - off);
	while (done < n) {
		u64 pos = off + done;
		size_t in = (size_t)MIN((u64)(n - done), PAGE_SIZE - pos % PAGE_SIZE);
		struct page *pg = pagecache_page(ip, pos / PAGE_SIZE, true);

		if (!pg)
			break;
		memcpy((u8 *)page_address(pg) + pos % PAGE_SIZE, (const u8 *)buf + done, in);
		done += in;
		if (off + done > ip->size)
			ip->size = off + done;
	}
	if (done)
		inode_touch(ip, T_M | T_C);
	return done ? (long)done : -ENOSPC;
}

long file_truncate(struct inode *ip, u64 size)
{
	if (size > MAX_FILE_BYTES)
		return -EFBIG;
	if (size < ip->size) {
		struct page *pg = pagecache_page(ip, size / PAGE_SIZE, false);

		/* every mapping lets go of the pages first: a later access there is SIGBUS */
		mm_unmap_file_range(&ip->vf, (size + PAGE_SIZE - 1) / PAGE_SIZE, ~0ull);
		drop_pages(ip, (size + PAGE_SIZE - 1) / PAGE_SIZE, ~0ull);
		if (pg && size % PAGE_SIZE)
			memset((u8 *)page_address(pg) + size % PAGE_SIZE, 0, PAGE_SIZE - size % PAGE_SIZE);
	}
	ip->size = size;
	inode_touch(ip, T_M | T_C);
	return 0;
}

long file_allocate(struct inode *ip, u64 off, u64 len, bool keep_size)
{
	u64 end = off + len;

	if (end < off || end > MAX_FILE_BYTES)
		return -EFBIG;
	for (u64 i = off / PAGE_SIZE; i < (end + PAGE_SIZE - 1) / PAGE_SIZE; i++)
		if (!pagecache_page(ip, i, true))
			return -ENOSPC;
	if (!keep_size && end > ip->size)
		ip->size = end;
	inode_touch(ip, T_C);
	return 0;
}

void file_punch(struct inode *ip, u64 off, u64 end)
{
	page_tree_punch(&ip->pages, off, MIN(end, ip->size), drop_one_unmapped, ip);
	inode_touch(ip, T_M | T_C);
}

void pagecache_for_each_page(void (*fn)(struct page *pg, void *arg), void *arg)
{
	for (struct inode *ip = inode_list; ip; ip = ip->all_next) {
		if (!page_tree_for_each_page(&ip->pages, fn, arg))
			panic("mm_check: inode %llu: its page index is inconsistent (%llu pages counted)",
			      (unsigned long long)ip->ino, (unsigned long long)ip->pages.nr);
	}
}
