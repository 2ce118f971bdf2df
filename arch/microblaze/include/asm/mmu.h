/*
 * asm/mmu.h - MicroBlaze MMU and exception constants, and our software
 * descriptor format. Plain #defines, so assembly (the real-mode TLB refill
 * handler in entry.S) and C share them.
 *
 * Xilinx numbers bits big-endian (bit 0 = MSB); the masks below are plain
 * C values (LSB = 1).
 */
#ifndef ASM_MMU_H
#define ASM_MMU_H

#include <asm/memlayout.h>

/* ---- MSR ---- */
#define MSR_IE    0x00000002   /* interrupts enabled */
#define MSR_C     0x00000004   /* carry */
#define MSR_BIP   0x00000008   /* break in progress */
#define MSR_EE    0x00000100   /* hardware exceptions enabled */
#define MSR_EIP   0x00000200   /* exception in progress */
#define MSR_UM    0x00000800   /* user mode */
#define MSR_UMS   0x00001000   /* saved UM (set on exception entry) */
#define MSR_VM    0x00002000   /* virtual (translated) mode */
#define MSR_VMS   0x00004000   /* saved VM */

/* ---- ESR ---- */
#define ESR_EC_MASK       0x1f
#define ESR_DS            0x1000   /* the exception was in a delay slot (use BTR) */
#define ESR_S             0x400    /* data storage / data TLB miss / unaligned: a store */
#define ESR_W             0x800    /* unaligned: a word access (else a halfword) */
#define ESR_RX_SHIFT      5        /* unaligned: the register loaded or stored, ESR[26:22] */
#define ESR_RX_MASK       0x3e0
#define EC_UNALIGNED      0x01
#define EC_ILLEGAL_OPCODE 0x02
#define EC_IBUS           0x03
#define EC_DBUS           0x04
#define EC_DIV_ZERO       0x05
#define EC_FPU            0x06
#define EC_PRIVILEGED     0x07
#define EC_DATA_STORAGE   0x10
#define EC_INSN_STORAGE   0x11
#define EC_DATA_TLB_MISS  0x12
#define EC_INSN_TLB_MISS  0x13

/* ---- PVR2: which optional exceptions the CPU raises ---- */
#define PVR2_OPCODE_0_ILL 0x40
#define PVR2_UNALIGNED    0x20
#define PVR2_ILL_OPCODE   0x10
#define PVR2_DIV_ZERO     0x02

/* ---- UTLB ---- */
#define TLB_ENTRIES   64
/*
 * The refill handler (entry.S) puts page-sized slots in [TLB_PAGE_FIRST, 64)
 * and blocks (4 MiB, 16 MiB) below: 24 block slots hold a 256 MiB linear
 * map (18) and a few huge pages.
 */
#define TLB_PAGE_FIRST 24
#define TLBHI_TAG     0xfffffc00   /* effective page number */
#define TLBHI_SIZE(c) ((c) << 7)   /* page size code */
#define TLBHI_V       0x00000040   /* valid */
/* Size code c: a slot of 2^(10 + 2c) bytes (1K, 4K, 16K, 64K, 256K, 1M, 4M, 16M). */
#define TLB_SIZE_CODE(shift) (((shift) - 10) / 2)
#define TLB_SIZE_16M  7
#define TLB_SIZE_PAGE TLB_SIZE_CODE(PAGE_SHIFT)   /* a last-level page */
#define TLBLO_EX      0x00000200
#define TLBLO_WR      0x00000100
#define TLBLO_ZSEL1   0x00000010   /* zone 1 (user pages) */
#define TLBLO_W       0x00000008
#define TLBLO_I       0x00000004
#define TLBLO_G       0x00000001

/*
 * ZPR: zone 0 = 00 (kernel pages: privileged code uses the TLB's WR/EX,
 * user code gets no access - QEMU reports that as a TLB miss), zone 1 = 01
 * (user pages: WR/EX apply in both modes). Zones 2..15 unused (00).
 */
#define ZPR_VALUE     0x10000000

/*
 * ---- The table split (per page size; every table is one page) ----
 *
 * A level-1 table is one page of 4-byte descriptors, so it resolves
 * PAGE_SHIFT - 2 bits; the root resolves the rest of the 32-bit VA:
 *
 *   page   level 0 (root)           level 1               level-0 leaf
 *   4K     VA[31:22] 1024 entries   VA[21:12] 1024        4 MiB (runs of 4: 16 MiB)
 *   16K    VA[31:26]   64 entries   VA[25:14] 4096        64 MiB (16 MiB slots)
 *   64K    VA[31:30]    4 entries   VA[29:16] 16384       none (1 GiB)
 *
 * The root is allocated as a whole page like every table (only its first
 * 2^PT_L0_BITS entries are used). With 16K and 64K pages a level-0 entry
 * spans more than the largest UTLB slot (16 MiB); an aligned run of
 * 16 MiB / PAGE_SIZE level-1 pages (1024 or 256) with PTE_CONT is loaded
 * as one 16 MiB slot instead, and a 64 MiB leaf as the 16 MiB slot of it
 * that holds the address. With 64K pages level 0 has no leaves: 1 GiB is
 * more than the linear map window (512 MiB) and the boards' RAM.
 */
#define PT_L1_SHIFT  PAGE_SHIFT
#define PT_L1_BITS   (PAGE_SHIFT - 2)
#define PT_L0_SHIFT  (PT_L1_SHIFT + PT_L1_BITS)   /* 22, 26, 30 */
#define PT_L0_BITS   (32 - PT_L0_SHIFT)            /* 10, 6, 2 */
#define PT_CONT_SHIFT 24                           /* a PTE_CONT run: one 16 MiB slot */
/* Descriptors per PTE_CONT run at each level (1: no runs at that level). */
#if PT_L0_SHIFT < PT_CONT_SHIFT
#define PT_L0_CONT_ENTRIES (1 << (PT_CONT_SHIFT - PT_L0_SHIFT))   /* 4K: 4 */
#else
#define PT_L0_CONT_ENTRIES 1
#endif
#if PT_CONT_SHIFT - PT_L1_SHIFT <= PT_L1_BITS
#define PT_L1_CONT_ENTRIES (1 << (PT_CONT_SHIFT - PT_L1_SHIFT))   /* 16K: 1024, 64K: 256 */
#else
#define PT_L1_CONT_ENTRIES 1
#endif
/* Level 0 holds leaves (4K: 4 MiB, 16K: 64 MiB) unless they would be 1 GiB. */
#define PT_L0_LEAVES (PT_L0_SHIFT <= 26)
/* The UTLB slot a level-0 leaf without PTE_CONT is loaded as. */
#if PT_L0_SHIFT < PT_CONT_SHIFT
#define TLB_SIZE_L0  TLB_SIZE_CODE(PT_L0_SHIFT)
#else
#define TLB_SIZE_L0  TLB_SIZE_16M
#endif

/*
 * ---- Our descriptor format (32 bits, both levels) ----
 *
 * The low bits line up with TLBLO, so the refill handler makes TLBLO by
 * masking: TLBLO = (desc & slot-size address mask) | (desc & PTE_HW_MASK).
 *
 *   [31:PAGE_SHIFT] output address: the page (level 1), the next-level
 *           table (level-0 table), or the level-0 block ([31:PT_L0_SHIFT])
 *   [9]  PTE_EX     executable                      (= TLBLO EX)
 *   [8]  PTE_WR     writable                        (= TLBLO WR)
 *   [7]  PTE_NG     software: not global, the TLB entry gets the PID as TID
 *   [6]  PTE_CONT   software: a leaf in an aligned run of PT_Ln_CONT_ENTRIES
 *                   leaves mapping 16 MiB contiguously: loaded as ONE
 *                   16 MiB entry (4K pages: level 0; 16K, 64K: level 1)
 *   [5]  PTE_LEAF   software: a level-0 leaf (block) rather than a table
 *   [4]  PTE_USER   user page: TLBLO zone 1         (= TLBLO ZSEL bit 0)
 *   [2]  PTE_I      cache inhibited (device)        (= TLBLO I)
 *   [1]  PTE_VALID  software: the descriptor is valid (TLBLO M, cleared)
 *   [0]  PTE_G      guarded (device)                (= TLBLO G)
 *
 * Bits 7..5 sit in TLBLO's ZSEL field and are cleared by the mask; readable
 * always (MicroBlaze has no "no read" bit).
 */
#define PTE_G        0x001
#define PTE_VALID    0x002
#define PTE_I        0x004
#define PTE_USER     0x010
#define PTE_LEAF     0x020
#define PTE_CONT     0x040
#define PTE_NG       0x080
#define PTE_WR       0x100
#define PTE_EX       0x200
#define PTE_HW_MASK  (PTE_EX | PTE_WR | PTE_USER | PTE_I | PTE_G)
/* Address masks (plain 32-bit values, also right for the assembler). */
#define PTE_OA_MASK  ((0xffffffff >> PAGE_SHIFT) << PAGE_SHIFT)
#define PTE_OA_L0    ((0xffffffff >> PT_L0_SHIFT) << PT_L0_SHIFT)
#define PTE_OA_16M   0xff000000
/* The level-1 index, times 4: a byte offset into the table. */
#define PT_L1_OFFSET_MASK (((1 << PT_L1_BITS) - 1) << 2)

#endif
