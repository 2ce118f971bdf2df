/*
 * fixmap.c - fixed virtual slots backed by static tables in the image.
 *
 * The tables below the root for FIXMAP_BASE (one per level, the last one
 * holding the slots) live in .bss. Being inside the kernel image, they are
 * reached through the image alias (pt_page_va rule 2), so mapping a slot
 * never needs a slot itself. Slot changes go through pte_update() like any
 * other live descriptor: remapping a slot to another page is a change of
 * output address, so it is done with break-before-make.
 */
#include "fixmap.h"

#define FIX_TABLE_ENTRIES (PAGE_SIZE / sizeof(pteval_t))

/* An arch whose object format cannot align a variable to PAGE_SIZE
 * (MicroBlaze with 64 KiB pages) defines its own in <asm/memlayout.h>. */
#ifndef ARCH_PAGE_ALIGNED_BSS
#define ARCH_PAGE_ALIGNED_BSS __attribute__((aligned(PAGE_SIZE)))
#endif

/* fix_tables[l - 1] is the level-l table on the path to FIXMAP_BASE. */
static pteval_t fix_tables[PT_LEVELS - 1][FIX_TABLE_ENTRIES] ARCH_PAGE_ALIGNED_BSS;

static struct {
	const struct pt_space *kernel;
	phys_addr_t slot_table;          /* the last-level table holding the slots */
	phys_addr_t slot_pa[FIX_NR_SLOTS];
	unsigned slot_prot[FIX_NR_SLOTS];
	bool slot_mapped[FIX_NR_SLOTS];
	u64 remaps;
} fix;

unsigned long fixmap_slot_va(unsigned slot)
{
	PT_ASSERT(slot < FIX_NR_SLOTS, "slot %u of %d", slot, FIX_NR_SLOTS);
	return FIXMAP_BASE + (unsigned long)slot * PAGE_SIZE;
}

/* The physical address of our static table for 'level', cleared for use. */
static phys_addr_t fix_table_take(int level)
{
	phys_addr_t pa = pt_kimage_pa(arch_kimage_sym_va(fix_tables[level - 1]));
	pteval_t *t = pt_page_va(pa, level);

	PT_ASSERT(pt_pa_in_kimage(pa), "fixmap table 0x%llx outside the image", (pt_ull)pa);
	for (unsigned long i = 0; i < FIX_TABLE_ENTRIES; i++)
		pt_write_new(&t[i], ARCH_PTE_INVALID);
	return pa;
}

void fixmap_init(const struct pt_space *kernel)
{
	phys_addr_t table = kernel->root;

	/* All slots in the one last-level table that holds FIXMAP_BASE. */
	PT_ASSERT(pt_index(FIXMAP_BASE, PT_LAST_LEVEL) + FIX_NR_SLOTS <= arch_pt_entries(PT_LAST_LEVEL),
		  "fixmap of %d slots at 0x%lx does not fit one last-level table",
		  FIX_NR_SLOTS, FIXMAP_BASE);
	__builtin_memset(&fix, 0, sizeof(fix));
	fix.kernel = kernel;
	for (int level = 0; level < PT_LAST_LEVEL; level++) {
		pteval_t *ptep = pt_entry_ptr(table, level, pt_index(FIXMAP_BASE, level));
		pteval_t v = arch_pte_read(ptep);
		unsigned long va = FIXMAP_BASE & ~(unsigned long)(pt_level_size(level) - 1);

		if (!arch_pte_valid(v)) {
			pteval_t tv = arch_pte_mk_table(fix_table_take(level + 1), false);

			pte_update(kernel, ptep, v, tv, va, level);
			v = tv;
		}
		PT_ASSERT(arch_pte_is_table(v, level), "fixmap path blocked at level %d by 0x%llx",
			  level, (pt_ull)v);
		table = arch_pte_pa(v);
	}
	fix.slot_table = table;
}

void *fixmap_map(unsigned slot, phys_addr_t pa, unsigned prot)
{
	unsigned long va = fixmap_slot_va(slot);
	pteval_t *ptep;

	PT_ASSERT(fix.slot_table, "fixmap used before fixmap_init (slot %u pa 0x%llx)", slot,
		  (pt_ull)pa);
	if (fix.slot_mapped[slot] && fix.slot_pa[slot] == pa && fix.slot_prot[slot] == prot)
		return (void *)va;
	ptep = pt_entry_ptr(fix.slot_table, PT_LAST_LEVEL, pt_index(va, PT_LAST_LEVEL));
	pte_update(fix.kernel, ptep, arch_pte_read(ptep), arch_pte_mk_leaf(pa, prot, PT_LAST_LEVEL),
		   va, PT_LAST_LEVEL);
	if (fix.slot_mapped[slot])
		fix.remaps++;
	fix.slot_pa[slot] = pa;
	fix.slot_prot[slot] = prot;
	fix.slot_mapped[slot] = true;
	return (void *)va;
}

void fixmap_unmap(unsigned slot)
{
	unsigned long va = fixmap_slot_va(slot);
	pteval_t *ptep;

	if (!fix.slot_mapped[slot])
		return;
	ptep = pt_entry_ptr(fix.slot_table, PT_LAST_LEVEL, pt_index(va, PT_LAST_LEVEL));
	pte_update(fix.kernel, ptep, arch_pte_read(ptep), ARCH_PTE_INVALID, va, PT_LAST_LEVEL);
	fix.slot_mapped[slot] = false;
}

pteval_t *fixmap_map_table(int level, phys_addr_t pa)
{
	PT_ASSERT(level >= 0 && level < PT_LEVELS, "level %d pa 0x%llx", level, (pt_ull)pa);
	return fixmap_map(FIX_PT_TABLE + level, pa, PT_KERNEL_RW);
}

void *fixmap_map_dtb(phys_addr_t pa, u64 size)
{
	phys_addr_t first = ALIGN_DOWN(pa, (u64)PAGE_SIZE);
	u64 pages = (ALIGN_UP(pa + size, (u64)PAGE_SIZE) - first) / PAGE_SIZE;

	if (pages > FIX_DTB_PAGES)
		panic("fixmap: device tree at 0x%llx of 0x%llx bytes exceeds the %d-page window",
		      (pt_ull)pa, (pt_ull)size, FIX_DTB_PAGES);
	for (u64 i = 0; i < pages; i++)
		fixmap_map(FIX_DTB + i, first + i * PAGE_SIZE, PT_KERNEL_RO);
	return (char *)fixmap_slot_va(FIX_DTB) + (pa - first);
}

u64 fixmap_remap_count(void)
{
	return fix.remaps;
}

const void *fixmap_map_dtb_header_first(phys_addr_t dtb_pa, u32 *mapped)
{
	const u32 max = FIX_DTB_PAGES * PAGE_SIZE - PAGE_SIZE;	/* the window, less an unaligned start */
	const u8 *hdr;
	u32 size;

	if (!dtb_pa)
		panic("no device tree: the boot loader passed no address");
	hdr = fixmap_map_dtb(dtb_pa, 8);
	size = (u32)hdr[4] << 24 | (u32)hdr[5] << 16 | (u32)hdr[6] << 8 | hdr[7];	/* totalsize */
	size = MIN(MAX(size, 64u), max);
	*mapped = size;
	return fixmap_map_dtb(dtb_pa, size);
}
