/*
 * uaccess.h - copying to and from user memory. Every user pointer a system
 * call receives goes through these: an address outside user space, or one
 * that faults without a VMA to back it, gives -EFAULT, never a kernel crash.
 */
#ifndef UACCESS_H
#define UACCESS_H

#include "types.h"

long copy_from_user(void *dst, const void *usrc, size_t n);
long copy_to_user(void *udst, const void *src, size_t n);

/* Copy a NUL-terminated string of at most max bytes (with the NUL);
 * returns its length, -EFAULT, or -ENAMETOOLONG. */
long strncpy_from_user(char *dst, const char *usrc, size_t max);

/* Is [uaddr, uaddr + n) inside user space? */
bool user_range_ok(unsigned long uaddr, size_t n);

/*
 * The arch's copies with fault fixups: return the number of bytes NOT
 * copied. Only the user-side accesses may touch user memory; arm64 makes
 * them with the unprivileged instructions (EL0 permissions, not subject to
 * PAN).
 */
size_t arch_copy_from_user(void *dst, const void *usrc, size_t n);
size_t arch_copy_to_user(void *udst, const void *src, size_t n);

#endif
