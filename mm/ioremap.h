/*
 * ioremap.h - device register mappings in the kernel's ioremap area.
 */
#ifndef MM_IOREMAP_H
#define MM_IOREMAP_H

#include "pgtable.h"

/* The kernel address space ioremap() maps into (the live kernel root). */
void ioremap_set_space(const struct pt_space *kernel);

#endif
