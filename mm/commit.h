/*
 * commit.h - overcommit accounting and the address-space limits, as Linux
 * 6.12 has them (mm/commit.c holds the rules; docs/mm-rules.md, OC-*).
 *
 * What is charged: a VMA carries VM_ACCOUNT when its pages count towards
 * the system's commit count (vm_committed_pages, Committed_AS): a private
 * writable mapping and a shared anonymous one, unless it is MAP_NORESERVE
 * (honoured in modes 0 and 1 only) or hugetlb. mm/vma.c keeps the count
 * as VMAs come, go, grow and change flags, so munmap and exit uncharge by
 * themselves; the operations ask vm_enough_memory() before they add
 * charged pages (mmap, brk, mremap growth, mprotect making a private
 * mapping writable, fork).
 */
#ifndef MM_COMMIT_H
#define MM_COMMIT_H

#include "vma.h"

#define OVERCOMMIT_GUESS	0	/* refuse one request larger than RAM + swap */
#define OVERCOMMIT_ALWAYS	1	/* never refuse */
#define OVERCOMMIT_NEVER	2	/* refuse beyond CommitLimit */

/* /proc/sys/vm: overcommit_memory, overcommit_ratio (percent of RAM),
 * overcommit_kbytes (instead of the ratio when not 0), max_map_count. */
extern u64 sysctl_overcommit_memory, sysctl_overcommit_ratio, sysctl_overcommit_kbytes;
extern u64 sysctl_max_map_count;

/* VM_ACCOUNT if a non-hugetlb VMA with vm_flags (file: not anonymous) is charged, else 0. */
unsigned vm_account_flag(unsigned vm_flags, bool file);

/* CommitLimit in pages: overcommit_kbytes, or RAM less the hugetlb pool times the ratio (no swap). */
u64 vm_commit_limit(void);

/*
 * May mm add pages charged pages? 0 or -ENOMEM, by the mode: 0 refuses a
 * request larger than RAM (+ swap: none); 1 allows all; 2 allows while
 * the commit count with these pages stays below CommitLimit less a user
 * reserve (min(total_vm / 32, user_reserve_kbytes)), as Linux's
 * __vm_enough_memory for a process with CAP_SYS_ADMIN.
 */
long vm_enough_memory(const struct mm *mm, unsigned long pages);

/*
 * Linux's may_expand_vm(): may mm get pages more pages of a VMA with
 * flags? False beyond RLIMIT_AS (all VMAs) or RLIMIT_DATA (data mappings:
 * private, writable, not a stack), except RLIMIT_DATA 0 under its hard
 * limit (Linux's workaround for Valgrind).
 */
bool mm_may_expand(const struct mm *mm, unsigned flags, unsigned long pages);

/* Pages of [start, end) in VMAs (*total) and in VM_ACCOUNT ones (*charged). */
void mm_range_pages(struct mm *mm, unsigned long start, unsigned long end, unsigned long *total,
		    unsigned long *charged);

#endif
