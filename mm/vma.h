/*
 * vma.h - a process address space: its page tables and the set of virtual
 * memory areas (VMAs) that say what may be mapped where.
 *
 * A VMA is a page-aligned range [start, end) with one set of flags. The
 * page tables only ever hold translations inside VMAs; a fault outside
 * every VMA is SEGV_MAPERR, a fault the VMA's flags forbid is SEGV_ACCERR.
 *
 * The set is kept twice, and both views always agree:
 *   - a sorted doubly-linked list (mm->vmas is the lowest VMA,
 *     mm->vma_last the highest, prev/next are the neighbours), so walking
 *     the set in address order and reaching a neighbour are O(1);
 *   - an AVL tree keyed by start (mm->vma_root), so finding a VMA,
 *     inserting, removing, splitting and merging are O(log n). Each node
 *     also records the largest free gap in its subtree, so the search for
 *     a free range of a given length is O(log n) as well (vma.c explains).
 *
 * The gap "before" a VMA v is [prev->end, v->start), or [0, v->start) for
 * the lowest VMA; the gap above the highest VMA runs to the top of the
 * address space.
 *
 * Rules for callers:
 *   - Change a VMA's start or end only through vma_adjust(), vma_split()
 *     or vma_merge_neighbours(): the tree caches gap sizes that depend on
 *     them. Changing flags, name or offset directly is fine.
 *   - The tree fields (left, right, parent, height, max_gap) are private
 *     to vma.c, and so are mm's vmas, vma_last, vma_root and nvmas.
 */
#ifndef MM_VMA_H
#define MM_VMA_H

#include "types.h"
#include "pgtable.h"

/* VMA flags; the low bits mirror PROT_READ/WRITE/EXEC. */
#define VM_READ		0x0001u
#define VM_WRITE	0x0002u
#define VM_EXEC		0x0004u
#define VM_SHARED	0x0008u
#define VM_MAYREAD	0x0010u
#define VM_MAYWRITE	0x0020u
#define VM_MAYEXEC	0x0040u
#define VM_GROWSDOWN	0x0100u
/* Linux's stack_guard_gap: kept free below a VM_GROWSDOWN VMA (MM-15). */
#define MM_STACK_GUARD_GAP (256 * PAGE_SIZE)
#define VM_STACK	0x0200u	/* the main stack ("[stack]") */
#define VM_HEAP		0x0400u	/* the brk area ("[heap]") */
#define VM_ACCOUNT	0x0800u	/* its pages are charged to the commit count (mm/commit.h) */
#define VM_LOCKED	0x10000000u	/* mlock(): counted in mm->locked_vm, populated when locked (mm/mlock.c) */
#define VM_LOCKONFAULT	0x20000000u	/* with VM_LOCKED: pages are locked as they fault in, not populated */
#define VM_LOCKED_MASK	(VM_LOCKED | VM_LOCKONFAULT)
#define VM_HUGETLB	0x00400000u	/* MAP_HUGETLB: never merged with a neighbour */
/* bits 24-25 (0x03000000): a hugetlb VMA's size, VM_HUGE_INDEX() in mm.h */
#define VM_BTI		0x04000000u	/* PROT_BTI (arm64 with FEAT_BTI): pages are BTI-guarded */
#define VM_ACCESS	(VM_READ | VM_WRITE | VM_EXEC)

struct page;
struct vma_file;

/* A data mapping (RLIMIT_DATA, struct mm's data_vm): private, writable, not a stack (Linux's is_data_mapping). */
static inline bool vm_is_data(unsigned flags)
{
	return (flags & (VM_WRITE | VM_SHARED | VM_STACK | VM_GROWSDOWN)) == VM_WRITE;
}

/*
 * What backs a file mapping: a memfd (kernel/memfd.c), a file of fs/, a
 * SysV segment, a hugetlb mapping's file (mm/hugetlb.c); the pages come
 * from the file itself unless it is names_only. Counted: the open file holds a reference
 * and so does every VMA that maps it (vma_split() takes one for the new
 * half, vma_remove() drops the VMA's).
 */
struct vma_file_ops {
	/* The page at page index pgoff (allocated if it was a hole), still
	 * owned by the file: the caller takes its own reference. NULL beyond
	 * the end of the file or when out of memory. */
	struct page *(*page)(struct vma_file *f, u64 pgoff);
	/* Does the file hold the page at pgoff now (mincore's page-cache
	 * question)? Never allocates. */
	bool (*cached)(struct vma_file *f, u64 pgoff);
	/* A new mapping with *vmflags (NULL: any is fine): 0, possibly with
	 * flags taken away (a write-sealed memfd's VM_MAYWRITE), or the errno
	 * that refuses it. */
	long (*mmap_check)(struct vma_file *f, unsigned *vmflags);
	/* The last reference is gone. */
	void (*release)(struct vma_file *f);
	/* Optional: punch a hole [off, end) (bytes) in the file, its pages
	 * unmapped from every mapping (MADV_REMOVE's; a memfd's only). */
	void (*punch)(struct vma_file *f, u64 off, u64 end);
	/* Optional: the file's size in bytes (a fault at or past it is a
	 * SIGBUS, which MADV_POPULATE_* and mlock report as an error). */
	u64 (*size)(struct vma_file *f);
	/* Optional: the file's device (stat's st_dev encoding) and inode
	 * number, which /proc/<pid>/maps shows. */
	void (*ident)(struct vma_file *f, u32 *dev, u64 *ino);
	/* The file only names its mappings and holds none of their pages
	 * (a private hugetlb mapping's: its pages are anonymous, as on Linux). */
	bool names_only;
};

struct vma_file {
	int refs;
	const struct vma_file_ops *ops;
};

static inline struct vma_file *vma_file_get(struct vma_file *f)
{
	if (f)
		f->refs++;
	return f;
}

/* Drop one reference to f (may be NULL); the last one releases it. */
void vma_file_put(struct vma_file *f);

/*
 * offset: for a named (file) VMA, the file offset of start (for
 * /proc/self/maps and a memfd's page index). For an anonymous VMA it is its
 * identity, modelling Linux's vm_pgoff: Linux gives a private anonymous VMA
 * the page offset start >> PAGE_SHIFT where it is created, a shared one 0
 * (its own shmem object), and a moved VMA keeps the page offset it had at
 * its old place (unless it is private and was never written: then it takes
 * its new place's). Here offset is that page offset (in bytes) minus start:
 * 0 for a private VMA created where it is, -start for a shared one, and a
 * split, vma_adjust() or a merge keep it. Two VMAs continue each other only
 * when their offsets do (vma_offset_at()), so a moved VMA does not merge
 * with the neighbour it lands next to, as on Linux.
 */
struct vma {
	unsigned long start, end;	/* [start, end), page aligned */
	unsigned flags;
	const char *name;		/* path of the file it came from, or NULL */
	u64 offset;			/* see above */
	struct vma_file *file;		/* the file it maps (a memfd, a hugetlb file...), or NULL */
	/* Linux's anon_vma as VMA merging sees it (MF-7, vma_anon_prepare()):
	 * 0 until the first write fault (or transparent huge page fault) of a
	 * private mapping, then an identity that the pieces of a split share.
	 * anon_inherited: it was given by fork (Linux's anon_vma chain then
	 * holds the parent's too, which stops merges). */
	u64 anon;
	bool anon_inherited;
	/* start is a boundary Linux leaves as it is until one of the two
	 * VMAs changes (vma_merge_neighbours() clears it): a failed unmap's
	 * cut (MU-7), either end of a MREMAP_DONTUNMAP source (MR-20). The
	 * checker lets the two be alike. */
	bool kept_cut;
	struct vma *prev, *next;	/* sorted by address */

	/* AVL tree links, private to vma.c */
	struct vma *left, *right, *parent;
	int height;			/* of this subtree; a leaf is 1 */
	unsigned long max_gap;		/* largest gap before any VMA of this subtree */
};

/* Do v's pages come from its file (which holds a reference on each)? */
static inline bool vma_file_pages(const struct vma *v)
{
	return v->file && !v->file->ops->names_only;
}

/* Is va (in v) at or past the end of the file v maps (a SIGBUS there)? */
static inline bool vma_past_file_end(const struct vma *v, unsigned long va)
{
	return vma_file_pages(v) && v->file->ops->size &&
	       v->offset + (va - v->start) >= v->file->ops->size(v->file);
}

/*
 * The lowest address a new mapping below v may reach: v->start, less
 * MM_STACK_GUARD_GAP below a VM_GROWSDOWN VMA (MM-15; Linux's vm_start_gap()).
 */
static inline unsigned long vma_start_gap(const struct vma *v)
{
	if (!(v->flags & VM_GROWSDOWN))
		return v->start;
	return v->start > MM_STACK_GUARD_GAP ? v->start - MM_STACK_GUARD_GAP : 0;
}

struct mm {
	struct pt_space pt;		/* the page tables, with this mm's ASID */
	struct vma *vmas;		/* sorted list: the lowest VMA */
	struct vma *vma_last;		/* and the highest (for the gap above it) */
	struct vma *vma_root;		/* AVL tree of the same VMAs */
	int nvmas;
	/* Pages in VMAs, kept by vma.c (vma_insert*, vma_remove, vma_adjust,
	 * vma_set_flags): all of them (RLIMIT_AS), the data ones (private,
	 * writable, not a stack: RLIMIT_DATA) and the VM_ACCOUNT ones
	 * (part of vm_committed_pages); locked_vm: pages of VM_LOCKED VMAs
	 * (VmLck in /proc/PID/status). */
	unsigned long total_vm, data_vm, commit_vm, locked_vm;
	/* VM_LOCKED / VM_LOCKONFAULT after mlockall(MCL_FUTURE): added to
	 * every mapping made from now on (mmap, brk). Not kept by fork. */
	unsigned def_flags;
	/* The calling process's RLIMIT_AS and RLIMIT_DATA (soft, and DATA's
	 * hard) in bytes, ~0 for none: kernel/sys_mm.c's proc_mm_limits()
	 * copies them in before each operation and each user fault;
	 * mm_create() sets none. */
	u64 rlim_as, rlim_data, rlim_data_max;
	u64 rlim_stack;			/* RLIMIT_STACK (soft): how far a VM_GROWSDOWN VMA may grow (MM-15) */
	unsigned long brk_start, brk;	/* heap: [brk_start, brk) */
	unsigned long mmap_base;	/* top-down mmap placement starts below this */
	unsigned long stack_top;
	unsigned long sigtramp;		/* the signal return trampoline (arch_exec_setup) */
	int users;			/* processes sharing this mm */
	unsigned pkeys_freed;		/* protection keys given back with pkey_free (kernel/pkeys.c) */
	struct mm *all_prev, *all_next;	/* mm_list: every address space (mm/filemap.c walks it) */
};

/* Pages of every VM_ACCOUNT VMA of every mm: Linux's Committed_AS (mm/commit.c). */
extern unsigned long vm_committed_pages;

/* The VMA containing addr, or NULL. O(log n). */
struct vma *vma_find(const struct mm *mm, unsigned long addr);

/* The first VMA that ends above addr (it may start above addr), or NULL. O(log n). */
struct vma *vma_find_from(const struct mm *mm, unsigned long addr);

/* The number of VMAs in the set. */
int vma_count(const struct mm *mm);

/*
 * Add [start, end) with flags, name and offset; start < end and the range
 * must not overlap any VMA (else panic). Returns the new VMA, or NULL when
 * no memory is left (the set is unchanged). Does not merge: call
 * vma_merge_neighbours() for that. O(log n).
 */
struct vma *vma_insert(struct mm *mm, unsigned long start, unsigned long end, unsigned flags,
		       const char *name, u64 offset);

/*
 * The same in two steps, for callers that must not fail once they have
 * changed something: vma_prepare() allocates a VMA (NULL when no memory is
 * left), vma_insert_prepared() inserts it as vma_insert() would and cannot
 * fail, vma_unprepare() frees one that was not inserted (NULL is fine).
 */
struct vma *vma_prepare(void);
struct vma *vma_insert_prepared(struct mm *mm, struct vma *v, unsigned long start, unsigned long end,
				unsigned flags, const char *name, u64 offset);
void vma_unprepare(struct vma *v);

/*
 * vma_insert_prepared() where the caller already knows the place: next is
 * the VMA that will follow the new one (what vma_find_from(mm, start)
 * returns; NULL: it becomes the highest), as the gap searches below report
 * it. The range must lie between next->prev and next (else panic). Saves
 * the tree search; the insertion itself is O(log n).
 */
struct vma *vma_insert_before(struct mm *mm, struct vma *v, struct vma *next, unsigned long start,
			      unsigned long end, unsigned flags, const char *name, u64 offset);

/* Remove vma from the set and free it (its pages must be unmapped already). O(log n). */
void vma_remove(struct mm *mm, struct vma *vma);

/*
 * Split vma at addr (strictly inside it, else panic): vma keeps [start, addr)
 * and a new VMA with the same flags and name gets [addr, end), its offset
 * vma_offset_at(vma, addr). Returns the upper half, or NULL when no memory
 * is left (vma is unchanged). O(log n).
 */
struct vma *vma_split(struct mm *mm, struct vma *vma, unsigned long addr);

/* Give v new flags, keeping mm's page counts (struct mm) right. */
void vma_set_flags(struct mm *mm, struct vma *v, unsigned flags);

/*
 * Move vma's bounds to [start, end) (for brk, stack growth, mremap in
 * place). start < end and the new range must not overlap the neighbours
 * (else panic). A file VMA's offset follows start, so it keeps mapping the
 * same file page at the same address; an anonymous VMA's identity stays. O(log n).
 */
void vma_adjust(struct mm *mm, struct vma *vma, unsigned long start, unsigned long end);

/*
 * The offset a VMA starting at addr must have to continue v (addr need not
 * lie inside v): v's file offset advanced to addr for a named or file VMA,
 * v's own offset (its identity) for an anonymous one.
 */
u64 vma_offset_at(const struct vma *v, unsigned long addr);

/*
 * True when a lies directly below b and the two are alike: they touch
 * (a->end == b->start), have identical flags, the same name pointer and
 * file, and b's offset continues a's (vma_offset_at()). Whether they merge
 * also depends on their anon identities (vma_merge_neighbours()).
 * Flags that must never merge across (a seal, say) need no special case:
 * they are part of flags.
 */
bool vma_mergeable(const struct vma *a, const struct vma *b);

/*
 * Merge v, just made or changed, with its predecessor and/or successor
 * where vma_mergeable() holds and Linux 6.12's anon_vma rule allows it
 * (MF-7, is_mergeable_anon_vma()): a neighbour with the same anon identity
 * (none counts as one), or, when one of the two has none, a neighbour
 * whose identity is its own (not inherited). Both neighbours merge only if
 * their identities are alike too. The lower VMA survives (keeping an
 * identity either had) and the others are freed, so after the call only
 * the returned VMA is valid (it is v->prev if that merged, else v). Never
 * allocates, never fails. O(log n).
 */
struct vma *vma_merge_neighbours(struct mm *mm, struct vma *v);

/* The same, but never with avoid (NULL: any), which then stays as it is. */
struct vma *vma_merge_neighbours_except(struct mm *mm, struct vma *v, const struct vma *avoid);

/*
 * Give private v an anon identity if it has none, as Linux's
 * anon_vma_prepare() at a first write fault: a neighbour's, when the two
 * touch, differ in nothing but the access bits, v's offset continues it
 * and the neighbour's identity is its own (find_mergeable_anon_vma(): the
 * next VMA is tried first); else a new one. Shared and hugetlb VMAs get
 * none. Never allocates, never fails.
 */
void vma_anon_prepare(struct vma *v);

/* dst takes src's anon identity (0: none), as pieces and moves of one VMA share it. */
static inline void vma_anon_copy(struct vma *dst, const struct vma *src)
{
	dst->anon = src->anon;
	dst->anon_inherited = src->anon_inherited;
}

/*
 * fork: child, the copy of parent, gets an identity of its own, inherited,
 * if parent has one (Linux's anon_vma_fork(); the caller skips it for a
 * MADV_WIPEONFORK VMA, whose copy has none).
 */
void vma_anon_fork(struct vma *child, const struct vma *parent);

/*
 * Undo vma_split(mm, lo, ...): lo takes back lo->next, which must start at
 * lo->end with lo's flags and file, whether or not vma_mergeable() holds
 * (hugetlb VMAs never merge, but a split of one is undone this way).
 * Never allocates, never fails. O(log n).
 */
void vma_unsplit(struct mm *mm, struct vma *lo);

/*
 * The highest address A with floor <= A, A + len <= below and [A, A + len)
 * free of VMAs; 0 when there is none (or len is 0). Since 0 also means "no
 * gap", pass floor >= 1 (the kernel passes mmap_min_addr). When one is
 * found and next is not NULL, *next gets the VMA just above the gap (NULL:
 * the gap above the highest VMA), ready for vma_insert_before(). O(log n).
 */
unsigned long vma_find_gap_down(const struct mm *mm, unsigned long len, unsigned long below,
				unsigned long floor, struct vma **next);

/*
 * The lowest address A with from <= A, A + len <= ceiling and [A, A + len)
 * free of VMAs; 0 when there is none (or len is 0). As above, a result of
 * 0 is "none", so pass from >= 1; next as above. O(log n).
 */
unsigned long vma_find_gap_up(const struct mm *mm, unsigned long len, unsigned long from,
			      unsigned long ceiling, struct vma **next);

/*
 * Verify every invariant of the set: the tree is a BST by start with
 * correct parent links, AVL-balanced with correct heights; VMAs are
 * non-empty and do not overlap; the list is exactly the in-order
 * traversal (mm->vmas first, mm->vma_last last, prev/next mirrored);
 * every max_gap is right;
 * nvmas is the number of nodes. Prints each problem found ("vma_check:
 * ...") and returns false if there was one. O(n): for tests and debug.
 */
bool vma_check(const struct mm *mm);

/* vma_check() that prints nothing: the first problem found is written to
 * buf (size bytes, size > 0) and false returned. */
bool vma_check_report(const struct mm *mm, char *buf, size_t size);

#endif
