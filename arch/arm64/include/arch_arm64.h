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

#endif
