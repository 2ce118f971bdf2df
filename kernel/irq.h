/*
 * irq.h - interrupts: one root interrupt controller, a table of handlers
 * indexed by the controller's interrupt number (hwirq), and the dispatch
 * loop the architecture's interrupt vector calls.
 *
 * Who does what:
 *   - an interrupt-controller driver (class DRV_IRQCHIP) probes its device
 *     tree node, sets up the hardware with every interrupt disabled, and
 *     calls irq_set_root_chip();
 *   - a device driver finds its interrupt with irq_of_node() and installs
 *     a handler with irq_request(), which enables the interrupt;
 *   - the arch vector calls irq_dispatch() with interrupts masked; handlers
 *     run with interrupts masked and must clear the cause at the device.
 *
 * Numbers: a hwirq is whatever the controller's xlate() returns; on a GIC
 * it is the INTID (SGI 0-15, PPI 16-31, SPI 32+), so the DT specifier
 * <0 1 4> (SPI 1) is hwirq 33. SPIs go to CPU 0; SGIs and PPIs are per
 * CPU: each CPU enables its own (irq_enable_local) after irq_cpu_init().
 */
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

#include "types.h"
#include "fdt.h"

/* Interrupt numbers the handler table covers (a GIC's INTIDs end at 1019). */
#define NR_IRQS 1024

struct irq_chip {
	const char *name;
	/* DT interrupt specifier (ncells big-endian cells, as stored in the
	 * blob) -> hwirq, or < 0 if the specifier makes no sense. */
	int (*xlate)(const struct irq_chip *chip, const u32 *cells, int ncells);
	void (*enable)(const struct irq_chip *chip, unsigned hwirq);
	void (*disable)(const struct irq_chip *chip, unsigned hwirq);
	/* Acknowledge the highest-priority pending interrupt and return its
	 * hwirq, or -1 if none is pending. */
	int (*ack)(const struct irq_chip *chip);
	/* End of interrupt for the hwirq ack() returned. */
	void (*eoi)(const struct irq_chip *chip, unsigned hwirq);
	/* Optional (NULL if impossible): make hwirq pending by software, for tests. */
	void (*raise)(const struct irq_chip *chip, unsigned hwirq);
	/* Optional (NULL on one-CPU controllers): set up this CPU's interface
	 * (a secondary CPU, before it enables its SGIs/PPIs), and send
	 * software-generated interrupt sgi (0-15) to CPU index cpu. */
	void (*cpu_init)(const struct irq_chip *chip);
	void (*send_sgi)(const struct irq_chip *chip, int cpu, unsigned sgi);
	void *priv;		/* the driver's state */
	int interrupt_cells;	/* the controller node's #interrupt-cells */
	int node;		/* the controller's node offset */
	unsigned nr_irqs;	/* hwirqs the controller implements (0: unknown) */
};

/* Negative return codes of this API (see irq_strerror()). */
enum {
	IRQ_E_NOTFOUND = 1,	/* no such interrupt entry / no interrupt-parent */
	IRQ_E_BADSPEC,		/* a malformed "interrupts" entry or controller node */
	IRQ_E_NOCHIP,		/* no root interrupt controller, or not routed to it */
	IRQ_E_RANGE,		/* hwirq outside the handler table */
	IRQ_E_BUSY,		/* the interrupt already has a handler */
};

/* A short description of an IRQ_E_* code (either sign). */
const char *irq_strerror(int code);

/* Called by the controller's probe once the hardware is ready (every
 * interrupt disabled). Panics if a root controller is already set. */
void irq_set_root_chip(struct irq_chip *chip);

/* The root controller, or NULL before one was bound. */
const struct irq_chip *irq_root_chip(void);

/*
 * The hwirq of the node's idx-th interrupt. Reads "interrupts-extended"
 * if present, else "interrupts" with the controller named by the nearest
 * "interrupt-parent" of the node or its ancestors. The controller must be
 * the root chip (translated by its xlate()). Returns the hwirq or
 * -IRQ_E_*; prints nothing.
 */
int irq_of_node(const struct fdt *fdt, int node, int idx);

/* Install handler(arg) for hwirq and enable it at the controller. Returns
 * 0 or -IRQ_E_NOCHIP / -IRQ_E_RANGE / -IRQ_E_BUSY. Call with interrupts
 * masked or before they are first unmasked. */
int irq_request(unsigned hwirq, void (*handler)(void *arg), void *arg, const char *name);

/* Disable hwirq at the controller and remove its handler (no-op if none). */
void irq_release(unsigned hwirq);

/*
 * The arch interrupt vector calls this with interrupts masked: acknowledge,
 * run the handler, end the interrupt, until nothing is pending. An
 * interrupt without a handler is counted, disabled (so a level-triggered
 * source cannot storm) and reported the first time; a vector entry that
 * finds nothing pending is counted as spurious and reported once.
 */
void irq_dispatch(void);

/* Times hwirq was acknowledged (handled or not) on this CPU since boot. */
u64 irq_count(unsigned hwirq);

/* Interrupts that had no handler. */
u64 irq_unhandled_count(void);

/* A secondary CPU: set up its controller interface (every SGI/PPI disabled). */
void irq_cpu_init(void);

/* Enable hwirq (a per-CPU SGI or PPI) on this CPU; its handler must be
 * installed already (irq_request on the boot CPU). */
void irq_enable_local(unsigned hwirq);

/* Send SGI sgi to CPU index cpu; panics if the controller cannot. */
void irq_send_ipi(int cpu, unsigned sgi);

/* Bind the interrupt-controller drivers (DRV_IRQCHIP); reports when none binds. */
void irq_init(const struct fdt *fdt);

#endif
