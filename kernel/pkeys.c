/*
 * pkeys.c - memory protection keys on a CPU without them, as Linux 6.12
 * behaves on arm64 without FEAT_POE (measured on Debian's kernel by
 * tests/selftests/mm_probe.c), with what differs per arch in
 * <asm/pkeys.h> (MicroBlaze: Linux's generic no-pkeys answers, where
 * pkey_free refuses key 0 too):
 *   pkey_alloc(flags, rights): EINVAL for any flag or unknown rights bit,
 *       else ENOSPC (no key can be handed out);
 *   pkey_free(key): key 0 is allocated in every new address space and may
 *       be freed once (0); any other key, or 0 again, is EINVAL;
 *   pkey_mprotect(addr, len, prot, key): mprotect when key is -1 or an
 *       allocated key (only 0 can be), else EINVAL after mprotect's own
 *       argument checks.
 * The freed keys are per address space (mm->pkeys_freed), kept over fork
 * and reset by execve (a new mm starts with zero).
 */
#include "syscall.h"
#include "proc.h"
#include "mm.h"
#include "errno.h"
#include "mman.h"
#include <asm/pkeys.h>


static bool pkey_allocated(const struct mm *mm, long key)
{
	return key == 0 && !(mm->pkeys_freed & 1);
}

long sys_pkey_alloc(const unsigned long *a)
{
	if (a[0])
		return -EINVAL;
	if (a[1] & ~ARCH_PKEY_ACCESS_MASK)
		return -EINVAL;
	return -ENOSPC;
}

long sys_pkey_free(const unsigned long *a)
{
	struct mm *mm = current_proc()->mm;
	long key = arg_int(a[0]);

	if (!ARCH_PKEY0_FREEABLE || key < 0 || key >= ARCH_MAX_PKEY || !pkey_allocated(mm, key))
		return -EINVAL;
	mm->pkeys_freed |= 1u << key;
	return 0;
}

long sys_pkey_mprotect(const unsigned long *a)
{
	unsigned long start = a[0], len = a[1], prot = a[2];
	long key = arg_int(a[3]);

	if (key == -1 || pkey_allocated(current_proc()->mm, key))
		return sys_mprotect(a);
	/* do_mprotect_pkey(): the argument checks come before the key's. */
	if ((prot & PROT_GROWSDOWN) && (prot & PROT_GROWSUP))
		return -EINVAL;
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;
	if (!len)
		return 0;
	len = (len + PAGE_SIZE - 1) & ~(unsigned long)(PAGE_SIZE - 1);
	if (start + len <= start)
		return -ENOMEM;
	return -EINVAL;
}
