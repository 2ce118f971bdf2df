/*
 * gic_v2.c - Arm Generic Interrupt Controller v2 (and v1) as the root
 * interrupt controller: a distributor (GICD, reg[0]) that routes every
 * interrupt, and a memory-mapped CPU interface (GICC, reg[1]) that this
 * CPU acknowledges and ends interrupts through.
 *
 * Groups and security: on QEMU's virt board (without secure=on) the GIC
 * has no Security Extensions, every interrupt is in group 0 at reset, and
 * group 0 is signalled as IRQ while GICC_CTLR.FIQEn is 0. On a GIC with
 * Security Extensions seen from the Non-secure side, firmware has put the
 * interrupts in group 1 and bit 0 of both CTLR views enables group 1. So we
 * leave the groups alone and set bit 0 of GICD_CTLR and GICC_CTLR, which
 * works in both cases (the same choice Linux makes).
 *
 * hwirq = INTID: SGI 0-15, PPI 16-31, SPI 32 and up.
 *
 * Several CPUs: the GICC frame and the distributor's registers for
 * INTIDs 0-31 (enables, priorities) are banked, each CPU sees its own at
 * the same addresses. Each CPU's interface number (the bit GICD_ITARGETSR0
 * reads as, for that CPU) is recorded by its init and names it in
 * GICD_SGIR. SPIs are routed to the boot CPU only.
 */
#include "driver.h"
#include "printk.h"
#include "gic.h"
#include "arch_proc.h"

#define GICD_CTLR		0x000
#define GICD_TYPER		0x004
#define GICD_ISENABLER		0x100
#define GICD_ICENABLER		0x180
#define GICD_ISPENDR		0x200
#define GICD_ICPENDR		0x280
#define GICD_ICACTIVER		0x380
#define GICD_IPRIORITYR		0x400
#define GICD_ITARGETSR		0x800
#define GICD_SGIR		0xf00
#define GICD_CTLR_ENABLE	(1u << 0)
#define GICD_SGIR_SELF		(2u << 24)	/* TargetListFilter: the requesting CPU only */

#define GICC_CTLR		0x00
#define GICC_PMR		0x04
#define GICC_BPR		0x08
#define GICC_IAR		0x0c
#define GICC_EOIR		0x10
#define GICC_CTLR_ENABLE	(1u << 0)

#define GIC_SPURIOUS		1020	/* IAR INTIDs 1020-1023: nothing to acknowledge */
#define GIC_PRIO_DEFAULT	0xa0	/* every interrupt: one priority, no preemption */
#define GIC_PMR_ALLOW		0xf0	/* signal every priority numerically below 0xf0 */

struct gicv2 {
	volatile u8 *dist, *cpu;
	u32 last_iar[NR_CPUS];	/* each CPU's last IAR value (an SGI's EOI needs its source CPU) */
	u8 target[NR_CPUS];	/* each CPU's interface bit, as GICD_ITARGETSR0 reads on it */
};

static struct gicv2 gic;
static struct irq_chip gicv2_chip;

static volatile u32 *gicd(unsigned off)
{
	return (volatile u32 *)(gic.dist + off);
}

static volatile u32 *gicc(unsigned off)
{
	return (volatile u32 *)(gic.cpu + off);
}

/* Set hwirq's bit in a one-bit-per-interrupt register array at base. */
static void gicd_set_bit(unsigned base, unsigned hwirq)
{
	*gicd(base + 4 * (hwirq / 32)) = 1u << (hwirq % 32);
}


static void gicv2_enable(const struct irq_chip *chip, unsigned hwirq)
{
	(void)chip;
	gicd_set_bit(GICD_ISENABLER, hwirq);
}

static void gicv2_disable(const struct irq_chip *chip, unsigned hwirq)
{
	(void)chip;
	gicd_set_bit(GICD_ICENABLER, hwirq);
}

/* Reading IAR acknowledges: the interrupt becomes active until its EOI. */
static int gicv2_ack(const struct irq_chip *chip)
{
	u32 iar = *gicc(GICC_IAR);

	(void)chip;
	if ((iar & 0x3ff) >= GIC_SPURIOUS)
		return -1;
	gic.last_iar[arch_cpu_id()] = iar;
	return (int)(iar & 0x3ff);
}

/* EOIR takes the IAR value as read (for an SGI it includes the source CPU). */
static void gicv2_eoi(const struct irq_chip *chip, unsigned hwirq)
{
	u32 last = gic.last_iar[arch_cpu_id()];

	(void)chip;
	*gicc(GICC_EOIR) = (last & 0x3ff) == hwirq ? last : hwirq;
}

/* An SGI to this CPU, or the pending bit of a PPI/SPI. */
static void gicv2_raise(const struct irq_chip *chip, unsigned hwirq)
{
	(void)chip;
	if (hwirq < 16)
		*gicd(GICD_SGIR) = GICD_SGIR_SELF | hwirq;
	else
		gicd_set_bit(GICD_ISPENDR, hwirq);
}

/* SGI sgi to CPU index cpu (TargetListFilter 0: the listed interfaces).
 * The DSB makes our earlier stores visible before the target can run its
 * handler. */
static void gicv2_send_sgi(const struct irq_chip *chip, int cpu, unsigned sgi)
{
	(void)chip;
	__asm__ volatile("dsb ish" ::: "memory");
	*gicd(GICD_SGIR) = (u32)gic.target[cpu] << 16 | (sgi & 0xf);
}

/*
 * Distributor: off while we configure; every interrupt disabled, not
 * pending, not active, at the default priority; SPIs sent to this CPU.
 * ITARGETSR0 (SGIs 0-3) reads as this CPU's own target bit.
 */
static void gicv2_dist_init(unsigned nr_irqs)
{
	u32 self = *gicd(GICD_ITARGETSR) & 0xff;
	u32 targets = self * 0x01010101u;

	*gicd(GICD_CTLR) = 0;
	for (unsigned i = 0; i < nr_irqs; i += 32) {
		*gicd(GICD_ICENABLER + i / 8) = ~0u;
		*gicd(GICD_ICPENDR + i / 8) = ~0u;
		*gicd(GICD_ICACTIVER + i / 8) = ~0u;
	}
	for (unsigned i = 0; i < nr_irqs; i += 4)
		*gicd(GICD_IPRIORITYR + i) = GIC_PRIO_DEFAULT * 0x01010101u;
	for (unsigned i = 32; i < nr_irqs; i += 4)
		*gicd(GICD_ITARGETSR + i) = targets;
	*gicd(GICD_CTLR) = GICD_CTLR_ENABLE;
}

/* CPU interface: every priority below the mask is signalled, no
 * preemption groups, acknowledge/EOI through IAR/EOIR. Records this CPU's
 * interface bit. */
static void gicv2_cpu_init(void)
{
	gic.target[arch_cpu_id()] = (u8)(*gicd(GICD_ITARGETSR) & 0xff);
	*gicc(GICC_PMR) = GIC_PMR_ALLOW;
	*gicc(GICC_BPR) = 0;
	*gicc(GICC_CTLR) = GICC_CTLR_ENABLE;
}

/* A secondary CPU: its banked SGI/PPI state as the distributor init left
 * the boot CPU's (disabled, idle, default priority), then its interface. */
static void gicv2_secondary_init(const struct irq_chip *chip)
{
	(void)chip;
	*gicd(GICD_ICENABLER) = ~0u;
	*gicd(GICD_ICPENDR) = ~0u;
	*gicd(GICD_ICACTIVER) = ~0u;
	for (unsigned i = 0; i < 32; i += 4)
		*gicd(GICD_IPRIORITYR + i) = GIC_PRIO_DEFAULT * 0x01010101u;
	gicv2_cpu_init();
}

static int gicv2_probe(const struct fdt *fdt, int node)
{
	const char *name = fdt_node_name(fdt, node);
	u32 cells;
	unsigned nr_irqs;

	if (!fdt_prop_u32(fdt, node, "#interrupt-cells", &cells) || cells != 3) {
		printk("gicv2: %s: #interrupt-cells is not 3\n", name);
		return -1;
	}
	gic.dist = dt_ioremap(fdt, node, 0, NULL);
	gic.cpu = dt_ioremap(fdt, node, 1, NULL);
	if (!gic.dist || !gic.cpu)
		return -1;
	nr_irqs = MIN(32 * ((*gicd(GICD_TYPER) & 0x1f) + 1), (unsigned)GIC_SPURIOUS);
	gicv2_dist_init(nr_irqs);
	gicv2_cpu_init();
	gicv2_chip = (struct irq_chip){
		.name = "gicv2", .xlate = gic_dt_xlate, .enable = gicv2_enable,
		.disable = gicv2_disable, .ack = gicv2_ack, .eoi = gicv2_eoi,
		.raise = gicv2_raise, .cpu_init = gicv2_secondary_init, .send_sgi = gicv2_send_sgi,
		.priv = &gic, .interrupt_cells = 3, .node = node,
		.nr_irqs = nr_irqs,
	};
	irq_set_root_chip(&gicv2_chip);
	return 0;
}

static const char *const gicv2_compat[] = { "arm,cortex-a15-gic", "arm,gic-400", NULL };
DRIVER(gicv2_driver, .name = "gicv2", .compatible = gicv2_compat,
       .class = DRV_IRQCHIP, .probe = gicv2_probe);
