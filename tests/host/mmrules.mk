# Host tests of the address-space system calls (kernel/sys_mm.c and mm/mmap.c,
# mremap.c, mprotect.c, madvise.c, mseal.c) against the
# rule tables (mseal MS-*, mprotect MP-*, ...): the real sys_mm.c, mm.c,
# vma.c, hugetlb.c, thp.c, slab.c, page index (page_tree.c) and page-table
# core, on the fake arch with the TLB model, a fake page allocator and one
# fake process (tests/host/mm_rules_env.c). arch/arm64/include supplies only
# the headers the fake arch lacks (asm/context.h, asm/ptrace.h for
# kernel/proc.h).
HOST_TESTS += mm_rules
mm_rules_SRCS := kernel/sys_mm.c mm/mmap.c mm/commit.c mm/mremap.c mm/mprotect.c mm/madvise.c mm/mseal.c mm/mlock.c mm/mincore.c mm/msync.c mm/mm.c mm/vma.c mm/slab.c mm/fail_alloc.c mm/hugetlb.c mm/thp.c mm/filemap.c mm/page_tree.c \
	mm/pgtable.c mm/pte_update.c tests/host/tlb_model.c tests/host/mm_rules_env.c tests/host/mm_oracle.c \
	tests/host/test_mm_rules.c
mm_rules_CFLAGS := -Itests/host/fake_arch -Iarch/arm64/include
mm_rules_LIBS :=
mm_rules_ARGS :=

# The same rules with 16K and 64K pages (the kernel's headers, the model and
# the fake machine all built for the layout; 64K skips the THP case; 64K/52
# and 4K/52 (5 levels) have user addresses above 2^48, EW-8's window).
HOST_TESTS += mm_rules_16k_47 mm_rules_64k_48 mm_rules_64k_52 mm_rules_4k_52
mm_rules_16k_47_SRCS := $(mm_rules_SRCS)
mm_rules_16k_47_CFLAGS := $(mm_rules_CFLAGS) -DGRANULE_SHIFT=14 -DVA_BITS=47
mm_rules_64k_48_SRCS := $(mm_rules_SRCS)
mm_rules_64k_48_CFLAGS := $(mm_rules_CFLAGS) -DGRANULE_SHIFT=16 -DVA_BITS=48
mm_rules_64k_52_SRCS := $(mm_rules_SRCS)
mm_rules_64k_52_CFLAGS := $(mm_rules_CFLAGS) -DGRANULE_SHIFT=16 -DVA_BITS=52
mm_rules_4k_52_SRCS := $(mm_rules_SRCS)
mm_rules_4k_52_CFLAGS := $(mm_rules_CFLAGS) -DGRANULE_SHIFT=12 -DVA_BITS=52
