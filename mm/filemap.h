/*
 * filemap.h - operations on every mapping of a file (a struct vma_file:
 * a file of fs/ or a memfd), across all address spaces.
 */
#ifndef MM_FILEMAP_H
#define MM_FILEMAP_H

#include "types.h"

struct vma_file;
struct page;

/*
 * Unmap the file's pages [first, end) (page indexes; end may be ~0ull for
 * "to the end") from every VMA of every address space that maps f: shared
 * mappings lose their page-cache pages, private ones those and the private
 * copies made of them, as Linux's truncate does. The entries' page
 * references are dropped and TLBs invalidated; a later access faults again
 * and gets what the file then has there (SIGBUS past its end). Guard
 * markers stay. Call it before the file frees the pages.
 */
void mm_unmap_file_range(struct vma_file *f, u64 first, u64 end);

/*
 * A hole punched in f at page index idx, whose page pg the file is about
 * to let go of: every VMA of every address space that maps f there and
 * still maps pg itself loses that entry (a private mapping's own copy
 * stays), as Linux's hole punch (unmap_mapping_range() without even_cows).
 * A later access faults again and gets what the file then has.
 */
void mm_unmap_file_page(struct vma_file *f, u64 idx, struct page *pg);

/*
 * The object behind a new shared anonymous mapping (mm_mmap()): a file of
 * size bytes that no fd opens, its pages allocated at first touch, as
 * Linux's shmem_zero_setup() gives. kernel/memfd.c provides it (a memfd
 * with no open file). One reference, the caller's; NULL when out of
 * memory or too large.
 */
struct vma_file *mm_shmem_create(u64 size);

/* Does any address space map f shared with VM_MAYWRITE (a write seal's EBUSY)? */
bool mm_file_shared_maywrite(struct vma_file *f);

#endif
