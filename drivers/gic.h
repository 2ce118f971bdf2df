/*
 * gic.h - what the GICv2 and GICv3 drivers share.
 */
#ifndef DRIVERS_GIC_H
#define DRIVERS_GIC_H

#include "irq.h"

/*
 * The Arm GIC device-tree interrupt specifier <type number flags> (the same
 * binding for v2 and v3): type 0 = SPI (INTID 32 + number), 1 = PPI (INTID
 * 16 + number). Cells past the third (a v3 PPI partition) are ignored.
 * Returns the INTID, or -1 if it is malformed or beyond the chip.
 */
int gic_dt_xlate(const struct irq_chip *chip, const u32 *cells, int ncells);

#endif
