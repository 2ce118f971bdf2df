# tests/bench/bench.mk - the address-space benchmark (`make bench`; not part
# of `make check`: it reports figures, it asserts nothing). Included by the
# top-level Makefile.
#
#   make bench           tools/bench.sh: tests/bench/mmbench.c on our kernel
#                        and on Debian's Linux 6.12, side by side
#   make bench-bins      the builds:
#     BENCH_GLIBC        build/linux-arm64/bench/mmbench: glibc, static, arm64
#                        (the one binary both kernels run)
#     BENCH_TESTLIB      build/<USER_TARGET>/bench/mmbench: the project's libc
#                        (tests/lib) for ARCH/BOARD, e.g. MicroBlaze
#   make layouts         tools/layouts.sh: the page-table layouts measured
#   make layouts-bins    layoutprobe and mmbench with the test libc for
#                        ARCH/BOARD (what tools/layouts.sh boots on MicroBlaze)

BENCH_GLIBC := build/linux-arm64/bench/mmbench
BENCH_TESTLIB := build/$(USER_TARGET)/bench/mmbench

.PHONY: bench bench-bins

bench:
	@bash tools/bench.sh

bench-bins: $(BENCH_GLIBC) $(BENCH_TESTLIB)

$(BENCH_GLIBC): tests/bench/mmbench.c
	@mkdir -p $(dir $@)
	@echo "  CC [glibc] $@"
	@$(USER_LINUX_CC) -std=gnu11 -O2 -Wall -Wextra -Werror -static -D_GNU_SOURCE -o $@ $<

# The huge-page benchmark (tools/hugebench.sh), built with the test libc for
# MicroBlaze; arm64 uses the glibc build that both kernels run.
HUGEBENCH_TESTLIB := build/$(USER_TARGET)/bench/hugebench
bench-bins: $(HUGEBENCH_TESTLIB)

# `make layouts` (tools/layouts.sh): the layout probe as /init, mmbench beside it;
# the glibc build for arm64, the test libc's (layouts-bins) for MicroBlaze.
LAYOUTPROBE_GLIBC := build/linux-arm64/bench/layoutprobe
LAYOUTPROBE_TESTLIB := build/$(USER_TARGET)/bench/layoutprobe
.PHONY: layouts-bins
layouts-bins: $(LAYOUTPROBE_TESTLIB) $(BENCH_TESTLIB)

# Every test-libc build of a tests/bench program: tests/bench/NAME.c -> build/<USER_TARGET>/bench/NAME.
$(BENCH_TESTLIB) $(HUGEBENCH_TESTLIB) $(LAYOUTPROBE_TESTLIB): build/$(USER_TARGET)/bench/%: \
		$(USER_BUILD)/obj/tests/bench/%.c.o $(USER_LIBC_CRT0) $(USER_LIBC_A) $(USER_LDSCRIPT)
	@mkdir -p $(dir $@)
	@echo "  LD [$(USER_TARGET)] $@"
	@$(USER_CC) $(USER_CFLAGS) $(USER_LDFLAGS) -o $@ $(USER_LIBC_CRT0) $< $(USER_LIBC_A) -lgcc
$(LAYOUTPROBE_GLIBC): tests/bench/layoutprobe.c
	@mkdir -p $(dir $@)
	@echo "  CC [glibc] $@"
	@$(USER_LINUX_CC) -std=gnu11 -O2 -Wall -Wextra -Werror -static -D_GNU_SOURCE -o $@ $<

.PHONY: layouts
layouts: setup $(LAYOUTPROBE_GLIBC) $(BENCH_GLIBC)
	@bash tools/layouts.sh
