/*
 * fdt.c - read a flattened device tree without trusting it.
 *
 * A DTB has a header, a memory-reservation list (pairs of 64-bit address and
 * size, ended by a 0,0 pair), a structure block and a strings block. The
 * structure block is a stream of big-endian 32-bit tokens:
 *
 *   FDT_BEGIN_NODE name\0 (padded to 4)   opens a node
 *   FDT_PROP len nameoff value (padded)   a property of the open node; its
 *                                         name is at nameoff in the strings
 *   FDT_END_NODE                          closes the node
 *   FDT_NOP                               ignored
 *   FDT_END                               ends the block
 *
 * fdt_open() walks all of it once and rejects anything malformed, with a
 * message naming the problem. Every later read still goes through the
 * bounds-checked helpers below (cell_at, decode), so no offset, good or bad,
 * can make us read outside the blob. Multi-byte values are read one byte at
 * a time: the blob may be only 4-byte aligned and the CPU may be big- or
 * little-endian.
 */
#include "types.h"
#include "printk.h"
#include "fdt.h"

#define FDT_MAGIC 0xd00dfeedu
#define FDT_BEGIN_NODE 0x1u
#define FDT_END_NODE 0x2u
#define FDT_PROP 0x3u
#define FDT_NOP 0x4u
#define FDT_END 0x9u

#define HDR_SIZE_V16 36u	/* v16 has no size_dt_struct field */
#define HDR_SIZE_V17 40u
#define RSV_ENTRY_SIZE 16u
#define FDT_MAX_TOTALSIZE 0x7fff0000u	/* keeps every offset a positive int */

/* Header fields, as indexes of 32-bit cells. */
enum {
	HDR_MAGIC, HDR_TOTALSIZE, HDR_OFF_STRUCT, HDR_OFF_STRINGS, HDR_OFF_RSVMAP,
	HDR_VERSION, HDR_LAST_COMP, HDR_BOOT_CPUID, HDR_SIZE_STRINGS, HDR_SIZE_STRUCT,
};

/* ---- tiny string helpers (no libc in the kernel) ---- */

static size_t fdt_strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static bool fdt_bytes_eq(const void *a, const void *b, size_t n)
{
	const u8 *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return false;
	return true;
}

/* Is the NUL-terminated string s exactly the n bytes at p? */
static bool str_eq_n(const char *s, const char *p, size_t n)
{
	return fdt_strlen(s) == n && fdt_bytes_eq(s, p, n);
}

/* Length of the string at p before the first NUL, or max if none. */
static size_t strnlen_bounded(const char *p, size_t max)
{
	size_t n = 0;

	while (n < max && p[n])
		n++;
	return n;
}

/* Index of the first c in p[0..n), or n. */
static size_t find_char(const char *p, size_t n, char c)
{
	size_t i = 0;

	while (i < n && p[i] != c)
		i++;
	return i;
}

u32 fdt_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

u64 fdt_be64(const void *p)
{
	const u8 *b = p;

	return (u64)fdt_be32(b) << 32 | fdt_be32(b + 4);
}

/* Write a message into err (if there is room) and return code. */
static int __attribute__((format(printf, 4, 5)))
fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintk(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

const char *fdt_strerror(int code)
{
	static const char *const names[] = {
		[FDT_OK] = "ok",
		[FDT_E_MAGIC] = "bad magic",
		[FDT_E_TRUNCATED] = "truncated",
		[FDT_E_VERSION] = "unsupported version",
		[FDT_E_BADOFFSET] = "bad offset",
		[FDT_E_STRUCTURE] = "malformed structure block",
		[FDT_E_NOTFOUND] = "not found",
		[FDT_E_BADVALUE] = "bad property value",
		[FDT_E_NOMEMORY] = "no memory node",
	};

	unsigned int u = code < 0 ? 0u - (unsigned int)code : (unsigned int)code;

	if (u >= ARRAY_SIZE(names))
		return "unknown error";
	return names[u];
}

/* ---- bounds-checked access to the structure and strings blocks ---- */

static const u8 *struct_ptr(const struct fdt *f, u32 off)
{
	return f->base + f->off_struct + off;
}

/* Read the aligned cell at structure offset off; false if not wholly inside. */
static bool cell_at(const struct fdt *f, u32 off, u32 *val)
{
	if ((off & 3) || (u64)off + 4 > f->size_struct)
		return false;
	*val = fdt_be32(struct_ptr(f, off));
	return true;
}

/* The string at strings-block offset nameoff, or NULL if it does not start
 * and end (NUL) inside the strings block. */
static const char *string_at(const struct fdt *f, u32 nameoff)
{
	const char *s;

	if (nameoff >= f->size_strings)
		return NULL;
	s = (const char *)f->base + f->off_strings + nameoff;
	if (strnlen_bounded(s, f->size_strings - nameoff) == f->size_strings - nameoff)
		return NULL;
	return s;
}

/* Why a token could not be decoded. */
enum tok_err {
	TOK_OK,
	TOK_CUT,	/* the token's fixed cells run past the block */
	TOK_NAME_OPEN,	/* node name not NUL-terminated inside the block */
	TOK_VALUE_CUT,	/* property value runs past the block */
	TOK_NAMEOFF,	/* property name offset outside the strings block */
	TOK_PNAME_OPEN,	/* property name not NUL-terminated in the strings block */
	TOK_UNKNOWN,	/* not one of the five token values */
};

struct token {
	u32 tag;
	u32 next;	/* offset of the following token */
	u32 len;	/* FDT_PROP: value length */
	u32 nameoff;	/* FDT_PROP: name offset in the strings block */
};

/* Decode the node-name part of a BEGIN_NODE token at off. */
static enum tok_err decode_begin(const struct fdt *f, u32 off, u64 *end)
{
	u32 start = off + 4;
	u32 room = f->size_struct > start ? f->size_struct - start : 0;
	size_t n = strnlen_bounded((const char *)struct_ptr(f, start), room);

	if (n == room)
		return TOK_NAME_OPEN;
	*end = (u64)start + n + 1;
	return TOK_OK;
}

/* Decode the header and check the value and name of a PROP token at off. */
static enum tok_err decode_prop(const struct fdt *f, u32 off, struct token *t, u64 *end)
{
	if (!cell_at(f, off + 4, &t->len) || !cell_at(f, off + 8, &t->nameoff))
		return TOK_CUT;
	*end = (u64)off + 12 + t->len;
	if (*end > f->size_struct)
		return TOK_VALUE_CUT;
	if (t->nameoff >= f->size_strings)
		return TOK_NAMEOFF;
	if (!string_at(f, t->nameoff))
		return TOK_PNAME_OPEN;
	return TOK_OK;
}

/*
 * Decode the token at structure offset off into *t, checking that all of it
 * (name, value, property name) lies inside its block. Safe for any off.
 */
static enum tok_err decode(const struct fdt *f, u32 off, struct token *t)
{
	enum tok_err e = TOK_OK;
	u64 end = (u64)off + 4;

	if (!cell_at(f, off, &t->tag))
		return TOK_CUT;
	switch (t->tag) {
	case FDT_BEGIN_NODE:
		e = decode_begin(f, off, &end);
		break;
	case FDT_PROP:
		e = decode_prop(f, off, t, &end);
		break;
	case FDT_END_NODE:
	case FDT_NOP:
	case FDT_END:
		break;
	default:
		return TOK_UNKNOWN;
	}
	t->next = (u32)ALIGN_UP(end, 4);
	return e;
}

/* The tag of the token at off (0 if it cannot be decoded); *next is set to
 * the following token's offset. */
static u32 tag_at(const struct fdt *f, int off, u32 *next)
{
	struct token t;

	if (off < 0 || decode(f, (u32)off, &t) != TOK_OK)
		return 0;
	if (next)
		*next = t.next;
	return t.tag;
}

/* ---- fdt_open: header, layout and structure checks ---- */

static u32 hdr(const u8 *blob, int field)
{
	return fdt_be32(blob + 4 * field);
}

/* Magic, version and sizes; fills totalsize and version. */
static int check_header(struct fdt *f, const u8 *blob, u32 max_size, char *err, size_t errlen)
{
	u32 magic, last_comp, hsize;

	if (max_size < 4)
		return fail(err, errlen, FDT_E_TRUNCATED,
			    "truncated: %u bytes available, too few for the magic number",
			    (unsigned int)max_size);
	magic = hdr(blob, HDR_MAGIC);
	if (magic != FDT_MAGIC)
		return fail(err, errlen, FDT_E_MAGIC, "bad magic 0x%08x (expected 0x%08x)",
			    (unsigned int)magic, FDT_MAGIC);
	if (max_size < HDR_SIZE_V16)
		return fail(err, errlen, FDT_E_TRUNCATED,
			    "truncated: %u bytes available, too few for the %u-byte header",
			    (unsigned int)max_size, HDR_SIZE_V16);
	f->version = hdr(blob, HDR_VERSION);
	last_comp = hdr(blob, HDR_LAST_COMP);
	if (f->version < 16)
		return fail(err, errlen, FDT_E_VERSION,
			    "unsupported version %u (need 16 or later)", (unsigned int)f->version);
	if (last_comp > 17)
		return fail(err, errlen, FDT_E_VERSION,
			    "unsupported version: last_comp_version %u is newer than 17, the newest we read",
			    (unsigned int)last_comp);
	hsize = f->version >= 17 ? HDR_SIZE_V17 : HDR_SIZE_V16;
	f->totalsize = hdr(blob, HDR_TOTALSIZE);
	if (f->totalsize > max_size)
		return fail(err, errlen, FDT_E_TRUNCATED,
			    "truncated: totalsize %u exceeds the %u bytes available",
			    (unsigned int)f->totalsize, (unsigned int)max_size);
	if (f->totalsize < hsize || f->totalsize > FDT_MAX_TOTALSIZE)
		return fail(err, errlen, FDT_E_TRUNCATED,
			    "truncated: totalsize %u is not between the %u-byte header and 0x%x",
			    (unsigned int)f->totalsize, (unsigned int)hsize, FDT_MAX_TOTALSIZE);
	return FDT_OK;
}

/* Check that block [off, off+size) lies after the header and inside the blob. */
static int check_block(const struct fdt *f, const char *what, u32 off, u32 size,
		       char *err, size_t errlen)
{
	u32 hsize = f->version >= 17 ? HDR_SIZE_V17 : HDR_SIZE_V16;

	if (off < hsize)
		return fail(err, errlen, FDT_E_BADOFFSET,
			    "bad offset: off_%s 0x%x overlaps the %u-byte header",
			    what, (unsigned int)off, (unsigned int)hsize);
	if ((u64)off + size > f->totalsize)
		return fail(err, errlen, FDT_E_BADOFFSET,
			    "bad offset: off_%s 0x%x + size 0x%x is beyond totalsize 0x%x",
			    what, (unsigned int)off, (unsigned int)size,
			    (unsigned int)f->totalsize);
	return FDT_OK;
}

/* Do [a, a+alen) and [b, b+blen) share a byte? */
static bool ranges_overlap(u32 a, u32 alen, u32 b, u32 blen)
{
	return alen && blen && (u64)a < (u64)b + blen && (u64)b < (u64)a + alen;
}

/* Where the structure, strings and reservation blocks are. */
static int check_layout(struct fdt *f, const u8 *blob, char *err, size_t errlen)
{
	int rc;

	f->off_struct = hdr(blob, HDR_OFF_STRUCT);
	f->off_strings = hdr(blob, HDR_OFF_STRINGS);
	f->size_strings = hdr(blob, HDR_SIZE_STRINGS);
	f->off_rsvmap = hdr(blob, HDR_OFF_RSVMAP);
	if (f->version >= 17)
		f->size_struct = hdr(blob, HDR_SIZE_STRUCT);
	else if (f->off_strings > f->off_struct)
		f->size_struct = f->off_strings - f->off_struct;
	else
		f->size_struct = f->totalsize > f->off_struct ? f->totalsize - f->off_struct : 0;
	rc = check_block(f, "dt_struct", f->off_struct, f->size_struct, err, errlen);
	if (!rc)
		rc = check_block(f, "dt_strings", f->off_strings, f->size_strings, err, errlen);
	if (!rc)
		rc = check_block(f, "mem_rsvmap", f->off_rsvmap, 0, err, errlen);
	if (rc)
		return rc;
	if (f->off_struct & 3)
		return fail(err, errlen, FDT_E_BADOFFSET,
			    "bad offset: off_dt_struct 0x%x is not 4-byte aligned",
			    (unsigned int)f->off_struct);
	if (f->off_rsvmap & 7)
		return fail(err, errlen, FDT_E_BADOFFSET,
			    "bad offset: off_mem_rsvmap 0x%x is not 8-byte aligned",
			    (unsigned int)f->off_rsvmap);
	if (ranges_overlap(f->off_struct, f->size_struct, f->off_strings, f->size_strings))
		return fail(err, errlen, FDT_E_BADOFFSET,
			    "bad offset: structure block 0x%x+0x%x overlaps strings block 0x%x+0x%x",
			    (unsigned int)f->off_struct, (unsigned int)f->size_struct,
			    (unsigned int)f->off_strings, (unsigned int)f->size_strings);
	return FDT_OK;
}

/* The reservation list must end (0,0 entry) inside the blob without running
 * into the other blocks. */
static int check_rsvmap(const struct fdt *f, char *err, size_t errlen)
{
	u32 off = f->off_rsvmap;
	u32 len;

	for (;;) {
		if ((u64)off + RSV_ENTRY_SIZE > f->totalsize)
			return fail(err, errlen, FDT_E_TRUNCATED,
				    "truncated: memory reservation list at 0x%x has no 0,0 terminator before totalsize 0x%x",
				    (unsigned int)f->off_rsvmap, (unsigned int)f->totalsize);
		off += RSV_ENTRY_SIZE;
		if (fdt_be64(f->base + off - 16) == 0 && fdt_be64(f->base + off - 8) == 0)
			break;
	}
	len = off - f->off_rsvmap;
	if (ranges_overlap(f->off_rsvmap, len, f->off_struct, f->size_struct) ||
	    ranges_overlap(f->off_rsvmap, len, f->off_strings, f->size_strings))
		return fail(err, errlen, FDT_E_BADOFFSET,
			    "bad offset: memory reservation list 0x%x+0x%x overlaps the structure or strings block",
			    (unsigned int)f->off_rsvmap, (unsigned int)len);
	return FDT_OK;
}

/* Turn a token decoding failure at off into a message. */
static int token_error(const struct fdt *f, u32 off, const struct token *t, enum tok_err e,
		       char *err, size_t errlen)
{
	const int c = FDT_E_STRUCTURE;

	switch (e) {
	case TOK_CUT:
		if ((u64)off + 4 > f->size_struct)
			return fail(err, errlen, c,
				    "structure block: missing FDT_END (block ends at 0x%x)",
				    (unsigned int)f->size_struct);
		return fail(err, errlen, c,
			    "structure block: property header at 0x%x runs past the block end 0x%x",
			    (unsigned int)off, (unsigned int)f->size_struct);
	case TOK_NAME_OPEN:
		return fail(err, errlen, c,
			    "structure block: node name at 0x%x is not NUL-terminated inside the block",
			    (unsigned int)off);
	case TOK_VALUE_CUT:
		return fail(err, errlen, c,
			    "structure block: property at 0x%x has len %u, past the block end 0x%x",
			    (unsigned int)off, (unsigned int)t->len, (unsigned int)f->size_struct);
	case TOK_NAMEOFF:
		return fail(err, errlen, c,
			    "structure block: property name offset 0x%x outside strings block (size 0x%x)",
			    (unsigned int)t->nameoff, (unsigned int)f->size_strings);
	case TOK_PNAME_OPEN:
		return fail(err, errlen, c,
			    "structure block: property name at strings offset 0x%x is not NUL-terminated",
			    (unsigned int)t->nameoff);
	case TOK_UNKNOWN:
		return fail(err, errlen, c, "structure block: unknown token 0x%x at offset 0x%x",
			    (unsigned int)t->tag, (unsigned int)off);
	case TOK_OK:
		break;
	}
	return FDT_OK;
}

/* Nesting state of the structure walk in fdt_open. */
struct walk_state {
	int depth;		/* nodes open */
	bool had_root;
	bool has_child[FDT_MAX_DEPTH + 1];	/* node at depth d has a subnode */
};

/* A BEGIN_NODE at off: one root, with an empty name, nesting not too deep. */
static int check_begin(const struct fdt *f, struct walk_state *w, u32 off,
		       char *err, size_t errlen)
{
	const int c = FDT_E_STRUCTURE;

	if (w->depth == 0 && w->had_root)
		return fail(err, errlen, c, "structure block: second root node at 0x%x",
			    (unsigned int)off);
	if (w->depth == 0 && *struct_ptr(f, off + 4))
		return fail(err, errlen, c,
			    "structure block: root node at 0x%x has a name (it must be empty)",
			    (unsigned int)off);
	if (w->depth == FDT_MAX_DEPTH)
		return fail(err, errlen, c,
			    "structure block: node at 0x%x nested deeper than %d levels",
			    (unsigned int)off, FDT_MAX_DEPTH);
	w->has_child[w->depth++] = true;
	w->has_child[w->depth] = false;
	w->had_root = true;
	return FDT_OK;
}

/* Check one decoded token's place in the tree. Returns FDT_OK, or -1 at a
 * good FDT_END, or an error code. */
static int check_token(const struct fdt *f, struct walk_state *w, u32 off,
		       const struct token *t, char *err, size_t errlen)
{
	const int c = FDT_E_STRUCTURE;

	switch (t->tag) {
	case FDT_BEGIN_NODE:
		return check_begin(f, w, off, err, errlen);
	case FDT_END_NODE:
		if (w->depth == 0)
			return fail(err, errlen, c,
				    "structure block: FDT_END_NODE at 0x%x closes no open node",
				    (unsigned int)off);
		w->depth--;
		return FDT_OK;
	case FDT_PROP:
		if (w->depth == 0 || w->has_child[w->depth])
			return fail(err, errlen, c, "structure block: property '%s' at 0x%x is %s",
				    string_at(f, t->nameoff), (unsigned int)off,
				    w->depth ? "after a subnode" : "outside any node");
		return FDT_OK;
	case FDT_END:
		if (w->depth != 0 || !w->had_root)
			return fail(err, errlen, c, "structure block: FDT_END at 0x%x with %s",
				    (unsigned int)off,
				    w->depth ? "nodes still open" : "no root node");
		return -1;
	}
	return FDT_OK;	/* FDT_NOP */
}

/* Walk every token: each decodes inside its block, nodes nest properly
 * under exactly one root, and FDT_END closes the block. */
static int check_structure(const struct fdt *f, char *err, size_t errlen)
{
	struct walk_state w;
	struct token t;
	u32 off = 0;
	int rc;

	w.depth = 0;		/* has_child[d] is set when depth d is entered */
	w.had_root = false;
	for (;;) {
		enum tok_err e = decode(f, off, &t);

		if (e != TOK_OK)
			return token_error(f, off, &t, e, err, errlen);
		rc = check_token(f, &w, off, &t, err, errlen);
		if (rc)
			return rc < 0 ? FDT_OK : rc;
		off = t.next;	/* always > off, so the loop ends */
	}
}

int fdt_open(struct fdt *fdt, const void *blob, u32 max_size, char *err, size_t errlen)
{
	struct fdt f = { .base = blob };
	int rc;

	*fdt = (struct fdt){ .base = NULL };
	if (err && errlen)
		err[0] = '\0';
	if (!blob)
		return fail(err, errlen, FDT_E_TRUNCATED, "truncated: no blob (NULL pointer)");
	rc = check_header(&f, blob, max_size, err, errlen);
	if (!rc)
		rc = check_layout(&f, blob, err, errlen);
	if (!rc)
		rc = check_rsvmap(&f, err, errlen);
	if (!rc)
		rc = check_structure(&f, err, errlen);
	if (!rc)
		*fdt = f;
	return rc;
}

/* ---- walking nodes and properties ---- */

/* The root node: the first BEGIN_NODE after any NOPs. */
static int root_node(const struct fdt *f)
{
	u32 off = 0, next, tag;

	while ((tag = tag_at(f, (int)off, &next)) == FDT_NOP)
		off = next;
	return tag == FDT_BEGIN_NODE ? (int)off : -FDT_E_NOTFOUND;
}

/* Skip properties and NOPs from off; the next BEGIN_NODE offset, or
 * -FDT_E_NOTFOUND if an END_NODE (or anything else) comes first. */
static int next_child_from(const struct fdt *f, u32 off)
{
	u32 next, tag;

	while ((tag = tag_at(f, (int)off, &next)) == FDT_PROP || tag == FDT_NOP)
		off = next;
	return tag == FDT_BEGIN_NODE ? (int)off : -FDT_E_NOTFOUND;
}

/* The offset just past the END_NODE that closes node, or 0 on failure. */
static u32 subtree_end(const struct fdt *f, int node)
{
	u32 off = (u32)node, next, tag;
	int depth = 0;

	for (;;) {
		tag = tag_at(f, (int)off, &next);
		if (tag == FDT_BEGIN_NODE)
			depth++;
		else if (tag == FDT_END_NODE && --depth == 0)
			return next;
		else if (tag == 0 || tag == FDT_END || depth <= 0)
			return 0;
		off = next;
	}
}

int fdt_first_subnode(const struct fdt *fdt, int node)
{
	u32 next;

	if (tag_at(fdt, node, &next) != FDT_BEGIN_NODE)
		return -FDT_E_NOTFOUND;
	return next_child_from(fdt, next);
}

int fdt_next_subnode(const struct fdt *fdt, int node)
{
	u32 end;

	if (tag_at(fdt, node, NULL) != FDT_BEGIN_NODE)
		return -FDT_E_NOTFOUND;
	end = subtree_end(fdt, node);
	return end ? next_child_from(fdt, end) : -FDT_E_NOTFOUND;
}

/* Walk from the start keeping the chain of open nodes, until node opens. */
int fdt_parent(const struct fdt *fdt, int node)
{
	int open[FDT_MAX_DEPTH];
	int depth = 0;
	u32 off = 0, next, tag;

	if (node < 0)
		return -FDT_E_NOTFOUND;
	while ((tag = tag_at(fdt, (int)off, &next)) != 0 && tag != FDT_END) {
		if (tag == FDT_BEGIN_NODE) {
			if (off == (u32)node)
				return depth ? open[depth - 1] : -FDT_E_NOTFOUND;
			if (depth == FDT_MAX_DEPTH)
				return -FDT_E_NOTFOUND;
			open[depth++] = (int)off;
		} else if (tag == FDT_END_NODE && depth-- == 0) {
			return -FDT_E_NOTFOUND;
		}
		if (off >= (u32)node)	/* passed it: not a node offset */
			return -FDT_E_NOTFOUND;
		off = next;
	}
	return -FDT_E_NOTFOUND;
}

const char *fdt_node_name(const struct fdt *fdt, int node)
{
	if (tag_at(fdt, node, NULL) != FDT_BEGIN_NODE)
		return NULL;
	return (const char *)struct_ptr(fdt, (u32)node + 4);
}

/* Skip NOPs from off; the offset of the next PROP, or -FDT_E_NOTFOUND. */
static int prop_from(const struct fdt *f, u32 off)
{
	u32 next, tag;

	while ((tag = tag_at(f, (int)off, &next)) == FDT_NOP)
		off = next;
	return tag == FDT_PROP ? (int)off : -FDT_E_NOTFOUND;
}

int fdt_first_prop(const struct fdt *fdt, int node)
{
	u32 next;

	if (tag_at(fdt, node, &next) != FDT_BEGIN_NODE)
		return -FDT_E_NOTFOUND;
	return prop_from(fdt, next);
}

int fdt_next_prop(const struct fdt *fdt, int prop)
{
	u32 next;

	if (tag_at(fdt, prop, &next) != FDT_PROP)
		return -FDT_E_NOTFOUND;
	return prop_from(fdt, next);
}

const void *fdt_prop_at(const struct fdt *fdt, int prop, const char **name, int *lenp)
{
	struct token t;

	if (prop < 0 || decode(fdt, (u32)prop, &t) != TOK_OK || t.tag != FDT_PROP) {
		if (lenp)
			*lenp = -FDT_E_NOTFOUND;
		return NULL;
	}
	if (name)
		*name = string_at(fdt, t.nameoff);
	if (lenp)
		*lenp = (int)t.len;
	return struct_ptr(fdt, (u32)prop + 12);
}

/* fdt_getprop for a name given as n bytes (not necessarily NUL-terminated). */
static const void *getprop_n(const struct fdt *f, int node, const char *name, size_t n,
			     int *lenp)
{
	const char *pname;
	const void *val;

	for (int p = fdt_first_prop(f, node); p >= 0; p = fdt_next_prop(f, p)) {
		val = fdt_prop_at(f, p, &pname, lenp);
		if (val && str_eq_n(pname, name, n))
			return val;
	}
	if (lenp)
		*lenp = -FDT_E_NOTFOUND;
	return NULL;
}

const void *fdt_getprop(const struct fdt *fdt, int node, const char *name, int *lenp)
{
	return getprop_n(fdt, node, name, fdt_strlen(name), lenp);
}

bool fdt_prop_u32(const struct fdt *fdt, int node, const char *name, u32 *out)
{
	int len;
	const void *v = fdt_getprop(fdt, node, name, &len);

	if (!v || len != 4)
		return false;
	*out = fdt_be32(v);
	return true;
}

u32 fdt_address_cells(const struct fdt *fdt, int node)
{
	u32 v;

	return fdt_prop_u32(fdt, node, "#address-cells", &v) ? v : 2;
}

u32 fdt_size_cells(const struct fdt *fdt, int node)
{
	u32 v;

	return fdt_prop_u32(fdt, node, "#size-cells", &v) ? v : 1;
}

/* ---- paths ---- */

/*
 * The child of parent named by the n bytes at name. An exact match wins;
 * otherwise a name without '@' matches "name@unit" if only one child does.
 */
static int subnode_n(const struct fdt *f, int parent, const char *name, size_t n)
{
	bool has_unit = find_char(name, n, '@') < n;
	int loose = -FDT_E_NOTFOUND, nloose = 0;

	for (int c = fdt_first_subnode(f, parent); c >= 0; c = fdt_next_subnode(f, c)) {
		const char *cname = fdt_node_name(f, c);
		size_t clen = fdt_strlen(cname);

		if (clen == n && fdt_bytes_eq(cname, name, n))
			return c;
		if (!has_unit && clen > n && cname[n] == '@' && fdt_bytes_eq(cname, name, n)) {
			loose = c;
			nloose++;
		}
	}
	return nloose == 1 ? loose : -FDT_E_NOTFOUND;
}

/* Follow the '/'-separated components in p[0..n) down from node. */
static int walk_path(const struct fdt *f, int node, const char *p, size_t n)
{
	size_t i = 0, len;

	while (node >= 0) {
		while (i < n && p[i] == '/')
			i++;
		if (i == n)
			return node;
		len = find_char(p + i, n - i, '/');
		node = subnode_n(f, node, p + i, len);
		i += len;
	}
	return node;
}

/* Resolve p[0..n), which starts with an alias name, through /aliases. */
static int alias_path(const struct fdt *f, const char *p, size_t n)
{
	size_t alen = find_char(p, n, '/');
	int aliases = walk_path(f, root_node(f), "aliases", 7);
	int vlen, node;
	const char *val = getprop_n(f, aliases, p, alen, &vlen);

	if (!val || vlen < 2 || val[0] != '/' ||
	    strnlen_bounded(val, (size_t)vlen) != (size_t)vlen - 1)
		return -FDT_E_NOTFOUND;
	node = walk_path(f, root_node(f), val, (size_t)vlen - 1);
	return walk_path(f, node, p + alen, n - alen);
}

/* fdt_path_offset for a path of n bytes. */
static int path_n(const struct fdt *f, const char *p, size_t n)
{
	if (n == 0)
		return -FDT_E_NOTFOUND;
	if (p[0] != '/')
		return alias_path(f, p, n);
	return walk_path(f, root_node(f), p, n);
}

int fdt_path_offset(const struct fdt *fdt, const char *path)
{
	if (!path)
		return -FDT_E_NOTFOUND;
	return path_n(fdt, path, fdt_strlen(path));
}

int fdt_stdout_node(const struct fdt *fdt)
{
	int chosen = fdt_path_offset(fdt, "/chosen");
	int len;
	const char *p = fdt_getprop(fdt, chosen, "stdout-path", &len);

	if (!p)
		p = fdt_getprop(fdt, chosen, "linux,stdout-path", &len);
	if (!p)
		return -FDT_E_NOTFOUND;
	len = (int)strnlen_bounded(p, (size_t)len);
	return path_n(fdt, p, find_char(p, (size_t)len, ':'));
}

/* ---- compatible, phandle ---- */

/* Does the NUL-separated list val[0..len) contain s? An unterminated last
 * piece is not a string and never matches. */
static bool stringlist_has(const char *val, int len, const char *s)
{
	size_t n = fdt_strlen(s);
	int i = 0;

	while (i < len) {
		size_t piece = strnlen_bounded(val + i, (size_t)(len - i));

		if (piece == (size_t)(len - i))
			return false;
		if (piece == n && fdt_bytes_eq(val + i, s, n))
			return true;
		i += (int)piece + 1;
	}
	return false;
}

bool fdt_node_is_compatible(const struct fdt *fdt, int node, const char *compat)
{
	int len;
	const char *val = fdt_getprop(fdt, node, "compatible", &len);

	return val && stringlist_has(val, len, compat);
}

/* The next BEGIN_NODE after the token at off (from the start if off < 0),
 * in document order, or -FDT_E_NOTFOUND. */
static int next_node(const struct fdt *f, int off)
{
	u32 pos, next, tag;

	if (off < 0)
		pos = 0;
	else if (!tag_at(f, off, &pos))
		return -FDT_E_NOTFOUND;
	while ((tag = tag_at(f, (int)pos, &next)) != 0 && tag != FDT_END) {
		if (tag == FDT_BEGIN_NODE)
			return (int)pos;
		pos = next;
	}
	return -FDT_E_NOTFOUND;
}

int fdt_node_by_compatible(const struct fdt *fdt, int after, const char *compat)
{
	for (int n = next_node(fdt, after); n >= 0; n = next_node(fdt, n))
		if (fdt_node_is_compatible(fdt, n, compat))
			return n;
	return -FDT_E_NOTFOUND;
}

/* A node's phandle: "phandle", or the older "linux,phandle"; 0 if none. */
static u32 node_phandle(const struct fdt *f, int node)
{
	u32 v;

	if (fdt_prop_u32(f, node, "phandle", &v) || fdt_prop_u32(f, node, "linux,phandle", &v))
		return v;
	return 0;
}

int fdt_node_by_phandle(const struct fdt *fdt, u32 phandle)
{
	if (phandle == 0 || phandle == 0xffffffffu)
		return -FDT_E_NOTFOUND;
	for (int n = next_node(fdt, -1); n >= 0; n = next_node(fdt, n))
		if (node_phandle(fdt, n) == phandle)
			return n;
	return -FDT_E_NOTFOUND;
}

/* ---- reg ---- */

/* Read n (0..2) big-endian cells at p as one number. */
static u64 read_cells(const u8 *p, u32 n)
{
	u64 v = 0;

	for (u32 i = 0; i < n; i++)
		v = v << 32 | fdt_be32(p + 4 * i);
	return v;
}

/* The cell counts a node's reg uses: its parent's (defaults for the root). */
static void reg_cells(const struct fdt *f, int node, u32 *ac, u32 *sc)
{
	int parent = fdt_parent(f, node);

	*ac = fdt_address_cells(f, parent);
	*sc = fdt_size_cells(f, parent);
}

int fdt_read_reg(const struct fdt *fdt, int node, int idx, u64 *addr, u64 *size)
{
	u32 ac, sc, entry;
	int len;
	const u8 *reg = fdt_getprop(fdt, node, "reg", &len);

	if (!reg || idx < 0)
		return -FDT_E_NOTFOUND;
	reg_cells(fdt, node, &ac, &sc);
	if (ac > 2 || sc > 2 || ac + sc == 0)
		return -FDT_E_BADVALUE;
	entry = (ac + sc) * 4;
	if ((u32)len % entry)
		return -FDT_E_BADVALUE;
	if ((u32)idx >= (u32)len / entry)
		return -FDT_E_NOTFOUND;
	reg += (u32)idx * entry;
	if (addr)
		*addr = read_cells(reg, ac);
	if (size)
		*size = read_cells(reg + 4 * ac, sc);
	return FDT_OK;
}

/* ---- boot information ---- */

/* Is the first string of property `name` exactly `value`? */
static bool prop_str_is(const struct fdt *f, int node, const char *name, const char *value)
{
	int len;
	const char *s = fdt_getprop(f, node, name, &len);

	return s && strnlen_bounded(s, (size_t)len) < (size_t)len &&
	       str_eq_n(value, s, fdt_strlen(s));
}

/* A node is in use unless its "status" says otherwise ("okay" or "ok"). */
static bool node_enabled(const struct fdt *f, int node)
{
	if (!fdt_getprop(f, node, "status", NULL))
		return true;
	return prop_str_is(f, node, "status", "okay") || prop_str_is(f, node, "status", "ok");
}

/* Where fdt_scan_boot_info collects ranges, and what to call them. */
struct range_list {
	struct fdt_range *r;
	int *n;
	int max;
	const char *what;
};

/* Append [base, base+size) unless it is empty. `where` names its source. */
static int add_range(struct range_list *l, u64 base, u64 size, const char *where,
		     char *err, size_t errlen)
{
	if (size == 0)
		return FDT_OK;
	if (base + size < base)
		return fail(err, errlen, FDT_E_BADVALUE,
			    "%s: range 0x%llx + 0x%llx wraps past the end of the address space",
			    where, (unsigned long long)base, (unsigned long long)size);
	if (*l->n == l->max)
		return fail(err, errlen, FDT_E_BADVALUE, "too many %s (max %d)", l->what, l->max);
	l->r[*l->n].base = base;
	l->r[*l->n].size = size;
	(*l->n)++;
	return FDT_OK;
}

/* Explain why fdt_read_reg said -FDT_E_BADVALUE for node (path dir/name). */
static int bad_reg(const struct fdt *f, int node, const char *where, char *err, size_t errlen)
{
	u32 ac, sc;
	int len;

	fdt_getprop(f, node, "reg", &len);
	reg_cells(f, node, &ac, &sc);
	if (ac > 2 || sc > 2 || ac + sc == 0)
		return fail(err, errlen, FDT_E_BADVALUE,
			    "%s: reg with #address-cells %u and #size-cells %u is not supported (at most 2 each)",
			    where, (unsigned int)ac, (unsigned int)sc);
	return fail(err, errlen, FDT_E_BADVALUE,
		    "%s: reg length %d is not a multiple of %u (#address-cells %u + #size-cells %u)",
		    where, len, (unsigned int)((ac + sc) * 4), (unsigned int)ac, (unsigned int)sc);
}

/* Append every non-empty reg entry of node, a child of the node at path dir. */
static int collect_reg(const struct fdt *f, int node, const char *dir, struct range_list *l,
		       char *err, size_t errlen)
{
	char where[96];
	u64 base, size;
	int rc;

	snprintk(where, sizeof(where), "%s/%s", dir, fdt_node_name(f, node));
	for (int i = 0; (rc = fdt_read_reg(f, node, i, &base, &size)) == FDT_OK; i++) {
		rc = add_range(l, base, size, where, err, errlen);
		if (rc)
			return rc;
	}
	return rc == -FDT_E_BADVALUE ? bad_reg(f, node, where, err, errlen) : FDT_OK;
}

/* RAM: the enabled root children whose device_type is "memory". */
static int scan_memory(const struct fdt *f, struct fdt_boot_info *bi, char *err, size_t errlen)
{
	struct range_list l = { bi->mem, &bi->nmem, FDT_MAX_BANKS, "memory banks" };
	int root = root_node(f), found = 0, rc;

	for (int c = fdt_first_subnode(f, root); c >= 0; c = fdt_next_subnode(f, c)) {
		if (!prop_str_is(f, c, "device_type", "memory") || !node_enabled(f, c))
			continue;
		found++;
		rc = collect_reg(f, c, "", &l, err, errlen);
		if (rc)
			return rc;
	}
	if (!found)
		return fail(err, errlen, FDT_E_NOMEMORY,
			    "missing /memory node (no enabled node with device_type \"memory\" under /)");
	if (!bi->nmem)
		return fail(err, errlen, FDT_E_NOMEMORY,
			    "no RAM: the /memory nodes have no reg entry of non-zero size");
	return FDT_OK;
}

/* The memory-reservation list, then the reg of /reserved-memory's children. */
static int scan_reserved(const struct fdt *f, struct fdt_boot_info *bi, char *err, size_t errlen)
{
	struct range_list l = { bi->reserved, &bi->nreserved, FDT_MAX_RESERVED, "reserved ranges" };
	int rc, resmem;

	for (u32 off = f->off_rsvmap; (u64)off + RSV_ENTRY_SIZE <= f->totalsize; off += 16) {
		u64 base = fdt_be64(f->base + off), size = fdt_be64(f->base + off + 8);

		if (base == 0 && size == 0)
			break;
		rc = add_range(&l, base, size, "memory reservation list", err, errlen);
		if (rc)
			return rc;
	}
	resmem = fdt_path_offset(f, "/reserved-memory");
	for (int c = fdt_first_subnode(f, resmem); c >= 0; c = fdt_next_subnode(f, c)) {
		if (!node_enabled(f, c))
			continue;
		rc = collect_reg(f, c, "/reserved-memory", &l, err, errlen);
		if (rc)
			return rc;
	}
	return FDT_OK;
}

/* A /chosen property holding one or two cells; *present says if it exists. */
static int chosen_addr(const struct fdt *f, int chosen, const char *name, u64 *val,
		       bool *present, char *err, size_t errlen)
{
	int len;
	const void *v = fdt_getprop(f, chosen, name, &len);

	*present = v != NULL;
	if (!v)
		return FDT_OK;
	if (len == 4)
		*val = fdt_be32(v);
	else if (len == 8)
		*val = fdt_be64(v);
	else
		return fail(err, errlen, FDT_E_BADVALUE,
			    "/chosen: %s has length %d (expected 4 or 8)", name, len);
	return FDT_OK;
}

/* linux,initrd-start and -end: both or neither, end not below start. */
static int scan_initrd(const struct fdt *f, int chosen, struct fdt_boot_info *bi,
		       char *err, size_t errlen)
{
	bool has_start, has_end;
	int rc;

	rc = chosen_addr(f, chosen, "linux,initrd-start", &bi->initrd_start, &has_start,
			 err, errlen);
	if (!rc)
		rc = chosen_addr(f, chosen, "linux,initrd-end", &bi->initrd_end, &has_end,
				 err, errlen);
	if (rc)
		return rc;
	if (has_start != has_end)
		return fail(err, errlen, FDT_E_BADVALUE,
			    "/chosen: linux,initrd-%s without linux,initrd-%s",
			    has_start ? "start" : "end", has_start ? "end" : "start");
	if (has_start && bi->initrd_end < bi->initrd_start)
		return fail(err, errlen, FDT_E_BADVALUE,
			    "/chosen: linux,initrd-end below linux,initrd-start (0x%llx < 0x%llx)",
			    (unsigned long long)bi->initrd_end,
			    (unsigned long long)bi->initrd_start);
	bi->has_initrd = has_start;
	return FDT_OK;
}

/* bootargs and the initrd from /chosen (which may be missing). */
static int scan_chosen(const struct fdt *f, struct fdt_boot_info *bi, char *err, size_t errlen)
{
	int chosen = fdt_path_offset(f, "/chosen");
	int len;
	const char *args;

	if (chosen < 0)
		return FDT_OK;
	args = fdt_getprop(f, chosen, "bootargs", &len);
	if (args && strnlen_bounded(args, (size_t)len) == (size_t)len)
		return fail(err, errlen, FDT_E_BADVALUE,
			    "/chosen: bootargs is not a NUL-terminated string");
	bi->bootargs = args;
	return scan_initrd(f, chosen, bi, err, errlen);
}

int fdt_scan_boot_info(const struct fdt *fdt, struct fdt_boot_info *bi, char *err, size_t errlen)
{
	int rc;

	bi->nmem = 0;
	bi->nreserved = 0;
	bi->bootargs = NULL;
	bi->initrd_start = 0;
	bi->initrd_end = 0;
	bi->has_initrd = false;
	bi->stdout_node = -FDT_E_NOTFOUND;
	if (err && errlen)
		err[0] = '\0';
	if (!fdt->base)
		return fail(err, errlen, FDT_E_MAGIC,
			    "no device tree: fdt_open() did not succeed on this struct fdt");
	rc = scan_memory(fdt, bi, err, errlen);
	if (!rc)
		rc = scan_reserved(fdt, bi, err, errlen);
	if (!rc)
		rc = scan_chosen(fdt, bi, err, errlen);
	if (!rc)
		bi->stdout_node = fdt_stdout_node(fdt);
	return rc;
}
