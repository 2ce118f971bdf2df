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

/* Read a system register by name. */
#define read_sysreg(r) ({ u64 _v; __asm__ volatile("mrs %0, " #r : "=r"(_v)); _v; })

extern bool arm64_has_pan;	/* FEAT_PAN: PSTATE.PAN is set in the kernel */

/*
 * Stop translating through TTBR0's current tables on this CPU: TTBR0 gets
 * the empty table and every EL1&0 TLB entry is dropped, global ones too.
 * Used once the boot identity map is no longer needed.
 */
void arm64_uninstall_idmap(void);

#endif
