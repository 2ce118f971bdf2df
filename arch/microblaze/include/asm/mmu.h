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
#define TLBHI_TAG     0xfffffc00   /* effective page number */
#define TLBHI_SIZE(c) ((c) << 7)   /* page size code */
#define TLBHI_V       0x00000040   /* valid */
#define TLB_SIZE_4K   1
#define TLB_SIZE_4M   6
#define TLB_SIZE_16M  7
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
 * ---- Our descriptor format (32 bits, both levels) ----
 *
 * The low bits line up with TLBLO, so the refill handler makes TLBLO by
 * masking: TLBLO = (desc & page-size address mask) | (desc & PTE_HW_MASK).
 *
 *   [31:12] output address: the page (level 1), the next-level table
 *           (level-0 table), or the 4 MiB block ([31:22]; level-0 leaf)
 *   [9]  PTE_EX     executable                      (= TLBLO EX)
 *   [8]  PTE_WR     writable                        (= TLBLO WR)
 *   [7]  PTE_NG     software: not global, the TLB entry gets the PID as TID
 *   [6]  PTE_CONT   software: level-0 leaf in an aligned run of 4 leaves
 *                   mapping 16 MiB contiguously: loaded as ONE 16 MiB entry
 *   [5]  PTE_LEAF   software: a level-0 leaf (4 MiB) rather than a table
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
#define PTE_OA_MASK  0xfffff000
#define PTE_OA_4M    0xffc00000
#define PTE_OA_16M   0xff000000

#define PT_L0_SHIFT  22
#define PT_L1_SHIFT  12

#endif
