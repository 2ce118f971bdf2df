/*
 * exec.h - loading a program into a process.
 */
#ifndef EXEC_H
#define EXEC_H

#include "types.h"

struct proc;

/*
 * Replace p's address space with the static ELF executable at path (an
 * initramfs file), with the given argument and environment strings (kernel
 * memory), and set p's user registers to start it. A file that starts with
 * "#!" is a script: its interpreter runs instead, as on Linux. On error p is
 * unchanged and -errno is returned (-ENOENT, -EACCES, -ENOEXEC, -ENOMEM,
 * -E2BIG, -ELOOP).
 */
long exec_into(struct proc *p, const char *path, char *const argv[], char *const envp[]);

/* /proc/sys/kernel/randomize_va_space: 0, 1 or 2 (kernel/exec.c). */
extern u64 sysctl_randomize_va_space;

#endif
