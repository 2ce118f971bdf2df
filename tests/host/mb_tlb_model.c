/*
 * mb_tlb_model.c - physical memory, UTLB and TLB refill handler of one
 * simulated MicroBlaze CPU (QEMU's petalogix boards), checking every
 * descriptor change the code under test makes. See mb_tlb_model.h.
 *
 * The refill walk below is a C rendering of what entry.S documents for
 * vec_hw (steps 1-4): kernel VA (top two bits set) -> kernel root, refused
 * from user mode; else the current user root; level 0 invalid -> fault,
 * PTE_LEAF -> one slot of the block's size (4K pages: 4 MiB), or one
 * 16 MiB slot with PTE_CONT or for a larger block (16K: the 16 MiB of the
 * 64 MiB block that holds the address); else the level-1 entry -> one
 * page-sized slot, or one 16 MiB slot with PTE_CONT (16K, 64K); TLBLO = output address | (desc &
 * PTE_HW_MASK); TID = PID when PTE_NG or for a page-sized slot, else 0;
 * the victim is mb_tlb_next,
 * round robin over [TLB_PAGE_FIRST, 64), for a page-sized slot and
 * mb_tlb_next_block, over [mb_tlb_first, TLB_PAGE_FIRST), for a larger one,
 * recorded in the shadow first.
 *
 * Bookkeeping:
 *   phys    sparse physical memory: PFN -> host page
 *   tinfo   every level-1 table linked from a live root entry: PFN -> the
 *           level-0 span it translates and its space; with the kernel root
 *           (mb_kernel_pgd_pa) and the user roots (mbm_switch_user) this
 *           tells whether a write hits a live descriptor
 *   hw      the 64 slots as the hardware holds them (the shadow is the real
 *           mb_tlb_shadow of arch/microblaze/kernel/tlb.c)
 *   brk     descriptors written invalid (valid -> invalid) and not yet
 *           valid again: the ranges that are broken right now
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mb_tlb_model.h"
#include "tlb_model.h"                        /* tlb_model_phys_fill, used by pt_test_env.c */
#include "../../arch/microblaze/kernel/mb.h"  /* the shadow and the refill handler's words */

/* ---- hardware formats (MicroBlaze reference guide, MMU chapter) ---- */
#define HW_HI_TAG   0xfffffc00u
#define HW_HI_V     0x00000040u
#define HW_HI_CODE(hi) (((hi) >> 7) & 7u)
#define HW_LO_RPN   0xfffffc00u
#define HW_LO_EX    0x00000200u
#define HW_LO_WR    0x00000100u
#define HW_LO_ZONE(lo) (((lo) >> 4) & 15u)
#define HW_LO_W     0x00000008u
#define HW_LO_I     0x00000004u
#define HW_LO_M     0x00000002u
#define HW_LO_G     0x00000001u
#define HW_CODE_16M 7u
/* The slot size code for 2^shift bytes (shift even, 10..24). */
#define HW_CODE(shift) (((shift) - 10u) / 2u)

#define KVA_START   0xc0000000u
/* The model's physical pages are the kernel's (PAGE_SHIFT: 4K, 16K or 64K). */
#define M_SHIFT     PAGE_SHIFT
#define M_PAGE      (1u << M_SHIFT)
#define NPFN        (1u << (32 - M_SHIFT))

typedef unsigned long long ull;

static u32 code_size(unsigned code)
{
	return 1024u << (2 * code);
}

static void slot_decode(struct mbm_slot *s, u32 hi, u32 lo, u32 tid)
{
	s->hi = hi;
	s->lo = lo;
	s->tid = tid;
	s->valid = (hi & HW_HI_V) != 0;
	s->size = code_size(HW_HI_CODE(hi));
	s->tag = hi & HW_HI_TAG & ~(s->size - 1);
}

/* ---- state ---- */

struct brk {
	phys_addr_t loc;   /* where the descriptor lives */
	u32 va, size;
	int space;         /* -1 kernel, else the PID */
	int level;
};

#define MAX_BRK 4096
#define MAX_USERS 16
#define MAX_SYMS 16
#define MAX_BBM_LOG 64

static unsigned char *phys[NPFN];
static unsigned char phys_owned[NPFN];
static struct tinfo {
	bool used;
	int16_t space;
	u32 va_base;
} tinfo[NPFN];

static struct {
	struct mbm_slot hw[MBM_SLOTS];
	bool boot_slot[MBM_SLOTS];   /* written by head.S, not loaded from the tables */
	u32 pid, zpr;
	u32 tlbx;                    /* TLBX: the slot the next TLBLO/TLBHI write goes to */
	struct brk brk[MAX_BRK];
	int nbrk;
	struct { u32 pid; phys_addr_t root; } users[MAX_USERS];
	int nusers;
	phys_addr_t img_pa;
	unsigned long img_va;
	u64 img_size, static_off, shadow_off;
	struct { const void *p; unsigned long va; } syms[MAX_SYMS];
	int nsyms;
	struct { unsigned long start, last, n; } bbm[MAX_BBM_LOG];
	unsigned nbbm;
	unsigned counts[MBM_NKINDS];
	char last[512];
	bool quiet;
} M;

static const char *kind_name[MBM_NKINDS] = { "OVERLAP", "STALE", "HIDDEN", "FAULT", "UNSAFE", "SHADOW",
						"TORN" };

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
		printf("# mb_tlb_model %s\n", M.last);
}

static void model_bug(const char *what, ull v)
{
	fprintf(stderr, "mb_tlb_model: %s (0x%llx)\n", what, v);
	abort();
}

unsigned mbm_violations(int kind)
{
	return M.counts[kind];
}

unsigned mbm_total_violations(void)
{
	unsigned t = 0;

	for (int k = 0; k < MBM_NKINDS; k++)
		t += M.counts[k];
	return t;
}

const char *mbm_last_violation(void)
{
	return M.last;
}

void mbm_clear_violations(void)
{
	memset(M.counts, 0, sizeof(M.counts));
	M.last[0] = '\0';
}

void mbm_set_quiet(bool quiet)
{
	M.quiet = quiet;
}

void mbm_reset(void)
{
	for (u32 i = 0; i < NPFN; i++)
		if (phys_owned[i])
			free(phys[i]);
	memset(phys, 0, sizeof(phys));
	memset(phys_owned, 0, sizeof(phys_owned));
	memset(tinfo, 0, sizeof(tinfo));
	memset(&M, 0, sizeof(M));
}

/* ---- physical memory ---- */

static unsigned char *phys_page(phys_addr_t pa)
{
	u32 pfn;

	if (pa >> 32)
		model_bug("physical address beyond 32 bits", pa);
	pfn = (u32)(pa >> M_SHIFT);
	if (!phys[pfn]) {
		phys[pfn] = calloc(1, M_PAGE);
		phys_owned[pfn] = 1;
	}
	return phys[pfn];
}

u32 mbm_phys_read32(phys_addr_t pa)
{
	u32 v;

	memcpy(&v, phys_page(pa) + (pa & (M_PAGE - 4)), sizeof(v));
	return v;
}

void mbm_phys_write32(phys_addr_t pa, u32 v)
{
	memcpy(phys_page(pa) + (pa & (M_PAGE - 4)), &v, sizeof(v));
}

void mbm_phys_fill(phys_addr_t pa, u64 size, int byte)
{
	for (u64 off = 0; off < size; off += M_PAGE) {
		phys_addr_t p = pa + off;

		memset(phys_page(p), byte, M_PAGE);
		/* the page is given out or freed: whatever table it was is gone */
		tinfo[p >> M_SHIFT].used = false;
		for (int i = 0; i < M.nusers; i++)
			if (M.users[i].root == (p & ~(phys_addr_t)(M_PAGE - 1)))
				M.users[i--] = M.users[--M.nusers];
	}
}

void tlb_model_phys_fill(phys_addr_t pa, u64 size, int byte)
{
	mbm_phys_fill(pa, size, byte);
}

void mbm_set_image(phys_addr_t pa, unsigned long va, u64 size, u64 static_off, u64 shadow_off)
{
	M.img_pa = pa;
	M.img_va = va;
	M.img_size = size;
	M.static_off = static_off;
	M.shadow_off = shadow_off;
}

unsigned long mbm_sym_va(const void *sym)
{
	u64 off;
	u32 pfn;

	for (int i = 0; i < M.nsyms; i++)
		if (M.syms[i].p == sym)
			return M.syms[i].va;
	if (((uintptr_t)sym & (M_PAGE - 1)) || M.nsyms == MAX_SYMS || !M.img_size)
		model_bug("cannot place a static object in the image", (uintptr_t)sym);
	off = M.static_off + (u64)M.nsyms * M_PAGE;
	M.syms[M.nsyms].p = sym;
	M.syms[M.nsyms].va = M.img_va + off;
	M.nsyms++;
	pfn = (u32)((M.img_pa + off) >> M_SHIFT);
	if (phys_owned[pfn])
		free(phys[pfn]);
	phys[pfn] = (unsigned char *)(uintptr_t)sym;   /* not ours to free */
	phys_owned[pfn] = 0;
	return M.img_va + off;
}

/* ---- roots and tables ---- */

static int user_by_pid(u32 pid)
{
	for (int i = 0; i < M.nusers; i++)
		if (M.users[i].pid == pid)
			return i;
	return -1;
}

static int user_by_root(phys_addr_t root)
{
	for (int i = 0; i < M.nusers; i++)
		if (M.users[i].root == root)
			return i;
	return -1;
}

static bool l0_is_table(u32 d)
{
	return (d & (PTE_VALID | PTE_LEAF)) == PTE_VALID;
}

static void tinfo_set(phys_addr_t t, int space, u32 va_base)
{
	struct tinfo *ti = &tinfo[(t >> M_SHIFT) & (NPFN - 1)];

	ti->used = true;
	ti->space = (int16_t)space;
	ti->va_base = va_base;
}

static void tinfo_clear(phys_addr_t t)
{
	tinfo[(t >> M_SHIFT) & (NPFN - 1)].used = false;
}

/* Register the level-1 tables of root's entries [first, last]. */
static void scan_root(phys_addr_t root, unsigned first, unsigned last, int space)
{
	for (unsigned i = first; i <= last; i++) {
		u32 d = mbm_phys_read32(root + i * 4);

		if (l0_is_table(d))
			tinfo_set(d & PTE_OA_MASK, space, i << PT_L0_SHIFT);
	}
}

void mbm_switch_user(phys_addr_t root, u32 pid)
{
	int i = user_by_pid(pid);

	mb_user_pgd_pa = (u32)root;
	M.pid = pid;
	if (!root)
		return;
	if (i < 0) {
		if (M.nusers == MAX_USERS)
			model_bug("too many user spaces", pid);
		i = M.nusers++;
	}
	M.users[i].pid = pid;
	M.users[i].root = root;
	scan_root(root, 0, (KVA_START >> PT_L0_SHIFT) - 1, (int)pid);
}

void mbm_forget_user(u32 pid)
{
	int i = user_by_pid(pid);

	if (i >= 0)
		M.users[i] = M.users[--M.nusers];
}

/* Where a descriptor the refill handler reads lives: (level, VA, space). */
struct loc {
	int level;
	u32 va, size;
	int space;
};

static bool live_loc(phys_addr_t pa, struct loc *l)
{
	phys_addr_t page = pa & ~(phys_addr_t)(M_PAGE - 1);
	u32 idx = (u32)(pa & (M_PAGE - 1)) / 4;
	int u;

	if (mb_kernel_pgd_pa && page == mb_kernel_pgd_pa) {
		*l = (struct loc){ 0, idx << PT_L0_SHIFT, 1u << PT_L0_SHIFT, -1 };
		return l->va >= KVA_START;
	}
	if ((u = user_by_root(page)) >= 0) {
		*l = (struct loc){ 0, idx << PT_L0_SHIFT, 1u << PT_L0_SHIFT, (int)M.users[u].pid };
		return l->va < KVA_START;
	}
	if (tinfo[page >> M_SHIFT].used) {
		const struct tinfo *ti = &tinfo[page >> M_SHIFT];

		*l = (struct loc){ 1, ti->va_base + (idx << PT_L1_SHIFT), 1u << PT_L1_SHIFT, ti->space };
		return true;
	}
	return false;
}

/* ---- the refill handler's walk (entry.S, vec_hw steps 1-3) ---- */

struct mwalk {
	enum mbm_walk_result res;
	int level;           /* of the descriptor used (or found invalid) */
	u32 desc;
	bool run_bad;        /* a 16 MiB run whose four entries disagree */
	struct mbm_slot s;   /* the slot it would load */
};

void mbm_slot_for_desc(u32 desc, int level, unsigned long va, u32 pid, struct mbm_slot *s)
{
	u32 mask, code, oa;

	/* entry.S looks at PTE_CONT only where that level has runs */
	if ((desc & PTE_CONT) && (level == 0 ? PT_L0_CONT_ENTRIES : PT_L1_CONT_ENTRIES) > 1) {
		mask = PTE_OA_16M;          /* a run: one 16 MiB slot */
		code = HW_CODE_16M;
	} else if (level == 1) {
		mask = PTE_OA_MASK;
		code = HW_CODE(PT_L1_SHIFT);
	} else if (PT_L0_SHIFT > 24) {
		mask = PTE_OA_16M;          /* a block larger than a slot: its 16 MiB holding va */
		code = HW_CODE_16M;
	} else {
		mask = PTE_OA_L0;
		code = HW_CODE(PT_L0_SHIFT);
	}
	oa = desc & mask;
	if (level == 0 && PT_L0_SHIFT > 24)
		oa = (desc & PTE_OA_L0) | ((u32)va & PTE_OA_16M & ~PTE_OA_L0);
	/* entry.S: a page-sized slot gets the PID as TID even for a global page */
	slot_decode(s, ((u32)va & mask) | HW_HI_V | code << 7, oa | (desc & PTE_HW_MASK),
		    (desc & PTE_NG) || code == HW_CODE(PT_L1_SHIFT) ? pid : 0);
}

/*
 * Do the entries of the PTE_CONT run holding va's entry (in the table at
 * t, of 'level') form one 16 MiB leaf: all valid, CONT (and PTE_LEAF at
 * level 0), the same attributes, consecutive output addresses from a
 * 16 MiB-aligned first one?
 */
static bool run_ok(phys_addr_t t, int level, u32 va)
{
	unsigned shift = level == 0 ? PT_L0_SHIFT : PT_L1_SHIFT;
	unsigned n = level == 0 ? PT_L0_CONT_ENTRIES : PT_L1_CONT_ENTRIES;
	unsigned nidx = level == 0 ? 1u << PT_L0_BITS : 1u << PT_L1_BITS;
	u32 oa_mask = level == 0 ? PTE_OA_L0 : PTE_OA_MASK;
	u32 need = PTE_VALID | PTE_CONT | (level == 0 ? PTE_LEAF : 0);
	unsigned first = ((va >> shift) & (nidx - 1)) & ~(n - 1);
	u32 d0 = mbm_phys_read32(t + first * 4);

	if (n < 2 || ((d0 & oa_mask) & ((1u << 24) - 1)))
		return false;
	for (unsigned k = 0; k < n; k++) {
		u32 e = mbm_phys_read32(t + (first + k) * 4);

		if ((e & need) != need || (e & ~oa_mask) != (d0 & ~oa_mask) ||
		    (e & oa_mask) != (d0 & oa_mask) + (k << shift))
			return false;
	}
	return true;
}

static void mwalk(u32 va, bool user_mode, u32 pid, phys_addr_t user_root, struct mwalk *w)
{
	phys_addr_t root, t;

	memset(w, 0, sizeof(*w));
	if ((va >> 30) == 3) {
		if (user_mode) {
			w->res = MBW_USER_KERNEL;
			return;
		}
		root = mb_kernel_pgd_pa;
	} else {
		root = user_root;
		if (!root) {
			w->res = MBW_NO_ROOT;
			return;
		}
	}
	w->desc = mbm_phys_read32(root + (va >> PT_L0_SHIFT) * 4);
	if (!(w->desc & PTE_VALID)) {
		w->res = MBW_L0_INVALID;
		return;
	}
	if (!(w->desc & PTE_LEAF)) {
		t = w->desc & PTE_OA_MASK;
		w->level = 1;
		w->desc = mbm_phys_read32(t + ((va >> PT_L1_SHIFT) & ((1u << PT_L1_BITS) - 1)) * 4);
		if (!(w->desc & PTE_VALID)) {
			w->res = MBW_L1_INVALID;
			return;
		}
		if ((w->desc & PTE_CONT) && PT_L1_CONT_ENTRIES > 1)
			w->run_bad = !run_ok(t, 1, va);
	} else if ((w->desc & PTE_CONT) && PT_L0_CONT_ENTRIES > 1) {
		w->run_bad = !run_ok(root, 0, va);
	}
	mbm_slot_for_desc(w->desc, w->level, va, pid, &w->s);
}

enum mbm_walk_result mbm_walk(unsigned long va, bool user_mode, struct mbm_slot *out)
{
	struct mwalk w;

	mwalk((u32)va, user_mode, M.pid, mb_user_pgd_pa, &w);
	if (out)
		*out = w.s;
	return w.res;
}

/*
 * The walk for a slot already loaded: its TID's space, privileged. A slot
 * of TID 0 is compared with what a refill under PID 0 gives (a kernel page
 * slot loaded under a user's PID carries that PID instead).
 */
static void walk_for_slot(const struct mbm_slot *s, u32 va, struct mwalk *w)
{
	u32 pid = s->tid;
	int u = user_by_pid(pid);
	phys_addr_t uroot = s->tid ? (u >= 0 ? M.users[u].root : 0) : mb_user_pgd_pa;

	mwalk(va, false, pid, uroot, w);
}

/* ---- slots ---- */

/* Zone protection (ZPR field of the slot's zone): 0 none/TLB, 1 TLB, 2 TLB/full, 3 full. */
static unsigned zone_mode(u32 lo)
{
	return (M.zpr >> (30 - 2 * HW_LO_ZONE(lo))) & 3;
}

static bool perm_ok(u32 lo, unsigned flags)
{
	unsigned z = zone_mode(lo);
	bool user = flags & MBM_USER;

	if (z == 0 && user)
		return false;
	if (z == 3 || (z == 2 && !user))
		return true;
	if ((flags & MBM_WRITE) && !(lo & HW_LO_WR))
		return false;
	if ((flags & MBM_EXEC) && !(lo & HW_LO_EX))
		return false;
	return true;
}

static bool slot_hits(const struct mbm_slot *s, u32 va, u32 pid)
{
	return s->valid && (va & ~(s->size - 1)) == s->tag && (s->tid == 0 || s->tid == pid);
}

static bool slots_overlap(const struct mbm_slot *a, const struct mbm_slot *b)
{
	u64 ae = (u64)a->tag + a->size, be = (u64)b->tag + b->size;

	return a->valid && b->valid && a->tag < be && b->tag < ae &&
	       (a->tid == 0 || b->tid == 0 || a->tid == b->tid);
}

/*
 * Slots a lookup by va finds. QEMU treats a user-mode hit on a slot its zone
 * closes to user mode as a miss (asm/mmu.h, ZPR), so those do not count.
 */
static int lookup(u32 va, u32 pid, bool user, int *first)
{
	int n = 0, dummy;

	if (!first)
		first = &dummy;
	*first = -1;
	for (int i = 0; i < MBM_SLOTS; i++) {
		const struct mbm_slot *s = &M.hw[i];

		if (!slot_hits(s, va, pid) || (user && zone_mode(s->lo) == 0))
			continue;
		if (n++ == 0)
			*first = i;
	}
	return n;
}

int mbm_matches(unsigned long va, u32 pid, int *first)
{
	return lookup((u32)va, pid, false, first);
}

void mbm_slot_get(int i, struct mbm_slot *out)
{
	*out = M.hw[i];
}

unsigned mbm_valid_slots(void)
{
	unsigned n = 0;

	for (int i = 0; i < MBM_SLOTS; i++)
		n += M.hw[i].valid;
	return n;
}

/*
 * A slot whose tag is valid while its TLBLO is all zero translates its VA
 * range to physical 0, privileged read-only, no execute: an access that
 * lands between the two register writes (an instruction fetch, an
 * interrupt on hardware) would use it; a TLBLO = 0 written after a refill
 * took the slot leaves it so for good.
 */
static void check_torn(u32 i)
{
	const struct mbm_slot *s = &M.hw[i];

	if (s->valid && s->lo == 0)
		violation(MBM_TORN, "slot %u: valid tag 0x%08x (+0x%x) with TLBLO 0 maps physical 0 "
			  "(TLBLO = 0 written over a valid tag)", i, s->tag, s->size);
}

void mbm_mts_tlbx(u32 i)
{
	M.tlbx = i & (MBM_SLOTS - 1);
}

void mbm_mts_tlblo(u32 lo)
{
	struct mbm_slot *s = &M.hw[M.tlbx];

	slot_decode(s, s->hi, lo, s->tid);
	M.boot_slot[M.tlbx] = false;
	check_torn(M.tlbx);
}

/* TLBHI latches TID from PID, as QEMU does. */
void mbm_mts_tlbhi(u32 hi)
{
	struct mbm_slot *s = &M.hw[M.tlbx];

	slot_decode(s, hi, s->lo, M.pid);
	M.boot_slot[M.tlbx] = false;
	check_torn(M.tlbx);
}

void mbm_hw_set_slot(int i, u32 hi, u32 lo, u32 tid)
{
	slot_decode(&M.hw[i], hi, lo, tid);
	M.boot_slot[i] = false;
}

/*
 * entry.S step 4: a page-sized slot's victim is mb_tlb_next, round robin
 * over [TLB_PAGE_FIRST, 64); a block's (any larger slot) is
 * mb_tlb_next_block, over [mb_tlb_first, TLB_PAGE_FIRST). The shadow
 * first, then the slot.
 */
static int load_slot(const struct mwalk *w, u32 va)
{
	bool page = HW_HI_CODE(w->s.hi) == HW_CODE(PT_L1_SHIFT);
	u32 *next = page ? &mb_tlb_next : &mb_tlb_next_block;
	u32 lo = page ? TLB_PAGE_FIRST : mb_tlb_first, end = page ? MBM_SLOTS : TLB_PAGE_FIRST;
	u32 v = *next;

	if (v < lo || v >= end)
		violation(MBM_UNSAFE, "refill victim %u for a %s outside [%u, %u)", v, page ? "page" : "block",
			  lo, end);
	v &= MBM_SLOTS - 1;   /* TLBX has six bits */
	if (w->run_bad)
		violation(MBM_UNSAFE, "va 0x%08x: a 16M slot loaded from a misprogrammed run (desc 0x%08x)",
			  va, w->desc);
	mb_tlb_shadow[v].hi = w->s.hi;
	mb_tlb_shadow[v].tid = w->s.tid;
	M.hw[v] = w->s;
	M.boot_slot[v] = false;
	for (int j = 0; j < MBM_SLOTS; j++)
		if (j != (int)v && slots_overlap(&M.hw[j], &M.hw[v]))
			violation(MBM_OVERLAP, "slot %u loaded for 0x%08x (0x%08x +0x%x tid %u) overlaps slot %d "
				  "(0x%08x +0x%x tid %u)", v, va, M.hw[v].tag, M.hw[v].size, M.hw[v].tid, j,
				  M.hw[j].tag, M.hw[j].size, M.hw[j].tid);
	*next = v + 1 == end ? lo : v + 1;
	return (int)v;
}

/* A hit on slot i at va: the slot must be what the tables give now. */
static void check_hit(int i, u32 va)
{
	const struct mbm_slot *s = &M.hw[i];
	struct mwalk w;

	if (i < (int)mb_tlb_first || M.boot_slot[i])
		return;   /* pinned, or head.S's: not loaded from the tables */
	walk_for_slot(s, va, &w);
	if (w.res != MBW_OK)
		violation(MBM_STALE, "slot %d (0x%08x +0x%x -> 0x%08x) hit at 0x%08x, but the tables have no "
			  "translation there (walk result %d, desc 0x%08x)", i, s->tag, s->size,
			  s->lo & HW_LO_RPN, va, w.res, w.desc);
	else if (w.s.hi != s->hi || w.s.lo != s->lo || w.s.tid != s->tid)
		violation(MBM_STALE, "slot %d hit at 0x%08x holds hi 0x%08x lo 0x%08x tid %u, the tables "
			  "now give hi 0x%08x lo 0x%08x tid %u", i, va, s->hi, s->lo, s->tid, w.s.hi,
			  w.s.lo, w.s.tid);
}

/* ---- broken ranges ---- */

static struct brk *brk_covering(u32 va, int space)
{
	for (int i = 0; i < M.nbrk; i++) {
		struct brk *b = &M.brk[i];

		if (b->space == space && va - b->va < b->size)
			return b;
	}
	return NULL;
}

static struct brk *brk_at(phys_addr_t loc)
{
	for (int i = 0; i < M.nbrk; i++)
		if (M.brk[i].loc == loc)
			return &M.brk[i];
	return NULL;
}

/* A loaded slot that translates some VA of [va, va + size) in 'space'. */
static int slot_in_range(u32 va, u32 size, int space)
{
	for (int i = 0; i < MBM_SLOTS; i++) {
		const struct mbm_slot *s = &M.hw[i];

		if (!s->valid || (u64)s->tag >= (u64)va + size || va >= (u64)s->tag + s->size)
			continue;
		if (space < 0 || s->tid == 0 || s->tid == (u32)space)
			return i;
	}
	return -1;
}

/* ---- accesses ---- */

static bool translate(unsigned long lva, unsigned flags, phys_addr_t *pa, struct mbm_slot *used)
{
	u32 va = (u32)lva;
	bool user = flags & MBM_USER;
	int space = va >= KVA_START ? -1 : (int)M.pid;
	const char *what = (flags & MBM_WRITE) ? "write" : (flags & MBM_EXEC) ? "fetch" : "read";
	struct brk *b;
	int n, i;

	if (lva >> 32)
		model_bug("access to an address beyond 32 bits (a host pointer?)", lva);
	if (used)
		used->valid = false;
	if ((b = brk_covering(va, space))) {
		violation(MBM_HIDDEN, "%s at 0x%08x while [0x%08x, +0x%x) is broken (its level-%d descriptor "
			  "is invalid)", what, va, b->va, b->size, b->level);
		return false;
	}
	n = lookup(va, M.pid, user, &i);
	if (n > 1)
		violation(MBM_OVERLAP, "%s at 0x%08x: %d valid slots match", what, va, n);
	if (n >= 1) {
		check_hit(i, va);
	} else {
		struct mwalk w;

		mwalk(va, user, M.pid, mb_user_pgd_pa, &w);
		if (w.res != MBW_OK) {
			violation(MBM_FAULT, "%s%s at 0x%08x: no translation (walk result %d, desc 0x%08x)",
				  user ? "user " : "", what, va, w.res, w.desc);
			return false;
		}
		i = load_slot(&w, va);
	}
	if (!perm_ok(M.hw[i].lo, flags)) {
		violation(MBM_FAULT, "%s%s at 0x%08x denied by slot %d (lo 0x%08x)", user ? "user " : "",
			  what, va, i, M.hw[i].lo);
		return false;
	}
	*pa = (M.hw[i].lo & HW_LO_RPN & ~(M.hw[i].size - 1)) + (va - M.hw[i].tag);
	if (used)
		*used = M.hw[i];
	return true;
}

bool mbm_access(unsigned long va, unsigned flags, struct mbm_slot *used)
{
	unsigned before = mbm_total_violations();
	phys_addr_t pa;
	bool ok = translate(va, flags, &pa, used);

	return ok && mbm_total_violations() == before;
}

/* ---- descriptor writes ---- */

bool mbm_change_is_safe(u32 old, u32 new, int level)
{
	struct mbm_slot a, b;

	if (!(old & PTE_VALID) || !(new & PTE_VALID))
		return true;
	if (level == 0) {
		bool ot = !(old & PTE_LEAF), nt = !(new & PTE_LEAF);

		if (ot != nt)
			return false;
		if (ot)
			return (old & PTE_OA_MASK) == (new & PTE_OA_MASK);
		if ((old & PTE_OA_L0) != (new & PTE_OA_L0))
			return false;
	} else if ((old & PTE_OA_MASK) != (new & PTE_OA_MASK)) {
		return false;
	}
	/* the same slot shape, address and cache attributes; only EX, WR, zone may differ */
	mbm_slot_for_desc(old, level, 0, 1, &a);
	mbm_slot_for_desc(new, level, 0, 1, &b);
	return a.size == b.size && a.tid == b.tid &&
	       !((a.lo ^ b.lo) & (HW_LO_RPN | HW_LO_W | HW_LO_I | HW_LO_M | HW_LO_G));
}

static void note_desc_write(phys_addr_t pa, u32 old, u32 new)
{
	struct loc l;
	bool ov = old & PTE_VALID, nv = new & PTE_VALID;

	if (old == new || !live_loc(pa, &l))
		return;
	if (ov && nv) {
		if (!mbm_change_is_safe(old, new, l.level))
			violation(MBM_UNSAFE, "live level-%d descriptor for 0x%08x changed 0x%08x -> 0x%08x in "
				  "place: needs break-before-make", l.level, l.va, old, new);
	} else if (ov) {
		if (M.nbrk == MAX_BRK)
			model_bug("too many broken descriptors", pa);
		M.brk[M.nbrk++] = (struct brk){ pa, l.va, l.size, l.space, l.level };
	} else if (nv) {
		struct brk *b = brk_at(pa);

		if (b) {
			int i = slot_in_range(b->va, b->size, b->space);

			if (i >= 0)
				violation(MBM_UNSAFE, "level-%d descriptor for 0x%08x made 0x%08x while slot %d "
					  "(0x%08x +0x%x) of the old one is still loaded", l.level, l.va, new, i,
					  M.hw[i].tag, M.hw[i].size);
			*b = M.brk[--M.nbrk];
		}
	}
	if (l.level == 0 && l0_is_table(old))
		tinfo_clear(old & PTE_OA_MASK);
	if (l.level == 0 && l0_is_table(new))
		tinfo_set(new & PTE_OA_MASK, l.space, l.va);
}

static void check_ptr(unsigned long va)
{
	if (va & 3)
		model_bug("unaligned descriptor pointer", va);
}

u32 mbm_pte_read(unsigned long va)
{
	phys_addr_t pa;

	check_ptr(va);
	if (!translate(va, MBM_READ, &pa, NULL))
		return 0;   /* the load faulted: reported */
	return mbm_phys_read32(pa);
}

void mbm_pte_write(unsigned long va, u32 v)
{
	phys_addr_t pa;
	u32 old;

	check_ptr(va);
	if (!translate(va, MBM_WRITE, &pa, NULL))
		return;   /* the store faulted: reported, dropped */
	old = mbm_phys_read32(pa);
	mbm_phys_write32(pa, v);
	note_desc_write(pa, old, v);
}

/* ---- head.S, and tlb_asm.S in C ---- */

void mbm_head_boot(void)
{
	memset(mb_tlb_shadow, 0, sizeof(mb_tlb_shadow));   /* .bss cleared */
	mb_tlb_first = mb_tlb_next = mb_tlb_next_block = 0;
	mb_kernel_pgd_pa = mb_user_pgd_pa = mb_kstack_top = mb_linear_offset = 0;
	for (int i = 0; i < MBM_SLOTS; i++)
		slot_decode(&M.hw[i], 0, 0, 0);
	M.pid = 0;
	M.zpr = ZPR_VALUE;
	slot_decode(&M.hw[0], (u32)M.img_va | HW_HI_V | HW_CODE_16M << 7,
		    (u32)M.img_pa | HW_LO_EX | HW_LO_WR, 0);
	M.boot_slot[0] = true;
	mb_tlb_shadow[0].hi = M.hw[0].hi;
	mb_tlb_first = 1;
	mb_tlb_next_block = 1;
	mb_tlb_next = TLB_PAGE_FIRST;
}

/* The removal loops read the shadow in virtual mode: a load from the image. */
static void shadow_load(u32 i)
{
	phys_addr_t pa;

	if (M.shadow_off)
		translate(M.img_va + M.shadow_off + i * sizeof(mb_tlb_shadow[0]), MBM_READ, &pa, NULL);
}

/* Shadow first, then TLBX = i, TLBHI = 0 (V clear), nothing after (tlb_asm.S). */
static void remove_slot(u32 i)
{
	mb_tlb_shadow[i].hi = 0;
	mb_tlb_shadow[i].tid = 0;
	mbm_mts_tlbx(i);
	mbm_mts_tlbhi(0);
}

/* tlb_asm.S REMOVE_SLOTS: every unpinned slot whose range meets [start, last]. */
void mb_tlb_remove(unsigned long start, unsigned long last)
{
	for (u32 i = mb_tlb_first; i < MBM_SLOTS; i++) {
		u32 hi, tag, size;

		shadow_load(i);
		hi = mb_tlb_shadow[i].hi;
		if (!(hi & HW_HI_V))
			continue;
		size = code_size(HW_HI_CODE(hi));
		tag = hi & HW_HI_TAG;
		if (tag > last || start > (u64)tag + (size - 1))
			continue;
		remove_slot(i);
	}
}

/* tlb_asm.S mb_tlb_remove_tid: every unpinned slot tagged tid. */
void mb_tlb_remove_tid(u32 tid)
{
	for (u32 i = mb_tlb_first; i < MBM_SLOTS; i++) {
		shadow_load(i);
		if ((mb_tlb_shadow[i].hi & HW_HI_V) && mb_tlb_shadow[i].tid == tid)
			remove_slot(i);
	}
}

/*
 * tlb_asm.S mb_bbm_asm: interrupts off; all n descriptors invalid; remove
 * the slots meeting [start, last]; the new descriptors. Only ptep[], the
 * shadow and the TLB are touched in between.
 */
void mb_bbm_asm(u32 *ptep, unsigned long n, u32 new_first, u32 oa_step, unsigned long start,
		unsigned long last)
{
	unsigned long p = (unsigned long)ptep;

	if (M.nbbm < MAX_BBM_LOG) {
		M.bbm[M.nbbm].start = start;
		M.bbm[M.nbbm].last = last;
		M.bbm[M.nbbm].n = n;
	}
	M.nbbm++;
	for (unsigned long i = 0; i < n; i++)
		mbm_pte_write(p + 4 * i, 0);
	mb_tlb_remove(start, last);
	for (unsigned long i = 0; i < n; i++, new_first += oa_step)
		mbm_pte_write(p + 4 * i, new_first);
}

unsigned mbm_bbm_count(void)
{
	return M.nbbm;
}

void mbm_bbm_get(unsigned i, unsigned long *start, unsigned long *last, unsigned long *n)
{
	*start = *last = *n = 0;
	if (i < M.nbbm && i < MAX_BBM_LOG) {
		*start = M.bbm[i].start;
		*last = M.bbm[i].last;
		*n = M.bbm[i].n;
	}
}

/* ---- end of an operation ---- */

void mbm_check_idle(void)
{
	M.nbrk = 0;
	for (int i = (int)mb_tlb_first; i < MBM_SLOTS; i++) {
		const struct mbm_slot *s = &M.hw[i];
		struct mwalk w;

		if (!s->valid || M.boot_slot[i])
			continue;
		walk_for_slot(s, s->tag, &w);
		if (w.res != MBW_OK)
			violation(MBM_STALE, "slot %d (0x%08x +0x%x -> 0x%08x tid %u) still loaded, the tables "
				  "have no translation there (walk result %d)", i, s->tag, s->size,
				  s->lo & HW_LO_RPN, s->tid, w.res);
		else if (w.s.hi != s->hi || w.s.lo != s->lo || w.s.tid != s->tid)
			violation(MBM_STALE, "slot %d still holds hi 0x%08x lo 0x%08x tid %u, the tables now "
				  "give hi 0x%08x lo 0x%08x tid %u", i, s->hi, s->lo, s->tid, w.s.hi, w.s.lo,
				  w.s.tid);
	}
	for (int i = 0; i < MBM_SLOTS; i++) {
		const struct mbm_slot *s = &M.hw[i];
		bool sv = (mb_tlb_shadow[i].hi & HW_HI_V) != 0;

		if (s->valid != sv || (sv && (s->hi != mb_tlb_shadow[i].hi || s->tid != mb_tlb_shadow[i].tid)))
			violation(MBM_SHADOW, "slot %d: hardware hi 0x%08x tid %u, shadow hi 0x%08x tid %u", i,
				  s->valid ? s->hi : 0, s->tid, mb_tlb_shadow[i].hi, mb_tlb_shadow[i].tid);
	}
}
