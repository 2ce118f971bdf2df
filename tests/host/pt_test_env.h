/*
 * pt_test_env.h - a tiny stand-in for memblock and the buddy allocator,
 * with the real names and signatures (mm/memblock.h, mm/page_alloc.h), so
 * the page-table tests run without them. Memory is the TLB model's.
 */
#ifndef PT_TEST_ENV_H
#define PT_TEST_ENV_H

#include "types.h"

struct env_bank {
	phys_addr_t base;
	u64 size;
};

/*
 * Start over with these RAM banks. memblock_alloc() hands out pages from the
 * top of the highest bank downwards, filled with garbage (memblock does not
 * zero); alloc_pages() hands out pages upwards from buddy_base.
 */
void env_reset(const struct env_bank *banks, int n, phys_addr_t buddy_base);

/* The next alloc_pages() returns the page at pa. */
void env_force_next_alloc(phys_addr_t pa);

/* Make alloc_pages() fail (return NULL) while set. */
void env_alloc_fail(bool fail);

/* Pages allocated by the fake buddy and not freed; page_alloc_count_pt totals. */
long env_pages_in_use(void);
long env_pt_count(bool user);

#endif
