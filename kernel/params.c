/*
 * params.c - the table of boot options. The README's bootarg table lists
 * the same options; tests/host/readme_params.sh checks they agree.
 */
#include "params.h"
#include "page_alloc.h"
#include "linear_map.h"
#include "hugetlb.h"
#include "thp.h"
#include "mm_check.h"
#include "fail_alloc.h"
#include "pgtable.h"

bool opt_ptdump;
bool opt_help;
const char *opt_ktest;
const char *opt_expect;
const char *opt_init = "/init";
bool opt_strace;
bool opt_norandmaps;
int opt_rodata = RODATA_FULL;
int opt_linear_map = LINEAR_MAP_BLOCK;
int opt_bbml2;	/* arm64's BBML2_AUTO, _ALL, _NONE, _SECONDARY_LACKS (arch/arm64/include/bbml2.h) */

/* Choice lists, in the order of the RODATA_* and LINEAR_MAP_* values. */
static const char *const rodata_choices[] = { "off", "on", "full", NULL };
static const char *const linear_map_choices[] = { "pte", "cont", "block", NULL };
static const char *const bbml2_choices[] = { "auto", "all", "none", "secondary-lacks", NULL };
static const char *const thp_choices[] = { "never", "madvise", "always", NULL };
_Static_assert(THP_NEVER == 0 && THP_MADVISE == 1 && THP_ALWAYS == 2, "transparent_hugepage choices");
_Static_assert(RODATA_OFF == 0 && RODATA_ON == 1 && RODATA_FULL == 2, "rodata choices");
_Static_assert(LINEAR_MAP_PTE == 0 && LINEAR_MAP_CONT == 1 && LINEAR_MAP_BLOCK == 2, "linear_map choices");

static bootarg_fn hugepages_fn = hugetlb_bootarg_pages, hugepagesz_fn = hugetlb_bootarg_size;

const struct bootarg kernel_params[] = {
	{ "help", BA_FLAG, &opt_help, NULL, "print this table at boot" },
	{ "ktest", BA_STRING, &opt_ktest, NULL,
	  "run in-kernel tests: all, or a comma list of names; TAP on the console" },
	{ "expect", BA_STRING, &opt_expect, NULL,
	  "for ktest dt_matches_qemu: what QEMU was asked for, e.g. mem:512M,cpu:max,el:1,gic:2" },
	{ "init", BA_STRING, &opt_init, NULL,
	  "the first user program, a path in the root file system (default /init)" },
	{ "strace", BA_FLAG, &opt_strace, NULL,
	  "print every system call with its first arguments and result" },
	{ "ptdump", BA_FLAG, &opt_ptdump, NULL, "print the kernel page tables after boot" },
	{ "rodata", BA_CHOICE, &opt_rodata, rodata_choices,
	  "full (default): image text+rodata and its linear-map alias read-only; on: alias left writable; off: image RWX" },
	{ "linear_map", BA_CHOICE, &opt_linear_map, linear_map_choices,
	  "what the linear map may use: block (default: blocks, contiguous runs), cont (pages and page runs), pte (pages only)" },
	{ "bbml2", BA_CHOICE, &opt_bbml2, bbml2_choices,
	  "arm64: which CPUs count as having BBML2 (live block splits): auto (default: ID registers and MIDR), all, none (the boot CPU lacks it), secondary-lacks (the last secondary lacks it)" },
	{ "hugepages", BA_CALL, &hugepages_fn, NULL,
	  "huge pages to put in the pool at boot: of the hugepagesz= before it, else the default size (2M; 16K pages: 32M, 64K: 512M; MicroBlaze: 4M)" },
	{ "hugepagesz", BA_CALL, &hugepagesz_fn, NULL,
	  "the size the next hugepages= fills (pairs may repeat): arm64 64K, 2M, 32M or 1G (16K pages: 2M, 32M, 1G; 64K: 2M, 512M, 16G), MicroBlaze 4M or 16M" },
	{ "transparent_hugepage", BA_CHOICE, &opt_thp, thp_choices,
	  "huge pages for anonymous memory: never, madvise (default: where MADV_HUGEPAGE asks), always" },
	{ "init_on_alloc", BA_BOOL, &init_on_alloc, NULL, "zero pages when allocated (default 0)" },
	{ "init_on_free", BA_BOOL, &init_on_free, NULL, "zero pages when freed (default 0)" },
	{ "mm_check", BA_UINT, &opt_mm_check, NULL,
	  "check every user address space after each mm system call, fault, fork and exit (1), or after every Nth of each kind (N); panic on a violation (default 0: off)" },
	{ "norandmaps", BA_FLAG, &opt_norandmaps, NULL,
	  "no address-space randomisation: /proc/sys/kernel/randomize_va_space starts at 0 (as Linux's norandmaps)" },
	{ "pte_trace", BA_BOOL, &pte_trace, NULL,
	  "print each step of every live descriptor write (pte_update: break, tlbi, make, inplace), one line per step (default 0)" },
	{ "fail_alloc", BA_UINT, &fail_alloc_countdown, NULL,
	  "for tests: fail the Nth page or slab allocation (once; 0: off); /proc/sys/vm/fail_alloc arms it at run time" },
};
const int kernel_nparams = ARRAY_SIZE(kernel_params);
