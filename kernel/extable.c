/*
 * extable.c - the exception table: instructions that may fault on purpose
 * (probes, user copies) and where to resume when they do. The arch's fault
 * handler asks extable_fixup(); the table itself is built by the linker
 * from the __extable sections of the arch's assembly.
 */
#include "types.h"
#include <asm/extable.h>

extern const struct extable_entry __start_extable[], __stop_extable[];
static struct fault_record fixup_fault;

u64 extable_find(u64 pc)
{
	for (const struct extable_entry *e = __start_extable; e < __stop_extable; e++)
		if (e->insn == pc)
			return e->fixup;
	return 0;
}

u64 extable_fixup(u64 pc, u64 syndrome, u64 addr)
{
	u64 fixup = extable_find(pc);

	if (fixup) {
		fixup_fault.esr = syndrome;
		fixup_fault.far = addr;
		fixup_fault.pc = pc;
		fixup_fault.count++;
	}
	return fixup;
}

const struct fault_record *last_fixup_fault(void)
{
	return &fixup_fault;
}
