/*
 * fuzz_mm_check.c - the kernel's invariant checker (mm/mm_check.c) as an
 * oracle of fuzz_mm, on the fake machine.
 *
 * mm_check.c is compiled here unchanged, in this file, so the fuzzer can
 * drop its per-page counter between inputs: the counter lives in a block
 * of the page pool, and env_boot() empties the pool at the start of every
 * input, so a counter kept across inputs would share its memory with the
 * next input's pages. The fake machine supplies what the checker asks the
 * rest of the kernel for (mm_rules_env.c): page_frame_index(), the objects
 * behind shared anonymous memory as memfd_for_each_page(); and, below, an
 * empty page cache (no fs/ file is ever mapped here) and the one process.
 */
#include "../../mm/mm_check.c"
#include "fuzz_mm_check.h"
#include "mm_rules_env.h"

/* No fs/ file is mapped on the fake machine (fs_mmap_file() refuses). */
void pagecache_for_each_page(void (*fn)(struct page *pg, void *arg), void *arg)
{
	(void)fn;
	(void)arg;
}

/* The one process's mm, if it has one (mm_check_all() only). */
int proc_live_mms(struct mm **mms, int *pids, int max)
{
	struct proc *p = env_proc();

	if (max < 1 || !p->mm)
		return 0;
	mms[0] = p->mm;
	pids[0] = p->pid;
	return 1;
}

void fuzz_mm_check_forget(void)
{
	count = NULL;
}

void fuzz_mm_check_release(void)
{
	if (count)
		free_pages(phys_to_page(virt_to_phys(count)), count_order);
	count = NULL;
}
