/*
 * pte_update.c - the one place where a live descriptor is written.
 *
 * Every change to a descriptor that a table walker can reach - kernel or
 * user tables, any level - goes through pte_update_run() below (directly,
 * or through pte_update / pte_update_inplace). It chooses between:
 *
 *   in place   (a new table: arch_pt_publish_barrier, so the stores that
 *              filled it are visible to walkers before the link is);
 *              write the new value(s); dsb ishst; TLBI what the old value
 *              may have left in TLBs (nothing if the old value was
 *              invalid); dsb ish; isb.  Used when the arch predicate
 *              arch_pte_change_needs_bbm() says every entry may change
 *              without being broken first.
 *
 *   BBM        write invalid; dsb ishst; TLBI; dsb ish; write new;
 *              dsb ishst; isb (Arm ARM RDDMVT; the first dsb ishst
 *              also publishes a new table's contents), done by arch_bbm_run() as
 *              one asm sequence that touches no memory but the
 *              descriptors - in particular not the stack, which may lie in
 *              the very range being broken. The descriptor itself must be
 *              written through an alias outside that range (asserted
 *              here); pt_page_va() and pt_break_begin() arrange that.
 *
 * TLBI choice (Arm ARM D8.13, Linux's __flush_tlb_kernel_pgtable):
 *   old value a leaf        one "last level" TLBI per entry (a TLBI by VA
 *                           removes any entry covering that VA, block or page)
 *   old or new value a table  the all-levels form, so walk caches go too
 *   old value a table       everything below it may be cached at any VA it
 *                           covered: invalidate the whole address space
 *
 * BBML2 (pt_bbml2): a size change of a leaf - a block replaced by a table
 * of identical leaves, a run's contiguous bit set or cleared - is made in
 * place, without the break (pte_bbml2_size_change). Without BBML2 it is a
 * BBM like any other change of the output or the size.
 *
 * Other CPUs: a break of a kernel mapping (the linear map, the image, the
 * fixmap) is made with every other CPU held in the rendezvous
 * (arch_pt_hold_others: they spin, interrupts masked, in a loop that
 * touches only the kernel image), so no CPU can fault in the broken range.
 * All TLBIs are the broadcast (Inner Shareable) forms.
 *
 * The checker: pte_update_inplace() lets a caller claim a change is safe in
 * place; if the arch predicate disagrees it panics with old, new, va and
 * level. Counters of BBM sequences and in-place updates are kept.
 *
 * The trace (pte_trace=1): after each write, one line per step it took,
 * all sharing the write's sequence number:
 *
 *   pte_trace: #7 kernel va=0xffff000040000000 level=1 n=1 break old=0x...(block) new=0x0(invalid)
 *   pte_trace: #7 kernel va=0xffff000040000000 level=1 n=1 tlbi all-levels
 *   pte_trace: #7 kernel va=0xffff000040000000 level=1 n=1 make old=0x0(invalid) new=0x...(table)
 *
 * Steps: break, tlbi, make for break-before-make; inplace, then tlbi if
 * the old value was valid, for an in-place write. The space is "kernel" or
 * "user:ASID"; old and new are the first entry of a run of n. The lines
 * come after the write is complete: the break's invalid window cannot
 * print (see BBM above), so the trace says what was done, in order. A
 * batch (pte_update_table) prints an inplace line per entry as it is
 * stored, then one tlbi line (n = the batch) for the batch's TLBIs.
 */
#include "pgtable.h"

static u64 nr_bbm, nr_inplace;

void pte_update_counts(u64 *bbm, u64 *inplace)
{
	*bbm = nr_bbm;
	*inplace = nr_inplace;
}

void pte_update_reset_counts(void)
{
	nr_bbm = 0;
	nr_inplace = 0;
}

bool pte_trace;
static u64 trace_seq;
static bool tracing;	/* a trace line is being printed: do not trace its own writes */

/* The value entry i of a run gets: new_first moved on by i entries. */
static pteval_t run_value(pteval_t new_first, unsigned long i, int level)
{
	if (!arch_pte_valid(new_first))
		return new_first;
	return arch_pte_oa_add(new_first, i * pt_level_size(level));
}

/* Same output address and attributes (contiguous hint aside). */
static bool same_leaf(pteval_t a, int la, pteval_t b, int lb)
{
	return arch_pte_pa(a) == arch_pte_pa(b) &&
	       (arch_pte_prot(a) & ~PT_CONT) == (arch_pte_prot(b) & ~PT_CONT) &&
	       arch_pte_is_leaf(a, la) && arch_pte_is_leaf(b, lb);
}

bool pte_bbml2_size_change(pteval_t old, pteval_t new, int level)
{
	/* LAB bbml2: begin; stub: (void)old; (void)new; (void)level; (void)same_leaf; return false; */
	const pteval_t *t;
	u64 size;

	if (!pt_bbml2 || !arch_pte_valid(old) || !arch_pte_is_leaf(old, level))
		return false;
	if (arch_pte_is_leaf(new, level))
		return same_leaf(old, level, new, level);
	if (!arch_pte_is_table(new, level) || level + 1 >= PT_LEVELS)
		return false;
	/* A table of next-level leaves, entry i mapping old's output + i * size. */
	t = pt_page_va(arch_pte_pa(new), level + 1);
	size = pt_level_size(level + 1);
	pteval_t first = arch_pte_read(t);

	if (!same_leaf(first, level + 1, old, level))
		return false;
	for (unsigned long i = 1; i < arch_pt_entries(level + 1); i++) {
		pteval_t e = arch_pte_read(t + i);

		/* Cheap when the entry is the first one moved on (the usual
		 * case); else decode it. */
		if (e != arch_pte_oa_add(first, i * size) &&
		    !same_leaf(e, level + 1, arch_pte_oa_add(old, i * size), level))
			return false;
	}
	return true;
	/* LAB bbml2: end */
}

/* What the old values of a run, summarised, require. */
struct run_change {
	bool changed;      /* some entry differs */
	bool bbm;          /* some entry needs break-before-make */
	bool old_valid;    /* some old entry was valid: TLBs may hold it */
	bool old_table;    /* some old entry was a table: walk caches may hold it */
	bool new_table;
};

static void run_examine(const pteval_t *ptep, unsigned long n, pteval_t new_first, int level,
			struct run_change *rc)
{
	__builtin_memset(rc, 0, sizeof(*rc));
	for (unsigned long i = 0; i < n; i++) {
		pteval_t old = arch_pte_read(ptep + i);
		pteval_t new = run_value(new_first, i, level);

		rc->changed |= old != new;
		rc->bbm |= arch_pte_change_needs_bbm(old, new, level) &&
			   !pte_bbml2_size_change(old, new, level);
		rc->old_valid |= arch_pte_valid(old);
		rc->old_table |= arch_pte_is_table(old, level);
		rc->new_table |= arch_pte_is_table(new, level);
	}
}

/* What a descriptor is, for the trace: invalid, table, block or page (+cont). */
static const char *trace_kind(pteval_t v, int level)
{
	if (!arch_pte_valid(v))
		return "invalid";
	if (arch_pte_is_table(v, level))
		return "table";
	if (level == PT_LAST_LEVEL)
		return arch_pte_is_cont(v) ? "page+cont" : "page";
	return arch_pte_is_cont(v) ? "block+cont" : "block";
}

/* One trace line: step, then either "old=..(kind) new=..(kind)" or a detail word. */
static void trace_step(const struct pt_space *as, unsigned long va, int level, unsigned long n,
		       const char *step, pteval_t old, pteval_t new, const char *detail)
{
	char space[16];

	if (pt_space_is_user(as))
		snprintk(space, sizeof(space), "user:%d", as->asid);
	else
		snprintk(space, sizeof(space), "kernel");
	if (detail)
		printk("pte_trace: #%llu %s va=0x%lx level=%d n=%lu %s %s\n", (pt_ull)trace_seq,
		       space, va, level, n, step, detail);
	else
		printk("pte_trace: #%llu %s va=0x%lx level=%d n=%lu %s old=0x%llx(%s) new=0x%llx(%s)\n",
		       (pt_ull)trace_seq, space, va, level, n, step, (pt_ull)old,
		       trace_kind(old, level), (pt_ull)new, trace_kind(new, level));
}

/* A batch (pte_update_table) entry, traced right after its store, before the batch's barriers. */
static void trace_batch_entry(const struct pt_space *as, unsigned long va, pteval_t old, pteval_t new)
{
	if (tracing)
		return;
	tracing = true;
	trace_seq++;
	trace_step(as, va, PT_LAST_LEVEL, 1, "inplace", old, new, NULL);
	tracing = false;
}

/* The TLBI a write of rc made, in words (tlb_flush_old and write_bbm agree). */
static const char *trace_tlbi(const struct run_change *rc)
{
	if (rc->old_table)
		return "space";
	return rc->new_table ? "all-levels" : "leaf";
}

/* Trace one completed write of n entries at va: bbm or in place. */
static void trace_write(const struct pt_space *as, unsigned long va, int level, unsigned long n,
			pteval_t old, pteval_t new, bool bbm, const struct run_change *rc)
{
	if (tracing)
		return;
	tracing = true;
	trace_seq++;
	if (bbm) {
		trace_step(as, va, level, n, "break", old, ARCH_PTE_INVALID, NULL);
		trace_step(as, va, level, n, "tlbi", 0, 0, trace_tlbi(rc));
		trace_step(as, va, level, n, "make", ARCH_PTE_INVALID, new, NULL);
	} else {
		trace_step(as, va, level, n, "inplace", old, new, NULL);
		if (rc->old_valid)
			trace_step(as, va, level, n, "tlbi", 0, 0, trace_tlbi(rc));
	}
	tracing = false;
}

/* Invalidate the TLB entries the old values of n entries at va may have left. */
static void tlb_flush_old(const struct pt_space *as, unsigned long va, unsigned long n, int level,
			  const struct run_change *rc)
{
	if (rc->old_table) {
		arch_tlbi_space(as->asid);
		return;
	}
	for (unsigned long i = 0; i < n; i++)
		arch_tlbi_va(rc->new_table ? ARCH_TLBI_ALL_LEVELS : ARCH_TLBI_LEAF,
			     va + i * pt_level_size(level), as->asid);
}

static void write_inplace(const struct pt_space *as, pteval_t *ptep, unsigned long n,
			  pteval_t new_first, unsigned long va, int level,
			  const struct run_change *rc)
{
	/* A table being linked: its zeroed and filled entries reach the walkers first. */
	if (rc->new_table)
		arch_pt_publish_barrier();
	for (unsigned long i = 0; i < n; i++)
		arch_pte_write(ptep + i, run_value(new_first, i, level));
	/* Publish the new values to every walker before invalidating old copies. */
	arch_dsb_ishst();
	if (rc->old_valid) {
		tlb_flush_old(as, va, n, level, rc);
		/* Wait until no CPU can still use an old translation. */
		arch_dsb_ish();
	}
	/* Our own later instructions (and fetches) see the new translation. */
	arch_isb();
	nr_inplace++;
}

static void write_bbm(const struct pt_space *as, pteval_t *ptep, unsigned long n,
		      pteval_t new_first, unsigned long va, int level,
		      const struct run_change *rc)
{
	u64 size = pt_level_size(level);
	unsigned long p = (unsigned long)ptep;
	int kind = rc->new_table ? ARCH_TLBI_ALL_LEVELS : ARCH_TLBI_LEAF;

	if (!pt_space_is_user(as) && p >= va && p - va < n * size)
		panic("pte_update: BBM of [0x%lx, +0x%llx) level %d would hide its own descriptor "
		      "at 0x%lx", va, (pt_ull)(n * size), level, p);
	if (rc->old_table)
		kind = ARCH_TLBI_SPACE;
	if (!pt_space_is_user(as))
		arch_pt_hold_others();
	arch_bbm_run(ptep, n, new_first, size, va, size, kind, as->asid);
	if (!pt_space_is_user(as))
		arch_pt_release_others();
	nr_bbm++;
}

/* A run must be one entry, or a whole aligned contiguous run. */
static void check_run_shape(unsigned long n, unsigned long va, int level)
{
	PT_ASSERT(level >= 0 && level < PT_LEVELS, "level %d (va 0x%lx)", level, va);
	PT_ASSERT(IS_ALIGNED(va, pt_level_size(level)), "va 0x%lx not aligned to level %d", va,
		  level);
	PT_ASSERT(n == 1 || (n == arch_pt_cont_entries(level) && IS_ALIGNED(va, pt_run_size(level))),
		  "run of %lu entries at va 0x%lx level %d", n, va, level);
}

void pte_update_run(const struct pt_space *as, pteval_t *ptep, unsigned long n,
		    pteval_t new_first, unsigned long va, int level)
{
	struct run_change rc;

	check_run_shape(n, va, level);
	if (n == 1)
		PT_ASSERT(!arch_pte_is_cont(arch_pte_read(ptep)) && !arch_pte_is_cont(new_first),
			  "one member of a contiguous run changed alone: va 0x%lx level %d "
			  "old 0x%llx new 0x%llx", va, level, (pt_ull)arch_pte_read(ptep),
			  (pt_ull)new_first);
	run_examine(ptep, n, new_first, level, &rc);
	if (!rc.changed)
		return;
	pteval_t old_first = __builtin_expect(pte_trace, 0) ? arch_pte_read(ptep) : 0;

	if (rc.bbm)
		write_bbm(as, ptep, n, new_first, va, level, &rc);
	else
		write_inplace(as, ptep, n, new_first, va, level, &rc);
	if (__builtin_expect(pte_trace, 0))
		trace_write(as, va, level, n, old_first, new_first, rc.bbm, &rc);
}

/* The descriptor must still hold what the caller read. */
static void check_old(const pteval_t *ptep, pteval_t old, unsigned long va, int level)
{
	pteval_t cur = arch_pte_read(ptep);

	if (cur != old)
		panic("pte_update: descriptor for va 0x%lx level %d is 0x%llx, caller expected 0x%llx",
		      va, level, (pt_ull)cur, (pt_ull)old);
}

void pte_update(const struct pt_space *as, pteval_t *ptep, pteval_t old, pteval_t new,
		unsigned long va, int level)
{
	check_old(ptep, old, va, level);
	pte_update_run(as, ptep, 1, new, va, level);
}

void pte_update_inplace(const struct pt_space *as, pteval_t *ptep, pteval_t old,
			pteval_t new, unsigned long va, int level)
{
	struct run_change rc;

	check_old(ptep, old, va, level);
	check_run_shape(1, va, level);
	if ((arch_pte_change_needs_bbm(old, new, level) && !pte_bbml2_size_change(old, new, level)) ||
	    arch_pte_is_cont(old) || arch_pte_is_cont(new))
		panic("pte_update: unsafe in-place change: old 0x%llx new 0x%llx va 0x%lx level %d",
		      (pt_ull)old, (pt_ull)new, va, level);
	run_examine(ptep, 1, new, level, &rc);
	if (!rc.changed)
		return;
	write_inplace(as, ptep, 1, new, va, level, &rc);
	if (__builtin_expect(pte_trace, 0))
		trace_write(as, va, level, 1, old, new, false, &rc);
}

/* Contract: see pgtable.h. */
void pte_update_table(const struct pt_space *as, pteval_t *ptep, const pteval_t *new, unsigned long n,
		      unsigned long va)
{
	unsigned long i, nflush = 0, ntables = arch_pt_entries(PT_LAST_LEVEL);
	unsigned long flush[PTE_BATCH_TLBI_MAX];	/* the first old valid entries changed */

	PT_ASSERT(IS_ALIGNED(va, PAGE_SIZE) && n <= ntables - pt_index(va, PT_LAST_LEVEL),
		  "batch of %lu entries at va 0x%lx leaves its table", n, va);
	for (i = 0; i < n; i++) {
		pteval_t old = arch_pte_read(ptep + i);

		if (old == new[i])
			continue;
		if (arch_pte_change_needs_bbm(old, new[i], PT_LAST_LEVEL) || arch_pte_is_cont(old) ||
		    arch_pte_is_cont(new[i]))
			panic("pte_update: unsafe in-place change: old 0x%llx new 0x%llx va 0x%lx level %d",
			      (pt_ull)old, (pt_ull)new[i], va + i * PAGE_SIZE, PT_LAST_LEVEL);
		if (arch_pte_valid(old) && nflush++ < PTE_BATCH_TLBI_MAX)
			flush[nflush - 1] = i;
		arch_pte_write(ptep + i, new[i]);
		nr_inplace++;
		if (__builtin_expect(pte_trace, 0))
			trace_batch_entry(as, va + i * PAGE_SIZE, old, new[i]);
	}
	arch_dsb_ishst();	/* the new values reach every walker before old copies go */
	if (nflush > PTE_BATCH_TLBI_MAX) {
		arch_tlbi_space(as->asid);
	} else if (nflush) {
		for (i = 0; i < nflush; i++)
			arch_tlbi_va(ARCH_TLBI_LEAF, va + flush[i] * PAGE_SIZE, as->asid);
	}
	if (nflush)
		arch_dsb_ish();	/* no CPU can still use an old translation */
	arch_isb();
	if (__builtin_expect(pte_trace, 0) && nflush && !tracing)
		trace_step(as, va, PT_LAST_LEVEL, n, "tlbi",
			   0, 0, nflush > PTE_BATCH_TLBI_MAX ? "space" : "leaf");
}
