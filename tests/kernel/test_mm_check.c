/*
 * test_mm_check.c - the address-space checker (mm/mm_check.c) fires on each
 * invariant it guards.
 *
 * mm_check: two address spaces (a parent and its fork copy) with private,
 * read-only, PROT_NONE, shared, THP-capable and hugetlb VMAs are checked
 * clean; then each invariant is broken on purpose, the report must name
 * it, the damage is undone and the spaces must check clean again.
 * mm_check_sampled: mm_check=N checks one event in N of each kind.
 * mm_check_panics (its own boot): a wrong refcount through the panicking
 * entry point, as a hook would meet it.
 */
#include "ktest.h"
#include "printk.h"
#include "kstring.h"
#include "page_alloc.h"
#include "mm_check.h"
#include "hugetlb.h"
#include "mm_ops.h"

#define P		PAGE_SIZE
#define BASE		0x20000000UL
#define RW		(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE)
#define RO		(VM_READ | VM_MAYREAD | VM_MAYWRITE)
#define HUGE_LEVEL	(PT_LAST_LEVEL - 1)
/* The huge VMAs' size: a HUGE_LEVEL block, or where that level has no
 * leaves (MicroBlaze with 64K pages: it would be 1 GiB) a run of pages. */
#define HUGE_SPAN	(arch_pt_leaf_ok(HUGE_LEVEL) ? pt_level_size(HUGE_LEVEL) : pt_run_size(PT_LAST_LEVEL))

static struct mm *mms[2];
static int nmm;
static char buf[320];

/* Does s contain w? */
static bool contains(const char *s, const char *w)
{
	size_t n = strlen(w);

	for (; *s; s++)
		if (!strncmp(s, w, n))
			return true;
	return false;
}

static const char *report(void)
{
	return mm_check_report(mms, NULL, nmm, buf, sizeof(buf));
}

static void expect_clean(const char *what)
{
	const char *r = report();

	ktest_ok(!r, "%s: no violation (%s)", what, r ? r : "none");
}

static void expect_fires(const char *what, const char *want)
{
	const char *r = report();

	ktest_ok(r && contains(r, want), "%s: reported (%s)", what, r ? r : "nothing");
}

/* Replace the entry for va at level in mm (tables made as needed); returns the old one. */
static pteval_t set_entry(struct mm *mm, unsigned long va, int level, pteval_t new)
{
	struct pt_cursor c;

	if (!pt_walk(&mm->pt, va, level, true, &c) || c.level != level)
		panic("test_mm_check: no level-%d slot at 0x%lx", level, va);
	pte_update(&mm->pt, c.ptep, c.val, new, c.va, level);
	return c.val;
}

static pteval_t entry(struct mm *mm, unsigned long va)
{
	struct pt_cursor c;

	pt_walk(&mm->pt, va, PT_LAST_LEVEL, false, &c);
	return c.level == PT_LAST_LEVEL ? c.val : ARCH_PTE_INVALID;
}

/*
 * A (pages at BASE.. written, at BASE+8P read, at BASE+12P made PROT_NONE)
 * and its fork copy B. Huge-aligned empty VMAs follow: private at ht, hugetlb
 * at hh (no reservation), and in A only, shared at hs.
 */
static unsigned long hs, ht, hh;

static bool build(void)
{
	u64 hsz = HUGE_SPAN;
	struct mm *a = mm_create();
	struct vma *v;

	if (!a)
		return false;
	hs = ALIGN_UP(BASE + 64 * P, hsz);
	ht = hs + 2 * hsz;
	hh = ht + 2 * hsz;
	if (!vma_insert(a, BASE, BASE + 4 * P, RW, NULL, 0) ||
	    !vma_insert(a, BASE + 8 * P, BASE + 10 * P, RO, NULL, 0) ||
	    !(v = vma_insert(a, BASE + 12 * P, BASE + 13 * P, RW, NULL, 0)) ||
	    !vma_insert(a, ht, ht + hsz, RW | VM_NOHUGEPAGE, NULL, 0) ||
	    (hugetlb_default() &&
	     !vma_insert(a, hh, hh + hugetlb_default()->size,
			 RW | hugetlb_vma_flags(hugetlb_default(), false), NULL, 0)))
		return false;
	if (mm_fault(a, BASE, FAULT_WRITE) || mm_fault(a, BASE + P, FAULT_WRITE) ||
	    mm_fault(a, BASE + 8 * P, FAULT_READ) || mm_fault(a, BASE + 12 * P, FAULT_WRITE))
		return false;
	vma_set_flags(a, v, VM_MAYREAD | VM_MAYWRITE);	/* mprotect(PROT_NONE) */
	mm_change_protection(a, v, v->start, v->end);
	mms[0] = a;
	mms[1] = mm_copy(a);
	nmm = 2;
	/* after the fork: a fork fills shared anonymous VMAs with pages */
	return mms[1] && vma_insert(a, hs, hs + hsz, RW | VM_SHARED, NULL, 0);
}

/* Broken entries: outside VMAs, permissions, PROT_NONE, unknown, free pages. */
static void entries(void)
{
	struct mm *a = mms[0];
	phys_addr_t pa = mm_lookup(a, BASE);
	pteval_t ro = entry(a, BASE + 8 * P), old;
	struct page *pg;
	struct vma *v;
	u64 anon;

	old = set_entry(a, BASE + 5 * P, PT_LAST_LEVEL,
			arch_pte_mk_leaf(pa, PT_USER | PT_READ, PT_LAST_LEVEL));
	expect_fires("an entry outside every VMA", "outside every VMA");
	set_entry(a, BASE + 5 * P, PT_LAST_LEVEL, old);

	old = set_entry(a, BASE + 8 * P, PT_LAST_LEVEL,
			arch_pte_mk_leaf(arch_pte_pa(ro), PT_USER | PT_READ | PT_WRITE, PT_LAST_LEVEL));
	expect_fires("a writable entry in a read-only VMA", "writable entry");
	set_entry(a, BASE + 8 * P, PT_LAST_LEVEL, old);

	old = set_entry(a, BASE + 8 * P, PT_LAST_LEVEL,
			arch_pte_mk_leaf(arch_pte_pa(ro), PT_USER | PT_READ | PT_EXEC, PT_LAST_LEVEL));
	expect_fires("an executable entry in a VMA without exec", "executable entry");
	set_entry(a, BASE + 8 * P, PT_LAST_LEVEL, old);

	old = set_entry(a, BASE, PT_LAST_LEVEL,
			arch_pte_mk_leaf(pa, PT_USER | PT_READ | PT_WRITE, PT_LAST_LEVEL));
	expect_fires("a writable entry on a page shared after fork", "copy-on-write lost");
	v = vma_find(a, BASE);
	anon = v->anon;
	v->anon = 0;
	expect_fires("a writable private entry in a VMA never written", "no anon identity");
	v->anon = anon;
	set_entry(a, BASE, PT_LAST_LEVEL, old);

	old = set_entry(a, BASE, PT_LAST_LEVEL, arch_pte_mk_swp(ARCH_SWP_PROTNONE, pa));
	expect_fires("a PROT_NONE entry in an accessible VMA", "PROT_NONE entry");
	set_entry(a, BASE, PT_LAST_LEVEL, old);

	old = entry(a, BASE + 12 * P);
	set_entry(a, BASE + 12 * P, PT_LAST_LEVEL,
		  arch_pte_mk_leaf(arch_pte_swp_pa(old), PT_USER | PT_READ, PT_LAST_LEVEL));
	expect_fires("an accessible entry in a PROT_NONE VMA", "in a PROT_NONE VMA");
	set_entry(a, BASE + 12 * P, PT_LAST_LEVEL, old);

	old = set_entry(a, BASE + 2 * P, PT_LAST_LEVEL, arch_pte_mk_swp(3, 0));
	expect_fires("an unknown software entry", "unknown software entry");
	set_entry(a, BASE + 2 * P, PT_LAST_LEVEL, old);

	pg = alloc_pages(0, 0);
	if (!pg)
		return;
	free_pages(pg, 0);
	old = set_entry(a, BASE + 2 * P, PT_LAST_LEVEL,
			arch_pte_mk_leaf(page_to_phys(pg), PT_USER | PT_READ, PT_LAST_LEVEL));
	expect_fires("an entry mapping a free page", "not an allocated block");
	set_entry(a, BASE + 2 * P, PT_LAST_LEVEL, old);
}

/* Reference counts and counters. */
static void counts(void)
{
	struct page *pg = phys_to_page(mm_lookup(mms[0], BASE + 8 * P));
	phys_addr_t t;

	pg->refcount++;
	expect_fires("a refcount one too high", "refcount 3, expected 2 (2 mappings + 0 holders)");
	pg->refcount -= 2;
	expect_fires("a refcount one too low", "refcount 1, expected 2");
	pg->refcount++;

	mms[1]->data_vm++;
	expect_fires("a data page count one too high", "VMA page counts: total_vm");
	mms[1]->data_vm--;
	mms[1]->locked_vm++;
	expect_fires("a locked page count one too high", "locked_vm 1, the VMAs hold");
	mms[1]->locked_vm--;
	mms[1]->vmas->flags |= VM_LOCKONFAULT;
	expect_fires("VM_LOCKONFAULT without VM_LOCKED", "lock flags");
	mms[1]->vmas->flags &= ~VM_LOCKONFAULT;
	mms[1]->def_flags = VM_LOCKONFAULT;
	expect_fires("mlockall's future flags without VM_LOCKED", "def_flags");
	mms[1]->def_flags = 0;
	vm_committed_pages--;
	expect_fires("a commit count one too low", "Committed_AS: vm_committed_pages");
	vm_committed_pages++;

	t = pxd_alloc(&mms[0]->pt, PT_LAST_LEVEL);
	if (t) {
		expect_fires("a user page-table page the counter has but no table holds",
			     "user page-table pages: counter");
		pxd_free(&mms[0]->pt, t, PT_LAST_LEVEL);
	}
}

/* The VMA tree: gaps, heights, order, merging. */
static void vmas(void)
{
	struct vma *v = vma_find(mms[0], BASE + 8 * P), *w;
	unsigned long end;

	v->max_gap += P;
	expect_fires("a wrong gap augmentation", "max_gap");
	v->max_gap -= P;

	v->height++;
	expect_fires("a wrong subtree height", "height");
	v->height--;

	w = vma_find(mms[0], BASE);
	end = w->end;
	w->end = BASE + 9 * P;
	expect_fires("two overlapping VMAs", "VMA tree");
	w->end = end;

	w = vma_insert(mms[0], BASE + 10 * P, BASE + 11 * P, RO, NULL, 0);	/* next to a never-written one */
	if (w) {
		expect_fires("two adjacent VMAs that should be one", "should have been merged");
		vma_remove(mms[0], w);
	}
	w = vma_find(mms[0], hs);
	w->anon = 1;
	expect_fires("a shared VMA with an anon identity", "has an anon identity");
	w->anon = 0;
}

/* Huge leaves where they do not belong, and the hugetlb pool's counters. */
static void huge(void)
{
	unsigned order = 0;
	struct page *blk;
	pteval_t leaf;

	if (!arch_pt_leaf_ok(HUGE_LEVEL)) {
		printk("# mm_check: level %d has no leaves: huge-leaf cases not tested\n", HUGE_LEVEL);
		return;
	}
	while (((u64)P << order) < pt_level_size(HUGE_LEVEL))
		order++;
	blk = alloc_pages(0, order);
	if (!blk) {
		ktest_ok(false, "no free block of order %u for the huge-leaf cases", order);
		return;
	}
	leaf = arch_pte_mk_leaf(page_to_phys(blk), PT_USER | PT_READ | PT_WRITE, HUGE_LEVEL);
	set_entry(mms[0], hs, HUGE_LEVEL, leaf);
	expect_fires("a huge leaf in a shared VMA", "cannot hold a huge page");
	set_entry(mms[0], hs, HUGE_LEVEL, ARCH_PTE_INVALID);

	vma_anon_prepare(vma_find(mms[0], ht));	/* as a THP fault would: only the counter is wrong */
	set_entry(mms[0], ht, HUGE_LEVEL, leaf);
	expect_fires("a transparent huge leaf the THP counter does not know", "THP: counter");
	set_entry(mms[0], ht, HUGE_LEVEL, ARCH_PTE_INVALID);
	free_pages(blk, order);

	struct hstate *h = hugetlb_default();
	struct pt_cursor c;

	if (!h)
		return;
	pt_walk(&mms[0]->pt, hh, PT_LAST_LEVEL, true, &c);	/* a table where the leaf goes */
	expect_clean("an empty table in a hugetlb leaf slot (its first fault frees it)");
	pte_update(&mms[0]->pt, c.ptep, c.val, arch_pte_mk_swp(ARCH_SWP_GUARD, 0), c.va, c.level);
	expect_fires("a table holding an entry in a hugetlb leaf slot", "in the leaf slot of hugetlb VMA");
	pt_walk(&mms[0]->pt, hh, h->level, false, &c);
	pte_update(&mms[0]->pt, c.ptep, c.val, ARCH_PTE_INVALID, c.va, c.level);
	pxd_free(&mms[0]->pt, arch_pte_pa(c.val), c.level + 1);

	h->resv++;
	expect_fires("a reservation count one too high", "HugePages_Rsvd 1, expected 0");
	h->resv--;
	vma_find(mms[0], hh)->flags |= VM_HUGE_RESV;
	expect_fires("a reserving VMA the count does not cover", "HugePages_Rsvd 0, expected 1");
	vma_find(mms[0], hh)->flags &= ~VM_HUGE_RESV;
	h->free++;
	expect_fires("HugePages_Free one above the free list", "free list holds");
	h->free--;
}

/*
 * A hugetlb page mapped as a contiguous run (the smallest such size): every
 * member must be what one write of the run gives, and the first must be
 * there. The members are corrupted by plain stores (the choke point refuses
 * to change one member of a run), in A only, never entered by a CPU.
 */
static void runs(void)
{
	struct hstate *h = NULL;
	struct mm *a = mms[0];
	struct pt_cursor c;
	unsigned long rv;
	struct vma *v;
	u64 step, want;

	for (int i = 0; i < hugetlb_nr_hstates() && !h; i++)
		if (hugetlb_hstate(i)->cont > 1)
			h = hugetlb_hstate(i);
	want = h ? h->nr + 1 : 0;
	if (!h || hugetlb_set_pool(h, want) != want || h->free <= h->resv) {
		printk("# mm_check: no contiguous-run hugetlb page could be had: run cases not tested\n");
		return;
	}
	step = pt_level_size(h->level);
	rv = ALIGN_UP(hh + 4 * HUGE_SPAN, h->size);
	v = vma_insert(a, rv, rv + h->size, RW | hugetlb_vma_flags(h, false), NULL, 0);
	if (!v || mm_fault(a, rv, FAULT_WRITE) || !pt_walk(&a->pt, rv, h->level, false, &c) ||
	    c.level != h->level || !arch_pte_is_cont(c.val)) {
		ktest_ok(false, "a %llu KiB hugetlb page faulted in as a run", (unsigned long long)(h->size >> 10));
		return;
	}
	expect_clean("a hugetlb page mapped as one contiguous run");
	arch_pte_write(c.ptep + 1, arch_pte_oa_add(c.val, 2 * step));
	expect_fires("a run member with the wrong output address", "the run's first gives");
	arch_pte_write(c.ptep + 1, arch_pte_oa_add(c.val, step));
	arch_pte_write(c.ptep, ARCH_PTE_INVALID);
	expect_fires("a run whose first entry is empty", "whose first entry");
	arch_pte_write(c.ptep, arch_pte_mk_leaf(arch_pte_pa(c.val), arch_pte_prot(c.val) & ~PT_CONT, h->level));
	expect_fires("a run entry without the contiguous bit", "without the contiguous bit");
	arch_pte_write(c.ptep, c.val);
	expect_clean("the run restored");
	ktest_ok(mm_munmap(a, rv, h->size) == 0, "the run unmapped");
	hugetlb_set_pool(h, h->nr - 1);
}

KTEST(mm_check)
{
	struct page_stats before, after;

	nmm = 0;
	expect_clean("no address spaces");	/* also allocates the counters */
	page_alloc_stats(&before);
	if (!build()) {
		ktest_ok(false, "could not build the address spaces");
		return;
	}
	expect_clean("a parent and its fork copy");
	entries();
	counts();
	vmas();
	huge();
	runs();
	expect_clean("everything undone");
	mm_put(mms[1]);
	mm_put(mms[0]);
	nmm = 0;
	expect_clean("both spaces gone");
	page_alloc_stats(&after);
	ktest_ok(after.free_pages == before.free_pages, "free pages back to %llu (now %llu)",
		 (unsigned long long)before.free_pages, (unsigned long long)after.free_pages);
}

/*
 * mm_check=N checks after every Nth event of each kind, counting the rest:
 * with N = 3, six faults, three system calls and three exits give two
 * checks, one and one, whatever the counts were before.
 */
KTEST(mm_check_sampled)
{
	u64 saved = opt_mm_check, c0[4], e0[4], c1[4], e1[4];

	nmm = 0;
	expect_clean("no address spaces");	/* allocates the counters */
	opt_mm_check = 3;
	mm_check_stats(c0, e0);
	for (int i = 0; i < 6; i++)
		mm_check_after("fault", BASE);
	for (int i = 0; i < 3; i++)
		mm_check_after("mmap", BASE);
	for (int i = 0; i < 3; i++)
		mm_check_after("exit", 1);
	mm_check_stats(c1, e1);
	opt_mm_check = saved;
	ktest_ok(e1[1] - e0[1] == 6 && e1[0] - e0[0] == 3 && e1[3] - e0[3] == 3,
		 "every event counted (6 faults, 3 calls, 3 exits: %llu, %llu, %llu)",
		 (unsigned long long)(e1[1] - e0[1]), (unsigned long long)(e1[0] - e0[0]),
		 (unsigned long long)(e1[3] - e0[3]));
	ktest_ok(c1[1] - c0[1] == 2 && c1[0] - c0[0] == 1 && c1[3] - c0[3] == 1,
		 "one in three of each kind checked (2, 1, 1: %llu, %llu, %llu)",
		 (unsigned long long)(c1[1] - c0[1]), (unsigned long long)(c1[0] - c0[0]),
		 (unsigned long long)(c1[3] - c0[3]));
}

/* The hook's entry point panics, saying what and where. Boot: ktest=mm_check_panics. */
KTEST_PANICS(mm_check_panics)
{
	struct mm *a = mm_create();
	int pid = 1;

	if (!a || !vma_insert(a, BASE, BASE + P, RO, NULL, 0) || mm_fault(a, BASE, FAULT_READ)) {
		ktest_ok(false, "could not build an address space");
		return;
	}
	phys_to_page(mm_lookup(a, BASE))->refcount++;
	ktest_expect_panic("a wrong refcount panics with what and where");
	mm_check_spaces(&a, &pid, 1, "ktest", BASE);
}
