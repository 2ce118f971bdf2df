HOST_TESTS += page_alloc
page_alloc_SRCS := mm/memblock.c mm/page_alloc.c mm/fail_alloc.c tests/host/host_phys.c tests/host/test_page_alloc.c
page_alloc_CFLAGS := -Itests/host/fake_arch
page_alloc_LIBS :=
page_alloc_ARGS :=
