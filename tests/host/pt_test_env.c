/*
 * pt_test_env.c - fake memblock and buddy allocator for the page-table
 * tests (see pt_test_env.h).
 */
#include "pt_test_env.h"
#include "printk.h"
#include "memblock.h"
#include "page_alloc.h"
#include "tlb_model.h"

#define ENV_MAX_BANKS 4
#define ENV_MAX_PAGES 8192

static struct {
	struct env_bank banks[ENV_MAX_BANKS];
	int nbanks;
	phys_addr_t memblock_next;   /* allocations go below this */
	phys_addr_t buddy_next;
	phys_addr_t forced;
	bool fail;
	struct page pages[ENV_MAX_PAGES];
	phys_addr_t pa[ENV_MAX_PAGES];
	int npages;
	long in_use;
	long pt[2];
} env;

void env_reset(const struct env_bank *banks, int n, phys_addr_t buddy_base)
{
	__builtin_memset(&env, 0, sizeof(env));
	for (int i = 0; i < n && i < ENV_MAX_BANKS; i++)
		env.banks[env.nbanks++] = banks[i];
	env.memblock_next = banks[n - 1].base + banks[n - 1].size;
	env.buddy_next = buddy_base;
}

void env_force_next_alloc(phys_addr_t pa)
{
	env.forced = pa;
}

void env_alloc_fail(bool fail)
{
	env.fail = fail;
}

long env_pages_in_use(void)
{
	return env.in_use;
}

long env_pt_count(bool user)
{
	return env.pt[user ? 1 : 0];
}

/* ---- memblock ---- */

phys_addr_t memblock_alloc(u64 size, u64 align)
{
	phys_addr_t pa = ALIGN_DOWN(env.memblock_next - size, align);

	env.memblock_next = pa;
	tlb_model_phys_fill(pa, size, 0xa5);   /* memblock memory is not zeroed */
	return pa;
}

int memblock_ram_count(void)
{
	return env.nbanks;
}

void memblock_ram_range(int i, phys_addr_t *base, u64 *size)
{
	*base = env.banks[i].base;
	*size = env.banks[i].size;
}

/* ---- buddy allocator ---- */

struct page *alloc_pages(unsigned gfp, unsigned order)
{
	struct page *pg;
	phys_addr_t pa;

	if (env.fail)
		return NULL;
	if (env.npages == ENV_MAX_PAGES)
		panic("pt_test_env: out of fake struct pages");
	if (env.forced) {
		pa = env.forced;
		env.forced = 0;
	} else {
		pa = ALIGN_UP(env.buddy_next, (u64)PAGE_SIZE << order);
		env.buddy_next = pa + ((u64)PAGE_SIZE << order);
	}
	tlb_model_phys_fill(pa, (u64)PAGE_SIZE << order, (gfp & GFP_ZERO) ? 0 : 0x5a);
	pg = &env.pages[env.npages];
	env.pa[env.npages++] = pa;
	pg->flags = PG_HEAD;
	pg->order = (u8)order;
	pg->refcount = 1;
	env.in_use += 1L << order;
	return pg;
}

void free_pages(struct page *pg, unsigned order)
{
	if (!(pg->flags & PG_HEAD) || pg->order != order)
		panic("pt_test_env: bad free of page 0x%llx order %u",
		      (unsigned long long)page_to_phys(pg), order);
	pg->flags = 0;
	env.in_use -= 1L << order;
	tlb_model_phys_fill(page_to_phys(pg), (u64)PAGE_SIZE << order, 0x6b);   /* poison */
}

phys_addr_t page_to_phys(const struct page *pg)
{
	return env.pa[pg - env.pages];
}

struct page *phys_to_page(phys_addr_t pa)
{
	for (int i = env.npages - 1; i >= 0; i--)
		if (env.pa[i] == pa && env.pages[i].flags)
			return &env.pages[i];
	return NULL;
}

void page_alloc_count_pt(bool user, int delta)
{
	env.pt[user ? 1 : 0] += delta;
}
