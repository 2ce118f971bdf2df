/*
 * smp.c - arm64 secondary CPUs: start them through PSCI CPU_ON, give each
 * its stack and per-CPU state, run function calls on them over SGIs, and
 * hold them still (the rendezvous) while the kernel's tables are broken.
 *
 * Bring-up, one CPU at a time (smp_boot_secondaries on the boot CPU):
 *   1. the boot CPU fills the CPU's boot record (TTBR0 = the boot identity
 *      map, TTBR1 = swapper_pg_dir, its stack top in the image's .bss, its
 *      index), cleans it to the point of coherency and calls CPU_ON with
 *      head.S's secondary_entry and the record's physical address;
 *   2. the CPU drops from EL2 like the boot CPU did, turns the MMU on with
 *      the same kernel tables, jumps to secondary_start_kernel(): TPIDR_EL1
 *      = its index (arch_cpu_id), the identity map uninstalled, CPACR and
 *      PAN, its ID registers recorded (BBML2, LSE), its GIC interface and
 *      SGI 0, then it reports CPU_REPORTED and spins - interrupts masked,
 *      touching only the image - until the boot CPU sets CPU_RELEASED;
 *   3. the boot CPU looks at what the CPU reported: if the system had
 *      BBML2 and this CPU lacks it, the linear map is repainted to pages
 *      now, with every online CPU held in the rendezvous and the new one
 *      still spinning (bbml2.c), before anything runs on it;
 *   4. released, the CPU starts its timer, counts itself online and idles
 *      in WFI with interrupts on, answering IPIs, until the boot CPU starts
 *      init; then it runs the scheduler loop (kernel/proc.c) like CPU 0.
 *
 * Everything a secondary touches before it is online, and everything the
 * rendezvous loop touches, lives in the kernel image (text, .bss, stacks
 * in .bss), reached through the image mapping, never the linear map.
 */
#include "types.h"
#include "printk.h"
#include "kstring.h"
#include "arch.h"
#include "arch_proc.h"
#include "arch_arm64.h"
#include "fdt.h"
#include "irq.h"
#include "smp.h"
#include "spinlock.h"
#include "proc.h"	/* sched_secondary() */
#include "pgtable.h"
#include "bbml2.h"
#include <asm/smp.h>

_Static_assert(BOOT_REC_SIZE >= 32, "boot record layout");

#define IPI_CALL	0	/* SGI 0: run the call slot / join the rendezvous */
#define BOOT_WAIT_NS	(2000ull * 1000000)	/* how long a CPU may take to report */

/* What head.S's secondary_entry reads with the MMU off (asm/smp.h offsets). */
struct cpu_boot_rec {
	u64 ttbr0, ttbr1, stack_top, cpu;
} __attribute__((aligned(BOOT_REC_SIZE)));
_Static_assert(__builtin_offsetof(struct cpu_boot_rec, ttbr0) == BOOT_REC_TTBR0, "asm/smp.h");
_Static_assert(__builtin_offsetof(struct cpu_boot_rec, ttbr1) == BOOT_REC_TTBR1, "asm/smp.h");
_Static_assert(__builtin_offsetof(struct cpu_boot_rec, stack_top) == BOOT_REC_STACK, "asm/smp.h");
_Static_assert(__builtin_offsetof(struct cpu_boot_rec, cpu) == BOOT_REC_CPU, "asm/smp.h");

enum { CPU_ABSENT, CPU_STARTING, CPU_REPORTED, CPU_RELEASED, CPU_ONLINE };

/* A pending cross-CPU call, one per target CPU (taken under its lock). */
struct call_slot {
	struct spinlock lock;
	void (*fn)(void *);
	void *arg;
	u32 pending;	/* set by the caller (release), cleared by the target */
	u32 done;	/* set by the target (release) when fn returned */
};

static struct cpu_boot_rec boot_rec[NR_CPUS];
static u8 cpu_stacks[NR_CPUS][SMP_STACK_SIZE] __attribute__((aligned(16)));
static u8 hold_stacks[NR_CPUS][2048] __attribute__((aligned(16)));
static u64 cpu_mpidr[NR_CPUS];
static u32 cpu_state[NR_CPUS];
static struct arm64_cpu_caps cpu_caps[NR_CPUS];
static struct call_slot slots[NR_CPUS];
static int nr_present = 1;	/* CPUs the device tree names (CPU 0: the boot CPU) */
static int nr_online = 1;

/* The rendezvous (smp_hold_others). */
static struct {
	u32 owner;		/* 1 + the holding CPU's index, 0 when free */
	int depth;		/* nesting on the holder */
	unsigned long flags;	/* the holder's interrupt mask before the hold */
	u32 request[NR_CPUS];	/* "join the rendezvous", set per target */
	u32 arrived, left;	/* held CPUs in the loop / out of it */
	u32 release;
	u64 holds;		/* rendezvous made since boot */
} rv;

extern void secondary_entry(void);
extern pteval_t boot_idmap_tables[];
void secondary_start_kernel(u64 cpu, u64 el);

static u32 load_acquire(const u32 *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store_release(u32 *p, u32 v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static void cpu_relax(void)
{
	__asm__ volatile("yield" ::: "memory");
}

int smp_num_online(void)
{
	return (int)__atomic_load_n(&nr_online, __ATOMIC_ACQUIRE);
}

bool smp_cpu_online(int cpu)
{
	return cpu >= 0 && cpu < NR_CPUS && load_acquire(&cpu_state[cpu]) == CPU_ONLINE;
}

const struct arm64_cpu_caps *arm64_cpu_caps(int cpu)
{
	return &cpu_caps[cpu];
}

int smp_num_present(void)
{
	return nr_present;
}

/* ---- the device tree: /cpus ---- */

/*
 * Record the MPIDR (reg) of each /cpus/cpu node, the boot CPU's (the one
 * whose MPIDR we run on) as CPU 0 and the others in tree order, up to
 * NR_CPUS. Nodes whose enable-method is not "psci" are skipped with a note.
 */
void smp_setup_dt(const struct fdt *fdt)
{
	int cpus = fdt_path_offset(fdt, "/cpus");
	u64 self = read_sysreg(mpidr_el1) & 0xff00ffffffull;
	u32 ac = cpus >= 0 ? fdt_address_cells(fdt, cpus) : 1;

	for (int i = 0; i < NR_CPUS; i++)
		slots[i].lock = (struct spinlock)SPINLOCK_INIT("smp call slot");
	cpu_mpidr[0] = self;
	cpu_state[0] = CPU_ONLINE;
	arm64_record_caps(&cpu_caps[0], arm64_entry_el);
	if (cpus < 0)
		return;
	for (int n = fdt_first_subnode(fdt, cpus); n >= 0; n = fdt_next_subnode(fdt, n)) {
		const char *type = fdt_getprop(fdt, n, "device_type", NULL);
		const char *method = fdt_getprop(fdt, n, "enable-method", NULL);
		const void *reg;
		int len;
		u64 mpidr;

		if (!type || strcmp(type, "cpu") != 0)
			continue;
		reg = fdt_getprop(fdt, n, "reg", &len);
		if (!reg || len < (int)(4 * ac))
			continue;
		mpidr = ac == 2 ? fdt_be64(reg) : fdt_be32(reg);
		if (mpidr == self)
			continue;
		if (!method || strcmp(method, "psci") != 0) {
			printk("smp: %s: enable-method is not psci: not started\n", fdt_node_name(fdt, n));
			continue;
		}
		if (nr_present == NR_CPUS) {
			printk("smp: more than %d CPUs in the device tree: the rest stay off\n", NR_CPUS);
			break;
		}
		cpu_mpidr[nr_present++] = mpidr;
	}
}

/* ---- IPIs: the call slot and the rendezvous ---- */

static void hold_loop(void *unused);

/*
 * SGI 0 on this CPU: join a rendezvous if asked, then run a pending call.
 * Also polled by CPUs that wait with interrupts masked, so two CPUs
 * calling each other cannot deadlock.
 */
static void ipi_handler(void *unused)
{
	int cpu = arch_cpu_id();
	struct call_slot *s = &slots[cpu];

	(void)unused;
	if (load_acquire(&rv.request[cpu])) {
		store_release(&rv.request[cpu], 0);
		arch_call_on_stack(hold_loop, NULL, hold_stacks[cpu] + sizeof(hold_stacks[cpu]));
	}
	if (load_acquire(&s->pending)) {
		void (*fn)(void *) = s->fn;
		void *arg = s->arg;

		__atomic_store_n(&s->pending, 0, __ATOMIC_RELAXED);
		fn(arg);
		store_release(&s->done, 1);
	}
}

void smp_poll(void)
{
	ipi_handler(NULL);
}

int smp_call_start(int cpu, void (*fn)(void *), void *arg)
{
	struct call_slot *s;

	if (cpu == arch_cpu_id() || !smp_cpu_online(cpu))
		return -1;
	s = &slots[cpu];
	spin_lock(&s->lock);
	s->fn = fn;
	s->arg = arg;
	s->done = 0;
	store_release(&s->pending, 1);
	irq_send_ipi(cpu, IPI_CALL);
	return 0;
}

void smp_call_wait(int cpu)
{
	struct call_slot *s = &slots[cpu];

	while (!load_acquire(&s->done)) {
		ipi_handler(NULL);	/* serve a call made to us meanwhile */
		cpu_relax();
	}
	spin_unlock(&s->lock);
}

int smp_call_on_cpu(int cpu, void (*fn)(void *), void *arg)
{
	unsigned long flags = arch_irq_save();
	int rc = 0;

	if (cpu == arch_cpu_id())
		fn(arg);
	else if (smp_call_start(cpu, fn, arg) == 0)
		smp_call_wait(cpu);
	else
		rc = -1;
	arch_irq_restore(flags);
	return rc;
}

/*
 * A held CPU, in its SGI handler (interrupts masked) on its hold stack in
 * the image: count in, spin on rv.release, count out. The loop reads only
 * rv (image .bss); the ISB after the release makes this CPU fetch and
 * translate with whatever the holder left in the tables (the holder's
 * TLBIs were broadcast and completed before it released us).
 */
static void hold_loop(void *unused)
{
	(void)unused;
	__atomic_fetch_add(&rv.arrived, 1, __ATOMIC_ACQ_REL);
	while (!load_acquire(&rv.release))
		cpu_relax();
	__asm__ volatile("isb" ::: "memory");
	__atomic_fetch_add(&rv.left, 1, __ATOMIC_ACQ_REL);
}

bool smp_others_held(void)
{
	return load_acquire(&rv.owner) == (u32)arch_cpu_id() + 1 && rv.depth > 0;
}

void smp_hold_others(void)
{
	unsigned long flags = arch_irq_save();
	int me = arch_cpu_id(), n = 0;

	if (load_acquire(&rv.owner) == (u32)me + 1) {
		rv.depth++;		/* nested: already held by us */
		return;
	}
	for (;;) {
		u32 free = 0;

		if (__atomic_compare_exchange_n(&rv.owner, &free, (u32)me + 1, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			break;
		ipi_handler(NULL);	/* another CPU is holding: let it hold us */
		cpu_relax();
	}
	rv.depth = 1;
	rv.flags = flags;
	rv.arrived = 0;
	rv.left = 0;
	store_release(&rv.release, 0);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (cpu == me || !smp_cpu_online(cpu))
			continue;
		store_release(&rv.request[cpu], 1);
		irq_send_ipi(cpu, IPI_CALL);
		n++;
	}
	while (load_acquire(&rv.arrived) != (u32)n)
		cpu_relax();
	rv.holds++;
}

void smp_release_others(void)
{
	int me = arch_cpu_id();
	u32 n;
	unsigned long flags;

	if (load_acquire(&rv.owner) != (u32)me + 1 || rv.depth <= 0)
		panic("smp: CPU %d releases a rendezvous it does not hold", me);
	if (--rv.depth)
		return;
	n = rv.arrived;
	store_release(&rv.release, 1);
	__asm__ volatile("sev" ::: "memory");
	while (load_acquire(&rv.left) != n)
		cpu_relax();
	flags = rv.flags;
	store_release(&rv.owner, 0);
	arch_irq_restore(flags);
}

u64 smp_hold_count(void)
{
	return rv.holds;
}

/* ---- bring-up ---- */

/* Clean [p, p + size) to the point of coherency: a CPU with its MMU and
 * caches off reads memory, not our cache. */
static void clean_to_poc(const void *p, u64 size)
{
	for (u64 a = (u64)p & ~63ull; a < (u64)p + size; a += 64)
		__asm__ volatile("dc cvac, %0" :: "r"(a) : "memory");
	__asm__ volatile("dsb sy" ::: "memory");
}

/* The secondary, at its linked address on its own stack; never returns. */
void secondary_start_kernel(u64 cpu, u64 el)
{
	__asm__ volatile("msr tpidr_el1, %0" :: "r"(cpu));
	arm64_uninstall_idmap();
	arm64_cpu_setup();
	arm64_record_caps(&cpu_caps[cpu], el);
	irq_cpu_init();
	irq_enable_local(IPI_CALL);
	store_release(&cpu_state[cpu], CPU_REPORTED);
	while (load_acquire(&cpu_state[cpu]) != CPU_RELEASED)
		cpu_relax();
	__asm__ volatile("isb" ::: "memory");
	arch_timer_start_this_cpu();
	__atomic_fetch_add(&nr_online, 1, __ATOMIC_ACQ_REL);
	store_release(&cpu_state[cpu], CPU_ONLINE);
	sched_secondary();
}

static const char *psci_error(s64 rc)
{
	switch (rc) {
	case -1: return "not supported";
	case -2: return "invalid parameters";
	case -3: return "denied";
	case -4: return "already on";
	case -5: return "on pending";
	case -6: return "internal failure";
	case -9: return "invalid address";
	default: return "unknown error";
	}
}

/* Start CPU index cpu and wait until it reports; true if it did. */
static bool start_cpu(int cpu)
{
	struct cpu_boot_rec *r = &boot_rec[cpu];
	u64 t0;
	s64 rc;

	r->ttbr0 = pt_kimage_pa((unsigned long)boot_idmap_tables);
	r->ttbr1 = arm64_kernel_ttbr1();
	r->stack_top = (u64)(cpu_stacks[cpu] + SMP_STACK_SIZE);
	r->cpu = (u64)cpu;
	cpu_state[cpu] = CPU_STARTING;
	clean_to_poc(r, sizeof(*r));
	clean_to_poc(&cpu_state[cpu], sizeof(cpu_state[cpu]));
	rc = psci_cpu_on(cpu_mpidr[cpu], pt_kimage_pa((unsigned long)secondary_entry),
			 pt_kimage_pa((unsigned long)r));
	if (rc) {
		printk("smp: CPU %d (MPIDR 0x%llx): PSCI CPU_ON failed: %lld (%s)\n", cpu,
		       (unsigned long long)cpu_mpidr[cpu], (long long)rc, psci_error(rc));
		cpu_state[cpu] = CPU_ABSENT;
		return false;
	}
	t0 = arch_time_ns();
	while (load_acquire(&cpu_state[cpu]) != CPU_REPORTED) {
		if (arch_time_ns() - t0 > BOOT_WAIT_NS) {
			printk("smp: CPU %d (MPIDR 0x%llx) did not come up\n", cpu,
			       (unsigned long long)cpu_mpidr[cpu]);
			return false;
		}
		cpu_relax();
	}
	return true;
}

/* Let a reported CPU go and wait until it counts itself online. */
static void release_cpu(int cpu)
{
	store_release(&cpu_state[cpu], CPU_RELEASED);
	while (load_acquire(&cpu_state[cpu]) != CPU_ONLINE)
		cpu_relax();
}

void arch_smp_boot(void)
{
	int rc = irq_request(IPI_CALL, ipi_handler, NULL, "ipi-call");

	if (rc) {
		printk("smp: cannot install the IPI handler (%s): secondaries stay off\n", irq_strerror(rc));
		nr_present = 1;
	}
	for (int cpu = 1; cpu < nr_present; cpu++) {
		if (!start_cpu(cpu))
			continue;
		bbml2_secondary_reported(cpu, &cpu_caps[cpu], cpu == nr_present - 1);
		release_cpu(cpu);
		printk("smp: CPU %d up: MPIDR 0x%llx, entered at EL%llu, MIDR 0x%08llx, BBML2 %s\n", cpu,
		       (unsigned long long)cpu_mpidr[cpu], (unsigned long long)cpu_caps[cpu].entry_el,
		       (unsigned long long)cpu_caps[cpu].midr, cpu_caps[cpu].bbml2 ? "yes" : "no");
	}
	printk("smp: %d CPUs online\n", smp_num_online());
}
