/*
 * pgtable.h - the architecture-independent page-table core.
 *
 * A page table is a tree of table pages, level 0 at the top. The arch header
 * <asm/pgtable.h> says how many levels there are, how many VA bits each
 * resolves, which levels may hold leaves, how long a contiguous run is, and
 * how descriptors (pteval_t) are encoded. Nothing in mm/ knows more than that.
 *
 * Rules every caller follows:
 *   - A descriptor is read with arch_pte_read() and a live one is changed
 *     only through pte_update*() (mm/pte_update.c), the single choke point
 *     that decides between an in-place write and break-before-make.
 *   - A table page is reached only through pt_page_va(), which picks an
 *     alias of the page that is mapped right now (see pgtable.c).
 *   - Table pages always come zeroed from pxd_alloc().
 */
#ifndef MM_PGTABLE_H
#define MM_PGTABLE_H

#include "types.h"

/* Generic protection flags, turned into descriptor bits by the arch header. */
#define PT_READ    0x001u   /* readable (every valid mapping is) */
#define PT_WRITE   0x002u   /* writable */
#define PT_EXEC    0x004u   /* executable (at EL1 for kernel maps, EL0 for user maps) */
#define PT_USER    0x008u   /* user accessible; also implies not-global */
#define PT_DEVICE  0x010u   /* device memory (nGnRE), never executable */
#define PT_CONT    0x020u   /* member of a contiguous run */
#define PT_NG      0x040u   /* not global: tagged with the address space's ASID */
#define PT_GUARDED 0x080u   /* user code page where indirect branches must land on a BTI (arm64 GP) */

#define PT_KERNEL_RW  (PT_READ | PT_WRITE)
#define PT_KERNEL_RO  (PT_READ)
#define PT_KERNEL_RX  (PT_READ | PT_EXEC)

/* One ptdump attribute token (see arch_ptdump_attr_names()). */
struct pt_attr_name {
	u64 mask, val;
	const char *set, *clear;
};

/* One ptdump section marker: printed when the dump reaches va. */
struct pt_marker {
	unsigned long va;
	const char *name;
};

#include <asm/memlayout.h>
#include <asm/pgtable.h>
#include <asm/tlb.h>
#include "printk.h"

/* Check an invariant; on failure panic with file, line and the values given. */
#define PT_ASSERT(cond, fmt, ...)                                              \
	do {                                                                   \
		if (!(cond))                                                   \
			panic("%s:%d: %s: " fmt, __FILE__, __LINE__, #cond,    \
			      ##__VA_ARGS__);                                  \
	} while (0)

/* printk has no 64-bit-specific conversion: print u64 as unsigned long long. */
typedef unsigned long long pt_ull;

/* An address space: the root table and the ASID its non-global entries use. */
#define PT_ASID_KERNEL (-1)   /* the kernel's tables (TTBR1): global mappings */

struct pt_space {
	phys_addr_t root;       /* physical address of the level-0 table */
	unsigned root_order;    /* the root spans 2^root_order pages */
	int asid;               /* PT_ASID_KERNEL, or a user ASID >= 0 */
};

static inline bool pt_space_is_user(const struct pt_space *as)
{
	return as->asid != PT_ASID_KERNEL;
}

/* ---- level geometry, all from the arch ---- */

static inline u64 pt_level_size(int level)
{
	return (u64)1 << arch_pt_shift(level);
}

static inline unsigned long pt_index(unsigned long va, int level)
{
	return (va >> arch_pt_shift(level)) & (arch_pt_entries(level) - 1);
}

/* Bytes covered by one contiguous run at level (one entry if no runs). */
static inline u64 pt_run_size(int level)
{
	return pt_level_size(level) * arch_pt_cont_entries(level);
}

/* ---- where a descriptor lives ---- */

/*
 * The result of a walk: the descriptor at 'level' that translates 'va'.
 * ptep is the address to read it through; it stays usable until the next
 * pt_page_va() for the same level (a fixmap slot may be reused).
 */
struct pt_cursor {
	pteval_t *ptep;       /* never dereference: use arch_pte_read / pte_update */
	phys_addr_t table;    /* the table page holding the descriptor */
	int level;
	unsigned long va;     /* first VA the entry translates */
	pteval_t val;         /* the descriptor when it was read */
};

/* ---- boot-time state, called by the arch glue in this order ---- */

/*
 * Reset the core and say where the kernel image is: [pa, pa + size) is
 * mapped at va. Table pages are accessed at VA == PA (MMU off) until
 * pt_mmu_enabled(); page-table pages come from memblock until
 * pt_use_page_allocator().
 */
void pt_init(phys_addr_t kimage_pa, unsigned long kimage_va, u64 kimage_size);

/* The MMU is on and the image is mapped at its link address. */
void pt_mmu_enabled(void);

/* The linear map is complete: PAGE_OFFSET + (pa - base_pa) reaches all RAM. */
void pt_linear_map_live(phys_addr_t base_pa);

/* The buddy allocator works: take page-table pages from alloc_pages(). */
void pt_use_page_allocator(void);

/* Is the linear map live, and where does it put pa / which pa is at va? */
bool pt_linear_is_live(void);
unsigned long pt_linear_va(phys_addr_t pa);
phys_addr_t pt_linear_pa(unsigned long va);

/* The physical address of a kernel-image VA (the image alias). */
phys_addr_t pt_kimage_pa(unsigned long va);
bool pt_pa_in_kimage(phys_addr_t pa);

/* ---- table pages ---- */

/*
 * A pointer through which the table page pa (a table of 'level') can be
 * read and written right now: the kernel-image alias for pages inside the
 * image; else the linear map if it is live and pa is not inside a range
 * being broken (pt_break_begin); else the fixmap slot of 'level'.
 */
pteval_t *pt_page_va(phys_addr_t pa, int level);

/* Pointer to entry idx of the table at pa (handles multi-page roots). */
pteval_t *pt_entry_ptr(phys_addr_t table, int level, unsigned long idx);

/*
 * Declare [pa, pa + size) about to be unmapped by break-before-make (a
 * linear-map block being split or unfolded), until pt_break_end(). While
 * declared, pt_page_va() never returns a linear-map alias inside it.
 */
void pt_break_begin(phys_addr_t pa, u64 size);
void pt_break_end(void);

/* Write a descriptor of a table that is not reachable yet (not live). */
static inline void pt_write_new(pteval_t *ptep, pteval_t v)
{
	arch_pte_write(ptep, v);
}

/*
 * Allocate a zeroed table page for 'level' of as and count it as a kernel
 * or user page-table page. Returns 0 when no memory is left (only possible
 * once the buddy allocator is in use; memblock panics instead).
 */
phys_addr_t pxd_alloc(const struct pt_space *as, int level);

/* Free a table page from pxd_alloc(); it must no longer be reachable. */
void pxd_free(const struct pt_space *as, phys_addr_t pa, int level);

/*
 * Allocate the root of 2^order pages for as (as->asid set by the caller) and
 * store it in as->root. Returns false when out of memory.
 */
bool __pgd_alloc(struct pt_space *as, unsigned order);
void __pgd_free(struct pt_space *as);

/* Use an existing root (e.g. the kernel's static root inside the image). */
void pt_space_init(struct pt_space *as, phys_addr_t root, unsigned order, int asid);

/* ---- walking and mapping ---- */

/*
 * Walk as down to the entry for va at 'level'. Stops early at a leaf or, when
 * !alloc, at an invalid entry; c->level says where it stopped. With alloc,
 * missing tables are allocated and linked. Returns false only when a table
 * could not be allocated.
 */
bool pt_walk(const struct pt_space *as, unsigned long va, int level, bool alloc,
	     struct pt_cursor *c);

/* Leaf sizes pt_map_range() may use: PT_LEAF(level) bits, plus PT_ALLOW_CONT. */
#define PT_LEAF(level)   (1u << (level))
#define PT_LEAF_ANY      ((1u << PT_LEVELS) - 1)
#define PT_ALLOW_CONT    (1u << 31)

/*
 * Map [va, va + size) to [pa, pa + size) with prot, using at each step the
 * largest leaf that 'allowed' permits and that va, pa and the remaining size
 * are aligned to, and contiguous runs when PT_ALLOW_CONT. All three values
 * must be page aligned. Every target entry must be invalid, or already hold
 * exactly what would be written; anything else panics. Returns false when
 * a table page could not be allocated (the part mapped so far stays).
 */
bool pt_map_range(const struct pt_space *as, unsigned long va, phys_addr_t pa, u64 size,
		  unsigned prot, unsigned allowed);

/*
 * Unmap every leaf in [va, va + size). Leaves (and contiguous runs) must lie
 * wholly inside the range. Table pages stay.
 */
void pt_unmap_range(const struct pt_space *as, unsigned long va, u64 size);

/* Do the table at pa (of 'level') and every table below it hold only invalid entries? */
bool pt_table_is_empty(phys_addr_t pa, int level);

/*
 * The entry at c is a table: if it and every table below it hold only
 * invalid entries, unlink it (through the choke point, which invalidates
 * the walk caches), free the tables, set c->val invalid and return true.
 * Returns false, changing nothing, if anything is still mapped below it.
 */
bool pt_free_empty_table(const struct pt_space *as, struct pt_cursor *c);

/* Unlink and free every table below the root, then free the root. */
void pt_destroy(struct pt_space *as);

/* ---- the choke point (mm/pte_update.c) ---- */

/*
 * BBML2: every CPU that may walk these tables implements FEAT_BBM level 2
 * and never raises a TLB conflict abort for it. Then a leaf may change its
 * size live, without break-before-make: a block may become a table whose
 * leaves map the same output with the same attributes, and a run may gain
 * or lose its contiguous bit (each TLB may briefly hold the old and the new
 * size together; BBML2 makes that harmless). Without BBML2 such a change
 * still needs the break. Set by the arch (arm64: bbml2.c) on the boot CPU
 * and cleared when a CPU without it comes up; never set on MicroBlaze.
 */
extern bool pt_bbml2;

/* The change old -> new (a leaf at 'level') is a size change BBML2 lets
 * us make live: same output, same attributes, another leaf size. */
bool pte_bbml2_size_change(pteval_t old, pteval_t new, int level);

/*
 * Change the live descriptor at ptep from old to new. It translates va at
 * 'level' in address space as. Decides through arch_pte_change_needs_bbm()
 * between an in-place write (plus the TLBI the change needs) and
 * break-before-make. Panics if *ptep != old, or if either value has the
 * contiguous bit (runs change only as a whole: pte_update_run).
 */
void pte_update(const struct pt_space *as, pteval_t *ptep, pteval_t old, pteval_t new,
		unsigned long va, int level);

/*
 * Like pte_update() but the caller claims the change is safe in place; the
 * checker panics, printing old, new, va and level, if it is not.
 */
void pte_update_inplace(const struct pt_space *as, pteval_t *ptep, pteval_t old,
			pteval_t new, unsigned long va, int level);

/*
 * Change n consecutive entries starting at ptep (translating va, va + size,
 * ...): entry i becomes new_first with its output address advanced by
 * i * pt_level_size(level), or invalid if new_first is invalid. n is 1 or a
 * whole aligned contiguous run. If any entry needs BBM, the whole run is
 * broken, invalidated and rewritten together.
 */
void pte_update_run(const struct pt_space *as, pteval_t *ptep, unsigned long n,
		    pteval_t new_first, unsigned long va, int level);

/*
 * Change n entries of one last-level table at once: the entry at ptep + i
 * (translating va + i * PAGE_SIZE) becomes new[i]. Every change must be
 * safe in place (an invalid entry filled, a valid one emptied, or a valid
 * one keeping its page with new permissions), and no entry may have the
 * contiguous bit: the checker panics otherwise, printing the entry. One
 * barrier sequence covers the whole batch; the TLB loses the old valid
 * entries that changed, one TLBI each, or the whole address space when
 * there are more than PTE_BATCH_TLBI_MAX of them. Panics if the batch
 * leaves its table.
 */
#define PTE_BATCH_TLBI_MAX 16
void pte_update_table(const struct pt_space *as, pteval_t *ptep, const pteval_t *new, unsigned long n,
		      unsigned long va);

/*
 * pte_trace=1 (bootarg): print each step of each choke-point write, one
 * console line per step ("pte_trace: ..." lines, format in pte_update.c).
 * Off by default; when off a write costs one load and a branch more.
 */
extern bool pte_trace;

/* ---- counters ---- */

struct pt_stats {
	u64 kernel_tables;  /* live kernel page-table pages from pxd_alloc */
	u64 user_tables;    /* live user page-table pages (roots included) */
	u64 early_tables;   /* of all ever allocated, how many came from memblock */
	u64 bbm;            /* break-before-make sequences */
	u64 inplace;        /* in-place descriptor updates */
	u64 fixmap_remaps;  /* fixmap slots pointed at a new page */
	u64 fixmap_uses;    /* table-page accesses pt_page_va sent to the fixmap */
};

void pt_get_stats(struct pt_stats *out);

/* pte_update.c's counters (read by pt_get_stats, cleared by pt_init). */
void pte_update_counts(u64 *bbm, u64 *inplace);
void pte_update_reset_counts(void);

#endif
