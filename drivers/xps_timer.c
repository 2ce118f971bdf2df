/*
 * xps_timer.c - Xilinx XPS/AXI timer as the tick source and the clock:
 * timer 0 counts down from clock-frequency / HZ, reloads itself and
 * interrupts HZ times a second; timer 1 counts up freely, with no
 * interrupt, and is extended to 64 bits in software, so time is exact even
 * across long stretches with interrupts masked. 32-bit registers in the
 * CPU's byte order; timer n at +0x10 * n.
 */
#include "driver.h"
#include "irq.h"
#include "ktime.h"
#include "printk.h"

#define TCSR0		0x0	/* control/status */
#define TLR0		0x4	/* load */
#define TCR0		0x8	/* counter */
#define TCSR_UDT	0x002	/* count down */
#define TCSR_ARHT	0x010	/* auto reload */
#define TCSR_LOAD	0x020	/* load TLR into the counter */
#define TCSR_ENIT	0x040	/* interrupt enable */
#define TCSR_ENT	0x080	/* run */
#define TCSR_TINT	0x100	/* interrupt flag: write 1 to clear */
#define TIMER1		(0x10 / 4)	/* timer 1's registers, in words after timer 0's */

static volatile u32 *timer_base;
static u32 tick_period;		/* timer cycles per tick */
static struct tick_source xps_tick = { .name = "xps-timer", .hwirq = -1 };

static u64 free_high;		/* wraps of timer 1, in units of 2^32 cycles */
static u32 free_last;		/* timer 1 at the last reading */

/*
 * Cycles counted by the free-running timer 1 since probe, as 64 bits (0
 * before probe). A wrap is noticed when a reading is below the previous
 * one, so the counter must be read at least once per 2^32 cycles (about 43
 * s at 100 MHz): the tick interrupt does. Call with interrupts masked.
 */
u64 xps_timer_free_cycles(void)
{
	u32 now;

	if (!timer_base)
		return 0;
	now = timer_base[TIMER1 + TCR0 / 4];
	if (now < free_last)
		free_high++;
	free_last = now;
	return (free_high << 32) | now;
}

/* Timer 0 expired: clear TINT (writing back what we read keeps it running;
 * QEMU clears TINT on any TCSR write, hardware when 1 is written). */
#define CATCHUP_MAX HZ	/* deliver at most a second of missed ticks at once */
static u64 next_tick;		/* timer-1 cycle count at which the next tick is due */

/*
 * Timer 0 expired: clear TINT, then deliver every tick that fell due by
 * timer 1's count, not just one. When the guest ran late (a busy host),
 * timer 0 reloaded several times with one interrupt pending; counting
 * against the free-running timer keeps jiffies in step with the clock.
 */
static void xps_timer_irq(void *arg)
{
	u64 now, due;

	(void)arg;
	timer_base[TCSR0 / 4] = timer_base[TCSR0 / 4] | TCSR_TINT;
	now = xps_timer_free_cycles();	/* also notices a wrap of timer 1 in time */
	if (!next_tick)
		next_tick = now;	/* the first tick sets the phase */
	due = now >= next_tick ? (now - next_tick) / tick_period + 1 : 1;
	next_tick += due * tick_period;
	xps_tick.catchup += MIN(due, (u64)CATCHUP_MAX) - 1;
	xps_tick.dropped += due - MIN(due, (u64)CATCHUP_MAX);
	for (due = MIN(due, (u64)CATCHUP_MAX); due; due--)
		clock_tick();
}

static int xps_timer_probe(const struct fdt *fdt, int node)
{
	const char *name = fdt_node_name(fdt, node);
	u32 hz;
	int hwirq, rc;

	if (!fdt_prop_u32(fdt, node, "clock-frequency", &hz) || hz < HZ) {
		printk("xps-timer: %s: no usable clock-frequency\n", name);
		return -1;
	}
	hwirq = irq_of_node(fdt, node, 0);
	if (hwirq < 0) {
		printk("xps-timer: %s: interrupt: %s\n", name, irq_strerror(hwirq));
		return -1;
	}
	timer_base = dt_ioremap(fdt, node, 0, NULL);
	if (!timer_base)
		return -1;
	tick_period = hz / HZ;
	timer_base[TLR0 / 4] = tick_period;
	timer_base[TCSR0 / 4] = TCSR_LOAD;
	rc = irq_request((unsigned)hwirq, xps_timer_irq, NULL, "xps-timer");
	if (rc) {
		printk("xps-timer: %s: %s\n", name, irq_strerror(rc));
		return -1;
	}
	xps_tick.hwirq = hwirq;
	xps_tick.freq = hz;
	time_register_tick_source(&xps_tick);
	/* Timer 1: count up from 0, reload (wrap) at the top, no interrupt. */
	timer_base[TIMER1 + TLR0 / 4] = 0;
	timer_base[TIMER1 + TCSR0 / 4] = TCSR_LOAD;
	timer_base[TIMER1 + TCSR0 / 4] = TCSR_ARHT | TCSR_ENT;
	timer_base[TCSR0 / 4] = TCSR_UDT | TCSR_ARHT | TCSR_ENIT | TCSR_ENT;
	return 0;
}

static const char *const xps_timer_compat[] = { "xlnx,xps-timer-1.00.a", NULL };
DRIVER(xps_timer_driver, .name = "xps-timer", .compatible = xps_timer_compat,
       .class = DRV_TIMER, .probe = xps_timer_probe);
