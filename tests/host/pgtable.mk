# Host tests of the page-table core on the fake arch with the TLB model.
HOST_TESTS += pgtable
pgtable_SRCS := mm/pgtable.c mm/pte_update.c mm/fixmap.c mm/linear_map.c mm/ptdump.c \
	tests/host/tlb_model.c tests/host/pt_test_env.c tests/host/test_pgtable.c
pgtable_CFLAGS := -Itests/host/fake_arch
pgtable_LIBS :=

# The same tests for every other layout (arch/arm64/include/asm/layout.h):
# pgtable_<granule>_<va bits>, with the model and the kernel's headers both
# built for it. test_pgtable.c runs its layout-independent part there.
HOST_LAYOUTS := 12:39:4k_39 12:52:4k_52 14:47:16k_47 14:48:16k_48 14:52:16k_52 16:42:64k_42 16:48:64k_48 16:52:64k_52
define pgtable_layout
HOST_TESTS += pgtable_$(word 3,$(subst :, ,$(1)))
pgtable_$(word 3,$(subst :, ,$(1)))_SRCS := $$(pgtable_SRCS)
pgtable_$(word 3,$(subst :, ,$(1)))_CFLAGS := $$(pgtable_CFLAGS) -DGRANULE_SHIFT=$(word 1,$(subst :, ,$(1))) \
	-DVA_BITS=$(word 2,$(subst :, ,$(1)))
endef
$(foreach l,$(HOST_LAYOUTS),$(eval $(call pgtable_layout,$(l))))
