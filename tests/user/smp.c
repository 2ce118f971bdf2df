/*
 * smp.c - the CPUs a program sees: sched_getaffinity's mask of online
 * CPUs and its argument checks, getcpu (raw calls, both libcs), and on
 * every CPU of the mask: pinned there with sched_setaffinity, the process
 * runs there when the call returns (getcpu says so) and stays there. Then
 * two processes pinned to two different CPUs play ping-pong through a
 * shared page, with no system call between the strokes (the stores of
 * one CPU reach the other), and threads of one process on different CPUs
 * fault in and write the same fresh mapping, each seeing the others'
 * writes. With one CPU online the cross-CPU points name it and run on
 * the one CPU.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tap.h"


#define NBITS ((int)(8 * sizeof(unsigned long)))	/* CPUs one mask word names */

static unsigned long all_cpus;

static long get_mask(unsigned long *m)
{
	return syscall(SYS_sched_getaffinity, 0L, (long)sizeof(*m), (long)m);
}

static long set_mask(unsigned long m)
{
	return syscall(SYS_sched_setaffinity, 0L, (long)sizeof(m), (long)&m);
}

static int cur_cpu(void)
{
	unsigned cpu = ~0u, node = ~0u;

	if (syscall(SYS_getcpu, (long)&cpu, (long)&node, 0L) != 0)
		return -1;
	return (int)cpu;
}

static void test_calls(void)
{
	unsigned long m = 0;
	unsigned cpu = ~0u, node = ~0u;
	long r = get_mask(&m);

	tap_ok(r == (long)sizeof(m) && m != 0, "sched_getaffinity: %ld bytes, mask 0x%lx", r, m);
	all_cpus = m;
	errno = 0;
	tap_ok(syscall(SYS_sched_getaffinity, 0L, (long)sizeof(long) - 1, (long)&m) == -1 && errno == EINVAL,
	       "sched_getaffinity with a size not a multiple of long: EINVAL");
	tap_ok(syscall(SYS_getcpu, (long)&cpu, (long)&node, 0L) == 0 && cpu < (unsigned)NBITS && (all_cpus >> cpu & 1) &&
	       node == 0, "getcpu: CPU %u (in the mask), node %u", cpu, node);
	tap_is_long(syscall(SYS_getcpu, 0L, 0L, 0L), 0, "getcpu(NULL, NULL, NULL): 0");
	errno = 0;
	tap_ok(syscall(SYS_getcpu, 8L, 0L, 0L) == -1 && errno == EFAULT, "getcpu to a bad pointer: EFAULT");
	errno = 0;
	tap_ok(set_mask(1ul << (NBITS - 1)) == -1 && errno == EINVAL,
	       "sched_setaffinity to CPU %d only (none such): EINVAL", NBITS - 1);
	errno = 0;
	tap_ok(set_mask(0) == -1 && errno == EINVAL, "sched_setaffinity to no CPU: EINVAL");
}

/* Pinned to each CPU in turn: there on return, and there after a while. */
static void test_pinning(void)
{
	int n = 0, bad = 0, stayed = 1;

	for (int cpu = 0; cpu < NBITS; cpu++) {
		if (!(all_cpus >> cpu & 1))
			continue;
		n++;
		if (set_mask(1ul << cpu) != 0 || cur_cpu() != cpu) {
			bad++;
			continue;
		}
		for (int i = 0; i < 200; i++) {
			volatile long spin = 0;

			for (long j = 0; j < 2000; j++)
				spin += j;
			if (cur_cpu() != cpu)
				stayed = 0;
		}
		unsigned long m = 0;

		if (get_mask(&m) != sizeof(m) || m != 1ul << cpu)
			bad++;
	}
	tap_ok(bad == 0, "pinned to each of the %d CPUs in turn, getcpu names it and getaffinity shows it", n);
	tap_ok(stayed, "a pinned process stays on its CPU through 200 getcpu calls");
	tap_is_long(set_mask(all_cpus), 0, "the whole mask again");
}

#define ROUNDS 300

/* Two processes on two CPUs (or the one CPU) bounce a counter through a
 * shared page: each waits, spinning without system calls, for its turn. */
static void test_pingpong(void)
{
	volatile long *ball = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int cpus[2] = { -1, -1 }, k = 0;
	pid_t pid[2];
	int ok = 1;

	for (int cpu = 0; cpu < NBITS && k < 2; cpu++)
		if (all_cpus >> cpu & 1)
			cpus[k++] = cpu;
	if (k < 2)
		cpus[1] = cpus[0];
	if (ball == MAP_FAILED) {
		tap_ok(0, "mmap of the shared page");
		return;
	}
	*ball = 0;
	for (int me = 0; me < 2; me++) {
		pid[me] = fork();
		if (pid[me] == 0) {
			if (set_mask(1ul << cpus[me]) != 0 || cur_cpu() != cpus[me])
				_exit(2);
			for (long v = me; v < 2 * ROUNDS; v += 2) {
				while (*ball != v)
					if (cpus[0] == cpus[1])
						sched_yield();	/* (one CPU: let the other have it) */
					else
						__atomic_thread_fence(__ATOMIC_SEQ_CST);
				*ball = v + 1;	/* the other's turn */
			}
			_exit(cur_cpu() == cpus[me] ? 0 : 3);
		}
	}
	for (int me = 0; me < 2; me++) {
		int st = -1;

		if (pid[me] < 0 || waitpid(pid[me], &st, 0) != pid[me] || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			ok = 0;
	}
	tap_ok(ok && *ball == 2 * ROUNDS, "two processes pinned to CPUs %d and %d bounce a counter %d times "
	       "through a shared page (ends at %ld)", cpus[0], cpus[1], ROUNDS, *ball);
	munmap((void *)ball, 4096);
}

#define NTHREADS 4
#define AREA_PAGES 64

static char *area;

struct worker {
	int cpu, index, ok;
};

/* Thread body: pinned (if it can be), write our word in every page of the
 * shared area (faulting pages in, racing the others), then wait until
 * every thread's words are in every page. */
static void *worker(void *arg)
{
	struct worker *w = arg;
	static volatile int done;

	w->ok = set_mask(1ul << w->cpu) == 0 && cur_cpu() == w->cpu;
	for (int p = 0; p < AREA_PAGES; p++)
		((volatile long *)(area + p * 4096))[w->index] = 0x1000 + w->index;
	__atomic_add_fetch(&done, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&done, __ATOMIC_SEQ_CST) < NTHREADS)
		sched_yield();
	for (int p = 0; p < AREA_PAGES; p++)
		for (int t = 0; t < NTHREADS; t++)
			if (((volatile long *)(area + p * 4096))[t] != 0x1000 + t)
				w->ok = 0;
	return NULL;
}

static void test_threads(void)
{
	pthread_t t[NTHREADS];
	struct worker w[NTHREADS];
	int cpu = -1, ok = 1, used = 0;
	unsigned long seen = 0;

	area = mmap(NULL, AREA_PAGES * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		tap_ok(0, "mmap of the threads' area");
		return;
	}
	for (int i = 0; i < NTHREADS; i++) {
		do
			cpu = (cpu + 1) % NBITS;
		while (!(all_cpus >> cpu & 1));
		w[i] = (struct worker){ cpu, i, 0 };
		seen |= 1ul << cpu;
		if (pthread_create(&t[i], NULL, worker, &w[i]) != 0)
			ok = 0;
	}
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], NULL);
		ok = ok && w[i].ok;
	}
	used = __builtin_popcountl(seen);
	tap_ok(ok, "%d threads on %d CPUs fault in the same %d fresh pages and each sees every thread's words",
	       NTHREADS, used, AREA_PAGES);
	munmap(area, AREA_PAGES * 4096);
	set_mask(all_cpus);
}

int main(void)
{
	tap_init();
	test_calls();
	test_pinning();
	test_pingpong();
	test_threads();
	return tap_done();
}
