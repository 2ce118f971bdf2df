/* syscall_arch.h (MicroBlaze) - how a system call is made.
 *
 * Linux MicroBlaze convention: number in r12, arguments in r5..r10,
 * `brki r14, 0x8` (r14 receives the address of the brki; the kernel resumes
 * at r14 + 4), result in r3 (a value in [-4095, -1] is -errno). We let the
 * kernel clobber r4 as well as r3 and r14; everything else is preserved.
 */
#ifndef _SYSCALL_ARCH_H
#define _SYSCALL_ARCH_H

static inline long __syscall6(long n, long a, long b, long c, long d, long e, long f)
{
	register long r12 __asm__("r12") = n;
	register long r5 __asm__("r5") = a;
	register long r6 __asm__("r6") = b;
	register long r7 __asm__("r7") = c;
	register long r8 __asm__("r8") = d;
	register long r9 __asm__("r9") = e;
	register long r10 __asm__("r10") = f;
	register long r3 __asm__("r3");

	__asm__ __volatile__("brki r14, 0x8"
			     : "=r"(r3)
			     : "r"(r12), "r"(r5), "r"(r6), "r"(r7), "r"(r8), "r"(r9), "r"(r10)
			     : "r4", "r14", "memory");
	return r3;
}

#endif
