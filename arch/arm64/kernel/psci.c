/*
 * psci.c - PSCI calls: SYSTEM_OFF (power-off) and CPU_ON (start a
 * secondary CPU at a physical entry point, arch/arm64/kernel/smp.c).
 *
 * The conduit (HVC or SMC) comes from /psci "method". Until the device tree
 * has been read, or when it has no /psci node, we guess as QEMU behaves: HVC
 * when the kernel was entered at EL1, SMC when it was entered at EL2 (QEMU
 * then emulates PSCI at EL3 and our EL2 has no handler for HVC).
 */
#include "types.h"
#include "printk.h"
#include "fdt.h"
#include "kstring.h"
#include "arch_arm64.h"

#define PSCI_SYSTEM_OFF	0x84000008u
#define PSCI_CPU_ON_64	0xc4000003u

static enum { CONDUIT_GUESS, CONDUIT_HVC, CONDUIT_SMC } conduit;

void psci_init(const struct fdt *fdt)
{
	int node = fdt_path_offset(fdt, "/psci");
	const char *method;
	int len;

	if (node < 0) {
		printk("psci: no /psci node; power-off will guess the conduit\n");
		return;
	}
	method = fdt_getprop(fdt, node, "method", &len);
	if (method && strcmp(method, "hvc") == 0)
		conduit = CONDUIT_HVC;
	else if (method && strcmp(method, "smc") == 0)
		conduit = CONDUIT_SMC;
	else
		printk("psci: unknown method '%s'; power-off will guess the conduit\n",
		       method ? method : "(none)");
}

/* One PSCI call with up to three arguments; returns x0. */
static s64 psci_call_hvc(u64 fn, u64 a1, u64 a2, u64 a3)
{
	register u64 x0 asm("x0") = fn;
	register u64 x1 asm("x1") = a1;
	register u64 x2 asm("x2") = a2;
	register u64 x3 asm("x3") = a3;

	asm volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : : "memory");
	return (s64)x0;
}

static s64 psci_call_smc(u64 fn, u64 a1, u64 a2, u64 a3)
{
	register u64 x0 asm("x0") = fn;
	register u64 x1 asm("x1") = a1;
	register u64 x2 asm("x2") = a2;
	register u64 x3 asm("x3") = a3;

	asm volatile("smc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3) : : "memory");
	return (s64)x0;
}

static s64 psci_call(u64 fn, u64 a1, u64 a2, u64 a3)
{
	bool smc = conduit == CONDUIT_SMC || (conduit == CONDUIT_GUESS && arm64_entry_el == 2);

	return smc ? psci_call_smc(fn, a1, a2, a3) : psci_call_hvc(fn, a1, a2, a3);
}

void psci_system_off(void)
{
	psci_call(PSCI_SYSTEM_OFF, 0, 0, 0);
}

/* CPU_ON: the CPU whose MPIDR affinity is mpidr starts at entry_pa with the
 * MMU off and x0 = context. Returns PSCI's status (0: success; -4: already
 * on; -2: invalid parameters ...). */
s64 psci_cpu_on(u64 mpidr, u64 entry_pa, u64 context)
{
	return psci_call(PSCI_CPU_ON_64, mpidr, entry_pa, context);
}
