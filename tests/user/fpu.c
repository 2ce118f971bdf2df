/* fpu.c - the FPU status is the process's own.
 *
 * Two processes give their FPU status different values and check them
 * after 2000 sched_yield() switches each; a signal handler that changes
 * the status finds the interrupted value in its frame, and the interrupted
 * code gets its value back; a divide by zero reports itself.
 *
 * arm64: the status is FPCR (rounding mode) and FPSR (sticky flags), which
 * user code writes directly; the division gives infinity and sets FPSR.DZC.
 * MicroBlaze: the status is FSR, five sticky flags; there is no rounding
 * control (always to nearest), so the rounding point is a skip. User code
 * may read FSR (mfs) but not write it (mts is privileged): a program sets
 * it through the fsr field of a signal frame's sigcontext (Linux's
 * struct pt_regs layout). The FPU traps every flag it raises (QEMU), so
 * the division is SIGFPE with FPE_FLTDIV at the fdiv, and FSR reads 0
 * afterwards (Linux clears it when it takes the exception).
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"

#define SWITCHES 2000

#if defined(__aarch64__)
struct fpstat { uint64_t fpcr, fpsr; };

static struct fpstat get_status(void)
{
	struct fpstat s;

	__asm__ volatile("mrs %0, fpcr\n\tmrs %1, fpsr" : "=r"(s.fpcr), "=r"(s.fpsr));
	return s;
}

static int set_status(struct fpstat s)
{
	__asm__ volatile("msr fpcr, %0\n\tmsr fpsr, %1" :: "r"(s.fpcr), "r"(s.fpsr));
	return 0;
}

#define RM(x) ((uint64_t)(x) << 22)
static const struct fpstat parent_val = { RM(3), 0x3 };	/* toward zero; IOC, DZC */
static const struct fpstat child_val = { RM(1), 0xc };	/* toward +inf; OFC, UFC */
static const struct fpstat handler_val = { RM(2), 0x10 };	/* toward -inf; IXC */

static int same(struct fpstat a, struct fpstat b)
{
	return (a.fpcr & RM(3)) == (b.fpcr & RM(3)) && (a.fpsr & 0x1f) == (b.fpsr & 0x1f);
}

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)sig; (void)si; (void)uc;
	set_status(handler_val);
}
#define FRAME_WHAT "the handler's own FPCR/FPSR do not leak into the interrupted code"
#elif defined(__microblaze__)
struct fpstat { uint32_t fsr; };

static struct fpstat get_status(void)
{
	struct fpstat s;

	__asm__ volatile("mfs %0, rfsr" : "=r"(s.fsr));
	return s;
}

/* MicroBlaze's ucontext: uc_mcontext (struct sigcontext: struct pt_regs,
 * oldmask) at 20; in it pc at 128 and fsr at 144. */
#define UC_PC(uc)  ((uint32_t *)((char *)(uc) + 20 + 128))
#define UC_FSR(uc) ((uint32_t *)((char *)(uc) + 20 + 144))

static volatile uint32_t want_fsr, seen_fsr;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)sig; (void)si;
	seen_fsr = *UC_FSR(uc);
	*UC_FSR(uc) = want_fsr;
}

/* FSR through a signal frame: the handler writes it into the frame. */
static int set_status(struct fpstat s)
{
	want_fsr = s.fsr;
	kill(getpid(), SIGUSR1);
	return 0;
}

static const struct fpstat parent_val = { 0x0a };	/* DZ, UF */
static const struct fpstat child_val = { 0x15 };	/* IO, OF, DO */

static int same(struct fpstat a, struct fpstat b)
{
	return a.fsr == b.fsr;
}
#define FRAME_WHAT "the frame's fsr holds the interrupted FSR, and sigreturn loads the frame's"
#else
#error "fpu: unsupported architecture"
#endif

static void install_usr1(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
}

/* Set the status to v, then check it over SWITCHES yields; 1 if it held. */
static int hold(struct fpstat v)
{
	set_status(v);
	for (int i = 0; i < SWITCHES; i++) {
		sched_yield();
		if (!same(get_status(), v))
			return 0;
	}
	return 1;
}

static void test_two_processes(void)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0)
		_exit(hold(child_val) ? 0 : 1);
	int ok = hold(parent_val);

	waitpid(pid, &status, 0);
	tap_ok(ok, "the parent's FPU status survives %d switches to the child", SWITCHES);
	tap_ok(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "the child's FPU status survives %d switches to the parent", SWITCHES);
}

static void test_signal_frame(void)
{
	set_status(parent_val);
#if defined(__aarch64__)
	kill(getpid(), SIGUSR1);
	tap_ok(same(get_status(), parent_val), FRAME_WHAT);
#else
	want_fsr = child_val.fsr;
	kill(getpid(), SIGUSR1);
	tap_ok(seen_fsr == parent_val.fsr && get_status().fsr == child_val.fsr, FRAME_WHAT " (saw 0x%x, now 0x%x)",
	       (unsigned)seen_fsr, (unsigned)get_status().fsr);
#endif
}

#if defined(__aarch64__)
/* a / b in single precision, on bit patterns (the test is built with
 * -mgeneral-regs-only: the compiler itself uses no FP register) */
static uint32_t fdiv_bits(uint32_t a, uint32_t b)
{
	uint32_t q;

	__asm__ volatile("fmov s0, %w1\n\tfmov s1, %w2\n\tfdiv s0, s0, s1\n\tfmov %w0, s0"
			 : "=r"(q) : "r"(a), "r"(b));
	return q;
}

static void test_rounding_and_division(void)
{
	const uint32_t one = 0x3f800000, three = 0x40400000;
	uint32_t down, up, q;

	set_status((struct fpstat){ RM(3), 0 });
	down = fdiv_bits(one, three);
	set_status((struct fpstat){ RM(1), 0 });
	up = fdiv_bits(one, three);
	tap_ok(down == 0x3eaaaaaa && up == 0x3eaaaaab,
	       "the rounding mode is the process's: 1/3 toward zero 0x%x, toward +inf 0x%x", down, up);
	set_status((struct fpstat){ 0, 0 });
	q = fdiv_bits(one, 0);
	tap_ok(q == 0x7f800000 && (get_status().fpsr & 0x2), "1/0 gives infinity and sets FPSR.DZC");
}
#else
static volatile int fpe_code;
static volatile uint32_t fpe_addr, fdiv_addr;

static void on_fpe(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	fpe_code = si->si_code;
	fpe_addr = (uint32_t)(uintptr_t)si->si_addr;
	fdiv_addr = *UC_PC(uc);
	*UC_PC(uc) += 4;	/* skip the fdiv */
}

static void test_rounding_and_division(void)
{
	struct sigaction sa;
	uint32_t one = 0x3f800000, zero = 0, q = 0x12345678;

	tap_skip("rounding modes: MicroBlaze's FPU always rounds to nearest");
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fpe;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGFPE, &sa, NULL);
	/* fdiv rD, rA, rB computes rB / rA */
	__asm__ volatile("fdiv %0, %1, %2" : "+r"(q) : "r"(zero), "r"(one));
	tap_ok(fpe_code == 3 && fpe_addr == fdiv_addr && q == 0x12345678 && get_status().fsr == 0,
	       "1/0: SIGFPE, FPE_FLTDIV at the fdiv, no result, FSR 0 after (code %d)", fpe_code);
}
#endif

int main(void)
{
	tap_init();
	install_usr1();
	test_two_processes();
	test_signal_frame();
	test_rounding_and_division();
	return tap_done();
}
