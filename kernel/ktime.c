/*
 * ktime.c - jiffies, the tick hook and monotonic time. See ktime.h.
 */
#include "ktime.h"
#include "driver.h"
#include "arch.h"
#include "printk.h"

static volatile u64 jiffies;
static tick_hook_fn tick_hook;
static tick_hook_fn local_tick_hook;	/* the other CPUs' ticks */
static struct tick_source *source;

void time_register_tick_source(struct tick_source *src)
{
	if (source)
		panic("time: two tick sources (%s, then %s): only one is supported",
		      source->name, src->name);
	source = src;
}

const struct tick_source *time_tick_source(void)
{
	return source;
}

void clock_tick(void)
{
	tick_hook_fn hook = tick_hook;

	jiffies++;
	if (hook)
		hook();
}

void clock_local_tick(void)
{
	tick_hook_fn hook = local_tick_hook;

	if (hook)
		hook();
}

void time_set_local_tick_hook(tick_hook_fn fn)
{
	local_tick_hook = fn;
}

tick_hook_fn time_set_tick_hook(tick_hook_fn fn)
{
	unsigned long flags = arch_irq_save();
	tick_hook_fn old = tick_hook;

	tick_hook = fn;
	arch_irq_restore(flags);
	return old;
}

/* jiffies is a u64 written by the tick interrupt: mask interrupts so a
 * 32-bit CPU cannot read half of an update. */
u64 jiffies_read(void)
{
	unsigned long flags = arch_irq_save();
	u64 j = jiffies;

	arch_irq_restore(flags);
	return j;
}

u64 ktime_ns(void)
{
	return arch_time_ns();
}

void time_init(const struct fdt *fdt)
{
	drivers_bind_class(fdt, DRV_TIMER);
	if (!source) {
		printk("time: no timer bound: jiffies will not advance\n");
		return;
	}
	printk("time: tick from %s (hwirq %d, %llu Hz clock) at HZ=%d\n", source->name,
	       source->hwirq, (unsigned long long)source->freq, HZ);
}
