/*
 * asm/memlayout.h - MicroBlaze virtual address layout (32-bit VA, one root).
 *
 * One root table translates the whole 4 GiB (there is no TTBR0/TTBR1
 * split: the TLB refill handler picks the root; its size and the table
 * split follow the page size, <asm/mmu.h>):
 *
 *   0x00000000 .. 0xc0000000   user space (the process's own root, PID tag)
 *   0xc0000000 .. 0xe0000000   linear map of all RAM (512 MiB at most)
 *   0xe0000000 .. 0xe0800000   kernel image (text RX, rodata R, data RW NX)
 *   0xf0000000 .. +FIXMAP_SIZE fixmap: 1024 page slots (4/16/64 MiB)
 *   0xf8000000 .. 0xfc000000   ioremap (device mappings)
 *
 * The image is linked at KIMAGE_VADDR and loaded by QEMU at the physical
 * address KIMAGE_PHYS (the board's RAM base, given by arch.mk with -D),
 * so code that runs in real mode (the exception vectors and the TLB refill
 * handler) reaches a kernel symbol at TOPHYS(sym).
 */
#ifndef ASM_MEMLAYOUT_H
#define ASM_MEMLAYOUT_H

/* Constants shared with assembly, where a UL suffix is not allowed. */
#ifdef __ASSEMBLER__
#define _UL(x) x
#else
#define _UL(x) x##UL
#endif

/*
 * The page size: 4 KiB, 16 KiB or 64 KiB, chosen at build time (arch.mk:
 * PAGE_SIZE=4K|16K|64K gives -DMB_PAGE_SHIFT=12|14|16; 4 KiB without it).
 */
#ifndef MB_PAGE_SHIFT
#define MB_PAGE_SHIFT    12
#endif
#if MB_PAGE_SHIFT != 12 && MB_PAGE_SHIFT != 14 && MB_PAGE_SHIFT != 16
#error "MB_PAGE_SHIFT must be 12, 14 or 16 (4K, 16K or 64K pages)"
#endif
#define PAGE_SHIFT       MB_PAGE_SHIFT
#define PAGE_SIZE        (_UL(1) << PAGE_SHIFT)

#define VA_BITS          32

/* Everything below this is user space. */
#define USER_VA_END      _UL(0xc0000000)
/* The default mmap window (arm64's is narrower with a 52-bit VA): all of it. */
#define USER_VA_WINDOW   USER_VA_END

/*
 * User layout: the stack ends at USER_STACK_TOP and may use USER_STACK_SIZE
 * below it; mmap() places mappings top-down from USER_MMAP_BASE (the
 * "[sigpage]" sits at the mmap base itself), leaving a gap below the
 * stack; nothing is mapped below USER_MMAP_MIN. Programs are linked at
 * 0x10000000 (tests/lib/arch/microblaze/user.ld). exec (kernel/exec.c)
 * moves the stack top down by up to 8 MiB (randomize_va_space) and puts
 * the mmap base (mm->mmap_base) 128 MiB below USER_STACK_TOP, as Linux's
 * mmap_base() does.
 */
#define USER_STACK_TOP   USER_VA_END
#define USER_STACK_SIZE  (_UL(8) << 20)
#define USER_MMAP_BASE   (USER_STACK_TOP - USER_STACK_SIZE - (_UL(128) << 20))
#define USER_MMAP_MIN    _UL(0x10000)

/* First kernel address; a TLB miss at or above it walks the kernel root. */
#define KERNEL_VA_START  _UL(0xc0000000)

/* Entry 0 of the (single) root translates VA 0. */
#define KERNEL_ROOT_VA_BASE _UL(0x0)

/*
 * Linear map: PAGE_OFFSET + (pa - linear base), the linear base being the
 * lowest RAM address rounded down to the largest leaf (4 KiB pages: 4 MiB,
 * 16 KiB: 64 MiB, 64 KiB: the page; <asm/pgtable.h>).
 */
#define PAGE_OFFSET      _UL(0xc0000000)
#define PAGE_END         _UL(0xe0000000)

/* The kernel image window; the boot code maps it with one pinned 16 MiB
 * TLB entry until the page tables map it page by page. */
#define KIMAGE_VADDR     _UL(0xe0000000)
#define KIMAGE_END       _UL(0xe0800000)

#define FIXMAP_BASE      _UL(0xf0000000)
/* 1024 slots: with 4 KiB pages exactly one last-level table's span. The
 * slots must lie in one last-level table (mm/fixmap.c checks it). */
#define FIXMAP_SIZE      (_UL(1024) << PAGE_SHIFT)
#define FIXMAP_END       (FIXMAP_BASE + FIXMAP_SIZE)

#define IOREMAP_BASE     _UL(0xf8000000)
#define IOREMAP_END      _UL(0xfc000000)

#if !defined(__ASSEMBLER__) && defined(__microblaze__)
/*
 * A static page-sized table (the root, the fixmap's table). MicroBlaze
 * object files cannot align anything to more than 32 KiB, so these go to
 * .bss.page_aligned, which linker/microblaze.ld starts on a page boundary;
 * every object in it is a whole number of pages (the script checks the
 * total), so each one starts on a page boundary. (The host tests, built
 * for the host, use mm/fixmap.c's plain aligned(PAGE_SIZE).)
 */
#define ARCH_PAGE_ALIGNED_BSS \
	__attribute__((section(".bss.page_aligned"), aligned(PAGE_SIZE < 0x8000 ? PAGE_SIZE : 0x8000)))
#endif

#ifdef KIMAGE_PHYS
/* Physical address of a kernel-image symbol (for real-mode code). */
#define TOPHYS(x)        ((x) - KIMAGE_VADDR + KIMAGE_PHYS)
#endif

#endif
