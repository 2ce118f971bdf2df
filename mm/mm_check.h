/*
 * mm_check.h - the user address-space invariant checker (bootarg mm_check=N).
 *
 * After every system call that changes mappings, every page fault, every
 * fork and every exit (mm_check=1), or after every Nth event of each of
 * those four kinds (mm_check=N: sampled, for long fuzz campaigns), the
 * hooks below check every live address space and panic with what is wrong
 * and where. What is checked (mm_check.c has the
 * details):
 *   - the VMA set: tree order, heights, balance, gap augmentation, list
 *     (vma_check_report), no two adjacent never-written VMAs (no anon
 *     identity, MF-7) that vma_mergeable() says should be one (unless a
 *     failed unmap left the cut between them, MU-7), and no
 *     anon identity in a shared or hugetlb VMA;
 *   - every non-empty page-table entry: inside a VMA, at a level the VMA
 *     allows (hugetlb leaves only in hugetlb VMAs at their level, and for
 *     a contiguous-run size each run whole: every member what one write
 *     of the run gives; THP leaves only in private anonymous VMAs, no
 *     table in a hugetlb leaf slot, the contiguous bit nowhere else),
 *     with no permission the VMA lacks, no write to a private page
 *     shared copy-on-write nor in a private VMA never written (no anon
 *     identity), PROT_NONE entries only in PROT_NONE VMAs;
 *   - every page that is mapped or held: its reference count equals its
 *     mappings in all live address spaces plus its holders (a memfd, the
 *     hugetlb free pool), recounted in a scratch array indexed by page;
 *   - hugetlb: Rsvd equals the unfaulted pages of reserving VMAs, Free the
 *     free list, Total the free plus the mapped pages;
 *   - each mm's total_vm, data_vm and commit_vm against its VMAs, and
 *     vm_committed_pages (Committed_AS) against every VM_ACCOUNT VMA;
 *   - the user page-table page counter and the THP leaf counter.
 * Free pages returning to their value after each test program is /init's
 * leak check (tests/user/init.c).
 */
#ifndef MM_MM_CHECK_H
#define MM_MM_CHECK_H

#include "mm.h"

extern u64 opt_mm_check;	/* 0: off; N: the hooks check every Nth event of a kind */

/* Boot: with mm_check on, allocate the scratch array (after page_alloc_init). */
void mm_check_init(void);

/*
 * Check the n address spaces mms[] (pids[] names them in messages; they
 * must be every user address space that exists, as the page-table counter
 * is global). Returns NULL if all is well, else a description of the first
 * violation written to buf (size bytes). Changes nothing.
 */
const char *mm_check_report(struct mm *const *mms, const int *pids, int n, char *buf, size_t size);

/* mm_check_report() that panics on a violation: "mm_check: after EVENT at ADDR: ...". */
void mm_check_spaces(struct mm *const *mms, const int *pids, int n, const char *event,
		     unsigned long addr);

/*
 * The hook: count event (at addr) and, if it is the Nth of its kind since
 * the last check of that kind (N = opt_mm_check), check every live
 * process's address space. Needs opt_mm_check != 0.
 */
void mm_check_all(const char *event, unsigned long addr);

static inline void mm_check_after(const char *event, unsigned long addr)
{
	if (opt_mm_check)
		mm_check_all(event, addr);
}

/* How many checks ran and how many events were counted, by kind (system
 * calls, faults, forks, exits): for the tests. */
void mm_check_stats(u64 checks[4], u64 events[4]);

/* Print how many checks ran, and of how many events (at init's exit). */
void mm_check_summary(void);

#endif
