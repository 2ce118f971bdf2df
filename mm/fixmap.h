/*
 * fixmap.h - fixed kernel virtual slots, one page each, at FIXMAP_BASE.
 *
 * The fixmap reaches physical pages that no other mapping covers right
 * now: page-table pages before the linear map exists or while a split
 * hides them, the device tree before the linear map, an early console.
 * Its tables are static pages inside the kernel image (.bss), so they are
 * always reachable through the image alias and need no allocator.
 */
#ifndef MM_FIXMAP_H
#define MM_FIXMAP_H

#include "pgtable.h"

#define FIX_DTB_PAGES 257   /* 1 MiB window (QEMU pads its DTB to 1 MiB) + 1 page for an unaligned start */

enum fixmap_slot {
	FIX_PT_TABLE,                          /* + level: table pages during walks */
	FIX_CONSOLE = FIX_PT_TABLE + PT_LEVELS, /* early console registers */
	FIX_DTB,                               /* FIX_DTB_PAGES consecutive slots */
	FIX_NR_SLOTS = FIX_DTB + FIX_DTB_PAGES,
};

/*
 * Link the static fixmap tables into the kernel root of 'kernel' (which must
 * be reachable: inside the image, or the MMU off). Call once, early, before
 * anything that needs a fixmap slot.
 */
void fixmap_init(const struct pt_space *kernel);

/* The virtual address of a slot. */
unsigned long fixmap_slot_va(unsigned slot);

/* Map pa (a page) at slot with prot; returns the slot's address. */
void *fixmap_map(unsigned slot, phys_addr_t pa, unsigned prot);

/* Remove the slot's mapping (with the TLBI it needs). */
void fixmap_unmap(unsigned slot);

/* The page-table accessor's slot for a table page of 'level' (pt_page_va). */
pteval_t *fixmap_map_table(int level, phys_addr_t pa);

/*
 * Map a device tree of 'size' bytes at pa read-only in the DTB window and
 * return the address of its first byte. Panics if it does not fit.
 */
void *fixmap_map_dtb(phys_addr_t pa, u64 size);

/*
 * Map a device tree whose size is not known yet: its header first, then as
 * many bytes as its totalsize says, at most the DTB window. *mapped gets the
 * number of bytes that may be read. Panics if dtb_pa is 0 (no device tree).
 */
const void *fixmap_map_dtb_header_first(phys_addr_t dtb_pa, u32 *mapped);

/* How many times a slot was pointed at a different page. */
u64 fixmap_remap_count(void);

#endif
