/*
 * cpuinfo.c - /proc/cpuinfo as arm64 Linux prints it: BogoMIPS from the
 * timer frequency, the Features read from the ID registers, and the
 * fields of MIDR_EL1, one block per online CPU (the Features are the
 * boot CPU's: QEMU's CPUs are all alike; the MIDR is each CPU's own).
 */
#include "types.h"
#include "printk.h"
#include "procfs_pid.h"
#include "arch_arm64.h"
#include "smp.h"
#include "bbml2.h"

#define FIELD(reg, shift) (((reg) >> (shift)) & 0xf)

/* A feature and the ID register field that shows it: present when the
 * field is at least min (signed fields, where 0xf means absent, use min
 * 0 and are checked for 0xf). */
struct feature {
	const char *name;
	int reg;		/* 0: ID_AA64PFR0, 1: ID_AA64ISAR0, 2: ID_AA64ISAR1 */
	int shift, min;
	bool is_signed;
};

static const struct feature features[] = {
	{ "fp", 0, 16, 0, true }, { "asimd", 0, 20, 0, true },
	{ "aes", 1, 4, 1, false }, { "pmull", 1, 4, 2, false }, { "sha1", 1, 8, 1, false },
	{ "sha2", 1, 12, 1, false }, { "crc32", 1, 16, 1, false }, { "atomics", 1, 20, 2, false },
	{ "fphp", 0, 16, 1, true }, { "asimdhp", 0, 20, 1, true }, { "asimdrdm", 1, 28, 1, false },
	{ "jscvt", 2, 12, 1, false }, { "fcma", 2, 16, 1, false }, { "lrcpc", 2, 20, 1, false },
	{ "dcpop", 2, 0, 1, false }, { "sha3", 1, 32, 1, false }, { "sm3", 1, 36, 1, false },
	{ "sm4", 1, 40, 1, false }, { "asimddp", 1, 44, 1, false }, { "sha512", 1, 12, 2, false },
	{ "asimdfhm", 1, 48, 1, false }, { "flagm", 1, 52, 1, false }, { "ilrcpc", 2, 20, 2, false },
};

/* One CPU's block, from the boot CPU's feature registers and its own MIDR. */
static size_t cpuinfo_one(char *buf, size_t size, int cpu, u64 midr)
{
	u64 regs[3] = { read_sysreg(id_aa64pfr0_el1), read_sysreg(id_aa64isar0_el1), read_sysreg(id_aa64isar1_el1) };
	u64 freq = read_sysreg(cntfrq_el0);
	size_t n = 0;

	/* Linux's BogoMIPS on arm64: twice the timer frequency in MHz. */
	n += (size_t)snprintk(buf + n, size - n, "processor\t: %d\nBogoMIPS\t: %llu.%02llu\nFeatures\t:", cpu,
			      (unsigned long long)(freq * 2 / 1000000),
			      (unsigned long long)(freq * 2 / 10000 % 100));
	for (unsigned i = 0; i < sizeof(features) / sizeof(features[0]) && n < size; i++) {
		const struct feature *f = &features[i];
		unsigned v = FIELD(regs[f->reg], f->shift);
		bool has = f->is_signed ? v != 0xf && v >= (unsigned)f->min : v >= (unsigned)f->min;

		if (has)
			n += (size_t)snprintk(buf + n, size - n, " %s", f->name);
	}
	if (n < size)
		n += (size_t)snprintk(buf + n, size - n,
				      "\nCPU implementer\t: 0x%02x\nCPU architecture: 8\nCPU variant\t: 0x%x\n"
				      "CPU part\t: 0x%03x\nCPU revision\t: %u\n\n",
				      (unsigned)(midr >> 24) & 0xff, (unsigned)(midr >> 20) & 0xf,
				      (unsigned)(midr >> 4) & 0xfff, (unsigned)midr & 0xf);
	return MIN(n, size);
}

size_t arch_cpuinfo(char *buf, size_t size)
{
	size_t n = 0;

	for (int cpu = 0; cpu < NR_CPUS && n + 1 < size; cpu++)
		if (smp_cpu_online(cpu))
			n += cpuinfo_one(buf + n, size - n, cpu,
					 cpu ? arm64_cpu_caps(cpu)->midr : read_sysreg(midr_el1));
	return n < size ? n : size - 1;
}
