/*
 * bbml2.c - may the linear map keep blocks under rodata=full? Deciding
 * BBML2 (FEAT_BBM level 2 without TLB conflict aborts) per CPU, as Linux
 * does, and the three modes that follow (docs/DESIGN.md, "BBML2"):
 *
 *   1. every CPU has it: the linear map keeps its blocks and contiguous
 *      runs; set_memory_*() split them live, without break-before-make
 *      (pt_bbml2 lets the choke point do so);
 *   2. the boot CPU lacks it: the linear map is built from pages, so
 *      nothing in it ever needs a split;
 *   3. the boot CPU has it, a secondary does not: the boot CPU built blocks;
 *      before that secondary runs, the whole linear map is repainted to
 *      pages (by BBM) with every other CPU held in the rendezvous.
 *
 * The rule for one CPU: ID_AA64MMFR2_EL1.BBM >= 2 (the architecture says a
 * block size may change without the break, but it still allows a TLB
 * conflict abort when both sizes meet in a TLB), AND its MIDR on a list of
 * parts whose implementers state they never raise that abort. The kernel
 * could not take a conflict abort everywhere it may split (the abort could
 * hit the very mapping its handler needs), so the ID field alone is not
 * enough. Linux keeps such a list too (and in some versions trusts the list
 * alone, ignoring the ID field); we require both.
 *
 * bbml2=all|none|secondary-lacks force each mode, since QEMU's CPUs of one
 * boot are all alike.
 */
#include "types.h"
#include "printk.h"
#include "params.h"
#include "pgtable.h"
#include "linear_map.h"
#include "smp.h"
#include "arch.h"
#include "arch_arm64.h"
#include "bbml2.h"
#include "ptdump.h"
#include "kernel.h"
#include <asm/spinlock.h>

#define MIDR_IMPL(m)	(((m) >> 24) & 0xff)
#define MIDR_PART(m)	(((m) >> 4) & 0xfff)
#define MIDR_VARIANT(m)	(((m) >> 20) & 0xf)
#define MIDR_REVISION(m) ((m) & 0xf)
#define MMFR2_BBM(r)	(((r) >> 52) & 0xf)
#define ISAR0_ATOMIC(r)	(((r) >> 20) & 0xf)

/*
 * Parts known never to raise a TLB conflict abort on a BBML2 size change:
 * implementer, part number, and where only some revisions qualify, the
 * variant and the lowest revision (rNpM: variant N, revision M):
 *   Arm Cortex-X4 r0p3 on, Neoverse-V3 and V3AE r0p2 on (earlier ones may
 *   raise the abort), Ampere's AmpereOne and AmpereOne A (all), the parts
 *   Linux's allow-list names (Linux also lists an NVIDIA part we leave out);
 *   QEMU's "max" CPU (implementer 0, part 0x051). QEMU implements no TLB
 *   conflict abort at all: its software TLB caches one entry per page-sized
 *   piece of an address and translation regime, whatever the size of the
 *   leaf it came from, filled by a walk of the tables as they are on a
 *   miss, and a broadcast TLBI drops entries on every vCPU. Two entries for
 *   one address never coexist there, so nothing can conflict, and "max"
 *   reports BBM level 2.
 * Cortex-A72 and A53 report BBM level 0: they never qualify.
 */
static const struct {
	u8 impl;
	u16 part;
	int variant;	/* -1: any */
	u8 rev_min;
	const char *name;
} noabort_parts[] = {
	{ 0x41, 0xd82, 0, 3, "Cortex-X4" },
	{ 0x41, 0xd84, 0, 2, "Neoverse-V3" },
	{ 0x41, 0xd83, 0, 2, "Neoverse-V3AE" },
	{ 0xc0, 0xac3, -1, 0, "AmpereOne" },
	{ 0xc0, 0xac4, -1, 0, "AmpereOne A" },
	{ 0x00, 0x051, -1, 0, "QEMU max" },
};

static struct bbml2_repaint_stats repaint;

bool bbml2_noabort(u64 midr, u64 mmfr2)
{
	/* LAB bbml2: begin; stub: (void)midr; (void)mmfr2; (void)noabort_parts; return false; */
	if (MMFR2_BBM(mmfr2) < 2)
		return false;
	for (unsigned i = 0; i < sizeof(noabort_parts) / sizeof(noabort_parts[0]); i++) {
		if (MIDR_IMPL(midr) != noabort_parts[i].impl || MIDR_PART(midr) != noabort_parts[i].part)
			continue;
		if (noabort_parts[i].variant >= 0 &&
		    (MIDR_VARIANT(midr) != (u64)noabort_parts[i].variant ||
		     MIDR_REVISION(midr) < noabort_parts[i].rev_min))
			continue;
		return true;
	}
	return false;
	/* LAB bbml2: end */
}

void arm64_record_caps(struct arm64_cpu_caps *c, u64 entry_el)
{
	c->midr = read_sysreg(midr_el1);
	c->mmfr2 = read_sysreg(id_aa64mmfr2_el1);
	c->isar0 = read_sysreg(id_aa64isar0_el1);
	c->entry_el = entry_el;
	c->bbml2_hw = bbml2_noabort(c->midr, c->mmfr2);
	c->bbml2 = c->bbml2_hw;
	c->lse = ISAR0_ATOMIC(c->isar0) >= 2;
}

bool bbml2_boot_decide(void)
{
	struct arm64_cpu_caps c;
	bool has;

	arm64_record_caps(&c, arm64_entry_el);
	switch (opt_bbml2) {
	case BBML2_ALL:
	case BBML2_SECONDARY_LACKS:
		has = true;
		break;
	case BBML2_NONE:
		has = false;
		break;
	default:
		has = c.bbml2_hw;
		break;
	}
	pt_bbml2 = has;
	printk("bbml2: boot CPU %s BBML2 without conflict aborts (BBM level %llu, MIDR %s the list%s)\n",
	       has ? "has" : "lacks", (unsigned long long)MMFR2_BBM(c.mmfr2),
	       c.bbml2_hw ? "on" : "not on",
	       opt_bbml2 == BBML2_AUTO ? "" : opt_bbml2 == BBML2_NONE ? "; bbml2=none" :
	       opt_bbml2 == BBML2_ALL ? "; bbml2=all" : "; bbml2=secondary-lacks");
	return has;
}

/* Repaint the linear map to pages with the others held; timed. */
static void repaint_linear_map(int cpu)
{
	u64 t0;
	int err;

	printk("bbml2: CPU %d lacks BBML2: repainting the linear map to pages, other CPUs held\n", cpu);
	smp_hold_others();
	t0 = arch_time_ns();
	err = linear_map_repaint_pages(&repaint.splits, &repaint.unfolds);
	repaint.ns = arch_time_ns() - t0;
	smp_release_others();
	if (err)
		panic("bbml2: repainting the linear map to pages: out of memory (error %d) with CPU %d "
		      "unable to run on blocks", err, cpu);
	repaint.done = true;
	pt_count_linear(arch_kernel_space(), &linear_map_boot_counts);	/* the map as it now stands */
	printk("bbml2: linear map repainted: %llu blocks split, %llu runs unfolded, %llu us\n",
	       (unsigned long long)repaint.splits, (unsigned long long)repaint.unfolds,
	       (unsigned long long)(repaint.ns / 1000));
}

void bbml2_secondary_reported(int cpu, struct arm64_cpu_caps *c, bool last)
{
	if (arm64_has_lse && !c->lse)
		panic("smp: CPU %d lacks the LSE atomics (ID_AA64ISAR0_EL1.Atomic) the boot CPU's "
		      "spinlocks use", cpu);
	if (opt_bbml2 == BBML2_ALL)
		c->bbml2 = true;
	else if (opt_bbml2 == BBML2_NONE)
		c->bbml2 = false;
	else if (opt_bbml2 == BBML2_SECONDARY_LACKS)
		c->bbml2 = !last;
	if (pt_bbml2 && !c->bbml2) {
		pt_bbml2 = false;
		/* rodata=on/off or linear_map=pte: nothing to repaint (splits, if
		 * any, will break-before-make with the others held). */
		if (opt_rodata == RODATA_FULL && opt_linear_map != LINEAR_MAP_PTE) {
			repaint_linear_map(cpu);
			opt_linear_map = LINEAR_MAP_PTE;
		}
	}
}

const struct bbml2_repaint_stats *bbml2_repaint_stats(void)
{
	return &repaint;
}
