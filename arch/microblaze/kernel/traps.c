/*
 * traps.c - MicroBlaze exception handling in C: system calls, interrupts,
 * user faults (demand paging, then signals), fault fixups for user copies
 * and probes, and for everything unexpected a report in words followed by
 * a failing power-off.
 *
 * entry.S calls mb_exception() in virtual mode with interrupts off, with
 * every register of the interrupted code saved in *regs; what the handler
 * leaves in *regs (regs->pc in particular) is restored on return. For an
 * entry from user mode *regs is the process's user frame, at the top of
 * its kernel stack.
 */
#include "types.h"
#include "printk.h"
#include "arch.h"
#include "irq.h"
#include "proc.h"
#include "mm.h"
#include "mm_check.h"
#include "syscall.h"
#include "signal.h"
#include "errno.h"
#include "mb.h"
#include "uaccess.h"
#include <asm/ptrace.h>
#include <asm/extable.h>
#include <asm/memlayout.h>

/* si_code values beyond kernel/signal.h's (Linux's numbers). */
#define ILL_PRVOPC	5
#define FPE_INTDIV	1
#define FPE_FLTDIV	3
#define FPE_FLTOVF	4
#define FPE_FLTUND	5
#define FPE_FLTRES	6
#define FPE_FLTINV	7
#define TRAP_BRKPT	1


int probe_write_words(void *addr, u32 first, u32 second);

/* Two word stores in memory order, whatever the endianness. */
int probe_write_u64(void *addr, u64 val)
{
	u32 w[2];

	__builtin_memcpy(w, &val, sizeof(w));
	return probe_write_words(addr, w[0], w[1]);
}

/* The ESR exception cause in words. */
static const char *ec_name(unsigned ec)
{
	switch (ec) {
	case EC_UNALIGNED: return "unaligned data access";
	case EC_ILLEGAL_OPCODE: return "illegal opcode";
	case EC_IBUS: return "instruction bus error";
	case EC_DBUS: return "data bus error";
	case EC_DIV_ZERO: return "divide by zero";
	case EC_FPU: return "floating-point exception";
	case EC_PRIVILEGED: return "privileged instruction (or stack protection)";
	case EC_DATA_STORAGE: return "data storage (permission) fault";
	case EC_INSN_STORAGE: return "instruction storage (no execute) fault";
	case EC_DATA_TLB_MISS: return "data TLB miss with no mapping";
	case EC_INSN_TLB_MISS: return "instruction TLB miss with no mapping";
	default: return "unrecognised exception cause";
	}
}

static const char *const kind_names[] = {
	"reset vector", "user exception (brki 0x8)", "interrupt", "break", "hardware exception"
};

/* Print everything known about an unexpected exception, then stop. */
static void __attribute__((noreturn)) die(struct pt_regs *regs)
{
	unsigned ec = regs->esr & ESR_EC_MASK;
	const char *kind = regs->kind < 5 ? kind_names[regs->kind] : "unknown entry";

	printk("\nUnexpected exception: %s from %s mode\n", kind,
	       (regs->msr & MSR_UMS) ? "user" : (regs->msr & MSR_VMS) ? "kernel virtual" : "real");
	if (regs->kind == KIND_HW) {
		printk("  ESR 0x%08x  EC 0x%02x: %s%s%s\n", (unsigned)regs->esr, ec, ec_name(ec),
		       (ec == EC_DATA_STORAGE || ec == EC_DATA_TLB_MISS) && (regs->esr & ESR_S) ?
		       ", on a store" : "", (regs->esr & ESR_DS) ? ", in a delay slot" : "");
		printk("  EAR 0x%08x  (the faulting address)\n", (unsigned)regs->ear);
	}
	printk("  PC  0x%08x  MSR 0x%08x  BTR 0x%08x\n", (unsigned)regs->pc, (unsigned)regs->msr,
	       (unsigned)regs->btr);
	for (int i = 0; i < 32; i += 4)
		printk("  r%-2d 0x%08x  r%-2d 0x%08x  r%-2d 0x%08x  r%-2d 0x%08x\n", i,
		       (unsigned)regs->r[i], i + 1, (unsigned)regs->r[i + 1], i + 2,
		       (unsigned)regs->r[i + 2], i + 3, (unsigned)regs->r[i + 3]);
	panic("unexpected exception (%s, ESR 0x%08x) at 0x%08x", kind, (unsigned)regs->esr,
	      (unsigned)regs->pc);
}

/* A kernel-mode access fault at a listed instruction resumes at its fixup. */
static bool fixup(struct pt_regs *regs)
{
	unsigned ec = regs->esr & ESR_EC_MASK;
	u64 to;

	if (regs->msr & MSR_UMS)
		return false;
	if (ec != EC_DATA_STORAGE && ec != EC_DATA_TLB_MISS && ec != EC_UNALIGNED)
		return false;
	to = extable_fixup(regs->pc, regs->esr, regs->ear);
	if (!to)
		return false;
	regs->pc = (u32)to;
	return true;
}

/* Is this exception cause an MMU fault that mm_fault() may resolve? */
static bool is_mm_fault(unsigned ec)
{
	return ec == EC_DATA_TLB_MISS || ec == EC_INSN_TLB_MISS || ec == EC_DATA_STORAGE ||
	       ec == EC_INSN_STORAGE;
}

/* The access an MMU fault made: instruction fetch, store (ESR.S) or load. */
static enum fault_access mmu_access(u32 esr)
{
	unsigned ec = esr & ESR_EC_MASK;

	if (ec == EC_INSN_TLB_MISS || ec == EC_INSN_STORAGE)
		return FAULT_EXEC;
	return (esr & ESR_S) ? FAULT_WRITE : FAULT_READ;
}

/*
 * A kernel access to a user address faulted (a user copy): the refill
 * handler found no translation, or the page forbids the store. Let the
 * process's address space satisfy it; true if the access can be retried
 * (r17, the saved pc, points at the faulting instruction).
 */
static bool kernel_user_fault(struct pt_regs *regs)
{
	struct proc *p = current_proc();
	unsigned ec = regs->esr & ESR_EC_MASK;

	if (!p || !p->mm || regs->ear >= USER_VA_END ||
	    (ec != EC_DATA_TLB_MISS && ec != EC_DATA_STORAGE))
		return false;
	int rc = mm_fault(proc_mm_limits(p), regs->ear, mmu_access(regs->esr));

	mm_check_after("fault", regs->ear);
	if (rc != 0)
		return false;
	p->minflt++;
	return true;
}

/* brki r14, 0x8: number in r12, arguments in r5..r10, result in r3. */
static void user_syscall(struct pt_regs *regs)
{
	regs->pc += 4;	/* r14 held the brki's own address: resume after it */
	regs->r[3] = (u32)syscall_dispatch(regs->r[12], (const unsigned long *)&regs->r[5]);
}

/*
 * An unaligned user load or store (EC_UNALIGNED), done here as Linux's
 * MicroBlaze port does it: ESR says the width (W: a word, else a
 * halfword), the direction (S) and the register (Rx); the bytes at EAR are
 * moved one by one through the user copies, so a page that is not there
 * yet is faulted in like any user access, and the value is in the CPU's
 * byte order. r0 is never written. Returns 0 with the frame resuming after
 * the access (r17 already points past it; in a delay slot, at the branch's
 * target, BTR), or the address space's -SEGV_MAPERR/-SEGV_ACCERR when the
 * bytes cannot be reached.
 */
static int emulate_unaligned(struct proc *p, struct pt_regs *regs)
{
	unsigned rx = (regs->esr & ESR_RX_MASK) >> ESR_RX_SHIFT;
	size_t n = (regs->esr & ESR_W) ? 4 : 2;
	bool store = regs->esr & ESR_S;
	u32 val = regs->r[rx];
	u16 half = (u16)val;
	u8 *k = n == 4 ? (u8 *)&val : (u8 *)&half;

	for (size_t i = 0; i < n; i++) {
		unsigned long at = regs->ear + i;
		long rc = store ? copy_to_user((void *)at, &k[i], 1) : copy_from_user(&k[i], (const void *)at, 1);

		if (rc) {
			rc = at < USER_VA_END ? mm_fault(proc_mm_limits(p), at, store ? FAULT_WRITE : FAULT_READ) :
						-SEGV_MAPERR;
			return rc == -SEGV_ACCERR ? -SEGV_ACCERR : -SEGV_MAPERR;
		}
	}
	if (!store && rx != 0)
		regs->r[rx] = n == 4 ? val : half;
	if (regs->esr & ESR_DS)
		regs->pc = regs->btr;
	return 0;
}

/* The SIGFPE si_code for the FSR bits an FPU exception set (Linux's order). */
static int fpe_code(u32 fsr)
{
	if (fsr & FSR_IO)
		return FPE_FLTINV;
	if (fsr & FSR_OF)
		return FPE_FLTOVF;
	if (fsr & FSR_UF)
		return FPE_FLTUND;
	if (fsr & FSR_DZ)
		return FPE_FLTDIV;
	if (fsr & FSR_DO)
		return FPE_FLTRES;
	return 0;
}

/*
 * A hardware exception from user mode. An MMU fault goes to the address
 * space first; what it cannot resolve, and every other cause, becomes a
 * signal forced on the process with Linux's si_code and si_addr. For the
 * non-MMU causes r17 is the next instruction: the frame is wound back to
 * the faulting one (in a delay slot, to the branch's target, BTR), so a
 * handler that returns retries it, as on Linux.
 */
static void user_hw_exception(struct pt_regs *regs)
{
	struct proc *p = current_proc();
	unsigned ec = regs->esr & ESR_EC_MASK;
	struct ksiginfo si = { .addr = regs->ear };
	int rc;

	if (is_mm_fault(ec)) {
		rc = regs->ear < USER_VA_END ? mm_fault(proc_mm_limits(p), regs->ear, mmu_access(regs->esr)) :
					       -SEGV_MAPERR;
		mm_check_after("fault", regs->ear);
		if (rc == 0) {
			p->minflt++;
			return;
		}
		si.signo = rc == -ENOMEM ? SIGBUS : SIGSEGV;
		si.code = rc == -ENOMEM ? BUS_ADRERR : rc == -SEGV_ACCERR ? SEGV_ACCERR : SEGV_MAPERR;
		signal_force(p, &si);
		return;
	}
	if (ec == EC_UNALIGNED) {
		rc = emulate_unaligned(p, regs);
		if (rc == 0)
			return;
		si.signo = SIGSEGV;
		si.code = -rc;
		signal_force(p, &si);
		return;
	}
	regs->pc = (regs->esr & ESR_DS) ? regs->btr : regs->pc - 4;
	switch (ec) {
	case EC_IBUS:
	case EC_DBUS:
		si.signo = SIGBUS;
		si.code = BUS_ADRERR;
		break;
	case EC_DIV_ZERO:
		si.signo = SIGFPE;
		si.code = FPE_INTDIV;
		si.addr = regs->pc;
		break;
	case EC_FPU:
		/* the cause is in FSR's new bits; cleared for the next one, as Linux does */
		si.signo = SIGFPE;
		si.code = fpe_code(mfs(rfsr) & ~p->ctx.fsr_base);
		si.addr = regs->pc;
		mts(rfsr, 0);
		p->ctx.fsr_base = 0;
		break;
	case EC_PRIVILEGED:
		si.signo = SIGILL;
		si.code = ILL_PRVOPC;
		si.addr = regs->pc;
		break;
	default:	/* illegal opcode, and anything unexpected */
		si.signo = SIGILL;
		si.code = ILL_ILLOPC;
		si.addr = regs->pc;
	}
	signal_force(p, &si);
}

/* Everything entered from user mode; then the work before going back. */
static void from_user(struct pt_regs *regs)
{
	struct ksiginfo si = { .signo = SIGTRAP, .code = TRAP_BRKPT, .addr = regs->pc };

	switch (regs->kind) {
	case KIND_USER_EXC:
		user_syscall(regs);
		break;
	case KIND_IRQ:
		irq_dispatch();
		break;
	case KIND_HW:
		user_hw_exception(regs);
		break;
	default:	/* brki rD, 0x18 or 0x0 from user code: a breakpoint */
		regs->pc += 4;
		signal_force(current_proc(), &si);
	}
	user_return_work(regs);
}

void mb_exception(struct pt_regs *regs)
{
	if (regs->msr & MSR_UMS) {
		from_user(regs);
		return;
	}
	if (regs->kind == KIND_IRQ) {
		irq_dispatch();
		return;
	}
	if (regs->kind == KIND_HW && (kernel_user_fault(regs) || fixup(regs)))
		return;
	die(regs);
}
