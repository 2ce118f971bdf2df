/*
 * fuzz_mm_check.h - mm/mm_check.c inside fuzz_mm (see fuzz_mm_check.c).
 */
#ifndef FUZZ_MM_CHECK_H
#define FUZZ_MM_CHECK_H

/* After env_boot(): the old counter's block belongs to the new, empty pool;
 * the next check allocates a counter from it. */
void fuzz_mm_check_forget(void);

/* Before the leak check: give the counter's block back to the pool. */
void fuzz_mm_check_release(void);

#endif
