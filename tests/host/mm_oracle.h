/*
 * mm_oracle.h - checks of user address spaces on the host's fake machine
 * (mm_rules_env.c), shared by test_mm_rules.c and the libFuzzer target
 * fuzz_mm.c: what every page-table entry of a set of live mms must satisfy,
 * read straight from the TLB model's memory.
 */
#ifndef MM_ORACLE_H
#define MM_ORACLE_H

#include "mm.h"

/*
 * Check every entry of the n mms: each lies inside a VMA; a valid leaf is
 * at the last level (or at the level of its hugetlb VMA, or a PMD leaf in
 * a VM_HUGEPAGE VMA), user and non-global, executable exactly when the VMA
 * is, writable only when the VMA is and no copy-on-write is pending;
 * PROT_NONE entries only in inaccessible VMAs; no unknown software entry;
 * no entry maps a free page; and each page's reference count equals the
 * number of entries mapping it across the n mms. Returns NULL, or a
 * description of the first problem (valid until the next call).
 */
const char *mm_oracle_pt_check(struct mm *const *mms, int n);

/* Make m current in the TLB model and access every page it maps, as a CPU would. */
void mm_oracle_touch(struct mm *m);

#endif
