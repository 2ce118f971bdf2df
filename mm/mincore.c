/*
 * mincore.c - mincore: which pages of a range are resident, one byte per
 * page (1: resident, 0: not), as Linux 6.12 answers (MC-*).
 *
 * Resident means a page is there for the address: an entry in the page
 * tables (a page, a PROT_NONE entry, a transparent or hugetlb huge page:
 * each small page of it counts), or, for a file mapping, a page the file
 * holds (Linux looks the address up in the page cache), even when this
 * mapping has not faulted it in.
 */
#include "mm_ops.h"
#include "uaccess.h"
#include "errno.h"
#include <asm/memlayout.h>

#define CHUNK 256	/* vector bytes computed before each copy out */

/* Is the page at va of v resident? */
static bool resident(struct mm *mm, struct vma *v, unsigned long va)
{
	if (mm_rss_pages(mm, va, va + PAGE_SIZE))
		return true;
	return v->file && v->file->ops->cached &&
	       v->file->ops->cached(v->file, (v->offset + (va - v->start)) / PAGE_SIZE);
}

/*
 * Fill out[0..n) for the pages from va, stopping at the end of the VMA
 * holding va. Returns how many were filled, or -ENOMEM when no VMA holds
 * va (MC-3).
 */
static long fill(struct mm *mm, unsigned long va, unsigned long n, u8 *out)
{
	struct vma *v = vma_find(mm, va);
	unsigned long i;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < n && va + i * PAGE_SIZE < v->end; i++)
		out[i] = resident(mm, v, va + i * PAGE_SIZE);
	return (long)i;
}

long mm_mincore(struct mm *mm, unsigned long start, unsigned long len, void *vec)
{
	u8 buf[CHUNK];
	unsigned long pages;

	if (start & (PAGE_SIZE - 1))
		return -EINVAL;	/* MC-1 */
	if (start > USER_VA_END || len > USER_VA_END - start)
		return -ENOMEM;	/* MC-2: not a user range */
	pages = len / PAGE_SIZE + ((len & (PAGE_SIZE - 1)) != 0);
	if ((unsigned long)vec > USER_VA_END || pages > USER_VA_END - (unsigned long)vec)
		return -EFAULT;	/* MC-4: the vector is not in user space */
	while (pages) {
		long n = fill(mm, start, MIN(pages, (unsigned long)CHUNK), buf);

		if (n < 0)
			return n;	/* MC-3: the bytes before the hole were written */
		if (copy_to_user(vec, buf, (size_t)n))
			return -EFAULT;	/* MC-4 */
		vec = (u8 *)vec + n;
		start += (unsigned long)n * PAGE_SIZE;
		pages -= (unsigned long)n;
	}
	return 0;
}
