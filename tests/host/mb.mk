# Host tests of the page-table core on the MicroBlaze descriptor format, with
# a model of the 64-slot UTLB and of the TLB refill handler (entry.S).
# Compiled for the fake arch in tests/host/fake_mb (the real asm/pgtable.h
# and asm/mmu.h, a mirrored asm/tlb.h), with the real arch/microblaze/kernel/tlb.c.
HOST_TESTS += mb_pgtable
mb_pgtable_SRCS := mm/pgtable.c mm/pte_update.c mm/fixmap.c mm/linear_map.c mm/ptdump.c \
	arch/microblaze/kernel/tlb.c tests/host/mb_tlb_model.c tests/host/pt_test_env.c \
	tests/host/test_mb_pgtable.c
mb_pgtable_CFLAGS := -Itests/host/fake_mb
mb_pgtable_LIBS :=
mb_pgtable_ARGS :=

# The same tests for the other page sizes (arch.mk PAGE_SIZE=16K|64K):
# mb_pgtable_16k, mb_pgtable_64k, with the model and the kernel's headers
# both built for it. test_mb_pgtable.c runs its page-size-independent part there.
define mb_pgtable_layout
HOST_TESTS += mb_pgtable_$(word 2,$(subst :, ,$(1)))
mb_pgtable_$(word 2,$(subst :, ,$(1)))_SRCS := $$(mb_pgtable_SRCS)
mb_pgtable_$(word 2,$(subst :, ,$(1)))_CFLAGS := $$(mb_pgtable_CFLAGS) -DMB_PAGE_SHIFT=$(word 1,$(subst :, ,$(1)))
mb_pgtable_$(word 2,$(subst :, ,$(1)))_LIBS :=
mb_pgtable_$(word 2,$(subst :, ,$(1)))_ARGS :=
endef
$(foreach l,14:16k 16:64k,$(eval $(call mb_pgtable_layout,$(l))))
