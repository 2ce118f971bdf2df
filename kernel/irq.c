/*
 * irq.c - the root interrupt controller, the handler table and dispatch.
 * See irq.h for who calls what.
 */
#include "irq.h"
#include "driver.h"
#include "arch.h"
#include "arch_proc.h"
#include "printk.h"

struct irq_desc {
	void (*handler)(void *arg);
	void *arg;
	const char *name;
	u64 count[NR_CPUS];	/* acknowledged since boot, per CPU (a PPI or SGI is one per CPU) */
	bool reported;		/* "no handler" was printed for it */
};

static struct irq_chip *root;
static struct irq_desc descs[NR_IRQS];
static u64 spurious, unhandled;

const char *irq_strerror(int code)
{
	switch (code < 0 ? -code : code) {
	case 0: return "no error";
	case IRQ_E_NOTFOUND: return "no such interrupt";
	case IRQ_E_BADSPEC: return "malformed interrupt specifier";
	case IRQ_E_NOCHIP: return "not routed to the root interrupt controller";
	case IRQ_E_RANGE: return "interrupt number out of range";
	case IRQ_E_BUSY: return "interrupt already has a handler";
	default: return "unknown error";
	}
}

void irq_set_root_chip(struct irq_chip *chip)
{
	if (root)
		panic("irq: two root interrupt controllers (%s, then %s): only one is supported",
		      root->name, chip->name);
	root = chip;
}

const struct irq_chip *irq_root_chip(void)
{
	return root;
}

/* The controller that the nearest "interrupt-parent" of node or of an
 * ancestor names, or -IRQ_E_NOTFOUND. */
static int interrupt_parent(const struct fdt *fdt, int node)
{
	for (int n = node; n >= 0; n = fdt_parent(fdt, n)) {
		u32 phandle;

		if (fdt_prop_u32(fdt, n, "interrupt-parent", &phandle)) {
			int ctrl = fdt_node_by_phandle(fdt, phandle);

			return ctrl >= 0 ? ctrl : -IRQ_E_NOTFOUND;
		}
	}
	return -IRQ_E_NOTFOUND;
}

/* The controller's #interrupt-cells (1..4), or -IRQ_E_BADSPEC. */
static int interrupt_cells(const struct fdt *fdt, int ctrl)
{
	u32 n;

	if (!fdt_prop_u32(fdt, ctrl, "#interrupt-cells", &n) || n < 1 || n > 4)
		return -IRQ_E_BADSPEC;
	return (int)n;
}

/* Entry idx of "interrupts": its controller in *ctrl, its cells in *spec;
 * returns the number of cells or -IRQ_E_*. */
static int find_interrupts(const struct fdt *fdt, int node, int idx, int *ctrl, const u32 **spec)
{
	int len, ncells;
	const u32 *cells = fdt_getprop(fdt, node, "interrupts", &len);

	if (!cells)
		return -IRQ_E_NOTFOUND;
	*ctrl = interrupt_parent(fdt, node);
	if (*ctrl < 0)
		return *ctrl;
	ncells = interrupt_cells(fdt, *ctrl);
	if (ncells < 0)
		return ncells;
	if (len % (4 * ncells))
		return -IRQ_E_BADSPEC;
	if (idx >= len / (4 * ncells))
		return -IRQ_E_NOTFOUND;
	*spec = cells + idx * ncells;
	return ncells;
}

/* Entry idx of "interrupts-extended" (<phandle cells...> per entry), as
 * find_interrupts(). */
static int find_interrupts_extended(const struct fdt *fdt, int node, int idx, int *ctrl,
				    const u32 **spec)
{
	int len, pos = 0, total;
	const u32 *cells = fdt_getprop(fdt, node, "interrupts-extended", &len);

	if (!cells)
		return -IRQ_E_NOTFOUND;
	total = len / 4;
	for (int i = 0; pos < total; i++) {
		int ncells;

		*ctrl = fdt_node_by_phandle(fdt, fdt_be32(&cells[pos]));
		if (*ctrl < 0)
			return -IRQ_E_BADSPEC;
		ncells = interrupt_cells(fdt, *ctrl);
		if (ncells < 0 || pos + 1 + ncells > total)
			return -IRQ_E_BADSPEC;
		if (i == idx) {
			*spec = cells + pos + 1;
			return ncells;
		}
		pos += 1 + ncells;
	}
	return -IRQ_E_NOTFOUND;
}

int irq_of_node(const struct fdt *fdt, int node, int idx)
{
	const u32 *spec = NULL;
	int ctrl = -1, ncells, hwirq;

	if (idx < 0)
		return -IRQ_E_NOTFOUND;
	if (fdt_getprop(fdt, node, "interrupts-extended", NULL))
		ncells = find_interrupts_extended(fdt, node, idx, &ctrl, &spec);
	else
		ncells = find_interrupts(fdt, node, idx, &ctrl, &spec);
	if (ncells < 0)
		return ncells;
	if (!root || ctrl != root->node)
		return -IRQ_E_NOCHIP;
	hwirq = root->xlate(root, spec, ncells);
	return hwirq < 0 ? -IRQ_E_BADSPEC : hwirq;
}

int irq_request(unsigned hwirq, void (*handler)(void *arg), void *arg, const char *name)
{
	unsigned long flags;
	int rc = 0;

	if (!root)
		return -IRQ_E_NOCHIP;
	if (hwirq >= NR_IRQS || (root->nr_irqs && hwirq >= root->nr_irqs))
		return -IRQ_E_RANGE;
	flags = arch_irq_save();
	if (descs[hwirq].handler) {
		rc = -IRQ_E_BUSY;
	} else {
		descs[hwirq].handler = handler;
		descs[hwirq].arg = arg;
		descs[hwirq].name = name;
		root->enable(root, hwirq);
	}
	arch_irq_restore(flags);
	return rc;
}

void irq_release(unsigned hwirq)
{
	unsigned long flags;

	if (!root || hwirq >= NR_IRQS || !descs[hwirq].handler)
		return;
	flags = arch_irq_save();
	root->disable(root, hwirq);
	descs[hwirq].handler = NULL;
	descs[hwirq].arg = NULL;
	descs[hwirq].name = NULL;
	arch_irq_restore(flags);
}

/* An acknowledged interrupt nobody asked for: disable it so a level-
 * triggered source cannot fire again, and say so the first time. */
static void handle_unknown(unsigned hwirq, struct irq_desc *d)
{
	unhandled++;
	root->disable(root, hwirq);
	if (!d->reported)
		printk("irq: hwirq %u on %s has no handler: disabled it\n", hwirq, root->name);
	d->reported = true;
}

/* Run the handler of one acknowledged interrupt. */
static void handle_one(unsigned hwirq)
{
	struct irq_desc *d;

	if (hwirq >= NR_IRQS) {
		if (unhandled++ == 0)
			printk("irq: hwirq %u on %s is beyond the handler table (%u entries)\n",
			       hwirq, root->name, NR_IRQS);
		root->disable(root, hwirq);
		return;
	}
	d = &descs[hwirq];
	d->count[arch_cpu_id()]++;
	if (d->handler)
		d->handler(d->arg);
	else
		handle_unknown(hwirq, d);
}

void irq_dispatch(void)
{
	int hwirq;
	bool any = false;

	if (!root)
		panic("irq: interrupt taken but no interrupt controller is bound");
	while ((hwirq = root->ack(root)) >= 0) {
		handle_one((unsigned)hwirq);
		root->eoi(root, (unsigned)hwirq);
		any = true;
	}
	if (!any && spurious++ == 0)
		printk("irq: spurious interrupt (nothing pending at %s); further ones are only counted\n",
		       root->name);
}

/* Read a counter that interrupt handlers update (a u64 is two loads on a
 * 32-bit CPU, so mask interrupts around it). */
static u64 read_counter(const u64 *p)
{
	unsigned long flags = arch_irq_save();
	u64 v = *(const volatile u64 *)p;

	arch_irq_restore(flags);
	return v;
}

u64 irq_count(unsigned hwirq)
{
	return hwirq < NR_IRQS ? read_counter(&descs[hwirq].count[arch_cpu_id()]) : 0;
}

u64 irq_unhandled_count(void)
{
	return read_counter(&unhandled);
}

void irq_cpu_init(void)
{
	if (!root || !root->cpu_init)
		panic("irq: a secondary CPU started but %s has no per-CPU set-up",
		      root ? root->name : "no interrupt controller");
	root->cpu_init(root);
}

void irq_enable_local(unsigned hwirq)
{
	if (root && hwirq < NR_IRQS && descs[hwirq].handler)
		root->enable(root, hwirq);
}

void irq_send_ipi(int cpu, unsigned sgi)
{
	if (!root || !root->send_sgi)
		panic("irq: IPI %u to CPU %d: %s cannot send SGIs", sgi, cpu,
		      root ? root->name : "no interrupt controller");
	root->send_sgi(root, cpu, sgi);
}

void irq_init(const struct fdt *fdt)
{
	drivers_bind_class(fdt, DRV_IRQCHIP);
	if (!root) {
		printk("irq: no interrupt controller bound: interrupts stay off\n");
		return;
	}
	printk("irq: root controller %s at %s, %u interrupts\n", root->name,
	       fdt_node_name(fdt, root->node), root->nr_irqs);
}
