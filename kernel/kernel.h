/*
 * kernel.h - the generic boot entry and what it found.
 */
#ifndef KERNEL_H
#define KERNEL_H

#include "types.h"
#include "fdt.h"
#include "ptdump.h"

/* Generic boot: called by the arch entry code with the DTB mapped at dtb
 * (at most dtb_max_size bytes readable) and its physical address. */
void kernel_main(const void *dtb, u32 dtb_max_size, phys_addr_t dtb_pa) __attribute__((noreturn));

/* The device tree and what boot read from it (valid after kernel_main starts). */
const struct fdt *kernel_fdt(void);
const struct fdt_boot_info *kernel_boot_info(void);

/* What the linear map was built with, counted right after it was built. */
extern struct pt_counts linear_map_boot_counts;

#endif
