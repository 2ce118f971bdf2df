/*
 * ptdump.h - print page tables the way Linux's arm64 ptdump does, and count
 * what a range is mapped with.
 *
 * One line per run of entries with the same level and attributes:
 *
 *   0xffff000000000000-0xffff000000200000           2M PMD       RW NX SHD AF        BLK UXN    MEM/NORMAL
 *
 * range, size, level name, then (for valid entries) the arch's attribute
 * tokens. Section markers ("---[ Linear Mapping start ]---") come from the
 * arch's marker table. A line giving each level's geometry, then a summary
 * line end the kernel dump:
 *
 *   ptdump: levels: PGD 512G x512, PUD 1G x512 leaf, PMD 2M x512 leaf cont 16, PTE 4K x512 leaf cont 16
 *   ptdump: linear map: 4 page-table pages; 1G blocks: 3, 2M blocks: 1, ...
 */
#ifndef MM_PTDUMP_H
#define MM_PTDUMP_H

#include "pgtable.h"

struct pt_counts {
	u64 tables;                  /* table pages below the root */
	u64 leaves[PT_LEVELS];       /* leaves without the contiguous bit, per level */
	u64 cont_runs[PT_LEVELS];    /* contiguous runs, per level (each run once) */
};

/* Count tables and leaves of as translating any VA in [start, last]. */
void pt_count_range(const struct pt_space *as, unsigned long start, unsigned long last,
		    struct pt_counts *out);

/* The same for the linear map region [PAGE_OFFSET, PAGE_END). */
void pt_count_linear(const struct pt_space *as, struct pt_counts *out);

/* Format the summary line (no newline) for counts c; returns its length. */
int ptdump_summary(const struct pt_counts *c, char *buf, size_t size);

/* Dump the kernel's tables (all of TTBR1 space) and the summary via printk. */
void ptdump_kernel(const struct pt_space *kernel);

/*
 * The same into buf (always NUL-terminated when size > 0). Returns the
 * length the full output has, like snprintk.
 */
size_t ptdump_kernel_buf(const struct pt_space *kernel, char *buf, size_t size);

/*
 * The user half of address space as (ptdump format), the levels line, then a line counting
 * its table pages and leaves per size (and contiguous runs, where there are
 * some): /proc/self/pagetables.
 */
size_t ptdump_user_buf(const struct pt_space *as, char *buf, size_t size);

#endif
