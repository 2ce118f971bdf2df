/*
 * memfd.h - anonymous in-memory files (memfd_create), see memfd.c.
 */
#ifndef MEMFD_H
#define MEMFD_H

#include "vfs.h"
#include "vma.h"

/* st_dev of every memfd, SysV segment and shared anonymous mapping: 00:01,
 * the device of Linux's internal shmem mount. */
#define MEMFD_DEV 1u

/*
 * If f is a memfd: what a mapping of it takes its pages from (the caller
 * takes its own reference with vma_file_get()) and, in *name, the name
 * /proc/self/maps shows. NULL for any other file.
 */
struct vma_file *memfd_vma_file(struct file *f, const char **name);

/*
 * An internal memfd of size bytes that no fd opens (kernel/shm.c's
 * segments, shared anonymous memory): its vma_file with one reference,
 * the caller's; NULL when out of memory or too large. mapped_as: the
 * vma_file that VMAs mapping its pages point at (a segment's), or NULL
 * for the object itself; a punched page leaves the mappings of that.
 */
struct vma_file *memfd_object_create(u64 size, struct vma_file *mapped_as);

/*
 * Call fn for every page every live memfd holds (one reference each), for
 * the address-space checker (mm/mm_check.c). fn must not change the files.
 * Panics if a memfd's page index is inconsistent (page_tree_check()).
 */
struct page;
void memfd_for_each_page(void (*fn)(struct page *pg, void *arg), void *arg);

/* fcntl(F_ADD_SEALS / F_GET_SEALS) on f: the seals, 0, or -errno (MD-*). */
long memfd_fcntl(struct file *f, unsigned cmd, unsigned arg);

/* ftruncate and fallocate with their 64-bit lengths and offsets (memfd.c). */
long memfd_ftruncate(unsigned long fd, s64 len);
long memfd_fallocate(int fd, int mode, s64 off, s64 len);

#endif
