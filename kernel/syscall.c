/*
 * syscall.c - dispatch through the arch's table (see syscall.h).
 */
#include "syscall.h"
#include "proc.h"
#include "printk.h"
#include "errno.h"
#include "params.h"
#include "mm_check.h"
#include "kstring.h"

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

/*
 * The calls after which mm_check=N counts an event (and checks) the address spaces: those that
 * change mappings (a new image, VMAs, entries) or the pages the kernel
 * holds for them (memfds). By name, so an architecture's adapters (the
 * MicroBlaze mmap2, ftruncate64, fallocate) count too. Faults, fork and
 * exit have hooks of their own.
 */
static const char *const mm_changing[] = {
	"mmap", "mmap2", "munmap", "mremap", "mprotect", "madvise", "mseal", "brk", "pkey_mprotect",
	"execve", "memfd_create", "truncate", "truncate64", "ftruncate", "ftruncate64", "fallocate", "close", "dup2", "dup3",
	"mlock", "mlock2", "munlock", "mlockall", "munlockall",
};

static bool changes_mm(const char *name)
{
	for (unsigned i = 0; i < ARRAY_SIZE(mm_changing); i++)
		if (!strcmp(mm_changing[i], name))
			return true;
	return false;
}

long syscall_dispatch(unsigned long nr, const unsigned long *a)
{
	long ret;

	if (nr >= arch_nr_syscalls || !arch_syscalls[nr].fn) {
		log_unknown(nr);
		return -ENOSYS;
	}
	current_proc()->in_syscall++;
	current_proc()->sys_returning = true;	/* for the restart rules (signal.c) */
	current_proc()->syscall_arg0 = a[0];
	ret = arch_syscalls[nr].fn(a);
	current_proc()->in_syscall--;
	if (opt_mm_check && changes_mm(arch_syscalls[nr].name))
		mm_check_all(arch_syscalls[nr].name, a[0]);
	if (opt_strace)
		printk("strace: [%d %s] %s(0x%lx, 0x%lx, 0x%lx, 0x%lx) = %ld\n", current_proc()->pid,
		       current_proc()->name, arch_syscalls[nr].name, a[0], a[1], a[2], a[3], ret);
	return ret;
}
