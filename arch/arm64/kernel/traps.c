/*
 * traps.c - arm64 exception handling: fault fixups for probes, and a clear
 * report followed by a failing power-off for everything unexpected.
 */
#include "types.h"
#include "printk.h"
#include "arch.h"
#include "irq.h"	/* irq_dispatch(): IRQ vectors (added with kernel/irq.c) */
#include "smp.h"	/* kernel_lock() */
#include "proc.h"
#include "mm.h"
#include "mm_check.h"
#include "syscall.h"
#include "signal.h"
#include "errno.h"
#include <asm/ptrace.h>
#include <asm/memlayout.h>
#include <asm/extable.h>
#include <asm/sysregs.h>

#define ESR_EC(esr)	(((esr) >> 26) & 0x3f)
#define ESR_ISS(esr)	((esr) & 0x1ffffff)
#define EC_DABT_CUR	0x25	/* data abort taken without a change of EL */


/* The exception class in words (Arm ARM, ESR_ELx.EC). */
static const char *ec_name(unsigned ec)
{
	switch (ec) {
	case 0x00: return "unknown reason (undefined instruction)";
	case 0x01: return "trapped WFI/WFE";
	case 0x07: return "FP/SIMD access trapped";
	case 0x0e: return "illegal execution state";
	case 0x15: return "SVC instruction";
	case 0x16: return "HVC instruction";
	case 0x17: return "SMC instruction";
	case 0x18: return "trapped MSR/MRS/system instruction";
	case 0x20: return "instruction abort from a lower EL";
	case 0x21: return "instruction abort without a change of EL";
	case 0x22: return "PC alignment fault";
	case 0x24: return "data abort from a lower EL";
	case 0x25: return "data abort without a change of EL";
	case 0x26: return "SP alignment fault";
	case 0x2f: return "SError interrupt";
	case 0x3c: return "BRK instruction";
	default: return "unrecognised exception class";
	}
}

/* The fault status code of an abort (ISS.DFSC/IFSC) in words. */
static const char *fsc_name(unsigned fsc)
{
	if (fsc == FSC_TRANS_LEVEL_M1)
		return "translation fault";
	if (fsc == FSC_ADDR_LEVEL_M1)
		return "address size fault";
	switch (fsc & 0x3c) {
	case 0x04: return "translation fault";
	case 0x08: return "access flag fault";
	case 0x0c: return "permission fault";
	}
	switch (fsc) {
	case 0x00: case 0x01: case 0x02: case 0x03: return "address size fault";
	case 0x10: return "synchronous external abort";
	case 0x21: return "alignment fault";
	case 0x30: return "TLB conflict abort";
	default: return "other fault";
	}
}

/* The walk level a translation, address size, access flag or permission
 * fault status code names: bits [1:0], or -1 for FEAT_LPA2's level -1 codes. */
static int fsc_level(unsigned fsc)
{
	if (fsc == FSC_TRANS_LEVEL_M1 || fsc == FSC_ADDR_LEVEL_M1)
		return -1;
	return (int)(fsc & 3);
}

static const char *const kind_group[] = {
	"EL1 with SP_EL0", "EL1", "EL0 (AArch64)", "EL0 (AArch32)"
};
static const char *const kind_type[] = { "synchronous", "IRQ", "FIQ", "SError" };

/* Print everything known about an unexpected exception, then stop. */
static void __attribute__((noreturn)) die(struct pt_regs *regs, unsigned kind)
{
	unsigned ec = ESR_EC(regs->esr);

	printk("\nUnexpected exception: %s from %s\n", kind_type[kind & 3], kind_group[kind >> 2]);
	printk("  ESR 0x%016llx  EC 0x%02x: %s\n", (unsigned long long)regs->esr, ec, ec_name(ec));
	if (ec == 0x20 || ec == 0x21 || ec == 0x24 || ec == 0x25)
		printk("  fault: %s, level %d%s\n", fsc_name(regs->esr & 0x3f), fsc_level(regs->esr & 0x3f),
		       (ec >= 0x24 && (regs->esr & (1 << 6))) ? ", on a write" : "");
	if (ec == 0x25 && regs->far < USER_VA_END && (regs->pstate & PSR_PAN) &&
	    (regs->esr & 0x3c) == 0x0c)
		printk("  a privileged load or store to user memory with PAN set "
		       "(only the user copies in uaccess.S may touch it)\n");
	printk("  ELR 0x%016llx  FAR 0x%016llx  SPSR 0x%08llx\n", (unsigned long long)regs->pc,
	       (unsigned long long)regs->far, (unsigned long long)regs->pstate);
	for (int i = 0; i < 31; i += 2) {
		if (i == 30)
			printk("  x30 0x%016llx  sp  0x%016llx\n", (unsigned long long)regs->regs[30],
			       (unsigned long long)regs->sp);
		else
			printk("  x%-2d 0x%016llx  x%-2d 0x%016llx\n", i, (unsigned long long)regs->regs[i],
			       i + 1, (unsigned long long)regs->regs[i + 1]);
	}
	panic("unexpected exception (EC 0x%02x) at 0x%llx", ec, (unsigned long long)regs->pc);
}

/* Is this ESR an abort whose fault status says the translation was missing,
 * lacked the access flag, or forbade the access (the kinds mm_fault handles)? */
static bool is_mm_fault(u64 esr)
{
	unsigned fsc = esr & 0x3f;

	return FSC_IS_TRANSLATION(fsc) || (fsc & 0x3c) == 0x08 || (fsc & 0x3c) == 0x0c;
}

/* The access an abort made: instruction fetch, write, or read. */
static enum fault_access abort_access(u64 esr)
{
	if (ESR_EC(esr) == 0x20 || ESR_EC(esr) == 0x21)
		return FAULT_EXEC;
	return (esr & (1 << 6)) ? FAULT_WRITE : FAULT_READ;	/* WnR */
}

extern char uaccess_text_start[], uaccess_text_end[];

/*
 * A user copy (uaccess.S, whose user accesses are LDTR/STTR) faulted on a
 * user address: let the process's address space satisfy it. True if the
 * access can be retried. A fault on a user address from anywhere else is a
 * privileged access to user memory - with PAN on, a permission fault on a
 * page that is present - and is never "fixed" by paging (that would retry
 * it forever): it goes to the extable or is reported.
 */
static bool kernel_user_fault(struct pt_regs *regs)
{
	struct proc *p = current_proc();

	if (regs->pc < (u64)uaccess_text_start || regs->pc >= (u64)uaccess_text_end)
		return false;
	if (!p || !p->mm || regs->far >= USER_VA_END || !is_mm_fault(regs->esr))
		return false;
	int rc = mm_fault(proc_mm_limits(p), regs->far, abort_access(regs->esr));

	mm_check_after("fault", regs->far);
	if (rc != 0)
		return false;
	p->minflt++;
	return true;
}

/* A synchronous exception from EL0: a system call, a fault, or a bad instruction. */
static void el0_sync(struct pt_regs *regs)
{
	struct proc *p = current_proc();
	unsigned ec = ESR_EC(regs->esr);
	struct ksiginfo si = { .addr = regs->far };
	int rc;

	switch (ec) {
	case 0x15:	/* SVC */
		regs->regs[0] = (u64)syscall_dispatch(regs->regs[8], (const unsigned long *)regs->regs);
		return;
	case 0x20:	/* instruction abort */
	case 0x24:	/* data abort */
		rc = regs->far < USER_VA_END && is_mm_fault(regs->esr) ?
			mm_fault(proc_mm_limits(p), regs->far, abort_access(regs->esr)) : -SEGV_MAPERR;
		mm_check_after("fault", regs->far);
		if (rc == 0) {
			p->minflt++;
			return;
		}
		si.signo = rc == -ENOMEM ? SIGBUS : SIGSEGV;
		si.code = rc == -ENOMEM ? BUS_ADRERR : rc == -SEGV_ACCERR ? SEGV_ACCERR : SEGV_MAPERR;
		break;
	case 0x22:	/* PC alignment */
	case 0x26:	/* SP alignment */
		si.signo = SIGBUS;
		si.code = BUS_ADRALN;
		break;
	case 0x3c:	/* BRK */
		si.signo = SIGTRAP;
		si.code = 1;
		si.addr = regs->pc;
		break;
	default:	/* undefined instruction and everything else */
		si.signo = SIGILL;
		si.code = ILL_ILLOPC;
		si.addr = regs->pc;
	}
	signal_force(p, &si);
}

/* Called from entry.S for every exception; kind = (group << 2) | type. */
void arm64_exception(struct pt_regs *regs, unsigned long kind)
{
	unsigned group = kind >> 2, type = kind & 3;

	if (group == VEC_EL0_64 && (type == VEC_SYNC || type == VEC_IRQ)) {
		kernel_lock();	/* (kernel/smp.h) released on the way back to user mode */
		if (type == VEC_SYNC)
			el0_sync(regs);
		else
			irq_dispatch();
		user_return_work(regs);
		kernel_unlock();	/* (on the CPU we return on, which holds it now) */
		return;
	}
	/* IRQs taken from EL1 (the idle loop, where the kernel lock is not
	 * held) go to the interrupt core (kernel/irq.c). CPU 0's (every
	 * device's SPI is routed to it, and its tick wakes sleepers) take the
	 * kernel lock; a secondary's are its own timer and SGIs, which with no
	 * process on it touch only per-CPU state and its call slot. */
	if (type == VEC_IRQ && group == VEC_EL1H) {
		bool take = arch_cpu_id() == 0 && !kernel_lock_held();

		if (take)
			kernel_lock();
		irq_dispatch();
		if (take)
			kernel_unlock();
		return;
	}
	if (type == VEC_SYNC && group == VEC_EL1H && ESR_EC(regs->esr) == EC_DABT_CUR) {
		u64 fixup;

		if (kernel_user_fault(regs))
			return;
		fixup = extable_fixup(regs->pc, regs->esr, regs->far);
		if (fixup) {
			regs->pc = fixup;
			return;
		}
	}
	die(regs, (unsigned)kind);
}
