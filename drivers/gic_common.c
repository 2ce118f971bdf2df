/*
 * gic_common.c - code the GICv2 and GICv3 drivers share (see gic.h).
 */
#include "gic.h"
#include "fdt.h"

int gic_dt_xlate(const struct irq_chip *chip, const u32 *cells, int ncells)
{
	u32 type, num, hwirq;

	if (ncells < 3)
		return -1;
	type = fdt_be32(&cells[0]);
	num = fdt_be32(&cells[1]);
	if (type == 0)
		hwirq = 32 + num;
	else if (type == 1 && num < 16)
		hwirq = 16 + num;
	else
		return -1;
	return hwirq < chip->nr_irqs ? (int)hwirq : -1;
}
