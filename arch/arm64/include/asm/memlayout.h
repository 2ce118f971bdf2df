/*
 * asm/memlayout.h - arm64 virtual address layout (4 KiB granule, 48-bit VA).
 *
 * TTBR0 translates the low half (user), TTBR1 the high half (kernel):
 *
 *   0x0000000000000000 .. 0x0001000000000000   user space (TTBR0, per-process ASID)
 *   0xffff000000000000 .. 0xffff800000000000   linear map of all RAM (128 TiB)
 *   0xffff800080000000 .. 0xffff800100000000   kernel image (text RX, rodata R, data RW)
 *   0xfffffbfffe000000 .. 0xfffffbfffe200000   fixmap: one last-level table of slots
 *   0xfffffc0000000000 .. 0xfffffd0000000000   ioremap (device mappings)
 *
 * The fixmap and ioremap areas each sit under their own top-level (L0)
 * entry, apart from the linear map and the image, so the fixmap's static
 * tables never share a table page with anything a split could touch.
 */
#ifndef ASM_MEMLAYOUT_H
#define ASM_MEMLAYOUT_H

/* The translation granule: 4 KiB pages. */
#define PAGE_SHIFT       12
#define PAGE_SIZE        (1UL << PAGE_SHIFT)

#define VA_BITS          48

/* Everything below this is user space, translated through TTBR0. */
#define USER_VA_END      0x0001000000000000UL

/*
 * User layout: the stack ends at USER_STACK_TOP and may use USER_STACK_SIZE
 * below it; mmap() places mappings top-down from USER_MMAP_BASE, leaving a
 * gap under the stack as Linux does; programs are linked low (0x400000).
 */
#define USER_STACK_TOP   USER_VA_END
#define USER_STACK_SIZE  (8UL << 20)
#define USER_MMAP_BASE   (USER_STACK_TOP - USER_STACK_SIZE - (128UL << 20))
#define USER_MMAP_MIN    0x10000UL

/* First address translated by TTBR1. */
#define KERNEL_VA_START  0xffff000000000000UL

/*
 * The VA that entry 0 of the kernel's root table translates (TTBR1 has its
 * own root, so it starts at KERNEL_VA_START; an arch with one root for
 * everything would say 0 here).
 */
#define KERNEL_ROOT_VA_BASE KERNEL_VA_START

/*
 * Linear map: PAGE_OFFSET + (pa - linear base), where the linear base is
 * the lowest RAM address rounded down to the largest block size (1 GiB) so
 * that virtual and physical addresses line up for block mappings.
 */
#define PAGE_OFFSET      0xffff000000000000UL
#define PAGE_END         0xffff800000000000UL

/* The kernel image is linked here; its 2 GiB window ends at KIMAGE_END. */
#define KIMAGE_VADDR     0xffff800080000000UL
#define KIMAGE_END       0xffff800100000000UL

/* Fixmap: fixed virtual slots backed by static tables inside the image. */
#define FIXMAP_BASE      0xfffffbfffe000000UL
#define FIXMAP_SIZE      0x0000000000200000UL
#define FIXMAP_END       (FIXMAP_BASE + FIXMAP_SIZE)

/* Device mappings (ioremap). */
#define IOREMAP_BASE     0xfffffc0000000000UL
#define IOREMAP_END      0xfffffd0000000000UL

#endif
