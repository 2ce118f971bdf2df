/*
 * main.c - the architecture-independent boot sequence.
 *
 * arch code enters kernel_main() with the MMU on, running at the image's
 * linked address, with the DTB mapped and an early console (the board's
 * UART named at build time) registered. From here on everything comes from
 * the device tree.
 */
#include "types.h"
#include "printk.h"
#include "kstring.h"
#include "arch.h"
#include "fdt.h"
#include "driver.h"
#include "params.h"
#include "exec.h"
#include "ktest.h"
#include "fs_file.h"
#include "memblock.h"
#include "page_alloc.h"
#include "kernel.h"
#include "hugetlb.h"
#include "proc.h"
#include "vfs.h"
#include "random.h"
#include "irq.h"
#include "ktime.h"
#include "mm_check.h"

static struct fdt boot_fdt;
static struct fdt_boot_info boot_info;
static char cmdline[1024];
struct pt_counts linear_map_boot_counts;

const struct fdt *kernel_fdt(void)
{
	return &boot_fdt;
}

const struct fdt_boot_info *kernel_boot_info(void)
{
	return &boot_info;
}

/* Validate the DTB and gather memory, reservations and /chosen; any error
 * stops the boot with the reader's message. */
static void read_device_tree(const void *dtb, u32 max_size)
{
	char err[160];
	int rc = fdt_open(&boot_fdt, dtb, max_size, err, sizeof(err));

	if (rc)
		panic("malformed device tree: %s", err);
	rc = fdt_scan_boot_info(&boot_fdt, &boot_info, err, sizeof(err));
	if (rc)
		panic("device tree: %s", err);
}

/* Hand RAM and every reservation to memblock. */
static void setup_memblock(phys_addr_t dtb_pa)
{
	const struct fdt_boot_info *bi = &boot_info;

	for (int i = 0; i < bi->nmem; i++)
		memblock_add(bi->mem[i].base, bi->mem[i].size);
	arch_reserve_memory();
	memblock_reserve(dtb_pa, boot_fdt.totalsize, "device tree");
	if (bi->has_initrd)
		memblock_reserve(bi->initrd_start, bi->initrd_end - bi->initrd_start, "initrd");
	for (int i = 0; i < bi->nreserved; i++)
		memblock_reserve(bi->reserved[i].base, bi->reserved[i].size, "reserved-memory");
}

/* Arches whose boot loader also passes the command line in a register
 * override this (MicroBlaze: r5); NULL means there is none. */
__attribute__((weak)) const char *arch_boot_cmdline(void)
{
	return NULL;
}

#define INIT_MAX_WORDS 16
static char *init_argv[INIT_MAX_WORDS + 2];
static char *init_envp[INIT_MAX_WORDS + 3] = { "HOME=/", "TERM=linux" };
static int init_argc = 1, init_envc = 2;

/* A command-line word no option claims: init gets it, as on Linux. */
static bool pass_to_init(char *word, char *value)
{
	if (value && init_envc < INIT_MAX_WORDS + 2) {
		init_envp[init_envc++] = word;
	} else if (!value && init_argc < INIT_MAX_WORDS + 1) {
		init_argv[init_argc++] = word;
	} else {
		printk("bootargs: too many words for init, '%s' dropped\n", word);
		return false;
	}
	printk("bootargs: '%s' is not a kernel option: passed to init\n", word);
	return true;
}

/* Copy /chosen/bootargs (the DTB stays read-only), or when it is absent or
 * empty the boot loader's command line, and parse it. */
static void parse_bootargs(void)
{
	const char *src = boot_info.bootargs ? boot_info.bootargs : "";

	if (!*src && arch_boot_cmdline())
		src = arch_boot_cmdline();
	size_t n = strlen(src);

	if (n >= sizeof(cmdline))
		printk("bootargs: command line longer than %zu bytes, truncated\n", sizeof(cmdline) - 1);
	snprintk(cmdline, sizeof(cmdline), "%s", src);
	bootargs_unknown_hook = pass_to_init;
	bootargs_parse(cmdline, kernel_params, kernel_nparams);
}

static void print_banner(phys_addr_t dtb_pa)
{
	const struct fdt_boot_info *bi = &boot_info;
	struct page_stats st;
	u64 total = 0;

	printk("Teaching kernel booting\n");
	arch_banner();
	for (int i = 0; i < bi->nmem; i++) {
		printk("memory: bank %d: 0x%llx-0x%llx (%llu MiB)\n", i,
		       (unsigned long long)bi->mem[i].base,
		       (unsigned long long)(bi->mem[i].base + bi->mem[i].size - 1),
		       (unsigned long long)(bi->mem[i].size >> 20));
		total += bi->mem[i].size;
	}
	page_alloc_stats(&st);
	printk("memory: %llu MiB in %d bank(s), %llu KiB free after boot\n",
	       (unsigned long long)(total >> 20), bi->nmem,
	       (unsigned long long)(st.free_pages << PAGE_SHIFT >> 10));
	printk("dtb: 0x%llx (%u bytes)\n", (unsigned long long)dtb_pa, (unsigned)boot_fdt.totalsize);
	printk("bootargs: \"%s\"\n", bi->bootargs ? bi->bootargs : "");
	printk("boot time: %llu ns of guest time since entry\n",
	       (unsigned long long)arch_time_ns());
}

/*
 * Hand the CPU to user space: unpack the initramfs into the root (fs/), seed the random
 * generator, and run /init (or init=) as the first process. Its exit
 * status becomes the kernel's.
 */
static void __attribute__((noreturn)) start_init(void)
{
	const struct fdt_boot_info *bi = &boot_info;
	int chosen = fdt_path_offset(&boot_fdt, "/chosen"), len = 0;
	const void *seed = chosen >= 0 ? fdt_getprop(&boot_fdt, chosen, "rng-seed", &len) : NULL;

	fs_boot(bi->initrd_end > bi->initrd_start ? phys_to_virt(bi->initrd_start) : NULL,
		bi->initrd_end - bi->initrd_start);
	random_seed(seed, seed ? (size_t)len : 0);
	proc_init();
	time_set_tick_hook(sched_tick);
	time_set_local_tick_hook(sched_local_tick);
	init_argv[0] = (char *)opt_init;
	printk("starting %s\n", opt_init);
	proc_start_init(opt_init, init_argv, init_envp);
}

void kernel_main(const void *dtb, u32 dtb_max_size, phys_addr_t dtb_pa)
{
	int failures = 0;

	read_device_tree(dtb, dtb_max_size);
	arch_setup_dt(&boot_fdt);
	setup_memblock(dtb_pa);
	parse_bootargs();
	if (!console_bind(&boot_fdt))
		printk("console: staying on the early console\n");
	arch_mm_init();
	pt_count_linear(arch_kernel_space(), &linear_map_boot_counts);
	page_alloc_init();
	arch_mm_ready();
	hugetlb_init();
	mm_check_init();
	print_banner(dtb_pa);
	irq_init(&boot_fdt);	/* interrupts stay masked at the CPU until someone enables them */
	time_init(&boot_fdt);
	arch_smp_boot();	/* the other CPUs, if any: idle, answering IPIs */
	if (opt_norandmaps)
		sysctl_randomize_va_space = 0;
	if (opt_help)
		bootargs_print_help(kernel_params, kernel_nparams);
	if (opt_ptdump)
		arch_ptdump();
	if (opt_ktest)
		failures = ktest_run(opt_ktest);
	if (failures || !boot_info.has_initrd) {
		printk("boot complete\n");
		arch_poweroff(failures ? 1 : 0);
	}
	start_init();
}
