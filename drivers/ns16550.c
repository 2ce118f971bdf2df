/*
 * ns16550.c - 16550-compatible UART as the console (polled).
 *
 * Register n is at base + reg-offset + (n << reg-shift) and is accessed
 * reg-io-width bytes wide (1 or 4); only the low 8 bits are used. QEMU's
 * 16550 needs no set-up for output.
 */
#include "driver.h"
#include "console.h"
#include "printk.h"

#define UART_RBR	0	/* receive buffer (read) */
#define UART_THR	0	/* transmit holding (write) */
#define UART_LSR	5	/* line status */
#define LSR_DR		0x01	/* data ready */
#define LSR_THRE	0x20	/* transmit holding register empty */

struct ns16550 {
	u8 *base;		/* register 0 */
	unsigned shift;		/* reg-shift */
	unsigned width;		/* reg-io-width: 1 or 4 */
};

static struct ns16550 uart;

static u32 uart_read(const struct ns16550 *u, unsigned reg)
{
	u8 *p = u->base + (reg << u->shift);

	return u->width == 4 ? *(volatile u32 *)p : *(volatile u8 *)p;
}

static void uart_write(const struct ns16550 *u, unsigned reg, u32 v)
{
	u8 *p = u->base + (reg << u->shift);

	if (u->width == 4)
		*(volatile u32 *)p = v;
	else
		*(volatile u8 *)p = (u8)v;
}

static void ns16550_putc(struct console *con, char c)
{
	const struct ns16550 *u = con->priv;

	while (!(uart_read(u, UART_LSR) & LSR_THRE))
		;
	uart_write(u, UART_THR, (u8)c);
}

static int ns16550_getc(struct console *con)
{
	const struct ns16550 *u = con->priv;

	if (!(uart_read(u, UART_LSR) & LSR_DR))
		return -1;
	return uart_read(u, UART_RBR) & 0xff;
}

static struct console ns16550_console = { "ns16550", ns16550_putc, ns16550_getc, &uart };

/* Early console (before the DT): registers 4 bytes apart, byte accesses. */
void ns16550_early_start(void *regs)
{
	uart.base = regs;
	uart.shift = 2;
	uart.width = 1;
	console_register(&ns16550_console);
}

static int ns16550_probe(const struct fdt *fdt, int node)
{
	u32 shift = 0, width = 1, offset = 0;
	u64 size;
	u8 *base;

	fdt_prop_u32(fdt, node, "reg-shift", &shift);
	fdt_prop_u32(fdt, node, "reg-io-width", &width);
	fdt_prop_u32(fdt, node, "reg-offset", &offset);
	if ((width != 1 && width != 4) || shift > 4) {
		printk("ns16550: %s: reg-io-width %u / reg-shift %u not supported\n",
		       fdt_node_name(fdt, node), (unsigned)width, (unsigned)shift);
		return -1;
	}
	base = dt_ioremap(fdt, node, 0, &size);
	if (!base)
		return -1;
	if (offset + (8u << shift) > size) {
		printk("ns16550: %s: reg-offset 0x%x outside reg (0x%llx bytes)\n",
		       fdt_node_name(fdt, node), (unsigned)offset, (unsigned long long)size);
		return -1;
	}
	uart.base = base + offset;
	uart.shift = shift;
	uart.width = width;
	console_register(&ns16550_console);
	return 0;
}

static const char *const ns16550_compat[] = { "ns16550a", "ns16550", "xlnx,xps-uart16550-2.00.a", NULL };
DRIVER(ns16550_driver, .name = "ns16550", .compatible = ns16550_compat,
       .class = DRV_CONSOLE, .probe = ns16550_probe);
