/*
 * slab.c - fixed-size object caches (see slab.h).
 *
 * Each page starts with a header: the cache it belongs to, how many of its
 * objects are in use, its free list, and links in the cache's list of
 * pages that still have room. Objects follow the header.
 */
#include "slab.h"
#include "page_alloc.h"
#include "fail_alloc.h"
#include "printk.h"

struct slab_page {
	struct slab_cache *cache;
	unsigned inuse;
	void *free;				/* singly linked through the objects */
	struct slab_page *prev, *next;		/* in cache->partial */
};

#define HEADER_SIZE ALIGN_UP(sizeof(struct slab_page), 16)

static void partial_add(struct slab_cache *c, struct slab_page *p)
{
	p->prev = NULL;
	p->next = c->partial;
	if (c->partial)
		c->partial->prev = p;
	c->partial = p;
}

static void partial_del(struct slab_cache *c, struct slab_page *p)
{
	if (p->prev)
		p->prev->next = p->next;
	else
		c->partial = p->next;
	if (p->next)
		p->next->prev = p->prev;
	p->prev = p->next = NULL;
}

/* A fresh page for c with every object on its free list, or NULL. */
static struct slab_page *grow(struct slab_cache *c)
{
	struct slab_page *p = alloc_page_va(0);

	if (!p)
		return NULL;
	if (!c->per_page) {
		c->size = ALIGN_UP(c->size, 8);
		c->per_page = (unsigned)((PAGE_SIZE - HEADER_SIZE) / c->size);
		BUG_ON(c->per_page == 0);
	}
	p->cache = c;
	p->inuse = 0;
	p->free = NULL;
	for (unsigned i = c->per_page; i-- > 0;) {
		void **obj = (void **)((u8 *)p + HEADER_SIZE + i * c->size);

		*obj = p->free;
		p->free = obj;
	}
	partial_add(c, p);
	c->pages++;
	return p;
}

void *slab_alloc(struct slab_cache *c)
{
	struct slab_page *p;
	void **obj;

	if (fail_alloc_now())
		return NULL;	/* injected for a test (fail_alloc.h) */
	p = c->partial ? c->partial : grow(c);
	if (!p)
		return NULL;
	obj = p->free;
	p->free = *obj;
	if (++p->inuse == c->per_page)
		partial_del(c, p);
	c->objects++;
	__builtin_memset(obj, 0, c->size);
	return obj;
}

void slab_free(struct slab_cache *c, void *obj)
{
	struct slab_page *p = (struct slab_page *)ALIGN_DOWN((uintptr_t)obj, PAGE_SIZE);

	if (p->cache != c || p->inuse == 0)
		panic("slab_free(%s, %p): object of cache %s, %u in use", c->name, obj,
		      p->cache ? p->cache->name : "?", p->inuse);
	if (p->inuse-- == c->per_page)
		partial_add(c, p);
	*(void **)obj = p->free;
	p->free = obj;
	c->objects--;
	if (p->inuse == 0) {
		partial_del(c, p);
		c->pages--;
		free_page_va(p);
	}
}
