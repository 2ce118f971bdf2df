/*
 * setup.c - MicroBlaze boot glue between head.S and the generic kernel_main().
 *
 * head.S leaves us in virtual mode at the image's linked address, the image
 * window translated by one pinned 16 MiB UTLB slot, the vectors and the
 * refill handler in place. There is one root table for the whole address
 * space, swapper_pg_dir, static in the image; the refill handler walks it
 * (physically) for every kernel VA that misses. From here:
 *
 *   start_kernel   tell mm/ where the image is, hang the fixmap off the
 *                  root, start the early console, map the DTB, kernel_main();
 *   arch_mm_init   map the image in the root with W^X, in pages; unpin the
 *                  boot slot, so the tables alone translate; build the
 *                  linear map (<asm/mmu.h>: 4K pages: 16 MiB runs of 4 MiB
 *                  blocks; 16K: 64 MiB blocks and 16 MiB runs of pages;
 *                  64K: 16 MiB runs of pages; where aligned).
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
#include "params.h"
#include "ktime.h"
#include "mb.h"
#include <asm/memlayout.h>

/* Largest device tree we map. */

static struct pt_space kernel_space;
static pteval_t swapper_pg_dir[PAGE_SIZE / sizeof(pteval_t)] ARCH_PAGE_ALIGNED_BSS;

extern char _text[], _etext[], __start_rodata[], __end_rodata[], _data[], _end[];
void start_kernel(u32 dtb_pa);

/* The early console: <EARLYCON_UART>_early_start(registers) from drivers/. */
#define EARLY_START__(uart) uart##_early_start
#define EARLY_START_(uart) EARLY_START__(uart)
#define early_console_start EARLY_START_(EARLYCON_UART)
void early_console_start(void *regs);

static phys_addr_t kpa(const void *sym)
{
	return pt_kimage_pa((unsigned long)sym);
}


void start_kernel(u32 dtb_pa)
{
	const void *dtb;
	u32 dtb_size;

	pt_init(KIMAGE_PHYS, (unsigned long)_text, (u64)(_end - _text));
	pt_mmu_enabled();
	pt_space_init(&kernel_space, kpa(swapper_pg_dir), 0, PT_ASID_KERNEL);
	mb_kernel_pgd_pa = (u32)kernel_space.root;
	fixmap_init(&kernel_space);
	ioremap_set_space(&kernel_space);
	/* The slot maps the page holding the registers (16550: 4 KiB into a 16K/64K page). */
	early_console_start((char *)fixmap_map(FIX_CONSOLE, EARLYCON & ~(PAGE_SIZE - 1),
					       PT_READ | PT_WRITE | PT_DEVICE) + (EARLYCON & (PAGE_SIZE - 1)));
	dtb = fixmap_map_dtb_header_first(dtb_pa, &dtb_size);
	kernel_main(dtb, dtb_size, dtb_pa);
}

/* QEMU overwrites /chosen/bootargs with -append; r5 is the fallback. */
const char *arch_boot_cmdline(void)
{
	return mb_boot_cmdline;
}

void arch_reserve_memory(void)
{
	memblock_reserve(KIMAGE_PHYS, (u64)(_end - _text), "kernel image");
}

/* Map [start, end) of the image at its link address with prot, in pages. */
static void map_image_part(const char *start, const char *end, unsigned prot)
{
	if (!pt_map_range(&kernel_space, (unsigned long)start, kpa(start), (u64)(end - start), prot,
			  PT_LEAF(PT_LAST_LEVEL)))
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

void arch_mm_init(void)
{
	struct linear_map_config cfg = {
		.rodata = opt_rodata,
		.mode = opt_linear_map,
		.ro_start = kpa(_text),
		.ro_end = kpa(__end_rodata),
	};

	map_image();
	/* From here a miss in the image window walks the tables (pages, W^X). */
	mb_tlb_unpin_boot();
	linear_map_build(&kernel_space, &cfg);
	/* Exception entry may now save a frame on a stack in the linear map. */
	mb_linear_offset = (u32)(pt_linear_pa(PAGE_OFFSET) - PAGE_OFFSET);
}

void arch_setup_dt(const struct fdt *fdt)
{
	(void)fdt;
}

void arch_mm_ready(void)
{
	pt_use_page_allocator();
}

void arch_ptdump(void)
{
	unsigned valid, huge;

	ptdump_kernel(&kernel_space);
	mb_tlb_census(&valid, &huge);
	printk("tlb: %u of %d UTLB slots valid, %u of them 16M\n", valid, TLB_ENTRIES, huge);
}

const struct pt_space *arch_kernel_space(void)
{
	return &kernel_space;
}

/*
 * The CPU has no counter of its own: time is the xps-timer's free-running
 * timer 1 (cycles since the timer was probed, 0 before). Never goes
 * backwards.
 */
u64 arch_time_ns(void)
{
	static u64 last;
	const struct tick_source *src = time_tick_source();
	unsigned long flags = arch_irq_save();
	u64 ns = 0;

	if (src && src->freq) {
		u64 cycles = xps_timer_free_cycles();

		ns = cycles / src->freq * NSEC_PER_SEC + cycles % src->freq * NSEC_PER_SEC / src->freq;
	}
	if (ns < last)
		ns = last;
	last = ns;
	arch_irq_restore(flags);
	return ns;
}

/* Interrupts at the CPU (MSR.IE); save returns the old MSR. */
unsigned long arch_irq_save(void)
{
	unsigned long msr;

	__asm__ volatile("msrclr %0, %1" : "=r"(msr) : "i"(MSR_IE) : "memory");
	return msr;
}

void arch_irq_restore(unsigned long flags)
{
	if (flags & MSR_IE)
		arch_local_irq_enable();
}

void arch_irq_enable(void)
{
	arch_local_irq_enable();
}

void arch_irq_disable(void)
{
	arch_local_irq_disable();
}

bool arch_irqs_enabled(void)
{
	return (mfs(rmsr) & MSR_IE) != 0;
}

/* mbar 16: sleep until an interrupt is pending (QEMU wakes even when IE = 0). */
void arch_wait_for_interrupt(void)
{
	__asm__ volatile("mbar 16" ::: "memory");
}

/* PVR0 bits 15:8: the CPU version code (0x0b = v7.10.d, 0x14 = v8.10.a). */
static unsigned pvr_version(void)
{
	return (mfs(rpvr0) >> 8) & 0xff;
}

void arch_banner(void)
{
	u32 pvr0 = mfs(rpvr0), pvr2 = mfs(rpvr2);

	printk("cpu: MicroBlaze PVR0 0x%08x (version code 0x%02x, %s-endian), PVR2 0x%08x, PVR11 0x%08x\n",
	       (unsigned)pvr0, pvr_version(), (pvr0 & 0x00200000) ? "little" : "big",
	       (unsigned)pvr2, (unsigned)mfs(rpvr11));
	printk("cpu: exceptions: illegal opcode %s, divide by zero %s, unaligned %s, opcode 0 %s\n",
	       (pvr2 & PVR2_ILL_OPCODE) ? "on" : "off", (pvr2 & PVR2_DIV_ZERO) ? "on" : "off",
	       (pvr2 & PVR2_UNALIGNED) ? "on" : "off", (pvr2 & PVR2_OPCODE_0_ILL) ? "on" : "off");
}

/* ktest dt_matches_qemu: the MicroBlaze key board (the DT and the CPU agree). */
void arch_ktest_expect(const char *key, const char *val)
{
	const struct fdt *fdt = kernel_fdt();

	if (strcmp(key, "board") == 0) {
		char compat[40];
		unsigned want = strcmp(val, "ml605") == 0 ? 0x14 : strcmp(val, "s3adsp1800") == 0 ? 0x0b : 0;

		snprintk(compat, sizeof(compat), "xlnx,%s", val);
		ktest_ok(fdt_node_is_compatible(fdt, fdt_path_offset(fdt, "/"), compat),
			 "the device tree describes %s", val);
		ktest_ok(pvr_version() == want, "PVR0 version code 0x%02x is the %s CPU", pvr_version(), val);
	} else {
		ktest_ok(false, "unknown expect key '%s'", key);
	}
}

/* No power-off device on these boards: print the marker the runner waits for, idle. */
void arch_poweroff(int status)
{
	printk("kernel-exit: status=%d\n", status);
	mb_irq_disable();
	for (;;)
		__asm__ volatile("mbar 16" ::: "memory");   /* sleep until an interrupt */
}

/* One CPU: the lock word only records the holder's claim (kernel/spinlock.c
 * checks it for a recursive acquire); the barriers keep the compiler from
 * moving the critical section's accesses out. */
void arch_spin_lock(u32 *word)
{
	*(volatile u32 *)word = 1;
	__asm__ volatile("" ::: "memory");
}

void arch_spin_unlock(u32 *word)
{
	__asm__ volatile("" ::: "memory");
	*(volatile u32 *)word = 0;
}

/* Both boards have one CPU. */
void arch_smp_boot(void)
{
	printk("smp: 1 CPUs online\n");
}
