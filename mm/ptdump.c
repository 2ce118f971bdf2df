/*
 * ptdump.c - Linux-style page-table dump and leaf counting.
 *
 * The dump walks every entry of the kernel's tables in VA order and "notes"
 * each leaf or invalid entry. Consecutive entries with the same level and
 * attribute bits form one run; a run ends when either changes or a section
 * marker is crossed, and is then printed as one line (format: Linux's
 * arch/arm64/mm/ptdump.c, see mm/ptdump.h).
 */
#include "ptdump.h"

/* Where output goes: printk (buf == NULL) or a buffer. */
struct pd_out {
	char *buf;
	size_t size, len;
};

static void pd_puts(struct pd_out *o, const char *s)
{
	if (!o->buf) {
		printk("%s", s);
		return;
	}
	for (; *s; s++, o->len++)
		if (o->len + 1 < o->size)
			o->buf[o->len] = *s;
	if (o->size)
		o->buf[MIN(o->len, o->size - 1)] = '\0';
}

static void pd_printf(struct pd_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pd_printf(struct pd_out *o, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintk(line, sizeof(line), fmt, ap);
	va_end(ap);
	pd_puts(o, line);
}

/* "<n><unit>" with the largest of K/M/G/T/P/E that divides size exactly. */
static void size_str(u64 bytes, char *buf, size_t n)
{
	static const char units[] = "KMGTPE";
	u64 s = bytes >> 10;
	unsigned u = 0;

	while (s && !(s & 1023) && u + 1 < sizeof(units) - 1) {
		s >>= 10;
		u++;
	}
	snprintk(buf, n, "%llu%c", (pt_ull)s, units[u]);
}

/* ---- counting ---- */

static void count_table(const struct pt_space *as, phys_addr_t table, int level,
			unsigned long base, unsigned long start, unsigned long last,
			struct pt_counts *out)
{
	/* LAB ptwalk: begin; stub: (void)as; (void)table; (void)level; (void)base; (void)start; (void)last; (void)out; */
	u64 size = pt_level_size(level);

	for (unsigned long i = 0; i < arch_pt_entries(level); i++) {
		unsigned long va = base + i * size;
		pteval_t v;

		if (va + (size - 1) < start || va > last)
			continue;
		v = arch_pte_read(pt_entry_ptr(table, level, i));
		if (arch_pte_is_table(v, level)) {
			out->tables++;
			count_table(as, arch_pte_pa(v), level + 1, va, start, last, out);
		} else if (arch_pte_valid(v) && !arch_pte_is_cont(v)) {
			out->leaves[level]++;
		} else if (arch_pte_valid(v) && i % arch_pt_cont_entries(level) == 0) {
			out->cont_runs[level]++;
		}
	}
	/* LAB ptwalk: end */
}

static unsigned long root_base(const struct pt_space *as)
{
	return pt_space_is_user(as) ? 0 : KERNEL_ROOT_VA_BASE;
}

void pt_count_range(const struct pt_space *as, unsigned long start, unsigned long last,
		    struct pt_counts *out)
{
	__builtin_memset(out, 0, sizeof(*out));
	count_table(as, as->root, 0, root_base(as), start, last, out);
}

void pt_count_linear(const struct pt_space *as, struct pt_counts *out)
{
	pt_count_range(as, PAGE_OFFSET, PAGE_END - 1, out);
}

int ptdump_summary(const struct pt_counts *c, char *buf, size_t size)
{
	struct pd_out o = { buf, size, 0 };
	char s[16];

	const char *sep = ";";

	pd_printf(&o, "ptdump: linear map: %llu page-table pages", (pt_ull)c->tables);
	for (int l = 0; l < PT_LAST_LEVEL; l++) {
		if (!arch_pt_leaf_ok(l))
			continue;
		size_str(pt_level_size(l), s, sizeof(s));
		pd_printf(&o, "%s %s blocks: %llu", sep, s, (pt_ull)c->leaves[l]);
		sep = ",";
	}
	for (int l = 0; l < PT_LEVELS; l++) {
		if (arch_pt_cont_entries(l) <= 1)
			continue;
		size_str(pt_run_size(l), s, sizeof(s));
		pd_printf(&o, "%s %s cont runs: %llu", sep, s, (pt_ull)c->cont_runs[l]);
		sep = ",";
	}
	size_str(pt_level_size(PT_LAST_LEVEL), s, sizeof(s));
	pd_printf(&o, "%s %s pages: %llu", sep, s, (pt_ull)c->leaves[PT_LAST_LEVEL]);
	return (int)o.len;
}

/* ---- dumping ---- */

/*
 * The geometry line, for tools that draw the dump (tools/pictures.py):
 * per level its name, the size one entry maps, the entries in a table,
 * whether it may hold leaves and how many entries a contiguous run has.
 *   ptdump: levels: PGD 512G x512, PUD 1G x512 leaf, PMD 2M x512 leaf cont 16, PTE 4K x512 leaf cont 16
 */
static void print_levels(struct pd_out *o)
{
	char s[16];

	pd_puts(o, "ptdump: levels:");
	for (int l = 0; l < PT_LEVELS; l++) {
		size_str(pt_level_size(l), s, sizeof(s));
		pd_printf(o, "%s %s %s x%lu", l ? "," : "", arch_pt_level_name(l), s, arch_pt_entries(l));
		if (arch_pt_leaf_ok(l))
			pd_puts(o, " leaf");
		if (arch_pt_cont_entries(l) > 1)
			pd_printf(o, " cont %u", arch_pt_cont_entries(l));
	}
	pd_puts(o, "\n");
}

struct pd_state {
	struct pd_out *out;
	unsigned long start;        /* first VA of the current run */
	int level;                  /* of the current run; -1 before the first */
	pteval_t attrs;             /* attribute bits of the run, 0 if invalid */
	bool valid;
	unsigned long lo, hi;        /* dump only VAs in [lo, hi] */
	const struct pt_marker *markers;
	unsigned nmarkers, next;    /* next marker not printed yet */
};

static void print_attrs(struct pd_out *o, pteval_t attrs)
{
	unsigned n;
	const struct pt_attr_name *names = arch_ptdump_attr_names(&n);

	for (unsigned i = 0; i < n; i++) {
		const char *s = (attrs & names[i].mask) == names[i].val ? names[i].set : names[i].clear;

		if (s)
			pd_printf(o, " %s", s);
	}
}

/* Print the current run, which ends just before 'end'. */
static void print_run(struct pd_state *st, unsigned long end)
{
	char s[16];

	size_str((u64)(end - st->start), s, sizeof(s));
	pd_printf(st->out, "0x%016llx-0x%016llx   %10s %s", (pt_ull)st->start, (pt_ull)end, s,
		  arch_pt_level_name(st->level));
	if (st->valid)
		print_attrs(st->out, st->attrs);
	pd_puts(st->out, "\n");
}

/* Print every marker at or below va that is not printed yet. */
static bool print_markers(struct pd_state *st, unsigned long va)
{
	bool any = false;

	while (st->next < st->nmarkers && st->markers[st->next].va <= va) {
		pd_printf(st->out, "---[ %s ]---\n", st->markers[st->next].name);
		st->next++;
		any = true;
	}
	return any;
}

/* Account for the entry v at (va, level). */
static void note(struct pd_state *st, unsigned long va, int level, pteval_t v)
{
	bool valid = arch_pte_valid(v);
	pteval_t attrs = valid ? arch_pte_attrs(v) : 0;
	bool crosses = st->next < st->nmarkers && st->markers[st->next].va <= va;

	if (st->level >= 0 && level == st->level && attrs == st->attrs && valid == st->valid &&
	    !crosses)
		return;
	if (st->level >= 0)
		print_run(st, va);
	print_markers(st, va);
	st->start = va;
	st->level = level;
	st->attrs = attrs;
	st->valid = valid;
}

static void dump_table(struct pd_state *st, phys_addr_t table, int level, unsigned long base)
{
	/* LAB ptwalk: begin; stub: (void)table; (void)level; (void)base; (void)note; (void)st; */
	u64 size = pt_level_size(level);

	for (unsigned long i = 0; i < arch_pt_entries(level); i++) {
		unsigned long va = base + i * size;
		pteval_t v;

		if (va + (size - 1) < st->lo || va > st->hi)
			continue;
		v = arch_pte_read(pt_entry_ptr(table, level, i));
		if (arch_pte_is_table(v, level))
			dump_table(st, arch_pte_pa(v), level + 1, va);
		else
			note(st, va, level, v);
	}
	/* LAB ptwalk: end */
}

static void ptdump_to(const struct pt_space *kernel, struct pd_out *o)
{
	struct pd_state st = { .out = o, .level = -1, .lo = KERNEL_VA_START, .hi = ~0ul };
	struct pt_counts c;
	char line[256];

	st.markers = arch_ptdump_markers(&st.nmarkers);
	dump_table(&st, kernel->root, 0, KERNEL_ROOT_VA_BASE);
	print_run(&st, 0);   /* the last run ends at the top of the address space */
	print_levels(o);
	pt_count_linear(kernel, &c);
	ptdump_summary(&c, line, sizeof(line));
	pd_printf(o, "%s\n", line);
}

void ptdump_kernel(const struct pt_space *kernel)
{
	struct pd_out o = { NULL, 0, 0 };

	ptdump_to(kernel, &o);
}

size_t ptdump_kernel_buf(const struct pt_space *kernel, char *buf, size_t size)
{
	struct pd_out o = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	ptdump_to(kernel, &o);
	return o.len;
}

size_t ptdump_user_buf(const struct pt_space *as, char *buf, size_t size)
{
	struct pd_out o = { buf, size, 0 };
	struct pd_state st = { .out = &o, .level = -1, .lo = 0, .hi = USER_VA_END - 1 };
	struct pt_counts c;
	char s[16];

	if (size)
		buf[0] = '\0';
	dump_table(&st, as->root, 0, 0);
	print_run(&st, USER_VA_END);
	print_levels(&o);
	pt_count_range(as, 0, USER_VA_END - 1, &c);
	pd_printf(&o, "pagetables: %llu table pages below the root;", (pt_ull)c.tables);
	for (int level = 0; level < PT_LEVELS; level++) {
		if (!c.leaves[level] && !c.cont_runs[level])
			continue;
		size_str(pt_level_size(level), s, sizeof(s));
		pd_printf(&o, " %s leaves: %llu", s, (pt_ull)c.leaves[level]);
		if (c.cont_runs[level]) {
			size_str(pt_run_size(level), s, sizeof(s));
			pd_printf(&o, " %s cont runs: %llu", s, (pt_ull)c.cont_runs[level]);
		}
	}
	pd_puts(&o, "\n");
	return o.len;
}
