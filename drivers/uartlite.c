/*
 * uartlite.c - Xilinx UART Lite as the console (polled). 32-bit registers
 * in the CPU's byte order; no set-up needed for output.
 */
#include "driver.h"
#include "console.h"
#include "printk.h"

#define ULITE_RX	0x0
#define ULITE_TX	0x4
#define ULITE_STATUS	0x8
#define STATUS_RXVALID	0x01
#define STATUS_TXFULL	0x08

static volatile u32 *reg(struct console *con, unsigned off)
{
	return (volatile u32 *)((u8 *)con->priv + off);
}

static void uartlite_putc(struct console *con, char c)
{
	while (*reg(con, ULITE_STATUS) & STATUS_TXFULL)
		;
	*reg(con, ULITE_TX) = (u8)c;
}

static int uartlite_getc(struct console *con)
{
	if (!(*reg(con, ULITE_STATUS) & STATUS_RXVALID))
		return -1;
	return *reg(con, ULITE_RX) & 0xff;
}

static struct console uartlite_console = { "uartlite", uartlite_putc, uartlite_getc, NULL };

/* Early console (before the DT): the registers are mapped at regs. */
void uartlite_early_start(void *regs)
{
	uartlite_console.priv = regs;
	console_register(&uartlite_console);
}

static int uartlite_probe(const struct fdt *fdt, int node)
{
	void *base = dt_ioremap(fdt, node, 0, NULL);

	if (!base)
		return -1;
	uartlite_early_start(base);
	return 0;
}

static const char *const uartlite_compat[] = {
	"xlnx,xps-uartlite-1.00.a", "xlnx,opb-uartlite-1.00.b", NULL
};
DRIVER(uartlite_driver, .name = "uartlite", .compatible = uartlite_compat,
       .class = DRV_CONSOLE, .probe = uartlite_probe);
