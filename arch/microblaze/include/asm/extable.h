/*
 * extable.h - exception fixups: an instruction that may fault on purpose
 * (a probe, later a user copy) is listed with the address to resume at.
 * The same interface as arm64's, so tests are shared.
 */
#ifndef ASM_EXTABLE_H
#define ASM_EXTABLE_H

#include "types.h"

struct extable_entry {
	u32 insn;	/* address of the instruction that may fault */
	u32 fixup;	/* where to continue if it does */
};

/* Fixup address for a fault at pc, or 0 if pc is not in the table. */
u64 extable_find(u64 pc);

/* For a fault at pc (syndrome and address as the arch reports them): the
 * fixup address, with the fault recorded for last_fixup_fault(); or 0. */
u64 extable_fixup(u64 pc, u64 syndrome, u64 addr);

/*
 * Read or write 8 (or 4) bytes at addr; return 0, or -14 (EFAULT) if the
 * access faulted. The fault is recorded (see last_fixup_fault()). The
 * 8-byte forms are two word accesses, lower address first.
 */
int probe_read_u64(const void *addr, u64 *val);
int probe_write_u64(void *addr, u64 val);
int probe_read_u32(const void *addr, u32 *val);
int probe_write_u32(void *addr, u32 val);

struct fault_record {
	u64 esr, far, pc;	/* MicroBlaze: ESR, EAR, and the faulting PC */
	u64 count;		/* faults fixed up so far */
};
/* The most recent fault that an extable fixup handled. */
const struct fault_record *last_fixup_fault(void);

#endif
