/*
 * hugetlb.h - pools of huge pages and MAP_HUGETLB mappings.
 *
 * A huge page is mapped by one leaf above the last level, or by one whole
 * contiguous run of leaves (the arch's contiguous hint: all entries of the
 * run written together through pte_update_run()), and backed by a naturally
 * aligned buddy block of the same size. The sizes, smallest first (Linux's
 * arm64 and MicroBlaze offer the same ones):
 *
 *   arm64 4 KiB pages   64K (16 pages), 2M (block), 32M (16 blocks), 1G (block)
 *   arm64 16 KiB pages  2M (128 pages), 32M (block), 1G (32 blocks)
 *   arm64 64 KiB pages  2M (32 pages), 512M (block), 16G (32 blocks)
 *   MicroBlaze          4M (block), 16M (4 blocks: one 16M UTLB entry)
 *
 * The default size (MAP_HUGETLB without a size, /proc/sys/vm/nr_hugepages,
 * /proc/meminfo) is the block one level above pages, as Linux's HPAGE_SIZE.
 * Each size has a pool, filled by hugepagesz=S hugepages=N pairs at boot;
 * the default one is also resized by writing /proc/sys/vm/nr_hugepages.
 *
 * Accounting follows Linux: a mapping reserves its pages at mmap time
 * (HugePages_Rsvd), a fault takes one from the pool, munmap gives faulted
 * pages back and drops the rest of the reservation. The invariant kept
 * here: Rsvd == the number of not-yet-faulted pages of reserving private
 * VMAs plus the reserved empty slots of shared mappings' files.
 *
 * Cleared exactly once: a page that entered the pool zeroed (init_on_alloc)
 * or went back zeroed (init_on_free) is marked PG_PREZEROED and is not
 * cleared again at its first fault; any other page is cleared at fault.
 */
#ifndef MM_HUGETLB_H
#define MM_HUGETLB_H

#include "mm.h"

struct hstate {
	int index;		/* in the table of sizes (VM_HUGE_INDEX of its VMAs) */
	int level;		/* page-table level of the leaves */
	unsigned cont;		/* leaves per huge page: 1, or a whole contiguous run */
	unsigned order;		/* buddy order of one huge page */
	u64 size;		/* bytes */
	u64 nr;			/* pages in the pool (HugePages_Total) */
	u64 free;		/* not mapped anywhere (HugePages_Free, reserved ones included) */
	u64 resv;		/* promised to mappings, not yet faulted (HugePages_Rsvd) */
	struct page *freelist;	/* free pages, linked through page->next */
};

/*
 * The bootargs, in command-line order (called by the parser, before
 * hugetlb_init): hugepagesz=S names the size the next hugepages=N fills;
 * a hugepages=N before any hugepagesz= fills the default size. False for
 * a value that cannot be kept (malformed, too many words).
 */
bool hugetlb_bootarg_size(const char *val);
bool hugetlb_bootarg_pages(const char *val);

/* Find the sizes the arch can map and fill the boot-time pools. */
void hugetlb_init(void);

/* The default size, or NULL if the arch has none. */
struct hstate *hugetlb_default(void);

/* The sizes, smallest first: hugetlb_hstate(0 .. hugetlb_nr_hstates() - 1). */
int hugetlb_nr_hstates(void);
struct hstate *hugetlb_hstate(int i);

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
bool hugetlb_fault_can_take(const struct vma *v, unsigned long addr);

/* Sizes at most (VM_HUGE_INDEX has two bits). */
#define HUGETLB_MAX_SIZES 4

/* The name /proc/<pid>/maps gives every MAP_HUGETLB mapping (Linux: its hugetlbfs file's). */
#define HUGETLB_FILE_NAME "/anon_hugepage (deleted)"

/*
 * The file behind a new shared mapping of n huge pages of h from file page
 * 'first' (the mmap offset in huge pages; Linux: the hugetlbfs file of an
 * anonymous MAP_SHARED | MAP_HUGETLB mapping), holding the pages by index
 * from the VMA's offset. No reservation yet (hugetlb_file_reserve()). One
 * reference, for the VMA; NULL when out of memory.
 */
struct vma_file *hugetlb_file_create(struct hstate *h, u64 first, u64 n);

/* The caller has reserved the file's n pages (hugetlb_reserve()): the
 * file holds that reservation now, one page per slot not yet faulted. */
void hugetlb_file_reserve(struct vma_file *f);

/*
 * What names a new private mapping (Linux gives it a hugetlbfs file too):
 * a device and inode number for /proc/<pid>/maps, shared by its splits and
 * fork copies, and no pages (names_only). NULL when out of memory.
 */
struct vma_file *hugetlb_private_create(void);

/* The device of the files above (Linux: hugetlbfs's internal mount), from fs_init(). */
void hugetlb_set_dev(u32 dev);

/*
 * MADV_REMOVE of [start, end) of v (a shared mapping), as Linux's hugetlbfs
 * hole punch: the whole huge pages inside are unmapped from every mapping
 * of the file, in every address space, and the file lets go of them (a
 * later fault takes a new page, unreserved); slots not faulted yet keep
 * their reservation; the parts of huge pages at either end are zeroed in
 * place (still mapped).
 */
void hugetlb_punch(struct vma *v, unsigned long start, unsigned long end);

/*
 * MAP_FIXED over [start, end) of mm: keep the files of the shared mappings
 * there alive (their pages and reservations) until hugetlb_release_held(),
 * as Linux frees a file whose last mapping goes only when the system call
 * returns (its fput is deferred), after the new mapping has reserved.
 */
void hugetlb_hold_files(struct mm *mm, unsigned long start, unsigned long end);
void hugetlb_release_held(void);

/* The invariant checker: each page a shared mapping's file holds (fn), and
 * the reservations the files hold, added to resv[] by size index. */
void hugetlb_file_pages(void (*fn)(struct hstate *h, struct page *pg, void *arg), void *arg,
			u64 resv[HUGETLB_MAX_SIZES]);

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

/* fork: share v's private pages with the child, copy-on-write. A shared
 * mapping's entries are not copied (Linux's vma_needs_copy()): the child's
 * faults find the pages in the file. */
int hugetlb_copy(struct mm *dst, struct mm *src, struct vma *v);

/* mprotect: rewrite v's huge leaves in [start, end) for its new flags. */
void hugetlb_change_protection(struct mm *mm, struct vma *v, unsigned long start, unsigned long end);

/* Present huge pages of v in [start, end), in bytes (for smaps). */
u64 hugetlb_rss_bytes(struct mm *mm, struct vma *v, unsigned long start, unsigned long end);

/* smaps' Shared_Hugetlb and Private_Hugetlb of v, in bytes: its present
 * pages mapped more than once (anywhere), and the others, as Linux counts. */
void hugetlb_smaps_bytes(struct mm *mm, struct vma *v, u64 *shared, u64 *priv);

/* /proc/meminfo's hugepage lines, for the default size. */
void hugetlb_meminfo(u64 *total, u64 *free, u64 *resv, u64 *size_kb);

/* Bytes in the pools of every size (meminfo's Hugetlb:, CommitLimit). */
u64 hugetlb_total_bytes(void);

#endif
