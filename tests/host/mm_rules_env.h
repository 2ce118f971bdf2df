/*
 * mm_rules_env.h - the fake machine under test_mm_rules.c: RAM, a page
 * allocator with mm/page_alloc.h's names, a kernel linear map on the fake
 * arch (TLB model), and one CPU running one process (see mm_rules_env.c).
 */
#ifndef MM_RULES_ENV_H
#define MM_RULES_ENV_H

#include "types.h"

struct proc;

/* RAM: the linear map covers all of it; the page pool is its first part,
 * memblock (the kernel's own tables) takes pages from its top. */
#define ENV_RAM_BASE	0x40000000ULL
/* 4K pages: a 32 MiB pool; larger pages: 128 MiB (four 16K-layout huge pages). */
#define ENV_POOL_SIZE	(PAGE_SIZE == 4096 ? (32ULL << 20) : (128ULL << 20))
#define ENV_RAM_SIZE	(2 * ENV_POOL_SIZE)
#define ENV_POOL_BASE	ENV_RAM_BASE
#define ENV_POOL_PAGES	(ENV_POOL_SIZE / PAGE_SIZE)

/* Start over: TLB model reset, empty pool, linear map built, MMU on,
 * a fresh current process (no mm yet, no resource limits). */
void env_boot(void);

/* The current process (current_proc()). */
struct proc *env_proc(void);
struct page;
/* Each page the objects behind shared anonymous mappings hold
 * (mm_shmem_create() here), for the reference-count checks: the kernel's
 * memfd_for_each_page() (kernel/memfd.h), defined by the fake machine. */
void memfd_for_each_page(void (*fn)(struct page *pg, void *arg), void *arg);

/* Pages allocated from the pool and not freed; user page-table pages. */
long env_pages_in_use(void);
long env_user_pt_pages(void);

/* n >= 0: only n more allocations succeed; -1: no limit. */
void env_fail_after(long n);

#endif
