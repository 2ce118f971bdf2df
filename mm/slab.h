/*
 * slab.h - caches of small fixed-size objects carved out of whole pages.
 * A page goes back to the page allocator as soon as its last object is
 * freed, so a process that exits leaves every page as it found it.
 */
#ifndef MM_SLAB_H
#define MM_SLAB_H

#include "types.h"

struct slab_page;

struct slab_cache {
	const char *name;
	size_t size;			/* object size, rounded up to 8 bytes */
	unsigned per_page;		/* objects in one page after the header */
	struct slab_page *partial;	/* pages with at least one free object */
	u64 pages, objects;		/* in use, for statistics and tests */
};

#define SLAB_CACHE(n, type) { .name = (n), .size = sizeof(type) }

/* A zeroed object, or NULL when no page can be had. */
void *slab_alloc(struct slab_cache *c);

/* Free an object of cache c. */
void slab_free(struct slab_cache *c, void *obj);

#endif
