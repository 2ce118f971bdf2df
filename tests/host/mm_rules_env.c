/*
 * mm_rules_env.c - the world test_mm_rules.c runs the real address-space
 * code in (see mm_rules_env.h): fake RAM, a page allocator with the real
 * names and signatures (mm/page_alloc.h), a kernel linear map built with
 * the real page-table core on the fake arch (every descriptor access goes
 * through the TLB model), one fake CPU running one fake process, and stubs
 * for what the linked files reference but the tests never reach.
 *
 * Two views of physical memory exist side by side:
 *   - the TLB model's memory, which holds every page-table page (the
 *     page-table core reaches tables only through simulated addresses);
 *   - a host buffer, which holds what page_address() returns: user data,
 *     struct mm, slab pages.
 * A page is used through one view only; alloc_pages(GFP_ZERO) clears it in
 * both, so a table page that once held data (or another table) comes back
 * empty in the model too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mm_rules_env.h"
#include "page_alloc.h"
#include "memblock.h"
#include "pgtable.h"
#include "proc.h"
#include "memfd.h"
#include "filemap.h"
#include "page_tree.h"
#include "tlb_model.h"

/* ---- the page pool ---- */

static struct {
	unsigned char *buf;			/* host view of [ENV_POOL_BASE, +ENV_POOL_SIZE) */
	struct page pages[ENV_POOL_PAGES];
	unsigned char used[ENV_POOL_PAGES];	/* page is inside an allocated block */
	long in_use;
	long pt_pages[2];			/* page_alloc_count_pt totals: kernel, user */
	long fail_after;			/* >= 0: that many more allocations succeed */
	phys_addr_t memblock_next;
} env;

bool init_on_alloc, init_on_free;
bool arm64_has_bti;	/* the fake CPU has no FEAT_BTI: PROT_BTI is refused as on MicroBlaze */

static unsigned long page_index(const struct page *pg)
{
	long i = pg - env.pages;

	if (i < 0 || i >= (long)ENV_POOL_PAGES)
		panic("mm_rules_env: struct page %p is not ours", (const void *)pg);
	return (unsigned long)i;
}

/* Dense page numbers, as mm/page_alloc.h has them: the pool's pages. */
unsigned long page_frame_index(const struct page *pg)
{
	return page_index(pg);
}

unsigned long page_frame_count(void)
{
	return ENV_POOL_PAGES;
}

static void check_block(const struct page *pg, unsigned order, const char *what)
{
	if (!(pg->flags & PG_HEAD) || pg->order != order || pg->refcount <= 0)
		panic("mm_rules_env: %s of page 0x%llx order %u (flags 0x%x order %u count %d)", what,
		      (unsigned long long)page_to_phys(pg), order, pg->flags, pg->order, pg->refcount);
}

struct page *alloc_pages_zero_state(unsigned gfp, unsigned order, bool *is_zero)
{
	unsigned long n = 1UL << order;

	if (order >= MAX_ORDER || (gfp & ~GFP_ZERO))
		panic("mm_rules_env: alloc_pages(0x%x, %u)", gfp, order);
	if (env.fail_after == 0)
		return NULL;
	for (unsigned long i = 0; i + n <= ENV_POOL_PAGES; i += n) {
		unsigned long k;

		for (k = 0; k < n && !env.used[i + k]; k++)
			;
		if (k < n)
			continue;
		struct page *pg = &env.pages[i];

		memset(env.used + i, 1, n);
		memset(pg, 0, n * sizeof(*pg));
		pg->flags = PG_HEAD;
		pg->order = (u8)order;
		pg->refcount = 1;
		env.in_use += (long)n;
		if (env.fail_after > 0)
			env.fail_after--;
		if ((gfp & GFP_ZERO) || init_on_alloc) {
			memset(env.buf + i * PAGE_SIZE, 0, n * PAGE_SIZE);
			tlb_model_phys_fill(page_to_phys(pg), n * PAGE_SIZE, 0);
		} else {
			memset(env.buf + i * PAGE_SIZE, 0x5a, n * PAGE_SIZE);	/* not zeroed */
		}
		if (is_zero)
			*is_zero = (gfp & GFP_ZERO) || init_on_alloc;
		return pg;
	}
	return NULL;
}

struct page *alloc_pages(unsigned gfp, unsigned order)
{
	return alloc_pages_zero_state(gfp, order, NULL);
}

void free_pages(struct page *pg, unsigned order)
{
	unsigned long i = page_index(pg), n = 1UL << order;

	check_block(pg, order, "free");
	for (unsigned long k = 0; k < n; k++)
		if (!env.used[i + k] || (k && env.pages[i + k].flags))
			panic("mm_rules_env: free of page 0x%llx order %u: page %lu is not part of it",
			      (unsigned long long)page_to_phys(pg), order, k);
	memset(pg, 0, sizeof(*pg));
	memset(env.used + i, 0, n);
	memset(env.buf + i * PAGE_SIZE, 0x6b, n * PAGE_SIZE);	/* poison: use after free shows */
	env.in_use -= (long)n;
}

void free_pages_zeroed(struct page *pg, unsigned order)
{
	free_pages(pg, order);
}

void zero_pages(struct page *pg, unsigned order)
{
	memset(page_address(pg), 0, (size_t)PAGE_SIZE << order);
	tlb_model_phys_fill(page_to_phys(pg), (u64)PAGE_SIZE << order, 0);
}

void page_get(struct page *pg)
{
	check_block(pg, pg->order, "page_get");
	pg->refcount++;
}

void page_put(struct page *pg)
{
	check_block(pg, pg->order, "page_put");
	if (--pg->refcount == 0) {
		pg->refcount = 1;
		free_pages(pg, pg->order);
	}
}

void page_get_many(struct page *const *pgs, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		page_get(pgs[i]);
}

void page_put_many(struct page *const *pgs, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		page_put(pgs[i]);
}

int page_count(const struct page *pg)
{
	return pg->refcount;
}

void split_page(struct page *pg, unsigned order)
{
	check_block(pg, order, "split_page");
	for (unsigned long i = 0; i < (1UL << order); i++) {
		pg[i].flags = PG_HEAD;
		pg[i].order = 0;
		pg[i].refcount = 1;
	}
}

phys_addr_t page_to_phys(const struct page *pg)
{
	return ENV_POOL_BASE + (phys_addr_t)page_index(pg) * PAGE_SIZE;
}

struct page *phys_to_page(phys_addr_t pa)
{
	if (pa < ENV_POOL_BASE || pa - ENV_POOL_BASE >= ENV_POOL_SIZE)
		return NULL;
	return &env.pages[(pa - ENV_POOL_BASE) / PAGE_SIZE];
}

void *phys_to_virt(phys_addr_t pa)
{
	if (pa < ENV_POOL_BASE || pa - ENV_POOL_BASE >= ENV_POOL_SIZE)
		panic("mm_rules_env: phys_to_virt(0x%llx) outside the pool", (unsigned long long)pa);
	return env.buf + (pa - ENV_POOL_BASE);
}

phys_addr_t virt_to_phys(const void *va)
{
	const unsigned char *p = va;

	if (p < env.buf || p >= env.buf + ENV_POOL_SIZE)
		panic("mm_rules_env: virt_to_phys(%p) outside the pool", va);
	return ENV_POOL_BASE + (phys_addr_t)(p - env.buf);
}

void *page_address(const struct page *pg)
{
	return env.buf + page_index(pg) * PAGE_SIZE;
}

void *alloc_page_va(unsigned gfp)
{
	struct page *pg = alloc_pages(gfp, 0);

	return pg ? page_address(pg) : NULL;
}

void free_page_va(void *va)
{
	free_pages(phys_to_page(virt_to_phys(va)), 0);
}

void page_alloc_count_pt(bool user, int delta)
{
	env.pt_pages[user ? 1 : 0] += delta;
}

/* What mm/commit.c needs: the pool's size and use. */
void page_alloc_stats(struct page_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->total_pages = ENV_POOL_PAGES;
	out->free_pages = ENV_POOL_PAGES - (u64)env.in_use;
}

long env_pages_in_use(void)
{
	return env.in_use;
}

long env_user_pt_pages(void)
{
	return env.pt_pages[1];
}

void env_fail_after(long n)
{
	env.fail_after = n;
}

/* ---- memblock: the kernel's own tables, before the pool is used ---- */

phys_addr_t memblock_alloc(u64 size, u64 align)
{
	phys_addr_t pa = ALIGN_DOWN(env.memblock_next - size, align);

	if (pa < ENV_POOL_BASE + ENV_POOL_SIZE)
		panic("mm_rules_env: memblock ran into the pool");
	env.memblock_next = pa;
	tlb_model_phys_fill(pa, size, 0xa5);	/* memblock memory is not zeroed */
	return pa;
}

/* ---- the fixmap is never needed: the linear map covers every table ---- */

pteval_t *fixmap_map_table(int level, phys_addr_t pa)
{
	panic("mm_rules_env: fixmap_map_table(%d, 0x%llx): a table outside the linear map", level,
	      (unsigned long long)pa);
}

u64 fixmap_remap_count(void)
{
	return 0;
}

/* ---- one CPU, one process ---- */

static struct proc the_proc;
static struct cpu the_cpu = { .proc = &the_proc };

struct cpu *this_cpu(void)
{
	return &the_cpu;
}

struct proc *env_proc(void)
{
	return &the_proc;
}

/*
 * The object behind shared anonymous memory (mm_shmem_create(), which
 * kernel/memfd.c provides in the kernel): the same contract and the same
 * index, the kernel's sparse page tree (mm/page_tree.c), so an object of
 * any size costs only the pages touched and the nodes above them, all from
 * the pool; a page is allocated at the first touch below size.
 */
struct env_object {
	struct vma_file vf;	/* first: container of the vma_file */
	u64 size;
	struct page_tree pages;	/* page index -> page, NULL for a hole */
	struct env_object *prev, *next;	/* every live object */
};

static struct env_object *env_objects;

static struct env_object *env_object(struct vma_file *f)
{
	return (struct env_object *)f;
}

static bool env_object_inside(const struct env_object *o, u64 pgoff)
{
	return pgoff < (o->size + PAGE_SIZE - 1) / PAGE_SIZE;
}

/* The page at pgoff, allocated (zeroed) at the first touch; NULL past the
 * end or when out of memory (a page or a tree node). */
static struct page *env_object_page(struct vma_file *f, u64 pgoff)
{
	struct env_object *o = env_object(f);
	struct page *pg;

	if (!env_object_inside(o, pgoff))
		return NULL;
	pg = page_tree_get(&o->pages, pgoff);
	if (pg || !(pg = alloc_pages(GFP_ZERO, 0)))
		return pg;
	if (!page_tree_insert(&o->pages, pgoff, pg)) {
		page_put(pg);
		return NULL;
	}
	return pg;
}

static bool env_object_cached(struct vma_file *f, u64 pgoff)
{
	struct env_object *o = env_object(f);

	return env_object_inside(o, pgoff) && page_tree_get(&o->pages, pgoff);
}

static u64 env_object_size(struct vma_file *f)
{
	return env_object(f)->size;
}

/* page_tree_take()'s hand-over of a page the object lets go of. */
static void env_object_drop(u64 idx, struct page *pg, void *arg)
{
	(void)idx;
	(void)arg;
	page_put(pg);
}

/* The same for a hole punch: the page leaves every mapping first. */
static void env_object_drop_unmapped(u64 idx, struct page *pg, void *arg)
{
	mm_unmap_file_page(arg, idx, pg);
	page_put(pg);
}

static void env_object_release(struct vma_file *f)
{
	struct env_object *o = env_object(f);

	page_tree_take(&o->pages, 0, ~0ull, env_object_drop, NULL);	/* frees the nodes too */
	if (o->prev)
		o->prev->next = o->next;
	else
		env_objects = o->next;
	if (o->next)
		o->next->prev = o->prev;
	free(o);
}

/* Each page an object holds: the kernel's memfd_for_each_page(), whose
 * memfds are this machine's objects (the invariant checker's holders),
 * with the same check of each index. */
void memfd_for_each_page(void (*fn)(struct page *pg, void *arg), void *arg)
{
	for (struct env_object *o = env_objects; o; o = o->next)
		if (!page_tree_for_each_page(&o->pages, fn, arg))
			panic("mm_rules_env: object %p: its page index is inconsistent (%llu pages counted)",
			      (void *)o, (unsigned long long)o->pages.nr);
}

/* A hole punch (MADV_REMOVE): whole pages leave the object and every
 * mapping, the parts of pages at the ends are zeroed, as memfd_punch(). */
static void env_object_punch(struct vma_file *f, u64 off, u64 end)
{
	struct env_object *o = env_object(f);

	page_tree_punch(&o->pages, off, MIN(end, o->size), env_object_drop_unmapped, f);
}

static const struct vma_file_ops env_object_ops = {
	.page = env_object_page,
	.cached = env_object_cached,
	.size = env_object_size,
	.release = env_object_release,
	.punch = env_object_punch,
};

struct vma_file *mm_shmem_create(u64 size)
{
	struct env_object *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->vf.refs = 1;
	o->vf.ops = &env_object_ops;
	o->size = size;
	o->next = env_objects;
	if (env_objects)
		env_objects->prev = o;
	env_objects = o;
	return &o->vf;
}

/* No file descriptor is ever a memfd here. */
struct vma_file *memfd_vma_file(struct file *f, const char **name)
{
	(void)f;
	*name = NULL;
	return NULL;
}

/* No file of fs/ is ever mapped here either. */
long fs_mmap_file(struct file *f, unsigned long prot, bool shared, struct vma_file **vf, const char **name)
{
	(void)f; (void)prot; (void)shared;
	*vf = NULL;
	*name = NULL;
	return -19;	/* ENODEV */
}

/* mincore's vector: user addresses are host addresses here. */
long copy_to_user(void *udst, const void *src, size_t n)
{
	memcpy(udst, src, n);
	return 0;
}

/* ---- boot ---- */

static struct pt_space kspace;

void env_boot(void)
{
	phys_addr_t root;

	tlb_model_reset();
	tlb_model_set_quiet(false);
	if (!env.buf) {
		env.buf = aligned_alloc(2UL << 20, ENV_POOL_SIZE);
		if (!env.buf)
			abort();
	}
	memset(env.pages, 0, sizeof(env.pages));
	memset(env.used, 0, sizeof(env.used));
	env.in_use = 0;
	env.pt_pages[0] = env.pt_pages[1] = 0;
	env.fail_after = -1;
	env.memblock_next = ENV_RAM_BASE + ENV_RAM_SIZE;

	/* MMU off: build the linear map of all RAM (2 MiB blocks) from memblock pages. */
	pt_init(0, KIMAGE_VADDR, 0);
	root = memblock_alloc(PAGE_SIZE, PAGE_SIZE);
	tlb_model_phys_fill(root, PAGE_SIZE, 0);
	pt_space_init(&kspace, root, 0, PT_ASID_KERNEL);
	if (!pt_map_range(&kspace, PAGE_OFFSET, ENV_RAM_BASE, ENV_RAM_SIZE, PT_KERNEL_RW, PT_LEAF_ANY))
		panic("mm_rules_env: cannot build the linear map");
	tlb_model_mmu_on(root);
	pt_mmu_enabled();
	pt_linear_map_live(ENV_RAM_BASE);
	pt_use_page_allocator();
	tlb_model_check_idle();

	memset(&the_proc, 0, sizeof(the_proc));
	the_proc.pid = 1;
	for (int i = 0; i < RLIM_NLIMITS; i++)
		the_proc.rlim[i].cur = the_proc.rlim[i].max = ~0ull;
}
