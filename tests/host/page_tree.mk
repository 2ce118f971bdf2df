# Host test of the page index (mm/page_tree.c): shapes, edges, injected
# node-allocation failures, its checker firing, and random operations
# against a plain array; with 4K pages, and with 64K (13 bits a level).
# Optional argument: the random seed.
HOST_TESTS += page_tree page_tree_64k
page_tree_SRCS := mm/page_tree.c mm/memblock.c mm/page_alloc.c mm/fail_alloc.c tests/host/host_phys.c \
	tests/host/test_page_tree.c
page_tree_CFLAGS := -Itests/host/fake_arch
page_tree_LIBS :=
page_tree_ARGS :=
page_tree_64k_SRCS := $(page_tree_SRCS)
page_tree_64k_CFLAGS := $(page_tree_CFLAGS) -DGRANULE_SHIFT=16 -DVA_BITS=48
page_tree_64k_LIBS :=
page_tree_64k_ARGS :=
