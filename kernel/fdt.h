/*
 * fdt.h - the kernel's reader for flattened device trees (DTB, spec v17).
 *
 * fdt_open() checks the whole blob once: the header, where each block lies,
 * the memory-reservation list and every token of the structure block. After
 * that the accessors can follow offsets without fear; they still check
 * bounds on every read, so a wrong offset from a caller yields "not found"
 * instead of a read outside the blob.
 *
 * Offsets: a node is named by the offset of its FDT_BEGIN_NODE token and a
 * property by the offset of its FDT_PROP token, both counted from the start
 * of the structure block (the same numbers libfdt uses). Pass only offsets
 * this API returned: any other value is still safe (nothing outside the blob
 * is read) but may give a meaningless answer rather than "not found".
 *
 * Return conventions:
 *   - fdt_open() and fdt_scan_boot_info() return FDT_OK (0) or a positive
 *     FDT_E_* code and write a sentence saying what is wrong into err;
 *   - functions returning an offset give a value >= 0 or -FDT_E_NOTFOUND;
 *   - fdt_read_reg() returns FDT_OK, -FDT_E_NOTFOUND or -FDT_E_BADVALUE.
 * fdt_strerror() accepts a code of either sign.
 */
#ifndef KERNEL_FDT_H
#define KERNEL_FDT_H

#include "types.h"

struct fdt {
	const u8 *base;		/* first byte of the blob (the header) */
	u32 totalsize;		/* bytes of the blob we may read */
	u32 off_struct, size_struct;	/* structure block */
	u32 off_strings, size_strings;	/* strings block */
	u32 off_rsvmap;		/* memory-reservation list (8-byte aligned) */
	u32 version;
};

enum {
	FDT_OK = 0,
	FDT_E_MAGIC = 1,	/* not a device tree */
	FDT_E_TRUNCATED,	/* the blob is cut short */
	FDT_E_VERSION,		/* a format version we cannot read */
	FDT_E_BADOFFSET,	/* a header offset points to the wrong place */
	FDT_E_STRUCTURE,	/* the structure block is malformed */
	FDT_E_NOTFOUND,		/* no such node or property */
	FDT_E_BADVALUE,		/* a property has an impossible value */
	FDT_E_NOMEMORY,		/* no usable /memory node */
};

/* Deepest node nesting fdt_open() accepts (the root is depth 1). */
#define FDT_MAX_DEPTH 64

/*
 * Check the blob at `blob` (4-byte aligned is enough), of which at most
 * max_size bytes may be read, and fill *fdt. Returns FDT_OK or a positive
 * FDT_E_* code with a message in err (errlen bytes, may be 0). On error
 * *fdt is left empty, so every accessor on it reports "not found".
 */
int fdt_open(struct fdt *fdt, const void *blob, u32 max_size, char *err, size_t errlen);

/* A short description of an FDT_E_* code (either sign). */
const char *fdt_strerror(int code);

/*
 * Find a node by path: "/", "/chosen", "/cpus/cpu@0". A component without a
 * unit address ("memory") matches "memory@40000000" when it is the only such
 * child; an exact name always wins. A path not starting with '/' begins with
 * an alias from /aliases ("serial0", "serial0/child").
 */
int fdt_path_offset(const struct fdt *fdt, const char *path);

/* Children of a node, in document order; -FDT_E_NOTFOUND after the last. */
int fdt_first_subnode(const struct fdt *fdt, int node);
int fdt_next_subnode(const struct fdt *fdt, int node);

/* The parent node, or -FDT_E_NOTFOUND for the root (or a bad offset). */
int fdt_parent(const struct fdt *fdt, int node);

/* The node's name with its unit address ("" for the root), NULL if there
 * is no FDT_BEGIN_NODE token at `node`. */
const char *fdt_node_name(const struct fdt *fdt, int node);

/* A property's value and its length in *lenp (optional). NULL if missing,
 * and then *lenp is -FDT_E_NOTFOUND. An empty property gives a non-NULL
 * pointer and length 0. */
const void *fdt_getprop(const struct fdt *fdt, int node, const char *name, int *lenp);

/* Properties of a node, in order; -FDT_E_NOTFOUND after the last. */
int fdt_first_prop(const struct fdt *fdt, int node);
int fdt_next_prop(const struct fdt *fdt, int prop);

/* The value, name and length of the property at offset `prop`; NULL if
 * `prop` is not a property. name and lenp may be NULL. */
const void *fdt_prop_at(const struct fdt *fdt, int prop, const char **name, int *lenp);

/* Read big-endian cells from any alignment. */
u32 fdt_be32(const void *p);
u64 fdt_be64(const void *p);

/* A property holding exactly one cell; false if missing or another size. */
bool fdt_prop_u32(const struct fdt *fdt, int node, const char *name, u32 *out);

/* The #address-cells / #size-cells a node gives its children (defaults 2
 * and 1 when the property is missing or not one cell). */
u32 fdt_address_cells(const struct fdt *fdt, int node);
u32 fdt_size_cells(const struct fdt *fdt, int node);

/*
 * Decode entry idx of the node's "reg", using its parent's cell counts.
 * FDT_OK, -FDT_E_NOTFOUND (no reg, or idx past the end), -FDT_E_BADVALUE
 * (cell counts above 2, or a length that is not a whole number of entries).
 */
int fdt_read_reg(const struct fdt *fdt, int node, int idx, u64 *addr, u64 *size);

/* Does the node's "compatible" string list contain `compat`? */
bool fdt_node_is_compatible(const struct fdt *fdt, int node, const char *compat);

/* The first compatible node after offset `after` in document order
 * (after = -1 searches from the root itself). */
int fdt_node_by_compatible(const struct fdt *fdt, int after, const char *compat);

/* The node whose "phandle" (or "linux,phandle") is `phandle`. */
int fdt_node_by_phandle(const struct fdt *fdt, u32 phandle);

/* The console: /chosen "stdout-path" (or "linux,stdout-path") without its
 * ":options", resolved through /aliases when it is an alias. */
int fdt_stdout_node(const struct fdt *fdt);

#define FDT_MAX_BANKS 16
#define FDT_MAX_RESERVED 32

struct fdt_range {
	u64 base, size;
};

/* What boot needs from the tree. Only the first nmem / nreserved entries
 * of the arrays are written. */
struct fdt_boot_info {
	struct fdt_range mem[FDT_MAX_BANKS];	/* RAM banks, document order */
	int nmem;
	struct fdt_range reserved[FDT_MAX_RESERVED]; /* /memreserve/ + /reserved-memory */
	int nreserved;
	const char *bootargs;			/* /chosen/bootargs or NULL */
	u64 initrd_start, initrd_end;		/* [start, end) when has_initrd */
	bool has_initrd;
	int stdout_node;			/* node offset or -FDT_E_NOTFOUND */
};

/*
 * Gather the boot information:
 *   mem       every reg entry of every root child with device_type "memory"
 *             whose status is okay (or absent); zero-size entries skipped;
 *   reserved  the memory-reservation list, then the reg entries of the
 *             enabled children of /reserved-memory (children without reg,
 *             which ask for a dynamic allocation, are skipped);
 *   bootargs, initrd (one or two cells each), stdout node.
 * Returns FDT_OK or a positive FDT_E_* code with a message in err.
 */
int fdt_scan_boot_info(const struct fdt *fdt, struct fdt_boot_info *bi, char *err, size_t errlen);

#endif
