# Host test of the kernel's device-tree reader (kernel/fdt.c), cross-checked
# against libfdt on every .dtb in build/dtbs (made by tools/dump-qemu-dtbs.sh).
#
# Several of our function names (fdt_getprop, fdt_path_offset, ...) are also
# libfdt's, so the two cannot be linked side by side. test_fdt.c therefore
# #includes kernel/fdt.c with its public names renamed kfdt_*; that is why
# kernel/fdt.c is not in fdt_SRCS but is a prerequisite of the test below.
HOST_TESTS += fdt
fdt_SRCS := tests/host/test_fdt.c
fdt_LIBS := -lfdt
fdt_ARGS := build/dtbs

build/host/test_fdt: kernel/fdt.c
