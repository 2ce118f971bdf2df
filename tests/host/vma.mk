# Host test of the VMA set (mm/vma.c): targeted edge cases, the consistency
# checker against corrupted trees, 100k+ random operations checked against a
# sorted-array model, and a micro-benchmark (TAP comments). Optional
# argument: the random seed.
HOST_TESTS += vma
vma_SRCS := mm/vma.c mm/slab.c mm/fail_alloc.c tests/host/test_vma.c
vma_CFLAGS := -Itests/host/fake_arch
vma_LIBS :=
vma_ARGS :=
