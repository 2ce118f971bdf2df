/*
 * memblock.h - early physical memory bookkeeping.
 *
 * Before the buddy allocator exists the kernel only knows two lists of
 * physical ranges: the RAM banks (from the device tree /memory nodes) and
 * the reserved ranges (kernel image, DTB, initrd, /reserved-memory, and
 * everything memblock_alloc() handed out). "Free" memory is RAM minus
 * every reserved range. page_alloc_init() turns the free ranges into
 * buddy blocks, after which memblock is only used for its dump.
 *
 * Both lists are fixed-size tables (no allocator exists yet); overflowing
 * one panics and says which table is full.
 */
#ifndef MM_MEMBLOCK_H
#define MM_MEMBLOCK_H

#include "types.h"

/* Entries in each table (RAM banks, reserved ranges). */
#define MEMBLOCK_MAX 64

/*
 * Add a RAM bank [base, base + size). The RAM table stays sorted by address;
 * a bank that overlaps or touches an existing one is merged with it.
 * size == 0 is ignored.
 */
void memblock_add(phys_addr_t base, u64 size);

/*
 * Reserve [base, base + size) so it is never handed out. The range may lie
 * partly or wholly outside RAM. 'what' names the range in memblock_dump();
 * it must stay valid forever (a string literal). Reservations with the same
 * name that overlap or touch are merged; different names are kept apart.
 */
void memblock_reserve(phys_addr_t base, u64 size, const char *what);

/*
 * Allocate 'size' bytes aligned to 'align' (a power of two) from the highest
 * free RAM that fits, and reserve it as "memblock". The memory is NOT zeroed
 * (the linear map may not exist yet). Panics, after a dump, when nothing
 * fits: early boot cannot continue without it.
 */
phys_addr_t memblock_alloc(u64 size, u64 align);

/* Sum of the RAM bank sizes. */
u64 memblock_ram_total(void);
/* Lowest RAM address, and the end (exclusive) of the highest bank; 0 without RAM. */
phys_addr_t memblock_start(void);
phys_addr_t memblock_end(void);

/* Number of RAM banks (after merging), and bank i (0 <= i < count). */
int memblock_ram_count(void);
void memblock_ram_range(int i, phys_addr_t *base, u64 *size);

/*
 * The i-th free range (RAM minus every reservation), in ascending order,
 * shrunk inwards to whole pages; ranges shorter than a page are skipped.
 * Returns 1 and fills base/size, or 0 when i is past the last range.
 * Each free range lies inside one RAM bank.
 */
int memblock_free_range(int i, phys_addr_t *base, u64 *size);

/* printk one line per RAM bank and per reserved range (with its name). */
void memblock_dump(void);

/* Forget every bank and reservation (host tests start from scratch). */
void memblock_reset(void);

#endif
