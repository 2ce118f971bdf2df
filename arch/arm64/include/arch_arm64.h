/*
 * arch_arm64.h - state and helpers shared by the arm64 arch files.
 */
#ifndef ARCH_ARM64_H
#define ARCH_ARM64_H

#include "types.h"
#include "fdt.h"

extern u64 arm64_entry_el;	/* exception level the kernel was entered at (1 or 2) */

void psci_init(const struct fdt *fdt);
void psci_system_off(void);
s64 psci_cpu_on(u64 mpidr, u64 entry_pa, u64 context);

/* Read a system register by name. */
#define read_sysreg(r) ({ u64 _v; __asm__ volatile("mrs %0, " #r : "=r"(_v)); _v; })

extern bool arm64_has_pan;	/* FEAT_PAN: PSTATE.PAN is set in the kernel */

/*
 * Stop translating through TTBR0's current tables on this CPU: TTBR0 gets
 * the empty table and every EL1&0 TLB entry is dropped, global ones too.
 * Used once the boot identity map is no longer needed.
 */
void arm64_uninstall_idmap(void);

/* drivers/arm_arch_timer.c: start this secondary CPU's tick; ticks a CPU's timer delivered. */
void arch_timer_start_this_cpu(void);
u64 arch_timer_cpu_ticks(int cpu);

/* setup.c: per-CPU feature set-up (CPACR, PAN) every CPU runs at entry. */
void arm64_cpu_setup(void);

/* smp.c: read the /cpus node (before the secondaries start). */
void smp_setup_dt(const struct fdt *fdt);
#endif
