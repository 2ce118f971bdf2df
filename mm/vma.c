/*
 * vma.c - the set of VMAs of an address space (see vma.h).
 *
 * Why an AVL tree. Both AVL and red-black trees give O(log n) for every
 * operation. AVL keeps the heights of every node's two subtrees within one
 * of each other, so the tree is at most ~1.44 log2(n) deep (red-black:
 * 2 log2(n)), which makes the most frequent operation - vma_find() on every
 * page fault - a little cheaper. Red-black trees do fewer rotations on
 * update, but that advantage mostly disappears here: the gap augmentation
 * has to be recomputed along the whole path to the root anyway. And the AVL
 * invariant is one number per node that a student (and vma_check()) can
 * verify directly.
 *
 * The augmentation. gap_before(v) is the free space just below v:
 * [prev->end, vma_start_gap(v)), or [0, vma_start_gap(v)) for the lowest VMA, where
 * vma_start_gap(v) is v->start less the stack guard gap below a VM_GROWSDOWN VMA
 * (MM-15: no search places a mapping there, as on Linux). Every node
 * stores max_gap, the largest gap_before() in its subtree. A gap search
 * skips every subtree whose max_gap is too small, and only the (at most two)
 * gaps cut by the search bounds can make a subtree look promising while
 * holding no fit, so the search visits O(log n) nodes.
 *
 * Keeping it right. A node's height and max_gap depend on its children and,
 * through gap_before(), on its list predecessor. Every update therefore ends
 * with rebalance_up() from the lowest node whose data changed, naming the
 * highest one (its "top"): it walks up recomputing each node, rotating
 * where the AVL invariant broke, and past the top it does only what is
 * still needed: once a height stays, only max_gap goes on, and once that
 * stays too the walk ends. Each update comments why every node whose
 * gap_before() changed is on that walk, at or below its top. The walk
 * often does reach the root: mmap puts a new VMA at the edge of the
 * largest gap, which every ancestor's max_gap holds.
 *
 * Fewer walks. The gap searches report the VMA above the gap they found,
 * so vma_insert_before() can insert there without searching again, and
 * mm->vma_last gives the gap above the highest VMA without a walk.
 *
 * VMA structures come from a slab cache (mm/slab.c), whose pages go back to
 * the page allocator when their last VMA is freed.
 */
#include "vma.h"
#include "slab.h"
#include "page_alloc.h"
#include "printk.h"

#define NO_LIMIT (~0UL)		/* "up to the top of the address space" */
#define VMA_MAX_HEIGHT 96	/* more than any AVL tree that fits in memory */

/* Check an invariant; on failure panic with file, line and the values given. */
#define VMA_ASSERT(cond, fmt, ...)                                             \
	do {                                                                   \
		if (!(cond))                                                   \
			panic("%s:%d: %s: " fmt, __FILE__, __LINE__, #cond,    \
			      ##__VA_ARGS__);                                  \
	} while (0)

/* ---- the slab ---- */

static struct slab_cache vma_cache = SLAB_CACHE("vma", struct vma);

/* A zeroed VMA structure, or NULL when out of memory. */
static struct vma *vma_alloc(void)
{
	return slab_alloc(&vma_cache);
}

static void vma_free(struct vma *v)
{
	__builtin_memset(v, 0, sizeof(*v));	/* stale pointers fail loudly */
	slab_free(&vma_cache, v);
}

/* ---- node data: height, gaps ---- */

static int height(const struct vma *n)
{
	return n ? n->height : 0;
}

static int balance(const struct vma *n)
{
	return height(n->left) - height(n->right);
}

static unsigned long prev_end(const struct vma *v)
{
	return v->prev ? v->prev->end : 0;
}

static unsigned long gap_before(const struct vma *v)
{
	unsigned long top = vma_start_gap(v), pe = prev_end(v);

	return top > pe ? top - pe : 0;
}

static unsigned long subtree_gap(const struct vma *n)
{
	return n ? n->max_gap : 0;
}

/* Recompute n's height and max_gap from its children and its own gap. */
static void node_update(struct vma *n)
{
	n->height = 1 + MAX(height(n->left), height(n->right));
	n->max_gap = MAX(gap_before(n), MAX(subtree_gap(n->left), subtree_gap(n->right)));
}

/* ---- tree surgery ---- */

/* Make 'new' (may be NULL) take old's place under parent (NULL: the root). */
static void replace_child(struct mm *mm, struct vma *parent, struct vma *old, struct vma *new)
{
	if (!parent)
		mm->vma_root = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
	if (new)
		new->parent = parent;
}

/* x's right child y takes x's place and x becomes y's left child. Returns y. */
static struct vma *rotate_left(struct mm *mm, struct vma *x)
{
	struct vma *y = x->right;

	replace_child(mm, x->parent, x, y);
	x->right = y->left;
	if (x->right)
		x->right->parent = x;
	y->left = x;
	x->parent = y;
	node_update(x);
	node_update(y);
	return y;
}

/* Mirror image of rotate_left(). Returns the new subtree root. */
static struct vma *rotate_right(struct mm *mm, struct vma *x)
{
	struct vma *y = x->left;

	replace_child(mm, x->parent, x, y);
	x->left = y->right;
	if (x->left)
		x->left->parent = x;
	y->right = x;
	x->parent = y;
	node_update(x);
	node_update(y);
	return y;
}

/*
 * Recompute n, whose children are valid AVL trees with heights differing by
 * at most 2, and restore the AVL invariant with one single or double
 * rotation (the rotations recompute the nodes they move). Returns the node
 * now at n's place. The children's heights are read once: this runs at
 * every level of every update.
 */
static struct vma *rebalance_node(struct mm *mm, struct vma *n)
{
	int hl = height(n->left), hr = height(n->right);

	if (hl > hr + 1) {
		if (balance(n->left) < 0)
			rotate_left(mm, n->left);
		return rotate_right(mm, n);
	}
	if (hr > hl + 1) {
		if (balance(n->right) > 0)
			rotate_right(mm, n->right);
		return rotate_left(mm, n);
	}
	n->height = 1 + MAX(hl, hr);
	n->max_gap = MAX(gap_before(n), MAX(subtree_gap(n->left), subtree_gap(n->right)));
	return n;
}

/*
 * One child of n saw its max_gap change from was to now (now != was), and
 * nothing else below n or about n changed: carry that up towards the root.
 * A larger value only has to be compared in. A smaller one matters only to
 * a node whose max_gap was that child's, and that node is recomputed. Stops
 * at the first node whose max_gap stays: nothing above depends on anything
 * that changed.
 */
static void gaps_up(struct vma *n, unsigned long was, unsigned long now)
{
	for (; n; n = n->parent) {
		unsigned long old = n->max_gap;

		if (now > was) {
			if (old >= now)
				return;
			n->max_gap = now;
		} else {
			if (old > was)
				return;	/* its largest gap lies elsewhere */
			n->max_gap = MAX(gap_before(n), MAX(subtree_gap(n->left), subtree_gap(n->right)));
			if (n->max_gap == old)
				return;
		}
		was = old;
		now = n->max_gap;
	}
}

/*
 * Restore heights, balance and max_gap from n up to the root after an
 * update. top is the highest node the update changed directly (new, given
 * new children, or a new gap_before()); it is n or an ancestor of n, or
 * NULL when n is the only such node. Every node up to top is rebalanced and
 * recomputed. Above it, once a node's height comes out as it was without a
 * rotation, no node further up can change height or need a rotation, so
 * only max_gap goes on up (gaps_up()), and it stops when it settles.
 * "As it was" compares with the node's stored height and max_gap, which
 * are what its parent was computed from: tree_unlink() makes that true for
 * the node it moves. O(log n).
 */
static void rebalance_up(struct mm *mm, struct vma *n, const struct vma *top)
{
	bool passed_top = top == NULL;

	while (n) {
		int old_height = n->height;
		unsigned long old_gap = n->max_gap;
		struct vma *m = rebalance_node(mm, n);

		if (n == top)
			passed_top = true;
		if (passed_top && m == n && n->height == old_height) {
			if (n->max_gap != old_gap)
				gaps_up(n->parent, old_gap, n->max_gap);
			return;
		}
		n = m->parent;
	}
}

/*
 * Put v (start and end set) into the list right after prev (NULL: first)
 * and into the tree as a leaf at the matching in-order position, then
 * rebalance. The caller guarantees the order.
 *
 * Gaps: only v's and v->next's gap_before() change. v is the start of the
 * rebalance walk, and v->next is v's parent or the ancestor whose left
 * subtree holds v, so the walk passes it: it is the walk's top (or v's
 * parent, the one node given a new child, when v is the highest).
 */
static void link_after(struct mm *mm, struct vma *prev, struct vma *v)
{
	struct vma *next = prev ? prev->next : mm->vmas;

	v->left = v->right = NULL;
	v->height = 1;
	if (!mm->vma_root) {
		mm->vma_root = v;
		v->parent = NULL;
	} else if (prev && !prev->right) {
		prev->right = v;
		v->parent = prev;
	} else {
		/* next is the leftmost node of prev's right subtree (or of the tree) */
		VMA_ASSERT(next && !next->left, "next %p", (void *)next);
		next->left = v;
		v->parent = next;
	}
	v->prev = prev;
	v->next = next;
	if (prev)
		prev->next = v;
	else
		mm->vmas = v;
	if (next)
		next->prev = v;
	else
		mm->vma_last = v;
	mm->nvmas++;
	rebalance_up(mm, v, next ? next : v->parent);
}

/*
 * Take v out of the tree (not the list; the caller unlinked it already, so
 * gap_before() of v's old successor is its new value).
 *
 * With two children, v's successor s (leftmost of v's right subtree) takes
 * v's place, height and max_gap (so rebalance_up() compares with what v's
 * parent was computed from), and the walk starts where s was, with s as its
 * top. With at most one child, that child replaces v and the walk starts
 * there; its top is v's old parent (given a new child) or, when higher,
 * the successor: if the child is the right one it is a leaf (AVL) and so is
 * the successor; otherwise the successor is an ancestor of v. Either way
 * the walk passes the one node whose gap changed.
 */
static void tree_unlink(struct mm *mm, struct vma *v, struct vma *succ)
{
	struct vma *fix, *top;

	if (v->left && v->right) {
		struct vma *s = succ;

		if (s->parent == v) {
			fix = s;
		} else {
			fix = s->parent;
			replace_child(mm, s->parent, s, s->right);
			s->right = v->right;
			s->right->parent = s;
		}
		replace_child(mm, v->parent, v, s);
		s->left = v->left;
		s->left->parent = s;
		s->height = v->height;
		s->max_gap = v->max_gap;
		top = s;
	} else {
		struct vma *child = v->left ? v->left : v->right;

		fix = child ? child : v->parent;
		top = succ && succ != child ? succ : v->parent;
		replace_child(mm, v->parent, v, child);
	}
	rebalance_up(mm, fix, top);
}

/* ---- lookups ---- */

struct vma *vma_find_from(const struct mm *mm, unsigned long addr)
{
	struct vma *n = mm->vma_root, *best = NULL;

	while (n) {
		if (n->end > addr) {
			best = n;	/* a candidate; a lower one may exist on the left */
			n = n->left;
		} else {
			n = n->right;
		}
	}
	return best;
}

struct vma *vma_find(const struct mm *mm, unsigned long addr)
{
	struct vma *n = mm->vma_root;

	while (n) {
		if (addr < n->start)
			n = n->left;
		else if (addr >= n->end)
			n = n->right;
		else
			return n;
	}
	return NULL;
}

int vma_count(const struct mm *mm)
{
	return mm->nvmas;
}

/* ---- updates ---- */

unsigned long vm_committed_pages;

/*
 * A VMA with flags gained pages (or lost them, pages < 0): update mm's
 * counts and the system's commit count.
 */
static void vm_stat(struct mm *mm, unsigned flags, long pages)
{
	mm->total_vm += pages;
	if (vm_is_data(flags))
		mm->data_vm += pages;
	if (flags & VM_LOCKED)
		mm->locked_vm += pages;
	if (flags & VM_ACCOUNT) {
		mm->commit_vm += pages;
		vm_committed_pages += pages;
	}
}

static long vma_pages(const struct vma *v)
{
	return (long)((v->end - v->start) >> PAGE_SHIFT);
}

void vma_set_flags(struct mm *mm, struct vma *v, unsigned flags)
{
	vm_stat(mm, v->flags, -vma_pages(v));
	v->flags = flags;
	vm_stat(mm, flags, vma_pages(v));
}

struct vma *vma_insert(struct mm *mm, unsigned long start, unsigned long end, unsigned flags,
		       const char *name, u64 offset)
{
	struct vma *v = vma_alloc();

	return v ? vma_insert_prepared(mm, v, start, end, flags, name, offset) : NULL;
}

struct vma *vma_prepare(void)
{
	return vma_alloc();
}

void vma_unprepare(struct vma *v)
{
	if (v)
		vma_free(v);
}

struct vma *vma_insert_prepared(struct mm *mm, struct vma *v, unsigned long start, unsigned long end,
				unsigned flags, const char *name, u64 offset)
{
	return vma_insert_before(mm, v, vma_find_from(mm, start), start, end, flags, name, offset);
}

/*
 * next is trusted only as far as O(1) checks go: the range must lie between
 * next's predecessor (mm->vma_last when next is NULL) and next, which is
 * exactly what makes next the first VMA ending above start.
 */
struct vma *vma_insert_before(struct mm *mm, struct vma *v, struct vma *next, unsigned long start,
			      unsigned long end, unsigned flags, const char *name, u64 offset)
{
	struct vma *prev = next ? next->prev : mm->vma_last;

	VMA_ASSERT(start < end, "[%lx, %lx)", start, end);
	VMA_ASSERT(!next || next->start >= end, "[%lx, %lx) overlaps [%lx, %lx)", start, end,
		   next->start, next->end);
	VMA_ASSERT(!prev || prev->end <= start, "[%lx, %lx) overlaps [%lx, %lx)", start, end,
		   prev->start, prev->end);
	v->start = start;
	v->end = end;
	v->flags = flags;
	v->name = name;
	v->offset = offset;
	link_after(mm, prev, v);
	vm_stat(mm, flags, vma_pages(v));
	return v;
}

void vma_remove(struct mm *mm, struct vma *v)
{
	struct vma *succ = v->next;

	VMA_ASSERT(mm->nvmas > 0, "nvmas %d", mm->nvmas);
	vm_stat(mm, v->flags, -vma_pages(v));
	if (v->prev)
		v->prev->next = v->next;
	else
		mm->vmas = v->next;
	if (v->next)
		v->next->prev = v->prev;
	else
		mm->vma_last = v->prev;
	tree_unlink(mm, v, succ);
	mm->nvmas--;
	vma_file_put(v->file);
	vma_free(v);
}

void vma_file_put(struct vma_file *f)
{
	if (f && --f->refs == 0)
		f->ops->release(f);
}

/*
 * Gaps: v's gap is unchanged, hi's is 0 and v's old successor keeps its gap
 * (its predecessor's end is still the old v->end); link_after() handles
 * the structural update.
 */
struct vma *vma_split(struct mm *mm, struct vma *v, unsigned long addr)
{
	struct vma *hi;

	VMA_ASSERT(addr > v->start && addr < v->end, "split [%lx, %lx) at %lx", v->start, v->end,
		   addr);
	hi = vma_alloc();
	if (!hi)
		return NULL;
	hi->start = addr;
	hi->end = v->end;
	hi->flags = v->flags;
	hi->name = v->name;
	hi->file = vma_file_get(v->file);
	hi->offset = vma_offset_at(v, addr);
	vma_anon_copy(hi, v);	/* the pieces share the anon_vma */
	v->end = addr;
	link_after(mm, v, hi);
	return hi;
}

/*
 * Moving v's bounds between its neighbours keeps the BST order; it changes
 * gap_before() of v and of v->next, so recompute the paths from both.
 */
void vma_adjust(struct mm *mm, struct vma *v, unsigned long start, unsigned long end)
{
	VMA_ASSERT(start < end, "[%lx, %lx)", start, end);
	VMA_ASSERT(prev_end(v) <= start, "[%lx, %lx) overlaps the VMA ending at %lx", start, end,
		   prev_end(v));
	VMA_ASSERT(!v->next || end <= v->next->start, "[%lx, %lx) overlaps the VMA at %lx", start,
		   end, v->next->start);
	if (v->name || v->file)
		v->offset += (u64)start - (u64)v->start;	/* wraps correctly when start moves down */
	vm_stat(mm, v->flags, -vma_pages(v));
	v->start = start;
	v->end = end;
	vm_stat(mm, v->flags, vma_pages(v));
	rebalance_up(mm, v, v);
	if (v->next)
		rebalance_up(mm, v->next, v->next);
}

bool vma_mergeable(const struct vma *a, const struct vma *b)
{
	if (a->end != b->start || a->flags != b->flags || a->name != b->name || a->file != b->file)
		return false;
	if (a->flags & VM_HUGETLB)
		return false;	/* hugetlb mappings stay as they were made, as on Linux */
	return vma_offset_at(a, a->end) == b->offset;
}

u64 vma_offset_at(const struct vma *v, unsigned long addr)
{
	if (v->name || v->file)
		return v->offset + (addr - v->start);
	return v->offset;
}

/* Extend lo over hi (lo directly below, mergeable) and free hi. */
static void absorb_next(struct mm *mm, struct vma *lo, struct vma *hi)
{
	unsigned long end = hi->end;

	if (!lo->anon)
		vma_anon_copy(lo, hi);	/* Linux's dup_anon_vma(): the survivor takes hi's */
	vma_remove(mm, hi);	/* first, so lo never overlaps hi */
	vma_adjust(mm, lo, lo->start, end);
}

void vma_unsplit(struct mm *mm, struct vma *lo)
{
	struct vma *hi = lo->next;

	VMA_ASSERT(hi && hi->start == lo->end && hi->flags == lo->flags && hi->file == lo->file,
		   "unsplit [%lx, %lx) from its successor", lo->start, lo->end);
	absorb_next(mm, lo, hi);
}

/* Has v an anon identity of its own, not fork's (Linux: a one-entry anon_vma chain)? */
static bool anon_own(const struct vma *v)
{
	return v->anon && !v->anon_inherited;
}

/*
 * Linux's is_mergeable_anon_vma(v's, target's, target): may v merge into
 * its neighbour target as far as their anon identities go?
 */
static bool anon_allows(const struct vma *target, const struct vma *v)
{
	return ((!v->anon || !target->anon) && anon_own(target)) || v->anon == target->anon;
}

struct vma *vma_merge_neighbours(struct mm *mm, struct vma *v)
{
	return vma_merge_neighbours_except(mm, v, NULL);
}

struct vma *vma_merge_neighbours_except(struct mm *mm, struct vma *v, const struct vma *avoid)
{
	struct vma *lo = v->prev, *hi = v->next;
	bool with_lo = lo && lo != avoid && vma_mergeable(lo, v) && anon_allows(lo, v);
	bool with_hi = hi && hi != avoid && vma_mergeable(v, hi) && anon_allows(hi, v);

	v->kept_cut = false;	/* v changed: both its ends are tried again */
	if (hi)
		hi->kept_cut = false;
	if (with_lo && with_hi && lo->anon && hi->anon && lo->anon != hi->anon)
		with_hi = false;	/* both fit v, not each other: the lower merge only */
	if (with_lo) {
		absorb_next(mm, lo, v);
		v = lo;
	}
	if (with_hi)
		absorb_next(mm, v, hi);
	return v;
}

/* Linux's anon_vma_compatible(a, b): may b share a's anon_vma (or a b's)? */
static bool anon_compatible(const struct vma *a, const struct vma *b)
{
	return a->end == b->start && a->file == b->file && a->name == b->name &&
	       !((a->flags ^ b->flags) & ~VM_ACCESS) && vma_offset_at(a, a->end) == b->offset;
}

static u64 last_anon;	/* the last anon identity given: they are never reused */

void vma_anon_prepare(struct vma *v)
{
	const struct vma *n = v->next, *p = v->prev;

	if (v->anon || (v->flags & (VM_SHARED | VM_HUGETLB)))
		return;
	if (n && anon_compatible(v, n) && anon_own(n))
		v->anon = n->anon;
	else if (p && anon_compatible(p, v) && anon_own(p))
		v->anon = p->anon;
	else
		v->anon = ++last_anon;
	v->anon_inherited = false;
}

void vma_anon_fork(struct vma *child, const struct vma *parent)
{
	if (!parent->anon)
		return;
	child->anon = ++last_anon;
	child->anon_inherited = true;
}

/* ---- gap search ---- */

/*
 * Does [glo, ghi) cut to [lo, hi) still hold len bytes? If so, store the
 * cut range in *out.
 */
static bool gap_fits(unsigned long glo, unsigned long ghi, unsigned long lo, unsigned long hi,
		     unsigned long len, unsigned long out[2])
{
	glo = MAX(glo, lo);
	ghi = MIN(ghi, hi);
	if (ghi <= glo || ghi - glo < len)
		return false;
	out[0] = glo;
	out[1] = ghi;
	return true;
}

/* Can n's subtree (n may be NULL) hold a gap of len bytes at all? */
static bool may_fit(const struct vma *n, unsigned long len)
{
	return n && n->max_gap >= len;
}

/*
 * The highest VMA in n's subtree whose gap_before(), cut to [lo, hi), holds
 * len bytes (n's subtree may_fit()). Tries the right subtree first, then
 * n's own gap, then goes on down the left subtree. Skips a subtree when its
 * max_gap is too small, or when its gaps lie wholly on the wrong side of
 * the bounds (gaps of the right subtree start at or above n->end, gaps of
 * the left subtree end at or below prev_end(n)). Checking a child before
 * visiting it, and looping instead of recursing to the left, keeps the cost
 * of each level of the descent to a few loads.
 */
static const struct vma *gap_down(const struct vma *n, unsigned long len, unsigned long lo,
				  unsigned long hi)
{
	unsigned long r[2], pe;

	for (;;) {
		if (may_fit(n->right, len) && n->end < hi && hi - n->end >= len) {
			const struct vma *found = gap_down(n->right, len, lo, hi);

			if (found)
				return found;
		}
		pe = prev_end(n);
		if (gap_fits(pe, vma_start_gap(n), lo, hi, len, r))
			return n;
		if (!may_fit(n->left, len) || pe <= lo || pe - lo < len)
			return NULL;
		n = n->left;
	}
}

/* The lowest such VMA: gap_down() with the order of visits reversed. */
static const struct vma *gap_up(const struct vma *n, unsigned long len, unsigned long lo,
				unsigned long hi)
{
	unsigned long r[2], pe;

	for (;;) {
		pe = prev_end(n);
		if (may_fit(n->left, len) && pe > lo && pe - lo >= len) {
			const struct vma *found = gap_up(n->left, len, lo, hi);

			if (found)
				return found;
		}
		if (gap_fits(pe, vma_start_gap(n), lo, hi, len, r))
			return n;
		if (!may_fit(n->right, len) || n->end >= hi || hi - n->end < len)
			return NULL;
		n = n->right;
	}
}

/*
 * The gap above the highest VMA is [last->end, top); the empty set has
 * [0, top). The VMA above a gap is the one the search found (NULL for the
 * top gap).
 */
unsigned long vma_find_gap_down(const struct mm *mm, unsigned long len, unsigned long below,
				unsigned long floor, struct vma **next)
{
	const struct vma *last = mm->vma_last, *n;
	unsigned long r[2];

	if (!len)
		return 0;
	if (gap_fits(last ? last->end : 0, NO_LIMIT, floor, below, len, r)) {
		if (next)
			*next = NULL;
		return r[1] - len;
	}
	n = may_fit(mm->vma_root, len) ? gap_down(mm->vma_root, len, floor, below) : NULL;
	if (n && gap_fits(prev_end(n), vma_start_gap(n), floor, below, len, r)) {
		if (next)
			*next = (struct vma *)n;
		return r[1] - len;
	}
	return 0;
}

unsigned long vma_find_gap_up(const struct mm *mm, unsigned long len, unsigned long from,
			      unsigned long ceiling, struct vma **next)
{
	const struct vma *last = mm->vma_last, *n;
	unsigned long r[2];

	if (!len)
		return 0;
	n = may_fit(mm->vma_root, len) ? gap_up(mm->vma_root, len, from, ceiling) : NULL;
	if (n && gap_fits(prev_end(n), vma_start_gap(n), from, ceiling, len, r)) {
		if (next)
			*next = (struct vma *)n;
		return r[0];
	}
	if (gap_fits(last ? last->end : 0, NO_LIMIT, from, ceiling, len, r)) {
		if (next)
			*next = NULL;
		return r[0];
	}
	return 0;
}

/* ---- consistency check ---- */

struct check_state {
	const struct mm *mm;
	const struct vma *expect;	/* the list's next VMA, which in-order must visit now */
	const struct vma *last;		/* the VMA visited before */
	int count;
	bool ok;
	char *buf;			/* vma_check_report(): the first problem goes here */
	size_t size;
};

/* A problem: printed (vma_check), or the first one kept in st->buf (vma_check_report). */
#define CHECK(st, cond, fmt, ...)                                               \
	do {                                                                    \
		if (!(cond)) {                                                  \
			if (!(st)->buf)                                         \
				printk("vma_check: " fmt "\n", ##__VA_ARGS__);  \
			else if ((st)->ok)                                      \
				snprintk((st)->buf, (st)->size, fmt, ##__VA_ARGS__); \
			(st)->ok = false;                                       \
		}                                                               \
	} while (0)

/* In-order step: n must be the list's next VMA and lie above the last one. */
static void check_visit(struct check_state *st, const struct vma *n)
{
	CHECK(st, n == st->expect, "in-order visits %p [%lx, %lx) where the list has %p",
	      (const void *)n, n->start, n->end, (const void *)st->expect);
	CHECK(st, n->prev == st->last, "%p [%lx, %lx): prev %p, in-order predecessor %p",
	      (const void *)n, n->start, n->end, (const void *)n->prev, (const void *)st->last);
	CHECK(st, n->start < n->end, "%p: empty or inverted range [%lx, %lx)", (const void *)n,
	      n->start, n->end);
	if (st->last)
		CHECK(st, st->last->end <= n->start, "[%lx, %lx) overlaps or precedes [%lx, %lx)",
		      st->last->start, st->last->end, n->start, n->end);
	st->last = n;
	st->expect = n->next;
	st->count++;
}

/*
 * Check n's subtree (n's parent must be 'parent'). Returns its true height,
 * or -1 when the structure is too broken to go on; *gap gets its true
 * largest gap.
 */
static int check_subtree(struct check_state *st, const struct vma *n, const struct vma *parent,
			 int depth, unsigned long *gap)
{
	unsigned long gl = 0, gr = 0, want;
	int hl, hr;

	*gap = 0;
	if (!n)
		return 0;
	if (depth > VMA_MAX_HEIGHT || st->count > st->mm->nvmas) {
		CHECK(st, false, "tree deeper than %d or bigger than nvmas %d: a cycle?",
		      VMA_MAX_HEIGHT, st->mm->nvmas);
		return -1;
	}
	CHECK(st, n->parent == parent, "%p [%lx, %lx): parent %p, expected %p", (const void *)n,
	      n->start, n->end, (const void *)n->parent, (const void *)parent);
	hl = check_subtree(st, n->left, n, depth + 1, &gl);
	if (hl < 0)
		return -1;
	check_visit(st, n);
	hr = check_subtree(st, n->right, n, depth + 1, &gr);
	if (hr < 0)
		return -1;
	CHECK(st, n->height == 1 + MAX(hl, hr), "%p [%lx, %lx): height %d, actual %d",
	      (const void *)n, n->start, n->end, n->height, 1 + MAX(hl, hr));
	CHECK(st, hl - hr <= 1 && hr - hl <= 1, "%p [%lx, %lx): unbalanced, left %d right %d",
	      (const void *)n, n->start, n->end, hl, hr);
	want = MAX(gap_before(n), MAX(gl, gr));
	CHECK(st, n->max_gap == want, "%p [%lx, %lx): max_gap %lx, actual %lx", (const void *)n,
	      n->start, n->end, n->max_gap, want);
	*gap = want;
	return 1 + MAX(hl, hr);
}

/* Both checkers: problems printed (buf NULL) or the first one kept in buf. */
static bool check_all(const struct mm *mm, char *buf, size_t size)
{
	struct check_state st = { .mm = mm, .expect = mm->vmas, .ok = true, .buf = buf, .size = size };
	unsigned long gap;

	CHECK(&st, !mm->vmas || !mm->vmas->prev, "first VMA %p has prev %p", (const void *)mm->vmas,
	      (const void *)mm->vmas->prev);
	if (check_subtree(&st, mm->vma_root, NULL, 0, &gap) < 0)
		return false;
	CHECK(&st, !st.expect, "list continues past the tree's last VMA with %p [%lx, %lx)",
	      (const void *)st.expect, st.expect->start, st.expect->end);
	CHECK(&st, mm->vma_last == st.last, "vma_last %p, the highest VMA is %p",
	      (const void *)mm->vma_last, (const void *)st.last);
	CHECK(&st, st.count == mm->nvmas, "tree holds %d VMAs, nvmas %d", st.count, mm->nvmas);
	return st.ok;
}

bool vma_check(const struct mm *mm)
{
	return check_all(mm, NULL, 0);
}

bool vma_check_report(const struct mm *mm, char *buf, size_t size)
{
	if (size)
		buf[0] = 0;
	return check_all(mm, buf, size);
}
