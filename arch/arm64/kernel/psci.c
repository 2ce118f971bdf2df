/*
 * psci.c - power-off through PSCI SYSTEM_OFF.
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

static void psci_call_hvc(u64 fn)
{
	register u64 x0 asm("x0") = fn;

	asm volatile("hvc #0" : "+r"(x0) : : "memory");
}

static void psci_call_smc(u64 fn)
{
	register u64 x0 asm("x0") = fn;

	asm volatile("smc #0" : "+r"(x0) : : "memory");
}

void psci_system_off(void)
{
	bool smc = conduit == CONDUIT_SMC || (conduit == CONDUIT_GUESS && arm64_entry_el == 2);

	if (smc)
		psci_call_smc(PSCI_SYSTEM_OFF);
	else
		psci_call_hvc(PSCI_SYSTEM_OFF);
}
