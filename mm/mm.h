/*
 * mm.h - user address spaces: creation, demand paging, fork copies, and
 * the mapping primitives the system calls are built from.
 */
#ifndef MM_MM_H
#define MM_MM_H

#include "vma.h"

/* Kinds of access, for mm_fault(). */
enum fault_access { FAULT_READ, FAULT_WRITE, FAULT_EXEC };

/* mm_fault() results besides 0 (Linux's si_code values for SIGSEGV). */
#define SEGV_MAPERR	1	/* no VMA at the address */
#define SEGV_ACCERR	2	/* the VMA forbids this access */

/* A new, empty address space with its own root table and ASID; NULL when out of memory. */
struct mm *mm_create(void);

/* Drop one user of mm; the last one frees every page, table and VMA. */
void mm_put(struct mm *mm);

/* A copy of src for fork(): same VMAs, every present page copied. NULL when out of memory. */
struct mm *mm_copy(struct mm *src);

/*
 * Make the page at addr present for the given access, if the VMA allows it
 * (allocating a zeroed page on first touch). Returns 0, -SEGV_MAPERR or
 * -SEGV_ACCERR, or -ENOMEM (the caller treats it like SIGBUS/kill).
 */
int mm_fault(struct mm *mm, unsigned long addr, enum fault_access access);

/* Page-table protection for a VMA's flags (user, never global). */
unsigned vma_prot(unsigned vm_flags);

/* Unmap and free every page in [start, end) (page aligned); VMAs stay. */
void mm_zap_range(struct mm *mm, unsigned long start, unsigned long end);

/*
 * Remove [start, start + len) from the address space: pages freed, VMAs cut
 * or removed. Returns 0 or -ENOMEM (a VMA split needed memory).
 */
int mm_unmap(struct mm *mm, unsigned long start, unsigned long len);

/* Physical address of the page mapped at addr, or 0 if none. */
phys_addr_t mm_lookup(struct mm *mm, unsigned long addr);

/*
 * Copy len bytes from src into mm at va, faulting pages in as the VMA allows
 * (used to build a new image before switching to it). Returns 0 or -EFAULT.
 */
int mm_write(struct mm *mm, unsigned long va, const void *src, size_t len);

/* Count of pages currently mapped in mm (resident set). */
u64 mm_rss_pages(struct mm *mm, unsigned long start, unsigned long end);

#endif
