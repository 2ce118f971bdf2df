/*
 * test_fdt.c - host tests for kernel/fdt.c, the kernel's device-tree reader.
 *
 * usage: test_fdt DTB-DIRECTORY      (filled by tools/dump-qemu-dtbs.sh)
 *
 * libfdt, the reference we compare against, exports several of the same
 * function names as our reader (fdt_getprop, fdt_path_offset, ...), so one
 * program cannot link both under those names. kfdt.h therefore compiles
 * kernel/fdt.c into this file, with every public name renamed kfdt_*, and
 * this file declares libfdt's functions: kfdt_* is the code under test,
 * fdt_* is libfdt. Built with -DKFDT_LIBFUZZER, the same file is the
 * libFuzzer target fuzz_fdt (see the end of the file).
 *
 * The tests:
 *   1. unit checks of the API on a tree built here (paths, offsets, errors);
 *   2. every .dtb in the directory (at least 5) is walked by both readers
 *      and everything is compared: nodes, nesting, properties, paths,
 *      parents, cells, reg, compatible search, phandles, stdout, boot info;
 *   3. a corpus of malformed blobs must be rejected with the right code and
 *      a message that names the problem;
 *   4. a fixed-seed mutation fuzz: whatever fdt_open() accepts, every
 *      accessor must walk without ASan/UBSan complaints (and agree with
 *      libfdt whenever libfdt accepts the blob too).
 * All test blobs are generated here; none are committed.
 */
#include "kfdt.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "host_env.h"

/*
 * The parts of libfdt's public API this test uses. They are declared here
 * rather than taken from <libfdt.h> because that header includes <fdt.h>,
 * and with -Ikernel on the command line <fdt.h> is our kernel/fdt.h.
 */
#define FDT_ERR_NOTFOUND 1
int fdt_check_full(const void *fdt, size_t bufsize);
int fdt_open_into(const void *fdt, void *buf, int bufsize);
int fdt_pack(void *fdt);
int fdt_num_mem_rsv(const void *fdt);
int fdt_get_mem_rsv(const void *fdt, int n, uint64_t *address, uint64_t *size);
int fdt_path_offset(const void *fdt, const char *path);
int fdt_path_offset_namelen(const void *fdt, const char *path, int namelen);
const char *fdt_get_name(const void *fdt, int nodeoffset, int *lenp);
int fdt_parent_offset(const void *fdt, int nodeoffset);
int fdt_first_subnode(const void *fdt, int offset);
int fdt_next_subnode(const void *fdt, int offset);
int fdt_first_property_offset(const void *fdt, int nodeoffset);
int fdt_next_property_offset(const void *fdt, int offset);
const void *fdt_getprop_by_offset(const void *fdt, int offset, const char **namep, int *lenp);
const void *fdt_getprop(const void *fdt, int nodeoffset, const char *name, int *lenp);
int fdt_address_cells(const void *fdt, int nodeoffset);
int fdt_size_cells(const void *fdt, int nodeoffset);
uint32_t fdt_get_phandle(const void *fdt, int nodeoffset);
int fdt_node_offset_by_phandle(const void *fdt, uint32_t phandle);
int fdt_node_offset_by_compatible(const void *fdt, int startoffset, const char *compatible);

#define ERRLEN 256

/* ------------------------------------------------------------------ */
/* small utilities                                                      */
/* ------------------------------------------------------------------ */

static u32 rd32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static void wr32(void *p, u32 v)
{
	u8 *b = p;

	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

static void wr64(void *p, u64 v)
{
	wr32(p, v >> 32);
	wr32((u8 *)p + 4, (u32)v);
}

/* A heap copy of exactly n bytes, so ASan notices any read past the end. */
static u8 *exact_copy(const void *src, size_t n)
{
	u8 *p = malloc(n ? n : 1);

	if (!p)
		abort();
	memcpy(p, src, n);
	return p;
}

static u8 *read_file(const char *path, u32 *size)
{
	FILE *f = fopen(path, "rb");
	long n;
	u8 *buf;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	*size = (u32)n;
	return buf;
}

/* xorshift64*: a fixed-seed generator, so every run fuzzes the same inputs. */
static u64 rng = 0x2545f4914f6cdd1dull;

static u32 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (u32)((rng * 0x2545f4914f6cdd1dull) >> 32);
}

/* ------------------------------------------------------------------ */
/* a DTB builder for hand-made trees, good and bad                      */
/* ------------------------------------------------------------------ */

struct builder {
	u8 st[1 << 14];		/* structure block */
	u32 nst;
	char str[1024];		/* strings block */
	u32 nstr;
	u64 rsv[40][2];		/* memory reservations */
	int nrsv;
	u32 str_lead;		/* NUL bytes before the first string */
};

static void b_init(struct builder *b)
{
	memset(b, 0, sizeof(*b));
}

static void b_cell(struct builder *b, u32 v)
{
	wr32(b->st + b->nst, v);
	b->nst += 4;
}

/* Append n bytes, then zero padding to a 4-byte boundary. */
static void b_bytes(struct builder *b, const void *d, u32 n)
{
	memcpy(b->st + b->nst, d, n);
	b->nst += n;
	while (b->nst & 3)
		b->st[b->nst++] = 0;
}

static u32 b_string(struct builder *b, const char *s)
{
	for (u32 i = b->str_lead; i < b->nstr; i += strlen(b->str + i) + 1)
		if (!strcmp(b->str + i, s))
			return i;
	if (b->nstr == 0)
		b->nstr = b->str_lead;
	memcpy(b->str + b->nstr, s, strlen(s) + 1);
	b->nstr += strlen(s) + 1;
	return b->nstr - strlen(s) - 1;
}

static void b_begin(struct builder *b, const char *name)
{
	b_cell(b, 1);
	b_bytes(b, name, strlen(name) + 1);
}

static void b_endnode(struct builder *b)
{
	b_cell(b, 2);
}

static void b_finish(struct builder *b)
{
	b_cell(b, 9);
}

static void b_prop(struct builder *b, const char *name, const void *v, u32 len)
{
	b_cell(b, 3);
	b_cell(b, len);
	b_cell(b, b_string(b, name));
	b_bytes(b, v, len);
}

static void b_str(struct builder *b, const char *name, const char *s)
{
	b_prop(b, name, s, strlen(s) + 1);
}

/* A property of n 32-bit cells given as arguments. */
static void b_cells(struct builder *b, const char *name, int n, ...)
{
	u8 v[64];
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		wr32(v + 4 * i, va_arg(ap, u32));
	va_end(ap);
	b_prop(b, name, v, 4 * n);
}

static void b_rsv(struct builder *b, u64 addr, u64 size)
{
	b->rsv[b->nrsv][0] = addr;
	b->rsv[b->nrsv][1] = size;
	b->nrsv++;
}

/* Lay out header (v17), reservation list, structure and strings blocks in
 * a heap buffer of exactly totalsize bytes. */
static u8 *b_blob(struct builder *b, u32 *size)
{
	u32 off_rsv = 40, off_st = off_rsv + 16 * (b->nrsv + 1);
	u32 off_str = off_st + b->nst, total = off_str + b->nstr;
	u8 *p = calloc(1, total);

	wr32(p + 0, 0xd00dfeed);
	wr32(p + 4, total);
	wr32(p + 8, off_st);
	wr32(p + 12, off_str);
	wr32(p + 16, off_rsv);
	wr32(p + 20, 17);
	wr32(p + 24, 16);
	wr32(p + 32, b->nstr);
	wr32(p + 36, b->nst);
	for (int i = 0; i < b->nrsv; i++) {
		wr64(p + off_rsv + 16 * i, b->rsv[i][0]);
		wr64(p + off_rsv + 16 * i + 8, b->rsv[i][1]);
	}
	memcpy(p + off_st, b->st, b->nst);
	memcpy(p + off_str, b->str, b->nstr);
	*size = total;
	return p;
}

/* Root with the given cell counts (properties still open for more). */
static void b_root(struct builder *b, u32 ac, u32 sc)
{
	b_begin(b, "");
	b_cells(b, "#address-cells", 1, ac);
	b_cells(b, "#size-cells", 1, sc);
}

static void b_memory(struct builder *b, const char *name, u64 base, u64 size)
{
	b_begin(b, name);
	b_str(b, "device_type", "memory");
	b_cells(b, "reg", 4, (u32)(base >> 32), (u32)base, (u32)(size >> 32), (u32)size);
	b_endnode(b);
}

/*
 * The reference board for the unit tests (cells 2/2 at the root):
 *   /memreserve/ 0x50000000+0x1000, 0x51000000+0 (empty, skipped)
 *   /aliases        serial0 = "/soc/serial@1000"
 *   /chosen         bootargs, stdout-path "serial0:115200n8", initrd 32-bit
 *   /cpus           cpu@0, cpu@1 (cells 1/0)
 *   /memory@40000000  two banks (+ one of size 0)
 *   /memory@80000000  disabled
 *   /reserved-memory  fw@4f000000, pool (no reg), off@4e000000 (disabled)
 *   /soc            serial@1000 (phandle 7, child "port"), serial@2000
 *                   (linux,phandle 8), intc@3000 (two reg entries)
 */
static void build_board(struct builder *b)
{
	static const char compat2[] = "vendor,uart\0ns16550a";

	b_init(b);
	b_rsv(b, 0x50000000, 0x1000);
	b_rsv(b, 0x51000000, 0);
	b_root(b, 2, 2);
	b_str(b, "compatible", "test,board");
	b_begin(b, "aliases");
	b_str(b, "serial0", "/soc/serial@1000");
	b_endnode(b);
	b_begin(b, "chosen");
	b_str(b, "bootargs", "console=ttyS0 rodata=full");
	b_str(b, "stdout-path", "serial0:115200n8");
	b_cells(b, "linux,initrd-start", 1, 0x48000000);
	b_cells(b, "linux,initrd-end", 1, 0x48200000);
	b_endnode(b);
	b_begin(b, "cpus");
	b_cells(b, "#address-cells", 1, 1);
	b_cells(b, "#size-cells", 1, 0);
	b_begin(b, "cpu@0");
	b_cells(b, "reg", 1, 0);
	b_endnode(b);
	b_begin(b, "cpu@1");
	b_cells(b, "reg", 1, 1);
	b_endnode(b);
	b_endnode(b);
	b_begin(b, "memory@40000000");
	b_str(b, "device_type", "memory");
	b_cells(b, "reg", 12, 0, 0x40000000, 0, 0x10000000, 0, 0x60000000, 0, 0,
		1, 0, 0, 0x20000000);
	b_endnode(b);
	b_begin(b, "memory@80000000");
	b_str(b, "device_type", "memory");
	b_str(b, "status", "disabled");
	b_cells(b, "reg", 4, 0, 0x80000000, 0, 0x1000);
	b_endnode(b);
	b_begin(b, "reserved-memory");
	b_cells(b, "#address-cells", 1, 2);
	b_cells(b, "#size-cells", 1, 2);
	b_begin(b, "fw@4f000000");
	b_cells(b, "reg", 4, 0, 0x4f000000, 0, 0x100000);
	b_endnode(b);
	b_begin(b, "pool");
	b_cells(b, "size", 2, 0, 0x400000);
	b_endnode(b);
	b_begin(b, "off@4e000000");
	b_str(b, "status", "disabled");
	b_cells(b, "reg", 4, 0, 0x4e000000, 0, 0x1000);
	b_endnode(b);
	b_endnode(b);
	b_begin(b, "soc");
	b_cells(b, "#address-cells", 1, 1);
	b_cells(b, "#size-cells", 1, 1);
	b_str(b, "compatible", "simple-bus");
	b_begin(b, "serial@1000");
	b_str(b, "compatible", "ns16550a");
	b_cells(b, "reg", 2, 0x1000, 0x100);
	b_cells(b, "phandle", 1, 7);
	b_begin(b, "port");
	b_endnode(b);
	b_endnode(b);
	b_begin(b, "serial@2000");
	b_prop(b, "compatible", compat2, sizeof(compat2));
	b_cells(b, "reg", 2, 0x2000, 0x100);
	b_cells(b, "linux,phandle", 1, 8);
	b_endnode(b);
	b_begin(b, "intc@3000");
	b_cells(b, "reg", 4, 0x3000, 0x10, 0x4000, 0x20);
	b_endnode(b);
	b_endnode(b);
	b_endnode(b);
	b_finish(b);
}

static u8 *board_blob(u32 *size)
{
	static struct builder b;

	build_board(&b);
	return b_blob(&b, size);
}

/* ------------------------------------------------------------------ */
/* 1. unit checks on the reference board                                */
/* ------------------------------------------------------------------ */

static bool range_is(const struct fdt_range *r, u64 base, u64 size)
{
	return r->base == base && r->size == size;
}

static void test_paths(const struct fdt *f)
{
	int soc = kfdt_path_offset(f, "/soc");
	int uart = kfdt_path_offset(f, "/soc/serial@1000");

	tap_ok(kfdt_path_offset(f, "/") == 0 && !strcmp(kfdt_node_name(f, 0), ""),
	       "path \"/\" is the root at offset 0 and its name is \"\"");
	tap_ok(soc > 0 && uart > soc && !strcmp(kfdt_node_name(f, uart), "serial@1000"),
	       "path /soc/serial@1000 found (%d)", uart);
	tap_ok(kfdt_path_offset(f, "//soc//serial@1000/") == uart,
	       "repeated and trailing slashes are ignored");
	tap_ok(kfdt_path_offset(f, "/memory") == -FDT_E_NOTFOUND,
	       "/memory is ambiguous between memory@40000000 and memory@80000000");
	tap_ok(kfdt_path_offset(f, "/soc/intc") == kfdt_path_offset(f, "/soc/intc@3000") &&
	       kfdt_path_offset(f, "/soc/intc") > 0,
	       "a unique unit address may be omitted (/soc/intc)");
	tap_ok(kfdt_path_offset(f, "/soc/serial@10") == -FDT_E_NOTFOUND &&
	       kfdt_path_offset(f, "/so") == -FDT_E_NOTFOUND &&
	       kfdt_path_offset(f, "/soc/serial@1000/nope") == -FDT_E_NOTFOUND &&
	       kfdt_path_offset(f, "") == -FDT_E_NOTFOUND &&
	       kfdt_path_offset(f, NULL) == -FDT_E_NOTFOUND,
	       "missing paths, prefixes and empty paths are not found");
	tap_ok(kfdt_path_offset(f, "serial0") == uart &&
	       kfdt_path_offset(f, "serial0/port") == kfdt_first_subnode(f, uart) &&
	       kfdt_path_offset(f, "serial9") == -FDT_E_NOTFOUND,
	       "aliases resolve through /aliases, with a sub-path too");
	tap_ok(kfdt_parent(f, uart) == soc && kfdt_parent(f, soc) == 0 &&
	       kfdt_parent(f, 0) == -FDT_E_NOTFOUND,
	       "fdt_parent: uart -> soc -> root -> not found");
}

static void test_props(const struct fdt *f)
{
	int uart = kfdt_path_offset(f, "/soc/serial@1000");
	int uart2 = kfdt_path_offset(f, "/soc/serial@2000");
	int prop = kfdt_first_prop(f, uart), len, n = 0;
	const char *name;
	const void *v;
	u32 u;

	for (int p = prop; p >= 0; p = kfdt_next_prop(f, p))
		n++;
	v = kfdt_prop_at(f, prop, &name, &len);
	tap_ok(n == 3 && v && !strcmp(name, "compatible") && len == 9 && !strcmp(v, "ns16550a"),
	       "properties iterate in order (%d found, first %s)", n, v ? name : "?");
	tap_ok(kfdt_getprop(f, uart, "nope", &len) == NULL && len == -FDT_E_NOTFOUND,
	       "a missing property gives NULL and -FDT_E_NOTFOUND");
	tap_ok(kfdt_prop_u32(f, uart, "phandle", &u) && u == 7 &&
	       !kfdt_prop_u32(f, uart, "reg", &u) && !kfdt_prop_u32(f, uart, "x", &u),
	       "fdt_prop_u32 reads one cell and refuses other sizes");
	tap_ok(kfdt_node_is_compatible(f, uart2, "ns16550a") &&
	       kfdt_node_is_compatible(f, uart2, "vendor,uart") &&
	       !kfdt_node_is_compatible(f, uart2, "ns16550") &&
	       !kfdt_node_is_compatible(f, uart2, "vendor"),
	       "compatible matches whole list entries only");
	tap_ok(kfdt_node_by_compatible(f, -1, "ns16550a") == uart &&
	       kfdt_node_by_compatible(f, uart, "ns16550a") == uart2 &&
	       kfdt_node_by_compatible(f, uart2, "ns16550a") == -FDT_E_NOTFOUND &&
	       kfdt_node_by_compatible(f, -1, "test,board") == 0,
	       "fdt_node_by_compatible walks matches in document order, root included");
	tap_ok(kfdt_node_by_phandle(f, 7) == uart && kfdt_node_by_phandle(f, 8) == uart2 &&
	       kfdt_node_by_phandle(f, 9) == -FDT_E_NOTFOUND &&
	       kfdt_node_by_phandle(f, 0) == -FDT_E_NOTFOUND &&
	       kfdt_node_by_phandle(f, 0xffffffff) == -FDT_E_NOTFOUND,
	       "phandle and linux,phandle lookups; 0 and ~0 are never found");
	tap_ok(kfdt_stdout_node(f) == uart, "stdout-path \"serial0:115200n8\" -> /soc/serial@1000");
}

static void test_reg(const struct fdt *f)
{
	int cpu1 = kfdt_path_offset(f, "/cpus/cpu@1");
	int intc = kfdt_path_offset(f, "/soc/intc@3000");
	int mem = kfdt_path_offset(f, "/memory@40000000");
	u64 a = 1, s = 1;

	tap_ok(kfdt_read_reg(f, cpu1, 0, &a, &s) == FDT_OK && a == 1 && s == 0 &&
	       kfdt_read_reg(f, cpu1, 1, &a, &s) == -FDT_E_NOTFOUND,
	       "cpu reg with #address-cells 1, #size-cells 0");
	tap_ok(kfdt_read_reg(f, intc, 1, &a, &s) == FDT_OK && a == 0x4000 && s == 0x20 &&
	       kfdt_read_reg(f, intc, 2, &a, &s) == -FDT_E_NOTFOUND &&
	       kfdt_read_reg(f, intc, -1, &a, &s) == -FDT_E_NOTFOUND,
	       "second reg entry with 1/1 cells; past the end is not found");
	tap_ok(kfdt_read_reg(f, mem, 2, &a, &s) == FDT_OK && a == 0x100000000ull &&
	       s == 0x20000000, "64-bit reg entry above 4 GiB");
	tap_ok(kfdt_read_reg(f, 0, 0, &a, &s) == -FDT_E_NOTFOUND,
	       "a node without reg has no entry 0");
	tap_ok(kfdt_address_cells(f, kfdt_path_offset(f, "/cpus")) == 1 &&
	       kfdt_size_cells(f, kfdt_path_offset(f, "/cpus")) == 0 &&
	       kfdt_address_cells(f, cpu1) == 2 && kfdt_size_cells(f, cpu1) == 1,
	       "#address-cells/#size-cells, with defaults 2 and 1");
}

/* Offsets that are not nodes or properties must be refused, not followed. */
static void test_bad_offsets(const struct fdt *f)
{
	int uart = kfdt_path_offset(f, "/soc/serial@1000");
	int prop = kfdt_first_prop(f, uart);
	bool ok = true;

	for (int off = -8; off < (int)f->size_struct + 16; off++) {
		const char *name = kfdt_node_name(f, off);
		u64 a, s;

		if (name && ((off & 3) || off < 0 || off >= (int)f->size_struct))
			ok = false;	/* names only at aligned offsets inside */
		kfdt_parent(f, off);
		kfdt_first_subnode(f, off);
		kfdt_next_subnode(f, off);
		kfdt_first_prop(f, off);
		kfdt_next_prop(f, off);
		kfdt_prop_at(f, off, NULL, NULL);
		kfdt_getprop(f, off, "reg", NULL);
		kfdt_read_reg(f, off, 0, &a, &s);
		kfdt_node_by_compatible(f, off, "ns16550a");
	}
	tap_ok(ok, "every offset from -8 to past the block end is handled safely");
	ok = kfdt_node_by_compatible(f, -1, "x") == -FDT_E_NOTFOUND;
	for (int n = 0; n >= 0; n = next_node(f, n))
		ok = ok && kfdt_node_name(f, n) && (n == 0 || kfdt_parent(f, n) >= 0);
	tap_ok(ok, "every node in document order has a name and (but the root) a parent");
	tap_ok(kfdt_node_name(f, prop) == NULL && kfdt_prop_at(f, uart, NULL, NULL) == NULL &&
	       kfdt_first_subnode(f, prop) == -FDT_E_NOTFOUND && kfdt_parent(f, prop) < 0 &&
	       kfdt_node_name(f, uart + 1) == NULL,
	       "a property offset is not a node, a node offset is not a property");
}

static void test_board_boot_info(const struct fdt *f)
{
	struct fdt_boot_info bi;
	char err[ERRLEN];
	int rc = kfdt_scan_boot_info(f, &bi, err, sizeof(err));

	tap_ok(rc == FDT_OK && err[0] == '\0', "board: boot info scan succeeds (%s)", err);
	tap_ok(bi.nmem == 2 && range_is(&bi.mem[0], 0x40000000, 0x10000000) &&
	       range_is(&bi.mem[1], 0x100000000ull, 0x20000000),
	       "board: two RAM banks; the empty bank and the disabled node are skipped");
	tap_ok(bi.nreserved == 2 && range_is(&bi.reserved[0], 0x50000000, 0x1000) &&
	       range_is(&bi.reserved[1], 0x4f000000, 0x100000),
	       "board: reservations from /memreserve/ and /reserved-memory");
	tap_ok(bi.bootargs && !strcmp(bi.bootargs, "console=ttyS0 rodata=full"),
	       "board: bootargs");
	tap_ok(bi.has_initrd && bi.initrd_start == 0x48000000 && bi.initrd_end == 0x48200000,
	       "board: 32-bit initrd cells");
	tap_ok(bi.stdout_node == kfdt_path_offset(f, "/soc/serial@1000"), "board: stdout node");
}

static void test_misc(void)
{
	static const u8 bytes[] = { 0xff, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0 };
	bool names_ok = true;
	struct fdt empty;
	char err[ERRLEN];

	tap_ok(kfdt_be32(bytes + 1) == 0x12345678 && kfdt_be64(bytes + 1) == 0x123456789abcdef0ull,
	       "fdt_be32/fdt_be64 read big-endian from an odd address");
	for (int c = FDT_OK; c <= FDT_E_NOMEMORY; c++)
		if (!kfdt_strerror(c)[0] || strcmp(kfdt_strerror(c), kfdt_strerror(-c)))
			names_ok = false;
	tap_ok(names_ok && !strcmp(kfdt_strerror(-FDT_E_NOTFOUND), "not found") &&
	       !strcmp(kfdt_strerror(99), "unknown error") && kfdt_strerror(-2147483647 - 1)[0],
	       "fdt_strerror names every code, of either sign");
	tap_ok(kfdt_open(&empty, NULL, 100, err, sizeof(err)) == FDT_E_TRUNCATED && err[0] &&
	       kfdt_path_offset(&empty, "/") == -FDT_E_NOTFOUND &&
	       kfdt_first_subnode(&empty, 0) == -FDT_E_NOTFOUND,
	       "a failed open leaves an empty fdt that finds nothing");
	tap_ok(kfdt_open(&empty, "x", 1, NULL, 0) == FDT_E_TRUNCATED,
	       "err may be NULL with errlen 0");
}

/* A blob at an address that is 4- but not 8-byte aligned, and a version 16
 * header (36 bytes, no size_dt_struct) must both work. */
static void test_alignment_and_v16(const u8 *blob, u32 size)
{
	u8 *buf = malloc(size + 4);
	struct fdt f;
	struct fdt_boot_info bi;
	char err[ERRLEN];
	int rc;

	memcpy(buf + 4, blob, size);
	rc = kfdt_open(&f, buf + 4, size, err, sizeof(err));
	rc = rc ? rc : kfdt_scan_boot_info(&f, &bi, err, sizeof(err));
	tap_ok(rc == FDT_OK && bi.nmem == 2 && bi.stdout_node > 0,
	       "a blob only 4-byte aligned opens and scans (%s)", err);
	wr32(buf + 4 + 20, 16);		/* version */
	wr32(buf + 4 + 36, 0xffffffff);	/* no longer a header field */
	rc = kfdt_open(&f, buf + 4, size, err, sizeof(err));
	tap_ok(rc == FDT_OK && f.version == 16 && f.size_struct == f.off_strings - f.off_struct &&
	       kfdt_path_offset(&f, "/soc/serial@1000") > 0,
	       "a version 16 header is read without size_dt_struct (%s)", err);
	free(buf);
}

static void test_units(void)
{
	u32 size;
	u8 *blob = board_blob(&size);
	struct fdt f;
	char err[ERRLEN] = "junk";
	int rc = kfdt_open(&f, blob, size, err, sizeof(err));

	tap_ok(rc == FDT_OK && err[0] == '\0' && f.totalsize == size && f.version == 17,
	       "board: fdt_open accepts the hand-built tree (%s)", err);
	if (rc == FDT_OK) {
		test_paths(&f);
		test_props(&f);
		test_reg(&f);
		test_bad_offsets(&f);
		test_board_boot_info(&f);
		test_alignment_and_v16(blob, size);
	}
	test_misc();
	free(blob);
}

/* ------------------------------------------------------------------ */
/* 2. cross-check against libfdt                                        */
/* ------------------------------------------------------------------ */

#define MAX_COMPAT 512

/* What a comparison walk found wrong, by kind. */
struct cmp {
	const struct fdt *kf;
	const void *blob;
	const char *ctx;	/* file name, for messages */
	bool strict;		/* a real tree: paths must name their own node */
	bool quiet;
	int bad;
	int names, props, paths, parents, cells, regs, compats, phandles;
	int nnodes, nprops, nregs;
	const char *compat[MAX_COMPAT];
	int ncompat;
};

static void __attribute__((format(printf, 3, 4)))
mismatch(struct cmp *c, int *kind, const char *fmt, ...)
{
	va_list ap;

	(*kind)++;
	if (c->bad++ >= 6 || c->quiet)
		return;
	printf("# %s: ", c->ctx);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* libfdt-side helpers that do not use libfdt's cell or reg code. */
static u32 ref_cells(const void *blob, int node, const char *name, u32 dflt)
{
	int len;
	const void *p = node >= 0 ? fdt_getprop(blob, node, name, &len) : NULL;

	return p && len == 4 ? rd32(p) : dflt;
}

static u64 ref_read_cells(const u8 *p, u32 n)
{
	u64 v = 0;

	while (n--) {
		v = v << 32 | rd32(p);
		p += 4;
	}
	return v;
}

/* Decode reg entry idx independently: 0 ok, -FDT_E_NOTFOUND, -FDT_E_BADVALUE. */
static int ref_reg(const void *blob, int node, int idx, u64 *a, u64 *s)
{
	int parent = fdt_parent_offset(blob, node), len;
	u32 ac = ref_cells(blob, parent, "#address-cells", 2);
	u32 sc = ref_cells(blob, parent, "#size-cells", 1);
	const u8 *reg = fdt_getprop(blob, node, "reg", &len);

	if (!reg)
		return -FDT_E_NOTFOUND;
	if (ac > 2 || sc > 2 || ac + sc == 0 || len % (4 * (ac + sc)))
		return -FDT_E_BADVALUE;
	if (idx >= len / (int)(4 * (ac + sc)))
		return -FDT_E_NOTFOUND;
	reg += idx * 4 * (ac + sc);
	*a = ref_read_cells(reg, ac);
	*s = ref_read_cells(reg + 4 * ac, sc);
	return 0;
}

static void collect_compat(struct cmp *c, const char *v, int len)
{
	for (int i = 0; i < len;) {
		const char *s = v + i;
		const char *nul = memchr(s, 0, len - i);
		bool seen = false;

		if (!nul)
			return;
		/* "" is skipped: libfdt matches it by reading the byte after
		 * a list that ends in a NUL, which is not a real match. */
		seen = !*s;
		for (int j = 0; j < c->ncompat && !seen; j++)
			seen = !strcmp(c->compat[j], s);
		if (!seen && c->ncompat < MAX_COMPAT)
			c->compat[c->ncompat++] = s;
		i += nul - s + 1;
	}
}

static void compare_props(struct cmp *c, int node)
{
	int kp = kfdt_first_prop(c->kf, node);
	int lp = fdt_first_property_offset(c->blob, node);

	for (; kp >= 0 && lp >= 0; kp = kfdt_next_prop(c->kf, kp),
	     lp = fdt_next_property_offset(c->blob, lp)) {
		const char *kname, *lname;
		int klen, llen, glen;
		const void *kv = kfdt_prop_at(c->kf, kp, &kname, &klen);
		const void *lv = fdt_getprop_by_offset(c->blob, lp, &lname, &llen);

		c->nprops++;
		if (kp != lp || !kv || !lv || strcmp(kname, lname) || klen != llen ||
		    memcmp(kv, lv, llen)) {
			mismatch(c, &c->props, "property at %d/%d (%s) differs", kp, lp,
				 lv ? lname : "?");
			return;
		}
		/* getprop finds the first property of that name: the same one? */
		if ((const u8 *)kfdt_getprop(c->kf, node, kname, &glen) - c->kf->base !=
		    (const u8 *)fdt_getprop(c->blob, node, lname, NULL) - (const u8 *)c->blob)
			mismatch(c, &c->props, "getprop(%s) differs", kname);
		if (!strcmp(kname, "compatible"))
			collect_compat(c, kv, klen);
	}
	if (kp >= 0 || lp >= 0)
		mismatch(c, &c->props, "node %d: property lists differ in length", node);
}

static void compare_cells(struct cmp *c, int node)
{
	u32 ac = ref_cells(c->blob, node, "#address-cells", 2);
	u32 sc = ref_cells(c->blob, node, "#size-cells", 1);
	int lac = fdt_address_cells(c->blob, node), lsc = fdt_size_cells(c->blob, node);

	if (kfdt_address_cells(c->kf, node) != ac || kfdt_size_cells(c->kf, node) != sc ||
	    (lac >= 0 && (u32)lac != ac) || (lsc >= 0 && (u32)lsc != sc))
		mismatch(c, &c->cells, "node %d: cells %u/%u, expected %u/%u (libfdt %d/%d)", node,
			 kfdt_address_cells(c->kf, node), kfdt_size_cells(c->kf, node), ac, sc,
			 lac, lsc);
}

static void compare_reg(struct cmp *c, int node)
{
	for (int i = 0; i < 4096; i++) {
		u64 ka = 0, ks = 0, ra = 0, rs = 0;
		int krc = kfdt_read_reg(c->kf, node, i, &ka, &ks);
		int rrc = ref_reg(c->blob, node, i, &ra, &rs);

		if (krc != rrc || ka != ra || ks != rs) {
			mismatch(c, &c->regs, "node %d reg[%d]: rc %d %llx+%llx, expected rc %d %llx+%llx",
				 node, i, krc, (unsigned long long)ka, (unsigned long long)ks, rrc,
				 (unsigned long long)ra, (unsigned long long)rs);
			return;
		}
		if (krc)
			return;
		c->nregs++;
	}
}

static void compare_phandle(struct cmp *c, int node)
{
	u32 ph = fdt_get_phandle(c->blob, node);

	if (ph == 0 || ph == 0xffffffff)
		return;
	if (kfdt_node_by_phandle(c->kf, ph) != fdt_node_offset_by_phandle(c->blob, ph))
		mismatch(c, &c->phandles, "phandle 0x%x: %d vs libfdt %d", ph,
			 kfdt_node_by_phandle(c->kf, ph), fdt_node_offset_by_phandle(c->blob, ph));
}

/* Does a path component match a node's full name, as both readers match
 * it: the whole name, or the name before its unit address ("memo" finds
 * "memo@0")? */
static bool component_matches(const char *comp, const char *full)
{
	size_t n = strlen(comp);

	return !strcmp(comp, full) || (!strchr(comp, '@') && !strncmp(comp, full, n) && full[n] == '@');
}

/* The path of the node must lead back to it in both readers (strict), or,
 * in a fuzzed tree with duplicate siblings, at least to a node the path's
 * last component matches. With duplicates a path can be unresolvable (a
 * lookup takes the first "memory@40000000", the node is below the second):
 * then both readers must refuse it. Or it can lead elsewhere, and not to
 * the same node in both: a component without '@' matches "name@unit" too,
 * and libfdt takes the first child that matches either way, where the
 * kernel takes an exact match first and "name@unit" only when one child
 * alone matches so (subnode_n() in kernel/fdt.c). */
static void compare_path(struct cmp *c, int node, const char *path, const char *name)
{
	int k = kfdt_path_offset(c->kf, path);
	int l = fdt_path_offset(c->blob, path);
	const char *kname = kfdt_node_name(c->kf, k);

	if (!c->strict && k < 0 && l < 0)
		return;	/* shadowed by a duplicate in both readers */
	if (c->strict ? (k != node || l != node) : (!kname || !component_matches(name, kname)))
		mismatch(c, &c->paths, "path %s: %d, libfdt %d, node %d", path, k, l, node);
}

static void compare_node(struct cmp *c, int node, const char *path, int depth);

static void compare_children(struct cmp *c, int node, const char *path, int depth)
{
	int kc = kfdt_first_subnode(c->kf, node), lc = fdt_first_subnode(c->blob, node);
	char sub[1024];

	for (; kc >= 0 && lc >= 0; kc = kfdt_next_subnode(c->kf, kc),
	     lc = fdt_next_subnode(c->blob, lc)) {
		if (kc != lc) {
			mismatch(c, &c->names, "%s: child at %d, libfdt %d", path, kc, lc);
			return;
		}
		const char *name = fdt_get_name(c->blob, lc, NULL);

		/* An unknown, too long or unusable path (a name that is empty
		 * or holds '/', as fuzzing makes) skips the path checks. */
		if (!path[0] || !name || !name[0] || strchr(name, '/') ||
		    snprintf(sub, sizeof(sub), "%s/%s", depth ? path : "", name) >= (int)sizeof(sub))
			sub[0] = '\0';
		compare_node(c, kc, sub, depth + 1);
	}
	if (kc >= 0 || lc != -FDT_ERR_NOTFOUND)
		mismatch(c, &c->names, "%s: children differ (%d vs libfdt %d)", path, kc, lc);
}

static void compare_node(struct cmp *c, int node, const char *path, int depth)
{
	const char *kname = kfdt_node_name(c->kf, node);
	const char *lname = fdt_get_name(c->blob, node, NULL);
	int kparent = kfdt_parent(c->kf, node), lparent = fdt_parent_offset(c->blob, node);

	c->nnodes++;
	if (!kname || !lname || strcmp(kname, lname))
		mismatch(c, &c->names, "node %d: name %s, libfdt %s", node, kname, lname);
	if (kparent != (lparent >= 0 ? lparent : -FDT_E_NOTFOUND))
		mismatch(c, &c->parents, "node %d: parent %d, libfdt %d", node, kparent, lparent);
	if (path[0])
		compare_path(c, node, path, depth ? lname : "");
	compare_props(c, node);
	compare_cells(c, node);
	compare_reg(c, node);
	compare_phandle(c, node);
	compare_children(c, node, path, depth);
}

/* Does the list hold s as a NUL-terminated entry? (libfdt also accepts a
 * final entry without its NUL when the byte after the property is 0.) */
static bool ref_list_has(const void *blob, int node, const char *s)
{
	int len;
	const char *v = fdt_getprop(blob, node, "compatible", &len);

	for (int i = 0; v && i < len;) {
		const char *nul = memchr(v + i, 0, len - i);

		if (!nul)
			return false;
		if (!strcmp(v + i, s))
			return true;
		i = nul - v + 1;
	}
	return false;
}

/* The next node libfdt finds compatible, skipping its false matches. */
static int ref_by_compatible(const void *blob, int after, const char *s)
{
	int l = fdt_node_offset_by_compatible(blob, after, s);

	while (l >= 0 && !ref_list_has(blob, l, s))
		l = fdt_node_offset_by_compatible(blob, l, s);
	return l;
}

static void compare_compatible(struct cmp *c)
{
	for (int i = 0; i < c->ncompat; i++) {
		int k = kfdt_node_by_compatible(c->kf, -1, c->compat[i]);
		int l = ref_by_compatible(c->blob, -1, c->compat[i]);

		for (int n = 0; (k >= 0 || l >= 0) && n < 4096; n++) {
			if (k != l) {
				mismatch(c, &c->compats, "compatible \"%s\": %d, libfdt %d",
					 c->compat[i], k, l);
				break;
			}
			k = kfdt_node_by_compatible(c->kf, k, c->compat[i]);
			l = ref_by_compatible(c->blob, l, c->compat[i]);
		}
	}
}

/* The console node by libfdt: stdout-path minus ":options", alias or path. */
static int ref_stdout(const void *blob)
{
	int chosen = fdt_path_offset(blob, "/chosen"), len;
	const char *p = fdt_getprop(blob, chosen, "stdout-path", &len);

	if (!p)
		p = fdt_getprop(blob, chosen, "linux,stdout-path", &len);
	if (!p)
		return -FDT_E_NOTFOUND;
	len = strnlen(p, len);
	if (memchr(p, ':', len))
		len = (const char *)memchr(p, ':', len) - p;
	len = fdt_path_offset_namelen(blob, p, len);
	return len >= 0 ? len : -FDT_E_NOTFOUND;
}

/* Run the comparison walk over the whole tree; returns mismatches. */
static int compare_tree(struct cmp *c)
{
	compare_node(c, 0, "/", 0);
	compare_compatible(c);
	if (kfdt_stdout_node(c->kf) != ref_stdout(c->blob))
		mismatch(c, &c->paths, "stdout node %d, libfdt-based %d", kfdt_stdout_node(c->kf),
			 ref_stdout(c->blob));
	return c->bad;
}

/* ---- boot info expected from libfdt ---- */

struct expect {
	int code;
	struct fdt_range mem[64], res[64];
	int nmem, nres;
	const char *bootargs;
	bool has_initrd;
	u64 initrd_start, initrd_end;
};

static bool ref_first_string_is(const void *blob, int node, const char *name, const char *want)
{
	int len;
	const char *v = fdt_getprop(blob, node, name, &len);

	return v && memchr(v, 0, len) && !strcmp(v, want);
}

static bool ref_enabled(const void *blob, int node)
{
	return !fdt_getprop(blob, node, "status", NULL) ||
	       ref_first_string_is(blob, node, "status", "okay") ||
	       ref_first_string_is(blob, node, "status", "ok");
}

/* Append node's reg entries; sets e->code on a problem. */
static void ref_add_reg(struct expect *e, const void *blob, int node, struct fdt_range *r,
			int *n, int max)
{
	u64 a, s;
	int rc, i;

	for (i = 0; (rc = ref_reg(blob, node, i, &a, &s)) == 0; i++) {
		if (s == 0)
			continue;
		if (a + s < a || *n == max) {
			e->code = e->code ? e->code : FDT_E_BADVALUE;
			return;
		}
		r[*n].base = a;
		r[*n].size = s;
		(*n)++;
	}
	if (rc == -FDT_E_BADVALUE && !e->code)
		e->code = FDT_E_BADVALUE;
}

static void ref_memory(struct expect *e, const void *blob)
{
	int child;

	for (child = fdt_first_subnode(blob, 0); child >= 0;
	     child = fdt_next_subnode(blob, child)) {
		if (!ref_first_string_is(blob, child, "device_type", "memory") ||
		    !ref_enabled(blob, child))
			continue;
		ref_add_reg(e, blob, child, e->mem, &e->nmem, FDT_MAX_BANKS);
	}
	if (!e->code && !e->nmem)
		e->code = FDT_E_NOMEMORY;
}

static void ref_reserved(struct expect *e, const void *blob)
{
	int child, resmem = fdt_path_offset(blob, "/reserved-memory");
	u64 a, s;

	for (int i = 0; i < fdt_num_mem_rsv(blob); i++) {
		fdt_get_mem_rsv(blob, i, &a, &s);
		if (s && e->nres < FDT_MAX_RESERVED) {
			e->res[e->nres].base = a;
			e->res[e->nres++].size = s;
		} else if (s && !e->code) {
			e->code = FDT_E_BADVALUE;
		}
	}
	if (resmem < 0)
		return;
	for (child = fdt_first_subnode(blob, resmem); child >= 0;
	     child = fdt_next_subnode(blob, child))
		if (ref_enabled(blob, child))
			ref_add_reg(e, blob, child, e->res, &e->nres, FDT_MAX_RESERVED);
}

static void ref_chosen(struct expect *e, const void *blob)
{
	int chosen = fdt_path_offset(blob, "/chosen"), ls, le;
	const u8 *s, *end;

	if (chosen < 0)
		return;
	e->bootargs = fdt_getprop(blob, chosen, "bootargs", &ls);
	if (e->bootargs && !memchr(e->bootargs, 0, ls) && !e->code)
		e->code = FDT_E_BADVALUE;
	s = fdt_getprop(blob, chosen, "linux,initrd-start", &ls);
	end = fdt_getprop(blob, chosen, "linux,initrd-end", &le);
	if (!s && !end)
		return;
	if (!s || !end || (ls != 4 && ls != 8) || (le != 4 && le != 8)) {
		e->code = e->code ? e->code : FDT_E_BADVALUE;
		return;
	}
	e->initrd_start = ls == 4 ? rd32(s) : ref_read_cells(s, 2);
	e->initrd_end = le == 4 ? rd32(end) : ref_read_cells(end, 2);
	e->has_initrd = true;
	if (e->initrd_end < e->initrd_start && !e->code)
		e->code = FDT_E_BADVALUE;
}

static void ref_boot_info(struct expect *e, const void *blob)
{
	memset(e, 0, sizeof(*e));
	ref_memory(e, blob);
	ref_reserved(e, blob);
	ref_chosen(e, blob);
}

static bool ranges_equal(const struct fdt_range *a, const struct fdt_range *b, int n)
{
	for (int i = 0; i < n; i++)
		if (!range_is(&a[i], b[i].base, b[i].size))
			return false;
	return true;
}

/* Does fdt_scan_boot_info agree with the libfdt-based expectation? */
static bool boot_info_matches(const struct fdt *kf, const void *blob, struct fdt_boot_info *bi,
			      char *err)
{
	struct expect e;
	int rc = kfdt_scan_boot_info(kf, bi, err, ERRLEN);

	ref_boot_info(&e, blob);
	if (rc != e.code || (rc && !err[0]))
		return false;
	if (rc)
		return true;
	return bi->nmem == e.nmem && ranges_equal(bi->mem, e.mem, e.nmem) &&
	       bi->nreserved == e.nres && ranges_equal(bi->reserved, e.res, e.nres) &&
	       bi->bootargs == e.bootargs && bi->has_initrd == e.has_initrd &&
	       (!e.has_initrd || (bi->initrd_start == e.initrd_start &&
				  bi->initrd_end == e.initrd_end)) &&
	       bi->stdout_node == ref_stdout(blob);
}

/* ---- what the trees we know must contain ---- */

struct known {
	const char *file;
	int nmem;
	struct fdt_range mem[4];
	int nres;		/* -1: not checked */
	struct fdt_range res[4];
	const char *bootargs;
	u64 initrd_start, initrd_end;	/* both 0: no initrd */
	const char *stdout_path;	/* NULL: no stdout node */
};

#define M(x) ((u64)(x) << 20)
static const struct known known_trees[] = {
	{ "qemu-virt-128M.dtb", 1, { { 0x40000000, M(128) } }, 0, {}, NULL, 0, 0, "/pl011@9000000" },
	{ "qemu-virt-512M.dtb", 1, { { 0x40000000, M(512) } }, 0, {}, NULL, 0, 0, "/pl011@9000000" },
	{ "qemu-virt-4G.dtb", 1, { { 0x40000000, M(4096) } }, 0, {}, NULL, 0, 0, "/pl011@9000000" },
	{ "qemu-virt-gicv3.dtb", 1, { { 0x40000000, M(128) } }, 0, {}, NULL, 0, 0, "/pl011@9000000" },
	{ "qemu-virt-el2.dtb", 1, { { 0x40000000, M(128) } }, 0, {}, NULL, 0, 0, "/pl011@9000000" },
	/* secure=on adds secram@e000000 with device_type "memory" but status
	 * "disabled": it must not be used as RAM. */
	{ "qemu-virt-secure.dtb", 1, { { 0x40000000, M(128) } }, 0, {}, NULL, 0, 0, "/pl011@9000000" },
	{ "qemu-virt-smp4-gicv3.dtb", 1, { { 0x40000000, M(1024) } }, 0, {}, NULL, 0, 0,
	  "/pl011@9000000" },
	{ "fdt-cells32.dtb", 3,
	  { { 0x80000000, 0x10000000 }, { 0xa0000000, 0x08000000 }, { 0xc0000000, 0x04000000 } },
	  4,
	  { { 0x8f000000, 0x100000 }, { 0x8e000000, 0x200000 }, { 0x9f000000, 0x400000 },
	    { 0x9f800000, 0x100000 } },
	  "console=ttyS0,115200 rodata=full hugepages=4", 0x84000000, 0x84400000,
	  "/soc/serial@1000" },
	{ "fdt-cells64.dtb", 2, { { 0x40000000, 0x80000000 }, { 0x880000000ull, 0x100000000ull } },
	  2, { { 0x40000000, 0x10000 }, { 0x8f0000000ull, 0x200000 } },
	  NULL, 0x48000000, 0x48800000, "/uart@9000000" },
	{ "fdt-defaults.dtb", 2, { { 0, M(16) }, { 0x100000000ull, M(32) } }, 0, {}, NULL, 0, 0,
	  NULL },
};

static const struct known *find_known(const char *file)
{
	for (size_t i = 0; i < ARRAY_SIZE(known_trees); i++)
		if (!strcmp(known_trees[i].file, file))
			return &known_trees[i];
	return NULL;
}

static void check_known(const struct known *k, const struct fdt *f,
			const struct fdt_boot_info *bi)
{
	bool args = k->bootargs ? bi->bootargs && !strcmp(bi->bootargs, k->bootargs)
				: bi->bootargs == NULL;
	bool initrd = k->initrd_end ? bi->has_initrd && bi->initrd_start == k->initrd_start &&
					      bi->initrd_end == k->initrd_end
				    : !bi->has_initrd;
	int want_stdout = k->stdout_path ? kfdt_path_offset(f, k->stdout_path) : -FDT_E_NOTFOUND;

	tap_ok(bi->nmem == k->nmem && ranges_equal(bi->mem, k->mem, k->nmem),
	       "%s: %d RAM bank(s) as expected, first 0x%llx+0x%llx", k->file, bi->nmem,
	       bi->nmem ? (unsigned long long)bi->mem[0].base : 0ull,
	       bi->nmem ? (unsigned long long)bi->mem[0].size : 0ull);
	tap_ok(k->nres < 0 ||
	       (bi->nreserved == k->nres && ranges_equal(bi->reserved, k->res, k->nres)),
	       "%s: %d reserved range(s) as expected", k->file, bi->nreserved);
	tap_ok(args && initrd && bi->stdout_node == want_stdout &&
	       (!k->stdout_path || want_stdout >= 0),
	       "%s: bootargs, initrd and stdout (%s) as expected", k->file,
	       k->stdout_path ? k->stdout_path : "none");
}

static void report(const char *file, const char *what, int bad, int n)
{
	tap_ok(bad == 0, "%s: %s match libfdt (%d checked)", file, what, n);
}

/* Every check on one real tree. */
static void test_one_dtb(const char *dir, const char *file)
{
	char path[1024], err[ERRLEN];
	static struct cmp c;
	struct fdt_boot_info bi;
	const struct known *k = find_known(file);
	u32 size;
	u8 *blob;
	struct fdt f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	blob = read_file(path, &size);
	rc = blob ? kfdt_open(&f, blob, size, err, sizeof(err)) : -1;
	tap_ok(rc == FDT_OK && fdt_check_full(blob, size) == 0, "%s: fdt_open accepts it%s%s",
	       file, rc > 0 ? ": " : "", rc > 0 ? err : "");
	if (rc != FDT_OK) {
		free(blob);
		return;
	}
	memset(&c, 0, sizeof(c));
	c.kf = &f;
	c.blob = blob;
	c.ctx = file;
	c.strict = true;
	compare_tree(&c);
	report(file, "node names and nesting", c.names, c.nnodes);
	report(file, "properties (names, lengths, bytes)", c.props, c.nprops);
	report(file, "paths of every node and the stdout node", c.paths, c.nnodes);
	report(file, "parents", c.parents, c.nnodes);
	report(file, "#address-cells/#size-cells", c.cells, c.nnodes);
	report(file, "reg entries", c.regs, c.nregs);
	report(file, "compatible searches", c.compats, c.ncompat);
	report(file, "phandle lookups", c.phandles, c.nnodes);
	tap_ok(boot_info_matches(&f, blob, &bi, err), "%s: boot info matches libfdt (%s)", file,
	       err[0] ? err : "ok");
	if (k)
		check_known(k, &f, &bi);
	free(blob);
}

/* The comparison must be able to fail: show it libfdt's view of a copy of
 * the board with one property byte changed. */
static void test_compare_self_check(void)
{
	static struct cmp c;
	u32 size;
	u8 *blob = board_blob(&size), *other = exact_copy(blob, size);
	struct fdt f;
	u32 i = 0;

	while (memcmp(other + i, "test,board", 10))	/* it is in the blob */
		i++;
	other[i + 9] = 'D';
	kfdt_open(&f, blob, size, NULL, 0);
	memset(&c, 0, sizeof(c));
	c.kf = &f;
	c.blob = other;
	c.ctx = "self-check";
	c.strict = true;
	c.quiet = true;
	compare_tree(&c);
	tap_ok(c.props == 1 && c.bad == 1,
	       "self-check: the comparison notices one changed byte in \"compatible\"");
	free(blob);
	free(other);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_dtb_dir(const char *dir)
{
	char *names[256];
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d)) && n < (int)ARRAY_SIZE(names)) {
		size_t len = strlen(de->d_name);

		if (len > 4 && !strcmp(de->d_name + len - 4, ".dtb"))
			names[n++] = strdup(de->d_name);
	}
	if (d)
		closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_names);
	test_compare_self_check();
	tap_ok(n >= 5, "%s holds at least 5 .dtb files (%d)", dir, n);
	for (int i = 0; i < n; i++)
		test_one_dtb(dir, names[i]);
	for (size_t i = 0; i < ARRAY_SIZE(known_trees); i++) {
		bool found = false;

		for (int j = 0; j < n; j++)
			found |= !strcmp(names[j], known_trees[i].file);
		tap_ok(found, "%s is present (made by tools/dump-qemu-dtbs.sh)", known_trees[i].file);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
}

/* ------------------------------------------------------------------ */
/* 3. malformed blobs                                                   */
/* ------------------------------------------------------------------ */

/* fdt_open must refuse blob (copied to exactly size bytes) with code and a
 * message containing want. */
static void expect_open_error(const char *what, const u8 *blob, u32 max_size, int code,
			      const char *want)
{
	u8 *copy = exact_copy(blob, max_size);
	struct fdt f;
	char err[ERRLEN] = "";
	int rc = kfdt_open(&f, copy, max_size, err, sizeof(err));

	tap_ok(rc == code && err[0] && strstr(err, want) && f.base == NULL,
	       "reject %s: code %d (want %d), \"%s\"", what, rc, code, err);
	free(copy);
}

/* The board blob with one header cell changed. */
static void expect_header_error(const char *what, int field, u32 value, int code,
				const char *want)
{
	u32 size;
	u8 *blob = board_blob(&size);

	wr32(blob + 4 * field, value);
	expect_open_error(what, blob, size, code, want);
	free(blob);
}

static void test_header_errors(void)
{
	u32 size, off_st, off_str;
	u8 *blob = board_blob(&size);

	off_st = rd32(blob + 8);
	off_str = rd32(blob + 12);
	expect_header_error("bad magic", HDR_MAGIC, 0xd00dfeee, FDT_E_MAGIC,
			    "bad magic 0xd00dfeee (expected 0xd00dfeed)");
	expect_header_error("version 15", HDR_VERSION, 15, FDT_E_VERSION, "version 15");
	expect_header_error("last_comp_version 18", HDR_LAST_COMP, 18, FDT_E_VERSION,
			    "last_comp_version 18 is newer than 17");
	expect_header_error("totalsize beyond the buffer", HDR_TOTALSIZE, size + 8,
			    FDT_E_TRUNCATED, "exceeds");
	expect_header_error("totalsize smaller than the header", HDR_TOTALSIZE, 20,
			    FDT_E_TRUNCATED, "header");
	expect_header_error("off_dt_struct past the end", HDR_OFF_STRUCT, size, FDT_E_BADOFFSET,
			    "off_dt_struct");
	expect_header_error("off_dt_struct inside the header", HDR_OFF_STRUCT, 8,
			    FDT_E_BADOFFSET, "header");
	expect_header_error("size_dt_struct overflowing", HDR_SIZE_STRUCT, 0xfffffff0,
			    FDT_E_BADOFFSET, "beyond totalsize");
	expect_header_error("off_dt_strings overflowing", HDR_OFF_STRINGS, 0xffffff00,
			    FDT_E_BADOFFSET, "off_dt_strings");
	expect_header_error("size_dt_strings past the end", HDR_SIZE_STRINGS, size,
			    FDT_E_BADOFFSET, "off_dt_strings");
	expect_header_error("structure and strings overlap", HDR_OFF_STRINGS, off_st + 8,
			    FDT_E_BADOFFSET, "overlaps");
	expect_header_error("unaligned off_dt_struct", HDR_OFF_STRUCT, off_st + 2,
			    FDT_E_BADOFFSET, "4-byte aligned");
	expect_header_error("unaligned off_mem_rsvmap", HDR_OFF_RSVMAP, 44, FDT_E_BADOFFSET,
			    "8-byte aligned");
	expect_header_error("reservation list running off the end", HDR_OFF_RSVMAP,
			    (size - 8) & ~7u, FDT_E_TRUNCATED, "memory reservation list");
	expect_header_error("reservation list without terminator (in the structure block)",
			    HDR_OFF_RSVMAP, off_st, FDT_E_TRUNCATED, "memory reservation list");
	expect_header_error("missing FDT_END (size_dt_struct cut)", HDR_SIZE_STRUCT,
			    off_str - off_st - 4, FDT_E_STRUCTURE, "missing FDT_END");
	free(blob);
}

/* Every max_size below totalsize must be refused as truncated, reading
 * nothing beyond max_size (the copy is exactly that long). */
static void test_truncations(const char *name, const u8 *blob, u32 size)
{
	int wrong = 0, first = -1;
	u8 *copy = malloc(size);

	for (u32 n = 0; n < size; n++) {
		u8 *p = exact_copy(blob, n);
		struct fdt f;
		char err[ERRLEN] = "";

		if (kfdt_open(&f, p, n, err, sizeof(err)) != FDT_E_TRUNCATED ||
		    !strstr(err, "truncated")) {
			wrong++;
			first = first < 0 ? (int)n : first;
		}
		free(p);
	}
	tap_ok(wrong == 0, "%s: all %u truncations (max_size 0..totalsize-1) are refused as truncated (%d wrong, first %d)",
	       name, size, wrong, first);
	/* Same cuts, but with totalsize rewritten to match: the blocks no
	 * longer fit, which must be noticed (any code, with a message). */
	wrong = 0;
	for (u32 n = 40; n < size; n++) {
		struct fdt f;
		char err[ERRLEN] = "";

		memcpy(copy, blob, n);
		wr32(copy + 4, n);
		if (kfdt_open(&f, copy, n, err, sizeof(err)) == FDT_OK || !err[0])
			wrong++;
	}
	tap_ok(wrong == 0, "%s: cut blobs with a matching totalsize are refused (%d accepted)",
	       name, wrong);
	free(copy);
}

/* One structure-block case: build() writes the struct tokens. */
static void expect_structure_error(const char *what, void (*build)(struct builder *),
				   int code, const char *want)
{
	static struct builder b;
	u32 size;
	u8 *blob;

	b_init(&b);
	build(&b);
	blob = b_blob(&b, &size);
	expect_open_error(what, blob, size, code, want);
	free(blob);
}

static void s_unterminated_name(struct builder *b)
{
	b_root(b, 2, 2);
	b_cell(b, 1);
	memcpy(b->st + b->nst, "abcd", 4);	/* no NUL before the block ends */
	b->nst += 4;
}

static void s_nameoff_out_of_range(struct builder *b)
{
	b_root(b, 2, 2);
	b_cell(b, 3);
	b_cell(b, 4);
	b_cell(b, 0x1000);	/* far past the strings block */
	b_cell(b, 0);
	b_endnode(b);
	b_finish(b);
}

static void s_len_past_end(struct builder *b)
{
	b_root(b, 2, 2);
	b_cell(b, 3);
	b_cell(b, 0x100);
	b_cell(b, b_string(b, "big"));
	b_endnode(b);
	b_finish(b);
}

static void s_len_overflow(struct builder *b)
{
	b_root(b, 2, 2);
	b_cell(b, 3);
	b_cell(b, 0xfffffffc);	/* off + 12 + len wraps a 32-bit sum */
	b_cell(b, b_string(b, "huge"));
	b_endnode(b);
	b_finish(b);
}

static void s_prop_header_cut(struct builder *b)
{
	b_root(b, 2, 2);
	b_cell(b, 3);
	b_cell(b, 0);		/* nameoff cell missing: the block ends */
}

static void s_unknown_token(struct builder *b)
{
	b_root(b, 2, 2);
	b_cell(b, 7);
	b_endnode(b);
	b_finish(b);
}

static void s_end_node_underflow(struct builder *b)
{
	b_root(b, 2, 2);
	b_endnode(b);
	b_endnode(b);
	b_finish(b);
}

static void s_missing_end(struct builder *b)
{
	b_root(b, 2, 2);
	b_endnode(b);
	b_cell(b, 4);		/* a NOP, then nothing */
}

static void s_end_inside_node(struct builder *b)
{
	b_root(b, 2, 2);
	b_begin(b, "child");
	b_endnode(b);
	b_finish(b);
}

static void s_two_roots(struct builder *b)
{
	b_root(b, 2, 2);
	b_endnode(b);
	b_begin(b, "");
	b_endnode(b);
	b_finish(b);
}

static void s_named_root(struct builder *b)
{
	b_begin(b, "root");
	b_endnode(b);
	b_finish(b);
}

static void s_no_root(struct builder *b)
{
	b_cell(b, 4);
	b_finish(b);
}

static void s_empty_block(struct builder *b)
{
	(void)b;
}

static void s_prop_outside_node(struct builder *b)
{
	b_str(b, "early", "x");
	b_root(b, 2, 2);
	b_endnode(b);
	b_finish(b);
}

static void s_prop_after_subnode(struct builder *b)
{
	b_root(b, 2, 2);
	b_begin(b, "child");
	b_endnode(b);
	b_str(b, "late", "x");
	b_endnode(b);
	b_finish(b);
}

static void nest(struct builder *b, int levels)
{
	b_begin(b, "");
	for (int i = 1; i < levels; i++)
		b_begin(b, "n");
	for (int i = 0; i < levels; i++)
		b_endnode(b);
	b_finish(b);
}

static void s_too_deep(struct builder *b)
{
	nest(b, FDT_MAX_DEPTH + 1);
}

static void s_unterminated_prop_name(struct builder *b)
{
	b_root(b, 2, 2);
	b_str(b, "zzz", "x");
	b_endnode(b);
	b_finish(b);
	b->str[b->nstr - 1] = 'q';	/* the last string loses its NUL */
}

/* A reservation list that only ends inside the strings block. */
static void test_rsvmap_overlap(void)
{
	static struct builder b;
	u32 size;
	u8 *blob;

	b_init(&b);
	b.str_lead = 16;	/* 16 zero bytes open the strings block */
	b_root(&b, 2, 2);
	b_endnode(&b);
	if ((b.nst + 4) % 8)
		b_cell(&b, 4);	/* a NOP keeps off_dt_strings 8-byte aligned */
	b_finish(&b);
	blob = b_blob(&b, &size);
	wr32(blob + 16, rd32(blob + 12));	/* off_mem_rsvmap = off_dt_strings */
	expect_open_error("reservation list overlapping the strings block", blob, size,
			  FDT_E_BADOFFSET, "overlaps");
	free(blob);
}

static void test_structure_errors(void)
{
	static struct builder b;
	char err[ERRLEN], path[4 * FDT_MAX_DEPTH] = "";
	struct fdt f;
	u32 size;
	u8 *blob;
	int deepest, rc;

	expect_structure_error("unterminated node name", s_unterminated_name, FDT_E_STRUCTURE,
			       "is not NUL-terminated inside the block");
	expect_structure_error("property name offset out of range", s_nameoff_out_of_range,
			       FDT_E_STRUCTURE, "property name offset 0x1000 outside strings block");
	expect_structure_error("property length past the end", s_len_past_end, FDT_E_STRUCTURE,
			       "has len 256, past the block end");
	expect_structure_error("property length wrapping around", s_len_overflow,
			       FDT_E_STRUCTURE, "past the block end");
	expect_structure_error("property header cut short", s_prop_header_cut, FDT_E_STRUCTURE,
			       "property header");
	expect_structure_error("unterminated property name", s_unterminated_prop_name,
			       FDT_E_STRUCTURE, "not NUL-terminated");
	expect_structure_error("unknown token", s_unknown_token, FDT_E_STRUCTURE,
			       "unknown token 0x7");
	expect_structure_error("FDT_END_NODE underflow", s_end_node_underflow, FDT_E_STRUCTURE,
			       "closes no open node");
	expect_structure_error("missing FDT_END", s_missing_end, FDT_E_STRUCTURE,
			       "missing FDT_END");
	expect_structure_error("empty structure block", s_empty_block, FDT_E_STRUCTURE,
			       "missing FDT_END");
	expect_structure_error("FDT_END inside a node", s_end_inside_node, FDT_E_STRUCTURE,
			       "nodes still open");
	expect_structure_error("two roots", s_two_roots, FDT_E_STRUCTURE, "second root");
	expect_structure_error("no root", s_no_root, FDT_E_STRUCTURE, "no root node");
	expect_structure_error("root with a name", s_named_root, FDT_E_STRUCTURE,
			       "root node at 0x0 has a name");
	expect_structure_error("property before the root", s_prop_outside_node, FDT_E_STRUCTURE,
			       "'early' at 0x0 is outside any node");
	expect_structure_error("property after a subnode", s_prop_after_subnode,
			       FDT_E_STRUCTURE, "'late'");
	expect_structure_error("nesting too deep", s_too_deep, FDT_E_STRUCTURE, "nested deeper");
	test_rsvmap_overlap();

	b_init(&b);
	nest(&b, FDT_MAX_DEPTH);
	blob = b_blob(&b, &size);
	rc = kfdt_open(&f, blob, size, err, sizeof(err));
	deepest = 0;
	while (rc == FDT_OK && kfdt_first_subnode(&f, deepest) >= 0)
		deepest = kfdt_first_subnode(&f, deepest);
	for (int i = 1; i < FDT_MAX_DEPTH; i++)
		strcat(path, "/n");
	tap_ok(rc == FDT_OK && kfdt_parent(&f, deepest) > 0 &&
	       kfdt_path_offset(&f, path) == deepest,
	       "exactly %d levels of nesting are accepted and walkable", FDT_MAX_DEPTH);
	free(blob);
}

/* ---- boot-info errors ---- */

static void expect_scan_error(const char *what, struct builder *b, int code, const char *want)
{
	u32 size;
	u8 *blob = b_blob(b, &size);
	struct fdt f;
	struct fdt_boot_info bi;
	char err[ERRLEN] = "";
	int rc = kfdt_open(&f, blob, size, err, sizeof(err));

	if (rc == FDT_OK)
		rc = kfdt_scan_boot_info(&f, &bi, err, sizeof(err));
	else
		rc = -1000 - rc;	/* show that fdt_open already failed */
	tap_ok(rc == code && err[0] && strstr(err, want), "scan %s: code %d (want %d), \"%s\"",
	       what, rc, code, err);
	free(blob);
}

/* A root (cells 2/2) with /chosen holding initrd cells of the given sizes. */
static void initrd_tree(struct builder *b, int start_len, u64 start, int end_len, u64 end)
{
	u8 v[8];

	b_init(b);
	b_root(b, 2, 2);
	b_memory(b, "memory@40000000", 0x40000000, M(128));
	b_begin(b, "chosen");
	if (start_len) {
		wr64(v, start);
		b_prop(b, "linux,initrd-start", start_len == 8 ? v : v + 4, start_len);
	}
	if (end_len) {
		wr64(v, end);
		b_prop(b, "linux,initrd-end", end_len == 8 ? v : v + 4, end_len);
	}
	b_endnode(b);
	b_endnode(b);
	b_finish(b);
}

static void test_scan_errors(void)
{
	static struct builder b;

	b_init(&b);
	b_root(&b, 2, 2);
	b_begin(&b, "chosen");
	b_endnode(&b);
	b_endnode(&b);
	b_finish(&b);
	expect_scan_error("missing /memory", &b, FDT_E_NOMEMORY, "missing /memory node");

	b_init(&b);
	b_root(&b, 2, 2);
	b_begin(&b, "memory@40000000");
	b_str(&b, "device_type", "memory");
	b_cells(&b, "reg", 3, 0, 0x40000000, 0x1000);
	b_endnode(&b);
	b_endnode(&b);
	b_finish(&b);
	expect_scan_error("memory reg of 12 bytes", &b, FDT_E_BADVALUE,
			  "/memory@40000000: reg length 12 is not a multiple of 16 (#address-cells 2 + #size-cells 2)");

	b_init(&b);
	b_root(&b, 2, 3);
	b_memory(&b, "memory@0", 0, M(1));
	b_endnode(&b);
	b_finish(&b);
	expect_scan_error("#size-cells 3", &b, FDT_E_BADVALUE, "#size-cells 3");

	b_init(&b);
	b_root(&b, 2, 2);
	b_memory(&b, "memory@0", 0, 0);
	b_endnode(&b);
	b_finish(&b);
	expect_scan_error("memory of size 0 only", &b, FDT_E_NOMEMORY, "no RAM");

	b_init(&b);
	b_root(&b, 2, 2);
	b_memory(&b, "memory@fffffffffffff000", 0xfffffffffffff000ull, 0x2000);
	b_endnode(&b);
	b_finish(&b);
	expect_scan_error("memory wrapping past 2^64", &b, FDT_E_BADVALUE, "wraps");

	b_init(&b);
	b_root(&b, 2, 2);
	for (int i = 0; i <= FDT_MAX_BANKS; i++)
		b_memory(&b, "memory", (u64)i << 30, M(1));
	b_endnode(&b);
	b_finish(&b);
	expect_scan_error("17 memory banks", &b, FDT_E_BADVALUE, "too many memory banks (max 16)");

	b_init(&b);
	for (int i = 0; i <= FDT_MAX_RESERVED; i++)
		b_rsv(&b, (u64)i << 20, 0x1000);
	b_root(&b, 2, 2);
	b_memory(&b, "memory@0", 0, M(64));
	b_endnode(&b);
	b_finish(&b);
	expect_scan_error("33 reservations", &b, FDT_E_BADVALUE, "too many reserved ranges (max 32)");

	b_init(&b);
	b_root(&b, 2, 2);
	b_memory(&b, "memory@0", 0, M(64));
	b_begin(&b, "reserved-memory");
	b_begin(&b, "bad");
	b_cells(&b, "reg", 1, 5);
	b_endnode(&b);
	b_endnode(&b);
	b_endnode(&b);
	b_finish(&b);
	expect_scan_error("reserved-memory child reg of 4 bytes", &b, FDT_E_BADVALUE,
			  "/reserved-memory/bad: reg length 4");

	initrd_tree(&b, 4, 0x48100000, 4, 0x48000000);
	expect_scan_error("initrd end below start", &b, FDT_E_BADVALUE,
			  "/chosen: linux,initrd-end below linux,initrd-start");
	initrd_tree(&b, 8, 0x48000000, 0, 0);
	expect_scan_error("initrd start without end", &b, FDT_E_BADVALUE,
			  "linux,initrd-start without linux,initrd-end");
	initrd_tree(&b, 3, 0x48000000, 4, 0x48100000);
	expect_scan_error("initrd-start of 3 bytes", &b, FDT_E_BADVALUE,
			  "linux,initrd-start has length 3");

	b_init(&b);
	b_root(&b, 2, 2);
	b_memory(&b, "memory@0", 0, M(64));
	b_begin(&b, "chosen");
	b_prop(&b, "bootargs", "abc", 3);
	b_endnode(&b);
	b_endnode(&b);
	b_finish(&b);
	expect_scan_error("unterminated bootargs", &b, FDT_E_BADVALUE, "bootargs");
}

/* Mixed-size initrd cells and a stdout-path without options or alias. */
static void test_scan_variants(void)
{
	static struct builder b;
	struct fdt f;
	struct fdt_boot_info bi;
	char err[ERRLEN];
	u32 size;
	u8 *blob;
	int rc;

	initrd_tree(&b, 4, 0x48000000, 8, 0x148000000ull);
	blob = b_blob(&b, &size);
	rc = kfdt_open(&f, blob, size, err, sizeof(err));
	rc = rc ? rc : kfdt_scan_boot_info(&f, &bi, err, sizeof(err));
	tap_ok(rc == FDT_OK && bi.has_initrd && bi.initrd_start == 0x48000000 &&
	       bi.initrd_end == 0x148000000ull && bi.bootargs == NULL &&
	       bi.stdout_node == -FDT_E_NOTFOUND && bi.nreserved == 0,
	       "initrd with a 32-bit start and a 64-bit end; no bootargs, no stdout");
	free(blob);
}

/* ------------------------------------------------------------------ */
/* 4. mutation fuzz                                                     */
/* ------------------------------------------------------------------ */

static const u32 interesting[] = {
	0, 1, 2, 3, 4, 9, 0x10, 0x28, 0x38, 0x40, 0x7f, 0xff, 0x7fffffff, 0x80000000,
	0xfffffff0, 0xfffffffc, 0xffffffff, 0xd00dfeed,
};

/* Apply 1..4 random edits to a copy of src (n bytes) in dst (room n+16);
 * returns the new length. */
static u32 mutate(const u8 *src, u32 n, u8 *dst)
{
	u32 len = n, pos, v;

	memcpy(dst, src, n);
	for (int k = 1 + rnd() % 4; k > 0; k--) {
		pos = rnd() % len;
		v = interesting[rnd() % ARRAY_SIZE(interesting)];
		switch (rnd() % 7) {
		case 0:
			dst[pos] ^= 1u << (rnd() % 8);
			break;
		case 1:
			dst[pos] = (u8)rnd();
			break;
		case 2:
			if ((pos & ~3u) + 4 <= len)
				wr32(dst + (pos & ~3u), v);
			break;
		case 3:	/* a header field */
			wr32(dst + 4 * (rnd() % 10), rnd() % 2 ? v : rd32(dst + 4 * (rnd() % 10)));
			break;
		case 4:
			if (len < n + 16) {
				memmove(dst + pos + 1, dst + pos, len - pos);
				dst[pos] = (u8)rnd();
				len++;
			}
			break;
		case 5:
			if (len > 41) {
				memmove(dst + pos, dst + pos + 1, len - pos - 1);
				len--;
			}
			break;
		default:	/* a structure token */
			if ((pos & ~3u) + 4 <= len)
				wr32(dst + (pos & ~3u), 1 + rnd() % 9);
			break;
		}
	}
	return len;
}

/* Call every accessor on every node of an accepted tree. */
static void exercise(const struct fdt *f, int node, int depth)
{
	const char *name;
	int len, n = 0;
	const char *compat = kfdt_getprop(f, node, "compatible", &len);
	u64 a, s;
	u32 u;

	kfdt_node_name(f, node);
	kfdt_parent(f, node);
	for (int p = kfdt_first_prop(f, node); p >= 0; p = kfdt_next_prop(f, p))
		kfdt_prop_at(f, p, &name, &len);
	for (int i = 0; kfdt_read_reg(f, node, i, &a, &s) == FDT_OK && i < 64; i++)
		;
	kfdt_prop_u32(f, node, "phandle", &u);
	kfdt_address_cells(f, node);
	if (compat && len > 0 && memchr(compat, 0, len))
		kfdt_node_by_compatible(f, -1, compat);
	kfdt_node_is_compatible(f, node, "arm,pl011");
	for (int c = kfdt_first_subnode(f, node); c >= 0 && n < 512; c = kfdt_next_subnode(f, c)) {
		exercise(f, c, depth + 1);
		n++;
	}
}

/* One mutated blob: open it; if accepted, walk it from an exact-size copy
 * and, when libfdt accepts it too, compare the two readers. */
static void fuzz_one(const u8 *buf, u32 len, struct cmp *c, int *accepted, int *both)
{
	u32 max = rnd() % 8 ? len : rnd() % (len + 1);
	u8 *copy = exact_copy(buf, max), *exact;
	struct fdt f;
	struct fdt_boot_info bi;
	char err[ERRLEN];

	if (kfdt_open(&f, copy, max, err, sizeof(err)) != FDT_OK) {
		if (!err[0])
			c->bad++;	/* every refusal must say why */
		free(copy);
		return;
	}
	(*accepted)++;
	exact = exact_copy(copy, f.totalsize);	/* now a read past totalsize faults */
	free(copy);
	kfdt_open(&f, exact, f.totalsize, err, sizeof(err));
	exercise(&f, 0, 0);
	kfdt_stdout_node(&f);
	kfdt_scan_boot_info(&f, &bi, err, sizeof(err));
	for (int i = 0; i < 16; i++) {	/* offsets that are mostly not nodes */
		int off = (int)(rnd() % (f.size_struct + 8));

		kfdt_node_name(&f, off);
		kfdt_first_subnode(&f, off);
		kfdt_next_subnode(&f, off);
		kfdt_prop_at(&f, off, NULL, NULL);
		kfdt_parent(&f, off);
	}
	if (kfdt_path_offset(&f, "/") == 0 && fdt_check_full(exact, f.totalsize) == 0) {
		(*both)++;
		c->kf = &f;
		c->blob = exact;
		compare_node(c, 0, "/", 0);
		compare_compatible(c);
		c->ncompat = 0;
	}
	free(exact);
}

static void fuzz(const char *name, const u8 *src, u32 n, int rounds)
{
	static struct cmp c;
	u8 *buf = malloc(n + 16);
	int accepted = 0, both = 0;
	clock_t t0 = clock();

	memset(&c, 0, sizeof(c));
	c.ctx = name;
	c.quiet = false;
	for (int i = 0; i < rounds; i++) {
		u32 len = mutate(src, n, buf);

		fuzz_one(buf, len, &c, &accepted, &both);
	}
	tap_ok(c.bad == 0,
	       "fuzz %s: %d mutations, %d accepted, %d also by libfdt and all agreeing (%.1fs)",
	       name, rounds, accepted, both, (double)(clock() - t0) / CLOCKS_PER_SEC);
	free(buf);
}

/* A QEMU tree without its free space, so mutations land on real data. */
static u8 *packed_qemu_blob(const char *dir, u32 *size)
{
	char path[1024];
	u32 n;
	u8 *raw, *buf;

	snprintf(path, sizeof(path), "%s/qemu-virt-128M.dtb", dir);
	raw = read_file(path, &n);
	if (!raw)
		return NULL;
	buf = malloc(n);
	if (fdt_open_into(raw, buf, n) || fdt_pack(buf)) {
		free(raw);
		free(buf);
		return NULL;
	}
	*size = rd32(buf + 4);	/* totalsize */
	free(raw);
	return buf;
}

static void test_fuzz_and_truncation(const char *dir)
{
	u32 size;
	u8 *blob = board_blob(&size);
	u8 *qemu;

	test_truncations("board", blob, size);
	fuzz("board", blob, size, 20000);
	free(blob);
	qemu = packed_qemu_blob(dir, &size);
	tap_ok(qemu != NULL, "packed a copy of qemu-virt-128M.dtb for fuzzing");
	if (qemu) {
		test_truncations("qemu-virt-128M (packed)", qemu, size);
		fuzz("qemu-virt-128M", qemu, size, 2500);
	}
	free(qemu);
}

#ifdef KFDT_LIBFUZZER
/*
 * Built as a libFuzzer target (fuzz_fdt, tests/host/fuzz.mk) instead of the
 * test program: each input is one blob, put through fuzz_one() above with
 * the generator seeded from the input, so a crash replays exactly. Any
 * sanitizer report, a refusal without a message, or a disagreement with
 * libfdt on a tree both accept aborts, and libFuzzer keeps the input.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cmp c;
	int accepted = 0, both = 0;

	if (size > (1u << 20))
		return 0;
	memset(&c, 0, sizeof(c));
	c.ctx = "libfuzzer input";
	rng = 0x2545f4914f6cdd1dull ^ size;
	for (size_t i = 0; i < size && i < 64; i++)
		rng = rng * 31 + data[i];
	rng |= 1;
	fuzz_one(data, (u32)size, &c, &accepted, &both);
	if (c.bad)
		abort();
	return 0;
}
#else
int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "build/dtbs";

	test_units();
	test_dtb_dir(dir);
	test_header_errors();
	test_structure_errors();
	test_scan_errors();
	test_scan_variants();
	test_fuzz_and_truncation(dir);
	return tap_done();
}
#endif
