/*
 * bbml2.h - what each arm64 CPU implements that the kernel must agree on
 * across CPUs (BBML2 without conflict aborts, LSE atomics), and the
 * decision about the linear map that follows from BBML2 (bbml2.c).
 */
#ifndef ARM64_BBML2_H
#define ARM64_BBML2_H

#include "types.h"

struct arm64_cpu_caps {
	u64 midr, mmfr2, isar0;
	u64 entry_el;		/* the exception level the CPU was entered at */
	bool bbml2_hw;		/* ID_AA64MMFR2_EL1.BBM >= 2 and MIDR on the allow-list */
	bool bbml2;		/* what the kernel treats it as (bbml2= may override) */
	bool lse;		/* ID_AA64ISAR0_EL1.Atomic >= 2 */
};

/* bbml2= */
enum { BBML2_AUTO, BBML2_ALL, BBML2_NONE, BBML2_SECONDARY_LACKS };
extern int opt_bbml2;

/* Read this CPU's ID registers into c. */
void arm64_record_caps(struct arm64_cpu_caps *c, u64 entry_el);
/* The caps CPU index cpu recorded (smp.c). */
const struct arm64_cpu_caps *arm64_cpu_caps(int cpu);

/* The rule: FEAT_BBM level 2 (ID_AA64MMFR2_EL1.BBM >= 2) and a MIDR on the
 * list of parts known never to raise a TLB conflict abort. */
bool bbml2_noabort(u64 midr, u64 mmfr2);

/* On the boot CPU before the linear map is built: decide (with bbml2=)
 * whether it has BBML2, and set pt_bbml2 from it. Returns pt_bbml2. */
bool bbml2_boot_decide(void);

/*
 * On the boot CPU, once secondary cpu has reported its caps and waits to
 * be released (last: it is the last CPU to start; bbml2=secondary-lacks
 * makes that one lack BBML2). If the system had BBML2 and this CPU lacks
 * it: pt_bbml2 goes false and the linear map is repainted to pages with
 * every online CPU held in the rendezvous.
 */
void bbml2_secondary_reported(int cpu, struct arm64_cpu_caps *c, bool last);

/* What the last repaint did (0s if none): guest time and table pages made. */
struct bbml2_repaint_stats { u64 ns, splits, unfolds; bool done; };
const struct bbml2_repaint_stats *bbml2_repaint_stats(void);

/* smp.c helpers the ktests use. */
int smp_num_present(void);
u64 smp_hold_count(void);
/* The kernel's TTBR1 value (swapper_pg_dir), for the secondaries. */
u64 arm64_kernel_ttbr1(void);

#endif
