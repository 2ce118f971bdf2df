/* mm_bti.c - PROT_BTI (arm64's guarded pages, MP-5 and MM-18): where the
 * CPU has FEAT_BTI (AT_HWCAP2 says so) mmap and mprotect accept it, smaps
 * shows "bt", and an indirect call into a guarded page must land on a
 * BTI instruction that accepts it, or the caller gets SIGILL (ILL_ILLOPC);
 * unguarded pages take any landing. Guarded pages stay guarded in a fork
 * child and after mremap moves them. Without FEAT_BTI (and on MicroBlaze,
 * where 0x10 is no PROT bit) mprotect refuses the bit with EINVAL and mmap
 * ignores it. The argument checks keep Linux's order: a hole is ENOMEM for
 * a valid PROT_BTI.
 */
#include "mm_util.h"
#include <sys/auxv.h>
#include <sys/wait.h>

#ifndef PROT_BTI
#define PROT_BTI 0x10
#endif
#define HWCAP2_BTI_BIT (1UL << 17)

#define INSN_RET   0xd65f03c0u	/* ret */
#define INSN_BTI_C 0xd503245fu	/* bti c: a landing for calls (BLR) */
#define INSN_BTI_J 0xd503249fu	/* bti j: a landing for jumps (BR) only */

static sigjmp_buf ill_env;
static volatile int ill_code;

static void ill_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	ill_code = si->si_code;
	siglongjmp(ill_env, 1);
}

static int has_bti(void)
{
#if defined(__aarch64__)
	return (getauxval(AT_HWCAP2) & HWCAP2_BTI_BIT) != 0;
#else
	return 0;
#endif
}

/* An executable page whose code is first (then ret), made with prot. */
static unsigned *code_page(unsigned first, int prot)
{
	unsigned *p = anon(NULL, PAGE, PROT_READ | PROT_WRITE, 0);

	if (p == MAP_FAILED)
		return NULL;
	p[0] = first;
	p[1] = INSN_RET;
	__builtin___clear_cache((char *)p, (char *)(p + 2));
	if (mprotect(p, PAGE, prot) != 0) {
		munmap(p, PAGE);
		return NULL;
	}
	return p;
}

/* Call the code at p (BLR); 0 when it returned, else the SIGILL si_code (or -1). */
static int call_at(const void *p)
{
	struct sigaction sa, old;
	volatile int r = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = ill_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGILL, &sa, &old);
	ill_code = -1;
	if (sigsetjmp(ill_env, 1))
		r = ill_code ? ill_code : -1;
	else
		((void (*)(void))p)();
	sigaction(SIGILL, &old, NULL);
	return r;
}

/* One read-only page with a free page on each side (a point for the set-up); NULL if not. */
static char *page_between_holes(void)
{
	char *b = hole(3);
	char *m = b ? anon(b + PAGE, PAGE, PROT_READ, MAP_FIXED) : MAP_FAILED;

	tap_ok(m == b + PAGE, "set-up: one page between holes");
	return m == MAP_FAILED ? NULL : m;
}

static void test_without_bti(void)
{
	char *m = page_between_holes(), *b = m - PAGE;

	if (!m)
		return;
	errno = 0;
	tap_ok(mprotect(m, PAGE, PROT_READ | PROT_BTI) == -1 && errno == EINVAL, "MP-5 no FEAT_BTI: PROT_BTI is EINVAL");
	errno = 0;
	tap_ok(mprotect(b, PAGE, PROT_READ | PROT_BTI) == -1 && errno == EINVAL, "MP-5 ... before the hole's ENOMEM");
	munmap(m, PAGE);
	m = anon(NULL, PAGE, PROT_READ | PROT_EXEC | PROT_BTI, 0);
	tap_ok(m != MAP_FAILED, "MM-18 mmap ignores PROT_BTI without FEAT_BTI");
	if (m != MAP_FAILED) {
		tap_ok(vm_flag(m, "bt") == 0, "... and smaps shows no bt");
		munmap(m, PAGE);
	}
}

static void test_landing(void)
{
	unsigned *ret_plain = code_page(INSN_RET, PROT_READ | PROT_EXEC);
	unsigned *ret_guard = code_page(INSN_RET, PROT_READ | PROT_EXEC | PROT_BTI);
	unsigned *btic_guard = code_page(INSN_BTI_C, PROT_READ | PROT_EXEC | PROT_BTI);
	unsigned *btij_guard = code_page(INSN_BTI_J, PROT_READ | PROT_EXEC | PROT_BTI);

	tap_ok(ret_plain && ret_guard && btic_guard && btij_guard, "set-up: four code pages, three guarded by mprotect");
	if (!ret_plain || !ret_guard || !btic_guard || !btij_guard)
		return;
	tap_ok(vm_flag(ret_guard, "bt") == 1 && vm_flag(ret_plain, "bt") == 0, "smaps: bt on the guarded page only");
	tap_ok(call_at(ret_plain) == 0, "a call to an unguarded page lands anywhere");
	tap_ok(call_at(btic_guard) == 0, "a call to a guarded page lands on bti c");
	tap_ok(call_at(ret_guard) == ILL_ILLOPC, "a call to a guarded page's ret: SIGILL ILL_ILLOPC");
	tap_ok(call_at(btij_guard) == ILL_ILLOPC, "a call to a guarded page's bti j (jumps only): SIGILL");
	/* QEMU's translated-code cache keeps a page's guard from the page's first
	 * execution (on Linux too), so these pages run only after their last change. */
	unsigned *unguard = code_page(INSN_RET, PROT_READ | PROT_EXEC | PROT_BTI);
	unsigned *reguard = code_page(INSN_RET, PROT_READ | PROT_EXEC);

	tap_ok(unguard && mprotect(unguard, PAGE, PROT_READ | PROT_EXEC) == 0 && vm_flag(unguard, "bt") == 0 &&
	       call_at(unguard) == 0, "mprotect without PROT_BTI unguards a page");
	tap_ok(reguard && mprotect(reguard, PAGE, PROT_READ | PROT_EXEC | PROT_BTI) == 0 && vm_flag(reguard, "bt") == 1 &&
	       call_at(reguard) == ILL_ILLOPC, "mprotect with PROT_BTI guards a page");
	if (unguard)
		munmap(unguard, PAGE);
	if (reguard)
		munmap(reguard, PAGE);

	pid_t pid = fork();

	if (pid == 0)
		_exit(call_at(ret_guard) == ILL_ILLOPC && call_at(btic_guard) == 0 ? 0 : 1);
	tap_ok(pid > 0 && child_status(pid) == 0, "a fork child's copy is guarded too");

	unsigned *moved = mremap(ret_guard, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, (char *)ret_plain);

	tap_ok(moved == ret_plain && call_at(moved) == ILL_ILLOPC && vm_flag(moved, "bt") == 1,
	       "mremap moves the guard with the page");
	munmap(moved, PAGE);
	munmap(btic_guard, PAGE);
	munmap(btij_guard, PAGE);

	unsigned *direct = anon(NULL, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC | PROT_BTI, 0);

	tap_ok(direct != MAP_FAILED && vm_flag(direct, "bt") == 1, "MM-18 mmap with PROT_BTI makes a guarded VMA");
	if (direct != MAP_FAILED) {
		direct[0] = INSN_RET;
		__builtin___clear_cache((char *)direct, (char *)(direct + 1));
		tap_ok(call_at(direct) == ILL_ILLOPC, "... whose pages are guarded");
		munmap(direct, PAGE);
	}
}

static void test_with_bti_checks(void)
{
	char *m = page_between_holes(), *b = m - PAGE;

	if (!m)
		return;
	errno = 0;
	tap_ok(mprotect(b, 3 * PAGE, PROT_READ | PROT_WRITE | PROT_SEM | PROT_BTI) == -1 && errno == ENOMEM,
	       "MP-5 PROT_BTI is a valid bit: a hole gives ENOMEM");
	errno = 0;
	tap_ok(mprotect(m, PAGE, PROT_READ | 0x40) == -1 && errno == EINVAL, "MP-5 an unknown bit is still EINVAL");
	munmap(m, PAGE);
}

int main(void)
{
	int bti = has_bti();

	tap_init();
	tap_diag("%s", bti ? "the CPU has FEAT_BTI" : "no FEAT_BTI here");
	if (bti) {
		test_landing();
		test_with_bti_checks();
	} else {
		test_without_bti();
	}
	return tap_done();
}
