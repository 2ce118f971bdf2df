/*
 * mm.h - user address spaces: creation, faults, copy-on-write fork, and the
 * page-level primitives the address-space system calls are built from.
 *
 * Every user page is anonymous memory from the buddy allocator, with a
 * reference count: a private page shared after fork is mapped read-only in
 * both processes and copied on the first write (copy-on-write). A last-level
 * entry is in one of four states:
 *   empty      - nothing there (a fault allocates a zeroed page);
 *   a page     - a valid leaf (read-only while shared, writable otherwise
 *                if the VMA allows writing);
 *   PROT_NONE  - the page is kept but not accessible (a software entry);
 *   guard      - MADV_GUARD_INSTALL marker: any access is SIGSEGV.
 */
#ifndef MM_MM_H
#define MM_MM_H

#include "vma.h"

/* VMA flags beyond the access bits (vma.h has the basic ones). */
#define VM_RAND_READ	0x00001000u	/* MADV_RANDOM (a hint: only the VMA records it) */
#define VM_SEQ_READ	0x00002000u	/* MADV_SEQUENTIAL (likewise) */
#define VM_DONTDUMP	0x00004000u	/* MADV_DONTDUMP, MAP_DROPPABLE (no core dumps here) */
#define VM_DROPPABLE	0x00008000u	/* MAP_DROPPABLE */
#define VM_DONTFORK	0x00010000u	/* MADV_DONTFORK: absent from a fork child */
#define VM_WIPEONFORK	0x00020000u	/* MADV_WIPEONFORK: empty in a fork child */
#define VM_SEALED	0x00040000u	/* mseal(): the mapping cannot change */
#define VM_NORESERVE	0x00080000u	/* MAP_NORESERVE */
#define VM_HUGEPAGE	0x00100000u	/* MADV_HUGEPAGE */
#define VM_NOHUGEPAGE	0x00200000u	/* MADV_NOHUGEPAGE */
/* VM_HUGETLB (vma.h)	0x00400000u	   a MAP_HUGETLB mapping */
#define VM_HUGE_RESV	0x00800000u	/* hugetlb: reserves its pages (no MAP_NORESERVE) */
#define VM_HUGE_INDEX_SHIFT 24		/* hugetlb: its size, an index into hugetlb's hstates (2 bits) */
#define VM_HUGE_INDEX(i) ((unsigned)(i) << VM_HUGE_INDEX_SHIFT)
/* VM_BTI (vma.h)	0x04000000u	   PROT_BTI */
_Static_assert((VM_HUGE_INDEX(3) & (VM_HUGE_RESV | VM_BTI | VM_LOCKED_MASK)) == 0,
	       "VM_HUGE_INDEX's two bits overlap another VM flag");
/* VM_LOCKED, VM_LOCKONFAULT (vma.h)	0x10000000u, 0x20000000u */
#define VM_MERGEABLE	0x40000000u	/* MADV_MERGEABLE (KSM may merge its pages: it never runs here, MA-12) */

/* Kinds of access, for mm_fault(). */
enum fault_access { FAULT_READ, FAULT_WRITE, FAULT_EXEC };

/* mm_fault() results besides 0 (Linux's si_code values for SIGSEGV). */
#define SEGV_MAPERR	1	/* no VMA at the address */
#define SEGV_ACCERR	2	/* the VMA forbids this access */

/* A new, empty address space with its own root table and ASID; NULL when out of memory. */
struct mm *mm_create(void);

/* Every address space from mm_create() not yet freed by mm_put(), linked by all_next. */
extern struct mm *mm_list;

/* Drop one user of mm; the last one frees every page, table and VMA. */
void mm_put(struct mm *mm);

/*
 * A copy of src for fork(): the same VMAs (less VM_DONTFORK ones), private
 * pages shared copy-on-write, shared pages shared, VM_WIPEONFORK areas
 * empty. NULL when out of memory.
 */
struct mm *mm_copy(struct mm *src);

/*
 * Resolve a fault at addr: allocate a zeroed page on first touch, or copy
 * a shared page on a write. Returns 0 (retry the access), -SEGV_MAPERR,
 * -SEGV_ACCERR, or -ENOMEM (the caller turns it into SIGBUS).
 */
int mm_fault(struct mm *mm, unsigned long addr, enum fault_access access);

/*
 * What a fault returns when the entry it finds is already what the VMA
 * allows (a fault path's "nothing to change"). With several CPUs that is
 * another CPU's doing: a thread there faulted on the same page, or its
 * break-before-make was half-way, while this one waited for the kernel
 * lock - so retry the access (Linux's spurious fault). On one CPU nothing
 * can have changed it, so the access is one the entry refuses.
 */
static inline int fault_entry_unchanged(void)
{
	return NR_CPUS > 1 ? 0 : -SEGV_ACCERR;
}

/* Page-table protection for a VMA's flags (user, never global). */
unsigned vma_prot(unsigned vm_flags);

/*
 * Empty every last-level entry in [start, end): pages lose a reference,
 * PROT_NONE entries too; guard markers go only when with_guards is set
 * (munmap) and stay for MADV_DONTNEED.
 */
void mm_zap_range(struct mm *mm, unsigned long start, unsigned long end, bool with_guards);

/* mm_zap_range() for a caller that holds v, the VMA containing start (or NULL). */
void mm_zap_vma_range(struct mm *mm, struct vma *v, unsigned long start, unsigned long end,
		      bool with_guards);

/*
 * Rewrite the entries in [start, end) for v's (new) flags: PROT_NONE keeps
 * pages as software entries; becoming accessible maps them again. A private
 * page referenced only here is made writable at once when v is writable
 * (no write fault afterwards); a shared one stays read-only (copy-on-write).
 */
void mm_change_protection(struct mm *mm, struct vma *v, unsigned long start, unsigned long end);

/*
 * Move the entries of [from, from + len) to [to, to + len) without copying
 * pages (mremap). The destination must be empty.
 */
int mm_move_entries(struct mm *mm, unsigned long from, unsigned long to, unsigned long len);

/* Install guard markers over [start, end) (pages there are freed first). */
int mm_guard_install(struct mm *mm, unsigned long start, unsigned long end);

/* Remove guard markers in [start, end); pages are left alone. */
void mm_guard_remove(struct mm *mm, unsigned long start, unsigned long end);

/* Fault in every page of [start, end) as the VMA allows (MAP_POPULATE, WILLNEED). */
void mm_populate(struct mm *mm, unsigned long start, unsigned long end, bool write);

/* Physical address of the page mapped at addr, or 0 if none. */
phys_addr_t mm_lookup(struct mm *mm, unsigned long addr);

/*
 * A VMA boundary of mm now falls at va (not in a hugetlb VMA): a
 * transparent huge page across it becomes small pages, as Linux's
 * vma_adjust_trans_huge() in __split_vma(), so no block spans two VMAs.
 */
void mm_split_huge_at(struct mm *mm, unsigned long va);

/*
 * The page the last-level entry for va holds (present or PROT_NONE), or
 * NULL. A transparent huge page there is split first, as every lookup
 * through the last level does (mm_lookup() too).
 */
struct page *mm_entry_page(struct mm *mm, unsigned long va);

/*
 * Copy len bytes from src into mm at va, faulting pages in as the VMA allows
 * (used to build a new image before switching to it). Returns 0 or -EFAULT.
 */
int mm_write(struct mm *mm, unsigned long va, const void *src, size_t len);

/*
 * The /proc/PID/pagemap entry of the page at va, in Linux's format (PM-*):
 * bit 63 present, 61 file or shared memory, 56 mapped once, bits 0-54 the
 * PFN; 0 when nothing is there.
 */
u64 mm_pagemap_entry(struct mm *mm, unsigned long va);

/*
 * /proc/PID/mem: copy n bytes between buf and mm at va as Linux's
 * FOLL_FORCE access does (a write to read-only private memory breaks
 * copy-on-write). Bytes done, stopping at the first page that cannot be
 * reached; -EIO if that is the first.
 */
long mm_access(struct mm *mm, unsigned long va, void *buf, size_t n, bool write);

/* Pages present (resident) in [start, end). */
u64 mm_rss_pages(struct mm *mm, unsigned long start, unsigned long end);

#endif
