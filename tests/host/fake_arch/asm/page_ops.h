/*
 * Fake arch for host tests: clear a page with memset (the real ones are in
 * arch/<arch>/kernel/page_ops.c).
 */
#ifndef ASM_PAGE_OPS_H
#define ASM_PAGE_OPS_H
#include <asm/memlayout.h>

static inline void arch_clear_page(void *va)
{
	__builtin_memset(va, 0, PAGE_SIZE);
}

/* Contract: copy the PAGE_SIZE bytes at src to dst (distinct pages); here
 * just memcpy. */
static inline void arch_copy_page(void *dst, const void *src)
{
	__builtin_memcpy(dst, src, PAGE_SIZE);
}

#endif
