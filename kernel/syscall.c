/*
 * syscall.c - dispatch through the arch's table (see syscall.h).
 */
#include "syscall.h"
#include "proc.h"
#include "printk.h"
#include "errno.h"
#include "params.h"

#define LOGGED_MAX 1024
static u8 logged[LOGGED_MAX / 8];

/* Say once per number that a syscall is not implemented. */
static void log_unknown(unsigned long nr)
{
	if (nr < LOGGED_MAX) {
		if (logged[nr / 8] & (1u << (nr % 8)))
			return;
		logged[nr / 8] |= 1u << (nr % 8);
	}
	printk("syscall %lu (%s) not implemented: ENOSYS [pid %d %s]\n", nr,
	       nr < arch_nr_syscalls && arch_syscalls[nr].name ? arch_syscalls[nr].name : "unknown",
	       current_proc()->pid, current_proc()->name);
}

long syscall_dispatch(unsigned long nr, const unsigned long *a)
{
	long ret;

	if (nr >= arch_nr_syscalls || !arch_syscalls[nr].fn) {
		log_unknown(nr);
		return -ENOSYS;
	}
	ret = arch_syscalls[nr].fn(a);
	if (opt_strace)
		printk("strace: [%d %s] %s(0x%lx, 0x%lx, 0x%lx, 0x%lx) = %ld\n", current_proc()->pid,
		       current_proc()->name, arch_syscalls[nr].name, a[0], a[1], a[2], a[3], ret);
	return ret;
}
