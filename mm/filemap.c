/*
 * filemap.c - operations on every mapping of a file (see filemap.h).
 *
 * There is no reverse map: the VMAs of every address space (mm_list) are
 * scanned for the file. Truncation is rare, so this is cheap enough.
 */
#include "filemap.h"
#include "mm.h"
#include "vma.h"

/* Unmap f's pages [first, end) from the VMAs of one address space. */
static void unmap_in_mm(struct mm *mm, struct vma_file *f, u64 first, u64 end)
{
	for (struct vma *v = mm->vmas; v; v = v->next) {
		u64 vfirst, vend, lo, hi;

		if (v->file != f)
			continue;
		vfirst = v->offset / PAGE_SIZE;
		vend = vfirst + (v->end - v->start) / PAGE_SIZE;
		lo = MAX(first, vfirst);
		hi = MIN(end, vend);
		if (lo < hi)
			mm_zap_range(mm, v->start + (unsigned long)(lo - vfirst) * PAGE_SIZE,
				     v->start + (unsigned long)(hi - vfirst) * PAGE_SIZE, false);
	}
}

void mm_unmap_file_range(struct vma_file *f, u64 first, u64 end)
{
	for (struct mm *mm = mm_list; mm; mm = mm->all_next)
		unmap_in_mm(mm, f, first, end);
}

void mm_unmap_file_page(struct vma_file *f, u64 idx, struct page *pg)
{
	for (struct mm *mm = mm_list; mm; mm = mm->all_next)
		for (struct vma *v = mm->vmas; v; v = v->next) {
			u64 vfirst = v->offset / PAGE_SIZE;
			unsigned long va;

			if (v->file != f || idx < vfirst || idx - vfirst >= (v->end - v->start) / PAGE_SIZE)
				continue;
			va = v->start + (unsigned long)(idx - vfirst) * PAGE_SIZE;
			if (mm_entry_page(mm, va) == pg)
				mm_zap_range(mm, va, va + PAGE_SIZE, false);
		}
}

bool mm_file_shared_maywrite(struct vma_file *f)
{
	for (struct mm *mm = mm_list; mm; mm = mm->all_next)
		for (struct vma *v = mm->vmas; v; v = v->next)
			if (v->file == f && (v->flags & (VM_SHARED | VM_MAYWRITE)) == (VM_SHARED | VM_MAYWRITE))
				return true;
	return false;
}
