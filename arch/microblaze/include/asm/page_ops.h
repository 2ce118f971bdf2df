/*
 * asm/page_ops.h - MicroBlaze: clear one page (arch/microblaze/kernel/page_ops.c),
 * copy one page.
 */
#ifndef ASM_PAGE_OPS_H
#define ASM_PAGE_OPS_H
#include <asm/memlayout.h>

/*
 * Contract: zero the PAGE_SIZE bytes at va (page aligned). Word stores of
 * the zero register, 16 to a loop step. Counts nothing: the page
 * allocator's zero_block() does the accounting.
 */
void arch_clear_page(void *va);

/* Contract: copy the PAGE_SIZE bytes at src to dst (distinct pages); here
 * just memcpy (kernel/string.c: word copies). */
static inline void arch_copy_page(void *dst, const void *src)
{
	__builtin_memcpy(dst, src, PAGE_SIZE);
}

#endif
