/*
 * ramfile.h - initramfs files as the backing of private file mappings
 * (exec maps program segments from them; see ramfile.c).
 */
#ifndef KERNEL_RAMFILE_H
#define KERNEL_RAMFILE_H

#include "vma.h"

/*
 * A reference to the mappable object for the initramfs file at
 * [data, data + size): the live one if the file is mapped already, else a
 * new one. Drop it with vma_file_put(). NULL when out of memory.
 */
struct vma_file *ramfile_get(const u8 *data, u64 size);

/* Call fn for every page a live object holds (for the mm invariant checker). */
void ramfile_for_each_page(void (*fn)(struct page *pg, void *arg), void *arg);

/* Pages the objects hold now: /proc/meminfo's Cached. */
u64 ramfile_cached_pages(void);

#endif
