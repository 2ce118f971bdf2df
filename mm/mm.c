/*
 * mm.c - user address spaces (see mm.h for the model).
 *
 * Every change to a user descriptor goes through pte_update(), which does
 * break-before-make or the TLB invalidation (by ASID) the change needs;
 * permission-only changes of a valid page (mprotect, fork's write-protect,
 * a write fault that may write at once) go through pte_update_inplace(),
 * which also checks that claim.
 */
#include "mm.h"
#include "hugetlb.h"
#include "thp.h"
#include "commit.h"
#include "page_alloc.h"
#include "printk.h"
#include "errno.h"
#include "kstring.h"
#include <asm/memlayout.h>
#include <asm/tlb.h>
#include <asm/page_ops.h>

/* ---- ASIDs: one per address space, never shared while in use ---- */

#define NR_ASIDS 256	/* enough for every process the kernel allows (both arches) */
static u8 asid_used[NR_ASIDS];

/* A free ASID (1..NR_ASIDS-1; 0 is never handed out), or -1. */
static int asid_alloc(void)
{
	for (int i = 1; i < NR_ASIDS; i++) {
		if (!asid_used[i]) {
			asid_used[i] = 1;
			return i;
		}
	}
	return -1;
}

/* Free an ASID; its TLB entries go first so a new owner cannot hit them. */
static void asid_free(int asid)
{
	arch_tlbi_space(asid);
	arch_dsb_ish();	/* the invalidation is complete before the ASID can be reused */
	asid_used[asid] = 0;
}

/* ---- last-level entries ---- */

/*
 * Walk to the last-level entry for va, allocating tables when alloc is set.
 * Returns false if no last-level table covers va (nothing is mapped there)
 * or, with alloc, if a table could not be allocated.
 */
static bool entry_at(struct mm *mm, unsigned long va, bool alloc, struct pt_cursor *c)
{
	if (!pt_walk(&mm->pt, va, PT_LAST_LEVEL, alloc, c))
		return false;
	if (c->level != PT_LAST_LEVEL && arch_pte_valid(c->val)) {
		/* A transparent huge page: work on its small pages from now on. */
		thp_split(mm, c);
		if (!pt_walk(&mm->pt, va, PT_LAST_LEVEL, alloc, c))
			return false;
	}
	return c->level == PT_LAST_LEVEL;
}

/* Change the entry c points at to new (through the choke point). */
static void set_entry(struct mm *mm, struct pt_cursor *c, pteval_t new)
{
	pte_update(&mm->pt, c->ptep, c->val, new, c->va, c->level);
	c->val = new;
}

/*
 * Change the entry c points at to new, saying the change is one that needs
 * no break-before-make (a valid page keeping its page, only its permissions
 * changing): pte_update_inplace() panics if the arch disagrees. Other
 * changes go through set_entry().
 */
static void set_entry_inplace(struct mm *mm, struct pt_cursor *c, pteval_t new)
{
	if (!arch_pte_valid(c->val) || !arch_pte_valid(new)) {
		set_entry(mm, c, new);
		return;
	}
	pte_update_inplace(&mm->pt, c->ptep, c->val, new, c->va, c->level);
	c->val = new;
}

/* The page an entry refers to (a valid page or a PROT_NONE entry), or NULL. */
static struct page *entry_page(pteval_t v)
{
	if (arch_pte_valid(v))
		return phys_to_page(arch_pte_pa(v));
	if (arch_pte_swp_kind(v) == ARCH_SWP_PROTNONE)
		return phys_to_page(arch_pte_swp_pa(v));
	return NULL;
}

static bool entry_writable(pteval_t v)
{
	return arch_pte_valid(v) && (arch_pte_prot(v) & PT_WRITE);
}

unsigned vma_prot(unsigned vm_flags)
{
	unsigned prot = PT_USER;

	if (vm_flags & VM_READ)
		prot |= PT_READ;
	if (vm_flags & VM_WRITE)
		prot |= PT_READ | PT_WRITE;
	if (vm_flags & VM_EXEC)
		prot |= PT_READ | PT_EXEC;
	if (vm_flags & VM_BTI)
		prot |= PT_GUARDED;
	return prot;
}

/* May pg be mapped writable in v right now (no copy-on-write pending)? */
static bool can_write_now(const struct vma *v, const struct page *pg)
{
	return (v->flags & VM_WRITE) && ((v->flags & VM_SHARED) || (page_count(pg) == 1 && v->anon));
}

/* The entry that maps pg in v: a leaf, or a PROT_NONE entry if v allows no access. */
static pteval_t page_entry(const struct vma *v, struct page *pg, bool writable)
{
	unsigned prot = vma_prot(v->flags);

	if (!(v->flags & VM_ACCESS))
		return arch_pte_mk_swp(ARCH_SWP_PROTNONE, page_to_phys(pg));
	if (!writable)
		prot &= ~PT_WRITE;
	return arch_pte_mk_leaf(page_to_phys(pg), prot, PT_LAST_LEVEL);
}

typedef void (*entry_fn)(struct mm *mm, struct pt_cursor *c, void *arg);
typedef void (*table_fn)(struct mm *mm, pteval_t *first, unsigned long n, unsigned long va, void *arg);

/*
 * Call fn once for each last-level table that covers part of [start, end),
 * in address order, with the first entry in range (first, translating va)
 * and how many entries of that table lie in range (n). Missing tables are
 * skipped whole. With split, a transparent huge page met on the way is
 * split first (with the table deposited at its fault: it cannot fail);
 * without, it is skipped. fn may change only those n entries.
 */
static void walk_tables(struct mm *mm, unsigned long start, unsigned long end, table_fn fn, void *arg,
			bool split)
{
	unsigned long va = start;

	while (va < end) {
		struct pt_cursor c;
		u64 span;

		pt_walk(&mm->pt, va, PT_LAST_LEVEL, false, &c);
		if (c.level != PT_LAST_LEVEL && arch_pte_valid(c.val) && split) {
			/* A transparent huge page: split it, then walk its pages. */
			thp_split(mm, &c);	/* never fails: its table was deposited */
			continue;
		}
		if (c.level != PT_LAST_LEVEL) {
			span = pt_level_size(c.level);
			if (ALIGN_DOWN(va, span) + span <= va)
				return;	/* wrapped past the top */
			va = ALIGN_DOWN(va, span) + span;
			continue;
		}
		unsigned long idx = pt_index(va, PT_LAST_LEVEL);
		unsigned long n = MIN(arch_pt_entries(PT_LAST_LEVEL) - idx, (end - va + PAGE_SIZE - 1) / PAGE_SIZE);

		fn(mm, c.ptep, n, va, arg);
		va += n * PAGE_SIZE;
	}
}

struct entry_walk {
	entry_fn fn;
	void *arg;
};

/* walk_tables() callback: the entry function for each non-empty entry. */
static void table_entries(struct mm *mm, pteval_t *first, unsigned long n, unsigned long va, void *arg)
{
	struct entry_walk *w = arg;
	struct pt_cursor c;

	for (unsigned long i = 0; i < n; i++, va += PAGE_SIZE) {
		c.ptep = first + i;
		c.va = va;
		c.level = PT_LAST_LEVEL;
		c.val = arch_pte_read(c.ptep);
		if (c.val != ARCH_PTE_INVALID)
			w->fn(mm, &c, w->arg);
	}
}

/*
 * Call fn for every non-empty last-level entry in [start, end), in address
 * order (walk_tables() says what split does). Inside a table the entries
 * are read in place. fn may change the entry it is given (and only that one).
 */
static void walk_entries_how(struct mm *mm, unsigned long start, unsigned long end, entry_fn fn,
			     void *arg, bool split)
{
	struct entry_walk w = { fn, arg };

	walk_tables(mm, start, end, table_entries, &w, split);
}

/* walk_entries_how() that splits transparent huge pages it meets first. */
static void walk_entries(struct mm *mm, unsigned long start, unsigned long end, entry_fn fn, void *arg)
{
	walk_entries_how(mm, start, end, fn, arg, true);
}

/* ---- creation and teardown ---- */

_Static_assert(sizeof(struct mm) <= PAGE_SIZE, "struct mm lives in one page");

struct mm *mm_list;

struct mm *mm_create(void)
{
	struct mm *mm = alloc_page_va(GFP_ZERO);

	if (!mm)
		return NULL;
	mm->pt.asid = asid_alloc();
	if (mm->pt.asid < 0 || !__pgd_alloc(&mm->pt, 0)) {
		if (mm->pt.asid >= 0)
			asid_free(mm->pt.asid);
		free_page_va(mm);
		return NULL;
	}
	mm->mmap_base = USER_MMAP_BASE;
	mm->rlim_as = mm->rlim_data = mm->rlim_data_max = mm->rlim_stack = ~0ull;	/* none until sys_mm.c sets them */
	mm->users = 1;
	mm->all_next = mm_list;
	if (mm_list)
		mm_list->all_prev = mm;
	mm_list = mm;
	return mm;
}

void mm_put(struct mm *mm)
{
	BUG_ON(mm->users <= 0);
	if (--mm->users)
		return;
	while (mm->vmas) {
		mm_zap_range(mm, mm->vmas->start, mm->vmas->end, true);
		vma_remove(mm, mm->vmas);
	}
	pt_destroy(&mm->pt);
	asid_free(mm->pt.asid);
	if (mm->all_prev)
		mm->all_prev->all_next = mm->all_next;
	else
		mm_list = mm->all_next;
	if (mm->all_next)
		mm->all_next->all_prev = mm->all_prev;
	free_page_va(mm);
}

/* ---- faults ---- */

static bool access_allowed(unsigned flags, enum fault_access access)
{
	switch (access) {
	case FAULT_WRITE: return flags & VM_WRITE;
	case FAULT_EXEC: return flags & VM_EXEC;
	default: return flags & VM_ACCESS;
	}
}

/* Give v's page at c a private copy (copy-on-write), mapped writable. */
static int cow_copy(struct mm *mm, struct vma *v, struct pt_cursor *c, struct page *old)
{
	struct page *pg = alloc_pages(0, 0);

	if (!pg)
		return -ENOMEM;
	arch_copy_page(page_address(pg), page_address(old));
	set_entry(mm, c, page_entry(v, pg, true));
	page_put(old);
	return 0;
}

/*
 * memfd support: first touch of a file mapping at c. The file's page is
 * mapped (shared: writable if the VMA is; private: read-only, copy-on-write),
 * or copied at once for a write to a private mapping. -ENOMEM (SIGBUS)
 * beyond the end of the file.
 */
static int file_fault(struct mm *mm, struct vma *v, struct pt_cursor *c, enum fault_access access)
{
	struct page *pg = v->file->ops->page(v->file, (v->offset + (c->va - v->start)) / PAGE_SIZE);

	if (!pg)
		return -ENOMEM;
	page_get(pg);
	if (access == FAULT_WRITE && !can_write_now(v, pg))
		return cow_copy(mm, v, c, pg);
	set_entry(mm, c, page_entry(v, pg, can_write_now(v, pg)));
	return 0;
}

/*
 * MM-15: a fault just below a VM_GROWSDOWN VMA (MAP_GROWSDOWN) extends it
 * down to the faulting page, as Linux's expand_downwards() does: not below
 * mmap_min_addr, never to within stack_guard_gap (256 pages) of an
 * accessible VMA below that does not grow down itself, and only within the
 * limits of Linux's acct_stack_growth(): the grown VMA no larger than
 * RLIMIT_STACK, the new pages within RLIMIT_AS/RLIMIT_DATA and, for a
 * charged VMA, the commit limit. A private VMA that passes the guard check
 * gets its anon identity (MF-9), grown or not. The main stack (VM_STACK) is
 * mapped at its full RLIMIT_STACK size and never grows. Returns the grown
 * VMA, or NULL.
 */
static struct vma *grow_down(struct mm *mm, unsigned long addr)
{
	struct vma *up = vma_find_from(mm, addr), *prev;
	unsigned long grow;

	addr = ALIGN_DOWN(addr, PAGE_SIZE);
	if (!up || !(up->flags & VM_GROWSDOWN) || (up->flags & VM_STACK) || addr < USER_MMAP_MIN)
		return NULL;
	prev = up->prev;
	if (prev && !(prev->flags & VM_GROWSDOWN) && (prev->flags & VM_ACCESS) &&
	    addr - prev->end < MM_STACK_GUARD_GAP)
		return NULL;
	vma_anon_prepare(up);	/* MF-9: as expand_downwards(), before the limits */
	grow = (up->start - addr) >> PAGE_SHIFT;
	if ((u64)(up->end - addr) > mm->rlim_stack || !mm_may_expand(mm, up->flags, grow) ||
	    ((up->flags & VM_ACCOUNT) && vm_enough_memory(mm, grow)))
		return NULL;
	vma_adjust(mm, up, addr, up->end);
	return up;
}

int mm_fault(struct mm *mm, unsigned long addr, enum fault_access access)
{
	struct vma *v = vma_find(mm, addr);
	struct pt_cursor c;
	struct page *pg;
	pteval_t want;

	if (!v)
		v = grow_down(mm, addr);
	if (!v)
		return -SEGV_MAPERR;
	if (!access_allowed(v->flags, access))
		return -SEGV_ACCERR;
	if (v->flags & VM_HUGETLB)
		return hugetlb_fault(mm, v, addr, access);
	if (access == FAULT_WRITE)
		vma_anon_prepare(v);	/* MF-7: before can_write_now() below asks */
	if (!thp_fault(mm, v, addr))
		return 0;	/* a whole huge leaf (transparent huge page) */
	if (!entry_at(mm, addr, true, &c))
		return -ENOMEM;
	if (arch_pte_swp_kind(c.val) == ARCH_SWP_GUARD)
		return -SEGV_MAPERR;
	pg = entry_page(c.val);
	if (!pg && vma_file_pages(v))	/* memfd support (kernel/memfd.c): the file's page */
		return file_fault(mm, v, &c, access);
	if (!pg) {	/* first touch: a zeroed page of our own */
		pg = alloc_pages(GFP_ZERO, 0);
		if (!pg)
			return -ENOMEM;
		/* writable only with an anon identity: a read where v has none maps it
		 * read-only, as Linux's zero page, so the first write faults (MF-7) */
		set_entry(mm, &c, page_entry(v, pg, can_write_now(v, pg)));
		return 0;
	}
	/* LAB cow: begin */
	if (access == FAULT_WRITE && !entry_writable(c.val) && !can_write_now(v, pg))
		return cow_copy(mm, v, &c, pg);
	/* LAB cow: end */
	want = page_entry(v, pg, can_write_now(v, pg));
	if (want == c.val)
		return fault_entry_unchanged();
	set_entry_inplace(mm, &c, want);	/* the same page, more permission */
	return 0;
}

/* ---- fork ---- */

struct copy_ctx {
	struct mm *dst;
	struct vma *v;
	int err;
};

/*
 * Entries a table walk handles at once (fork, zap): its arrays live on the
 * kernel stack, and each batch is one pte_update_table() call.
 */
#define PT_BATCH 64

/*
 * walk_tables() callback for fork: share n entries of one parent table with
 * the child, PT_BATCH at a time: the child's entries are written in one
 * batch, the page references taken in one batch, and private writable
 * pages are write-protected in the parent (copy-on-write) in one batch.
 * Guard markers and PROT_NONE entries are copied as they are.
 */
static void copy_table(struct mm *src, pteval_t *first, unsigned long n, unsigned long va, void *arg)
{
	/* LAB cow: begin; stub: (void)src; (void)first; (void)n; (void)va; (void)entry_writable; ((struct copy_ctx *)arg)->err = -ENOMEM; */
	struct copy_ctx *cc = arg;
	bool cow = !(cc->v->flags & VM_SHARED);
	unsigned ro = vma_prot(cc->v->flags) & ~PT_WRITE;	/* page_entry(v, pg, false) */
	pteval_t child[PT_BATCH], parent[PT_BATCH];
	struct page *pgs[PT_BATCH];
	struct pt_cursor d;

	if (cc->err)
		return;
	if (!entry_at(cc->dst, va, true, &d)) {	/* the child's table for all n entries */
		cc->err = -ENOMEM;
		return;
	}
	for (unsigned long done = 0, k; done < n; done += k, va += k * PAGE_SIZE) {
		unsigned long np = 0;
		bool protect = false;

		k = MIN(n - done, PT_BATCH);
		for (unsigned long i = 0; i < k; i++) {
			pteval_t old = arch_pte_read(first + done + i);
			struct page *pg = old == ARCH_PTE_INVALID ? NULL : entry_page(old);

			child[i] = parent[i] = old;
			if (!pg)
				continue;
			pgs[np++] = pg;
			if (cow && arch_pte_valid(old)) {
				child[i] = arch_pte_mk_leaf(arch_pte_pa(old), ro, PT_LAST_LEVEL);
				if (entry_writable(old)) {
					parent[i] = child[i];	/* the parent loses write too */
					protect = true;
				}
			}
		}
		page_get_many(pgs, np);
		pte_update_table(&cc->dst->pt, d.ptep + done, child, k, va);
		if (protect)
			pte_update_table(&src->pt, first + done, parent, k, va);
	}
	/* LAB cow: end */
}

struct mm *mm_copy(struct mm *src)
{
	struct mm *dst = mm_create();

	if (!dst)
		return NULL;
	dst->brk_start = src->brk_start;
	dst->brk = src->brk;
	dst->mmap_base = src->mmap_base;
	dst->stack_top = src->stack_top;
	dst->sigtramp = src->sigtramp;
	dst->pkeys_freed = src->pkeys_freed;	/* kernel/pkeys.c */
	for (struct vma *v = src->vmas; v; v = v->next) {
		struct copy_ctx cc = { dst, v, 0 };
		struct vma *nv;

		if (v->flags & VM_DONTFORK)
			continue;
		/* A child does not inherit hugetlb reservations or memory locks
		 * (ML-14), as on Linux. */
		if (!(nv = vma_insert(dst, v->start, v->end, v->flags & ~(VM_HUGE_RESV | VM_LOCKED_MASK), v->name,
				      v->offset))) {
			mm_put(dst);
			return NULL;
		}
		nv->file = vma_file_get(v->file);	/* memfd support */
		if (!(v->flags & VM_WIPEONFORK))
			vma_anon_fork(nv, v);	/* MF-7 */
		/* ML-14: the child's VMAs are the parent's, one to one, even
		 * where unlocking made two alike: they stay apart until one changes */
		nv->kept_cut = v->kept_cut || (nv->prev && vma_mergeable(nv->prev, nv));
		if (v->flags & VM_HUGETLB)
			cc.err = hugetlb_copy(dst, src, v);
		else if (!(v->flags & VM_WIPEONFORK))
			walk_tables(src, v->start, v->end, copy_table, &cc, true);
		if (cc.err) {
			mm_put(dst);
			return NULL;
		}
	}
	return dst;
}

/* ---- zapping, protection, moving, guards ---- */

/*
 * walk_tables() callback for zapping: empty the n entries PT_BATCH at a
 * time (guard markers too if *arg, the with_guards flag), one
 * pte_update_table() per batch, and drop the pages' references only after
 * that batch's TLB invalidation.
 */
static void zap_table(struct mm *mm, pteval_t *first, unsigned long n, unsigned long va, void *arg)
{
	bool with_guards = *(bool *)arg;
	pteval_t new[PT_BATCH];
	struct page *pgs[PT_BATCH];

	for (unsigned long done = 0, k; done < n; done += k, va += k * PAGE_SIZE) {
		unsigned long np = 0;
		bool change = false;

		k = MIN(n - done, PT_BATCH);
		for (unsigned long i = 0; i < k; i++) {
			pteval_t old = arch_pte_read(first + done + i);
			struct page *pg = old == ARCH_PTE_INVALID ? NULL : entry_page(old);

			new[i] = old;
			if (old == ARCH_PTE_INVALID || (!pg && !with_guards))
				continue;	/* a guard marker survives MADV_DONTNEED */
			new[i] = ARCH_PTE_INVALID;
			change = true;
			if (pg)
				pgs[np++] = pg;
		}
		if (change)
			pte_update_table(&mm->pt, first + done, new, k, va);
		page_put_many(pgs, np);
	}
}

void mm_zap_range(struct mm *mm, unsigned long start, unsigned long end, bool with_guards)
{
	mm_zap_vma_range(mm, vma_find(mm, start), start, end, with_guards);
}

void mm_zap_vma_range(struct mm *mm, struct vma *v, unsigned long start, unsigned long end,
		      bool with_guards)
{
	if (v && (v->flags & VM_HUGETLB)) {
		/* with_guards is set exactly when the range leaves the address space */
		hugetlb_zap(mm, v, start, MIN(end, v->end), with_guards);
		return;
	}
	walk_tables(mm, start, end, zap_table, &with_guards, true);
}

static void protect_entry(struct mm *mm, struct pt_cursor *c, void *arg)
{
	/* LAB mprotect: begin; stub: (void)mm; (void)c; (void)arg; */
	struct vma *v = arg;
	struct page *pg = entry_page(c->val);
	pteval_t want;

	if (!pg)
		return;	/* guard markers are left alone */
	want = page_entry(v, pg, can_write_now(v, pg));
	if (want != c->val)
		set_entry_inplace(mm, c, want);	/* mprotect: the same page, new permissions */
	/* LAB mprotect: end */
}

void mm_change_protection(struct mm *mm, struct vma *v, unsigned long start, unsigned long end)
{
	if (v->flags & VM_HUGETLB)
		hugetlb_change_protection(mm, v, start, end);
	else
		walk_entries(mm, start, end, protect_entry, v);
}

struct move_ctx {
	long delta;
	int err;
};

static void move_entry(struct mm *mm, struct pt_cursor *c, void *arg)
{
	struct move_ctx *mc = arg;
	struct pt_cursor d;
	pteval_t val = c->val;

	if (mc->err)
		return;
	if (!entry_at(mm, c->va + mc->delta, true, &d)) {
		mc->err = -ENOMEM;
		return;
	}
	BUG_ON(d.val != ARCH_PTE_INVALID);
	set_entry(mm, c, ARCH_PTE_INVALID);	/* old translation gone (TLBI) before the new one exists */
	set_entry(mm, &d, arch_pte_valid(val) ?
		  arch_pte_mk_leaf(arch_pte_pa(val), arch_pte_prot(val), PT_LAST_LEVEL) : val);
}

int mm_move_entries(struct mm *mm, unsigned long from, unsigned long to, unsigned long len)
{
	struct move_ctx mc = { (long)(to - from), 0 };

	walk_entries(mm, from, from + len, move_entry, &mc);
	return mc.err;
}

int mm_guard_install(struct mm *mm, unsigned long start, unsigned long end)
{
	for (unsigned long va = start; va < end; va += PAGE_SIZE) {
		struct pt_cursor c;
		struct page *pg;

		if (!entry_at(mm, va, true, &c))
			return -ENOMEM;
		if (arch_pte_swp_kind(c.val) == ARCH_SWP_GUARD)
			continue;
		pg = entry_page(c.val);
		set_entry(mm, &c, arch_pte_mk_swp(ARCH_SWP_GUARD, 0));
		if (pg)
			page_put(pg);
	}
	return 0;
}

static void unguard_entry(struct mm *mm, struct pt_cursor *c, void *arg)
{
	(void)arg;
	if (arch_pte_swp_kind(c->val) == ARCH_SWP_GUARD)
		set_entry(mm, c, ARCH_PTE_INVALID);
}

void mm_guard_remove(struct mm *mm, unsigned long start, unsigned long end)
{
	walk_entries(mm, start, end, unguard_entry, NULL);
}

void mm_populate(struct mm *mm, unsigned long start, unsigned long end, bool write)
{
	for (unsigned long va = start; va < end; va += PAGE_SIZE)
		if (mm_fault(mm, va, write ? FAULT_WRITE : FAULT_READ) == -ENOMEM)
			return;	/* out of memory (or pool): the rest stays lazy, as on Linux */
}

/* ---- lookups and kernel writes ---- */

void mm_split_huge_at(struct mm *mm, unsigned long va)
{
	struct pt_cursor c;

	if (IS_ALIGNED(va, pt_level_size(THP_LEVEL)))
		return;
	pt_walk(&mm->pt, va, PT_LAST_LEVEL, false, &c);
	if (c.level == THP_LEVEL && arch_pte_valid(c.val))
		thp_split(mm, &c);	/* never fails: its table was deposited */
}

struct page *mm_entry_page(struct mm *mm, unsigned long va)
{
	struct pt_cursor c;

	return entry_at(mm, va, false, &c) ? entry_page(c.val) : NULL;
}

phys_addr_t mm_lookup(struct mm *mm, unsigned long addr)
{
	struct pt_cursor c;

	if (!entry_at(mm, addr, false, &c) || !arch_pte_valid(c.val))
		return 0;
	return arch_pte_pa(c.val);
}

/* The page at va, made present and private (for the kernel to fill), or NULL. */
static struct page *page_for_fill(struct mm *mm, unsigned long va)
{
	struct vma *v = vma_find(mm, va);
	struct pt_cursor c;
	struct page *pg;

	if (!v || !entry_at(mm, va, true, &c) || arch_pte_swp_kind(c.val) == ARCH_SWP_GUARD)
		return NULL;
	vma_anon_prepare(v);	/* a write, as a fault's would be (MF-7) */
	pg = entry_page(c.val);
	if (!pg) {
		pg = alloc_pages(GFP_ZERO, 0);
		if (!pg)
			return NULL;
		set_entry(mm, &c, page_entry(v, pg, v->flags & VM_WRITE));
		return pg;
	}
	if (page_count(pg) > 1 && !(v->flags & VM_SHARED)) {
		if (cow_copy(mm, v, &c, pg))
			return NULL;
		pg = entry_page(c.val);
	}
	return pg;
}

int mm_write(struct mm *mm, unsigned long va, const void *src, size_t len)
{
	const u8 *s = src;

	while (len) {
		unsigned long off = va & (PAGE_SIZE - 1);
		size_t n = MIN(len, PAGE_SIZE - off);
		struct page *pg = page_for_fill(mm, va - off);

		if (!pg)
			return -EFAULT;
		memcpy((u8 *)page_address(pg) + off, s, n);
		va += n;
		s += n;
		len -= n;
	}
	return 0;
}

/* ---- /proc/PID/pagemap and /proc/PID/mem ---- */

/* Linux's pagemap bits (Documentation/admin-guide/mm/pagemap.rst). */
#define PM_PRESENT	(1ull << 63)
#define PM_FILE		(1ull << 61)
#define PM_EXCLUSIVE	(1ull << 56)
#define PM_PFN_MASK	((1ull << 55) - 1)

u64 mm_pagemap_entry(struct mm *mm, unsigned long va)
{
	/* LAB pagemap: begin; stub: (void)mm; (void)va; return 0; */
	struct vma *v = vma_find(mm, va);
	unsigned long base = va;	/* where the leaf (or run) mapping va starts */
	struct pt_cursor c;
	phys_addr_t pa;
	struct page *pg;
	u64 e = PM_PRESENT, span;
	int maps;

	if (!v)
		return 0;
	if (v->flags & VM_HUGETLB)	/* a run's first entry names the huge page (PROT_NONE members all do) */
		base = ALIGN_DOWN(va, hugetlb_of_vma(v)->size);
	pt_walk(&mm->pt, base, PT_LAST_LEVEL, false, &c);	/* never splits: a huge leaf stays */
	span = (v->flags & VM_HUGETLB) ? hugetlb_of_vma(v)->size : pt_level_size(c.level);
	if (arch_pte_valid(c.val) && !arch_pte_is_table(c.val, c.level))
		pa = arch_pte_pa(c.val);
	else if (!arch_pte_is_table(c.val, c.level) && arch_pte_swp_kind(c.val) == ARCH_SWP_PROTNONE)
		pa = arch_pte_swp_pa(c.val);
	else
		return 0;	/* PM-2: not present (nothing, a guard marker, no table) */
	pg = phys_to_page(pa);	/* a huge leaf: its first page holds the count */
	pa += (va - base + (base & (span - 1))) & ~(u64)(PAGE_SIZE - 1);
	if ((v->flags & VM_SHARED) || vma_file_pages(v))
		e |= PM_FILE;	/* PM-3: page cache or shared memory, not private anonymous */
	maps = page_count(pg) - (vma_file_pages(v) ? 1 : 0);	/* the file's own reference is not a mapping */
	if (maps == 1)
		e |= PM_EXCLUSIVE;	/* PM-4 */
	return e | ((pa >> PAGE_SHIFT) & PM_PFN_MASK);	/* PM-1 */
	/* LAB pagemap: end */
}

/*
 * The page /proc/PID/mem reads or writes at va, as Linux's FOLL_FORCE
 * access: faulted in first; for a write to a private mapping a page shared
 * with anyone (a fork child, the file) is copied first, so the write
 * breaks copy-on-write even where the VMA is read-only (PM-11). NULL where
 * Linux gives EIO (PM-12).
 */
static struct page *force_page(struct mm *mm, unsigned long va, bool write)
{
	struct vma *v = vma_find(mm, va);
	struct pt_cursor c;
	struct page *pg;

	if (!v || !(v->flags & VM_ACCESS) || (v->flags & VM_HUGETLB))
		return NULL;	/* ours: PROT_NONE and hugetlb memory are refused (PM-12) */
	if (write && !(v->flags & VM_WRITE) && (v->flags & VM_SHARED))
		return NULL;	/* PM-12: a shared mapping is written only where it is writable */
	if (!entry_at(mm, va, false, &c) || !entry_page(c.val)) {
		if (mm_fault(mm, va, FAULT_READ) || !entry_at(mm, va, false, &c))
			return NULL;
	}
	pg = entry_page(c.val);
	if (!pg)
		return NULL;	/* a guard marker */
	if (write)
		vma_anon_prepare(v);	/* MF-7: a write, as through a fault */
	if (write && !(v->flags & VM_SHARED) && page_count(pg) > 1) {
		if (cow_copy(mm, v, &c, pg))
			return NULL;
		pg = entry_page(c.val);
	}
	return pg;
}

long mm_access(struct mm *mm, unsigned long va, void *buf, size_t n, bool write)
{
	size_t done = 0;

	while (done < n) {
		unsigned long off = (va + done) & (PAGE_SIZE - 1);
		size_t k = MIN(n - done, PAGE_SIZE - off);
		struct page *pg = force_page(mm, va + done - off, write);
		u8 *p;

		if (!pg)
			break;
		p = (u8 *)page_address(pg) + off;
		if (write)
			memcpy(p, (u8 *)buf + done, k);
		else
			memcpy((u8 *)buf + done, p, k);
		done += k;
	}
	return done ? (long)done : -EIO;
}

static void count_entry(struct mm *mm, struct pt_cursor *c, void *arg)
{
	(void)mm;
	if (entry_page(c->val))
		(*(u64 *)arg)++;
}

u64 mm_rss_pages(struct mm *mm, unsigned long start, unsigned long end)
{
	struct vma *v = vma_find(mm, start);
	u64 n = 0;

	if (v && (v->flags & VM_HUGETLB))
		return hugetlb_rss_bytes(mm, v, start, MIN(end, v->end)) / PAGE_SIZE;
	walk_entries_how(mm, start, end, count_entry, &n, false);	/* counting must not split */
	return n + thp_range_bytes(mm, start, end) / PAGE_SIZE;
}
