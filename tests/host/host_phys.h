/*
 * host_phys.h - fake physical memory for host unit tests of mm/.
 *
 * Two windows of "physical" RAM, each backed by an aligned host buffer:
 * one at 1 GiB and one far away above 32 GiB, so that tests can build RAM
 * banks that are far apart (as on real boards) or carve holes inside one
 * window. phys_to_virt()/virt_to_phys() (declared in mm/page_alloc.h)
 * translate by offset and abort on an address outside both windows.
 */
#ifndef HOST_PHYS_H
#define HOST_PHYS_H

#include "types.h"

#define HOST_PHYS_LOW_BASE   0x40000000ULL   /* 1 GiB */
#define HOST_PHYS_LOW_SIZE   (64ULL << 20)
#define HOST_PHYS_HIGH_BASE  0x800000000ULL  /* 32 GiB */
#define HOST_PHYS_HIGH_SIZE  (16ULL << 20)

/* Allocate the backing buffers (idempotent). */
void host_phys_init(void);

/* Fill the whole of both windows with 'byte' (to catch missing zeroing). */
void host_phys_fill(int byte);

#endif
