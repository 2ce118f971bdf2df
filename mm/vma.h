/*
 * vma.h - a process address space: its page tables and the set of virtual
 * memory areas (VMAs) that say what may be mapped where.
 *
 * A VMA is a page-aligned range [start, end) with one set of flags. The
 * page tables only ever hold translations inside VMAs; a fault outside
 * every VMA is SEGV_MAPERR, a fault the VMA's flags forbid is SEGV_ACCERR.
 *
 * For now the set is a sorted doubly-linked list, so vma_find() is O(n).
 * The address-space system calls use only this API, so a balanced tree can
 * replace the list without touching them.
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
#define VM_STACK	0x0200u	/* the main stack ("[stack]") */
#define VM_HEAP		0x0400u	/* the brk area ("[heap]") */
#define VM_ACCESS	(VM_READ | VM_WRITE | VM_EXEC)

struct vma {
	unsigned long start, end;	/* [start, end), page aligned */
	unsigned flags;
	const char *name;		/* path of the file it came from, or NULL */
	u64 offset;			/* file offset of start (for /proc/self/maps) */
	struct vma *prev, *next;	/* sorted by address */
};

struct mm {
	struct pt_space pt;		/* the page tables, with this mm's ASID */
	struct vma *vmas;		/* sorted list */
	int nvmas;
	unsigned long brk_start, brk;	/* heap: [brk_start, brk) */
	unsigned long mmap_base;	/* top-down mmap placement starts below this */
	unsigned long stack_top;
	unsigned long sigtramp;		/* the signal return trampoline (arch_exec_setup) */
	int users;			/* processes sharing this mm */
};

/* The VMA containing addr, or NULL. */
struct vma *vma_find(const struct mm *mm, unsigned long addr);

/* The first VMA that ends above addr (it may start above addr), or NULL. */
struct vma *vma_find_from(const struct mm *mm, unsigned long addr);

/*
 * Add [start, end) with flags; the range must not overlap any VMA. Returns
 * the new VMA or NULL when no memory is left.
 */
struct vma *vma_insert(struct mm *mm, unsigned long start, unsigned long end, unsigned flags,
		       const char *name, u64 offset);

/* Remove vma from the set and free it (its pages must be unmapped already). */
void vma_remove(struct mm *mm, struct vma *vma);

/* Split vma at addr (strictly inside it); returns the upper half or NULL. */
struct vma *vma_split(struct mm *mm, struct vma *vma, unsigned long addr);

/* Lowest gap of len bytes at or below 'below' searching downwards, or 0. */
unsigned long vma_find_gap_down(const struct mm *mm, unsigned long len, unsigned long below,
				unsigned long floor);

#endif
