# libFuzzer targets (clang -fsanitize=fuzzer, Debian's clang and
# libclang-rt-14-dev), under AddressSanitizer and UndefinedBehaviorSanitizer:
#   fuzz_fdt  the kernel's device-tree reader (test_fdt.c built with
#             -DKFDT_LIBFUZZER): any blob; crashes, refusals without a message
#             and disagreements with libfdt abort
#   fuzz_mm   the address-space system calls on the fake machine
#             (tests/host/fuzz_mm.c) with the page-table checks, the kernel's
#             invariant checker (mm/mm_check.c, in fuzz_mm_check.c), the TLB
#             model and a leak check as oracles
# The corpora live in tests/host/corpus/<target>/.
#   make fuzz-host [FUZZ_TIME=seconds per target, default 300] [FUZZ_MERGE=1]
# fuzzes each target in turn, keeping new inputs in build/fuzz/<target>/ (with
# FUZZ_MERGE=1 the inputs that add coverage are merged into the tree's
# corpus); a crash leaves its input in build/fuzz/ and fails the target.
# make check replays the corpora and runs a short fixed-seed budget
# (tests/host/fuzz_replay.sh).
FUZZ_CC ?= clang
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-fsanitize-coverage-ignorelist=tests/host/fuzz-cov-ignore.txt \
	-Wall -Wextra -DNR_CPUS=1 -Iinclude -Ikernel -Imm -Ifs -Itests/host
FUZZ_TARGETS := fuzz_fdt fuzz_mm
FUZZ_TIME ?= 300
FUZZ_ARGS ?= -max_len=1000 -len_control=0

fuzz_fdt_SRCS = tests/host/test_fdt.c
fuzz_fdt_CFLAGS = -DKFDT_LIBFUZZER -Wno-unused-function
fuzz_fdt_LIBS = -lfdt
fuzz_fdt_DEPS = kernel/fdt.c
fuzz_mm_SRCS = $(filter-out tests/host/test_mm_rules.c,$(mm_rules_SRCS)) tests/host/fuzz_mm.c tests/host/fuzz_mm_check.c
fuzz_mm_CFLAGS = $(mm_rules_CFLAGS)
fuzz_mm_LIBS =
fuzz_mm_DEPS = mm/mm_check.c

.SECONDEXPANSION:
build/host/fuzz_%: $$(fuzz_$$*_SRCS) $$(fuzz_$$*_DEPS) tests/host/host_env.c tests/host/fuzz-cov-ignore.txt \
		$$(wildcard include/*.h tests/host/*.h kernel/*.h mm/*.h tests/host/fake_*/asm/*.h)
	@mkdir -p build/host
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(fuzz_$*_CFLAGS) -o $@ $(fuzz_$*_SRCS) tests/host/host_env.c $(fuzz_$*_LIBS)

fuzz-host-build: $(patsubst %,build/host/%,$(FUZZ_TARGETS))

fuzz-host: setup fuzz-host-build
	@set -e; for t in $(FUZZ_TARGETS); do \
		mkdir -p build/fuzz/$$t tests/host/corpus/$$t; \
		echo "== $$t: $(FUZZ_TIME) s"; \
		build/host/$$t -max_total_time=$(FUZZ_TIME) $(FUZZ_ARGS) -print_final_stats=1 \
			-artifact_prefix=build/fuzz/$$t- build/fuzz/$$t tests/host/corpus/$$t; \
		if [ "$(FUZZ_MERGE)" = 1 ]; then \
			build/host/$$t -merge=1 tests/host/corpus/$$t build/fuzz/$$t; fi; \
	done

.PHONY: fuzz-host fuzz-host-build
