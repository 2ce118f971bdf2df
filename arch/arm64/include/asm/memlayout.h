/*
 * asm/memlayout.h - arm64 virtual address layout, derived from the build's
 * granule and VA size (asm/layout.h). With the default 4 KiB granule and
 * 48-bit VA (N = VA_BITS = 48):
 *
 *   0x0000000000000000 .. 0x0001000000000000   user space (TTBR0, per-process ASID)
 *   0xffff000000000000 .. 0xffff800000000000   linear map of all RAM (128 TiB)
 *   0xffff800080000000 .. 0xffff800100000000   kernel image (text RX, rodata R, data RW)
 *   0xfffffbfffe000000 .. 0xfffffbfffe200000   fixmap: one last-level table of slots
 *   0xfffffc0000000000 .. 0xfffffd0000000000   ioremap (device mappings)
 *
 * With a 52-bit VA (64K/52, 16K/52, 4K/52) the same rules give user space
 * [0, 2^52) (mmap and the stack below 2^48 by default: USER_VA_WINDOW), the
 * linear map at 0xfff0000000000000, the image at 0xfff8000080000000,
 * ioremap at 0xffffc00000000000 and the fixmap 8 GiB (64K), 512 MiB (16K)
 * or 32 MiB (4K) below it.
 *
 * In general: user space is [0, 2^N), the kernel half [-2^N, 0) holds the
 * linear map in its lower half, the image 2 GiB above that, ioremap at
 * -2^(N-6) (2^(N-8) long), and the fixmap (what one last-level table maps:
 * 2M, 32M or 512M) 16 such sizes below ioremap.
 *
 * The fixmap and ioremap areas each sit under their own top-level entry,
 * apart from the linear map and the image (except 16K/48-bit, whose top
 * level has only two entries; with 16K/52 and 4K/52 the fixmap and
 * ioremap share one 128 or 256 TiB top-level entry, away from the
 * image's), so the fixmap's static tables never share a table page with
 * anything a split could touch.
 */
#ifndef ASM_MEMLAYOUT_H
#define ASM_MEMLAYOUT_H

#include <asm/layout.h>	/* PAGE_SHIFT, VA_BITS, PT_SHIFT() */

/* The translation granule: 4, 16 or 64 KiB pages. */
#define PAGE_SIZE        (1UL << PAGE_SHIFT)

/* Everything below this is user space (TASK_SIZE), translated through TTBR0. */
#define USER_VA_END      (1UL << VA_BITS)

/*
 * The default mmap window (Linux's DEFAULT_MAP_WINDOW): with a 52-bit VA,
 * the stack, the mmap base and every placement without a hint above it stay
 * below 2^48, so programs that keep tags or other data in bits 48-51 of a
 * pointer keep working; mm_choose_address() goes above it only for a hint
 * above it (or MAP_FIXED there). Equal to USER_VA_END for VA_BITS <= 48.
 */
#define USER_VA_WINDOW   (1UL << USER_VA_WINDOW_BITS)

/*
 * User layout: the stack ends at USER_STACK_TOP and may use USER_STACK_SIZE
 * below it; mmap() places mappings top-down from USER_MMAP_BASE, leaving a
 * gap under the stack as Linux does; programs are linked low (0x400000).
 * exec (kernel/exec.c) moves the stack top and the mmap base of each new
 * image down by random amounts (randomize_va_space) and sets mm->mmap_base.
 */
#define USER_STACK_TOP   USER_VA_WINDOW
#define USER_STACK_SIZE  (8UL << 20)
#define USER_MMAP_BASE   (USER_STACK_TOP - USER_STACK_SIZE - (128UL << 20))
#define USER_MMAP_MIN    0x10000UL

/* First address translated by TTBR1. */
#define KERNEL_VA_START  (~0UL << VA_BITS)

/*
 * The VA that entry 0 of the kernel's root table translates (TTBR1 has its
 * own root, so it starts at KERNEL_VA_START; an arch with one root for
 * everything would say 0 here).
 */
#define KERNEL_ROOT_VA_BASE KERNEL_VA_START

/*
 * Linear map: PAGE_OFFSET + (pa - linear base), where the linear base is
 * the lowest RAM address rounded down to the largest block size (4K: 1 GiB,
 * 16K: 32 MiB, 64K: 512 MiB) so
 * that virtual and physical addresses line up for block mappings.
 */
#define PAGE_OFFSET      KERNEL_VA_START
#define PAGE_END         (KERNEL_VA_START + (1UL << (VA_BITS - 1)))

/* The kernel image is linked here; its 2 GiB window ends at KIMAGE_END. */
#define KIMAGE_VADDR     (PAGE_END + 0x80000000UL)
#define KIMAGE_END       (PAGE_END + 0x100000000UL)

/* Fixmap: fixed virtual slots backed by static tables inside the image. */
#define FIXMAP_SIZE      (1UL << PT_SHIFT(PT_LAST_LEVEL - 1))
#define FIXMAP_BASE      (IOREMAP_BASE - 16 * FIXMAP_SIZE)
#define FIXMAP_END       (FIXMAP_BASE + FIXMAP_SIZE)

/* Device mappings (ioremap). */
#define IOREMAP_BASE     (-(1UL << (VA_BITS - 6)))
#define IOREMAP_END      (IOREMAP_BASE + (1UL << (VA_BITS - 8)))

#endif
