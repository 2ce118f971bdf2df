/*
 * ktests.c - in-kernel tests of arm64 specifics: the boot identity map is
 * gone from the TLB, PAN stops privileged accesses to user memory while the
 * user copies (LDTR/STTR) still work, and EL0 may use the cache interface.
 */
#include "ktest.h"
#include "printk.h"
#include "arch.h"
#include "arch_proc.h"
#include "mm.h"
#include "vma.h"
#include "uaccess.h"
#include "pgtable.h"
#include "arch_arm64.h"
#include "page_alloc.h"
#include <asm/page_ops.h>
#include <asm/extable.h>
#include <asm/sysregs.h>

extern pteval_t boot_idmap_tables[];
extern char _text[];

#define EFAULT 14

/* The fault status code of the last fault an extable fixup handled. */
static unsigned last_fsc(void)
{
	return (unsigned)(last_fixup_fault()->esr & 0x3f);
}

/*
 * The identity map translates VA == PA of the image through TTBR0 with
 * global blocks. After boot nothing may translate there; and putting the
 * idmap back, using it (so the TLB holds a global entry) and uninstalling
 * it again must leave nothing behind - a TTBR0 switch alone does not
 * remove a global entry, on hardware or in QEMU (which flushes its TLB on
 * a TTBR0 write only when the ASID changes).
 */
KTEST(arm64_idmap_gone)
{
	unsigned long idmap_va = (unsigned long)pt_kimage_pa((unsigned long)_text);
	u64 val = 0, want = *(const volatile u64 *)_text;
	u64 saved = read_sysreg(ttbr0_el1);

	ktest_ok(probe_read_u64((const void *)idmap_va, &val) == -EFAULT,
		 "after boot the idmap address 0x%lx does not translate", idmap_va);
	__asm__ volatile("msr ttbr0_el1, %0\n\tisb" ::
			 "r"((u64)pt_kimage_pa((unsigned long)boot_idmap_tables)) : "memory");
	ktest_ok(probe_read_u64((const void *)idmap_va, &val) == 0 && val == want,
		 "with the idmap back in TTBR0, 0x%lx reads the image (0x%llx)", idmap_va,
		 (unsigned long long)val);
	arm64_uninstall_idmap();
	val = 0;
	ktest_ok(probe_read_u64((const void *)idmap_va, &val) == -EFAULT && FSC_IS_TRANSLATION(last_fsc()),
		 "after arm64_uninstall_idmap() it faults again (translation fault, FSC 0x%02x; read 0x%llx)",
		 last_fsc(), (unsigned long long)val);
	__asm__ volatile("msr ttbr0_el1, %0\n\tisb" :: "r"(saved) : "memory");
}

/* PSTATE.PAN, read with its ARMv8.1 encoding (S3_0_C4_C2_3). */
static bool pstate_pan(void)
{
	u64 v;

	__asm__ volatile("mrs %0, s3_0_c4_c2_3" : "=r"(v));
	return (v & PSR_PAN) != 0;
}

/*
 * A user page in an address space of our own: with PAN a plain EL1 load
 * or store to it faults (permission fault) and is recovered through the
 * extable; copy_from_user/copy_to_user (LDTR/STTR) reach it all the same.
 */
KTEST(arm64_pan)
{
	const unsigned long va = 0x10000000UL;
	const u64 magic = 0x5a5a0123456789a5ull;
	struct mm *mm = mm_create();
	u64 val = 0;

	if (!mm || !vma_insert(mm, va, va + PAGE_SIZE, VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE,
			       NULL, 0) || mm_write(mm, va, &magic, sizeof(magic))) {
		ktest_ok(false, "could not build a user address space");
		if (mm)
			mm_put(mm);
		return;
	}
	arch_switch_mm(mm);
	if (arm64_has_pan) {
		ktest_ok(pstate_pan(), "PSTATE.PAN is set in the kernel");
		ktest_ok(probe_read_u64((const void *)va, &val) == -EFAULT && (last_fsc() & 0x3c) == 0x0c &&
			 last_fixup_fault()->far == va,
			 "a privileged load from a user page faults (FSC 0x%02x, FAR 0x%llx) and is recovered",
			 last_fsc(), (unsigned long long)last_fixup_fault()->far);
		ktest_ok(probe_write_u64((void *)va, 1) == -EFAULT && (last_fsc() & 0x3c) == 0x0c,
			 "a privileged store to a user page faults (FSC 0x%02x) and is recovered", last_fsc());
		ktest_ok(pstate_pan(), "PSTATE.PAN is still set after the recovered faults");
	} else {
		ktest_ok(true, "# SKIP this CPU has no PAN (ID_AA64MMFR1_EL1.PAN = 0)");
	}
	val = 0;
	ktest_ok(copy_from_user(&val, (const void *)va, sizeof(val)) == 0 && val == magic,
		 "copy_from_user (LDTR) reads the user page: 0x%llx", (unsigned long long)val);
	val = ~magic;
	ktest_ok(copy_to_user((void *)va, &val, sizeof(val)) == 0 && copy_from_user(&val, (const void *)va, 8) == 0 &&
		 val == ~magic, "copy_to_user (STTR) writes it");
	ktest_ok(copy_from_user(&val, (const void *)(va + PAGE_SIZE), sizeof(val)) == -EFAULT,
		 "copy_from_user beyond the VMA gives -EFAULT");
	arch_switch_mm(NULL);
	mm_put(mm);
}

/* EL0 may read CTR_EL0, clean and invalidate by VA, and use DC ZVA. */
KTEST(arm64_el0_cache_ops)
{
	u64 sctlr = read_sysreg(sctlr_el1);

	ktest_ok((sctlr & (SCTLR_EL1_UCT | SCTLR_EL1_UCI | SCTLR_EL1_DZE)) ==
		 (SCTLR_EL1_UCT | SCTLR_EL1_UCI | SCTLR_EL1_DZE),
		 "SCTLR_EL1 has UCT, UCI and DZE set (0x%llx)", (unsigned long long)sctlr);
	ktest_ok(!(read_sysreg(dczid_el0) & (1 << 4)), "DCZID_EL0.DZP is 0: DC ZVA allowed");
}

/*
 * Fill three pages with a pattern, clear the middle one with dczid, and
 * say whether exactly that page (and nothing either side) became zero.
 */
static bool clear_only_middle(u8 *buf, unsigned long dczid)
{
	__builtin_memset(buf, 0xa5, 3 * PAGE_SIZE);
	arm64_clear_page_dczid(buf + PAGE_SIZE, dczid);
	for (unsigned long i = 0; i < 3 * PAGE_SIZE; i++)
		if (buf[i] != (i >= PAGE_SIZE && i < 2 * PAGE_SIZE ? 0 : 0xa5))
			return false;
	return true;
}

/* The page clear: dc zva stepping by this CPU's block size and by every
 * smaller one (dc zva always clears the CPU's whole block, so a larger
 * step would skip memory), the store fallback when DZP prohibits dc zva,
 * and this CPU's own setting. */
KTEST(arm64_clear_page)
{
	struct page *pg = alloc_pages(0, 2);
	unsigned long dczid = read_sysreg(dczid_el0);
	u8 *buf;
	bool ok = true;

	if (!pg) {
		ktest_ok(false, "no memory for the test");
		return;
	}
	buf = page_address(pg);
	if (!(dczid & (1UL << 4)))
		for (unsigned long bs = 0; bs <= (dczid & 0xf); bs++)
			ok = ok && clear_only_middle(buf, bs);
	ktest_ok(ok, "dc zva stepping by each block size up to the CPU's clears exactly one page");
	ktest_ok(clear_only_middle(buf, (1UL << 4) | (dczid & 0xf)), "DZP set: the store fallback clears exactly one page");
	ktest_ok(clear_only_middle(buf, dczid), "this CPU's DCZID_EL0 (0x%llx) clears exactly one page",
		 (unsigned long long)dczid);
	for (unsigned long i = 0; i < 2 * PAGE_SIZE; i++)
		buf[i] = (u8)(i * 7 + 3);
	__builtin_memset(buf + 2 * PAGE_SIZE, 0xa5, 2 * PAGE_SIZE);
	arch_copy_page(buf + 2 * PAGE_SIZE, buf + PAGE_SIZE);
	ok = true;
	for (unsigned long i = 0; i < PAGE_SIZE; i++)
		ok = ok && buf[2 * PAGE_SIZE + i] == (u8)((PAGE_SIZE + i) * 7 + 3) && buf[i] == (u8)(i * 7 + 3) &&
		     buf[3 * PAGE_SIZE + i] == 0xa5;
	ktest_ok(ok, "arch_copy_page copies exactly one page");
	free_pages(pg, 2);
}
