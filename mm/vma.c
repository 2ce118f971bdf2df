/*
 * vma.c - the sorted set of VMAs of an address space (see vma.h).
 *
 * VMA structures come from a small slab carved out of whole pages.
 */
#include "vma.h"
#include "page_alloc.h"
#include "printk.h"

static struct vma *free_vmas;

/* Take a VMA structure from the free list, refilling it a page at a time. */
static struct vma *vma_alloc(void)
{
	struct vma *v;

	if (!free_vmas) {
		struct vma *page = alloc_page_va(0);

		if (!page)
			return NULL;
		for (size_t i = 0; i < PAGE_SIZE / sizeof(struct vma); i++) {
			page[i].next = free_vmas;
			free_vmas = &page[i];
		}
	}
	v = free_vmas;
	free_vmas = v->next;
	__builtin_memset(v, 0, sizeof(*v));
	return v;
}

static void vma_free(struct vma *v)
{
	v->next = free_vmas;
	free_vmas = v;
}

struct vma *vma_find_from(const struct mm *mm, unsigned long addr)
{
	for (struct vma *v = mm->vmas; v; v = v->next)
		if (v->end > addr)
			return v;
	return NULL;
}

struct vma *vma_find(const struct mm *mm, unsigned long addr)
{
	struct vma *v = vma_find_from(mm, addr);

	return v && v->start <= addr ? v : NULL;
}

struct vma *vma_insert(struct mm *mm, unsigned long start, unsigned long end, unsigned flags,
		       const char *name, u64 offset)
{
	struct vma *v, *next = vma_find_from(mm, start), *prev;

	BUG_ON(start >= end || (next && next->start < end));
	v = vma_alloc();
	if (!v)
		return NULL;
	v->start = start;
	v->end = end;
	v->flags = flags;
	v->name = name;
	v->offset = offset;
	prev = next ? next->prev : NULL;
	if (!next) {	/* append after the last VMA */
		for (prev = mm->vmas; prev && prev->next; prev = prev->next)
			;
	}
	v->prev = prev;
	v->next = next;
	if (prev)
		prev->next = v;
	else
		mm->vmas = v;
	if (next)
		next->prev = v;
	mm->nvmas++;
	return v;
}

void vma_remove(struct mm *mm, struct vma *v)
{
	if (v->prev)
		v->prev->next = v->next;
	else
		mm->vmas = v->next;
	if (v->next)
		v->next->prev = v->prev;
	mm->nvmas--;
	vma_free(v);
}

struct vma *vma_split(struct mm *mm, struct vma *v, unsigned long addr)
{
	struct vma *hi;
	unsigned long end = v->end;

	BUG_ON(addr <= v->start || addr >= v->end);
	v->end = addr;
	hi = vma_insert(mm, addr, end, v->flags, v->name, v->offset + (addr - v->start));
	if (!hi)
		v->end = end;
	return hi;
}

unsigned long vma_find_gap_down(const struct mm *mm, unsigned long len, unsigned long below,
				unsigned long floor)
{
	unsigned long top = below;
	const struct vma *last = NULL;

	/* Walk from the highest VMA down, looking for a hole under 'top'. */
	for (const struct vma *v = mm->vmas; v; v = v->next)
		last = v;
	for (const struct vma *v = last; ; v = v->prev) {
		unsigned long lo = v ? v->end : floor;

		if (v && v->start >= top)
			continue;
		if (lo < top && top - lo >= len && top - len >= floor)
			return top - len;
		if (!v)
			return 0;
		top = MIN(top, v->start);
	}
}
