/*
 * mb_tlb_model.h - a model of one MicroBlaze CPU's MMU for host tests:
 * physical memory, the 64-slot UTLB as QEMU holds it, and the software
 * refill handler of arch/microblaze/kernel/entry.S, written in C from the
 * handler's documented behaviour (not from mm/).
 *
 * The fake arch (tests/host/fake_mb/asm/tlb.h) sends every descriptor read
 * and write of mm/ here. Descriptor pointers are simulated kernel virtual
 * addresses: each access looks the UTLB up and, on a miss, runs the refill
 * walk, which loads a slot (recording it in the real software shadow,
 * mb_tlb_shadow of arch/microblaze/kernel/tlb.c) or faults. The model also
 * provides, in C, the assembly helpers of tlb_asm.S that the real tlb.c
 * calls: mb_tlb_remove, mb_tlb_remove_tid and mb_bbm_asm.
 *
 * The hardware side (TLBHI/TLBLO bits, size codes, zone protection) is
 * decoded with constants written here from the MicroBlaze reference, not
 * from <asm/mmu.h>; the software descriptor bits the refill handler reads
 * (PTE_VALID, PTE_LEAF, PTE_CONT, PTE_NG, PTE_HW_MASK) are the project's
 * own format and come from <asm/mmu.h>, as entry.S takes them.
 *
 * Violations reported:
 *   OVERLAP  two valid slots translate one address (checked when a slot is
 *            loaded, and on every lookup)
 *   STALE    a valid slot differs from what the refill would load now: a
 *            table change not followed by the slot removal it needs (seen
 *            on a lookup that hits it, and by mbm_check_idle)
 *   HIDDEN   an access to a VA whose descriptor is invalid in the middle of
 *            a change (valid -> invalid, not yet made valid again)
 *   FAULT    an access with no translation or without the permission
 *   UNSAFE   a live descriptor changed in place in a way that needs a
 *            break first; a new descriptor written while slots of the old
 *            one are still loaded; a misprogrammed 16 MiB run loaded
 *   SHADOW   the software shadow and the hardware slots disagree
 *   TORN     a slot with a valid tag and an all-zero TLBLO (it maps
 *            physical 0): a removal that wrote TLBLO = 0 before clearing
 *            V, or after a refill took the slot it had just cleared
 */
#ifndef MB_TLB_MODEL_H
#define MB_TLB_MODEL_H

#include "types.h"

enum mbm_kind { MBM_OVERLAP, MBM_STALE, MBM_HIDDEN, MBM_FAULT, MBM_UNSAFE, MBM_SHADOW, MBM_TORN,
	       MBM_NKINDS };

/* Access flags for mbm_access(). */
#define MBM_READ  0u
#define MBM_WRITE 1u
#define MBM_EXEC  2u
#define MBM_USER  4u   /* user mode (MSR.UM); else privileged */

#define MBM_SLOTS 64

/* One UTLB slot, decoded. */
struct mbm_slot {
	bool valid;
	u32 tag;      /* first VA */
	u32 size;     /* bytes: 4K, 4M or 16M here */
	u32 lo;       /* TLBLO: RPN | EX | WR | ZSEL | W | I | M | G */
	u32 tid;      /* 0: global */
	u32 hi;       /* TLBHI as written */
};

/* Why the refill walk found no translation (0: it found one). */
enum mbm_walk_result {
	MBW_OK,
	MBW_USER_KERNEL,   /* user-mode access to a kernel address */
	MBW_NO_ROOT,       /* user address and no user space */
	MBW_L0_INVALID,
	MBW_L1_INVALID,
};

/* Forget everything: memory, slots, roots, violations. */
void mbm_reset(void);

/* ---- physical memory (sparse, 32-bit, pages zeroed on first use) ---- */
u32 mbm_phys_read32(phys_addr_t pa);
void mbm_phys_write32(phys_addr_t pa, u32 v);
void mbm_phys_fill(phys_addr_t pa, u64 size, int byte);

/*
 * The kernel image: [pa, pa + size) linked at va. Static host objects get
 * page-sized places from static_off on (their memory becomes that physical
 * memory). The shadow, if shadow_off != 0, is read by the slot-removal
 * loop through va + shadow_off, as tlb_asm.S does in virtual mode.
 */
void mbm_set_image(phys_addr_t pa, unsigned long va, u64 size, u64 static_off, u64 shadow_off);
unsigned long mbm_sym_va(const void *sym);

/*
 * head.S steps 4-5: clear .bss state of the TLB code (shadow, first/next,
 * roots), invalidate every slot, PID 0, ZPR = ZPR_VALUE, and pin slot 0:
 * the 16 MiB image window at va -> pa, privileged RWX, global.
 */
void mbm_head_boot(void);

/* arch_switch_mm(): mb_user_pgd_pa = root, PID = pid (root 0: no user space). */
void mbm_switch_user(phys_addr_t root, u32 pid);
/* The address space with this PID is gone (its root freed). */
void mbm_forget_user(u32 pid);

/* ---- hooks for the fake arch ---- */
u32 mbm_pte_read(unsigned long va);
void mbm_pte_write(unsigned long va, u32 v);

/* ---- simulated accesses and inspection ---- */

/*
 * Access va as the CPU would: look the UTLB up, refill on a miss, check
 * permissions. Returns false on a fault or any violation; *used (if given)
 * gets the slot that translated it (valid = false on a fault).
 */
bool mbm_access(unsigned long va, unsigned flags, struct mbm_slot *used);

/* The refill handler's walk for va, loading nothing. */
enum mbm_walk_result mbm_walk(unsigned long va, bool user_mode, struct mbm_slot *out);

/* What the refill handler computes for one descriptor found at 'level'. */
void mbm_slot_for_desc(u32 desc, int level, unsigned long va, u32 pid, struct mbm_slot *out);

void mbm_slot_get(int i, struct mbm_slot *out);
/* Valid slots that would match va for PID pid (lowest index in *first). */
int mbm_matches(unsigned long va, u32 pid, int *first);
unsigned mbm_valid_slots(void);

/* The TLB registers, written one at a time as tlb_asm.S does (mts rtlbx,
 * rtlblo, rtlbhi); each write is checked for a torn slot. */
void mbm_mts_tlbx(u32 i);
void mbm_mts_tlblo(u32 lo);
void mbm_mts_tlbhi(u32 hi);

/* Overwrite a hardware slot without touching the shadow (wrong-sequence tests). */
void mbm_hw_set_slot(int i, u32 hi, u32 lo, u32 tid);

/* Break-before-make sequences seen by mb_bbm_asm: count, and the i-th one. */
unsigned mbm_bbm_count(void);
void mbm_bbm_get(unsigned i, unsigned long *start, unsigned long *last, unsigned long *n);

/* An operation finished: no stale slot, shadow == hardware; forget breaks. */
void mbm_check_idle(void);

/* The model's own rule: may a live descriptor change old -> new in place? */
bool mbm_change_is_safe(u32 old, u32 new, int level);

/* ---- violations ---- */
unsigned mbm_violations(int kind);
unsigned mbm_total_violations(void);
const char *mbm_last_violation(void);
void mbm_clear_violations(void);
void mbm_set_quiet(bool quiet);

#endif
