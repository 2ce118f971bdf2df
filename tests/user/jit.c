/* jit.c - what a JIT needs from the kernel: code written into an mmap'ed
 * buffer runs after __builtin___clear_cache and mprotect(PROT_EXEC), and
 * rewritten code runs in its new form (both arches). On arm64 EL0 may also
 * read CTR_EL0, clean and invalidate caches by VA (DC CVAU, IC IVAU) and
 * zero with DC ZVA when DCZID_EL0 allows it, as Linux lets it; MicroBlaze
 * has no such user interface, and those points are skips there.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tap.h"

typedef int (*fn2_t)(int, int);

/* Copy n instructions to buf, make them visible to instruction fetch, and
 * make the page executable (and not writable). */
static int install(uint32_t *buf, const uint32_t *insns, size_t n)
{
	if (mprotect(buf, 4096, PROT_READ | PROT_WRITE))
		return -1;
	memcpy(buf, insns, n * sizeof(*insns));
	__builtin___clear_cache((char *)buf, (char *)(buf + n));
	return mprotect(buf, 4096, PROT_READ | PROT_EXEC);
}

static void test_generated_code(void)
{
#if defined(__aarch64__)
	static const uint32_t add[] = { 0x0b010000, 0xd65f03c0 };	/* add w0, w0, w1; ret */
	static const uint32_t sub[] = { 0x4b010000, 0xd65f03c0 };	/* sub w0, w0, w1; ret */
#else	/* MicroBlaze: arguments in r5, r6, result in r3, return in the delay slot */
	static const uint32_t add[] = { 0x10653000, 0xb60f0008, 0x80000000 };	/* addk r3, r5, r6; rtsd r15, 8; nop */
	static const uint32_t sub[] = { 0x14662800, 0xb60f0008, 0x80000000 };	/* rsubk r3, r6, r5; rtsd r15, 8; nop */
#endif
	const size_t n = sizeof(add) / sizeof(add[0]);
	uint32_t *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	fn2_t f = (fn2_t)(uintptr_t)buf;

	if (buf == MAP_FAILED) {
		tap_ok(0, "mmap a code buffer");
		return;
	}
	tap_ok(install(buf, add, n) == 0, "code written, __builtin___clear_cache, mprotect(PROT_READ|PROT_EXEC)");
	tap_is_long(f(40, 2), 42, "the generated function runs: add(40, 2)");
	tap_ok(install(buf, sub, n) == 0, "the code rewritten in place, caches cleaned again");
	tap_is_long(f(40, 2), 38, "the rewritten function runs in its new form: sub(40, 2)");
	munmap(buf, 4096);
}

#if defined(__aarch64__)

static void test_cache_registers(void)
{
	uint64_t ctr, dczid;
	char line[256] __attribute__((aligned(64)));

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	tap_ok((ctr >> 31) & 1, "CTR_EL0 reads at EL0 (0x%llx, bit 31 RES1)", (unsigned long long)ctr);
	tap_diag("CTR_EL0 0x%llx: DminLine %u bytes, IminLine %u bytes", (unsigned long long)ctr,
		 4u << ((ctr >> 16) & 0xf), 4u << (ctr & 0xf));
	memset(line, 0x5a, sizeof(line));
	__asm__ volatile("dc cvau, %0\n\tdsb ish\n\tic ivau, %0\n\tdsb ish\n\tisb" :: "r"(line) : "memory");
	tap_ok(line[0] == 0x5a, "DC CVAU and IC IVAU run at EL0");
	__asm__ volatile("mrs %0, dczid_el0" : "=r"(dczid));
	if (dczid & (1 << 4)) {
		tap_skip("DC ZVA prohibited (DCZID_EL0 0x%llx)", (unsigned long long)dczid);
		return;
	}
	unsigned bs = 4u << (dczid & 0xf);
	static unsigned char zbuf[4096] __attribute__((aligned(4096)));

	if (bs > sizeof(zbuf) / 2) {
		tap_skip("DC ZVA block of %u bytes is larger than the test buffer", bs);
		return;
	}
	memset(zbuf, 0xff, sizeof(zbuf));
	__asm__ volatile("dc zva, %0" :: "r"(zbuf + bs) : "memory");
	int ok = zbuf[bs - 1] == 0xff && zbuf[2 * bs] == 0xff;

	for (unsigned i = bs; i < 2 * bs; i++)
		ok &= zbuf[i] == 0;
	tap_ok(ok, "DC ZVA at EL0 zeroes exactly one %u-byte block", bs);
}

#else

static void test_cache_registers(void)
{
	tap_skip("CTR_EL0 at EL0: arm64 only");
	tap_skip("DC CVAU and IC IVAU at EL0: arm64 only");
	tap_skip("DC ZVA at EL0: arm64 only");
}

#endif

int main(void)
{
	tap_init();
	test_cache_registers();
	test_generated_code();
	return tap_done();
}
