/*
 * arm_arch_timer.c - the Arm generic timer as the tick: the EL1 virtual
 * timer (CNTV_*), compared against the virtual counter CNTVCT_EL0.
 *
 * The node's "interrupts" are, in order, the secure physical, non-secure
 * physical, virtual and hypervisor timers; we use the third (PPI 11,
 * INTID 27 on a GIC). The counter frequency is the node's clock-frequency
 * if present (firmware that did not set CNTFRQ_EL0), else CNTFRQ_EL0.
 *
 * Deadlines keep a fixed phase: tick n is due at start + n * period,
 * written to CNTV_CVAL_EL0, so handler latency does not make the tick
 * drift. An interrupt that arrives whole periods late (interrupts were
 * masked, or QEMU did not run the guest) delivers the missed ticks too, up
 * to one second's worth, so jiffies keep following the counter.
 */
#include "driver.h"
#include "printk.h"
#include "arch_arm64.h"
#include "ktime.h"
#include "irq.h"
#include "arch_proc.h"

#define CNTV_CTL_ENABLE		(1ul << 0)
#define CNTV_CTL_IMASK		(1ul << 1)
#define CNTV_CTL_ISTATUS	(1ul << 2)	/* the deadline has passed */
#define TIMER_IRQ_VIRT		2		/* index of the virtual timer in "interrupts" */
#define CATCHUP_MAX		HZ		/* most ticks one interrupt delivers */

#define write_sysreg(r, v) __asm__ volatile("msr " #r ", %0" :: "r"((u64)(v)) : "memory")

static struct tick_source arch_tick = { .name = "arm-arch-timer (virtual)", .hwirq = -1 };
static u64 period;	/* counter ticks per jiffy */
static u64 deadline[NR_CPUS];	/* counter value each CPU's armed tick is due at */
static u64 cpu_ticks[NR_CPUS];	/* ticks each CPU's timer delivered */

/* The ISB keeps the counter read from being taken early (out of order). */
static u64 read_counter(void)
{
	__asm__ volatile("isb" ::: "memory");
	return read_sysreg(cntvct_el0);
}

/* Arm the timer for cval. The ISB makes the new compare value take effect
 * (the timer's interrupt line drops) before the GIC's EOI that follows. */
static void arm_deadline(u64 cval)
{
	write_sysreg(cntv_cval_el0, cval);
	write_sysreg(cntv_ctl_el0, CNTV_CTL_ENABLE);
	__asm__ volatile("isb" ::: "memory");
}

/* n ticks are due: deliver up to CATCHUP_MAX of them, count the rest. */
static void deliver_ticks(u64 n)
{
	u64 now = MIN(n, (u64)CATCHUP_MAX);

	arch_tick.catchup += now - 1;
	arch_tick.dropped += n - now;
	while (now--)
		clock_tick();
}

/* The virtual timer interrupt: the tick at `deadline` (and perhaps later
 * ones) is due. A call with ISTATUS clear is a stale signal: ignore it. */
static void arch_timer_irq(void *arg)
{
	int cpu = arch_cpu_id();
	u64 missed;

	(void)arg;
	if (!(read_sysreg(cntv_ctl_el0) & CNTV_CTL_ISTATUS))
		return;
	missed = (read_counter() - deadline[cpu]) / period;
	deadline[cpu] += (missed + 1) * period;
	arm_deadline(deadline[cpu]);
	cpu_ticks[cpu] += missed + 1;
	if (cpu == 0)
		deliver_ticks(missed + 1);
	else
		clock_local_tick();	/* (missed ticks of a secondary are not made up) */
}

/* Start this (secondary) CPU's tick: its PPI enabled, its first deadline
 * one period from now. Interrupts stay masked at the CPU. */
void arch_timer_start_this_cpu(void)
{
	int cpu = arch_cpu_id();

	if (arch_tick.hwirq < 0)
		return;
	write_sysreg(cntv_ctl_el0, CNTV_CTL_IMASK);
	irq_enable_local((unsigned)arch_tick.hwirq);
	deadline[cpu] = read_counter() + period;
	arm_deadline(deadline[cpu]);
}

u64 arch_timer_cpu_ticks(int cpu)
{
	return cpu >= 0 && cpu < NR_CPUS ? *(volatile u64 *)&cpu_ticks[cpu] : 0;
}

/* The counter frequency: DT clock-frequency, else CNTFRQ_EL0. */
static u64 timer_freq(const struct fdt *fdt, int node)
{
	u32 freq;

	if (fdt_prop_u32(fdt, node, "clock-frequency", &freq))
		return freq;
	return read_sysreg(cntfrq_el0) & 0xffffffff;
}

static int arch_timer_probe(const struct fdt *fdt, int node)
{
	const char *name = fdt_node_name(fdt, node);
	u64 freq = timer_freq(fdt, node);
	int hwirq = irq_of_node(fdt, node, TIMER_IRQ_VIRT);
	int rc;

	if (freq < HZ) {
		printk("arch-timer: %s: counter frequency %llu Hz is unusable\n", name,
		       (unsigned long long)freq);
		return -1;
	}
	if (hwirq < 0) {
		printk("arch-timer: %s: virtual timer interrupt: %s\n", name, irq_strerror(hwirq));
		return -1;
	}
	write_sysreg(cntv_ctl_el0, CNTV_CTL_IMASK);	/* quiet until armed */
	rc = irq_request((unsigned)hwirq, arch_timer_irq, NULL, "arch-timer");
	if (rc) {
		printk("arch-timer: %s: hwirq %d: %s\n", name, hwirq, irq_strerror(rc));
		return -1;
	}
	period = freq / HZ;
	arch_tick.hwirq = hwirq;
	arch_tick.freq = freq;
	time_register_tick_source(&arch_tick);
	deadline[0] = read_counter() + period;
	arm_deadline(deadline[0]);
	return 0;
}

static const char *const arch_timer_compat[] = { "arm,armv8-timer", NULL };
DRIVER(arch_timer_driver, .name = "arm-arch-timer", .compatible = arch_timer_compat,
       .class = DRV_TIMER, .probe = arch_timer_probe);
