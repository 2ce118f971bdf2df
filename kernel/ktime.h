/*
 * ktime.h - the periodic tick (jiffies) and monotonic time.
 *
 * A timer driver (class DRV_TIMER) programs its hardware to interrupt HZ
 * times a second, registers itself with time_register_tick_source(), and
 * calls clock_tick() once per tick from its interrupt handler. When an
 * interrupt comes late by whole periods (interrupts were masked, or the
 * host did not run the guest), the driver may call clock_tick() once per
 * missed period so that jiffies keep following the clock; it counts those
 * in its tick_source's catchup field.
 *
 * (Named ktime.h, not time.h: with -Ikernel a kernel/time.h would stand in
 * for the C library's <time.h> in the host tests.)
 */
#ifndef KERNEL_KTIME_H
#define KERNEL_KTIME_H

#include "types.h"
#include "fdt.h"

#define HZ 100
#define NSEC_PER_SEC 1000000000ull

/* What the tick comes from (filled in and owned by the timer driver). */
struct tick_source {
	const char *name;
	int hwirq;		/* the interrupt the ticks arrive on, -1 if none */
	u64 freq;		/* the timer's input clock in Hz */
	u64 catchup;		/* ticks delivered without an interrupt of their own */
	u64 dropped;		/* missed periods not delivered at all (too late) */
};

/* Bind the timer drivers (DRV_TIMER); the tick starts at HZ (the interrupt
 * stays masked at the CPU until interrupts are enabled). Reports when no
 * timer binds. */
void time_init(const struct fdt *fdt);

/* Called by the timer driver's probe. Panics if a source is already set. */
void time_register_tick_source(struct tick_source *src);

/* The tick source, or NULL if no timer was bound. */
const struct tick_source *time_tick_source(void);

/* One tick (interrupt context, interrupts masked): jiffies++, then the hook. */
void clock_tick(void);

/* fn() runs after every jiffies increment, in interrupt context (the
 * scheduler's preemption and sleep wake-ups). NULL removes it. Returns the
 * hook it replaced. */
typedef void (*tick_hook_fn)(void);
tick_hook_fn time_set_tick_hook(tick_hook_fn fn);

/* One tick of a CPU other than CPU 0 (its own timer; jiffies come from
 * CPU 0): the local hook only (the scheduler's per-CPU share). */
void clock_local_tick(void);
void time_set_local_tick_hook(tick_hook_fn fn);

/* Ticks since time_init(). */
u64 jiffies_read(void);

/* Nanoseconds of monotonic time since boot. */
u64 ktime_ns(void);

#endif
