HOST_TESTS += memblock
memblock_SRCS := mm/memblock.c tests/host/test_memblock.c
memblock_LIBS :=
memblock_ARGS :=
