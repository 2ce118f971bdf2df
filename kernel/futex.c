/*
 * futex.c - futex(2): WAIT, WAKE, REQUEUE, CMP_REQUEUE, WAKE_OP,
 * WAIT_BITSET and WAKE_BITSET (no PI operations: ENOSYS), and the robust
 * list walk at thread exit.
 *
 * A waiter is a struct futex_waiter on the sleeping thread's kernel
 * stack, on one list of every waiter. It is keyed by what the futex word
 * is: a FUTEX_PRIVATE_FLAG operation, or one on memory that is not
 * MAP_SHARED, by (mm, user address, private or not), so only threads of
 * one address space meet, and a private operation never meets a shared
 * one (Linux's keys differ the same way); a shared operation on a MAP_SHARED page (shared anonymous memory,
 * memfd, SysV shm, a shared file mapping) by the physical address of the
 * word, so processes that map the same page meet on it wherever they map
 * it (pages of such mappings stay where they are while mapped: nothing
 * here migrates or swaps them).
 *
 * The kernel runs one thread at a time and is not preempted, so looking at
 * the list and changing it needs no lock. futex_wait queues itself before
 * it reads the futex word, so a waker that changes the word and wakes
 * after that finds it queued, even if reading the word faulted in a page.
 */
#include "futex.h"
#include "syscall.h"
#include "proc.h"
#include "mm.h"
#include "uaccess.h"
#include "errno.h"
#include "ktime.h"
#include "signal.h"

#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_REQUEUE		3
#define FUTEX_CMP_REQUEUE	4
#define FUTEX_WAKE_OP		5
#define FUTEX_WAIT_BITSET	9
#define FUTEX_WAKE_BITSET	10
#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_CLOCK_REALTIME	256
#define FUTEX_CMD_MASK		(~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
#define FUTEX_BITSET_MATCH_ANY	0xffffffffu

/* The robust-futex word (Linux's uapi linux/futex.h). */
#define FUTEX_WAITERS		0x80000000u
#define FUTEX_OWNER_DIED	0x40000000u
#define FUTEX_TID_MASK		0x3fffffffu
#define ROBUST_LIST_LIMIT	2048

/* What identifies a futex: (mm, address) or (NULL, physical address);
 * shared tells a shared operation's (mm, address) key from a private one's:
 * as on Linux, the two never meet (the CLEARTID wake at a thread's exit is
 * a shared one, so pthread_join must wait with a shared operation). */
struct futex_key {
	const struct mm *mm;
	u64 addr;
	bool shared;
};

struct futex_waiter {
	struct futex_key key;
	u32 bitset;
	bool woken;
	struct futex_waiter *prev, *next;
};

static struct futex_waiter *waiters;	/* every waiting thread, oldest first */

static void queue(struct futex_waiter *w)
{
	struct futex_waiter **pp = &waiters, *last = NULL;

	while (*pp) {
		last = *pp;
		pp = &(*pp)->next;
	}
	w->prev = last;
	w->next = NULL;
	*pp = w;
}

static void unqueue(struct futex_waiter *w)
{
	if (w->prev)
		w->prev->next = w->next;
	else
		waiters = w->next;
	if (w->next)
		w->next->prev = w->prev;
	w->prev = w->next = NULL;
}

static bool key_eq(const struct futex_key *a, const struct futex_key *b)
{
	return a->mm == b->mm && a->addr == b->addr && a->shared == b->shared;
}

/*
 * The key of the futex word at uaddr in the current address space (see
 * the top of the file). The word must be 4-byte aligned (EINVAL) and a
 * user address (EFAULT). A private key names no page, so, as on Linux,
 * nothing is read for it here; a shared one must be readable (EFAULT):
 * reading it also faults its page in, so there is a physical page to name.
 */
static long get_key(unsigned long uaddr, bool shared, struct futex_key *key)
{
	struct mm *mm = current_proc()->mm;
	struct vma *v;
	u32 val;

	if (uaddr & 3)
		return -EINVAL;
	if (!user_range_ok(uaddr, sizeof(u32)))
		return -EFAULT;
	key->shared = shared;
	if (!shared) {
		key->mm = mm;
		key->addr = uaddr;
		return 0;
	}
	if (copy_from_user(&val, (const void *)uaddr, sizeof(val)))
		return -EFAULT;
	v = vma_find(mm, uaddr);
	if (v && !vma_file_pages(v) && !(v->flags & (VM_SHARED | VM_WRITE)))
		return -EFAULT;	/* read-only private anonymous memory: a copy-on-write page names no futex (Linux) */
	if (v && (v->flags & VM_SHARED)) {
		phys_addr_t pa = mm_lookup(mm, uaddr & ~(unsigned long)(PAGE_SIZE - 1));

		if (!pa)
			return -EFAULT;
		key->mm = NULL;
		key->addr = (u64)pa + (uaddr & (PAGE_SIZE - 1));
		return 0;
	}
	key->mm = mm;
	key->addr = uaddr;
	return 0;
}

/* Wake up to nr (at least one) waiters on key whose bitset meets bitset. */
static int wake_key(const struct futex_key *key, int nr, u32 bitset)
{
	int n = 0;

	for (struct futex_waiter *w = waiters, *next; w; w = next) {
		next = w->next;
		if (!key_eq(&w->key, key) || !(w->bitset & bitset))
			continue;
		unqueue(w);
		w->woken = true;
		wakeup(w);
		if (++n >= nr)
			break;
	}
	return n;
}

int futex_wake_user(unsigned long uaddr, int nr)
{
	struct futex_key key;

	return get_key(uaddr, true, &key) ? 0 : wake_key(&key, nr, FUTEX_BITSET_MATCH_ANY);
}

/*
 * FUTEX_WAIT(_BITSET): sleep while *uaddr == val until woken by a
 * matching wake, a signal (-ERESTARTSYS without a deadline, so SA_RESTART
 * restarts it; with one -ERESTARTNOHAND: EINTR after a handler), or the
 * ktime deadline (0: none; -ETIMEDOUT). A word that differs is -EAGAIN.
 */
static long futex_wait(unsigned long uaddr, bool shared, u32 val, u64 deadline, u32 bitset)
{
	struct futex_waiter w = { .bitset = bitset };
	long err = get_key(uaddr, shared, &w.key);
	u32 cur;

	if (err)
		return err;
	queue(&w);
	if (copy_from_user(&cur, (const void *)uaddr, sizeof(cur))) {
		unqueue(&w);
		return -EFAULT;
	}
	if (cur != val) {
		unqueue(&w);
		return -EAGAIN;
	}
	for (;;) {
		if (w.woken)
			return 0;
		if (deadline && ktime_ns() >= deadline) {
			unqueue(&w);
			return -ETIMEDOUT;
		}
		if (sleep_on(&w, deadline) == -EINTR && !w.woken) {
			unqueue(&w);
			return deadline ? -ERESTARTNOHAND : -ERESTARTSYS;
		}
	}
}

/*
 * FUTEX_REQUEUE / CMP_REQUEUE: wake nr_wake waiters of uaddr, move up to
 * nr_requeue more to uaddr2; CMP_REQUEUE first checks *uaddr == *cmpval
 * (-EAGAIN). Returns the number woken plus the number moved.
 */
static long futex_requeue(unsigned long uaddr, unsigned long uaddr2, bool shared, int nr_wake,
			  int nr_requeue, const u32 *cmpval)
{
	struct futex_key k1, k2;
	long err;
	int count = 0;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	err = get_key(uaddr, shared, &k1);
	if (!err)
		err = get_key(uaddr2, shared, &k2);
	if (err)
		return err;
	if (cmpval) {
		u32 cur;

		if (copy_from_user(&cur, (const void *)uaddr, sizeof(cur)))
			return -EFAULT;
		if (cur != *cmpval)
			return -EAGAIN;
	}
	for (struct futex_waiter *w = waiters, *next; w; w = next) {
		next = w->next;
		if (count - nr_wake >= nr_requeue)
			break;
		if (!key_eq(&w->key, &k1))
			continue;
		if (++count <= nr_wake) {
			unqueue(w);
			w->woken = true;
			wakeup(w);
		} else {
			w->key = k2;	/* stays in place: still in arrival order */
		}
	}
	return count;
}

/* Sign-extend the low 12 bits. */
static int sext12(u32 v)
{
	return (int)(v << 20) >> 20;
}

/*
 * FUTEX_WAKE_OP: *uaddr2 = oldval OP oparg, then wake nr_wake waiters of
 * uaddr and, if (oldval CMP cmparg), nr_wake2 of uaddr2. The operation is
 * encoded in val3 as Linux's FUTEX_OP(op, oparg, cmp, cmparg). An unknown
 * op is -ENOSYS before the write, an unknown cmp -ENOSYS after it.
 */
static long futex_wake_op(unsigned long uaddr, unsigned long uaddr2, bool shared, int nr_wake,
			  int nr_wake2, u32 encoded)
{
	unsigned op = (encoded >> 28) & 7, cmp = (encoded >> 24) & 15;
	int oparg = sext12(encoded >> 12), cmparg = sext12(encoded);
	struct futex_key k1, k2;
	u32 old, nv;
	long err = get_key(uaddr, shared, &k1);
	bool ok;
	int n;

	if (!err)
		err = get_key(uaddr2, shared, &k2);
	if (err)
		return err;
	if (encoded & 0x80000000u)	/* FUTEX_OP_OPARG_SHIFT: the argument is 1 << oparg */
		oparg = (int)(1u << (oparg & 31));
	if (copy_from_user(&old, (const void *)uaddr2, sizeof(old)))
		return -EFAULT;
	switch (op) {
	case 0: nv = (u32)oparg; break;		/* SET */
	case 1: nv = old + (u32)oparg; break;	/* ADD */
	case 2: nv = old | (u32)oparg; break;	/* OR */
	case 3: nv = old & ~(u32)oparg; break;	/* ANDN */
	case 4: nv = old ^ (u32)oparg; break;	/* XOR */
	default: return -ENOSYS;
	}
	if (copy_to_user((void *)uaddr2, &nv, sizeof(nv)))
		return -EFAULT;
	switch (cmp) {
	case 0: ok = (int)old == cmparg; break;
	case 1: ok = (int)old != cmparg; break;
	case 2: ok = (int)old < cmparg; break;
	case 3: ok = (int)old <= cmparg; break;
	case 4: ok = (int)old > cmparg; break;
	case 5: ok = (int)old >= cmparg; break;
	default: return -ENOSYS;
	}
	n = wake_key(&k1, nr_wake, FUTEX_BITSET_MATCH_ANY);
	if (ok)
		n += wake_key(&k2, nr_wake2, FUTEX_BITSET_MATCH_ANY);
	return n;
}

/* A timeout argument as a ktime deadline: relative (WAIT) or absolute. */
static long futex_deadline(unsigned long uts, bool t64, bool relative, u64 *deadline)
{
	s64 sec;
	long nsec;
	long rc = get_user_timespec((const void *)uts, t64, &sec, &nsec);

	if (rc)
		return rc;
	*deadline = (u64)sec * 1000000000 + (u64)nsec;
	if (relative)
		*deadline += ktime_ns();
	if (!*deadline)
		*deadline = 1;	/* absolute time 0: already past */
	return 0;
}

/*
 * futex(uaddr, op, val, timeout or val2, uaddr2, val3). The clock of an
 * absolute deadline (CLOCK_MONOTONIC, or CLOCK_REALTIME with
 * FUTEX_CLOCK_REALTIME) is the same ktime here: both clocks read it.
 */
static long do_futex(const unsigned long *a, bool t64)
{
	unsigned long uaddr = a[0], uaddr2 = a[4];
	int op = arg_int(a[1]), cmd = op & FUTEX_CMD_MASK;
	bool shared = !(op & FUTEX_PRIVATE_FLAG);
	u32 val = arg_uint(a[2]), val2 = (u32)a[3], val3 = arg_uint(a[5]);
	u64 deadline = 0;
	long err;

	if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT_BITSET)
		return -ENOSYS;	/* (Linux 6.12: FUTEX_WAIT takes no clock either) */
	switch (cmd) {
	case FUTEX_WAIT:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAIT_BITSET:
		if (!val3)
			return -EINVAL;
		if (a[3]) {
			err = futex_deadline(a[3], t64, cmd == FUTEX_WAIT, &deadline);
			if (err)
				return err;
		}
		return futex_wait(uaddr, shared, val, deadline, val3);
	case FUTEX_WAKE:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAKE_BITSET: {
		struct futex_key key;

		if (!val3)
			return -EINVAL;
		err = get_key(uaddr, shared, &key);
		return err ? err : wake_key(&key, (int)val, val3);
	}
	case FUTEX_REQUEUE:
		return futex_requeue(uaddr, uaddr2, shared, (int)val, (int)val2, NULL);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(uaddr, uaddr2, shared, (int)val, (int)val2, &val3);
	case FUTEX_WAKE_OP:
		return futex_wake_op(uaddr, uaddr2, shared, (int)val, (int)val2, val3);
	default:
		return -ENOSYS;	/* FUTEX_FD (gone since 2.6.26) and the PI operations */
	}
}

long sys_futex(const unsigned long *a) { return do_futex(a, false); }
long sys_futex_time64(const unsigned long *a) { return do_futex(a, true); }

/* The robust list head (Linux's struct robust_list_head): three words. */
struct robust_head_user {
	unsigned long next;
	long futex_offset;
	unsigned long list_op_pending;
};

/* set_robust_list(head, len): len must be the head's size (EINVAL). */
long sys_set_robust_list(const unsigned long *a)
{
	struct proc *p = current_proc();

	if (a[1] != sizeof(struct robust_head_user))
		return -EINVAL;
	p->robust_list = a[0];
	p->robust_len = a[1];
	return 0;
}

/* get_robust_list(pid, head_ptr, len_ptr): the head of thread pid (0: the caller). */
long sys_get_robust_list(const unsigned long *a)
{
	struct proc *p = arg_int(a[0]) ? proc_find(arg_int(a[0])) : current_proc();
	unsigned long len = sizeof(struct robust_head_user);

	if (!p || p->state == P_ZOMBIE)
		return -ESRCH;
	if (copy_to_user((void *)a[2], &len, sizeof(len)) ||
	    copy_to_user((void *)a[1], &p->robust_list, sizeof(p->robust_list)))
		return -EFAULT;
	return 0;
}

/* One futex of a dead owner p: mark it owner-died and wake a waiter;
 * pending (list_op_pending) with no owner yet: just wake a waiter. */
static void robust_death(struct proc *p, unsigned long uaddr, bool pending)
{
	u32 v, nv;

	if ((uaddr & 3) || copy_from_user(&v, (const void *)uaddr, sizeof(v)))
		return;
	if (pending && v == 0) {
		futex_wake_user(uaddr, 1);
		return;
	}
	if ((v & FUTEX_TID_MASK) != (u32)p->pid)
		return;
	nv = (v & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
	if (copy_to_user((void *)uaddr, &nv, sizeof(nv)))
		return;
	if (v & FUTEX_WAITERS)
		futex_wake_user(uaddr, 1);
}

void futex_exit_robust(struct proc *p)
{
	struct robust_head_user head;
	unsigned long entry, pending;
	int limit = ROBUST_LIST_LIMIT;

	if (!p->robust_list || !p->mm ||
	    copy_from_user(&head, (const void *)p->robust_list, sizeof(head)))
		return;
	pending = head.list_op_pending & ~1ul;	/* bit 0 marks a PI futex */
	for (entry = head.next & ~1ul; entry != p->robust_list && limit-- > 0;) {
		unsigned long next;

		if (copy_from_user(&next, (const void *)entry, sizeof(next)))
			return;
		if (entry != pending)
			robust_death(p, entry + (unsigned long)head.futex_offset, false);
		entry = next & ~1ul;
	}
	if (pending)
		robust_death(p, pending + (unsigned long)head.futex_offset, true);
	p->robust_list = 0;
}
