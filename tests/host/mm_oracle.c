/*
 * mm_oracle.c - the page-table checks of mm_oracle.h, on the fake machine.
 */
#include <stdio.h>
#include <string.h>
#include "mm_oracle.h"
#include "mm_rules_env.h"
#include "hugetlb.h"
#include "page_alloc.h"
#include "tlb_model.h"

#define P PAGE_SIZE

typedef void (*entry_fn)(struct mm *m, unsigned long va, pteval_t d, int level, void *arg);

/* Visit every non-empty leaf-level entry of m's tables, reading the model's
 * memory directly (no simulated access, so nothing is cached by this). */
static void walk_raw(struct mm *m, phys_addr_t t, int level, unsigned long base, entry_fn fn,
		     void *arg)
{
	for (unsigned long i = 0; i < arch_pt_entries(level); i++) {
		pteval_t d = tlb_model_phys_read64(t + i * sizeof(pteval_t));
		unsigned long va = base + (i << arch_pt_shift(level));

		if (d == ARCH_PTE_INVALID)
			continue;
		if (arch_pte_is_table(d, level))
			walk_raw(m, arch_pte_pa(d), level + 1, va, fn, arg);
		else
			fn(m, va, d, level, arg);
	}
}

static void walk_all(struct mm *m, entry_fn fn, void *arg)
{
	walk_raw(m, m->pt.root, 0, 0, fn, arg);
}

static int map_count[ENV_POOL_PAGES];	/* entries mapping each pool page */
static char pt_problem[200];

static void check_entry(struct mm *m, unsigned long va, pteval_t d, int level, void *arg)
{
	struct vma *v = vma_find(m, va);
	phys_addr_t pa = 0;

	(void)arg;
	if (pt_problem[0])
		return;
	if (!v) {
		snprintf(pt_problem, sizeof(pt_problem), "entry 0x%llx at va 0x%lx outside every VMA",
			 (unsigned long long)d, va);
		return;
	}
	if (arch_pte_valid(d)) {
		unsigned prot = arch_pte_prot(d);
		struct page *pg = phys_to_page(arch_pte_pa(d));

		if ((v->flags & VM_HUGETLB) && hugetlb_of_vma(v)->cont > 1)	/* a run member: the huge page's head */
			pg = phys_to_page(arch_pte_pa(d) & ~(phys_addr_t)(hugetlb_of_vma(v)->size - 1));

		pa = arch_pte_pa(d);
		if (level != PT_LAST_LEVEL && !(level == PT_LAST_LEVEL - 1 && (v->flags & VM_HUGEPAGE)) &&
		    !((v->flags & VM_HUGETLB) && level == hugetlb_of_vma(v)->level))
			snprintf(pt_problem, sizeof(pt_problem), "level-%d leaf at va 0x%lx", level, va);
		else if (!(v->flags & VM_ACCESS))
			snprintf(pt_problem, sizeof(pt_problem), "valid leaf at 0x%lx in a PROT_NONE VMA", va);
		else if ((prot & (PT_USER | PT_NG)) != (PT_USER | PT_NG))
			snprintf(pt_problem, sizeof(pt_problem), "leaf at 0x%lx not user/non-global", va);
		else if (!!(prot & PT_EXEC) != !!(v->flags & VM_EXEC))
			snprintf(pt_problem, sizeof(pt_problem), "leaf at 0x%lx exec %d, VMA flags 0x%x", va,
				 !!(prot & PT_EXEC), v->flags);
		else if ((prot & PT_WRITE) && !(v->flags & VM_WRITE))
			snprintf(pt_problem, sizeof(pt_problem), "writable leaf at 0x%lx, VMA flags 0x%x", va,
				 v->flags);
		else if ((prot & PT_WRITE) && !(v->flags & VM_SHARED) && pg && page_count(pg) != 1)
			snprintf(pt_problem, sizeof(pt_problem),
				 "writable leaf at 0x%lx on a page shared %d times (copy-on-write lost)", va,
				 page_count(pg));
	} else if (arch_pte_swp_kind(d) == ARCH_SWP_PROTNONE) {
		pa = arch_pte_swp_pa(d);
		if (v->flags & VM_ACCESS)
			snprintf(pt_problem, sizeof(pt_problem), "PROT_NONE entry at 0x%lx, VMA flags 0x%x", va,
				 v->flags);
	} else if (arch_pte_swp_kind(d) != ARCH_SWP_GUARD) {
		snprintf(pt_problem, sizeof(pt_problem), "unknown entry 0x%llx at 0x%lx",
			 (unsigned long long)d, va);
	}
	if (pa && (v->flags & VM_HUGETLB) && hugetlb_of_vma(v)->cont > 1 &&
	    (va & (hugetlb_of_vma(v)->size - 1)))
		pa = 0;	/* another member of a run: its page is counted at the run's first entry */
	if (pa) {
		struct page *pg = phys_to_page(pa);

		if (!pg || !(pg->flags & PG_HEAD) || pg->refcount <= 0)
			snprintf(pt_problem, sizeof(pt_problem), "entry at 0x%lx maps a free page 0x%llx", va,
				 (unsigned long long)pa);
		else
			map_count[(pa - ENV_POOL_BASE) / P]++;
	}
}

/* A page a shared hugetlb mapping's file holds: one reference of the file's own. */
static void count_file_page(struct hstate *h, struct page *pg, void *arg)
{
	phys_addr_t pa = page_to_phys(pg);

	(void)h;
	(void)arg;
	if (pa >= ENV_POOL_BASE && pa < ENV_POOL_BASE + (phys_addr_t)ENV_POOL_PAGES * P)
		map_count[(pa - ENV_POOL_BASE) / P]++;
}

/* A page a shared anonymous mapping's object holds (memfd_for_each_page()). */
static void count_object_page(struct page *pg, void *arg)
{
	(void)arg;
	map_count[(page_to_phys(pg) - ENV_POOL_BASE) / P]++;
}

/* Every page's reference count is the number of entries mapping it, plus
 * one when a shared hugetlb mapping's file or a shared anonymous object
 * holds it. */
static void check_counts(void)
{
	for (unsigned long i = 0; i < ENV_POOL_PAGES && !pt_problem[0]; i++) {
		struct page *pg = phys_to_page(ENV_POOL_BASE + i * P);

		if (map_count[i] && map_count[i] != pg->refcount)
			snprintf(pt_problem, sizeof(pt_problem), "page 0x%llx mapped %d times, count %d",
				 (unsigned long long)(ENV_POOL_BASE + i * P), map_count[i], pg->refcount);
	}
}

const char *mm_oracle_pt_check(struct mm *const *mms, int n)
{
	memset(map_count, 0, sizeof(map_count));
	pt_problem[0] = 0;
	u64 file_resv[HUGETLB_MAX_SIZES] = { 0 };

	for (int i = 0; i < n; i++)
		walk_all(mms[i], check_entry, NULL);
	hugetlb_file_pages(count_file_page, NULL, file_resv);
	memfd_for_each_page(count_object_page, NULL);
	check_counts();
	return pt_problem[0] ? pt_problem : NULL;
}

static void touch_entry(struct mm *m, unsigned long va, pteval_t d, int level, void *arg)
{
	(void)m;
	(void)level;
	(void)arg;
	if (arch_pte_valid(d))
		tlb_model_access(va, NULL);
}

void mm_oracle_touch(struct mm *m)
{
	tlb_model_set_user(m->pt.root, m->pt.asid);
	walk_all(m, touch_entry, NULL);
}

