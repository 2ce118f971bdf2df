/*
 * smp.h - several CPUs: how many run, running a function on another one,
 * and holding every other CPU still.
 *
 * With NR_CPUS 1 (MicroBlaze) everything here is an inline that needs no
 * other CPU: a call on CPU 0 runs the function directly, and holding the
 * others does nothing (there are none).
 *
 * On arm64 (arch/arm64/kernel/smp.c) the secondaries are started through
 * PSCI CPU_ON at boot, answer IPIs (GIC SGIs), and run the scheduler loop
 * (kernel/proc.c) once the boot CPU starts init.
 *
 * The kernel lock: the kernel proper runs on one CPU at a time. A CPU
 * takes it when it enters the kernel from user mode (a system call, a
 * fault, an interrupt), when an interrupt arrives in the idle loop, and in
 * its scheduler loop; it releases it on its way back to user mode and
 * before it idles. It belongs to the CPU, not to a process: a process that
 * sleeps or is preempted leaves it to the scheduler loop it switches to,
 * and one resumed on another CPU releases that CPU's hold. So everything
 * the one-CPU kernel left unlocked (the process table, the allocators,
 * every address space, the page cache) is safe as it is, while user code
 * runs on every CPU at once. A CPU waiting for the lock serves the calls
 * and the rendezvous other CPUs ask of it, so a holder that calls or
 * holds the others never waits for a CPU that waits for it.
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

/* The kernel lock (above): take it (never twice), release it, and ask
 * whether this CPU holds it. */
void kernel_lock(void);
void kernel_unlock(void);
bool kernel_lock_held(void);
/* CPUs the device tree names (the possible CPUs: Linux's nr_cpu_ids). */
int smp_num_present(void);
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
static inline void kernel_lock(void) { }
static inline void kernel_unlock(void) { }
static inline bool kernel_lock_held(void) { return true; }
static inline int smp_num_present(void) { return 1; }
#endif

#endif
