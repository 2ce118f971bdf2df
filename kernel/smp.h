/*
 * smp.h - several CPUs: how many run, running a function on another one,
 * and holding every other CPU still.
 *
 * With NR_CPUS 1 (MicroBlaze) everything here is an inline that needs no
 * other CPU: a call on CPU 0 runs the function directly, and holding the
 * others does nothing (there are none).
 *
 * On arm64 (arch/arm64/kernel/smp.c) the secondaries are started through
 * PSCI CPU_ON at boot and run an idle loop that answers IPIs (GIC SGIs).
 * They run no processes yet.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include "types.h"
#include "arch.h"
#include "arch_proc.h"

/* NR_CPUS comes from the arch's arch.mk (-DNR_CPUS=): 8 on arm64, 1 on MicroBlaze. */

#if NR_CPUS > 1
/* CPUs running now (1 until smp_boot_secondaries()). */
int smp_num_online(void);
bool smp_cpu_online(int cpu);

/*
 * Run fn(arg) on cpu and wait until it has returned (on this CPU: a direct
 * call). On another CPU fn runs in its interrupt handler, interrupts
 * masked. Returns 0, or -1 if cpu is not online. Callable with interrupts
 * masked: while waiting, a call another CPU makes to this one is served.
 */
int smp_call_on_cpu(int cpu, void (*fn)(void *), void *arg);

/*
 * The same in two halves, so one CPU can start fn on several others and
 * let them run together: smp_call_start() posts the call (0, or -1 if cpu
 * is this one or offline) and keeps cpu's call slot until smp_call_wait(cpu)
 * has seen fn return. Not from interrupt handlers.
 */
int smp_call_start(int cpu, void (*fn)(void *), void *arg);
void smp_call_wait(int cpu);

/* Serve, here and now, a call or a rendezvous another CPU asked of this
 * one: for loops that run with interrupts masked for long (tests). */
void smp_poll(void);

/*
 * The stop_machine-like rendezvous: mask interrupts here and make every
 * other online CPU spin in a loop (interrupts masked) that touches only
 * the kernel image (its text, its .bss, a stack in its .bss) - never the
 * linear map or anything the holder may unmap. Nests on the holding CPU.
 * smp_release_others() lets them go (each executes an ISB first, so it
 * sees the translations as the holder left them).
 */
void smp_hold_others(void);
void smp_release_others(void);
/* The other CPUs are held by this CPU (nonzero nesting depth). */
bool smp_others_held(void);
#else
static inline int smp_num_online(void) { return 1; }
static inline bool smp_cpu_online(int cpu) { return cpu == 0; }
static inline int smp_call_on_cpu(int cpu, void (*fn)(void *), void *arg)
{
	if (cpu != 0)
		return -1;
	fn(arg);
	return 0;
}
static inline int smp_call_start(int cpu, void (*fn)(void *), void *arg)
{
	(void)cpu; (void)fn; (void)arg;
	return -1;
}
static inline void smp_call_wait(int cpu) { (void)cpu; }
static inline void smp_poll(void) { }
static inline void smp_hold_others(void) { }
static inline void smp_release_others(void) { }
static inline bool smp_others_held(void) { return true; }
#endif

#endif
