/*
 * arch.h - what kernel/ asks of the architecture. Each arch implements
 * these in arch/<arch>/kernel/. kernel/ includes no other arch header.
 */
#ifndef ARCH_H
#define ARCH_H

#include "types.h"

struct fdt;

/* Stop the machine: print the exit marker with status, then power off
 * (or wait for the runner to end QEMU where no power-off device exists). */
void arch_poweroff(int status) __attribute__((noreturn));

/* Print the arch lines of the boot banner (CPU id, entry privilege level). */
void arch_banner(void);

/* Nanoseconds of guest time since the counter started (under
 * -icount shift=0 one nanosecond is one guest instruction). */
u64 arch_time_ns(void);

/*
 * Interrupt masking at the CPU (arm64: PSTATE.I, MicroBlaze: MSR.IE). The
 * kernel runs with interrupts masked except where it explicitly enables
 * them. Each call is also a compiler barrier: memory accesses are not
 * moved across it.
 */
void arch_irq_enable(void);
void arch_irq_disable(void);
/* Mask interrupts; returns the previous state for arch_irq_restore(). */
unsigned long arch_irq_save(void);
void arch_irq_restore(unsigned long flags);
bool arch_irqs_enabled(void);

/*
 * The lock word under kernel/spinlock.h: take it (spin until it is free,
 * then own it with acquire ordering) and release it (release ordering).
 * 0 is free. On a one-CPU arch they need only keep the compiler from
 * moving accesses across them.
 */
void arch_spin_lock(u32 *word);
void arch_spin_unlock(u32 *word);
#if NR_CPUS > 1
/* Take the word if it is free (true, acquire ordering); never waits. */
bool arch_spin_trylock(u32 *word);
#endif

/* Start the other CPUs, if any (arm64: PSCI CPU_ON; they answer IPIs and
 * wait for the scheduler to start), and print "smp: N CPUs online". */
void arch_smp_boot(void);

/* Sleep until an interrupt is pending (taken only if unmasked; with
 * interrupts masked this returns and the interrupt stays pending). */
void arch_wait_for_interrupt(void);

/* Map size bytes of device registers at pa; returns the kernel VA. Panics
 * (with the address) if the mapping cannot be made. */
void *ioremap(phys_addr_t pa, u64 size);



/* The command line the boot loader passed outside the device tree, used
 * when /chosen/bootargs is absent or empty; NULL if none. Optional: a weak
 * default in kernel/main.c returns NULL. */
const char *arch_boot_cmdline(void);

/* Reserve in memblock what the arch owns in RAM (at least the kernel image). */
void arch_reserve_memory(void);

/* Build the kernel's final page tables (image with W^X, linear map of all
 * memblock RAM, device mappings made so far) and switch to them. After it,
 * phys_to_virt() works for all RAM. */
void arch_mm_init(void);

/* The device tree has been validated: read what the arch needs from it
 * (arm64: the PSCI conduit). */
void arch_setup_dt(const struct fdt *fdt);

/* The buddy allocator is up: page-table pages come from it from now on. */
void arch_mm_ready(void);

/* Print the kernel page tables (bootarg ptdump). */
void arch_ptdump(void);

/* Call fn(arg) with the stack pointer set to stack_top, then switch back. */
void arch_call_on_stack(void (*fn)(void *), void *arg, void *stack_top);

/* The kernel's live page tables (opaque here; mm/pgtable.h describes it). */
struct pt_space;
const struct pt_space *arch_kernel_space(void);

/* ktest dt_matches_qemu: check one arch-specific expectation key:value
 * (e.g. cpu:cortex-a72, el:2, gic:3) with ktest_ok(); unknown keys fail. */
void arch_ktest_expect(const char *key, const char *value);
#endif
