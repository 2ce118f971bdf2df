/*
 * test_irq.c - in-kernel tests of the interrupt core and the tick.
 *
 * Interrupts are unmasked only inside each test, for a bounded stretch of
 * counter time, and masked again before it reports. The numbers checked
 * against the device tree are QEMU virt's (root compatible
 * "linux,dummy-virt"): UART SPI 1 = INTID 33, virtual timer PPI 11 =
 * INTID 27, the same with GICv2 and GICv3; on other boards only that the
 * lookups succeed.
 */
#include "ktest.h"
#include "printk.h"
#include "arch.h"
#include "kernel.h"
#include "irq.h"
#include "ktime.h"

#define MS		1000000ull	/* ns */
#define VIRT_UART_IRQ	33
#define VIRT_VTIMER_IRQ	27
#define GIC_TEST_SGI	15

static bool board_is_virt(const struct fdt *fdt)
{
	return fdt_node_is_compatible(fdt, 0, "linux,dummy-virt");
}

/* Unmask interrupts until *done changes or ms of counter time pass; masks
 * them again. Returns true if *done changed. */
static bool wait_irqs_on(volatile u64 *done, u64 ms)
{
	u64 start = ktime_ns(), before = *done;

	arch_irq_enable();
	while (*done == before && ktime_ns() - start < ms * MS)
		;
	arch_irq_disable();
	return *done != before;
}

/* The hwirqs the device tree gives, and the errors for entries that are not there. */
KTEST(irq_of_node)
{
	const struct fdt *fdt = kernel_fdt();
	const struct irq_chip *chip = irq_root_chip();
	int uart = fdt_stdout_node(fdt), timer = fdt_node_by_compatible(fdt, -1, "arm,armv8-timer");
	int hw;

	ktest_ok(chip != NULL, "a root interrupt controller is bound (%s)", chip ? chip->name : "none");
	if (!chip)
		return;
	hw = irq_of_node(fdt, uart, 0);
	if (board_is_virt(fdt))
		ktest_ok(hw == VIRT_UART_IRQ, "virt UART %s: hwirq %d (expected %d: SPI 1)",
			 fdt_node_name(fdt, uart), hw, VIRT_UART_IRQ);
	else
		ktest_ok(hw >= 0, "UART %s: hwirq %d", fdt_node_name(fdt, uart), hw);
	if (timer >= 0) {
		hw = irq_of_node(fdt, timer, 2);
		ktest_ok(!board_is_virt(fdt) || hw == VIRT_VTIMER_IRQ,
			 "virtual timer: hwirq %d (expected %d: PPI 11)", hw, VIRT_VTIMER_IRQ);
		hw = irq_of_node(fdt, timer, 4);
		ktest_ok(hw == -IRQ_E_NOTFOUND, "timer interrupts[4] does not exist: %d (%s)", hw,
			 irq_strerror(hw));
	}
	hw = irq_of_node(fdt, uart, 64);
	ktest_ok(hw == -IRQ_E_NOTFOUND, "UART interrupts[64] does not exist: %d (%s)", hw,
		 irq_strerror(hw));
	hw = irq_of_node(fdt, 0, 0);
	ktest_ok(hw == -IRQ_E_NOTFOUND, "the root node has no interrupts: %d (%s)", hw,
		 irq_strerror(hw));
}

static volatile u64 soft_calls;
static void *soft_arg;

static void soft_handler(void *arg)
{
	soft_arg = arg;
	soft_calls++;
}

/* A free hwirq the controller can raise by software: an SGI on a GIC,
 * else the highest interrupt without a handler. */
static int pick_test_irq(const struct fdt *fdt, const struct irq_chip *chip)
{
	if (fdt_node_is_compatible(fdt, chip->node, "arm,gic-v3") ||
	    fdt_node_is_compatible(fdt, chip->node, "arm,cortex-a15-gic") ||
	    fdt_node_is_compatible(fdt, chip->node, "arm,gic-400"))
		return GIC_TEST_SGI;
	return chip->nr_irqs ? (int)chip->nr_irqs - 1 : -1;
}

/* A software-raised interrupt reaches its handler once, with its argument;
 * one without a handler is counted as unhandled. */
KTEST(irq_dispatch_soft)
{
	static int cookie;
	const struct irq_chip *chip = irq_root_chip();
	int hw;
	u64 count0, unhandled0;

	if (!chip || !chip->raise) {
		ktest_ok(true, "# SKIP no controller that can raise an interrupt by software");
		return;
	}
	hw = pick_test_irq(kernel_fdt(), chip);
	ktest_ok(hw >= 0 && irq_request((unsigned)hw, soft_handler, &cookie, "ktest") == 0,
		 "irq_request(%d) succeeds", hw);
	if (hw < 0)
		return;
	ktest_ok(irq_request((unsigned)hw, soft_handler, NULL, "ktest") == -IRQ_E_BUSY,
		 "a second irq_request(%d) is refused as busy", hw);
	count0 = irq_count((unsigned)hw);
	soft_calls = 0;
	chip->raise(chip, (unsigned)hw);
	ktest_ok(wait_irqs_on(&soft_calls, 100) && soft_calls == 1 && soft_arg == &cookie,
		 "raised hwirq %d: handler ran %llu time(s) with its argument", hw,
		 (unsigned long long)soft_calls);
	ktest_ok(irq_count((unsigned)hw) == count0 + 1, "irq_count(%d) went up by one", hw);
	irq_release((unsigned)hw);

	unhandled0 = irq_unhandled_count();
	chip->enable(chip, (unsigned)hw);
	chip->raise(chip, (unsigned)hw);
	arch_irq_enable();
	for (u64 t = ktime_ns(); irq_unhandled_count() == unhandled0 && ktime_ns() - t < 100 * MS;)
		;
	arch_irq_disable();
	chip->disable(chip, (unsigned)hw);
	ktest_ok(irq_unhandled_count() == unhandled0 + 1 && soft_calls == 1,
		 "without a handler it is counted as unhandled (%llu) and the old handler is gone",
		 (unsigned long long)(irq_unhandled_count() - unhandled0));
}

static volatile u64 hook_calls;
static volatile u64 hook_last_ns, hook_max_gap_ns;	/* when the hook last ran; the longest wait between runs */

static void count_hook(void)
{
	u64 now = ktime_ns();

	if (hook_last_ns && now - hook_last_ns > hook_max_gap_ns)
		hook_max_gap_ns = now - hook_last_ns;
	hook_last_ns = now;
	hook_calls++;
}

/* What the tick has done so far, and when (taken with interrupts masked). */
struct tick_sample {
	u64 ns, jiffies, irqs, catchup, dropped, hooks;
};

static void tick_sample(const struct tick_source *src, struct tick_sample *s)
{
	s->ns = ktime_ns();
	s->jiffies = jiffies_read();
	s->irqs = irq_count((unsigned)src->hwirq);
	s->catchup = src->catchup;
	s->dropped = src->dropped;
	s->hooks = hook_calls;
}

/* Unmask interrupts for ms of counter time, then mask them again. */
static void run_irqs_on(u64 ms)
{
	u64 start = ktime_ns();

	arch_irq_enable();
	while (ktime_ns() - start < ms * MS)
		;
	arch_irq_disable();
}

/*
 * One measuring window of ms: samples before (a) and after (b). Ticks that
 * fell due while interrupts were masked arrive in one burst first, so it
 * waits for one tick before measuring. Returns false if the host stalled
 * QEMU in the window: the counter runs on while the guest does not, so a
 * stall longer than a few ticks shows as a long wait between two runs of
 * the hook, a long wait after the last one, or dropped ticks.
 */
static bool tick_window(const struct tick_source *src, u64 ms, struct tick_sample *a, struct tick_sample *b)
{
	const u64 stall = 3 * NSEC_PER_SEC / HZ;
	tick_hook_fn old;
	u64 j0 = jiffies_read();

	for (u64 t = ktime_ns(); jiffies_read() == j0 && ktime_ns() - t < 200 * MS;)
		run_irqs_on(1);
	hook_last_ns = hook_max_gap_ns = 0;
	old = time_set_tick_hook(count_hook);
	tick_sample(src, a);
	run_irqs_on(ms);
	tick_sample(src, b);
	time_set_tick_hook(old);
	return hook_max_gap_ns <= stall && hook_last_ns && b->ns - hook_last_ns <= stall && b->dropped == a->dropped;
}

/*
 * The tick runs at about HZ against counter time. The expected count comes
 * from the counter time between the two samples. A window the host
 * disturbed (a stall of QEMU; see tick_window) is measured again, up to
 * five times, and the checks apply to the last one. Every jiffy came from
 * a timer interrupt or from its catch-up, and ran the hook.
 */
KTEST(tick_rate)
{
	const struct tick_source *src = time_tick_source();
	struct tick_sample a, b;
	int tries = 1;
	u64 want;

	ktest_ok(src != NULL && src->hwirq >= 0, "a tick source is registered (%s)",
		 src ? src->name : "none");
	if (!src || src->hwirq < 0)
		return;
	while (!tick_window(src, 300, &a, &b) && tries < 5)
		tries++;
	if (tries > 1)
		printk("# tick_rate: %d windows, the host stalled QEMU in the others\n", tries);
	want = (b.ns - a.ns) * HZ / NSEC_PER_SEC;
	ktest_ok(b.jiffies - a.jiffies >= want / 2 && b.jiffies - a.jiffies <= want * 3 / 2 + 1,
		 "%llu ticks in %llu ms of counter time (expected about %llu at HZ=%d)",
		 (unsigned long long)(b.jiffies - a.jiffies), (unsigned long long)((b.ns - a.ns) / MS),
		 (unsigned long long)want, HZ);
	ktest_ok(b.irqs > a.irqs && b.jiffies - a.jiffies == (b.irqs - a.irqs) + (b.catchup - a.catchup),
		 "ticks = timer hwirq %d interrupts (%llu) + catch-up ticks (%llu)", src->hwirq,
		 (unsigned long long)(b.irqs - a.irqs), (unsigned long long)(b.catchup - a.catchup));
	ktest_ok(b.dropped == a.dropped, "no tick dropped (%llu)", (unsigned long long)(b.dropped - a.dropped));
	ktest_ok(b.hooks - a.hooks == b.jiffies - a.jiffies, "the tick hook ran once per tick (%llu)",
		 (unsigned long long)(b.hooks - a.hooks));
}

/* Waiting for an interrupt returns once the tick has come. */
KTEST(wait_for_interrupt)
{
	u64 j0 = jiffies_read(), start = ktime_ns(), waited;

	if (!time_tick_source()) {
		ktest_ok(true, "# SKIP no tick source");
		return;
	}
	arch_irq_enable();
	while (jiffies_read() == j0 && ktime_ns() - start < 500 * MS)
		arch_wait_for_interrupt();
	arch_irq_disable();
	waited = ktime_ns() - start;
	ktest_ok(jiffies_read() != j0 && waited < 500 * MS,
		 "woke for the tick after %llu us", (unsigned long long)(waited / 1000));
	ktest_ok(!arch_irqs_enabled(), "interrupts are masked again");
}
