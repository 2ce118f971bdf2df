/*
 * kfdt.h - kernel/fdt.c compiled into a host program beside libfdt.
 *
 * libfdt exports several of the same function names as the kernel's reader
 * (fdt_getprop, fdt_path_offset, ...), so one program cannot link both
 * under those names. Including this file compiles kernel/fdt.c itself with
 * every public name renamed kfdt_*; afterwards <libfdt.h> can be included:
 * kfdt_* is the code under test, fdt_* is libfdt. Used by test_fdt.c and
 * the libFuzzer target fuzz_fdt.c.
 */
#ifndef TESTS_HOST_KFDT_H
#define TESTS_HOST_KFDT_H

#define fdt_open kfdt_open
#define fdt_strerror kfdt_strerror
#define fdt_path_offset kfdt_path_offset
#define fdt_first_subnode kfdt_first_subnode
#define fdt_next_subnode kfdt_next_subnode
#define fdt_parent kfdt_parent
#define fdt_node_name kfdt_node_name
#define fdt_getprop kfdt_getprop
#define fdt_first_prop kfdt_first_prop
#define fdt_next_prop kfdt_next_prop
#define fdt_prop_at kfdt_prop_at
#define fdt_be32 kfdt_be32
#define fdt_be64 kfdt_be64
#define fdt_prop_u32 kfdt_prop_u32
#define fdt_address_cells kfdt_address_cells
#define fdt_size_cells kfdt_size_cells
#define fdt_read_reg kfdt_read_reg
#define fdt_node_is_compatible kfdt_node_is_compatible
#define fdt_node_by_compatible kfdt_node_by_compatible
#define fdt_node_by_phandle kfdt_node_by_phandle
#define fdt_stdout_node kfdt_stdout_node
#define fdt_scan_boot_info kfdt_scan_boot_info
#include "../../kernel/fdt.c"
#undef fdt_open
#undef fdt_strerror
#undef fdt_path_offset
#undef fdt_first_subnode
#undef fdt_next_subnode
#undef fdt_parent
#undef fdt_node_name
#undef fdt_getprop
#undef fdt_first_prop
#undef fdt_next_prop
#undef fdt_prop_at
#undef fdt_be32
#undef fdt_be64
#undef fdt_prop_u32
#undef fdt_address_cells
#undef fdt_size_cells
#undef fdt_read_reg
#undef fdt_node_is_compatible
#undef fdt_node_by_compatible
#undef fdt_node_by_phandle
#undef fdt_stdout_node
#undef fdt_scan_boot_info
/* kernel/fdt.c's private token names; libfdt's fdt.h defines its own. */
#undef FDT_MAGIC
#undef FDT_BEGIN_NODE
#undef FDT_END_NODE
#undef FDT_PROP
#undef FDT_NOP
#undef FDT_END

#endif
