/*
 * tlb_model.h - a model of one arm64 CPU's MMU for host tests: physical
 * memory, a hardware table walker (4 KiB granule, 48-bit VA, written from
 * the architecture independently of mm/), and a TLB that keeps every
 * translation and walk-cache entry a simulated access loaded until a
 * TLBI, completed by a DSB, removes it.
 *
 * The fake arch (tests/host/fake_arch/asm/tlb.h) sends every descriptor
 * read and write, barrier and TLBI of mm/ here. Descriptor pointers in mm/
 * are simulated kernel virtual addresses: each access is translated
 * through the model, so an access through an alias that is currently
 * unmapped is caught at the moment it happens.
 *
 * Several CPUs (tlb_model_set_cpus): each CPU has its own TLB; accesses
 * and TLBIs are made by the current CPU (tlb_model_set_cpu). A broadcast
 * TLBI (what the fake arch issues, the Inner Shareable forms) reaches every
 * TLB, a local one only its issuer's and then does not count as covering a
 * change. A break of a kernel descriptor while other CPUs run and are not
 * held (tlb_model_hold_others) is reported: one of them could fault there.
 * With tlb_model_set_bbml2 the model allows what FEAT_BBM level 2 without
 * conflict aborts allows: a live leaf changing only its size (a block ->
 * a table of identical leaves, the contiguous hint), and TLB entries of two
 * sizes for one address that agree with the tables.
 *
 * Violations reported:
 *   CONFLICT  two translations for one address could coexist: a cached
 *             translation of another size than the tables now give, a
 *             live descriptor changed in a way that needs BBM without it,
 *             a new descriptor written before the old one's TLBI completed,
 *             or a misprogrammed contiguous run
 *   STALE     a cached translation differs from the tables (a change not
 *             followed by the TLBI it needs), or a change still lacking its
 *             TLBI when the operation ends (tlb_model_check_idle)
 *   HIDDEN    an access to a VA whose descriptor is invalid during BBM, or
 *             a kernel break while another CPU runs unheld
 *   FAULT     an access to a VA that is not mapped at all
 *   SEQUENCE  a TLBI never completed by dsb ish
 *   ORDER     a table descriptor linked a table page (or subtree) whose
 *             zeroing/filling stores no barrier has published yet (no
 *             dsb since they were made: arch_pt_publish_barrier missing)
 *   FORMAT    a valid descriptor the architecture does not allow: an output
 *             address not aligned to its block size, a must-be-zero (RES0)
 *             bit set, a block at level 0 or a level-3 entry with bit 1 clear
 *   TLBI      a TLBI of the wrong kind for what it must remove: a leaf-only
 *             (last-level) TLBI where a table descriptor was removed, or one
 *             tagged with an ASID other than the changed descriptor's, or a
 *             local TLBI where several CPUs may hold the entry
 */
#ifndef TLB_MODEL_H
#define TLB_MODEL_H

#include "types.h"

enum tlbm_kind { TLBM_CONFLICT, TLBM_STALE, TLBM_HIDDEN, TLBM_FAULT, TLBM_SEQUENCE, TLBM_ORDER,
		 TLBM_FORMAT, TLBM_TLBI, TLBM_NKINDS };

/* Forget everything: memory, TLB, roots, violations. MMU off. */
void tlb_model_reset(void);

/* ---- physical memory (sparse, pages created zeroed on first use) ---- */
u64 tlb_model_phys_read64(phys_addr_t pa);
void tlb_model_phys_write64(phys_addr_t pa, u64 v);
void tlb_model_phys_fill(phys_addr_t pa, u64 size, int byte);

/*
 * The kernel image: [pa, pa + size) at va. Static host objects (the fixmap
 * tables) get addresses from static_off onwards inside it, and become the
 * physical memory at those addresses.
 */
void tlb_model_set_image(phys_addr_t pa, unsigned long va, u64 size, u64 static_off);
unsigned long tlb_model_sym_va(const void *sym);

/* ---- MMU state ---- */
void tlb_model_mmu_on(phys_addr_t kernel_root);
/* Install a user root for asid (and make asid current). */
void tlb_model_set_user(phys_addr_t root, int asid);

/* ---- hooks for the fake arch ---- */
u64 tlb_model_read(unsigned long va);
void tlb_model_write(unsigned long va, u64 v);
void tlb_model_dsb(bool full);                    /* full: dsb ish, else dsb ishst */
void tlb_model_publish_barrier(void);             /* arch_pt_publish_barrier: dsb ishst */
/* How many arch_pt_publish_barrier()s have run since the reset. */
unsigned long tlb_model_publish_barriers(void);
void tlb_model_tlbi(int kind, unsigned long va, int asid);

/* ---- simulated accesses by the tests ---- */
/*
 * Access va like a CPU load: translate through the TLB or a walk, caching
 * the result. Returns false on a violation or fault; *size (if given) is
 * the size of the translation used (0 on a fault).
 */
bool tlb_model_access(unsigned long va, u64 *size);

/* An operation finished: every change must have had its TLBI by now. */
void tlb_model_check_idle(void);

/* ---- several CPUs ---- */
void tlb_model_set_cpus(int n);          /* CPUs running (default 1) */
void tlb_model_set_cpu(int cpu);         /* the CPU making accesses and TLBIs now */
void tlb_model_set_bbml2(bool on);       /* every CPU has BBML2 without conflict aborts */
/* Injected bugs, for the negative tests: TLBIs issued as the local (non-IS)
 * forms; a rendezvous that holds nobody. */
void tlb_model_set_tlbi_local(bool on);
void tlb_model_set_hold_broken(bool on);

/* The rendezvous around a kernel break (arch_pt_hold_others): nests. */
void tlb_model_hold_others(void);
void tlb_model_release_others(void);
/* Rendezvous entered (outermost) since the reset. */
unsigned long tlb_model_holds(void);

/* ---- violations ---- */
unsigned tlb_model_violations(int kind);
unsigned tlb_model_total_violations(void);
const char *tlb_model_last_violation(void);
void tlb_model_clear_violations(void);
void tlb_model_set_quiet(bool quiet);   /* do not print violations (expected ones) */

/* Number of TLB entries held (leaf and walk cache). */
unsigned long tlb_model_tlb_entries(void);

#endif
