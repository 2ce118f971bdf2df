/*
 * traps.c - arm64 exception handling: fault fixups for probes, and a clear
 * report followed by a failing power-off for everything unexpected.
 */
#include "types.h"
#include "printk.h"
#include "arch.h"
#include <asm/ptrace.h>
#include <asm/extable.h>

#define ESR_EC(esr)	(((esr) >> 26) & 0x3f)
#define ESR_ISS(esr)	((esr) & 0x1ffffff)
#define EC_DABT_CUR	0x25	/* data abort taken without a change of EL */

extern const struct extable_entry __start_extable[], __stop_extable[];
static struct fault_record fixup_fault;

u64 extable_find(u64 pc)
{
	for (const struct extable_entry *e = __start_extable; e < __stop_extable; e++)
		if (e->insn == pc)
			return e->fixup;
	return 0;
}

const struct fault_record *last_fixup_fault(void)
{
	return &fixup_fault;
}

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
		printk("  fault: %s, level %u%s\n", fsc_name(regs->esr & 0x3f),
		       (unsigned)(regs->esr & 3),
		       (ec >= 0x24 && (regs->esr & (1 << 6))) ? ", on a write" : "");
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

/* Called from entry.S for every exception; kind = (group << 2) | type. */
void arm64_exception(struct pt_regs *regs, unsigned long kind)
{
	if ((kind & 3) == VEC_SYNC && (kind >> 2) == VEC_EL1H && ESR_EC(regs->esr) == EC_DABT_CUR) {
		u64 fixup = extable_find(regs->pc);

		if (fixup) {
			fixup_fault.esr = regs->esr;
			fixup_fault.far = regs->far;
			fixup_fault.pc = regs->pc;
			fixup_fault.count++;
			regs->pc = fixup;
			return;
		}
	}
	die(regs, (unsigned)kind);
}
