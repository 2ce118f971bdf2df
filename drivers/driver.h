/*
 * driver.h - drivers bound to device-tree nodes by their "compatible"
 * strings. A driver declares itself with DRIVER(); kernel/devices.c walks
 * the tree and calls probe() for each enabled node whose compatible list
 * names the driver. Drivers know nothing about boards.
 */
#ifndef DRIVER_H
#define DRIVER_H

#include "types.h"
#include "fdt.h"

enum driver_class { DRV_CONSOLE, DRV_IRQCHIP, DRV_TIMER, DRV_OTHER };

struct driver {
	const char *name;
	const char *const *compatible;	/* NULL-terminated */
	enum driver_class class;
	/* Bind to node; return 0 or a negative errno-style code (with a message printed). */
	int (*probe)(const struct fdt *fdt, int node);
};

#define DRIVER(ident, ...)                                                 \
	static const struct driver ident                                    \
		__attribute__((used, section(".drivers"),                     \
			       aligned(__alignof__(struct driver)))) = { __VA_ARGS__ }

/* Find the driver for node (first compatible string that any driver lists). */
const struct driver *driver_match(const struct fdt *fdt, int node, enum driver_class class);

/* Bind the console named by /chosen/stdout-path; false if none could be bound. */
bool console_bind(const struct fdt *fdt);

/* Probe every enabled node of class with its driver; returns the number bound. */
int drivers_bind_class(const struct fdt *fdt, enum driver_class class);

/* Read a node's reg entry idx and map it; NULL (with a message) on failure. */
void *dt_ioremap(const struct fdt *fdt, int node, int idx, u64 *size);

#endif
