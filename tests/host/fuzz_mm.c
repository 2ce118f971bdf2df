/*
 * fuzz_mm.c - libFuzzer target: the address-space system calls on the fake
 * machine, with the page-table checks and the TLB model as oracles.
 *
 * The real sys_mm.c, mm.c, vma.c, hugetlb.c, thp.c and page-table core run
 * on the fake arch (mm_rules_env.c), as in test_mm_rules.c. Each input is a
 * program: 5-byte operations (see decode_op) over a window of small pages,
 * a window of 2 MiB slots for hugetlb and THP, and a few hostile addresses
 * and lengths (unaligned, zero, wrapping, kernel addresses), with fork,
 * the child's exit, running calls in the child, and an allocation failure
 * injected into the next call. After every operation:
 *   - vma_check() of every live mm, and its locked_vm count;
 *   - mm_oracle_pt_check(): every entry inside a VMA with compatible
 *     permissions, each page's count equal to its mappings;
 *   - the kernel's own invariant checker, mm_check_report() (mm/mm_check.c,
 *     built by fuzz_mm_check.c): the same questions asked by the code the
 *     kernel runs with mm_check=1, and the counters the oracle above does
 *     not know (hugetlb Rsvd/Free/Total, Committed_AS, THP, table pages);
 *   - the TLB model: every mapped page accessed, then no stale or
 *     conflicting translation and every TLBI completed;
 * and at the end, with every mm gone and the huge-page pool emptied, no
 * page in use. Any failure, and any kernel panic, aborts: libFuzzer keeps
 * the input as a crash. `make fuzz-host` runs it; the corpus lives in
 * tests/host/corpus/fuzz_mm/, and `make check` replays it (fuzz-replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mm_rules_env.h"
#include "mm_oracle.h"
#include "syscall.h"
#include "proc.h"
#include "mm.h"
#include "hugetlb.h"
#include "page_alloc.h"
#include "errno.h"
#include "mman.h"
#include "tlb_model.h"
#include "mm_check.h"
#include "fuzz_mm_check.h"

#define P	PAGE_SIZE
#define SMALL	0x10000000UL	/* 64 small pages from here */
#define HUGE	0x20000000UL	/* four 2 MiB slots from here */
#define HEAP	0x08000000UL
#define HSZ	(2UL << 20)

static struct mm *mm, *child;	/* the current process's; a fork child's */
static unsigned long long nops;

static void fail(const char *what, const char *why)
{
	fprintf(stderr, "fuzz_mm: after %s: %s\n", what, why);
	abort();
}

/* mm->locked_vm is the number of pages in VM_LOCKED VMAs (ML-15). */
static bool locked_ok(const struct mm *m)
{
	unsigned long n = 0;

	for (const struct vma *v = m->vmas; v; v = v->next)
		n += (v->flags & VM_LOCKED) ? (v->end - v->start) / P : 0;
	return n == m->locked_vm;
}

/* The oracles, after each operation. */
static void check(const char *what)
{
	struct mm *mms[2] = { mm, child };
	static char check_buf[320];
	const char *problem;
	unsigned before = tlb_model_total_violations();

	nops++;
	if (!vma_check(mm) || (child && !vma_check(child)))
		fail(what, "vma_check failed");
	if (!locked_ok(mm) || (child && !locked_ok(child)))
		fail(what, "locked_vm differs from the pages of VM_LOCKED VMAs");
	problem = mm_oracle_pt_check(mms, child ? 2 : 1);
	if (problem)
		fail(what, problem);
	problem = mm_check_report(mms, NULL, child ? 2 : 1, check_buf, sizeof(check_buf));
	if (problem)
		fail(what, problem);
	tlb_model_check_idle();
	if (child)
		mm_oracle_touch(child);
	mm_oracle_touch(mm);
	mm_oracle_touch(mm);	/* the second pass compares with what the first cached */
	tlb_model_check_idle();
	if (tlb_model_total_violations() != before)
		fail(what, tlb_model_last_violation());
}

/* Drop an mm; its ASID's TLB entries must be gone with it. */
static void put(struct mm *m, const char *what)
{
	int asid = m->pt.asid;
	unsigned before = tlb_model_total_violations();

	mm_put(m);
	tlb_model_set_user(0, asid);
	tlb_model_check_idle();
	if (tlb_model_total_violations() != before)
		fail(what, tlb_model_last_violation());
}

/* ---- decoding ---- */

/* An address: the small window, a huge slot, or something hostile. */
static unsigned long addr_of(uint8_t a)
{
	static const unsigned long odd[] = {
		0, 1, P - 1, SMALL + 123, HUGE + P, HEAP, 0x1000, ~0UL & ~(P - 1),
		(1UL << 47) - P, 1UL << 48, 0xffff000000000000UL, 0xffffffffUL & ~(P - 1),
		SMALL - P, HUGE - P, HUGE + HSZ - P, SMALL + 64 * P,
	};

	switch (a >> 6) {
	case 0:
	case 1:
		return SMALL + (a & 63) * P;
	case 2:
		return HUGE + (a & 3) * HSZ + ((a & 4) ? (a >> 3 & 7) * P : 0);
	default:
		return odd[a & 15];
	}
}

/* A length: mostly a few pages, sometimes huge-page sized or hostile. */
static unsigned long len_of(uint8_t b)
{
	static const unsigned long odd[] = {
		0, 1, P - 1, P + 1, HSZ, 2 * HSZ, HSZ - P, ~0UL, ~0UL - P + 2, 1UL << 47,
		0xfffff000UL, ~(P - 1), 3 * HSZ, 64 * P, 100 * P, (1UL << 63),
	};

	if (b < 0xe0)
		return ((b & 15) + 1) * P;
	if (b < 0xf0)
		return ((b & 3) + 1) * HSZ;
	return odd[b & 15];
}

static unsigned long prot_of(uint8_t c)
{
	static const unsigned long extra[] = { 0, 0, 0, 0, PROT_SEM, PROT_GROWSDOWN, PROT_GROWSUP, 0x100 };

	return (c & 7) | extra[c >> 5];
}

static unsigned long mmap_flags(uint8_t d)
{
	static const unsigned long type[] = { MAP_PRIVATE, MAP_SHARED, MAP_SHARED_VALIDATE, 0 };
	unsigned long f = type[d & 3] | MAP_ANONYMOUS;

	if (d & 0x04)
		f |= MAP_FIXED;
	if (d & 0x08)
		f |= MAP_FIXED_NOREPLACE;
	if (d & 0x10)
		f |= MAP_POPULATE;
	if ((d & 0x60) == 0x20)
		f |= MAP_HUGETLB;
	if ((d & 0x60) == 0x40)
		f |= MAP_NORESERVE;
	if ((d & 0x60) == 0x60)
		f |= MAP_GROWSDOWN;
	if (d & 0x80)
		f |= (d & 1) ? MAP_HUGETLB | (21UL << 26 /* MAP_HUGE_SHIFT */) : 0x800000UL;	/* a size, or junk */
	return f;
}

static unsigned long mremap_flags(uint8_t d)
{
	static const unsigned long f[] = {
		0, MREMAP_MAYMOVE, MREMAP_MAYMOVE | MREMAP_FIXED, MREMAP_MAYMOVE | MREMAP_DONTUNMAP,
		MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, MREMAP_FIXED, MREMAP_DONTUNMAP, 8,
	};

	return f[d & 7];
}

static unsigned long advice_of(uint8_t d)
{
	static const unsigned long adv[] = {
		MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL, MADV_WILLNEED, MADV_DONTNEED, MADV_FREE,
		MADV_REMOVE, MADV_DONTFORK, MADV_DOFORK, MADV_HUGEPAGE, MADV_NOHUGEPAGE,
		MADV_DONTDUMP, MADV_DODUMP, MADV_WIPEONFORK, MADV_KEEPONFORK, MADV_COLD,
		MADV_PAGEOUT, MADV_POPULATE_READ, MADV_POPULATE_WRITE, MADV_DONTNEED_LOCKED,
		102 /* MADV_GUARD_INSTALL */, 103 /* MADV_GUARD_REMOVE */, 999, 0x100000004UL,
	};

	return adv[d % (sizeof(adv) / sizeof(adv[0]))];
}

/* ---- one operation ---- */

static char what[160];

static long call(long (*fn)(const unsigned long *), const char *name, unsigned long a0,
		 unsigned long a1, unsigned long a2, unsigned long a3, unsigned long a4)
{
	unsigned long a[6] = { a0, a1, a2, a3, a4, 0 };
	long r = fn(a);

	snprintf(what, sizeof(what), "op %llu: %s(0x%lx, 0x%lx, 0x%lx, 0x%lx, 0x%lx) = %ld", nops, name, a0,
		 a1, a2, a3, a4, r);
	return r;
}

/* Make m the process the system calls act on. */
static void run_as(struct mm *m)
{
	env_proc()->mm = m;
	tlb_model_set_user(m->pt.root, m->pt.asid);
}

static void fork_child(void)
{
	if (child) {
		snprintf(what, sizeof(what), "op %llu: fork (a child already lives)", nops);
		return;
	}
	child = mm_copy(mm);
	snprintf(what, sizeof(what), "op %llu: fork = %s", nops, child ? "ok" : "ENOMEM");
	run_as(mm);
}

static void child_exit(void)
{
	snprintf(what, sizeof(what), "op %llu: child exit", nops);
	if (child) {
		struct mm *c = child;

		child = NULL;
		put(c, what);
		run_as(mm);
	}
}

/* Swap the roles of parent and child: the next calls act on the other mm. */
static void swap_roles(void)
{
	snprintf(what, sizeof(what), "op %llu: switch to the %s", nops, child ? "other mm" : "same mm");
	if (child) {
		struct mm *t = mm;

		mm = child;
		child = t;
		run_as(mm);
	}
}

static void do_fault(uint8_t a, enum fault_access acc)
{
	unsigned long va = addr_of(a);
	int r = mm_fault(mm, va, acc);

	snprintf(what, sizeof(what), "op %llu: mm_fault(0x%lx, %d) = %d", nops, va, acc, r);
}

static void decode_op(const uint8_t *o)
{
	uint8_t a = o[1], b = o[2], c = o[3], d = o[4];

	switch (o[0] % 16) {
	case 0: call(sys_mmap, "mmap", addr_of(a), len_of(b), prot_of(c), mmap_flags(d), (unsigned long)-1); break;
	case 1: call(sys_munmap, "munmap", addr_of(a), len_of(b), 0, 0, 0); break;
	case 2: call(sys_mprotect, "mprotect", addr_of(a), len_of(b), prot_of(c), 0, 0); break;
	case 3: call(sys_mremap, "mremap", addr_of(a), len_of(b), len_of(c), mremap_flags(d), addr_of(c ^ d)); break;
	case 4: call(sys_madvise, "madvise", addr_of(a), len_of(b), advice_of(c), 0, 0); break;
	case 5: call(sys_mseal, "mseal", addr_of(a), len_of(b), d == 0xff ? 1 : 0, 0, 0); break;
	case 6: call(sys_brk, "brk", b == 0xff ? addr_of(a) : HEAP + (b & 31) * P, 0, 0, 0, 0); break;
	case 7: do_fault(a, FAULT_READ); break;
	case 8: do_fault(a, FAULT_WRITE); break;
	case 9: do_fault(a, FAULT_EXEC); break;
	case 10: fork_child(); break;
	case 11: child_exit(); break;
	case 12: swap_roles(); break;
	case 13: {
		/* the operation in the other four bytes, with only (a & 7) allocations allowed */
		uint8_t inner[5] = { (uint8_t)(b % 16 == 13 ? 0 : b), c, d, (uint8_t)(a >> 3), (uint8_t)(a ^ d) };

		env_fail_after(a & 7);
		decode_op(inner);
		env_fail_after(-1);
		return;
	}
	case 14:	/* the lock calls, msync and (into a host buffer) mincore */
		switch (d & 7) {
		case 0: call(sys_mlock, "mlock", addr_of(a), len_of(b), 0, 0, 0); break;
		case 1: call(sys_mlock2, "mlock2", addr_of(a), len_of(b), c & 3, 0, 0); break;
		case 2: call(sys_munlock, "munlock", addr_of(a), len_of(b), 0, 0, 0); break;
		case 3: call(sys_mlockall, "mlockall", c & 7, 0, 0, 0, 0); break;
		case 4: call(sys_munlockall, "munlockall", 0, 0, 0, 0, 0); break;
		case 5: call(sys_msync, "msync", addr_of(a), len_of(b), c & 7, 0, 0); break;
		default: {
			static unsigned char vec[64];

			call(sys_mincore, "mincore", addr_of(a), MIN(len_of(b), sizeof(vec) * P),
			     (unsigned long)vec, 0, 0);
		}
		}
		break;
	default: do_fault(a, (b & 1) ? FAULT_WRITE : FAULT_READ); break;
	}
}

/* ---- the target ---- */

static struct hstate *pool;

static void start(void)
{
	static bool hugetlb_ready;

	env_boot();
	fuzz_mm_check_forget();
	if (!hugetlb_ready) {
		hugetlb_init();
		hugetlb_ready = true;
	}
	pool = hugetlb_default();
	if (pool && hugetlb_set_pool(pool, 2) != 2)
		fail("boot", "cannot fill the huge-page pool");
	mm = mm_create();
	if (!mm)
		fail("boot", "mm_create failed");
	mm->brk_start = mm->brk = HEAP;
	child = NULL;
	run_as(mm);
}

static void finish(void)
{
	char why[120];

	if (child)
		put(child, "exit of the child");
	put(mm, "exit");
	env_proc()->mm = NULL;
	if (pool && (hugetlb_set_pool(pool, 0) != 0 || pool->resv != 0))
		fail("exit", "huge pages still reserved or in use with every mm gone");
	fuzz_mm_check_release();
	if (env_pages_in_use() || env_user_pt_pages()) {
		snprintf(why, sizeof(why), "%ld pages leaked (%ld user table pages)", env_pages_in_use(),
			 env_user_pt_pages());
		fail("exit", why);
	}
}

/*
 * FUZZ_MM_PLANT=refcount|leak|committed plants a kernel bug for the
 * self-test in fuzz_replay.sh: an extra reference on the first page a fault
 * maps, a page allocated and never freed, or a page of Committed_AS that no
 * VMA accounts for (only the kernel's checker knows that counter). The
 * oracles must then abort.
 */
static void plant(void)
{
	static const char *what_bug;
	static bool read_env;

	if (!read_env) {
		what_bug = getenv("FUZZ_MM_PLANT");
		read_env = true;
	}
	if (!what_bug)
		return;
	if (!strcmp(what_bug, "leak") && nops == 1)
		alloc_pages(0, 0);
	if (!strcmp(what_bug, "committed") && nops == 1)
		vm_committed_pages++;
	if (!strcmp(what_bug, "refcount")) {
		phys_addr_t pa = mm_lookup(mm, SMALL);

		if (pa)
			page_get(phys_to_page(pa));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int trace = -1;

	if (trace < 0)
		trace = getenv("FUZZ_MM_TRACE") != NULL;
	start();
	for (size_t i = 0; i + 5 <= size && i < 5 * 200; i += 5) {
		decode_op(data + i);
		plant();
		if (trace)
			fprintf(stderr, "%s\n", what);	/* FUZZ_MM_TRACE=1: every operation */
		check(what);
	}
	finish();
	return 0;
}
