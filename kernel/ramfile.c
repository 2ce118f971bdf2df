/*
 * ramfile.c - the pages of initramfs files that are mapped into processes.
 *
 * exec maps each PT_LOAD segment of a program as a private mapping of its
 * file, as Linux does: the pages come from here, filled from the archive
 * on first use, and a page a process discarded (MADV_DONTNEED over its own
 * text, say) is found here again at the next fault. A written page of a
 * private mapping is the process's own copy, as for any private file
 * mapping (mm/mm.c copies on write), so the pages here never change.
 *
 * One object per file while a mapping refers to it: every process running
 * the same program shares its text pages. The last mapping's reference
 * frees the pages and the object (vma_file_put -> ramfile_release).
 */
#include "ramfile.h"
#include "page_alloc.h"
#include "slab.h"
#include "kstring.h"

struct ramfile {
	struct vma_file vf;	/* first: the container of the vma_file */
	const u8 *data;		/* the file's bytes, inside the archive */
	u64 size;
	struct page **pages;	/* page index -> page, NULL until first use */
	unsigned table_order;	/* pages[] spans 2^table_order pages */
	struct ramfile *next;	/* the live objects */
};

static struct slab_cache ramfile_cache = SLAB_CACHE("ramfile", struct ramfile);
static struct ramfile *live;
static u64 cached_pages;	/* pages held by live objects */

u64 ramfile_cached_pages(void)
{
	return cached_pages;
}

static u64 page_count_of(const struct ramfile *r)
{
	return (r->size + PAGE_SIZE - 1) / PAGE_SIZE;
}

/* The page at pgoff, filled from the archive on first use; NULL past the end or out of memory. */
static struct page *ramfile_page(struct vma_file *f, u64 pgoff)
{
	struct ramfile *r = (struct ramfile *)f;
	u64 off = pgoff * PAGE_SIZE;
	struct page *pg;

	if (pgoff >= page_count_of(r))
		return NULL;	/* beyond the end of the file: SIGBUS */
	if (!r->pages[pgoff]) {
		pg = alloc_pages(GFP_ZERO, 0);
		if (!pg)
			return NULL;
		memcpy(page_address(pg), r->data + off, MIN(PAGE_SIZE, r->size - off));
		r->pages[pgoff] = pg;
		cached_pages++;
	}
	return r->pages[pgoff];
}

/* Is the page at pgoff in the cache (mincore)? */
static bool ramfile_cached(struct vma_file *f, u64 pgoff)
{
	struct ramfile *r = (struct ramfile *)f;

	return pgoff < page_count_of(r) && r->pages[pgoff];
}

/* The last mapping is gone: free the pages (mappings hold their own references). */
static void ramfile_release(struct vma_file *f)
{
	struct ramfile *r = (struct ramfile *)f, **pp;

	for (pp = &live; *pp != r; pp = &(*pp)->next)
		;
	*pp = r->next;
	for (u64 i = 0; i < page_count_of(r); i++)
		if (r->pages[i]) {
			page_put(r->pages[i]);
			cached_pages--;
		}
	free_pages(phys_to_page(virt_to_phys(r->pages)), r->table_order);
	slab_free(&ramfile_cache, r);
}

void ramfile_for_each_page(void (*fn)(struct page *pg, void *arg), void *arg)
{
	for (struct ramfile *r = live; r; r = r->next)
		for (u64 i = 0; i < page_count_of(r); i++)
			if (r->pages[i])
				fn(r->pages[i], arg);
}

static const struct vma_file_ops ramfile_ops = {
	.page = ramfile_page,
	.cached = ramfile_cached,
	.release = ramfile_release,
};

struct vma_file *ramfile_get(const u8 *data, u64 size)
{
	struct ramfile *r;
	struct page *tp;
	u64 npages = (size + PAGE_SIZE - 1) / PAGE_SIZE;
	unsigned order = 0;

	for (r = live; r; r = r->next)
		if (r->data == data && r->size == size)
			return vma_file_get(&r->vf);
	while (((u64)PAGE_SIZE << order) / sizeof(struct page *) < npages)
		order++;
	if (order >= MAX_ORDER || !(r = slab_alloc(&ramfile_cache)))
		return NULL;
	tp = alloc_pages(GFP_ZERO, order);
	if (!tp) {
		slab_free(&ramfile_cache, r);
		return NULL;
	}
	r->vf.refs = 1;
	r->vf.ops = &ramfile_ops;
	r->data = data;
	r->size = size;
	r->pages = page_address(tp);
	r->table_order = order;
	r->next = live;
	live = r;
	return &r->vf;
}
