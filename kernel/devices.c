/*
 * devices.c - binding device-tree nodes to drivers by "compatible".
 */
#include "driver.h"
#include "arch.h"
#include "printk.h"

extern const struct driver __start_drivers[], __stop_drivers[];

static bool str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* A node is enabled unless its status says otherwise ("okay"/"ok" or absent). */
static bool node_enabled(const struct fdt *fdt, int node)
{
	int len;
	const char *st = fdt_getprop(fdt, node, "status", &len);

	return !st || str_eq(st, "okay") || str_eq(st, "ok");
}

const struct driver *driver_match(const struct fdt *fdt, int node, enum driver_class class)
{
	for (const struct driver *d = __start_drivers; d < __stop_drivers; d++) {
		if (d->class != class)
			continue;
		for (int i = 0; d->compatible[i]; i++)
			if (fdt_node_is_compatible(fdt, node, d->compatible[i]))
				return d;
	}
	return NULL;
}

bool console_bind(const struct fdt *fdt)
{
	int node = fdt_stdout_node(fdt);
	const struct driver *d;

	if (node < 0) {
		printk("console: /chosen/stdout-path names no node\n");
		return false;
	}
	d = driver_match(fdt, node, DRV_CONSOLE);
	if (!d) {
		printk("console: no driver for stdout node '%s'\n", fdt_node_name(fdt, node));
		return false;
	}
	return d->probe(fdt, node) == 0;
}

int drivers_bind_class(const struct fdt *fdt, enum driver_class class)
{
	int bound = 0;

	for (const struct driver *d = __start_drivers; d < __stop_drivers; d++) {
		if (d->class != class)
			continue;
		for (int i = 0; d->compatible[i]; i++) {
			int node = -1;

			while ((node = fdt_node_by_compatible(fdt, node, d->compatible[i])) >= 0)
				if (node_enabled(fdt, node) && d->probe(fdt, node) == 0)
					bound++;
		}
	}
	return bound;
}

void *dt_ioremap(const struct fdt *fdt, int node, int idx, u64 *size)
{
	u64 addr, len;
	int err = fdt_read_reg(fdt, node, idx, &addr, &len);

	if (err) {
		printk("%s: cannot read reg[%d]: %s\n", fdt_node_name(fdt, node), idx,
		       fdt_strerror(-err));
		return NULL;
	}
	if (size)
		*size = len;
	return ioremap(addr, len);
}
