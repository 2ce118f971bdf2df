/*
 * hugetlb.c - huge page pools and MAP_HUGETLB mappings (see hugetlb.h).
 */
#include "hugetlb.h"
#include "page_alloc.h"
#include "printk.h"
#include "errno.h"
#include "kstring.h"
#include "slab.h"
#include "filemap.h"

#define MAX_HSTATES HUGETLB_MAX_SIZES
#define MAX_BOOT_WORDS 16

static struct hstate hstates[MAX_HSTATES];	/* smallest first */
static int nr_hstates;
static struct hstate *default_hstate;

/* hugepagesz= and hugepages= words, in command-line order, until hugetlb_init. */
static struct {
	bool is_size;
	const char *val;
} boot_words[MAX_BOOT_WORDS];
static int nr_boot_words;

/* ---- sizes ---- */

static unsigned order_for(u64 size)
{
	unsigned order = 0;

	while (((u64)PAGE_SIZE << order) < size)
		order++;
	return order;
}

/* Parse "2M", "1G", "4M", "2048K" or a number of bytes; 0 if malformed. */
static u64 parse_size(const char *s)
{
	u64 v = 0;

	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (u64)(*s - '0');
	switch (*s) {
	case 'K': case 'k': return s[1] ? 0 : v << 10;
	case 'M': case 'm': return s[1] ? 0 : v << 20;
	case 'G': case 'g': return s[1] ? 0 : v << 30;
	case '\0': return v;
	default: return 0;
	}
}

static struct hstate *hstate_of_size(u64 size)
{
	for (int i = 0; i < nr_hstates; i++)
		if (hstates[i].size == size)
			return &hstates[i];
	return NULL;
}

struct hstate *hugetlb_default(void)
{
	return default_hstate;
}

int hugetlb_nr_hstates(void)
{
	return nr_hstates;
}

struct hstate *hugetlb_hstate(int i)
{
	return i >= 0 && i < nr_hstates ? &hstates[i] : NULL;
}

struct hstate *hugetlb_from_mmap_flags(unsigned long flags)
{
	unsigned shift = (flags >> 26) & 0x3f;	/* MAP_HUGE_SHIFT, MAP_HUGE_MASK */

	if (shift >= 64)
		return NULL;
	return shift ? hstate_of_size(1ull << shift) : hugetlb_default();
}

unsigned hugetlb_vma_flags(const struct hstate *h, bool reserve)
{
	return VM_HUGETLB | VM_HUGE_INDEX(h->index) | (reserve ? VM_HUGE_RESV : 0);
}

struct hstate *hugetlb_of_vma(const struct vma *v)
{
	int i = (int)((v->flags >> VM_HUGE_INDEX_SHIFT) & 3);

	if (i >= nr_hstates)
		panic("hugetlb VMA 0x%lx-0x%lx has no size (index %d of %d)", v->start, v->end, i,
		      nr_hstates);
	return &hstates[i];
}

/* ---- the pool ---- */

static void pool_push(struct hstate *h, struct page *pg)
{
	pg->next = h->freelist;
	h->freelist = pg;
	h->free++;
}

static struct page *pool_pop(struct hstate *h)
{
	struct page *pg = h->freelist;

	if (pg) {
		h->freelist = pg->next;
		pg->next = NULL;
		h->free--;
	}
	return pg;
}

/*
 * A fresh pool page from the buddy allocator: zeroed now if init_on_alloc
 * asks for it, and marked so that its first fault does not clear it again
 * (the same if the allocator knew the block was zero already).
 */
static bool pool_grow_one(struct hstate *h)
{
	bool zero;
	struct page *pg = alloc_pages_zero_state(0, h->order, &zero);

	if (!pg)
		return false;
	/* LAB hugetlb: begin; stub: (void)zero; */
	if (zero)
		pg->flags |= PG_PREZEROED;
	/* LAB hugetlb: end */
	pool_push(h, pg);
	h->nr++;
	return true;
}

/* Give a free pool page back to the buddy allocator. */
static void pool_shrink_one(struct hstate *h)
{
	struct page *pg = pool_pop(h);
	bool zero = pg->flags & PG_PREZEROED;

	pg->flags &= ~PG_PREZEROED;
	if (zero)
		free_pages_zeroed(pg, h->order);	/* already zero: init_on_free has nothing to do */
	else
		free_pages(pg, h->order);
	h->nr--;
}

u64 hugetlb_set_pool(struct hstate *h, u64 n)
{
	while (h->nr < n && pool_grow_one(h))
		;
	/* Only free pages that are not promised to a mapping can go. */
	while (h->nr > n && h->free > h->resv)
		pool_shrink_one(h);
	return h->nr;
}

long hugetlb_reserve(struct hstate *h, u64 n)
{
	if (h->free < h->resv || h->free - h->resv < n)
		return -ENOMEM;	/* HT-4: no surplus pages (nr_overcommit_hugepages is 0) */
	h->resv += n;
	return 0;
}

/* A mapping dropped its last reference to pg: back to the pool. */
static void huge_page_release(struct hstate *h, struct page *pg)
{
	pg->flags &= ~PG_PREZEROED;
	/* LAB hugetlb: begin */
	if (init_on_free) {
		zero_pages(pg, h->order);	/* cleared on the way out: not again at fault */
		pg->flags |= PG_PREZEROED;
	}
	/* LAB hugetlb: end */
	pg->refcount = 1;
	pool_push(h, pg);
}

static void huge_page_put(struct hstate *h, struct page *pg)
{
	BUG_ON(pg->refcount <= 0);
	if (--pg->refcount == 0)
		huge_page_release(h, pg);
}

bool hugetlb_bootarg_size(const char *val)
{
	if (nr_boot_words == MAX_BOOT_WORDS)
		return false;
	boot_words[nr_boot_words].is_size = true;
	boot_words[nr_boot_words++].val = val;
	return true;
}

bool hugetlb_bootarg_pages(const char *val)
{
	const char *s = val;

	while (*s >= '0' && *s <= '9')
		s++;
	if (s == val || *s || s - val > 12 || nr_boot_words == MAX_BOOT_WORDS)
		return false;	/* a count of at most 12 digits */
	boot_words[nr_boot_words].is_size = false;
	boot_words[nr_boot_words++].val = val;
	return true;
}

/* Add the size of 'cont' leaves of 'level' if a buddy block can back it. */
static void add_hstate(int level, unsigned cont)
{
	u64 size = pt_level_size(level) * cont;
	unsigned order = order_for(size);
	struct hstate *h = &hstates[nr_hstates];

	if (order >= MAX_ORDER || nr_hstates == MAX_HSTATES)
		return;
	BUG_ON(nr_hstates && hstates[nr_hstates - 1].size >= size);	/* smallest first */
	memset(h, 0, sizeof(*h));	/* an empty pool */
	h->index = nr_hstates++;
	h->level = level;
	h->cont = cont;
	h->order = order;
	h->size = size;
	if (cont == 1 && level == PT_LAST_LEVEL - 1)
		default_hstate = h;
}

/* Decimal digits of s (hugetlb_bootarg_pages checked them). */
static u64 parse_count(const char *s)
{
	u64 v = 0;

	while (*s)
		v = v * 10 + (u64)(*s++ - '0');
	return v;
}

/*
 * Apply the hugepagesz=/hugepages= words as Linux reads them: a count
 * fills the size named last (the default size before any hugepagesz=);
 * a count after an unsupported or repeated size, or a second count for
 * one size, is ignored with a message.
 */
static void apply_boot_words(void)
{
	struct hstate *named = NULL;
	bool any_size = false, counted[MAX_HSTATES] = { false };

	for (int i = 0; i < nr_boot_words; i++) {
		const char *val = boot_words[i].val;
		struct hstate *h;

		if (boot_words[i].is_size) {
			h = hstate_of_size(parse_size(val));
			any_size = true;
			if (!h)
				printk("hugetlb: hugepagesz=%s is not a size this kernel supports\n", val);
			named = h;
			continue;
		}
		h = any_size ? named : default_hstate;
		if (!h || counted[h->index]) {
			printk("hugetlb: hugepages=%s %s, ignored\n", val,
			       h ? "given twice for one size" : "does not follow a supported hugepagesz");
			continue;
		}
		counted[h->index] = true;
		hugetlb_set_pool(h, parse_count(val));
		printk("hugetlb: %llu of %llu %llu KiB pages in the pool\n", (unsigned long long)h->nr,
		       (unsigned long long)parse_count(val), (unsigned long long)(h->size >> 10));
	}
	nr_boot_words = 0;
}

void hugetlb_init(void)
{
	nr_hstates = 0;
	default_hstate = NULL;
	for (int level = PT_LAST_LEVEL; level >= 0; level--) {
		if (!arch_pt_leaf_ok(level))
			continue;
		if (level < PT_LAST_LEVEL)
			add_hstate(level, 1);
		if (arch_pt_cont_entries(level) > 1)
			add_hstate(level, arch_pt_cont_entries(level));
	}
	if (!default_hstate && nr_hstates)
		default_hstate = &hstates[0];
	apply_boot_words();
}

void hugetlb_meminfo(u64 *total, u64 *free, u64 *resv, u64 *size_kb)
{
	struct hstate *h = hugetlb_default();

	*total = h ? h->nr : 0;
	*free = h ? h->free : 0;
	*resv = h ? h->resv : 0;
	*size_kb = h ? h->size >> 10 : 0;
}

u64 hugetlb_total_bytes(void)
{
	u64 n = 0;

	for (int i = 0; i < nr_hstates; i++)
		n += hstates[i].nr * hstates[i].size;
	return n;
}

/* ---- mappings ---- */

/*
 * The entry slot for the huge page at addr (aligned to h->size): for a run,
 * its first entry. With alloc, the tables above it are allocated, and a
 * table left in a slot of the page (every entry of a run) by small pages
 * that were mapped here before this VMA (munmap keeps table pages) is
 * freed, so the slots are invalid or huge entries. Without alloc, a slot
 * may still hold such a table: huge_entry_page() never takes it for a page.
 * A hugetlb VMA owns its whole huge-aligned range, so a table there can only
 * be empty; one that is not means the kernel lost track of a mapping.
 */
static bool huge_slot(struct mm *mm, const struct hstate *h, unsigned long addr, bool alloc,
		      struct pt_cursor *c)
{
	u64 step = pt_level_size(h->level);

	/* The run's other slots first: the returned cursor is the last walk (a fixmap slot may be reused). */
	for (unsigned i = h->cont; alloc && h->level < PT_LAST_LEVEL && i-- > 1;) {
		if (!pt_walk(&mm->pt, addr + i * step, h->level, true, c) || c->level != h->level)
			return false;
		if (arch_pte_is_table(c->val, c->level) && !pt_free_empty_table(&mm->pt, c))
			panic("hugetlb: va 0x%lx: the table in a huge slot still maps something", c->va);
	}
	if (!pt_walk(&mm->pt, addr, h->level, alloc, c))
		return false;
	if (c->level != h->level)
		return false;
	if (alloc && arch_pte_is_table(c->val, c->level) && !pt_free_empty_table(&mm->pt, c))
		panic("hugetlb: va 0x%lx: the table in a huge slot still maps something", c->va);
	return true;
}

/*
 * Write the huge page at c (its first entry) through the choke point: a
 * block alone, a run as a whole (every entry together; the choke point
 * breaks the whole run first when any entry needs it).
 */
static void huge_set(struct mm *mm, const struct hstate *h, struct pt_cursor *c, pteval_t new)
{
	if (h->cont == 1)
		pte_update(&mm->pt, c->ptep, c->val, new, c->va, c->level);
	else
		pte_update_run(&mm->pt, c->ptep, h->cont, new, c->va, c->level);
	c->val = new;
}

/*
 * The huge page the slot entry v (of 'level') maps: a leaf, or a PROT_NONE
 * software entry. NULL for an invalid entry and for a table, whose page is a
 * page-table page and never a huge page.
 */
static struct page *huge_entry_page(pteval_t v, int level)
{
	if (arch_pte_valid(v))
		return arch_pte_is_leaf(v, level) ? phys_to_page(arch_pte_pa(v)) : NULL;
	if (arch_pte_swp_kind(v) == ARCH_SWP_PROTNONE)
		return phys_to_page(arch_pte_swp_pa(v));
	return NULL;
}

/* The leaf mapping pg in v (PROT_NONE: a software entry). */
static pteval_t huge_entry(const struct vma *v, const struct hstate *h, struct page *pg, bool writable)
{
	unsigned prot = vma_prot(v->flags);

	if (!(v->flags & VM_ACCESS))
		return arch_pte_mk_swp(ARCH_SWP_PROTNONE, page_to_phys(pg));
	if (!writable)
		prot &= ~PT_WRITE;
	if (h->cont > 1)
		prot |= PT_CONT;
	return arch_pte_mk_leaf(page_to_phys(pg), prot, h->level);
}

static bool huge_can_write(const struct vma *v, const struct page *pg)
{
	return (v->flags & VM_WRITE) && ((v->flags & VM_SHARED) || pg->refcount == 1);
}

/* A free page for a fault (the caller has settled the reservation), zeroed, one reference. */
static struct page *pool_take_cleared(struct hstate *h)
{
	struct page *pg = pool_pop(h);

	BUG_ON(!pg);
	/* LAB hugetlb: begin */
	if (!(pg->flags & PG_PREZEROED))
		zero_pages(pg, h->order);	/* the one clear this page gets */
	pg->flags &= ~PG_PREZEROED;
	/* LAB hugetlb: end */
	pg->refcount = 1;
	return pg;
}

/* Take a page for a fault: a reserved one for a reserving VMA, else a spare one. */
static struct page *take_page(struct hstate *h, const struct vma *v)
{
	if (v->flags & VM_HUGE_RESV) {
		BUG_ON(h->resv == 0);
		h->resv--;
	} else if (h->free <= h->resv) {
		return NULL;	/* HT-5: nothing unreserved left: SIGBUS */
	}
	return pool_take_cleared(h);
}

/* ---- shared mappings: the file behind them ---- */

#define HF_PUNCHED ((struct page *)1)	/* a slot a hole punch emptied, its reservation dropped */

/* The page a file slot holds, or NULL (empty or punched). */
static struct page *slot_page(struct page *s)
{
	return s == HF_PUNCHED ? NULL : s;
}

/*
 * What backs a shared hugetlb mapping, as Linux's hugetlbfs file of an
 * anonymous MAP_SHARED | MAP_HUGETLB mapping: the huge pages by index (a
 * VMA's offset says where it starts), each holding one reference of the
 * file's own, and the reservation of the slots not yet faulted. Every VMA
 * mapping it (its splits, fork children's copies, an mremap's move) holds
 * a vma_file reference; the last one gives the pages back to the pool and
 * drops what is left reserved. So a page first touched after a fork is one
 * page in both processes, and a page stays while any part of the mapping
 * does, as on Linux.
 */
struct huge_file {
	struct vma_file vf;	/* first: a struct vma_file * is a struct huge_file * */
	u64 ino;		/* the inode number /proc/<pid>/maps shows */
	struct hstate *h;
	u64 first;		/* file page (in huge pages) of slot[0]: the mmap offset */
	u64 n;			/* slots (huge pages) */
	u64 resv;		/* empty slots still reserved (0 for MAP_NORESERVE) */
	bool reserving;		/* made with a reservation: every NULL slot is reserved */
	unsigned order;		/* of the pages holding slot[] */
	struct page **slot;	/* NULL, HF_PUNCHED or the page */
	struct huge_file *next;	/* every live one (hugetlb_file_pages()) */
	struct huge_file *held_next;	/* on the held list (hugetlb_hold_files()) */
	bool held;
};

/*
 * What names a private mapping: Linux's hugetlbfs file of an anonymous
 * MAP_PRIVATE | MAP_HUGETLB mapping, which holds none of its pages (they
 * are anonymous), only its identity in /proc/<pid>/maps.
 */
struct huge_name {
	struct vma_file vf;
	u64 ino;		/* the inode number /proc/<pid>/maps shows */
};

static struct slab_cache huge_file_cache = SLAB_CACHE("huge_file", struct huge_file);
static struct slab_cache huge_name_cache = SLAB_CACHE("huge_name", struct huge_name);
static struct huge_file *huge_files;
static u32 huge_dev;		/* hugetlb_set_dev() */
static u64 huge_next_ino = 1;

static void huge_file_release(struct vma_file *vf);
static void huge_name_release(struct vma_file *vf);
static void huge_ident(struct vma_file *vf, u32 *dev, u64 *ino);
static const struct vma_file_ops huge_file_ops = { .release = huge_file_release, .ident = huge_ident };
static const struct vma_file_ops huge_name_ops = {
	.release = huge_name_release, .ident = huge_ident, .names_only = true,
};

void hugetlb_set_dev(u32 dev)
{
	huge_dev = dev;
}

/* Either kind of file: its device and inode number. */
static void huge_ident(struct vma_file *vf, u32 *dev, u64 *ino)
{
	*dev = huge_dev;
	*ino = vf->ops == &huge_file_ops ? ((struct huge_file *)vf)->ino : ((struct huge_name *)vf)->ino;
}

static struct huge_file *huge_file_of(const struct vma *v)
{
	return v->file && v->file->ops == &huge_file_ops ? (struct huge_file *)v->file : NULL;
}

struct vma_file *hugetlb_private_create(void)
{
	struct huge_name *f = slab_alloc(&huge_name_cache);

	if (!f)
		return NULL;
	f->vf.refs = 1;
	f->vf.ops = &huge_name_ops;
	f->ino = huge_next_ino++;
	return &f->vf;
}

static void huge_name_release(struct vma_file *vf)
{
	slab_free(&huge_name_cache, vf);
}

struct vma_file *hugetlb_file_create(struct hstate *h, u64 first, u64 n)
{
	struct huge_file *f = slab_alloc(&huge_file_cache);
	struct page *arr;

	if (!f)
		return NULL;
	f->order = order_for(n * sizeof(struct page *));
	arr = f->order < MAX_ORDER ? alloc_pages(GFP_ZERO, f->order) : NULL;
	if (!arr) {
		slab_free(&huge_file_cache, f);
		return NULL;
	}
	f->vf.refs = 1;
	f->vf.ops = &huge_file_ops;
	f->ino = huge_next_ino++;
	f->h = h;
	f->first = first;
	f->n = n;
	f->resv = 0;
	f->reserving = false;
	f->slot = page_address(arr);
	f->next = huge_files;
	huge_files = f;
	return &f->vf;
}

void hugetlb_file_reserve(struct vma_file *vf)
{
	struct huge_file *f = (struct huge_file *)vf;

	BUG_ON(vf->ops != &huge_file_ops || f->reserving);
	f->reserving = true;
	f->resv = f->n;
}

/* The last VMA is gone: the file's pages go back to the pool, its reservation goes. */
static void huge_file_release(struct vma_file *vf)
{
	struct huge_file *f = (struct huge_file *)vf, **pp;

	for (u64 i = 0; i < f->n; i++)
		if (slot_page(f->slot[i]))
			huge_page_put(f->h, f->slot[i]);
	f->h->resv -= f->resv;
	for (pp = &huge_files; *pp != f; pp = &(*pp)->next)
		;
	*pp = f->next;
	free_pages(phys_to_page(virt_to_phys(f->slot)), f->order);
	slab_free(&huge_file_cache, f);
}

/* The slot of v's file at base (huge-aligned, inside v), or NULL outside the file's slots. */
static struct page **file_slot(const struct huge_file *f, const struct vma *v, unsigned long base)
{
	u64 i = (v->offset + (base - v->start)) / f->h->size;

	return i >= f->first && i - f->first < f->n ? &f->slot[i - f->first] : NULL;
}

/*
 * A fault in a shared mapping: the file's page for the slot, made if it is
 * empty (from the file's reservation, or a spare page), with a reference
 * for the new mapping. NULL when the pool has nothing to give (SIGBUS).
 */
static struct page *file_take(struct huge_file *f, const struct vma *v, unsigned long base)
{
	struct page **sp = file_slot(f, v, base), *pg;
	struct hstate *h = f->h;

	if (!sp)
		return NULL;
	if (slot_page(*sp)) {
		(*sp)->refcount++;
		return *sp;
	}
	if (!*sp && f->reserving) {
		BUG_ON(h->resv == 0 || f->resv == 0);
		h->resv--;
		f->resv--;
	} else if (h->free <= h->resv) {
		return NULL;	/* HT-5: nothing unreserved left */
	}
	pg = pool_take_cleared(h);
	*sp = pg;
	pg->refcount++;	/* the file's and the mapping's */
	return pg;
}

/* Zero [start, end) (inside one huge page of v) in the file's page, if it has one. */
static void file_zero_part(struct huge_file *f, const struct vma *v, unsigned long start, unsigned long end)
{
	unsigned long base = ALIGN_DOWN(start, f->h->size);
	struct page **sp = file_slot(f, v, base);

	if (start < end && sp && slot_page(*sp))
		memset((u8 *)page_address(*sp) + (start - base), 0, end - start);
}

void hugetlb_punch(struct vma *v, unsigned long start, unsigned long end)
{
	struct huge_file *f = huge_file_of(v);
	unsigned long lo, hi, mid;

	if (!f)
		return;
	lo = ALIGN_UP(start, f->h->size);	/* the whole huge pages: [lo, hi) */
	hi = ALIGN_DOWN(end, f->h->size);
	mid = MIN(end, lo);			/* the head part ends here, the tail part starts at MAX(mid, hi) */
	file_zero_part(f, v, start, mid);
	file_zero_part(f, v, MAX(mid, hi), end);
	if (lo >= hi)
		return;
	/* every mapping of these file pages lets go of them first, as Linux's
	 * hugetlb_vmdelete_list(); then the file drops its own reference */
	mm_unmap_file_range(&f->vf, vma_offset_at(v, lo) / PAGE_SIZE, vma_offset_at(v, hi) / PAGE_SIZE);
	for (unsigned long va = lo; va < hi; va += f->h->size) {
		struct page **sp = file_slot(f, v, va);

		if (!sp)
			break;
		if (slot_page(*sp)) {
			huge_page_put(f->h, *sp);	/* the file's reference was the last one */
			*sp = HF_PUNCHED;
		}
		/* an empty slot keeps its reservation: Linux's hole punch drops
		 * the reserve map entry only with the page it removes */
	}
}

static struct huge_file *held_files;

void hugetlb_hold_files(struct mm *mm, unsigned long start, unsigned long end)
{
	for (struct vma *v = vma_find_from(mm, start); v && v->start < end; v = v->next) {
		struct huge_file *f = huge_file_of(v);

		if (f && !f->held) {
			f->held = true;
			vma_file_get(&f->vf);
			f->held_next = held_files;
			held_files = f;
		}
	}
}

void hugetlb_release_held(void)
{
	while (held_files) {
		struct huge_file *f = held_files;

		held_files = f->held_next;
		f->held = false;
		vma_file_put(&f->vf);
	}
}

void hugetlb_file_pages(void (*fn)(struct hstate *h, struct page *pg, void *arg), void *arg,
			u64 resv[HUGETLB_MAX_SIZES])
{
	for (struct huge_file *f = huge_files; f; f = f->next) {
		resv[f->h->index] += f->resv;
		for (u64 i = 0; i < f->n; i++)
			if (slot_page(f->slot[i]))
				fn(f->h, f->slot[i], arg);
	}
}

bool hugetlb_fault_can_take(const struct vma *v, unsigned long addr)
{
	const struct hstate *h = hugetlb_of_vma(v);
	const struct huge_file *f = huge_file_of(v);

	if (f) {	/* a slot that has its page, or keeps its reservation */
		struct page **sp = file_slot(f, v, ALIGN_DOWN(addr, h->size));

		return sp && (slot_page(*sp) || (!*sp && f->reserving) || h->free > h->resv);
	}
	return (v->flags & VM_HUGE_RESV) || h->free > h->resv;	/* a reserving VMA's first faults always get one */
}

int hugetlb_fault(struct mm *mm, struct vma *v, unsigned long addr, enum fault_access access)
{
	struct hstate *h = hugetlb_of_vma(v);
	unsigned long base = ALIGN_DOWN(addr, h->size);
	struct pt_cursor c;
	struct page *pg, *copy;

	if (!huge_slot(mm, h, base, true, &c))
		return -ENOMEM;
	pg = huge_entry_page(c.val, c.level);
	if (!pg) {
		struct huge_file *f = huge_file_of(v);

		pg = f ? file_take(f, v, base) : take_page(h, v);
		if (!pg)
			return -ENOMEM;	/* the caller turns it into SIGBUS */
		huge_set(mm, h, &c, huge_entry(v, h, pg, v->flags & VM_WRITE));
		return 0;
	}
	if (access == FAULT_WRITE && !huge_can_write(v, pg)) {
		/* copy-on-write of a private page shared with a fork child */
		if (h->free <= h->resv || !(copy = pool_pop(h)))
			return -ENOMEM;
		copy->flags &= ~PG_PREZEROED;
		copy->refcount = 1;
		for (u64 off = 0; off < h->size; off += PAGE_SIZE)
			memcpy((u8 *)page_address(copy) + off, (u8 *)page_address(pg) + off, PAGE_SIZE);
		huge_set(mm, h, &c, huge_entry(v, h, copy, true));
		huge_page_put(h, pg);
		return 0;
	}
	pteval_t want = huge_entry(v, h, pg, huge_can_write(v, pg));

	if (want == c.val)
		return fault_entry_unchanged();
	huge_set(mm, h, &c, want);
	return 0;
}

void hugetlb_zap(struct mm *mm, struct vma *v, unsigned long start, unsigned long end, bool removing)
{
	struct hstate *h = hugetlb_of_vma(v);

	for (unsigned long va = start; va < end; va += h->size) {
		struct pt_cursor c;
		struct page *pg = NULL;

		if (huge_slot(mm, h, va, false, &c))
			pg = huge_entry_page(c.val, c.level);
		if (pg) {
			huge_set(mm, h, &c, ARCH_PTE_INVALID);
			huge_page_put(h, pg);
			if (!removing && (v->flags & VM_HUGE_RESV))
				h->resv++;	/* empty again: its reservation stands */
		} else if (removing && (v->flags & VM_HUGE_RESV)) {
			h->resv--;	/* HT-6: an unused reservation goes */
		}
	}
}

int hugetlb_move(struct mm *mm, struct vma *v, unsigned long from, unsigned long to, unsigned long len)
{
	struct hstate *h = hugetlb_of_vma(v);

	for (unsigned long off = 0; off < len; off += h->size) {
		struct pt_cursor c, d;
		pteval_t val;

		if (!huge_slot(mm, h, from + off, false, &c) || !huge_entry_page(c.val, c.level))
			continue;	/* nothing faulted in here (at most an empty table) */
		if (!huge_slot(mm, h, to + off, true, &d))
			return -ENOMEM;
		BUG_ON(d.val != ARCH_PTE_INVALID);
		val = c.val;
		huge_set(mm, h, &c, ARCH_PTE_INVALID);	/* the old translation goes first (TLBI) */
		huge_set(mm, h, &d, val);
	}
	return 0;
}

int hugetlb_copy(struct mm *dst, struct mm *src, struct vma *v)
{
	struct hstate *h = hugetlb_of_vma(v);

	if (v->flags & VM_SHARED)
		return 0;	/* the child faults the file's pages in (HT-10) */
	for (unsigned long va = v->start; va < v->end; va += h->size) {
		struct pt_cursor c, d;
		struct page *pg;
		pteval_t child;

		if (!huge_slot(src, h, va, false, &c) || !(pg = huge_entry_page(c.val, c.level)))
			continue;
		if (!huge_slot(dst, h, va, true, &d))
			return -ENOMEM;
		pg->refcount++;
		child = c.val;
		if (arch_pte_valid(c.val)) {
			child = huge_entry(v, h, pg, false);
			if (c.val != child)
				huge_set(src, h, &c, child);	/* both copy on their next write */
		}
		huge_set(dst, h, &d, child);
	}
	return 0;
}

void hugetlb_change_protection(struct mm *mm, struct vma *v, unsigned long start, unsigned long end)
{
	struct hstate *h = hugetlb_of_vma(v);

	for (unsigned long va = start; va < end; va += h->size) {
		struct pt_cursor c;
		struct page *pg;
		pteval_t want;

		if (!huge_slot(mm, h, va, false, &c) || !(pg = huge_entry_page(c.val, c.level)))
			continue;
		want = huge_entry(v, h, pg, huge_can_write(v, pg));
		if (want != c.val)
			huge_set(mm, h, &c, want);
	}
}

u64 hugetlb_rss_bytes(struct mm *mm, struct vma *v, unsigned long start, unsigned long end)
{
	struct hstate *h = hugetlb_of_vma(v);
	u64 n = 0;

	for (unsigned long va = start; va < end; va += h->size) {
		struct pt_cursor c;

		if (huge_slot(mm, h, va, false, &c) && huge_entry_page(c.val, c.level))
			n += h->size;
	}
	return n;
}

void hugetlb_smaps_bytes(struct mm *mm, struct vma *v, u64 *shared, u64 *priv)
{
	struct hstate *h = hugetlb_of_vma(v);
	int file_ref = huge_file_of(v) ? 1 : 0;	/* the file's own reference is not a mapping */

	*shared = *priv = 0;
	for (unsigned long va = v->start; va < v->end; va += h->size) {
		struct pt_cursor c;
		struct page *pg;

		if (!huge_slot(mm, h, va, false, &c) || !(pg = huge_entry_page(c.val, c.level)))
			continue;
		if (pg->refcount - file_ref > 1)
			*shared += h->size;
		else
			*priv += h->size;
	}
}
