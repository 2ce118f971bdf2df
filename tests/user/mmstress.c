/*
 * mmstress.c - threads changing one address space while others use it
 * (issue 13): mutator threads map, unmap, mprotect (whole slots and half
 * slots, splitting VMAs), madvise(MADV_DONTNEED) and mremap (shrink and
 * regrow in place) a set of slots; reader threads check every slot's
 * contents with the slot's mutex held, and also read it without the
 * mutex, racing the mutators; writer threads store into writable slots
 * (write faults after DONTNEED and remaps) and check that a store to a
 * read-only slot is SIGSEGV with SEGV_ACCERR; a waiter sleeps on a
 * condition variable for slot changes. Runs with pthreads: glibc's, or
 * the test libc's small thread library (tests/lib/src/pthread.c).
 *
 * What must hold: under the mutex, a mapped slot holds exactly the
 * pattern of its generation (every change of a slot bumps it); an
 * unlocked read that raced no change (same generation before and after)
 * saw the pattern and no fault; a racing read may fault (the slot was
 * unmapped or made PROT_NONE under it: SIGSEGV, recovered with
 * siglongjmp) or see the old or the new contents. Holes left by munmap
 * are mapped again with MAP_FIXED_NOREPLACE, so nothing else is clobbered.
 *
 * Threads share no libc state but the mutexes: counters are per thread,
 * points are printed by main at the end.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "tap.h"

#define NSLOT		8
#define SLOT_PAGES	4
#define NMUT		3
#define NREAD		3
#define NWRITE		2
#define NTHREAD		(NMUT + NREAD + NWRITE + 1)
#define MUT_OPS		600

enum { UNMAPPED, RW, RO };

struct slot {
	pthread_mutex_t m;
	int state;
	unsigned gen;
};

static struct slot slots[NSLOT];
static char *arena;
static size_t page;
static pthread_mutex_t cm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static volatile int mutators_left = NMUT;
static volatile int go;		/* set once the arena is free: no thread maps before */

static void wait_go(void)
{
	pthread_mutex_lock(&cm);
	while (!go)
		pthread_cond_wait(&changed, &cm);
	pthread_mutex_unlock(&cm);
}

/* What each thread counts (summed by main). */
struct counts {
	long mmap, munmap, mprotect, madvise, mremap, noreplace_busy;
	long locked_reads, racy_reads, racy_changed, racy_faults, writes, ro_faults, wakeups;
	long errors;
	char what[96];	/* the first error */
};

static struct counts counts[NTHREAD];
static volatile pid_t tids[NTHREAD];
static volatile int armed[NTHREAD];
static sigjmp_buf jbs[NTHREAD];
static volatile int fault_code[NTHREAD];
static unsigned seeds[NTHREAD];	/* (not locals: sigsetjmp would clobber them) */

static void err(struct counts *c, const char *what)
{
	if (!c->errors++)
		strncpy(c->what, what, sizeof(c->what) - 1);
}

static volatile int last_op[NSLOT];	/* the last change of each slot, for the error report */

static void err_slot(struct counts *c, const char *what, int s)
{
	static const char *const ops[] = { "mmap", "munmap", "mprotect RO", "madvise", "mprotect half", "mremap", "mprotect RW" };

	if (!c->errors) {
		size_t n = strlen(what);

		strncpy(c->what, what, sizeof(c->what) - 1);
		if (n + 24 < sizeof(c->what)) {
			memcpy(c->what + n, " after ", 7);
			strncpy(c->what + n + 7, ops[last_op[s]], sizeof(c->what) - n - 8);
		}
	}
	c->errors++;
}

static char *slot_addr(int s)
{
	return arena + (size_t)s * SLOT_PAGES * page;
}

static uint32_t pattern(int s, unsigned gen, int pg)
{
	return 0x5a000000u | ((uint32_t)s << 20) | ((gen & 0xfff) << 8) | (uint32_t)pg;
}

static void fill(int s)
{
	for (int pg = 0; pg < SLOT_PAGES; pg++) {
		volatile uint32_t *w = (uint32_t *)(slot_addr(s) + (size_t)pg * page);

		w[0] = pattern(s, slots[s].gen, pg);
		w[page / 8] = pattern(s, slots[s].gen, pg);
	}
}

static int check(int s, unsigned gen)
{
	for (int pg = 0; pg < SLOT_PAGES; pg++) {
		volatile uint32_t *w = (uint32_t *)(slot_addr(s) + (size_t)pg * page);

		if (w[0] != pattern(s, gen, pg) || w[page / 8] != pattern(s, gen, pg))
			return 0;
	}
	return 1;
}

static int me(void)
{
	pid_t t = (pid_t)syscall(SYS_gettid);

	for (int i = 0; i < NTHREAD; i++)
		if (tids[i] == t)
			return i;
	return -1;
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	int i = me();

	(void)uc;
	if (i < 0 || !armed[i]) {
		char msg[64] = "mmstress: unexpected fault in thread   at 0x";
		uintptr_t a = (uintptr_t)si->si_addr;
		int n = 44;

		msg[36] = (char)('0' + (i < 0 ? 9 : i));
		for (int k = (int)sizeof(a) * 8 - 4; k >= 0; k -= 4)
			msg[n++] = "0123456789abcdef"[(a >> k) & 15];
		msg[n++] = '\n';
		write(2, msg, (size_t)n);
		_exit(3);
	}
	armed[i] = 0;
	fault_code[i] = sig == SIGSEGV ? si->si_code : 100;
	siglongjmp(jbs[i], 1);
}

static unsigned rnd(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void announce(void)
{
	pthread_mutex_lock(&cm);
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&cm);
}

/* One change of slot s, with its mutex held. */
static void mutate(struct counts *c, int s, unsigned r)
{
	struct slot *sl = &slots[s];
	char *a = slot_addr(s);
	size_t len = SLOT_PAGES * page;

	switch (sl->state) {
	case UNMAPPED:
		c->mmap++;
		if (mmap(a, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != a) {
			c->noreplace_busy++;
			return;
		}
		sl->gen++;
		sl->state = RW;
		last_op[s] = 0;
		fill(s);
		break;
	case RW:
		last_op[s] = 1 + (int)(r % 5);
		switch (r % 5) {
		case 0:
			c->munmap++;
			if (munmap(a, len))
				err(c, "munmap failed");
			sl->gen++;
			sl->state = UNMAPPED;
			break;
		case 1:
			c->mprotect++;
			if (mprotect(a, len, PROT_READ))
				err(c, "mprotect(PROT_READ) failed");
			sl->state = RO;	/* the same contents: the generation stays */
			break;
		case 2:
			c->madvise++;
			if (madvise(a, len, MADV_DONTNEED))
				err(c, "madvise(DONTNEED) failed");
			sl->gen++;
			if (*(volatile uint32_t *)a != 0)
				err(c, "MADV_DONTNEED left data");
			fill(s);
			break;
		case 3:	/* half the slot PROT_NONE and back: two splits, then a merge */
			c->mprotect += 2;
			sl->gen++;
			if (mprotect(a + 2 * page, 2 * page, PROT_NONE) || mprotect(a + 2 * page, 2 * page, PROT_READ | PROT_WRITE))
				err(c, "mprotect of half a slot failed");
			fill(s);
			break;
		default: /* shrink, then regrow in place: the tail comes back empty */
			c->mremap += 2;
			sl->gen++;
			if (mremap(a, len, 2 * page, 0) != a) {
				err(c, "mremap shrink failed");
				break;
			}
			if (mremap(a, 2 * page, len, 0) != a) {
				/* the hole was taken meanwhile: keep the short slot out of use */
				munmap(a, 2 * page);
				sl->state = UNMAPPED;
				c->noreplace_busy++;
				break;
			}
			if (*(volatile uint32_t *)(a + 3 * page) != 0)
				err(c, "mremap regrowth is not empty");
			fill(s);
			break;
		}
		break;
	case RO:
		last_op[s] = 6;
		c->mprotect++;
		if (mprotect(a, len, PROT_READ | PROT_WRITE))
			err(c, "mprotect(RW) failed");
		sl->state = RW;
		break;
	}
}

static void *mutator(void *arg)
{
	int i = (int)(long)arg;
	struct counts *c = &counts[i];
	unsigned seed = 77u * (unsigned)i + 1;

	tids[i] = (pid_t)syscall(SYS_gettid);
	wait_go();
	for (int n = 0; n < MUT_OPS; n++) {
		int s = (int)(rnd(&seed) % NSLOT);

		pthread_mutex_lock(&slots[s].m);
		mutate(c, s, rnd(&seed));
		pthread_mutex_unlock(&slots[s].m);
		announce();
		if (n % 4 == 0)
			sched_yield();
	}
	pthread_mutex_lock(&cm);
	mutators_left--;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&cm);
	return NULL;
}

static void *reader(void *arg)
{
	int i = (int)(long)arg;
	struct counts *c = &counts[i];
	unsigned *seed = &seeds[i];

	*seed = 1000u + (unsigned)i;

	tids[i] = (pid_t)syscall(SYS_gettid);
	wait_go();
	while (mutators_left) {
		int s = (int)(rnd(seed) % NSLOT), st;
		unsigned g0, g1;
		volatile int ok = 1, faulted = 0;

		pthread_mutex_lock(&slots[s].m);
		st = slots[s].state;
		g0 = slots[s].gen;
		if (st != UNMAPPED) {
			c->locked_reads++;
			if (!check(s, g0))
				err_slot(c, "a locked read found the wrong contents", s);
		}
		pthread_mutex_unlock(&slots[s].m);
		if (st == UNMAPPED)
			continue;
		sched_yield();	/* let a mutator in */
		if (sigsetjmp(jbs[i], 1) == 0) {
			armed[i] = 1;
			ok = check(s, g0);
			armed[i] = 0;
		} else {
			faulted = 1;
		}
		c->racy_reads++;
		pthread_mutex_lock(&slots[s].m);
		g1 = slots[s].gen;
		pthread_mutex_unlock(&slots[s].m);
		if (g1 == g0) {
			if (faulted || !ok)
				err(c, "an unlocked read of an unchanged slot faulted or saw other data");
		} else {
			c->racy_changed++;
			c->racy_faults += faulted;
		}
	}
	return NULL;
}

static void *writer(void *arg)
{
	int i = (int)(long)arg;
	struct counts *c = &counts[i];
	unsigned *seed = &seeds[i];

	*seed = 5000u + (unsigned)i;

	tids[i] = (pid_t)syscall(SYS_gettid);
	wait_go();
	while (mutators_left) {
		int s = (int)(rnd(seed) % NSLOT);

		pthread_mutex_lock(&slots[s].m);
		if (slots[s].state == RW) {
			fill(s);
			c->writes++;
		} else if (slots[s].state == RO) {
			if (sigsetjmp(jbs[i], 1) == 0) {
				armed[i] = 1;
				*(volatile uint32_t *)slot_addr(s) = 0;
				armed[i] = 0;
				err(c, "a store to a read-only slot did not fault");
			} else if (fault_code[i] != SEGV_ACCERR) {
				err(c, "a store to a read-only slot: not SEGV_ACCERR");
			} else {
				c->ro_faults++;
			}
		}
		pthread_mutex_unlock(&slots[s].m);
		sched_yield();
	}
	return NULL;
}

static void *waiter(void *arg)
{
	int i = (int)(long)arg;
	struct counts *c = &counts[i];

	tids[i] = (pid_t)syscall(SYS_gettid);
	wait_go();
	pthread_mutex_lock(&cm);
	while (mutators_left) {
		pthread_cond_wait(&changed, &cm);
		c->wakeups++;
	}
	pthread_mutex_unlock(&cm);
	return NULL;
}

int main(void)
{
	pthread_t t[NTHREAD];
	struct sigaction sa;
	struct counts sum;
	int created = 1;

	tap_init();
	page = (size_t)getpagesize();
	arena = mmap(NULL, NSLOT * SLOT_PAGES * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tap_ok(arena != MAP_FAILED, "an arena of %d slots of %d pages", NSLOT, SLOT_PAGES);
	for (int s = 0; s < NSLOT; s++)
		pthread_mutex_init(&slots[s].m, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	for (long i = 0; i < NTHREAD; i++) {
		void *(*fn)(void *) = i < NMUT ? mutator : i < NMUT + NREAD ? reader : i < NMUT + NREAD + NWRITE ? writer : waiter;

		created &= pthread_create(&t[i], NULL, fn, (void *)i) == 0;
	}
	/* every slot starts unmapped, once the threads' stacks are placed */
	munmap(arena, NSLOT * SLOT_PAGES * page);
	pthread_mutex_lock(&cm);
	go = 1;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&cm);
	tap_ok(created, "%d threads created (%d mutators, %d readers, %d writers, 1 waiter)", NTHREAD, NMUT, NREAD, NWRITE);
	for (int i = 0; i < NTHREAD; i++)
		pthread_join(t[i], NULL);
	memset(&sum, 0, sizeof(sum));
	for (int i = 0; i < NTHREAD; i++) {
		struct counts *c = &counts[i];

		sum.mmap += c->mmap;
		sum.munmap += c->munmap;
		sum.mprotect += c->mprotect;
		sum.madvise += c->madvise;
		sum.mremap += c->mremap;
		sum.noreplace_busy += c->noreplace_busy;
		sum.locked_reads += c->locked_reads;
		sum.racy_reads += c->racy_reads;
		sum.racy_changed += c->racy_changed;
		sum.racy_faults += c->racy_faults;
		sum.writes += c->writes;
		sum.ro_faults += c->ro_faults;
		sum.wakeups += c->wakeups;
		if (c->errors)
			tap_diag("thread %d: %ld errors, the first: %s", i, c->errors, c->what);
		sum.errors += c->errors;
	}
	tap_diag("%d threads; mm calls: mmap %ld (%ld found the hole taken), munmap %ld, mprotect %ld, madvise %ld, mremap %ld",
		 NTHREAD, sum.mmap, sum.noreplace_busy, sum.munmap, sum.mprotect, sum.madvise, sum.mremap);
	tap_diag("reads: %ld locked, %ld unlocked (%ld raced a change, %ld of them faulted); %ld slot writes, %ld stores to read-only slots faulted; %ld condvar wake-ups",
		 sum.locked_reads, sum.racy_reads, sum.racy_changed, sum.racy_faults, sum.writes, sum.ro_faults,
		 sum.wakeups);
	tap_is_long(sum.errors, 0, "no thread saw an address space that broke the rules");
	tap_ok(sum.mmap + sum.munmap + sum.mprotect + sum.madvise + sum.mremap >= NMUT * MUT_OPS,
	       "every mutator made its %d changes", MUT_OPS);
	tap_ok(sum.locked_reads > 0 && sum.racy_reads > 0 && sum.writes > 0, "readers and writers ran alongside");
	tap_ok(sum.ro_faults > 0, "stores to read-only slots faulted with SEGV_ACCERR (%ld)", sum.ro_faults);
	tap_ok(sum.racy_changed > 0, "some unlocked reads raced a change (%ld)", sum.racy_changed);
	return tap_done();
}
