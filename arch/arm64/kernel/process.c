/*
 * process.c - the arm64 side of processes: kernel contexts, user register
 * frames, TTBR0 switching, struct stat layout, and the signal trampoline.
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
#include <asm/ptrace.h>
#include <asm/context.h>
#include <asm/memlayout.h>

_Static_assert(__builtin_offsetof(struct arch_context, sp) == 96, "switch.S layout");
_Static_assert(__builtin_offsetof(struct arch_context, tpidr_el0) == 104, "switch.S layout");
_Static_assert(__builtin_offsetof(struct arch_context, fp_state) == 112, "switch.S layout");

extern void ret_from_fork(void);

/* This CPU's index: TPIDR_EL1, set at entry (start_kernel, secondary_start_kernel). */
int arch_cpu_id(void)
{
	u64 id;

	__asm__ volatile("mrs %0, tpidr_el1" : "=r"(id));
	return (int)id;
}

const char *arch_machine_name(void)
{
	return "aarch64";
}

void arch_context_init(struct arch_context *ctx, struct pt_regs *frame)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->sp = (u64)frame;
	ctx->lr = (u64)ret_from_fork;
}

void arch_fork_context(struct arch_context *child)
{
	fpsimd_save(&child->fp_state);	/* the parent's FP/SIMD registers are live */
	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(child->tpidr_el0));
}

void arch_regs_init_user(struct pt_regs *regs, unsigned long entry, unsigned long sp)
{
	memset(regs, 0, sizeof(*regs));
	regs->pc = entry;
	regs->sp = sp;
	regs->pstate = 0;	/* EL0t, interrupts unmasked */
	__asm__ volatile("msr tpidr_el0, xzr");	/* a new image starts without TLS */
}

void arch_regs_set_return(struct pt_regs *regs, long val)
{
	regs->regs[0] = (u64)val;
}

long arch_regs_get_return(const struct pt_regs *regs)
{
	return (long)regs->regs[0];
}

void arch_syscall_restart(struct pt_regs *regs, unsigned long arg0, bool via_restart_syscall)
{
	regs->regs[0] = arg0;
	regs->pc -= 4;	/* the svc */
	if (via_restart_syscall)
		regs->regs[8] = 128;	/* __NR_restart_syscall */
}

void arch_regs_set_sp(struct pt_regs *regs, unsigned long sp)
{
	regs->sp = sp;
}

/* An empty table for TTBR0 while no process runs (nothing user translates). */
static u64 empty_ttbr0[PAGE_SIZE / sizeof(u64)] __attribute__((aligned(PAGE_SIZE)));

void arch_switch_mm(const struct mm *mm)
{
	u64 ttbr = mm ? (mm->pt.root | ((u64)mm->pt.asid << 48)) : pt_kimage_pa((unsigned long)empty_ttbr0);

	__asm__ volatile("msr ttbr0_el1, %0\n"
			 "isb" /* later user accesses and walks use the new table */
			 :: "r"(ttbr) : "memory");
}

/* The generic struct stat of arm64 (asm-generic/stat.h). */
struct stat_user {
	u64 st_dev, st_ino;
	u32 st_mode, st_nlink, st_uid, st_gid;
	u64 st_rdev, pad1;
	s64 st_size;
	s32 st_blksize, pad2;
	s64 st_blocks;
	s64 st_atime, st_atime_nsec, st_mtime, st_mtime_nsec, st_ctime, st_ctime_nsec;
	u32 unused[2];
};
_Static_assert(sizeof(struct stat_user) == 128, "arm64 struct stat");

long arch_stat_to_user(const struct kstat *st, unsigned long ubuf)
{
	struct stat_user s;

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
 * call, used as the handler's return address when the program gave no
 * SA_RESTORER (Linux's arm64 vDSO plays this part).
 */
static const u32 sigtramp_code[] = {
	0xd2801168,	/* mov x8, #139 (rt_sigreturn) */
	0xd4000001,	/* svc #0 */
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

void arch_set_tls(struct arch_context *ctx, struct pt_regs *regs, unsigned long tls)
{
	(void)regs;
	ctx->tpidr_el0 = tls;	/* switch.S loads it when the thread first runs */
}
