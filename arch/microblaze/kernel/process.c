/*
 * process.c - the MicroBlaze side of processes: kernel contexts, the user
 * register frame, PID (address-space) switching, the struct stat layout,
 * and the signal trampoline page.
 */
#include "types.h"
#include "printk.h"
#include "kstring.h"
#include "arch.h"
#include "proc.h"
#include "mm.h"
#include "vfs.h"
#include "uaccess.h"
#include "errno.h"
#include "mb.h"
#include <asm/ptrace.h>
#include <asm/context.h>
#include <asm/memlayout.h>

extern void ret_from_fork(void);

int arch_cpu_id(void)
{
	return 0;
}

const char *arch_machine_name(void)
{
	return "microblaze";
}

/*
 * The first arch_switch() to ctx "returns" into ret_from_fork (switch.S
 * returns to r15 + 8) with r1 at the base of the exception frame whose
 * struct pt_regs is 'frame', the top of the kernel stack; ret_from_fork
 * then leaves through the exception exit with that frame.
 */
void arch_context_init(struct arch_context *ctx, struct pt_regs *frame)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->r1 = (u32)frame - FRAME_ARGS;
	ctx->r15 = (u32)ret_from_fork - 8;
	ctx->kstack_top = (u32)(frame + 1);
}

/* No user state lives outside the register frame. */
void arch_fork_context(struct arch_context *child)
{
	(void)child;
}

/*
 * A frame that enters user mode at entry: it leaves like a system call
 * (kind "brki", rtbd r14), with the MSR it restores before the rtbd saying
 * user mode and translation in UMS/VMS, exceptions and interrupts on, and
 * BIP set so that no interrupt comes in before the rtbd clears it.
 */
void arch_regs_init_user(struct pt_regs *regs, unsigned long entry, unsigned long sp)
{
	memset(regs, 0, sizeof(*regs));
	regs->pc = entry;
	regs->r[1] = sp;
	regs->msr = MSR_UMS | MSR_VMS | MSR_EE | MSR_IE | MSR_BIP;
	regs->kind = KIND_USER_EXC;
}

void arch_regs_set_return(struct pt_regs *regs, long val)
{
	regs->r[3] = (u32)val;
}

long arch_regs_get_return(const struct pt_regs *regs)
{
	return (long)regs->r[3];
}

/* r5 (arg0) is not overwritten by the result (r3): only the PC and r12 change. */
void arch_syscall_restart(struct pt_regs *regs, unsigned long arg0, bool via_restart_syscall)
{
	(void)arg0;
	regs->pc -= 4;	/* the brki */
	if (via_restart_syscall)
		regs->r[12] = 0;	/* __NR_restart_syscall */
}

void arch_regs_set_sp(struct pt_regs *regs, unsigned long sp)
{
	regs->r[1] = sp;
}

/*
 * User addresses translate through mm's root, and its TLB slots carry its
 * ASID as TID: PID = ASID (1..255; 0 = no process, which matches only the
 * kernel's global slots). QEMU drops its cached translations of the old
 * PID's slots when PID is written; slots of a freed ASID are removed by
 * arch_tlbi_space() before the ASID can be handed out again. Hardware
 * would want "nop; bri 4" after the mts (the shadow TLB); QEMU has none.
 */
void arch_switch_mm(const struct mm *mm)
{
	u32 pid = 0;

	if (mm) {
		if (mm->pt.asid <= 0 || mm->pt.asid > 255)
			panic("arch_switch_mm: ASID %d does not fit the 8-bit PID register",
			      mm->pt.asid);
		pid = (u32)mm->pt.asid;
	}
	mb_user_pgd_pa = mm ? (u32)mm->pt.root : 0;
	__asm__ volatile("mts rpid, %0" :: "r"(pid) : "memory");
}

/*
 * MicroBlaze's struct stat64 (asm-generic/stat.h), as fstat64 and
 * fstatat64 fill it; every 64-bit field is at an 8-byte offset.
 */
struct stat64_user {
	u64 st_dev, st_ino;
	u32 st_mode, st_nlink, st_uid, st_gid;
	u64 st_rdev, pad1;
	s64 st_size;
	s32 st_blksize, pad2;
	s64 st_blocks;
	s32 st_atime;
	u32 st_atime_nsec;
	s32 st_mtime;
	u32 st_mtime_nsec;
	s32 st_ctime;
	u32 st_ctime_nsec;
	u32 unused[2];
};
_Static_assert(sizeof(struct stat64_user) == 104, "MicroBlaze struct stat64");
_Static_assert(__builtin_offsetof(struct stat64_user, st_blocks) == 64, "MicroBlaze struct stat64");

long arch_stat_to_user(const struct kstat *st, unsigned long ubuf)
{
	struct stat64_user s;

	memset(&s, 0, sizeof(s));
	s.st_dev = st->dev;
	s.st_ino = st->ino;
	s.st_mode = st->mode;
	s.st_nlink = st->nlink;
	s.st_rdev = st->rdev;
	s.st_size = (s64)st->size;
	s.st_blksize = (s32)st->blksize;
	s.st_blocks = (s64)st->blocks;
	s.st_uid = st->uid;
	s.st_gid = st->gid;
	s.st_atime = (s32)(st->atime / 1000000000ull);
	s.st_atime_nsec = (u32)(st->atime % 1000000000ull);
	s.st_mtime = (s32)(st->mtime / 1000000000ull);
	s.st_mtime_nsec = (u32)(st->mtime % 1000000000ull);
	s.st_ctime = (s32)(st->ctime / 1000000000ull);
	s.st_ctime_nsec = (u32)(st->ctime % 1000000000ull);
	return copy_to_user((void *)ubuf, &s, sizeof(s)) ? -EFAULT : 0;
}

/*
 * Every process gets a read-only, executable page with the rt_sigreturn
 * call; a handler's r15 points 8 bytes before it, so its "rtsd r15, 8"
 * lands there (Linux puts the same two words on the signal frame; our
 * stacks are not executable).
 */
static const u32 sigtramp_code[] = {
	0x318000ad,	/* addik r12, r0, 173 (rt_sigreturn) */
	0xb9cc0008,	/* brki r14, 0x8 */
};

long arch_exec_setup(struct mm *mm)
{
	unsigned long va = mm->mmap_base;

	if (!vma_insert(mm, va, va + PAGE_SIZE, VM_READ | VM_EXEC | VM_MAYREAD | VM_MAYEXEC,
			"[sigpage]", 0))
		return -ENOMEM;
	mm->sigtramp = va;
	return mm_write(mm, va, sigtramp_code, sizeof(sigtramp_code)) ? -ENOMEM : 0;
}

/* Linux's MicroBlaze ABI: the thread pointer is r21, set from clone's tls. */
void arch_set_tls(struct arch_context *ctx, struct pt_regs *regs, unsigned long tls)
{
	(void)ctx;
	regs->r[21] = (u32)tls;
}
