/*
 * asm/page_ops.h - arm64: clear and copy whole pages (arch/arm64/kernel/page_ops.c).
 */
#ifndef ASM_PAGE_OPS_H
#define ASM_PAGE_OPS_H

/*
 * Contract: zero the PAGE_SIZE bytes at va (page aligned, Normal memory
 * in the linear map). With `dc zva` when DCZID_EL0 permits it (one
 * instruction per block of DCZID_EL0.BS words), else paired stores.
 * Counts nothing: the page allocator's zero_block() does the accounting.
 */
void arch_clear_page(void *va);

/* arch_clear_page() as if DCZID_EL0 read dczid (for the tests: the store
 * fallback and each block size can be run whatever this CPU says). */
void arm64_clear_page_dczid(void *va, unsigned long dczid);

/* Contract: copy the PAGE_SIZE bytes at src to dst (both page aligned,
 * distinct pages): 64 bytes per step with paired loads and stores. */
void arch_copy_page(void *dst, const void *src);

#endif
