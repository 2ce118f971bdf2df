/*
 * mm_check.c - the user address-space invariant checker (see mm_check.h).
 *
 * One check is two walks over every page table of every address space given:
 *   pass 1 checks each VMA set and each entry against its VMA, counts the
 *          table pages and THP leaves, and adds every mapping of a page to
 *          count[page_frame_index(pg)]; then every holder (memfd pages, the
 *          hugetlb free lists) adds its reference;
 *   pass 2 visits the same pages again and compares the count with the
 *          page's refcount, clearing the slot, so the array is all zero
 *          between checks and the work is proportional to the pages mapped
 *          or held, not to RAM.
 * Each slot keeps mappings in its low 24 bits and holders above them, so a
 * mismatch can say which is which.
 */
#include <stdarg.h>
#include "mm_check.h"
#include "hugetlb.h"
#include "thp.h"
#include "page_alloc.h"
#include "printk.h"
#include "kstring.h"
#include "memfd.h"
#include "fs.h"
#include "proc.h"

u64 opt_mm_check;

#define MAP_MASK	0x00ffffffu	/* mappings in a count slot */
#define HOLDER_ONE	0x01000000u	/* one holder in a count slot */
#define MAX_HSTATES	HUGETLB_MAX_SIZES

static u32 *count;		/* per page_frame_index(); all zero between checks */
static unsigned long count_slots;
static unsigned count_order;
static u64 nr_checks[4];	/* syscalls, faults, forks, exits */
static u64 nr_events[4];	/* the same, checked or not */
static struct mm *failed_mm;	/* where the last report found a violation (NULL: global) */

/* The state of one check. */
struct check {
	char *buf;
	size_t size;
	bool failed;
	bool verify;			/* pass 2 */
	struct mm *mm;			/* the space being walked */
	int pid;
	const struct vma *v;		/* cursor: the first VMA ending above the walk */
	u64 tables, thp;		/* found in pass 1 */
	struct hstate *hs[MAX_HSTATES];	/* the pools, by size index (NULL: none) */
	u64 want_resv[MAX_HSTATES];	/* unfaulted pages of reserving VMAs, reserved slots of files */
	u64 mapped[MAX_HSTATES];	/* distinct pool pages mapped (pass 2) */
	unsigned long run_va;		/* the hugetlb run whose first entry was checked last (1: none) */
	u64 committed;			/* pages of VM_ACCOUNT VMAs (pass 1) */
};

/* Record the first violation (later ones are not looked for). */
static void fail(struct check *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct check *k, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (k->failed)
		return;
	k->failed = true;
	if (k->mm)
		n = snprintk(k->buf, k->size, "pid %d mm %p: ", k->pid, (void *)k->mm);
	if (n < 0 || (size_t)n >= k->size)
		n = 0;
	va_start(ap, fmt);
	vsnprintk(k->buf + n, k->size - (size_t)n, fmt, ap);
	va_end(ap);
}

/* The scratch array, allocated on first use; false when there is no memory. */
static bool count_ready(void)
{
	if (count)
		return true;
	count_slots = page_frame_count();
	count_order = 0;
	while (((u64)PAGE_SIZE << count_order) < count_slots * sizeof(u32))
		count_order++;
	if (count_order >= MAX_ORDER)
		return false;
	struct page *pg = alloc_pages(GFP_ZERO, count_order);

	if (!pg)
		return false;
	count = page_address(pg);
	return true;
}

void mm_check_init(void)
{
	if (opt_mm_check && !count_ready())
		panic("mm_check: no memory for a counter per page (%lu pages)", page_frame_count());
}

/* ---- pools ---- */

/* Find the hugetlb pools, one per size. */
static void find_pools(struct check *k)
{
	for (int i = 0; i < MAX_HSTATES; i++)
		k->hs[i] = hugetlb_hstate(i);
	k->run_va = 1;
}

/* The size of a hugetlb VMA (its flags), or NULL if it names no pool. */
static const struct hstate *huge_of(const struct check *k, const struct vma *v)
{
	return k->hs[(v->flags >> VM_HUGE_INDEX_SHIFT) & 3];
}

/* The level of a hugetlb VMA's leaves, or -1 if it names no pool. */
static int huge_level(const struct check *k, const struct vma *v)
{
	const struct hstate *h = huge_of(k, v);

	return h ? h->level : -1;
}

/* ---- one page: count (pass 1) or compare (pass 2) ---- */

/*
 * A reference to pg: a mapping at va, or (holder) a kernel reference.
 * Pass 1 adds it; pass 2 compares the total with the refcount once and
 * clears the slot. Returns true the first time pass 2 sees the page.
 */
static bool page_ref(struct check *k, struct page *pg, unsigned long va, bool holder)
{
	unsigned long i = page_frame_index(pg);
	unsigned c, maps, held;

	if (i >= count_slots) {
		fail(k, "page 0x%llx: index %lu beyond the %lu counters",
		     (unsigned long long)page_to_phys(pg), i, count_slots);
		return false;
	}
	if (!k->verify) {
		count[i] += holder ? HOLDER_ONE : 1;
		return false;
	}
	c = (unsigned)count[i];
	if (!c)
		return false;	/* compared already */
	count[i] = 0;
	maps = c & MAP_MASK;
	held = c >> 24;
	if (pg->refcount < 0 || (unsigned)pg->refcount != maps + held) {
		if (holder)
			fail(k, "page 0x%llx (held by the kernel): refcount %d, expected %u (%u mappings + %u holders)",
			     (unsigned long long)page_to_phys(pg), pg->refcount, maps + held, maps, held);
		else
			fail(k, "page 0x%llx (mapped at va 0x%lx): refcount %d, expected %u (%u mappings + %u holders)",
			     (unsigned long long)page_to_phys(pg), va, pg->refcount, maps + held, maps, held);
	}
	return true;
}

/* The page an entry maps must be an allocated block of size bytes. */
static struct page *mapped_page(struct check *k, phys_addr_t pa, unsigned long va, int level, u64 size)
{
	struct page *pg = phys_to_page(pa);
	unsigned order = 0;

	while (((u64)PAGE_SIZE << order) < size)
		order++;
	if (!pg)
		fail(k, "va 0x%lx level %d: maps 0x%llx, which is no RAM page", va, level,
		     (unsigned long long)pa);
	else if (!(pg->flags & PG_HEAD) || pg->order != order || pg->refcount <= 0)
		fail(k, "va 0x%lx level %d: maps 0x%llx, not an allocated block of order %u (flags 0x%x order %u refcount %d)",
		     va, level, (unsigned long long)pa, order, pg->flags, pg->order, pg->refcount);
	else
		return pg;
	return NULL;
}

/* ---- one entry against its VMA ---- */

/* The VMA holding [va, va + size) whole, or NULL (the cursor moves on). */
static const struct vma *vma_over(struct check *k, unsigned long va, u64 size)
{
	while (k->v && k->v->end <= va)
		k->v = k->v->next;
	if (!k->v || k->v->start > va || va + (size - 1) > k->v->end - 1)
		return NULL;
	return k->v;
}

/* A valid leaf: the level and the permissions its VMA allows. */
static void check_leaf(struct check *k, const struct vma *v, unsigned long va, pteval_t d, int level,
		       struct page *pg)
{
	unsigned prot = arch_pte_prot(d);
	const struct hstate *h = (v->flags & VM_HUGETLB) ? huge_of(k, v) : NULL;

	if (h && h->cont > 1)
		prot ^= PT_CONT;	/* a run's entries must have it: then it is clear here */
	if (!(v->flags & VM_ACCESS))
		fail(k, "va 0x%lx: accessible entry 0x%llx in a PROT_NONE VMA [0x%lx, 0x%lx)", va,
		     (unsigned long long)d, v->start, v->end);
	else if ((prot & (PT_USER | PT_NG)) != (PT_USER | PT_NG) || (prot & (PT_DEVICE | PT_CONT)))
		fail(k, "va 0x%lx: entry 0x%llx is not a plain user page (prot 0x%x)", va,
		     (unsigned long long)d, prot);
	else if ((prot & PT_WRITE) && !(v->flags & VM_WRITE))
		fail(k, "va 0x%lx: writable entry 0x%llx in VMA [0x%lx, 0x%lx) without write (flags 0x%x)",
		     va, (unsigned long long)d, v->start, v->end, v->flags);
	else if ((prot & PT_EXEC) && !(v->flags & VM_EXEC))
		fail(k, "va 0x%lx: executable entry 0x%llx in VMA [0x%lx, 0x%lx) without exec (flags 0x%x)",
		     va, (unsigned long long)d, v->start, v->end, v->flags);
	else if ((prot & PT_WRITE) && !(v->flags & (VM_SHARED | VM_HUGETLB)) && !v->anon)
		fail(k, "va 0x%lx: writable private entry 0x%llx in VMA [0x%lx, 0x%lx) with no anon identity "
		     "(written without a write fault)", va, (unsigned long long)d, v->start, v->end);
	else if ((prot & PT_WRITE) && !(v->flags & VM_SHARED) && pg->refcount != 1)
		fail(k, "va 0x%lx: writable private entry on page 0x%llx with refcount %d (copy-on-write lost)",
		     va, (unsigned long long)page_to_phys(pg), pg->refcount);
	if (level == THP_LEVEL && !(v->flags & VM_HUGETLB)) {
		k->thp++;
		k->tables++;	/* the table deposited for its split (mm/thp.h) */
	}
}

/* Is a leaf above the last level allowed here? (Not: fail says why.) */
static bool huge_leaf_ok(struct check *k, const struct vma *v, unsigned long va, int level)
{
	if (v->flags & VM_HUGETLB) {
		if (huge_level(k, v) != level)
			fail(k, "va 0x%lx: level-%d leaf in hugetlb VMA [0x%lx, 0x%lx) of level %d", va,
			     level, v->start, v->end, huge_level(k, v));
	} else if (level != THP_LEVEL || (v->flags & VM_SHARED) || v->file || v->name) {
		fail(k, "va 0x%lx: level-%d leaf in VMA [0x%lx, 0x%lx) (flags 0x%x) that cannot hold a huge page",
		     va, level, v->start, v->end, v->flags);
	}
	return !k->failed;
}

/*
 * An entry of a hugetlb VMA whose pages are contiguous runs. At the run's
 * first entry, every member must be what one write of the run gives: the
 * first moved on by i leaves (valid, with the contiguous bit), or the very
 * same PROT_NONE entry; true then, so the caller checks the page once.
 * Another member is accepted (false) only if its run's first entry was.
 */
static bool run_ok(struct check *k, const struct vma *v, unsigned long va, const pteval_t *ptep, int level)
{
	const struct hstate *h = huge_of(k, v);
	unsigned long run = ALIGN_DOWN(va, h->size);
	pteval_t first = arch_pte_read(ptep);

	if (va != run) {
		if (k->run_va != run)
			fail(k, "va 0x%lx: member of a %llu KiB run whose first entry (va 0x%lx) is empty", va,
			     (unsigned long long)(h->size >> 10), run);
		return false;
	}
	if (arch_pte_valid(first) && !arch_pte_is_cont(first))
		fail(k, "va 0x%lx: entry 0x%llx of a %llu KiB run without the contiguous bit", va,
		     (unsigned long long)first, (unsigned long long)(h->size >> 10));
	for (unsigned i = 1; i < h->cont && !k->failed; i++) {
		pteval_t want = arch_pte_valid(first) ? arch_pte_oa_add(first, (u64)i * pt_level_size(level)) : first;
		pteval_t e = arch_pte_read(ptep + i);

		if (e != want)
			fail(k, "va 0x%lx: entry %u of the %llu KiB run at 0x%lx is 0x%llx, the run's first gives 0x%llx",
			     va + i * (unsigned long)pt_level_size(level), i, (unsigned long long)(h->size >> 10), va,
			     (unsigned long long)e, (unsigned long long)want);
	}
	k->run_va = run;
	return !k->failed;
}

/* Any non-empty entry that is not a table (at ptep in its table). */
static void check_entry(struct check *k, unsigned long va, const pteval_t *ptep, pteval_t d, int level)
{
	u64 size = pt_level_size(level);
	const struct vma *v = vma_over(k, va, size);
	unsigned kind = arch_pte_swp_kind(d);
	struct page *pg = NULL;
	bool protnone = !arch_pte_valid(d) && kind == ARCH_SWP_PROTNONE;

	if (!v) {
		fail(k, "va 0x%lx level %d: entry 0x%llx outside every VMA (or across its end)", va,
		     level, (unsigned long long)d);
		return;
	}
	if (!arch_pte_valid(d) && !protnone) {
		if (d != arch_pte_mk_swp(ARCH_SWP_GUARD, 0) || level != PT_LAST_LEVEL ||
		    (v->flags & VM_HUGETLB))
			fail(k, "va 0x%lx level %d: unknown software entry 0x%llx in VMA [0x%lx, 0x%lx)",
			     va, level, (unsigned long long)d, v->start, v->end);
		return;	/* a guard marker */
	}
	if (level != PT_LAST_LEVEL || (v->flags & VM_HUGETLB)) {
		if (!huge_leaf_ok(k, v, va, level))
			return;
	}
	if ((v->flags & VM_HUGETLB) && huge_of(k, v)->cont > 1 && !run_ok(k, v, va, ptep, level))
		return;	/* a run's other members: checked with its first entry */
	pg = mapped_page(k, protnone ? arch_pte_swp_pa(d) : arch_pte_pa(d), va, level,
			 (v->flags & VM_HUGETLB) ? huge_of(k, v)->size : pt_level_size(level));
	if (!pg)
		return;
	if (k->verify) {
		if (page_ref(k, pg, va, false) && (v->flags & VM_HUGETLB) && huge_of(k, v))
			k->mapped[huge_of(k, v)->index]++;
		return;
	}
	if (protnone && (v->flags & VM_ACCESS))
		fail(k, "va 0x%lx: PROT_NONE entry 0x%llx in accessible VMA [0x%lx, 0x%lx) (flags 0x%x)",
		     va, (unsigned long long)d, v->start, v->end, v->flags);
	else if (!protnone)
		check_leaf(k, v, va, d, level, pg);
	page_ref(k, pg, va, false);
}

/*
 * A table entry: pointing at an allocated page, and in a hugetlb VMA only
 * as an empty table left by small pages mapped there before (munmap keeps
 * table pages; hugetlb's first fault in the slot frees it).
 */
static void check_table_entry(struct check *k, unsigned long va, pteval_t d, int level)
{
	const struct vma *v = vma_over(k, va, 1);
	struct page *pg = phys_to_page(arch_pte_pa(d));

	if (v && (v->flags & VM_HUGETLB) && huge_level(k, v) >= 0 && huge_level(k, v) <= level &&
	    !pt_table_is_empty(arch_pte_pa(d), level + 1))
		fail(k, "va 0x%lx: a table 0x%llx that maps something at level %d in the leaf slot of hugetlb VMA [0x%lx, 0x%lx) (level %d)",
		     va, (unsigned long long)arch_pte_pa(d), level, v->start, v->end, huge_level(k, v));
	else if (!pg || !(pg->flags & PG_HEAD) || pg->order != 0 || pg->refcount != 1)
		fail(k, "va 0x%lx level %d: table entry 0x%llx points at no allocated page", va, level,
		     (unsigned long long)d);
}

/* Walk the table at pa (of level, translating from base) entry by entry. */
static void walk_table(struct check *k, phys_addr_t pa, int level, unsigned long base)
{
	unsigned long per_page = PAGE_SIZE / sizeof(pteval_t);
	pteval_t *t = NULL;

	for (unsigned long i = 0; i < arch_pt_entries(level) && !k->failed; i++) {
		unsigned long va = base + (unsigned long)((u64)i << arch_pt_shift(level));
		pteval_t d;

		if (i % per_page == 0)
			t = pt_entry_ptr(pa, level, i);
		d = arch_pte_read(&t[i % per_page]);
		if (d == ARCH_PTE_INVALID)
			continue;
		if (level == 0 && va >= USER_VA_END) {
			fail(k, "root entry %lu (va 0x%lx) above user space: 0x%llx", i, va,
			     (unsigned long long)d);
		} else if (level < PT_LAST_LEVEL && arch_pte_is_table(d, level)) {
			if (!k->verify) {
				k->tables++;
				check_table_entry(k, va, d, level);
			}
			if (!k->failed)
				walk_table(k, arch_pte_pa(d), level + 1, va);
			t = pt_entry_ptr(pa, level, i - i % per_page);	/* the child walk may reuse a fixmap slot */
		} else {
			check_entry(k, va, &t[i % per_page], d, level);
		}
	}
}

/* ---- the VMA set ---- */

/*
 * struct mm's page counts against its VMAs (locked_vm too, ML-*); adds the
 * charged pages to k->committed. Lock flags only where Linux sets them:
 * VM_LOCKONFAULT only with VM_LOCKED, never on hugetlb (ML-7).
 */
static void check_vm_counts(struct check *k)
{
	unsigned long total = 0, data = 0, commit = 0, locked = 0;

	for (const struct vma *v = k->mm->vmas; v; v = v->next) {
		unsigned long n = (v->end - v->start) >> PAGE_SHIFT;

		total += n;
		data += vm_is_data(v->flags) ? n : 0;
		commit += (v->flags & VM_ACCOUNT) ? n : 0;
		locked += (v->flags & VM_LOCKED) ? n : 0;
		if ((v->flags & VM_LOCKED_MASK) == VM_LOCKONFAULT ||
		    ((v->flags & VM_LOCKED) && (v->flags & VM_HUGETLB)))
			fail(k, "VMA [0x%lx, 0x%lx): lock flags 0x%x Linux never sets", v->start, v->end, v->flags);
	}
	k->committed += commit;
	if (total != k->mm->total_vm || data != k->mm->data_vm || commit != k->mm->commit_vm ||
	    locked != k->mm->locked_vm)
		fail(k, "VMA page counts: total_vm %lu data_vm %lu commit_vm %lu locked_vm %lu, the VMAs hold %lu %lu %lu %lu",
		     k->mm->total_vm, k->mm->data_vm, k->mm->commit_vm, k->mm->locked_vm, total, data, commit, locked);
	if (k->mm->def_flags & ~VM_LOCKED_MASK || (k->mm->def_flags & VM_LOCKED_MASK) == VM_LOCKONFAULT)
		fail(k, "def_flags 0x%x: only VM_LOCKED, or VM_LOCKED | VM_LOCKONFAULT", k->mm->def_flags);
}

/* Tree, list, alignment, and merging; page counts; reservations of hugetlb VMAs. */
static void check_vmas(struct check *k)
{
	char why[160];

	if (!vma_check_report(k->mm, why, sizeof(why))) {
		fail(k, "VMA tree: %s", why);
		return;
	}
	check_vm_counts(k);
	for (const struct vma *v = k->mm->vmas; v && !k->failed; v = v->next) {
		const struct hstate *h = (v->flags & VM_HUGETLB) ? huge_of(k, v) : NULL;
		int hl = h ? h->level : -1;
		u64 align = h ? h->size : PAGE_SIZE;

		if (!IS_ALIGNED(v->start, align) || !IS_ALIGNED(v->end, align) || v->end > USER_VA_END)
			fail(k, "VMA [0x%lx, 0x%lx) (flags 0x%x) not aligned to 0x%llx or beyond user space",
			     v->start, v->end, v->flags, (unsigned long long)align);
		else if ((v->flags & VM_HUGETLB) && hl < 0)
			fail(k, "hugetlb VMA [0x%lx, 0x%lx) names no pool (flags 0x%x)", v->start, v->end,
			     v->flags);
		else if (v->anon && (v->flags & (VM_SHARED | VM_HUGETLB)))
			fail(k, "shared or hugetlb VMA [0x%lx, 0x%lx) has an anon identity", v->start, v->end);
		else if (v->next && vma_mergeable(v, v->next) && !v->anon && !v->next->anon && !v->next->kept_cut)
			fail(k, "VMAs [0x%lx, 0x%lx) and [0x%lx, 0x%lx) (flags 0x%x) should have been merged",
			     v->start, v->end, v->next->start, v->next->end, v->flags);
		if (k->failed || hl < 0 || !(v->flags & VM_HUGE_RESV))
			continue;
		for (unsigned long va = v->start; va < v->end; va += align) {
			struct pt_cursor c;

			/* not faulted: no entry, or an empty table left by small pages */
			pt_walk(&k->mm->pt, va, hl, false, &c);
			if (c.level != hl || arch_pte_is_table(c.val, hl) ||
			    (!arch_pte_valid(c.val) && arch_pte_swp_kind(c.val) != ARCH_SWP_PROTNONE))
				k->want_resv[h->index]++;
		}
	}
}

/* ---- holders ---- */

/* A page a file holds (a memfd's, or a program file's in the page cache). */
static void file_page_ref(struct page *pg, void *arg)
{
	struct check *k = arg;

	if (!(pg->flags & PG_HEAD) || pg->order != 0)
		fail(k, "file page 0x%llx is not an allocated page", (unsigned long long)page_to_phys(pg));
	else
		page_ref(k, pg, 0, true);
}

/*
 * A page a shared hugetlb mapping's file holds: a pool page of h's size in
 * use (counted as such once, in the second pass, if no mapping showed it).
 */
static void huge_file_page_ref(struct hstate *h, struct page *pg, void *arg)
{
	struct check *k = arg;

	if (!(pg->flags & PG_HEAD) || pg->order != h->order)
		fail(k, "hugetlb %llu KiB file page 0x%llx (flags 0x%x order %u) is not a huge page",
		     (unsigned long long)(h->size >> 10), (unsigned long long)page_to_phys(pg), pg->flags,
		     pg->order);
	else if (page_ref(k, pg, 0, true))
		k->mapped[h->index]++;
}

/* Kernel references: memfd pages, program files' pages, shared hugetlb files and the hugetlb free lists. */
static void holders(struct check *k)
{
	u64 file_resv[MAX_HSTATES] = { 0 };

	k->mm = NULL;
	memfd_for_each_page(file_page_ref, k);
	pagecache_for_each_page(file_page_ref, k);
	hugetlb_file_pages(huge_file_page_ref, k, file_resv);
	for (int l = 0; l < MAX_HSTATES && !k->verify; l++)
		k->want_resv[l] += file_resv[l];	/* the files' reserved empty slots */
	for (int l = 0; l < MAX_HSTATES && !k->failed; l++) {
		struct hstate *h = k->hs[l];
		u64 n = 0;

		if (!h)
			continue;
		for (struct page *pg = h->freelist; pg && !k->failed; pg = pg->next, n++) {
			if (n > h->nr || !(pg->flags & PG_HEAD) || pg->order != h->order)
				fail(k, "hugetlb %llu KiB free list: page 0x%llx (flags 0x%x order %u) after %llu pages",
				     (unsigned long long)(h->size >> 10), (unsigned long long)page_to_phys(pg),
				     pg->flags, pg->order, (unsigned long long)n);
			else
				page_ref(k, pg, 0, true);
		}
		if (!k->failed && !k->verify && n != h->free)
			fail(k, "hugetlb %llu KiB: HugePages_Free %llu, free list holds %llu",
			     (unsigned long long)(h->size >> 10), (unsigned long long)h->free,
			     (unsigned long long)n);
	}
}

/* ---- one check ---- */

/* One pass over every space and holder. */
static void pass(struct check *k, struct mm *const *mms, const int *pids, int n)
{
	for (int i = 0; i < n && !k->failed; i++) {
		k->mm = mms[i];
		k->pid = pids ? pids[i] : 0;
		if (!k->verify) {
			k->tables += 1u << mms[i]->pt.root_order;
			check_vmas(k);
		}
		k->v = mms[i]->vmas;
		k->run_va = 1;
		if (!k->failed)
			walk_table(k, mms[i]->pt.root, 0, 0);
	}
	if (!k->failed)
		holders(k);
}

/* The global counters against what the walk found. */
static void counters(struct check *k)
{
	struct pt_stats st;

	k->mm = NULL;
	pt_get_stats(&st);
	/* THP first: a huge leaf the counter does not know has no deposited table either */
	if (thp_total_bytes() != k->thp * pt_level_size(THP_LEVEL))
		fail(k, "THP: counter says %llu bytes, the tables map %llu leaves",
		     (unsigned long long)thp_total_bytes(), (unsigned long long)k->thp);
	else if (st.user_tables != k->tables)
		fail(k, "user page-table pages: counter %llu, the tables hold %llu (with one deposited per huge leaf)",
		     (unsigned long long)st.user_tables, (unsigned long long)k->tables);
	else if (vm_committed_pages != k->committed)
		fail(k, "Committed_AS: vm_committed_pages %lu, the VM_ACCOUNT VMAs hold %llu", vm_committed_pages,
		     (unsigned long long)k->committed);
	for (int l = 0; l < MAX_HSTATES && !k->failed; l++) {
		struct hstate *h = k->hs[l];

		if (!h)
			continue;
		if (h->resv != k->want_resv[l] || h->resv > h->free)
			fail(k, "hugetlb %llu KiB: HugePages_Rsvd %llu, expected %llu (unfaulted pages of reserving VMAs; free %llu)",
			     (unsigned long long)(h->size >> 10), (unsigned long long)h->resv,
			     (unsigned long long)k->want_resv[l], (unsigned long long)h->free);
		else if (h->nr != h->free + k->mapped[l])
			fail(k, "hugetlb %llu KiB: HugePages_Total %llu, expected %llu free + %llu mapped",
			     (unsigned long long)(h->size >> 10), (unsigned long long)h->nr,
			     (unsigned long long)h->free, (unsigned long long)k->mapped[l]);
	}
}

const char *mm_check_report(struct mm *const *mms, const int *pids, int n, char *buf, size_t size)
{
	struct check k = { .buf = buf, .size = size };

	buf[0] = 0;
	failed_mm = NULL;
	if (!count_ready()) {
		snprintk(buf, size, "no memory for a counter per page");
		return buf;
	}
	find_pools(&k);
	pass(&k, mms, pids, n);
	if (!k.failed) {
		k.verify = true;
		pass(&k, mms, pids, n);
	}
	if (k.failed) {
		failed_mm = k.mm;
		memset(count, 0, count_slots * sizeof(u32));	/* a pass stopped half way */
		return buf;
	}
	counters(&k);
	return k.failed ? buf : NULL;
}

void mm_check_spaces(struct mm *const *mms, const int *pids, int n, const char *event,
		     unsigned long addr)
{
	static char buf[320];

	if (!mm_check_report(mms, pids, n, buf, sizeof(buf)))
		return;
	if (failed_mm) {
		printk("mm_check: the VMAs of mm %p:\n", (void *)failed_mm);
		for (const struct vma *v = failed_mm->vmas; v; v = v->next)
			printk("  [0x%lx, 0x%lx) flags 0x%x name %s file %p offset 0x%llx\n", v->start,
			       v->end, v->flags, v->name ? v->name : "-", (void *)v->file,
			       (unsigned long long)v->offset);
	}
	panic("mm_check: after %s at 0x%lx: %s", event, addr, buf);
}

void mm_check_all(const char *event, unsigned long addr)
{
	struct mm *mms[NPROC];
	int pids[NPROC];
	int kind = 0;

	if (!strcmp(event, "fault"))
		kind = 1;
	else if (!strcmp(event, "fork"))
		kind = 2;
	else if (!strcmp(event, "exit"))
		kind = 3;
	if (++nr_events[kind] % opt_mm_check)
		return;
	nr_checks[kind]++;
	int n = proc_live_mms(mms, pids, NPROC);

	mm_check_spaces(mms, pids, n, event, addr);
}

void mm_check_stats(u64 checks[4], u64 events[4])
{
	for (int i = 0; i < 4; i++) {
		checks[i] = nr_checks[i];
		events[i] = nr_events[i];
	}
}

void mm_check_summary(void)
{
	if (!opt_mm_check)
		return;
	printk("mm_check: all passed: %llu after system calls, %llu after faults, %llu after forks, %llu after exits\n",
	       (unsigned long long)nr_checks[0], (unsigned long long)nr_checks[1],
	       (unsigned long long)nr_checks[2], (unsigned long long)nr_checks[3]);
	if (opt_mm_check > 1)
		printk("mm_check: one in %llu events checked, of %llu system calls, %llu faults, %llu forks, %llu exits\n",
		       (unsigned long long)opt_mm_check, (unsigned long long)nr_events[0],
		       (unsigned long long)nr_events[1], (unsigned long long)nr_events[2],
		       (unsigned long long)nr_events[3]);
}
