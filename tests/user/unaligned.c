/* unaligned.c - loads and stores at addresses not aligned to their size.
 *
 * Every width (8, 16, 32 and 64 bits) at every misalignment, through the
 * arch's own load and store instructions (inline asm, so the compiler
 * cannot split them): an arm64 CPU does them in hardware at EL0; a
 * MicroBlaze CPU (QEMU with unaligned-exceptions=on) traps, and the kernel
 * does the access for the program, as Linux's MicroBlaze port does. Also:
 * an access that crosses into a page not faulted in yet, a load in a
 * branch's delay slot (MicroBlaze; a plain load on arm64), and the
 * signals for an unaligned access to a page that is not mapped
 * (SIGSEGV, SEGV_MAPERR) or read-only (SEGV_ACCERR), with si_addr the
 * access's address.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tap.h"

/* The page size: the tests reach across into the next page. */
#define PG ((size_t)getpagesize())

#if defined(__aarch64__)
static uint8_t ld8(const void *p) { uint32_t v; __asm__ volatile("ldrb %w0, [%1]" : "=r"(v) : "r"(p) : "memory"); return (uint8_t)v; }
static uint16_t ld16(const void *p) { uint32_t v; __asm__ volatile("ldrh %w0, [%1]" : "=r"(v) : "r"(p) : "memory"); return (uint16_t)v; }
static uint32_t ld32(const void *p) { uint32_t v; __asm__ volatile("ldr %w0, [%1]" : "=r"(v) : "r"(p) : "memory"); return v; }
static uint64_t ld64(const void *p) { uint64_t v; __asm__ volatile("ldr %0, [%1]" : "=r"(v) : "r"(p) : "memory"); return v; }
static void st16(void *p, uint16_t v) { __asm__ volatile("strh %w0, [%1]" :: "r"((uint32_t)v), "r"(p) : "memory"); }
static void st32(void *p, uint32_t v) { __asm__ volatile("str %w0, [%1]" :: "r"(v), "r"(p) : "memory"); }
static void st64(void *p, uint64_t v) { __asm__ volatile("str %0, [%1]" :: "r"(v), "r"(p) : "memory"); }
/* arm64 has no delay slots: a load just after a branch */
static uint32_t ld32_after_branch(const void *p)
{
	uint32_t v;

	__asm__ volatile("b 1f\n1:\tldr %w0, [%1]" : "=r"(v) : "r"(p) : "memory");
	return v;
}
#define DELAY_SLOT_WHAT "a word load just after a branch (no delay slots on arm64)"
#elif defined(__microblaze__)
static uint8_t ld8(const void *p) { uint32_t v; __asm__ volatile("lbu %0, %1, r0" : "=r"(v) : "r"(p) : "memory"); return (uint8_t)v; }
static uint16_t ld16(const void *p) { uint32_t v; __asm__ volatile("lhu %0, %1, r0" : "=r"(v) : "r"(p) : "memory"); return (uint16_t)v; }
static uint32_t ld32(const void *p) { uint32_t v; __asm__ volatile("lw %0, %1, r0" : "=r"(v) : "r"(p) : "memory"); return v; }
static void st16(void *p, uint16_t v) { __asm__ volatile("sh %0, %1, r0" :: "r"((uint32_t)v), "r"(p) : "memory"); }
static void st32(void *p, uint32_t v) { __asm__ volatile("sw %0, %1, r0" :: "r"(v), "r"(p) : "memory"); }
/* MicroBlaze has no 64-bit load or store: two word accesses, as GCC emits */
static uint64_t ld64(const void *p)
{
	uint32_t w[2] = { ld32(p), ld32((const char *)p + 4) };
	uint64_t v;

	memcpy(&v, w, 8);
	return v;
}
static void st64(void *p, uint64_t v)
{
	uint32_t w[2];

	memcpy(w, &v, 8);
	st32(p, w[0]);
	st32((char *)p + 4, w[1]);
}
/* the load sits in the delay slot of brid: the kernel resumes at its target */
static uint32_t ld32_after_branch(const void *p)
{
	uint32_t v = 0;

	__asm__ volatile("brid 1f\n\tlw %0, %1, r0\n\taddik %0, r0, 0\n1:" : "+r"(v) : "r"(p) : "memory");
	return v;
}
#define DELAY_SLOT_WHAT "a word load in the delay slot of a branch"
#else
#error "unaligned: unsupported architecture"
#endif

static uint8_t buf[32] __attribute__((aligned(16)));

/* Fill buf with 0x10, 0x11, ... */
static void fill(void)
{
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(0x10 + i);
}

static void test_loads_stores(void)
{
	int ok = 1;

	fill();
	for (unsigned off = 1; off < 8; off += 2)
		ok &= ld8(buf + off) == 0x10 + off;
	tap_ok(ok, "8-bit loads at odd addresses");
	ok = 1;
	for (unsigned off = 1; off < 8; off += 2) {
		uint16_t want;

		memcpy(&want, buf + off, 2);
		ok &= ld16(buf + off) == want;
	}
	tap_ok(ok, "16-bit loads at odd addresses");
	ok = 1;
	for (unsigned off = 1; off < 8; off += 2) {
		uint16_t v = (uint16_t)(0xa000 + off);

		fill();
		st16(buf + off, v);
		ok &= memcmp(buf + off, &v, 2) == 0 && buf[off - 1] == 0x10 + off - 1 && buf[off + 2] == 0x10 + off + 2;
	}
	tap_ok(ok, "16-bit stores at odd addresses write exactly their two bytes");
	ok = 1;
	fill();
	for (unsigned off = 1; off < 4; off++) {
		uint32_t want;

		memcpy(&want, buf + off, 4);
		ok &= ld32(buf + off) == want;
	}
	tap_ok(ok, "32-bit loads at +1, +2, +3");
	ok = 1;
	for (unsigned off = 1; off < 4; off++) {
		uint32_t v = 0xc0de0000u + off;

		fill();
		st32(buf + off, v);
		ok &= memcmp(buf + off, &v, 4) == 0 && buf[off - 1] == 0x10 + off - 1 && buf[off + 4] == 0x10 + off + 4;
	}
	tap_ok(ok, "32-bit stores at +1, +2, +3 write exactly their four bytes");
	ok = 1;
	for (unsigned off = 1; off < 8; off++) {
		uint64_t want, v = 0x0123456789abcdefULL + off;

		fill();
		memcpy(&want, buf + off, 8);
		ok &= ld64(buf + off) == want;
		st64(buf + off, v);
		ok &= memcmp(buf + off, &v, 8) == 0 && buf[off - 1] == 0x10 + off - 1 && buf[off + 8] == 0x10 + off + 8;
	}
	tap_ok(ok, "64-bit loads and stores at +1 .. +7");
	fill();
	uint32_t want;

	memcpy(&want, buf + 5, 4);
	tap_ok(ld32_after_branch(buf + 5) == want, DELAY_SLOT_WHAT);
}

static void test_page_crossing(void)
{
	uint8_t *p = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t v = 0x5a6b7c8d, got;

	if (p == MAP_FAILED) {
		tap_ok(0, "mmap two pages");
		tap_ok(0, "mmap two pages");
		return;
	}
	memset(p + PG - 8, 0x77, 8);	/* the second page is not faulted in */
	got = ld32(p + PG - 2);
	static const uint8_t want[4] = { 0x77, 0x77, 0, 0 };

	tap_ok(memcmp(&got, want, 4) == 0, "a 32-bit load across into an untouched page reads its zeros");
	munmap(p, 2 * PG);
	p = mmap(NULL, 2 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(p + PG - 8, 0x77, 8);
	st32(p + PG - 1, v);
	tap_ok(memcmp(p + PG - 1, &v, 4) == 0 && p[PG - 2] == 0x77 && p[PG + 3] == 0,
	       "a 32-bit store across into an untouched page");
	munmap(p, 2 * PG);
}

static sigjmp_buf env;
static volatile int got_sig, got_code;
static void *volatile got_addr;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_addr = si->si_addr;
	siglongjmp(env, 1);
}

/* Run an unaligned load (store != 0: a store) at p; did SIGSEGV come with code and si_addr p? */
static int faults_with(uint8_t *p, int store, int code)
{
	got_sig = got_code = 0;
	got_addr = NULL;
	if (sigsetjmp(env, 1) == 0) {
		if (store)
			st32(p, 0x11223344);
		else
			(void)ld32(p);
	}
	if (got_sig != SIGSEGV || got_code != code || got_addr != p)
		tap_diag("signal %d, si_code %d, si_addr %p (want %d, %d, %p)", got_sig, got_code, got_addr,
			 SIGSEGV, code, (void *)p);
	return got_sig == SIGSEGV && got_code == code && got_addr == p;
}

static void test_faults(void)
{
	struct sigaction sa;
	uint8_t *p = mmap(NULL, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	tap_ok(faults_with(p + 1, 1, SEGV_ACCERR), "an unaligned store to a read-only page: SIGSEGV, SEGV_ACCERR, si_addr");
	munmap(p, PG);
	tap_ok(faults_with(p + 3, 0, SEGV_MAPERR), "an unaligned load from an unmapped page: SIGSEGV, SEGV_MAPERR, si_addr");
	sa.sa_handler = SIG_DFL;
	sa.sa_flags = 0;
	sigaction(SIGSEGV, &sa, NULL);
}

int main(void)
{
	tap_init();
	test_loads_stores();
	test_page_crossing();
	test_faults();
	return tap_done();
}
