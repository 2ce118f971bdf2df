/*
 * params.h - boot options (bootargs) and the table that documents them.
 * Each variable keeps its default unless the command line changes it.
 */
#ifndef PARAMS_H
#define PARAMS_H

#include "bootargs.h"

extern bool opt_ptdump;		/* ptdump: print the kernel page tables at boot */
extern bool opt_help;		/* help: print this table at boot */
extern const char *opt_ktest;
extern const char *opt_init;
extern bool opt_norandmaps;	/* norandmaps: randomize_va_space starts at 0 */
extern bool opt_strace;		/* strace: log every system call */	/* init=/path: the first user program */
extern const char *opt_expect;	/* expect=key:value,...: the QEMU configuration, for ktests */	/* ktest=all|name,...: in-kernel tests to run */

extern int opt_rodata;		/* rodata=off|on|full: RODATA_* in mm/linear_map.h */
extern int opt_linear_map;	/* linear_map=pte|cont|block: LINEAR_MAP_* */
extern int opt_bbml2;		/* bbml2=auto|all|none|secondary-lacks (arm64) */

extern const struct bootarg kernel_params[];
extern const int kernel_nparams;

#endif
