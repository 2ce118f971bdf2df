/*
 * linear_map.h - the kernel's linear map of all RAM, and changing it live.
 *
 * Every RAM bank is mapped at PAGE_OFFSET + (pa - base), base being the
 * lowest RAM address rounded down to the largest block size, with the
 * largest leaves that fit: 1 GiB blocks, contiguous runs of 2 MiB blocks,
 * 2 MiB blocks, contiguous runs of pages, pages. Normal memory, RW, NX.
 *
 * At run time set_memory_*() change permissions of linear-map pages. They
 * split what straddles the range first - a contiguous run is unfolded, a
 * block becomes a table of smaller leaves, always by break-before-make -
 * and then change whole leaves in place. Blocks outside the range are left
 * alone. linear_map_merge() folds a table whose leaves became uniform again
 * back into one block (by BBM); set_memory_*() never do it on their own.
 */
#ifndef MM_LINEAR_MAP_H
#define MM_LINEAR_MAP_H

#include "pgtable.h"

/* rodata= */
enum { RODATA_OFF, RODATA_ON, RODATA_FULL };
/* linear_map= : the largest thing the builder and the splitter may use */
enum {
	LINEAR_MAP_PTE,    /* pages only */
	LINEAR_MAP_CONT,   /* pages, and contiguous runs of pages */
	LINEAR_MAP_BLOCK,  /* everything: blocks, runs of blocks, runs of pages, pages */
};

struct linear_map_config {
	int rodata;              /* RODATA_FULL (default): text+rodata alias read-only */
	int mode;                /* LINEAR_MAP_BLOCK (default) */
	phys_addr_t ro_start;    /* physical range of the image's text + rodata */
	phys_addr_t ro_end;
};

/*
 * Map every memblock RAM bank into 'kernel' (whose root must be reachable:
 * in the image) and declare the linear map live. Needs fixmap_init() and
 * the MMU on. Under rodata=full the alias of [ro_start, ro_end) is mapped
 * read-only, split only as far as its edges need.
 */
void linear_map_build(const struct pt_space *kernel, const struct linear_map_config *cfg);

/* Linear-map VA range currently mapped: [PAGE_OFFSET, linear_map_end()). */
unsigned long linear_map_end(void);

/*
 * Make addr (page aligned, in the linear map) a leaf boundary: unfold the
 * contiguous run and split the block that straddle it. 0, or -ENOMEM.
 */
int linear_map_split(unsigned long addr);

/*
 * Repaint the whole linear map to pages (no blocks, no contiguous runs)
 * and keep it so: later splits and maps use pages only. The caller holds
 * every other CPU still. Counts the blocks split and runs unfolded into
 * *splits and *unfolds. 0, or -ENOMEM.
 */
int linear_map_repaint_pages(u64 *splits, u64 *unfolds);

/*
 * Re-merge around addr: from the lowest table level up, replace a table whose
 * leaves map one aligned contiguous range with equal permissions by one
 * block, and free the table; stop at the first level that is not uniform.
 * Contiguous bits are not re-created. Returns the number of levels merged.
 */
int linear_map_merge(unsigned long addr);

/*
 * Change permissions of npages linear-map pages from addr: read-only,
 * writable, not executable, executable. 0, -EINVAL for an unaligned or
 * out-of-range request, -ENOMEM when a split could not get a table.
 */
int set_memory_ro(unsigned long addr, int npages);
int set_memory_rw(unsigned long addr, int npages);
int set_memory_nx(unsigned long addr, int npages);
int set_memory_x(unsigned long addr, int npages);

#endif
