/*
 * tlb_model.c - physical memory, table walker and TLB of one simulated
 * arm64 CPU, checking every descriptor change the code under test makes.
 * See tlb_model.h for what is reported. The granule and VA size are the
 * build's (GRANULE_SHIFT, VA_BITS: 4K/48 unless the Makefile says
 * otherwise, see tests/host/pgtable.mk); the level count, the levels that
 * may hold blocks and the contiguous-run lengths follow from them here.
 *
 * Descriptor bits are decoded here from the architecture (Arm ARM D8.3),
 * not from asm/pgtable.h, so the model is an independent opinion.
 *
 * Bookkeeping:
 *   phys      sparse physical memory: PFN -> host page
 *   tables    every table page reachable from a root: PFN -> (level, first
 *             VA it translates, ASID); kept up to date on each descriptor
 *             write, so any write can be classified as live or not
 *   tlb       cached leaf translations (any size, contiguous runs as one
 *             entry) and walk-cache entries (table descriptors per level)
 *   recs      changes waiting for their TLBI: "broken" (valid -> invalid)
 *             and "in place" (valid -> other valid) descriptors
 *   queue     TLBIs issued but not yet completed by a dsb ish
 *   stores    PFN -> barrier epoch of the last store to a page that was not
 *             a live table (zeroing, filling): a table linked in the same
 *             epoch was linked before its contents were published
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tlb_model.h"

/* ---- arm64 descriptor format ---- */
#define D_VALID  1ULL
#define D_TABLE  2ULL
#ifndef GRANULE_SHIFT
#define GRANULE_SHIFT 12
#endif
#ifndef VA_BITS
#define VA_BITS 48
#endif
#define M_PAGE_SHIFT GRANULE_SHIFT
#define M_BITS   (M_PAGE_SHIFT - 3)                        /* VA bits per table */
#define M_LEVELS ((VA_BITS - M_PAGE_SHIFT + M_BITS - 1) / M_BITS)
#define M_LAST   (M_LEVELS - 1)                            /* the page level */
#define M_ENTRIES (1u << M_BITS)
#define D_OA     (0x0000ffffffffffffULL & ~((1ULL << M_PAGE_SHIFT) - 1))
/* With 16K/64K pages, bits [M_PAGE_SHIFT-1:12] hold no address: RES0 without FEAT_LPA/LPA2. */
#define D_RES0_LOW (((1ULL << M_PAGE_SHIFT) - 1) & ~0xfffULL)
#define D_ATTR   (7ULL << 2)
#define D_SH     (3ULL << 8)
#define D_NG     (1ULL << 11)
#define D_CONT   (1ULL << 52)
/* Must be zero with a 48-bit output address (no FEAT_LPA/LPA2): OA[51:48]
 * would go in bits [15:12] or [9:8] and [49:48] otherwise. Tables: bits
 * [50:48] (bit 51 and up are ignored or attributes); blocks and pages:
 * bits [49:48] (bit 50 is GP, 51 DBM). */
/* FEAT_LPA2's format (TCR_EL1.DS = 1: 4K/16K with a 52-bit VA): bits [9:8]
 * are OA[51:50], not SH, in every descriptor; zero with a 48-bit PA. */
#define M_LPA2   (VA_BITS > 48 && M_PAGE_SHIFT != 16)
#define D_OA_DS  (3ULL << 8)
#define D_RES0_TABLE (7ULL << 48)
#define D_RES0_LEAF  (3ULL << 48)
#define M_PAGE   (1ULL << M_PAGE_SHIFT)
#define KERNEL_BASE (~0UL << VA_BITS)
#define USER_END    (1UL << VA_BITS)
/* The packed keys below hold a VA as its page number: VA_BITS - page shift
 * bits, at most 40 in every layout (4K/52; 38 for 16K/52, 36 for 4K/48 and
 * 64K/52), then bit 40 for the kernel half. */
#define M_VPN_BITS  40
#define M_VPN(va)   (((u64)(va) & ((1ULL << VA_BITS) - 1)) >> M_PAGE_SHIFT)
_Static_assert(VA_BITS - M_PAGE_SHIFT <= M_VPN_BITS, "a VA page number must fit the model's key field");

/* TLBI kinds, the same numbers as ARCH_TLBI_* */
#define K_LEAF 0
#define K_ALL_LEVELS 1
#define K_SPACE 2

typedef unsigned long long ull;

static unsigned m_shift(int level)
{
	return M_PAGE_SHIFT + M_BITS * (M_LAST - level);
}

/* The Arm ARM's level of our level 'level' (walks of fewer levels start lower). */
static int hw_level(int level)
{
	return level + 4 - M_LEVELS;
}

/* May a valid non-table descriptor sit at level? Pages last; blocks at
 * hardware level 2, and 1 with 4K only (no FEAT_LPA2). */
static bool leaf_allowed(int level)
{
	int hw = hw_level(level);

	return hw == 3 || hw == 2 || (hw == 1 && M_PAGE_SHIFT == 12);
}

/* Entries in a contiguous run at level (Arm ARM D8.7.1); 1: no runs there. */
static unsigned cont_n(int level)
{
	static const unsigned pte[] = { 16, 128, 32 }, pmd[] = { 16, 32, 32 };
	unsigned g = (M_PAGE_SHIFT - 12) / 2;

	if (level == M_LAST)
		return pte[g];
	return level == M_LAST - 1 ? pmd[g] : 1;
}

static u64 m_size(int level)
{
	return 1ULL << m_shift(level);
}

/* ---- a u64 -> u64 hash map (open addressing, linear probing) ---- */

struct hmap {
	u64 *keys, *vals;
	unsigned char *used;
	size_t cap, n;
};

static u64 hash64(u64 k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return k;
}

static void hm_clear(struct hmap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

static void hm_put(struct hmap *m, u64 key, u64 val);

static void hm_grow(struct hmap *m)
{
	struct hmap old = *m;
	size_t cap = old.cap ? old.cap * 2 : 1024;

	m->keys = calloc(cap, sizeof(u64));
	m->vals = calloc(cap, sizeof(u64));
	m->used = calloc(cap, 1);
	m->cap = cap;
	m->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.used[i])
			hm_put(m, old.keys[i], old.vals[i]);
	free(old.keys);
	free(old.vals);
	free(old.used);
}

static long hm_slot(const struct hmap *m, u64 key)
{
	if (!m->cap)
		return -1;
	for (size_t i = hash64(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (!m->used[i])
			return -1;
		if (m->keys[i] == key)
			return (long)i;
	}
}

static u64 *hm_find(struct hmap *m, u64 key)
{
	long i = hm_slot(m, key);

	return i < 0 ? NULL : &m->vals[i];
}

static void hm_put(struct hmap *m, u64 key, u64 val)
{
	size_t i;

	if (m->n * 2 >= m->cap)
		hm_grow(m);
	for (i = hash64(key) & (m->cap - 1); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return;
		}
	m->used[i] = 1;
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
}

/* Remove key, shifting later members of its probe chain back. */
static void hm_del(struct hmap *m, u64 key)
{
	long s = hm_slot(m, key);
	size_t mask = m->cap - 1, i, j;

	if (s < 0)
		return;
	i = (size_t)s;
	m->used[i] = 0;
	m->n--;
	for (j = (i + 1) & mask; m->used[j]; j = (j + 1) & mask) {
		size_t k = hash64(m->keys[j]) & mask;
		bool stays = (i <= j) ? (i < k && k <= j) : (i < k || k <= j);

		if (stays)
			continue;
		m->keys[i] = m->keys[j];
		m->vals[i] = m->vals[j];
		m->used[i] = 1;
		m->used[j] = 0;
		i = j;
	}
}

/* ---- state ---- */

struct tent {                 /* one TLB entry */
	u64 key;
	unsigned long va;         /* first VA covered */
	u64 size;
	u64 attrs;                /* descriptor bits other than the OA */
	u64 oa;                   /* PA of va (leaf) or the table's PA (walk cache) */
	u64 desc;                 /* the descriptor (walk cache) */
	int tag;                  /* -1 global, else ASID */
	int cpu;                  /* whose TLB holds it */
	bool walk, live;
};

enum { REC_BROKEN, REC_INPLACE };

struct rec {
	int kind;
	phys_addr_t loc;          /* where the descriptor lives */
	unsigned long va;
	u64 size;
	int asid;
	bool old_table;
	unsigned long epoch;      /* barrier epoch of the write */
	bool done;                /* a completed TLBI has covered it */
	bool leaf_only_tlbi;      /* a leaf-only TLBI covered its VA (old_table) */
	bool local_tlbi;          /* only a local (non-broadcast) TLBI covered it, several CPUs run */
	int wrong_asid;           /* a TLBI covered its VA for this other ASID, or -2 */
};

struct tlbi {
	int kind;
	unsigned long va;
	int asid;
	unsigned long epoch;
	int cpu;                  /* the CPU that issued it */
	bool local;               /* this CPU's TLB only (not the Inner Shareable form) */
};

#define MAX_USER 16
#define MAX_SYMS 32
#define MAX_RECS 4096

static struct {
	struct hmap phys;          /* pfn -> host page (bit 0: owned by us) */
	struct hmap tables;        /* pfn -> packed table info */
	struct hmap tlb;           /* key -> index in ents */
	struct hmap stores;        /* pfn -> epoch of the last store to a non-table page */
	unsigned long publish_barriers;
	struct tent *ents;
	size_t nents, cap_ents;
	size_t *free_idx;
	size_t nfree;
	struct rec recs[MAX_RECS];
	int nrecs;
	struct tlbi *queue;
	size_t nqueue, cap_queue;
	unsigned long epoch;
	bool mmu;
	phys_addr_t kroot;
	struct { phys_addr_t root; int asid; } users[MAX_USER];
	int nusers, cur_asid;
	phys_addr_t img_pa;
	unsigned long img_va;
	u64 img_size, static_off;
	struct { const void *p; unsigned long va; } syms[MAX_SYMS];
	int nsyms;
	unsigned counts[TLBM_NKINDS];
	char last[512];
	bool quiet;
	/* several CPUs: each has its own TLB (entries tagged with it) */
	int cpu, ncpus;           /* the CPU accessing now; CPUs running (0 means 1) */
	bool bbml2;               /* every CPU has BBML2 without conflict aborts */
	bool tlbi_local;          /* TLBIs are the local forms (a bug the tests inject) */
	bool hold_broken;         /* the rendezvous holds nobody (a bug the tests inject) */
	int hold_depth;
	unsigned long hold_count;
} M;

static int ncpus(void)
{
	return M.ncpus > 1 ? M.ncpus : 1;
}

static const char *kind_name[TLBM_NKINDS] = { "CONFLICT", "STALE", "HIDDEN", "FAULT", "SEQUENCE",
					       "ORDER", "FORMAT", "TLBI" };

static void violation(int kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void violation(int kind, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(M.last, sizeof(M.last), "%s: ", kind_name[kind]);

	va_start(ap, fmt);
	vsnprintf(M.last + n, sizeof(M.last) - n, fmt, ap);
	va_end(ap);
	M.counts[kind]++;
	if (!M.quiet)
		printf("# tlb_model %s\n", M.last);
}

unsigned tlb_model_violations(int kind)
{
	return M.counts[kind];
}

unsigned tlb_model_total_violations(void)
{
	unsigned t = 0;

	for (int k = 0; k < TLBM_NKINDS; k++)
		t += M.counts[k];
	return t;
}

const char *tlb_model_last_violation(void)
{
	return M.last;
}

void tlb_model_clear_violations(void)
{
	memset(M.counts, 0, sizeof(M.counts));
	M.last[0] = '\0';
}

void tlb_model_set_quiet(bool quiet)
{
	M.quiet = quiet;
}

unsigned long tlb_model_tlb_entries(void)
{
	return M.tlb.n;
}

void tlb_model_reset(void)
{
	for (size_t i = 0; i < M.phys.cap; i++)
		if (M.phys.used[i] && (M.phys.vals[i] & 1))
			free((void *)(uintptr_t)(M.phys.vals[i] & ~1ULL));
	hm_clear(&M.phys);
	hm_clear(&M.tables);
	hm_clear(&M.tlb);
	hm_clear(&M.stores);
	free(M.ents);
	free(M.free_idx);
	free(M.queue);
	memset(&M, 0, sizeof(M));
}

/* ---- physical memory ---- */

static unsigned char *phys_page(phys_addr_t pa)
{
	u64 *v = hm_find(&M.phys, pa >> M_PAGE_SHIFT);
	void *p;

	if (v)
		return (unsigned char *)(uintptr_t)(*v & ~1ULL);
	p = aligned_alloc(M_PAGE, M_PAGE);
	memset(p, 0, M_PAGE);
	hm_put(&M.phys, pa >> M_PAGE_SHIFT, (u64)(uintptr_t)p | 1);
	return p;
}

u64 tlb_model_phys_read64(phys_addr_t pa)
{
	u64 v;

	memcpy(&v, phys_page(pa) + (pa & (M_PAGE - 1)), sizeof(v));
	return v;
}

void tlb_model_phys_write64(phys_addr_t pa, u64 v)
{
	memcpy(phys_page(pa) + (pa & (M_PAGE - 1)), &v, sizeof(v));
}

/* A store to a page that is not a live table: remember when (see "stores"). */
static void note_store(phys_addr_t pa)
{
	if (!hm_find(&M.tables, pa >> M_PAGE_SHIFT))
		hm_put(&M.stores, pa >> M_PAGE_SHIFT, M.epoch);
}

/* Stands for the stores that fill a page (an allocator zeroing it, poison). */
void tlb_model_phys_fill(phys_addr_t pa, u64 size, int byte)
{
	for (u64 off = 0; off < size; off += M_PAGE) {
		memset(phys_page(pa + off), byte, M_PAGE);
		note_store(pa + off);
	}
}

void tlb_model_set_image(phys_addr_t pa, unsigned long va, u64 size, u64 static_off)
{
	M.img_pa = pa;
	M.img_va = va;
	M.img_size = size;
	M.static_off = static_off;
}

unsigned long tlb_model_sym_va(const void *sym)
{
	u64 off;

	for (int i = 0; i < M.nsyms; i++)
		if (M.syms[i].p == sym)
			return M.syms[i].va;
	if (((uintptr_t)sym & (M_PAGE - 1)) || M.nsyms == MAX_SYMS || !M.img_size) {
		fprintf(stderr, "tlb_model_sym_va: cannot place %p\n", sym);
		abort();
	}
	off = M.static_off + (u64)M.nsyms * M_PAGE;
	M.syms[M.nsyms].p = sym;
	M.syms[M.nsyms].va = M.img_va + off;
	M.nsyms++;
	hm_put(&M.phys, (M.img_pa + off) >> M_PAGE_SHIFT, (u64)(uintptr_t)sym);   /* not owned */
	return M.img_va + off;
}

/* ---- table registry ---- */

/* A table's registry value: VPN, kernel bit, level (3 bits: up to 5
 * levels), ASID + 1 (17 bits): 61 bits. */
static u64 pack_info(int level, unsigned long va_base, int asid)
{
	return M_VPN(va_base) | ((u64)(va_base >> 63) << M_VPN_BITS) |
	       ((u64)level << (M_VPN_BITS + 1)) | ((u64)(asid + 1) << (M_VPN_BITS + 4));
}

static void unpack_info(u64 v, int *level, unsigned long *va_base, int *asid)
{
	*va_base = (unsigned long)((v & ((1ULL << M_VPN_BITS) - 1)) << M_PAGE_SHIFT);
	if ((v >> M_VPN_BITS) & 1)
		*va_base |= KERNEL_BASE;
	*level = (int)((v >> (M_VPN_BITS + 1)) & 7);
	*asid = (int)(v >> (M_VPN_BITS + 4)) - 1;
}

static bool is_table(u64 d, int level)
{
	return level < M_LAST && (d & (D_VALID | D_TABLE)) == (D_VALID | D_TABLE);
}

/* Is a valid descriptor d at level one the architecture allows? Reported if not. */
static void check_format(u64 d, int level, unsigned long va)
{
	const char *why = NULL;

	if (!(d & D_VALID))
		return;
	if (!(d & D_TABLE) && !leaf_allowed(level))
		why = "a block at a level that has none";
	else if (level == M_LAST && !(d & D_TABLE))
		why = "a last-level entry with bit 1 clear (reserved)";
	else if (d & D_RES0_LOW)
		why = "address bits below the granule set (RES0 without FEAT_LPA)";
	else if (M_LPA2 && (d & D_OA_DS))
		why = "bits [9:8] set with TCR_EL1.DS = 1: OA[51:50], beyond the 48-bit PA";
	else if (is_table(d, level) && (d & D_RES0_TABLE))
		why = "RES0 bits [50:48] set in a table descriptor";
	else if (!is_table(d, level) && (d & D_RES0_LEAF))
		why = "RES0 bits [49:48] set in a block or page descriptor";
	else if (!is_table(d, level) && (d & D_OA & (m_size(level) - 1)))
		why = "output address not aligned to the block size (bits below it are RES0)";
	if (why)
		violation(TLBM_FORMAT, "level-%d descriptor 0x%llx for va 0x%lx: %s", level, (ull)d, va, why);
}

/*
 * A table descriptor is about to make the tree at t (of 'level') live: every
 * page of it must have been published by a barrier since its last store.
 */
static void check_published(phys_addr_t t, int level, unsigned long va_base)
{
	u64 *e = hm_find(&M.stores, t >> M_PAGE_SHIFT);

	if (e && *e == M.epoch)
		violation(TLBM_ORDER, "level-%d table 0x%llx linked for va 0x%lx before the stores that "
			  "filled it were published (no dsb since)", level, (ull)t, va_base);
	for (unsigned i = 0; level < M_LAST && i < M_ENTRIES; i++) {
		u64 d = tlb_model_phys_read64(t + i * 8);

		if (is_table(d, level))
			check_published(d & D_OA, level + 1, va_base + ((unsigned long)i << m_shift(level)));
	}
}

static void register_tree(phys_addr_t t, int level, unsigned long va_base, int asid)
{
	hm_put(&M.tables, t >> M_PAGE_SHIFT, pack_info(level, va_base, asid));
	for (unsigned i = 0; i < M_ENTRIES; i++) {
		u64 d = tlb_model_phys_read64(t + i * 8);

		check_format(d, level, va_base + ((unsigned long)i << m_shift(level)));
		if (is_table(d, level))
			register_tree(d & D_OA, level + 1, va_base + ((unsigned long)i << m_shift(level)),
				      asid);
	}
}

static void unregister_tree(phys_addr_t t, int level)
{
	hm_del(&M.tables, t >> M_PAGE_SHIFT);
	for (unsigned i = 0; level < M_LAST && i < M_ENTRIES; i++) {
		u64 d = tlb_model_phys_read64(t + i * 8);

		if (is_table(d, level))
			unregister_tree(d & D_OA, level + 1);
	}
}

void tlb_model_mmu_on(phys_addr_t kernel_root)
{
	M.mmu = true;
	M.kroot = kernel_root;
	register_tree(kernel_root, 0, KERNEL_BASE, -1);
}

void tlb_model_set_user(phys_addr_t root, int asid)
{
	int i;

	if (asid > 0xfffe) {	/* tlb_key() keeps tag + 1 in 16 bits */
		fprintf(stderr, "tlb_model: ASID %d above 0xfffe\n", asid);
		abort();
	}

	for (i = 0; i < M.nusers; i++)
		if (M.users[i].asid == asid)
			break;
	if (i == M.nusers && M.nusers < MAX_USER)
		M.nusers++;
	if (M.users[i].root)
		unregister_tree(M.users[i].root, 0);
	M.users[i].root = root;
	M.users[i].asid = asid;
	M.cur_asid = asid;
	if (root)
		register_tree(root, 0, 0, asid);
}

/* ---- TLB ---- */

/*
 * Leaf sizes a TLB entry can have: pages, page runs, PMD blocks, block
 * runs, and (4K) 1G blocks. 4K: 4K 64K 2M 32M 1G; 16K: 16K 2M 32M 1G;
 * 64K: 64K 2M 512M 16G.
 */
#define N_LEAF_SHIFTS (M_PAGE_SHIFT == 12 ? 5 : 4)
static const unsigned leaf_shifts[] = {
	M_PAGE_SHIFT,
	M_PAGE_SHIFT + (M_PAGE_SHIFT == 12 ? 4 : M_PAGE_SHIFT == 14 ? 7 : 5),
	M_PAGE_SHIFT + M_BITS,
	M_PAGE_SHIFT + M_BITS + 5 - (M_PAGE_SHIFT == 12),
	M_PAGE_SHIFT == 12 ? 30 : 0,
};

static u64 tlb_key(bool walk, unsigned idx, unsigned long va, int tag)
{
	/*
	 * VPN (40 bits), kernel bit, index (3 bits: a walk level 0-4 or a
	 * leaf_shifts[] index 0-4), walk bit, tag + 1 (16 bits: ASIDs up to
	 * 0xfffe, tlb_model_set_user() refuses 0xffff), CPU (3 bits): 64 bits.
	 */
	return M_VPN(va) | ((u64)(va >> 63) << M_VPN_BITS) | ((u64)idx << (M_VPN_BITS + 1)) |
	       ((u64)walk << (M_VPN_BITS + 4)) | ((u64)(tag + 1) << (M_VPN_BITS + 5)) |
	       ((u64)M.cpu << (M_VPN_BITS + 21));
}

static struct tent *tlb_find(u64 key)
{
	u64 *i = hm_find(&M.tlb, key);

	return i ? &M.ents[*i] : NULL;
}

static void tlb_insert(const struct tent *e)
{
	size_t i;

	if (M.nfree) {
		i = M.free_idx[--M.nfree];
	} else {
		if (M.nents == M.cap_ents) {
			M.cap_ents = M.cap_ents ? M.cap_ents * 2 : 1024;
			M.ents = realloc(M.ents, M.cap_ents * sizeof(*M.ents));
			M.free_idx = realloc(M.free_idx, M.cap_ents * sizeof(*M.free_idx));
		}
		i = M.nents++;
	}
	M.ents[i] = *e;
	M.ents[i].cpu = M.cpu;
	M.ents[i].live = true;
	hm_put(&M.tlb, e->key, i);
}

static void tlb_remove(struct tent *e)
{
	hm_del(&M.tlb, e->key);
	e->live = false;
	M.free_idx[M.nfree++] = (size_t)(e - M.ents);
}

/* Tags whose entries a lookup at va may hit (global, and the user ASID). */
static int tags_for(unsigned long va, int *tags)
{
	tags[0] = -1;
	if (va >= KERNEL_BASE)
		return 1;
	tags[1] = M.cur_asid;
	return 2;
}

/* ---- the walker ---- */

struct mwalk {
	bool regime;          /* va is in a translated half with a root */
	bool valid;
	int level;            /* where the walk ended */
	int tlevels;          /* table descriptors followed (levels 0..tlevels-1) */
	u64 tdesc[M_LEVELS];
	u64 desc;             /* final descriptor */
	u64 size;             /* translation size (a consistent run counts whole) */
	unsigned long base;   /* first VA of the translation */
	u64 oa;               /* PA of base */
	bool cont_bad;
	int tag;              /* TLB tag the leaf gets */
	int asid;             /* regime: -1 kernel, else ASID */
};

static bool regime_root(unsigned long va, phys_addr_t *root, int *asid)
{
	if (va >= KERNEL_BASE) {
		*root = M.kroot;
		*asid = -1;
		return M.kroot != 0;
	}
	if (va >= USER_END)
		return false;
	for (int i = 0; i < M.nusers; i++)
		if (M.users[i].asid == M.cur_asid && M.users[i].root) {
			*root = M.users[i].root;
			*asid = M.cur_asid;
			return true;
		}
	return false;
}

/* Are the entries of the run holding entry idx of table t consistent? */
static bool cont_run_ok(phys_addr_t t, unsigned idx, int level, u64 d)
{
	unsigned first = idx & ~(cont_n(level) - 1u);

	for (unsigned k = 0; k < cont_n(level); k++) {
		u64 e = tlb_model_phys_read64(t + (first + k) * 8);
		u64 want_oa = (d & D_OA) + ((u64)k - (idx - first)) * m_size(level);

		if (!(e & D_VALID) || (e & ~D_OA) != (d & ~D_OA) || (e & D_OA) != want_oa)
			return false;
	}
	return true;
}

static void mwalk(unsigned long va, struct mwalk *w)
{
	phys_addr_t t;

	memset(w, 0, sizeof(*w));
	if (!regime_root(va, &t, &w->asid))
		return;
	w->regime = true;
	for (int level = 0; level < M_LEVELS; level++) {
		/* the root resolves what is left of VA_BITS: 2 entries with 16K/48, 64 with 64K/48 */
		unsigned n = level ? M_ENTRIES : 1u << (VA_BITS - m_shift(0));
		unsigned idx = (va >> m_shift(level)) & (n - 1);
		u64 d = tlb_model_phys_read64(t + idx * 8);

		w->level = level;
		w->desc = d;
		if (!(d & D_VALID) || (!(d & D_TABLE) && !leaf_allowed(level)) ||
		    (level == M_LAST && !(d & D_TABLE)))
			return;
		if (is_table(d, level)) {
			w->tdesc[level] = d;
			w->tlevels = level + 1;
			t = d & D_OA;
			continue;
		}
		w->valid = true;
		w->size = m_size(level);
		if ((d & D_CONT) && cont_n(level) > 1) {
			if (cont_run_ok(t, idx, level, d))
				w->size *= cont_n(level);
			else
				w->cont_bad = true;
		}
		w->base = va & ~(unsigned long)(w->size - 1);
		w->oa = (d & D_OA) - ((va & ~(m_size(level) - 1)) - w->base);
		w->tag = (w->asid >= 0 && (d & D_NG)) ? w->asid : -1;
		return;
	}
}

/* ---- records of changes waiting for a TLBI ---- */

static struct rec *rec_covering(unsigned long va, int asid)
{
	for (int i = 0; i < M.nrecs; i++) {
		struct rec *r = &M.recs[i];

		if (r->kind == REC_BROKEN && r->asid == asid && va >= r->va && va - r->va < r->size)
			return r;
	}
	return NULL;
}

/*
 * Forget the records whose invalidation has completed: nothing checks a
 * done record again (a broken entry's later rewrite only needs the record
 * while its TLBI is outstanding). Keeps a long run of unmaps, each of whose
 * entries stays invalid, from filling the table.
 */
static void rec_compact(void)
{
	int n = 0;

	for (int i = 0; i < M.nrecs; i++)
		if (!M.recs[i].done)
			M.recs[n++] = M.recs[i];
	M.nrecs = n;
}

static void rec_add(int kind, phys_addr_t loc, unsigned long va, u64 size, int asid, bool old_table)
{
	if (M.nrecs == MAX_RECS)
		rec_compact();
	if (M.nrecs == MAX_RECS) {
		fprintf(stderr, "tlb_model: too many pending changes\n");
		abort();
	}
	M.recs[M.nrecs++] = (struct rec){ .kind = kind, .loc = loc, .va = va, .size = size, .asid = asid,
					   .old_table = old_table, .epoch = M.epoch, .wrong_asid = -2 };
}

static void rec_del(struct rec *r)
{
	*r = M.recs[--M.nrecs];
}

/* ---- accesses ---- */

/* Compare the walk caches with the tables for va; cache what the walk used. */
static void check_walk_cache(unsigned long va, const struct mwalk *w)
{
	int tag = w->asid;

	for (int l = 0; l < M_LAST; l++) {
		unsigned long base = va & ~(unsigned long)(m_size(l) - 1);
		struct tent *e = tlb_find(tlb_key(true, l, base, tag));

		if (l < w->tlevels) {
			if (e && e->desc != w->tdesc[l])
				violation(TLBM_STALE, "walk cache for va 0x%lx level %d holds table 0x%llx, "
					  "tables now have 0x%llx", va, l, (ull)e->desc, (ull)w->tdesc[l]);
			if (!e) {
				struct tent n = { .key = tlb_key(true, l, base, tag), .va = base,
						  .size = m_size(l), .desc = w->tdesc[l], .tag = tag,
						  .walk = true };
				tlb_insert(&n);
			}
		} else if (e) {
			violation(TLBM_STALE, "walk cache for va 0x%lx level %d still holds table 0x%llx, "
				  "the entry is now 0x%llx", va, l, (ull)e->desc, (ull)w->desc);
		}
	}
}

/* Find the cached leaf translations covering va; returns how many. */
static int tlb_hits(unsigned long va, struct tent **hits)
{
	int tags[2], nt = tags_for(va, tags), n = 0;

	for (int t = 0; t < nt; t++)
		for (unsigned s = 0; s < N_LEAF_SHIFTS; s++) {
			unsigned long base = va & ~((1UL << leaf_shifts[s]) - 1);
			struct tent *e = tlb_find(tlb_key(false, s, base, tags[t]));

			if (e && n < 8)
				hits[n++] = e;
		}
	return n;
}

static unsigned shift_index(u64 size)
{
	for (unsigned s = 0; s < N_LEAF_SHIFTS; s++)
		if (size == 1ULL << leaf_shifts[s])
			return s;
	return 0;
}

/* Attributes that must agree whatever the leaf size (not the page/block
 * type bit nor the contiguous hint). */
#define D_SIZE_BITS (D_TABLE | D_CONT)

/* A cached entry and the walk give va the same output and attributes. */
static bool same_translation(const struct tent *h, const struct mwalk *w, unsigned long va)
{
	return h->oa + (va - h->va) == w->oa + (va - w->base) &&
	       (h->attrs & ~D_SIZE_BITS) == (w->desc & ~D_OA & ~D_SIZE_BITS);
}

/* Translate va as a CPU access would, checking everything. */
static bool translate(unsigned long va, phys_addr_t *pa, u64 *size)
{
	struct mwalk w;
	struct tent *hits[8];
	int nh;

	*size = 0;
	if (!M.mmu) {
		*pa = va;
		*size = M_PAGE;
		return true;
	}
	mwalk(va, &w);
	if (!w.regime) {
		violation(TLBM_FAULT, "access to 0x%lx: no translation regime", va);
		return false;
	}
	if (rec_covering(va, w.asid)) {
		struct rec *r = rec_covering(va, w.asid);

		violation(TLBM_HIDDEN, "access to 0x%lx while [0x%lx, +0x%llx) is broken (descriptor invalid)",
			  va, r->va, (ull)r->size);
		return false;
	}
	check_walk_cache(va, &w);
	if (w.cont_bad)
		violation(TLBM_CONFLICT, "va 0x%lx: misprogrammed contiguous run (desc 0x%llx level %d)",
			  va, (ull)w.desc, w.level);
	nh = tlb_hits(va, hits);
	if (nh >= 1 && M.bbml2 && w.valid) {
		/* BBML2: entries of several sizes may meet, if they agree with the tables. */
		bool agree = true;

		for (int i = 0; i < nh; i++)
			agree &= same_translation(hits[i], &w, va);
		if (agree) {
			*pa = w.oa + (va - w.base);
			*size = w.size;
			return !w.cont_bad;
		}
	}
	if (nh > 1)
		violation(TLBM_CONFLICT, "va 0x%lx: %d cached translations (0x%llx and 0x%llx bytes)", va,
			  nh, (ull)hits[0]->size, (ull)hits[1]->size);
	if (nh >= 1) {
		struct tent *h = hits[0];

		if (!w.valid)
			violation(TLBM_STALE, "va 0x%lx: cached translation (0x%llx bytes, pa 0x%llx) but the "
				  "tables say invalid (0x%llx at level %d)", va, (ull)h->size, (ull)h->oa,
				  (ull)w.desc, w.level);
		else if (h->size != w.size)
			violation(TLBM_CONFLICT, "va 0x%lx: cached 0x%llx-byte translation and a walkable "
				  "0x%llx-byte one (desc 0x%llx level %d)", va, (ull)h->size, (ull)w.size,
				  (ull)w.desc, w.level);
		else if (h->attrs != (w.desc & ~D_OA) || h->oa != w.oa)
			violation(TLBM_STALE, "va 0x%lx: cached attrs 0x%llx pa 0x%llx, tables have attrs "
				  "0x%llx pa 0x%llx", va, (ull)h->attrs, (ull)h->oa,
				  (ull)(w.desc & ~D_OA), (ull)w.oa);
		*pa = h->oa + (va - h->va);
		*size = h->size;
		return nh == 1 && w.valid && h->size == w.size;
	}
	if (!w.valid) {
		violation(TLBM_FAULT, "access to unmapped 0x%lx (0x%llx at level %d)", va, (ull)w.desc,
			  w.level);
		return false;
	}
	struct tent n = { .key = tlb_key(false, shift_index(w.size), w.base, w.tag), .va = w.base,
			  .size = w.size, .attrs = w.desc & ~D_OA, .oa = w.oa, .tag = w.tag };
	tlb_insert(&n);
	*pa = w.oa + (va - w.base);
	*size = w.size;
	return !w.cont_bad;
}

bool tlb_model_access(unsigned long va, u64 *size)
{
	phys_addr_t pa;
	u64 sz;
	unsigned before = tlb_model_total_violations();
	bool ok = translate(va, &pa, &sz);

	if (size)
		*size = sz;
	return ok && tlb_model_total_violations() == before;
}

u64 tlb_model_read(unsigned long va)
{
	phys_addr_t pa;
	u64 sz;

	if (!translate(va, &pa, &sz) && !sz)
		return 0;   /* the access faulted: reported */
	return tlb_model_phys_read64(pa);
}

/* Same rules as the architecture: does old -> new need break-before-make? */
static bool model_needs_bbm(u64 old, u64 new, int level)
{
	if (!(old & D_VALID) || !(new & D_VALID))
		return false;
	if (is_table(old, level) || is_table(new, level))
		return old != new;
	if ((old & D_OA) != (new & D_OA))
		return true;
	if ((old ^ new) & (D_ATTR | D_SH | D_CONT | D_TABLE))
		return true;
	return (old & D_NG) && !(new & D_NG);
}

/*
 * BBML2: old (a leaf) -> new changes only the leaf size - the contiguous
 * hint, or a table of next-level leaves mapping old's output with old's
 * attributes. Read from the model's memory, independently of mm/.
 */
static bool model_bbml2_size_change(u64 old, u64 new, int level)
{
	u64 attrs = old & ~D_OA & ~D_SIZE_BITS;

	if (is_table(old, level))
		return false;
	if (!is_table(new, level))
		return (old & D_OA) == (new & D_OA) && attrs == (new & ~D_OA & ~D_SIZE_BITS);
	if (level >= M_LAST)
		return false;
	for (unsigned i = 0; i < M_ENTRIES; i++) {
		u64 e = tlb_model_phys_read64((new & D_OA) + 8ULL * i);

		if (!(e & D_VALID) || is_table(e, level + 1) ||
		    (e & D_OA) != (old & D_OA) + i * m_size(level + 1) ||
		    (e & ~D_OA & ~D_SIZE_BITS) != attrs)
			return false;
	}
	return true;
}

/* Classify a write to a live descriptor at pa. */
static void note_desc_write(phys_addr_t pa, u64 old, u64 new)
{
	u64 *info = hm_find(&M.tables, pa >> M_PAGE_SHIFT);
	unsigned long va_base, va;
	int level, asid;
	bool ov = old & D_VALID, nv = new & D_VALID;

	if (!info || old == new)
		return;
	unpack_info(*info, &level, &va_base, &asid);
	va = va_base + ((unsigned long)((pa & (M_PAGE - 1)) / 8) << m_shift(level));
	check_format(new, level, va);
	if (ov && nv) {
		if (!is_table(old, level) && !is_table(new, level) && (old & D_NG) && !(new & D_NG))
			violation(TLBM_CONFLICT, "live level-%d descriptor for va 0x%lx made global in place "
				  "(0x%llx -> 0x%llx): the old ASID-tagged entry and a new global one could "
				  "both hit", level, va, (ull)old, (ull)new);
		else if (model_needs_bbm(old, new, level) && !(M.bbml2 && model_bbml2_size_change(old, new, level)))
			violation(TLBM_CONFLICT, "live level-%d descriptor for va 0x%lx changed 0x%llx -> "
				  "0x%llx without break-before-make%s", level, va, (ull)old, (ull)new,
				  model_bbml2_size_change(old, new, level) ? " (a size change: live only under BBML2)" : "");
		else
			rec_add(REC_INPLACE, pa, va, m_size(level), asid, false);
		if (is_table(old, level))
			unregister_tree(old & D_OA, level + 1);
	} else if (ov) {
		if (va >= KERNEL_BASE && ncpus() > 1 && M.hold_depth == 0)
			violation(TLBM_HIDDEN, "kernel va 0x%lx (+0x%llx, level %d) broken while %d other CPU(s) "
				  "run, not held in a rendezvous: one could fault there", va, (ull)m_size(level),
				  level, ncpus() - 1);
		rec_add(REC_BROKEN, pa, va, m_size(level), asid, is_table(old, level));
		if (is_table(old, level))
			unregister_tree(old & D_OA, level + 1);
	} else if (nv) {
		for (int i = 0; i < M.nrecs; i++) {
			struct rec *r = &M.recs[i];

			if (r->kind != REC_BROKEN || r->loc != pa)
				continue;
			if (!r->done)
				violation(TLBM_CONFLICT, "BBM of va 0x%lx level %d: new 0x%llx written before "
					  "the TLBI for the old entry completed", va, level, (ull)new);
			rec_del(r);
			break;
		}
	}
	if (nv && is_table(new, level)) {
		check_published(new & D_OA, level + 1, va);
		register_tree(new & D_OA, level + 1, va, asid);
	}
}

void tlb_model_write(unsigned long va, u64 v)
{
	phys_addr_t pa;
	u64 sz, old;

	if (!translate(va, &pa, &sz) && !sz)
		return;   /* the store faulted: reported, dropped */
	old = tlb_model_phys_read64(pa);
	tlb_model_phys_write64(pa, v);
	if (M.mmu)
		note_desc_write(pa, old, v);
	note_store(pa);
}

/* ---- barriers and TLBIs ---- */

void tlb_model_tlbi(int kind, unsigned long va, int asid)
{
	if (M.nqueue == M.cap_queue) {
		M.cap_queue = M.cap_queue ? M.cap_queue * 2 : 64;
		M.queue = realloc(M.queue, M.cap_queue * sizeof(*M.queue));
	}
	M.queue[M.nqueue++] = (struct tlbi){ kind, va, asid, M.epoch, M.cpu, M.tlbi_local };
}

/*
 * Apply a completed TLBI. By-VA forms remove the entries covering va for
 * the ASID (all ASIDs when asid < 0) and global entries; the leaf forms
 * leave walk-cache entries alone.
 */
static void tlbi_apply_cpu(const struct tlbi *t);

/* A broadcast TLBI reaches every CPU's TLB, a local one only its issuer's. */
static void tlbi_apply(const struct tlbi *t)
{
	int saved = M.cpu;

	if (t->kind == K_SPACE) {
		for (size_t i = 0; i < M.nents; i++)
			if (M.ents[i].live && (t->asid < 0 || M.ents[i].tag == t->asid) &&
			    (!t->local || M.ents[i].cpu == t->cpu))
				tlb_remove(&M.ents[i]);
		return;
	}
	for (int c = 0; c < ncpus(); c++) {
		if (t->local && c != t->cpu)
			continue;
		M.cpu = c;
		tlbi_apply_cpu(t);
	}
	M.cpu = saved;
}

/* A by-VA TLBI on the TLB of CPU M.cpu. */
static void tlbi_apply_cpu(const struct tlbi *t)
{
	int tags[MAX_USER + 1], nt = 0;

	tags[nt++] = -1;
	for (int i = 0; i < M.nusers; i++)
		if (t->asid < 0 || M.users[i].asid == t->asid)
			tags[nt++] = M.users[i].asid;
	for (int k = 0; k < nt; k++) {
		for (unsigned s = 0; s < N_LEAF_SHIFTS; s++) {
			unsigned long base = t->va & ~((1UL << leaf_shifts[s]) - 1);
			struct tent *e = tlb_find(tlb_key(false, s, base, tags[k]));

			if (e)
				tlb_remove(e);
		}
		for (int l = 0; l < M_LAST && t->kind != K_LEAF; l++) {
			unsigned long base = t->va & ~(unsigned long)(m_size(l) - 1);
			struct tent *e = tlb_find(tlb_key(true, l, base, tags[k]));

			if (e)
				tlb_remove(e);
		}
	}
}

static bool range_cached(unsigned long va, u64 size)
{
	for (size_t i = 0; i < M.nents; i++) {
		const struct tent *e = &M.ents[i];

		if (e->live && e->va < va + size && va < e->va + e->size)
			return true;
	}
	return false;
}

/* Mark the records a completed TLBI covers. */
static void tlbi_cover(const struct tlbi *t)
{
	for (int i = 0; i < M.nrecs; i++) {
		struct rec *r = &M.recs[i];
		bool space_ok = t->asid < 0 || t->asid == r->asid;

		bool va_hit = t->kind == K_SPACE || (t->va >= r->va && t->va - r->va < r->size);

		if (!r->done && !space_ok && va_hit && r->asid >= 0 && t->epoch > r->epoch)
			r->wrong_asid = t->asid;
		if (r->done || !space_ok || t->epoch <= r->epoch)
			continue;   /* other space, or issued before the write was published */
		if (t->local && ncpus() > 1) {
			if (va_hit)
				r->local_tlbi = true;
			continue;   /* the other CPUs' TLBs may still hold the old entry */
		}
		if (t->kind == K_SPACE) {
			r->done = true;
			continue;
		}
		if (!va_hit)
			continue;
		if (r->old_table && t->kind == K_LEAF)
			r->leaf_only_tlbi = true;
		if (!r->old_table || (t->kind == K_ALL_LEVELS && !range_cached(r->va, r->size)))
			r->done = true;
	}
}

void tlb_model_dsb(bool full)
{
	M.epoch++;
	if (!full)
		return;
	for (size_t i = 0; i < M.nqueue; i++) {
		tlbi_apply(&M.queue[i]);
		tlbi_cover(&M.queue[i]);
	}
	M.nqueue = 0;
}

void tlb_model_publish_barrier(void)
{
	M.publish_barriers++;
	tlb_model_dsb(false);
}

unsigned long tlb_model_publish_barriers(void)
{
	return M.publish_barriers;
}

void tlb_model_check_idle(void)
{
	for (int i = 0; i < M.nrecs; i++) {
		const struct rec *r = &M.recs[i];

		if (r->done)
			continue;
		violation(TLBM_STALE, "%s descriptor for va 0x%lx (+0x%llx) never invalidated from the TLB",
			  r->kind == REC_BROKEN ? "unmapped" : "changed", r->va, (ull)r->size);
		if (r->leaf_only_tlbi)
			violation(TLBM_TLBI, "a table descriptor for va 0x%lx (+0x%llx) was removed, but only a "
				  "leaf-only TLBI covered it: walk-cache entries need a non-leaf TLBI",
				  r->va, (ull)r->size);
		if (r->local_tlbi)
			violation(TLBM_TLBI, "descriptor for va 0x%lx changed, but only a local TLBI covered it "
				  "while %d CPUs run: their TLBs keep the old entry (use the broadcast form)",
				  r->va, ncpus());
		if (r->wrong_asid != -2)
			violation(TLBM_TLBI, "descriptor for va 0x%lx of ASID %d changed, but the TLBI for it "
				  "named ASID %d", r->va, r->asid, r->wrong_asid);
	}
	M.nrecs = 0;
	if (M.nqueue)
		violation(TLBM_SEQUENCE, "%zu TLBI(s) not completed by dsb ish", M.nqueue);
	M.nqueue = 0;
}

/* ---- several CPUs ---- */

void tlb_model_set_cpus(int n)
{
	M.ncpus = n;
}

void tlb_model_set_cpu(int cpu)
{
	if (cpu < 0 || cpu > 7) {	/* tlb_key() keeps 3 bits of it */
		fprintf(stderr, "tlb_model: CPU %d out of range 0..7\n", cpu);
		abort();
	}
	M.cpu = cpu;
}

void tlb_model_set_bbml2(bool on)
{
	M.bbml2 = on;
}

void tlb_model_set_tlbi_local(bool on)
{
	M.tlbi_local = on;
}

void tlb_model_set_hold_broken(bool on)
{
	M.hold_broken = on;
}

/* ---- the rendezvous (other CPUs held still) ---- */

void tlb_model_hold_others(void)
{
	if (M.hold_broken)
		return;
	if (M.hold_depth++ == 0)
		M.hold_count++;
}

void tlb_model_release_others(void)
{
	if (M.hold_broken)
		return;
	if (M.hold_depth <= 0)
		violation(TLBM_SEQUENCE, "rendezvous released without a hold");
	else
		M.hold_depth--;
}

unsigned long tlb_model_holds(void)
{
	return M.hold_count;
}
