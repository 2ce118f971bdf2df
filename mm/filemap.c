/*
 * filemap.c - what a file does to the mappings of it in every address
 * space (Linux's unmap_mapping_range and i_mmap_writable): truncation
 * takes the pages past the new end out of every mapping, and a write seal
 * asks whether any shared mapping may still write. There is no reverse map:
 * both walk the VMAs of the address spaces the caller gives (every live
 * one: kernel/memfd.c asks kernel/proc.c for them).
 */
#include "mm.h"

void mm_unmap_file(struct mm *const *mms, int n, struct vma_file *f, u64 from)
{
	for (int i = 0; i < n; i++)
		for (struct vma *v = mms[i]->vmas; v; v = v->next) {
			u64 first = v->offset / PAGE_SIZE, pages = (v->end - v->start) / PAGE_SIZE;

			if (v->file != f || first + pages <= from)
				continue;
			/* private copies go too, as Linux's truncation does (even_cows) */
			mm_zap_range(mms[i], from > first ? v->start + (from - first) * PAGE_SIZE : v->start, v->end,
				     false);
		}
}

bool mm_file_shared_maywrite(struct mm *const *mms, int n, struct vma_file *f)
{
	for (int i = 0; i < n; i++)
		for (struct vma *v = mms[i]->vmas; v; v = v->next)
			if (v->file == f && (v->flags & (VM_SHARED | VM_MAYWRITE)) == (VM_SHARED | VM_MAYWRITE))
				return true;
	return false;
}
