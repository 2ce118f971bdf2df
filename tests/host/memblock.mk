HOST_TESTS += memblock
memblock_SRCS := mm/memblock.c tests/host/test_memblock.c
memblock_CFLAGS := -Itests/host/fake_arch
memblock_LIBS :=
memblock_ARGS :=
