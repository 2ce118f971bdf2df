/*
 * thp.h - transparent huge pages for anonymous memory.
 *
 * A fault in a private anonymous VMA that allows it (transparent_hugepage=
 * always, or madvise and MADV_HUGEPAGE) maps a whole leaf one level above
 * the last (2 MiB on arm64 with 4 KiB pages, 4 MiB on MicroBlaze) when the
 * aligned block lies inside the VMA, nothing is mapped there yet and the
 * buddy allocator has a free block and a table page for the later split;
 * otherwise it falls back to small pages.
 *
 * Any operation on part of such a leaf (mprotect, munmap, madvise, mseal,
 * fork, a kernel access) first splits it into small pages without losing
 * data: the block becomes a table of pages mapping the same memory, through
 * the choke point (break-before-make on arm64, TLB shadow on MicroBlaze).
 */
#ifndef MM_THP_H
#define MM_THP_H

#include "mm.h"

#define THP_LEVEL	(PT_LAST_LEVEL - 1)	/* the level of a transparent huge page's block */

enum { THP_NEVER, THP_MADVISE, THP_ALWAYS };
extern int opt_thp;	/* transparent_hugepage=never|madvise|always */

/* Try to map a huge leaf for a fault at addr in v: 0 if it did, 1 to fall
 * back to small pages. */
int thp_fault(struct mm *mm, struct vma *v, unsigned long addr);

/*
 * c points at a valid huge leaf of a user table: make it a table of pages.
 * It cannot fail: thp_fault() allocated that table with the huge page and
 * keeps it until now (as Linux deposits a page table with each huge PMD),
 * so mprotect, munmap, fork and exit never meet a split without memory.
 */
void thp_split(struct mm *mm, struct pt_cursor *c);

/* MADV_COLLAPSE may work in v (private anonymous, room for one aligned huge leaf). */
bool thp_collapse_allowed(const struct vma *v);

/*
 * MADV_COLLAPSE of the aligned block at base in v: its small pages are
 * copied into one new huge page (empty entries read as zero) that replaces
 * them. 0 (done, or a huge leaf already), 1 (nothing to collapse: no table,
 * no writable entry, a guard marker), or -ENOMEM.
 */
int thp_collapse(struct mm *mm, struct vma *v, unsigned long base);

/* Bytes of memory mapped by transparent huge pages, system-wide and in a range. */
u64 thp_total_bytes(void);
u64 thp_range_bytes(struct mm *mm, unsigned long start, unsigned long end);

#endif
