/*
 * hugetlb.h - pools of huge pages and MAP_HUGETLB mappings.
 *
 * A huge page is one leaf above the last level (arm64 with 4 KiB pages:
 * 2 MiB at level 2 and 1 GiB at level 1; MicroBlaze: 4 MiB at level 0),
 * backed by a naturally aligned buddy block of the same size. Each size has
 * a pool, grown and shrunk with hugepages= at boot or by writing
 * /proc/sys/vm/nr_hugepages, and reported in /proc/meminfo as Linux does.
 *
 * Accounting follows Linux: a mapping reserves its pages at mmap time
 * (HugePages_Rsvd), a fault takes one from the pool, munmap gives faulted
 * pages back and drops the rest of the reservation. The invariant kept
 * here: Rsvd == the number of not-yet-faulted pages of reserving VMAs.
 *
 * Cleared exactly once: a page that entered the pool zeroed (init_on_alloc)
 * or went back zeroed (init_on_free) is marked PG_PREZEROED and is not
 * cleared again at its first fault; any other page is cleared at fault.
 */
#ifndef MM_HUGETLB_H
#define MM_HUGETLB_H

#include "mm.h"

struct hstate {
	int level;		/* page-table level of the leaf */
	unsigned order;		/* buddy order of one huge page */
	u64 size;		/* bytes */
	u64 nr;			/* pages in the pool (HugePages_Total) */
	u64 free;		/* not mapped anywhere (HugePages_Free, reserved ones included) */
	u64 resv;		/* promised to mappings, not yet faulted (HugePages_Rsvd) */
	struct page *freelist;	/* free pages, linked through page->next */
};

extern u64 opt_hugepages;		/* hugepages=N */
extern const char *opt_hugepagesz;	/* hugepagesz=2M|1G|4M */

/* Find the sizes the arch can map and fill the boot-time pool. */
void hugetlb_init(void);

/* The default size (the smallest), or NULL if the arch has none. */
struct hstate *hugetlb_default(void);

/* The size mmap()'s MAP_HUGE_* bits ask for (0: default); NULL if unsupported. */
struct hstate *hugetlb_from_mmap_flags(unsigned long flags);

/* The size a VMA was created with. */
struct hstate *hugetlb_of_vma(const struct vma *v);

/* VMA flags that record a hugetlb mapping of h (and whether it reserves). */
unsigned hugetlb_vma_flags(const struct hstate *h, bool reserve);

/* Grow or shrink the pool to n pages (as far as memory allows); returns the new size. */
u64 hugetlb_set_pool(struct hstate *h, u64 n);

/* Reserve n pages for a new mapping; -ENOMEM (nothing reserved) if the pool cannot cover it. */
long hugetlb_reserve(struct hstate *h, u64 n);

/*
 * Could a fault in v still get a page the VMA has not reserved (an
 * unreserved pool page)? When not, a fault's -ENOMEM means the pool is dry
 * (SIGBUS on Linux), not that the kernel is out of memory.
 */
bool hugetlb_fault_can_take(const struct vma *v);

/* Fault in a hugetlb VMA (see mm_fault). */
int hugetlb_fault(struct mm *mm, struct vma *v, unsigned long addr, enum fault_access access);

/*
 * Empty [start, end) of hugetlb VMA v (huge-aligned). removing: the range
 * leaves the address space (munmap), so its unfaulted reservation is
 * dropped; otherwise (MADV_DONTNEED) emptied pages are reserved again.
 */
void hugetlb_zap(struct mm *mm, struct vma *v, unsigned long start, unsigned long end, bool removing);

/* mremap: move the huge entries of [from, from + len) of v to [to, to + len)
 * (empty, huge-aligned); pages are not copied. -ENOMEM if a table is missing. */
int hugetlb_move(struct mm *mm, struct vma *v, unsigned long from, unsigned long to, unsigned long len);

/* fork: share v's pages with the child (copy-on-write when private). */
int hugetlb_copy(struct mm *dst, struct mm *src, struct vma *v);

/* mprotect: rewrite v's huge leaves in [start, end) for its new flags. */
void hugetlb_change_protection(struct mm *mm, struct vma *v, unsigned long start, unsigned long end);

/* Present huge pages of v in [start, end), in bytes (for smaps). */
u64 hugetlb_rss_bytes(struct mm *mm, struct vma *v, unsigned long start, unsigned long end);

/* /proc/meminfo's hugepage lines, for the default size. */
void hugetlb_meminfo(u64 *total, u64 *free, u64 *resv, u64 *size_kb);

#endif
