# Host tests of the linear map with several CPUs (per-CPU TLBs in the model,
# BBML2, the rendezvous, the repaint) on the fake arch.
HOST_TESTS += smp_tlb
smp_tlb_SRCS := mm/pgtable.c mm/pte_update.c mm/fixmap.c mm/linear_map.c mm/ptdump.c \
	tests/host/tlb_model.c tests/host/pt_test_env.c tests/host/test_smp_tlb.c
smp_tlb_CFLAGS := -Itests/host/fake_arch
smp_tlb_LIBS :=
