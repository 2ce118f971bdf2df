/*
 * pl011.c - Arm PrimeCell PL011 UART as the console (polled).
 * QEMU's PL011 needs no set-up: transmit is enabled at reset.
 */
#include "driver.h"
#include "console.h"
#include "printk.h"

#define UARTDR		0x00	/* data register */
#define UARTFR		0x18	/* flag register */
#define UARTFR_TXFF	(1 << 5)	/* transmit FIFO full */
#define UARTFR_RXFE	(1 << 4)	/* receive FIFO empty */

static volatile u32 *reg(struct console *con, unsigned off)
{
	return (volatile u32 *)((u8 *)con->priv + off);
}

static void pl011_putc(struct console *con, char c)
{
	while (*reg(con, UARTFR) & UARTFR_TXFF)
		;
	*reg(con, UARTDR) = (u8)c;
}

static int pl011_getc(struct console *con)
{
	if (*reg(con, UARTFR) & UARTFR_RXFE)
		return -1;
	return *reg(con, UARTDR) & 0xff;
}

static struct console pl011_console = { "pl011", pl011_putc, pl011_getc, NULL };

/* Use the PL011 whose registers are mapped at base as the console. */
void pl011_console_start(void *base)
{
	pl011_console.priv = base;
	console_register(&pl011_console);
}

static int pl011_probe(const struct fdt *fdt, int node)
{
	void *base = dt_ioremap(fdt, node, 0, NULL);

	if (!base)
		return -1;
	pl011_console_start(base);
	return 0;
}

static const char *const pl011_compat[] = { "arm,pl011", NULL };
DRIVER(pl011_driver, .name = "pl011", .compatible = pl011_compat,
       .class = DRV_CONSOLE, .probe = pl011_probe);
