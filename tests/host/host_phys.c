/*
 * host_phys.c - fake physical memory for host unit tests (see host_phys.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "host_phys.h"
#include "page_alloc.h"

struct window {
	phys_addr_t base;
	u64 size;
	unsigned char *buf;
};

static struct window windows[] = {
	{ HOST_PHYS_LOW_BASE, HOST_PHYS_LOW_SIZE, NULL },
	{ HOST_PHYS_HIGH_BASE, HOST_PHYS_HIGH_SIZE, NULL },
};

#define NWINDOWS (sizeof(windows) / sizeof(windows[0]))

void host_phys_init(void)
{
	size_t i;

	for (i = 0; i < NWINDOWS; i++) {
		if (windows[i].buf)
			continue;
		windows[i].buf = aligned_alloc(1 << 21, windows[i].size);
		if (!windows[i].buf) {
			fprintf(stderr, "host_phys: cannot allocate %llu bytes\n",
				(unsigned long long)windows[i].size);
			abort();
		}
	}
}

void host_phys_fill(int byte)
{
	size_t i;

	host_phys_init();
	for (i = 0; i < NWINDOWS; i++)
		memset(windows[i].buf, byte, windows[i].size);
}

void *phys_to_virt(phys_addr_t pa)
{
	size_t i;

	host_phys_init();
	for (i = 0; i < NWINDOWS; i++)
		if (pa >= windows[i].base && pa - windows[i].base < windows[i].size)
			return windows[i].buf + (pa - windows[i].base);
	fprintf(stderr, "host_phys: phys_to_virt(0x%llx): no fake RAM there\n",
		(unsigned long long)pa);
	abort();
}

phys_addr_t virt_to_phys(const void *va)
{
	uintptr_t p = (uintptr_t)va;
	size_t i;

	for (i = 0; i < NWINDOWS; i++) {
		uintptr_t b = (uintptr_t)windows[i].buf;

		if (windows[i].buf && p >= b && p - b < windows[i].size)
			return windows[i].base + (p - b);
	}
	fprintf(stderr, "host_phys: virt_to_phys(%p): not in fake RAM\n", va);
	abort();
}
