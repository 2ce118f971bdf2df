HOST_TESTS += bootargs
bootargs_SRCS := kernel/bootargs.c tests/host/test_bootargs.c
