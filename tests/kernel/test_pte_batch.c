/*
 * test_pte_batch.c - in-kernel tests of pte_update_table(), the batched
 * last-level update fork and zap use (mm/pte_update.c).
 */
#include "ktest.h"
#include "mm.h"
#include "vma.h"
#include "pgtable.h"
#include "page_alloc.h"
#include <asm/memlayout.h>

#define BATCH_VA (USER_MMAP_BASE - 64 * PAGE_SIZE)

/* A fresh address space with [BATCH_VA, +n pages) mapped and written, or NULL. */
static struct mm *batch_mm(unsigned long n)
{
	struct mm *mm = mm_create();

	if (!mm)
		return NULL;
	if (!vma_insert(mm, BATCH_VA, BATCH_VA + n * PAGE_SIZE, VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE,
			NULL, 0)) {
		mm_put(mm);
		return NULL;
	}
	for (unsigned long i = 0; i < n; i++)
		mm_fault(mm, BATCH_VA + i * PAGE_SIZE, FAULT_WRITE);
	return mm;
}

/* Permission changes and emptying in one batch: each entry as asked. */
KTEST(pte_batch)
{
	struct mm *mm = batch_mm(20);
	pteval_t new[20];
	struct pt_cursor c;
	bool ok = true;

	if (!mm || !pt_walk(&mm->pt, BATCH_VA, PT_LAST_LEVEL, false, &c) || c.level != PT_LAST_LEVEL) {
		ktest_ok(false, "no address space with 20 pages");
		return;
	}
	for (int i = 0; i < 20; i++)	/* read-only, same pages: more than PTE_BATCH_TLBI_MAX */
		new[i] = arch_pte_mk_leaf(arch_pte_pa(arch_pte_read(c.ptep + i)), PT_USER | PT_READ, PT_LAST_LEVEL);
	pte_update_table(&mm->pt, c.ptep, new, 20, BATCH_VA);
	for (int i = 0; i < 20; i++)
		ok = ok && arch_pte_read(c.ptep + i) == new[i];
	ktest_ok(ok, "20 entries write-protected in one batch");
	mm_put(mm);	/* zaps through the batch too: leakcheck sees the pages come back */
}

/* The checker: a batch entry that would need break-before-make panics. */
KTEST_PANICS(pte_batch_checker)
{
	struct mm *mm = batch_mm(1);
	struct pt_cursor c;
	pteval_t new;

	if (!mm || !pt_walk(&mm->pt, BATCH_VA, PT_LAST_LEVEL, false, &c) || !arch_pte_valid(c.val)) {
		ktest_ok(false, "no address space with a page");
		return;
	}
	new = arch_pte_oa_add(c.val, PAGE_SIZE);	/* another page, in place: unsafe */
	ktest_expect_panic("a batch changing a live page's output address is refused");
	pte_update_table(&mm->pt, c.ptep, &new, 1, BATCH_VA);
}
