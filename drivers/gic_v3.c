/*
 * gic_v3.c - Arm Generic Interrupt Controller v3 as the root interrupt
 * controller:
 *   - the distributor (GICD, reg[0]) routes SPIs, with affinity routing,
 *     to this CPU;
 *   - this CPU's redistributor (a frame in the GICR regions, reg[1..]) owns
 *     the SGIs and PPIs, such as the timer's;
 *   - the CPU interface is the ICC_* system registers (ICC_SRE_EL1.SRE = 1).
 *
 * Every interrupt goes in group 1 (with the system-register interface,
 * group 0 is signalled as FIQ): on QEMU's virt board (no secure=on) the GIC
 * has a single security state (GICD_CTLR.DS = 1) and the group registers
 * are ours to write; a GIC with two security states gives the Non-secure
 * side group 1 only, and our writes to the group registers are ignored.
 *
 * Entered at EL2, EL1 may use the system registers only if ICC_SRE_EL2 has
 * SRE and Enable set. head.S leaves that register alone: on QEMU 7.2 EL1
 * gets the interface without it (measured with -M virt,gic-version=3,
 * virtualization=on), while with -cpu a64fx, which reports a GICv3
 * interface even with GICv2, reading ICC_SRE_EL2 in head.S hung the boot
 * (measured). Firmware on real hardware sets it.
 *
 * hwirq = INTID: SGI 0-15, PPI 16-31, SPI 32-1019 (no LPIs, no extended ranges).
 *
 * Several CPUs: each has its own redistributor frame (found by its MPIDR
 * affinity in the regions mapped at probe) and its own system-register
 * interface; an SGI names its target by affinity in ICC_SGI1R_EL1. SPIs
 * are routed to the boot CPU only.
 */
#include "driver.h"
#include "printk.h"
#include "arch_arm64.h"
#include "gic.h"
#include "arch_proc.h"

#define GICD_CTLR		0x0000
#define GICD_TYPER		0x0004
#define GICD_IGROUPR		0x0080
#define GICD_ISENABLER		0x0100
#define GICD_ICENABLER		0x0180
#define GICD_ISPENDR		0x0200
#define GICD_ICPENDR		0x0280
#define GICD_ICACTIVER		0x0380
#define GICD_IPRIORITYR		0x0400
#define GICD_IROUTER		0x6000	/* 64 bits per INTID, from INTID 32 */
#define GICD_CTLR_RWP		(1u << 31)	/* a register write is still taking effect */
#define GICD_CTLR_ARE		(1u << 4)	/* affinity routing (ARE_NS in the NS view) */
#define GICD_CTLR_GRP1		(1u << 1)	/* DS=1: EnableGrp1; NS view: EnableGrp1A */
#define GICD_CTLR_GRP0		(1u << 0)	/* DS=1: EnableGrp0; NS view: EnableGrp1 */

/* Redistributor: RD_base frame, then the SGI_base frame 64 KiB above it. */
#define GICR_CTLR		0x0000
#define GICR_TYPER		0x0008
#define GICR_WAKER		0x0014
#define GICR_PIDR2		0xffe8
#define GICR_CTLR_RWP		(1u << 3)
#define GICR_TYPER_LAST		(1ull << 4)	/* the last frame of its region */
#define GICR_TYPER_VLPIS	(1ull << 1)	/* GICv4 frame: four 64 KiB pages */
#define GICR_WAKER_SLEEP	(1u << 1)	/* ProcessorSleep */
#define GICR_WAKER_ASLEEP	(1u << 2)	/* ChildrenAsleep */
#define GICR_SGI_BASE		0x10000
#define GICR_IGROUPR0		(GICR_SGI_BASE + 0x080)
#define GICR_ISENABLER0		(GICR_SGI_BASE + 0x100)
#define GICR_ICENABLER0		(GICR_SGI_BASE + 0x180)
#define GICR_ISPENDR0		(GICR_SGI_BASE + 0x200)
#define GICR_ICPENDR0		(GICR_SGI_BASE + 0x280)
#define GICR_ICACTIVER0		(GICR_SGI_BASE + 0x380)
#define GICR_IPRIORITYR0	(GICR_SGI_BASE + 0x400)

#define ICC_SRE_SRE		(1ul << 0)
#define GIC_SPURIOUS		1020	/* INTIDs 1020-1023: nothing to acknowledge */
#define GIC_PRIO_DEFAULT	0xa0
#define GIC_PMR_ALLOW		0xf0
#define GIC_POLL_LIMIT		1000000	/* reads of a busy bit before we give up */
#define GIC_MAX_RD_REGIONS	8

struct gicv3 {
	volatile u8 *dist;
	volatile u8 *rd[NR_CPUS];	/* each CPU's redistributor (RD_base) */
	u64 affinity[NR_CPUS];		/* MPIDR Aff3.Aff2.Aff1.Aff0 as GICD_IROUTER holds it */
	struct { volatile u8 *base; u64 size; } region[GIC_MAX_RD_REGIONS];
	u32 nregions;
	u64 stride;			/* "redistributor-stride", 0 if absent */
};

static struct gicv3 gic;
static struct irq_chip gicv3_chip;

#define write_sysreg(r, v) __asm__ volatile("msr " #r ", %0" :: "r"((u64)(v)) : "memory")

static volatile u32 *gicd(unsigned off)
{
	return (volatile u32 *)(gic.dist + off);
}

/* A register of this CPU's redistributor. */
static volatile u32 *gicr(unsigned off)
{
	return (volatile u32 *)(gic.rd[arch_cpu_id()] + off);
}

/* Wait until the bit at reg clears, or panic naming what never finished. */
static void wait_clear(volatile u32 *reg, u32 bit, const char *what)
{
	for (int i = 0; i < GIC_POLL_LIMIT; i++)
		if (!(*reg & bit))
			return;
	panic("gicv3: %s did not complete (register still 0x%x)", what, *reg);
}

static void dist_wait_rwp(void)
{
	wait_clear(gicd(GICD_CTLR), GICD_CTLR_RWP, "distributor register write");
}

static void redist_wait_rwp(void)
{
	wait_clear(gicr(GICR_CTLR), GICR_CTLR_RWP, "redistributor register write");
}

/* hwirq's bit in a one-bit-per-interrupt register: the redistributor's
 * copy for SGIs/PPIs, the distributor's for SPIs. */
static volatile u32 *bit_reg(unsigned gicd_base, unsigned gicr_reg, unsigned hwirq)
{
	return hwirq < 32 ? gicr(gicr_reg) : gicd(gicd_base + 4 * (hwirq / 32));
}


static void gicv3_enable(const struct irq_chip *chip, unsigned hwirq)
{
	(void)chip;
	*bit_reg(GICD_ISENABLER, GICR_ISENABLER0, hwirq) = 1u << (hwirq % 32);
}

/* Returns once the interrupt can no longer be signalled (RWP clear). */
static void gicv3_disable(const struct irq_chip *chip, unsigned hwirq)
{
	(void)chip;
	*bit_reg(GICD_ICENABLER, GICR_ICENABLER0, hwirq) = 1u << (hwirq % 32);
	if (hwirq < 32)
		redist_wait_rwp();
	else
		dist_wait_rwp();
}

/*
 * Reading ICC_IAR1_EL1 acknowledges the interrupt. System-register reads
 * are not ordered with memory accesses, so the DSB makes the acknowledge
 * complete before the handler touches the device that raised it.
 */
static int gicv3_ack(const struct irq_chip *chip)
{
	u64 iar;

	(void)chip;
	iar = read_sysreg(icc_iar1_el1);
	__asm__ volatile("dsb sy" ::: "memory");
	iar &= 0xffffff;
	return iar >= GIC_SPURIOUS && iar <= 1023 ? -1 : (int)iar;
}

/* With ICC_CTLR_EL1.EOImode 0 this write both drops the running priority
 * and deactivates; the ISB makes it take effect before interrupts can be
 * unmasked again. */
static void gicv3_eoi(const struct irq_chip *chip, unsigned hwirq)
{
	(void)chip;
	write_sysreg(icc_eoir1_el1, hwirq);
	__asm__ volatile("isb" ::: "memory");
}

/* SGI sgi to CPU index cpu: ICC_SGI1R_EL1 names it by affinity (Aff0 as a
 * bit in the target list, so Aff0 < 16). */
static void gicv3_send_sgi(const struct irq_chip *chip, int cpu, unsigned sgi)
{
	u64 aff = gic.affinity[cpu];

	(void)chip;
	__asm__ volatile("dsb ish" ::: "memory");	/* our stores before the target's handler */
	write_sysreg(icc_sgi1r_el1, ((aff >> 32) & 0xff) << 48 | ((aff >> 16) & 0xff) << 32 |
				    (u64)(sgi & 0xf) << 24 | ((aff >> 8) & 0xff) << 16 | 1ull << (aff & 0xf));
	__asm__ volatile("isb" ::: "memory");
}

/* An SGI to this CPU, or the pending bit of a PPI/SPI. */
static void gicv3_raise(const struct irq_chip *chip, unsigned hwirq)
{
	if (hwirq >= 16) {
		*bit_reg(GICD_ISPENDR, GICR_ISPENDR0, hwirq) = 1u << (hwirq % 32);
		return;
	}
	gicv3_send_sgi(chip, arch_cpu_id(), hwirq);
}

/* The redistributor frame in [base, base + size) whose GICR_TYPER names
 * this CPU's affinity (aff32 = Aff3.Aff2.Aff1.Aff0), or NULL. */
static volatile u8 *find_rd_frame(volatile u8 *base, u64 size, u64 stride, u32 aff32)
{
	for (u64 off = 0; off + 0x20000 <= size;) {
		volatile u8 *frame = base + off;
		u64 typer = *(volatile u64 *)(frame + GICR_TYPER);
		u32 arch = (*(volatile u32 *)(frame + GICR_PIDR2) >> 4) & 0xf;

		if (arch != 3 && arch != 4)
			return NULL;
		if ((u32)(typer >> 32) == aff32)
			return frame;
		if (typer & GICR_TYPER_LAST)
			return NULL;
		off += stride ? stride : (typer & GICR_TYPER_VLPIS) ? 0x40000 : 0x20000;
	}
	return NULL;
}

/* "redistributor-stride" (one or two cells), 0 when absent. */
static u64 rd_stride(const struct fdt *fdt, int node)
{
	int len;
	const void *p = fdt_getprop(fdt, node, "redistributor-stride", &len);

	if (p && len == 8)
		return fdt_be64(p);
	if (p && len == 4)
		return fdt_be32(p);
	return 0;
}

/* Map the redistributor regions (reg[1..]). */
static bool map_redistributors(const struct fdt *fdt, int node)
{
	u32 regions = 1;

	fdt_prop_u32(fdt, node, "#redistributor-regions", &regions);
	gic.stride = rd_stride(fdt, node);
	for (u32 i = 0; i < regions && i < GIC_MAX_RD_REGIONS; i++) {
		gic.region[i].base = dt_ioremap(fdt, node, 1 + (int)i, &gic.region[i].size);
		if (!gic.region[i].base)
			return false;
		gic.nregions = i + 1;
	}
	return gic.nregions > 0;
}

/* Find this CPU's redistributor frame by its MPIDR affinity. */
static bool find_redistributor(void)
{
	u64 mpidr = read_sysreg(mpidr_el1);
	u32 aff32 = (u32)((mpidr >> 8) & 0xff000000) | (u32)(mpidr & 0xffffff);
	int cpu = arch_cpu_id();

	gic.affinity[cpu] = (mpidr & 0xff00000000ull) | (mpidr & 0xffffff);
	for (u32 i = 0; i < gic.nregions; i++)
		if ((gic.rd[cpu] = find_rd_frame(gic.region[i].base, gic.region[i].size, gic.stride, aff32)))
			return true;
	printk("gicv3: no redistributor for MPIDR 0x%llx\n", (unsigned long long)mpidr);
	return false;
}

/*
 * Distributor: off (and settled) while we configure; affinity routing on;
 * every SPI group 1, disabled, not pending, not active, default priority,
 * routed to this CPU; then both groups enabled.
 */
static void gicv3_dist_init(unsigned nr_irqs)
{
	*gicd(GICD_CTLR) = 0;
	dist_wait_rwp();
	*gicd(GICD_CTLR) = GICD_CTLR_ARE;
	dist_wait_rwp();
	for (unsigned i = 32; i < nr_irqs; i += 32) {
		*gicd(GICD_IGROUPR + i / 8) = ~0u;
		*gicd(GICD_ICENABLER + i / 8) = ~0u;
		*gicd(GICD_ICPENDR + i / 8) = ~0u;
		*gicd(GICD_ICACTIVER + i / 8) = ~0u;
	}
	for (unsigned i = 32; i < nr_irqs; i += 4)
		*gicd(GICD_IPRIORITYR + i) = GIC_PRIO_DEFAULT * 0x01010101u;
	for (unsigned i = 32; i < nr_irqs; i++)
		*(volatile u64 *)(gic.dist + GICD_IROUTER + 8 * i) = gic.affinity[0];
	dist_wait_rwp();
	*gicd(GICD_CTLR) = GICD_CTLR_ARE | GICD_CTLR_GRP1 | GICD_CTLR_GRP0;
	dist_wait_rwp();
}

/* Redistributor: wake it, then SGIs/PPIs as the SPIs above. */
static void gicv3_redist_init(void)
{
	*gicr(GICR_WAKER) &= ~GICR_WAKER_SLEEP;
	wait_clear(gicr(GICR_WAKER), GICR_WAKER_ASLEEP, "redistributor wake-up");
	*gicr(GICR_IGROUPR0) = ~0u;
	*gicr(GICR_ICENABLER0) = ~0u;
	*gicr(GICR_ICPENDR0) = ~0u;
	*gicr(GICR_ICACTIVER0) = ~0u;
	for (unsigned i = 0; i < 32; i += 4)
		*gicr(GICR_IPRIORITYR0 + i) = GIC_PRIO_DEFAULT * 0x01010101u;
	redist_wait_rwp();
}

/*
 * CPU interface: system registers on (if ICC_SRE_EL1.SRE does not stick,
 * EL2 did not give EL1 the interface); priority mask, no preemption
 * groups, EOImode 0, group 1 on. The ISBs make each step take effect
 * before the next system-register access depends on it.
 */
static void gicv3_cpu_init(void)
{
	write_sysreg(icc_sre_el1, read_sysreg(icc_sre_el1) | ICC_SRE_SRE);
	__asm__ volatile("isb" ::: "memory");
	if (!(read_sysreg(icc_sre_el1) & ICC_SRE_SRE))
		panic("gicv3: ICC_SRE_EL1.SRE stays 0: a higher exception level keeps the "
		      "system-register CPU interface off (ICC_SRE_EL2.SRE)");
	write_sysreg(icc_pmr_el1, GIC_PMR_ALLOW);
	write_sysreg(icc_bpr1_el1, 0);
	write_sysreg(icc_ctlr_el1, 0);
	write_sysreg(icc_igrpen1_el1, 1);
	__asm__ volatile("isb" ::: "memory");
}

/* A secondary CPU: its redistributor and system-register interface. */
static void gicv3_secondary_init(const struct irq_chip *chip)
{
	(void)chip;
	if (!find_redistributor())
		panic("gicv3: CPU %d has no redistributor frame", arch_cpu_id());
	gicv3_redist_init();
	gicv3_cpu_init();
}

static int gicv3_probe(const struct fdt *fdt, int node)
{
	const char *name = fdt_node_name(fdt, node);
	u32 cells;
	unsigned nr_irqs;

	if (!fdt_prop_u32(fdt, node, "#interrupt-cells", &cells) || cells < 3) {
		printk("gicv3: %s: #interrupt-cells is below 3\n", name);
		return -1;
	}
	gic.dist = dt_ioremap(fdt, node, 0, NULL);
	if (!gic.dist || !map_redistributors(fdt, node) || !find_redistributor())
		return -1;
	nr_irqs = MIN(32 * ((*gicd(GICD_TYPER) & 0x1f) + 1), (unsigned)GIC_SPURIOUS);
	gicv3_dist_init(nr_irqs);
	gicv3_redist_init();
	gicv3_cpu_init();
	gicv3_chip = (struct irq_chip){
		.name = "gicv3", .xlate = gic_dt_xlate, .enable = gicv3_enable,
		.disable = gicv3_disable, .ack = gicv3_ack, .eoi = gicv3_eoi,
		.raise = gicv3_raise, .cpu_init = gicv3_secondary_init, .send_sgi = gicv3_send_sgi,
		.priv = &gic, .interrupt_cells = (int)cells, .node = node,
		.nr_irqs = nr_irqs,
	};
	irq_set_root_chip(&gicv3_chip);
	return 0;
}

static const char *const gicv3_compat[] = { "arm,gic-v3", NULL };
DRIVER(gicv3_driver, .name = "gicv3", .compatible = gicv3_compat,
       .class = DRV_IRQCHIP, .probe = gicv3_probe);
