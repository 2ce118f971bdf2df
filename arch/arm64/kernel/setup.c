/*
 * setup.c - arm64 boot glue between head.S and the generic kernel_main().
 *
 * head.S leaves us at KIMAGE_VADDR with two static boot tables: an
 * identity map of the image (TTBR0) and a 2 MiB-block RWX map of the image
 * (TTBR1, boot_kimage_tables). From here:
 *
 *   start_kernel   tell mm/ where the image is, hang the fixmap off the boot
 *                  root, start the early console, map the DTB, kernel_main();
 *   arch_mm_init   build the final kernel root (swapper_pg_dir): the image
 *                  with W^X, the fixmap and ioremap subtrees shared with the
 *                  boot root; switch TTBR1 to it from the identity map; then
 *                  build the linear map in it.
 */
#include "types.h"
#include "printk.h"
#include "kstring.h"
#include "arch.h"
#include "kernel.h"
#include "ktest.h"
#include "memblock.h"
#include "page_alloc.h"
#include "pgtable.h"
#include "fixmap.h"
#include "ioremap.h"
#include "linear_map.h"
#include "ptdump.h"
#include "arch_arm64.h"
#include "params.h"
#include "bbml2.h"
#include "smp.h"
#include <asm/spinlock.h>
#include <asm/memlayout.h>
#include <asm/sysregs.h>

_Static_assert(MAIR_EL1_BOOT == MAIR_EL1_VALUE, "head.S and asm/pgtable.h disagree on MAIR_EL1");


u64 arm64_entry_el;
bool arm64_has_pan;
bool arm64_has_bti;
static phys_addr_t kimage_pa;
static u64 entry_counter;

static struct pt_space boot_space;	/* boot_kimage_tables, live until the switch */
static struct pt_space kernel_space;	/* swapper_pg_dir, live after arch_mm_init */
static pteval_t swapper_pg_dir[PAGE_SIZE / sizeof(pteval_t)] __attribute__((aligned(PAGE_SIZE)));
static pteval_t empty_root[PAGE_SIZE / sizeof(pteval_t)] __attribute__((aligned(PAGE_SIZE)));

extern pteval_t boot_kimage_tables[];
extern char _text[], _etext[], __start_rodata[], __end_rodata[], _data[], _end[];
extern char __idmap_text_start[];
extern void arm64_replace_ttbr1_phys(u64 ttbr1, u64 zero_table_pa);
void pl011_console_start(void *base);
void start_kernel(u64 dtb_pa, u64 el, u64 image_pa, u64 counter0);


/* Physical address of a symbol inside the image. */
static phys_addr_t kpa(const void *sym)
{
	return pt_kimage_pa((unsigned long)sym);
}


#define STR_(x) #x
#define STR(x) STR_(x)

/*
 * Privileged Access Never, where the CPU has it (ID_AA64MMFR1_EL1.PAN):
 * SCTLR_EL1.SPAN = 0 makes every exception taken to EL1 set PSTATE.PAN, and
 * we set it now for the code running already. With PAN set an EL1 load or
 * store to a page EL0 may access faults; the user copies use LDTR/STTR,
 * which PAN does not affect, so they alone reach user memory.
 */
static void pan_enable(void)
{
	u64 sctlr;

	if (!((read_sysreg(id_aa64mmfr1_el1) >> ID_AA64MMFR1_PAN_SHIFT) & 0xf))
		return;
	sctlr = read_sysreg(sctlr_el1) & ~(u64)SCTLR_EL1_SPAN;
	__asm__ volatile("msr sctlr_el1, %0\n\t"
			 "isb\n\t"			/* SPAN in effect before any exception */
			 ".inst " STR(MSR_PAN_1)	/* msr pan, #1 */
			 :: "r"(sctlr) : "memory");
	arm64_has_pan = true;
}

/* What every CPU sets up for itself at entry. User programs use FP/SIMD;
 * the kernel never does (-mgeneral-regs-only). */
void arm64_cpu_setup(void)
{
	__asm__ volatile("msr cpacr_el1, %0\n\tisb" :: "r"(3ul << 20));
	pan_enable();
}

u64 arm64_kernel_ttbr1(void)
{
	return kpa(swapper_pg_dir);
}

void start_kernel(u64 dtb_pa, u64 el, u64 image_pa, u64 counter0)
{
	const void *dtb;
	u32 dtb_size;

	/* arch_cpu_id() reads TPIDR_EL1, whose reset value is unknown. */
	__asm__ volatile("msr tpidr_el1, xzr");
	arm64_entry_el = el;
	kimage_pa = image_pa;
	arm64_has_lse = ((read_sysreg(id_aa64isar0_el1) >> 20) & 0xf) >= 2;
	arm64_cpu_setup();
	arm64_has_bti = (read_sysreg(id_aa64pfr1_el1) & 0xf) != 0;	/* ID_AA64PFR1_EL1.BT */
	entry_counter = counter0;
	pt_init(image_pa, (unsigned long)_text, (u64)(_end - _text));
	pt_mmu_enabled();
	pt_space_init(&boot_space, kpa(boot_kimage_tables), 0, PT_ASID_KERNEL);
	fixmap_init(&boot_space);
	ioremap_set_space(&boot_space);
	pl011_console_start(fixmap_map(FIX_CONSOLE, EARLYCON, PT_READ | PT_WRITE | PT_DEVICE));
	dtb = fixmap_map_dtb_header_first(dtb_pa, &dtb_size);
	kernel_main(dtb, dtb_size, dtb_pa);
}

void arch_reserve_memory(void)
{
	memblock_reserve(kimage_pa, (u64)(_end - _text), "kernel image");
}

/* Map [start, end) of the image at its link address with prot, in pages
 * (and contiguous runs of pages where aligned). */
static void map_image_part(const char *start, const char *end, unsigned prot)
{
	if (!pt_map_range(&kernel_space, (unsigned long)start, kpa(start), (u64)(end - start), prot,
			  PT_LEAF(PT_LEVELS - 1) | PT_ALLOW_CONT))
		panic("mapping the kernel image: out of memory");
}

/* The image with W^X: text RX, rodata R, data+bss RW NX (rodata=off: all RWX). */
static void map_image(void)
{
	if (opt_rodata == RODATA_OFF) {
		map_image_part(_text, _end, PT_READ | PT_WRITE | PT_EXEC);
		return;
	}
	map_image_part(_text, _etext, PT_READ | PT_EXEC);
	map_image_part(__start_rodata, __end_rodata, PT_READ);
	map_image_part(_data, _end, PT_READ | PT_WRITE);
}

/*
 * Make kernel_space reach the same subtree for va as boot_space (the
 * fixmap and ioremap areas): link boot_space's entry at the first level
 * where kernel_space has nothing yet. That is level 0 unless the layout's
 * top table is so small that the image shares the entry (16K, 48-bit).
 * Nothing to do when an earlier call already linked a subtree holding va
 * (16K/52: the fixmap and ioremap share one 128 TiB top-level entry).
 */
static void share_subtree(unsigned long va)
{
	struct pt_cursor from, to;
	int level = 0;

	for (;;) {
		pt_walk(&kernel_space, va, level, false, &to);
		if (to.level != level || !arch_pte_is_table(to.val, level) || level == PT_LAST_LEVEL - 1)
			break;
		level++;
	}
	pt_walk(&boot_space, va, to.level, false, &from);
	if (from.level != to.level || !arch_pte_valid(from.val) || from.val == to.val)
		return;
	if (arch_pte_valid(to.val))
		panic("share_subtree: va 0x%lx: the kernel's level-%d entry 0x%llx is in use", va,
		      to.level, (unsigned long long)to.val);
	pte_update(&kernel_space, to.ptep, to.val, from.val, to.va, to.level);
}

/*
 * Switch TTBR1 to swapper_pg_dir. The switch runs from the identity map
 * (TTBR0), because in between TTBR1 points at an empty table and no kernel
 * address translates.
 */
static void switch_to_swapper(void)
{
	unsigned long off = (unsigned long)arm64_replace_ttbr1_phys - (unsigned long)_text;
	void (*replace)(u64, u64) = (void (*)(u64, u64))(kimage_pa + off);

	replace(kpa(swapper_pg_dir), kpa(empty_root));
}

/*
 * The identity map's blocks are global (nG = 0): a TLB entry for them
 * matches every ASID, and switching TTBR0 away does not remove it, so it
 * would go on translating user addresses that happen to equal the image's
 * physical address. After its last use (switch_to_swapper) we take them
 * out as Linux's cpu_uninstall_idmap() does:
 *   msr ttbr0_el1  the empty table: no walk can load an idmap entry again;
 *   isb            that write is in effect before the TLBI below, so no
 *                  walk through the old TTBR0 can refill an entry after it;
 *   dsb nshst      earlier table stores complete before the TLBI;
 *   tlbi vmalle1   drop every EL1&0 entry of this CPU, global ones included
 *                  (local: no other CPU has run the idmap);
 *   dsb nsh        wait until the invalidation has completed;
 *   isb            later instructions are fetched and translated without
 *                  any removed entry.
 */
void arm64_uninstall_idmap(void)
{
	__asm__ volatile("msr ttbr0_el1, %0\n\t"
			 "isb\n\t"
			 "dsb nshst\n\t"
			 "tlbi vmalle1\n\t"
			 "dsb nsh\n\t"
			 "isb"
			 :: "r"((u64)kpa(empty_root)) : "memory");
}

void arch_mm_init(void)
{
	struct linear_map_config cfg = {
		.rodata = opt_rodata,
		.mode = opt_linear_map,
		.ro_start = kpa(_text),
		.ro_end = kpa(__end_rodata),
	};

	/* Mode 2 (bbml2.c): under rodata=full without BBML2 nothing may be
	 * split live later, so the linear map is built from pages. */
	if (!bbml2_boot_decide() && opt_rodata == RODATA_FULL && opt_linear_map != LINEAR_MAP_PTE) {
		printk("linear map: pages only (rodata=full and the boot CPU lacks BBML2)\n");
		opt_linear_map = LINEAR_MAP_PTE;
		cfg.mode = LINEAR_MAP_PTE;
	}

	pt_space_init(&kernel_space, kpa(swapper_pg_dir), 0, PT_ASID_KERNEL);
	map_image();
	share_subtree(FIXMAP_BASE);
	share_subtree(IOREMAP_BASE);
	switch_to_swapper();
	arm64_uninstall_idmap();	/* the identity map's last use was just above */
	ioremap_set_space(&kernel_space);
	linear_map_build(&kernel_space, &cfg);
}

void arch_setup_dt(const struct fdt *fdt)
{
	psci_init(fdt);
	smp_setup_dt(fdt);
}

void arch_mm_ready(void)
{
	pt_use_page_allocator();
}

void arch_ptdump(void)
{
	ptdump_kernel(&kernel_space);
}

const struct pt_space *arch_kernel_space(void)
{
	return &kernel_space;
}

/* Nanoseconds of counter time since entry. CNTFRQ is 62.5 MHz on QEMU. */
u64 arch_time_ns(void)
{
	u64 freq = read_sysreg(cntfrq_el0);
	u64 ticks;

	__asm__ volatile("isb" ::: "memory");	/* do not read the counter early */
	ticks = read_sysreg(cntpct_el0) - entry_counter;
	if (!freq)
		return 0;
	return ticks / freq * 1000000000ull + ticks % freq * 1000000000ull / freq;
}

static void banner_layout(void);

void arch_banner(void)
{
	u64 midr = read_sysreg(midr_el1);
	u64 mmfr2 = read_sysreg(id_aa64mmfr2_el1);

	printk("cpu: MIDR_EL1 0x%08llx (implementer 0x%02llx, part 0x%03llx, variant %llu, revision %llu)\n",
	       (unsigned long long)midr, (unsigned long long)(midr >> 24) & 0xff,
	       (unsigned long long)(midr >> 4) & 0xfff, (unsigned long long)(midr >> 20) & 0xf,
	       (unsigned long long)midr & 0xf);
	printk("cpu: entered at EL%llu%s, running at EL1; FEAT_BBM level %llu; PAN %s\n",
	       (unsigned long long)arm64_entry_el, arm64_entry_el == 2 ? " (dropped to EL1)" : "",
	       (unsigned long long)(mmfr2 >> 52) & 0xf, arm64_has_pan ? "on" : "not implemented");
	banner_layout();
}

/*
 * The layout this kernel was built for, and what the CPU's translation
 * offers (ID_AA64MMFR0_EL1: PARange [3:0], TGran16 [23:20], TGran64
 * [27:24], TGran4 [31:28]; ID_AA64MMFR2_EL1.VARange [19:16]): which
 * granules, the PA size, and the 52-bit features FEAT_LPA (PARange 6),
 * FEAT_LVA (VARange 1, 64K) and FEAT_LPA2 (TGran4 1 or TGran16 2).
 */
static void banner_layout(void)
{
	static const unsigned pa_bits[] = { 32, 36, 40, 42, 44, 48, 52 };
	u64 mmfr0 = read_sysreg(id_aa64mmfr0_el1);
	u64 mmfr2 = read_sysreg(id_aa64mmfr2_el1);
	unsigned parange = mmfr0 & 0xf, tg16 = (mmfr0 >> 20) & 0xf, tg64 = (mmfr0 >> 24) & 0xf;
	unsigned tg4 = (mmfr0 >> 28) & 0xf, varange = (mmfr2 >> 16) & 0xf;

	printk("layout: %s granule, %d-bit VA, %d levels (first hardware level %d), largest leaf %llu MiB, "
	       "contiguous runs of %u pages and %u blocks of %llu MiB\n",
	       GRANULE_NAME, VA_BITS, PT_LEVELS, PT_HW_FIRST_LEVEL,
	       (unsigned long long)(pt_level_size(PT_LARGEST_LEAF_LEVEL) >> 20), arch_pt_cont_entries(PT_LAST_LEVEL),
	       arch_pt_cont_entries(PT_LAST_LEVEL - 1), (unsigned long long)(pt_level_size(PT_LAST_LEVEL - 1) >> 20));
	printk("cpu: granules 4K %s, 16K %s, 64K %s; PA %u bits; FEAT_LPA %s, FEAT_LVA %s, FEAT_LPA2 %s\n",
	       tg4 == 0xf ? "no" : "yes", tg16 ? "yes" : "no", tg64 == 0xf ? "no" : "yes",
	       parange < 7 ? pa_bits[parange] : 0, parange >= 6 ? "yes" : "no",
	       varange >= 1 ? "yes" : "no", (tg4 == 1 || tg16 == 2) ? "yes" : "no");
}

/* A decimal number (the expect= values are ours, well formed). */
static unsigned long strtoul_simple(const char *s)
{
	unsigned long v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + (unsigned long)(*s++ - '0');
	return v;
}

/* ktest dt_matches_qemu: the arm64 keys el, cpu, gic and smp. */
void arch_ktest_expect(const char *key, const char *val)
{
	const struct fdt *fdt = kernel_fdt();

	if (strcmp(key, "el") == 0) {
		ktest_ok(arm64_entry_el == (u64)(val[0] - '0'), "entered at EL%llu, QEMU was asked for EL%s",
			 (unsigned long long)arm64_entry_el, val);
	} else if (strcmp(key, "cpu") == 0) {
		u64 part = (read_sysreg(midr_el1) >> 4) & 0xfff;
		u64 want = strcmp(val, "cortex-a72") == 0 ? 0xd08 : strcmp(val, "cortex-a53") == 0 ? 0xd03 :
			   strcmp(val, "cortex-a57") == 0 ? 0xd07 : strcmp(val, "max") == 0 ? 0x051 : ~0ull;

		ktest_ok(part == want, "MIDR part 0x%03llx is what -cpu %s reports", (unsigned long long)part, val);
	} else if (strcmp(key, "gic") == 0) {
		const char *compat = val[0] == '3' ? "arm,gic-v3" : "arm,cortex-a15-gic";

		ktest_ok(fdt_node_by_compatible(fdt, -1, compat) >= 0, "interrupt controller is %s", compat);
	} else if (strcmp(key, "smp") == 0) {
		int want = (int)strtoul_simple(val);

		ktest_ok(smp_num_online() == want, "%d CPUs online, QEMU was asked for -smp %s",
			 smp_num_online(), val);
	} else {
		ktest_ok(false, "unknown expect key '%s'", key);
	}
}

void arch_poweroff(int status)
{
	printk("kernel-exit: status=%d\n", status);
	psci_system_off();
	for (;;)
		__asm__ volatile("wfi");
}
