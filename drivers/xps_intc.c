/*
 * xps_intc.c - Xilinx XPS/AXI interrupt controller, the root irq chip.
 *
 * 32-bit registers in the CPU's byte order. Lines latch into ISR only
 * while MER.HIE is set; the CPU's interrupt input is MER.ME && (ISR & IER).
 * A level-triggered line is latched again as long as the device holds it,
 * so the acknowledge (IAR) comes at eoi(), after the handler has quieted
 * the device. DT specifier: <line flags>, #interrupt-cells = 2 (or 1).
 */
#include "driver.h"
#include "irq.h"
#include "printk.h"

#define INTC_ISR	0x00	/* status */
#define INTC_IER	0x08	/* enable */
#define INTC_IAR	0x0c	/* acknowledge: write 1s to clear ISR bits */
#define INTC_SIE	0x10	/* set enable bits */
#define INTC_CIE	0x14	/* clear enable bits */
#define INTC_IVR	0x18	/* lowest pending enabled line, or all ones */
#define INTC_MER	0x1c	/* master enable */
#define MER_ME		0x1
#define MER_HIE		0x2
#define INTC_LINES	32

static volatile u32 *reg(const struct irq_chip *chip, unsigned off)
{
	return (volatile u32 *)((u8 *)chip->priv + off);
}

static int intc_xlate(const struct irq_chip *chip, const u32 *cells, int ncells)
{
	u32 line = fdt_be32(cells);

	(void)ncells;
	return line < chip->nr_irqs ? (int)line : -1;
}

static void intc_enable(const struct irq_chip *chip, unsigned line)
{
	*reg(chip, INTC_SIE) = 1u << line;
}

static void intc_disable(const struct irq_chip *chip, unsigned line)
{
	*reg(chip, INTC_CIE) = 1u << line;
}

/* The lowest pending enabled line (IVR), or -1. */
static int intc_ack(const struct irq_chip *chip)
{
	u32 ivr = *reg(chip, INTC_IVR);

	return ivr < INTC_LINES ? (int)ivr : -1;
}

static void intc_eoi(const struct irq_chip *chip, unsigned line)
{
	*reg(chip, INTC_IAR) = 1u << line;
}

/* Software-raised interrupts need MER.HIE = 0: not offered. */
static struct irq_chip intc_chip = {
	.name = "xps-intc", .xlate = intc_xlate, .enable = intc_enable, .disable = intc_disable,
	.ack = intc_ack, .eoi = intc_eoi,
};

static int xps_intc_probe(const struct fdt *fdt, int node)
{
	u32 cells = 2, lines = INTC_LINES;

	fdt_prop_u32(fdt, node, "#interrupt-cells", &cells);
	fdt_prop_u32(fdt, node, "xlnx,num-intr-inputs", &lines);
	intc_chip.priv = dt_ioremap(fdt, node, 0, NULL);
	if (!intc_chip.priv)
		return -1;
	intc_chip.interrupt_cells = (int)cells;
	intc_chip.node = node;
	intc_chip.nr_irqs = MIN(lines, (u32)INTC_LINES);
	*reg(&intc_chip, INTC_CIE) = ~0u;	/* every line disabled */
	*reg(&intc_chip, INTC_IAR) = ~0u;	/* nothing pending */
	*reg(&intc_chip, INTC_MER) = MER_ME | MER_HIE;
	irq_set_root_chip(&intc_chip);
	return 0;
}

static const char *const xps_intc_compat[] = { "xlnx,xps-intc-1.00.a", NULL };
DRIVER(xps_intc_driver, .name = "xps-intc", .compatible = xps_intc_compat,
       .class = DRV_IRQCHIP, .probe = xps_intc_probe);
