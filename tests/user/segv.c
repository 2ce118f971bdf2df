/* segv.c - memory faults become SIGSEGV with the right si_code and si_addr,
 * and a handler can continue with siglongjmp:
 *   SEGV_MAPERR  nothing mapped there (a hole, NULL, a jump into a hole)
 *   SEGV_ACCERR  mapped without the needed permission (write to a read-only
 *                page, to our own text or rodata, any access to PROT_NONE,
 *                execution of a non-executable page or of the stack)
 * A user access to a kernel address is a SIGSEGV as well (its si_code is
 * only reported). A fault while SIGSEGV is blocked or ignored, or with the
 * default action, kills the process with SIGSEGV.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "tap.h"

#if defined(__aarch64__)
#define KERNEL_ADDR 0xffff000000100000UL	/* TTBR1 half: kernel only */
static const uint32_t ret_insn[] = { 0xd65f03c0 };	/* ret */
#elif defined(__microblaze__)
#define KERNEL_ADDR 0xc0100000UL		/* above the 3 GiB user limit */
static const uint32_t ret_insn[] = { 0xb60f0008, 0x80000000 };	/* rtsd r15, 8; nop */
#endif

/* The page size is the kernel's (4, 16 or 64 KiB on arm64). */
#define PAGE ((unsigned long)getpagesize())

static sigjmp_buf env;
static volatile int got_sig, got_code, got_errno;
static void *volatile got_addr;
static volatile int faults;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	faults++;
	got_sig = sig;
	got_code = si->si_code;
	got_errno = si->si_errno;
	got_addr = si->si_addr;
	siglongjmp(env, 1);
}

enum access { READ, WRITE, EXEC };

/* Try one access; 1 if it faulted (details in got_*), 0 if it worked. */
static int probe(enum access how, void *addr)
{
	got_sig = got_code = 0;
	got_addr = NULL;
	if (sigsetjmp(env, 1))
		return 1;
	if (how == READ)
		(void)*(volatile char *)addr;
	else if (how == WRITE)
		*(volatile char *)addr = 1;
	else
		((void (*)(void))addr)();
	return 0;
}

static const char *code_name(int code)
{
	return code == SEGV_MAPERR ? "SEGV_MAPERR" : code == SEGV_ACCERR ? "SEGV_ACCERR" : "other";
}

/* One point: the access faults with SIGSEGV, code and exact address. */
static void expect_fault(enum access how, void *addr, int code, const char *what)
{
	int faulted = probe(how, addr);

	tap_ok(faulted && got_sig == SIGSEGV && got_code == code && got_addr == addr,
	       "%s: SIGSEGV %s at %p (faulted %d, sig %d, code %d %s, addr %p)", what, code_name(code), addr,
	       faulted, got_sig, got_code, code_name(got_code), got_addr);
}

static void *map(int prot)
{
	void *p = mmap(NULL, PAGE, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int global_code_target(void) { return 7; }

static void test_maperr(void)
{
	char *hole = map(PROT_READ | PROT_WRITE);

	munmap(hole, PAGE);
	expect_fault(READ, hole + 0x123, SEGV_MAPERR, "read of an unmapped page");
	expect_fault(WRITE, hole + 0x456, SEGV_MAPERR, "write to an unmapped page");
	expect_fault(READ, NULL, SEGV_MAPERR, "read of NULL");
	expect_fault(EXEC, hole, SEGV_MAPERR, "jump to an unmapped page");
	tap_ok(got_errno == 0, "si_errno is 0");
}

static void test_accerr(void)
{
	char *ro = map(PROT_READ);
	char *none = map(PROT_NONE);
	char *rw = map(PROT_READ | PROT_WRITE);
	static const char rodata[] = "read-only data";

	tap_ok(ro && none && rw, "mmap of read-only, PROT_NONE and read-write pages");
	tap_ok(!probe(READ, ro + 8), "reading a read-only page works");
	expect_fault(WRITE, ro + 8, SEGV_ACCERR, "write to a read-only page");
	expect_fault(READ, none + 16, SEGV_ACCERR, "read of a PROT_NONE page");
	expect_fault(WRITE, (void *)(uintptr_t)global_code_target, SEGV_ACCERR, "write to our own text");
	expect_fault(WRITE, (void *)rodata, SEGV_ACCERR, "write to our own rodata");

	memset(rw, 0x5a, PAGE);
	mprotect(rw, PAGE, PROT_NONE);
	expect_fault(READ, rw + 100, SEGV_ACCERR, "read after mprotect(PROT_NONE)");
	mprotect(rw, PAGE, PROT_READ | PROT_WRITE);
	tap_ok(!probe(WRITE, rw + 100) && rw[4000] == 0x5a, "after mprotect(RW) the data is still there and writable");

	memcpy(rw, ret_insn, sizeof(ret_insn));
	expect_fault(EXEC, rw, SEGV_ACCERR, "execution of a non-executable (RW) page");
	munmap(ro, PAGE);
	munmap(none, PAGE);
	munmap(rw, PAGE);
}

static void test_stack_exec(void)
{
	uint32_t code[4];

	memcpy(code, ret_insn, sizeof(ret_insn));
	expect_fault(EXEC, code, SEGV_ACCERR, "execution on the stack (PT_GNU_STACK without X)");
}

static void test_kernel_addr(void)
{
	int r = probe(READ, (void *)KERNEL_ADDR);

	tap_ok(r && got_sig == SIGSEGV, "user read of kernel address %#lx: SIGSEGV", KERNEL_ADDR);
	tap_diag("kernel address read: si_code %d (%s), si_addr %p", got_code, code_name(got_code), got_addr);
	r = probe(WRITE, (void *)KERNEL_ADDR);
	tap_ok(r && got_sig == SIGSEGV, "user write to kernel address %#lx: SIGSEGV", KERNEL_ADDR);
}

static void test_recovery(void)
{
	char *hole = map(PROT_READ);
	sigset_t cur;
	int all = 1;

	munmap(hole, PAGE);
	sigprocmask(SIG_BLOCK, NULL, &cur);
	tap_ok(sigismember(&cur, SIGSEGV) == 0, "after siglongjmp out of the handler SIGSEGV is unblocked again");
	faults = 0;
	for (int i = 0; i < 200; i++)
		all &= probe(i & 1 ? WRITE : READ, hole + i);
	tap_ok(all && faults == 200, "200 faults in a row are all caught (%d)", faults);
}

/* In a child: fault with SIGSEGV blocked / ignored / default. */
static int fault_in_child(int mode)
{
	pid_t pid = fork();
	int st = -1;

	if (pid == 0) {
		sigset_t set;

		if (mode == 0) {
			sigemptyset(&set);
			sigaddset(&set, SIGSEGV);
			sigprocmask(SIG_BLOCK, &set, NULL);
		} else if (mode == 1) {
			signal(SIGSEGV, SIG_IGN);
		} else {
			signal(SIGSEGV, SIG_DFL);
		}
		(void)*(volatile char *)NULL;
		_exit(0);
	}
	waitpid(pid, &st, 0);
	return st;
}

static void test_fatal(void)
{
	static const char *const what[] = { "blocked", "ignored", "at its default action" };

	for (int mode = 0; mode < 3; mode++) {
		int st = fault_in_child(mode);
		tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
		       "a fault with SIGSEGV %s kills the process with SIGSEGV (status 0x%x)", what[mode], st);
	}
}

int main(void)
{
	struct sigaction sa;

	tap_init();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	tap_ok(sigaction(SIGSEGV, &sa, NULL) == 0, "SIGSEGV handler installed");
	test_maperr();
	test_accerr();
	test_stack_exec();
	test_kernel_addr();
	test_recovery();
	test_fatal();
	return tap_done();
}
