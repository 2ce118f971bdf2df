# Host tests of the page-table core on the fake arch with the TLB model.
HOST_TESTS += pgtable
pgtable_SRCS := mm/pgtable.c mm/pte_update.c mm/fixmap.c mm/linear_map.c mm/ptdump.c \
	tests/host/tlb_model.c tests/host/pt_test_env.c tests/host/test_pgtable.c
pgtable_CFLAGS := -Itests/host/fake_arch
pgtable_LIBS :=
