/*
 * pagecache.c - the data of regular files: a per-inode index from page
 * number to an ordinary page (struct page), one page per file page,
 * allocated when the page is first written (or mapped), a hole reading as
 * zeros. read() and write() copy through these pages, and a mapping of the
 * file maps the same pages (the inode's vma_file, inode.c): exec's private
 * text mappings today; a MAP_SHARED file mapping would map them writable.
 *
 * The index is a table of page pointers spanning 2^order pages, grown by
 * doubling up to PC_MAX_ORDER: a file holds at most PC_MAX_PAGES pages
 * (EFBIG beyond; 1 GiB with 4 KiB pages and 8-byte pointers).
 *
 * The pages count in /proc/meminfo as Cached and Shmem, as tmpfs pages do
 * on Linux; the index tables themselves are kernel memory (not counted).
 */
#include "fs.h"
#include "page_alloc.h"
#include "kstring.h"
#include "errno.h"
#include "filemap.h"

#define PTRS_PER_PAGE	(PAGE_SIZE / sizeof(struct page *))
#define PC_MAX_ORDER	9
#define PC_MAX_PAGES	((u64)PTRS_PER_PAGE << PC_MAX_ORDER)

static u64 total_pages;		/* every file's pages */

u64 pagecache_pages(void)
{
	return total_pages;
}

static u64 slots(const struct page_cache *pc)
{
	return pc->table_order < 0 ? 0 : (u64)PTRS_PER_PAGE << pc->table_order;
}

/* Grow the table to hold index idx; false when it cannot. */
static bool table_cover(struct page_cache *pc, u64 idx)
{
	int order = pc->table_order < 0 ? 0 : pc->table_order;
	struct page *tp;

	if (idx < slots(pc))
		return true;
	while (((u64)PTRS_PER_PAGE << order) <= idx)
		order++;
	if (order > PC_MAX_ORDER || !(tp = alloc_pages(GFP_ZERO, (unsigned)order)))
		return false;
	if (pc->pages) {
		memcpy(page_address(tp), pc->pages, slots(pc) * sizeof(struct page *));
		free_pages(phys_to_page(virt_to_phys(pc->pages)), (unsigned)pc->table_order);
	}
	pc->pages = page_address(tp);
	pc->table_order = order;
	return true;
}

struct page *pagecache_page(struct inode *ip, u64 idx, bool alloc)
{
	struct page_cache *pc = &ip->pc;
	struct page *pg;

	if (idx < slots(pc) && pc->pages[idx])
		return pc->pages[idx];
	if (!alloc || !table_cover(pc, idx) || !(pg = alloc_pages(GFP_ZERO, 0)))
		return NULL;
	pc->pages[idx] = pg;
	pc->nr++;
	ip->sb->pages++;
	total_pages++;
	return pg;
}

/* Drop the pages [from, to) (page indexes); mappings keep their own references. */
static void drop_pages(struct inode *ip, u64 from, u64 to)
{
	struct page_cache *pc = &ip->pc;

	to = MIN(to, slots(pc));
	for (u64 i = from; i < to; i++) {
		if (pc->pages[i]) {
			page_put(pc->pages[i]);
			pc->pages[i] = NULL;
			pc->nr--;
			ip->sb->pages--;
			total_pages--;
		}
	}
}

void pagecache_free(struct inode *ip)
{
	drop_pages(ip, 0, slots(&ip->pc));
	if (ip->pc.pages)
		free_pages(phys_to_page(virt_to_phys(ip->pc.pages)), (unsigned)ip->pc.table_order);
	ip->pc.pages = NULL;
	ip->pc.table_order = -1;
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

	if (off + n < off || (off + n + PAGE_SIZE - 1) / PAGE_SIZE > PC_MAX_PAGES)
		return -EFBIG;
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
	if ((size + PAGE_SIZE - 1) / PAGE_SIZE > PC_MAX_PAGES)
		return -EFBIG;
	if (size < ip->size) {
		struct page *pg = pagecache_page(ip, size / PAGE_SIZE, false);

		/* every mapping lets go of the pages first: a later access there is SIGBUS */
		mm_unmap_file_range(&ip->vf, (size + PAGE_SIZE - 1) / PAGE_SIZE, ~0ull);
		drop_pages(ip, (size + PAGE_SIZE - 1) / PAGE_SIZE, slots(&ip->pc));
		if (pg && size % PAGE_SIZE)
			memset((u8 *)page_address(pg) + size % PAGE_SIZE, 0, PAGE_SIZE - size % PAGE_SIZE);
	}
	ip->size = size;
	inode_touch(ip, T_M | T_C);
	return 0;
}

long file_allocate(struct inode *ip, u64 off, u64 len)
{
	u64 end = off + len;

	if (end < off || (end + PAGE_SIZE - 1) / PAGE_SIZE > PC_MAX_PAGES)
		return -EFBIG;
	for (u64 i = off / PAGE_SIZE; i < (end + PAGE_SIZE - 1) / PAGE_SIZE; i++)
		if (!pagecache_page(ip, i, true))
			return -ENOSPC;
	if (end > ip->size)
		ip->size = end;
	inode_touch(ip, T_C);
	return 0;
}

void pagecache_for_each_page(void (*fn)(struct page *pg, void *arg), void *arg)
{
	for (struct inode *ip = inode_list; ip; ip = ip->all_next) {
		u64 seen = 0;

		/* up to the last present page: pc.nr of them */
		for (u64 i = 0; seen < ip->pc.nr && i < slots(&ip->pc); i++)
			if (ip->pc.pages[i]) {
				fn(ip->pc.pages[i], arg);
				seen++;
			}
	}
}
