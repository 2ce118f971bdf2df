/* setjmp.h - non-local jumps, with the signal mask for sigsetjmp.
 *
 * __regs holds the callee-saved registers, the stack pointer and the
 * return address: arm64 x19..x30 and sp (13); MicroBlaze r1, r2, r13, r15,
 * r19..r31 (17). arch/<arch>/setjmp.S relies on this layout.
 */
#ifndef _SETJMP_H
#define _SETJMP_H
#include <bits/types.h>

#if defined(__aarch64__)
#define __JB_REGS 13
#else
#define __JB_REGS 17
#endif

struct __jmp_buf_tag {
	long __regs[__JB_REGS];
	int __savemask;		/* offset __JB_REGS * sizeof(long) */
	sigset_t __mask;	/* next long boundary */
};
typedef struct __jmp_buf_tag jmp_buf[1];
typedef struct __jmp_buf_tag sigjmp_buf[1];

int setjmp(jmp_buf env) __attribute__((returns_twice));
__attribute__((noreturn)) void longjmp(jmp_buf env, int val);
int sigsetjmp(sigjmp_buf env, int savemask) __attribute__((returns_twice));
__attribute__((noreturn)) void siglongjmp(sigjmp_buf env, int val);

#endif
