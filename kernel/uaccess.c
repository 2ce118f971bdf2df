/*
 * uaccess.c - user memory copies (see uaccess.h). Faults during the copy
 * are first offered to the process's address space (demand paging); only a
 * fault that cannot be satisfied reaches the arch's fixup and ends the copy.
 */
#include "uaccess.h"
#include "errno.h"
#include <asm/memlayout.h>

bool user_range_ok(unsigned long uaddr, size_t n)
{
	return uaddr + n >= uaddr && uaddr + n <= USER_VA_END;
}

long copy_from_user(void *dst, const void *usrc, size_t n)
{
	if (!user_range_ok((unsigned long)usrc, n))
		return -EFAULT;
	return arch_copy_from_user(dst, usrc, n) ? -EFAULT : 0;
}

long copy_to_user(void *udst, const void *src, size_t n)
{
	if (!user_range_ok((unsigned long)udst, n))
		return -EFAULT;
	return arch_copy_to_user(udst, src, n) ? -EFAULT : 0;
}

long strncpy_from_user(char *dst, const char *usrc, size_t max)
{
	for (size_t i = 0; i < max; i++) {
		if (copy_from_user(&dst[i], usrc + i, 1))
			return -EFAULT;
		if (dst[i] == '\0')
			return (long)i;
	}
	return -ENAMETOOLONG;
}
