# tests/user/user.mk - user-space test programs, their libc, /init and the
# initramfs. Included by the top-level Makefile; also usable on its own:
#   make -f tests/user/user.mk ARCH=microblaze BOARD=ml605 user
#
# Targets
#   user          the test programs and /init built with the test libc
#                 (tests/lib) for ARCH/BOARD, and USER_INITRAMFS holding them
#   user-all      `user` for arm64, microblaze/ml605 and microblaze/s3adsp1800
#   user-linux    the same programs built against glibc (aarch64-linux-gnu-gcc
#                 -static, Debian's libc6-dev-arm64-cross; dynexec dynamically
#                 linked, with ld.so and libc.so.6 in the image) and their initramfs
#                 USER_LINUX_INITRAMFS, for Debian's Linux kernel
#   check-linux   boot Debian's arm64 Linux 6.12 with USER_LINUX_INITRAMFS
#                 (tools/check-linux.sh); every test must pass
#
# Variables (the ones meant for the kernel's build are marked *)
#   USER_TESTS            names of the test programs: tests/user/<name>.c
#                         becomes /bin/<name> in the initramfs
#   USER_TARGET           arm64 | microblaze-ml605 (little-endian) |
#                         microblaze-s3adsp1800 (big-endian), from ARCH/BOARD
#   USER_BUILD            build/$(USER_TARGET)/user: objects and binaries
#   USER_BIN              $(USER_BUILD)/bin: /init and the test programs
# * USER_INITRAMFS        build/$(USER_TARGET)/initramfs.cpio: uncompressed
#                         cpio (newc) with /init, /bin/*, /proc, /dev/console
#   USER_LINUX_BUILD      build/linux-arm64/user: the glibc-static binaries
# * USER_LINUX_INITRAMFS  build/linux-arm64/initramfs.cpio
#   USER_CC, USER_CFLAGS, USER_LDFLAGS   compiler and flags for the test libc
#   USER_LINUX_CC, USER_LINUX_CFLAGS     compiler and flags for glibc
#
# User programs built with the test libc are linked at 0x400000 (arm64) or
# 0x10000000 (MicroBlaze) by tests/lib/arch/<arch>/user.ld.

_user_saved_goal := $(.DEFAULT_GOAL)

ARCH ?= arm64
USER_TESTS := hello proc exec abi wideargs signal segv unaligned fpu efault procfs mm sched forkbomb misc jit hugetlb hugesizes thp \
	mm_mmap mm_munmap mm_mremap mm_mprotect mm_madvise mm_brk mm_mseal mm_fork mm_maps mm_anonvma mm_quarantine mm_edges \
	mm_failinj mm_limits fs mm_mlock mm_mincore mm_bti mm_pagemap mm_memfd pgrp sigrestart tty itimer poll cred procpid \
	procdir fsmap textshare shm futex pthread mmstress dynexec sendfile smp

ifeq ($(ARCH),arm64)
USER_TARGET := arm64
USER_CC := aarch64-linux-gnu-gcc
USER_AR := aarch64-linux-gnu-ar
USER_STRIP := aarch64-linux-gnu-strip
USER_ARCH_CFLAGS := -mgeneral-regs-only -mno-outline-atomics -mcmodel=small
USER_PAGE_ALIGN := 0x10000
else ifeq ($(ARCH),microblaze)
USER_BOARD := $(if $(filter s3adsp1800,$(BOARD)),s3adsp1800,ml605)
USER_TARGET := microblaze-$(USER_BOARD)
USER_CC := /opt/mbtc/bin/microblaze-elf-gcc
USER_AR := /opt/mbtc/bin/microblaze-elf-ar
USER_STRIP := /opt/mbtc/bin/microblaze-elf-strip
# -fno-inline-atomics: every __atomic builtin calls the test libc's
# tests/lib/arch/microblaze/atomic.S (the cross GCC's inline expansion
# loses updates; see there).
USER_MB_COMMON := -mxl-barrel-shift -mno-xl-soft-mul -mno-xl-soft-div -mxl-multiply-high -fno-inline-atomics
# The largest page size the kernel builds with (PAGE_SIZE=64K): one binary for all.
USER_PAGE_ALIGN := 0x10000
ifeq ($(USER_BOARD),ml605)
USER_ARCH_CFLAGS := -mlittle-endian -mcpu=v8.10.a $(USER_MB_COMMON)
else
USER_ARCH_CFLAGS := -mcpu=v7.10.d $(USER_MB_COMMON)
endif
else
$(error user.mk: ARCH must be arm64 or microblaze, not '$(ARCH)')
endif

USER_BUILD := build/$(USER_TARGET)/user
USER_BIN := $(USER_BUILD)/bin
USER_INITRAMFS := build/$(USER_TARGET)/initramfs.cpio
USER_LIB := tests/lib
USER_LIB_ARCH := $(USER_LIB)/arch/$(ARCH)
USER_LDSCRIPT := $(USER_LIB_ARCH)/user.ld

# -nostdinc keeps the host's (or the cross glibc's) headers out; the
# compiler's own freestanding headers (stddef.h, stdarg.h, stdint.h) stay.
# Recursive (=): the compiler is asked only when something is built, which
# on a fresh machine is after `make setup` has installed it.
USER_CFLAGS = -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding -nostdinc \
	-isystem $(shell $(USER_CC) -print-file-name=include) \
	-I$(USER_LIB)/include -I$(USER_LIB_ARCH) -I$(USER_LIB)/tap \
	-fno-stack-protector -fno-pie -fno-common -fno-tree-loop-distribute-patterns \
	-fno-asynchronous-unwind-tables $(USER_ARCH_CFLAGS)
USER_LDFLAGS := -nostdlib -static -T $(USER_LDSCRIPT) -Wl,--build-id=none -Wl,-z,max-page-size=$(USER_PAGE_ALIGN) \
	$(if $(filter arm64,$(ARCH)),-no-pie)

USER_LIBC_SRCS := $(wildcard $(USER_LIB)/src/*.c) $(wildcard $(USER_LIB_ARCH)/*.S)
USER_LIBC_OBJS := $(patsubst %,$(USER_BUILD)/obj/%.o,$(USER_LIBC_SRCS))
USER_LIBC_CRT0 := $(USER_BUILD)/obj/$(USER_LIB_ARCH)/crt0.S.o
USER_LIBC_A := $(USER_BUILD)/libc.a
USER_TAP_OBJ := $(USER_BUILD)/obj/$(USER_LIB)/tap/tap.c.o
USER_PROGS := $(addprefix $(USER_BIN)/,init $(USER_TESTS))

# The list of tests /init runs, generated from USER_TESTS.
USER_INIT_LIST = $(1)/init_tests.h
define user_init_list_rule
$(1)/init_tests.h: tests/user/user.mk
	@mkdir -p $(1)
	@printf '/* generated from USER_TESTS in tests/user/user.mk */\n#define INIT_TESTS %s\n' \
		'$(foreach t,$(USER_TESTS),"$(t)",)' >$$@
endef

# glibc build (arm64 only), for Debian's Linux kernel.
USER_LINUX_CC := aarch64-linux-gnu-gcc
USER_LINUX_BUILD := build/linux-arm64/user
USER_LINUX_BIN := $(USER_LINUX_BUILD)/bin
USER_LINUX_INITRAMFS := build/linux-arm64/initramfs.cpio
USER_LINUX_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -static -D_GNU_SOURCE \
	-I$(USER_LIB)/tap
USER_LINUX_PROGS := $(addprefix $(USER_LINUX_BIN)/,init $(USER_TESTS))

.PHONY: user user-all user-linux check-linux print-cflags

# The compiler and flags test-libc programs build with (tests/host/mb_atomics.sh).
print-cflags:
	@echo '$(USER_CC) $(USER_CFLAGS)'

user: $(USER_INITRAMFS)

user-all:
	@$(MAKE) --no-print-directory -f tests/user/user.mk ARCH=arm64 user
	@$(MAKE) --no-print-directory -f tests/user/user.mk ARCH=microblaze BOARD=ml605 user
	@$(MAKE) --no-print-directory -f tests/user/user.mk ARCH=microblaze BOARD=s3adsp1800 user

user-linux: $(USER_LINUX_INITRAMFS)

check-linux:
	@bash tools/check-linux.sh

# ---- test libc ----------------------------------------------------------------
$(USER_BUILD)/obj/%.c.o: %.c tests/user/user.mk
	@mkdir -p $(dir $@)
	@echo "  CC [$(USER_TARGET)] $<"
	@$(USER_CC) $(USER_CFLAGS) -MMD -MP -c $< -o $@

$(USER_BUILD)/obj/%.S.o: %.S tests/user/user.mk
	@mkdir -p $(dir $@)
	@echo "  AS [$(USER_TARGET)] $<"
	@$(USER_CC) $(USER_ARCH_CFLAGS) -D__ASSEMBLER__ -c $< -o $@

# Keep the objects make would otherwise delete as intermediates.
.SECONDARY: $(USER_LIBC_OBJS) $(USER_TAP_OBJ) $(patsubst %,$(USER_BUILD)/obj/tests/user/%.c.o,init $(USER_TESTS)) \
	$(addprefix $(USER_BUILD)/stripped/,init $(USER_TESTS)) $(addprefix $(USER_LINUX_BUILD)/stripped/,init $(USER_TESTS))

$(USER_LIBC_A): $(filter-out $(USER_LIBC_CRT0),$(USER_LIBC_OBJS))
	@rm -f $@
	@$(USER_AR) rcs $@ $^

$(eval $(call user_init_list_rule,$(USER_BUILD)))
$(USER_BUILD)/obj/tests/user/init.c.o: $(USER_BUILD)/init_tests.h
$(USER_BUILD)/obj/tests/user/init.c.o: USER_CFLAGS += -I$(USER_BUILD)

$(USER_BIN)/%: $(USER_BUILD)/obj/tests/user/%.c.o $(USER_TAP_OBJ) $(USER_LIBC_CRT0) $(USER_LIBC_A) $(USER_LDSCRIPT)
	@mkdir -p $(dir $@)
	@echo "  LD [$(USER_TARGET)] $@"
	@$(USER_CC) $(USER_CFLAGS) $(USER_LDFLAGS) -o $@ $(USER_LIBC_CRT0) $< $(USER_TAP_OBJ) $(USER_LIBC_A) -lgcc

# A file that exists and is executable but is not an ELF image: execve
# must fail with ENOEXEC.
$(USER_BUILD)/bad-elf $(USER_LINUX_BUILD)/bad-elf: tests/user/user.mk
	@mkdir -p $(dir $@)
	@printf '\177ELF but not really: execve must refuse this file\n' >$@
	@chmod 755 $@

# "#!" scripts for exec: one whose interpreter is /bin/exec (blanks after
# its argument are dropped), one whose "#!" line names no interpreter.
$(USER_BUILD)/exec-script $(USER_LINUX_BUILD)/exec-script: tests/user/user.mk
	@mkdir -p $(dir $@)
	@printf '#!/bin/exec --script-child \t\necho not run\n' >$@
	@chmod 755 $@
$(USER_BUILD)/exec-noscript $(USER_LINUX_BUILD)/exec-noscript: tests/user/user.mk
	@mkdir -p $(dir $@)
	@printf '#!\n' >$@
	@chmod 755 $@
# In the initramfs: those two, and /bin/exec-link, a hard link to /bin/exec.
USER_EXEC_EXTRAS = /bin/exec-script=$(1)/exec-script /bin/exec-noscript=$(1)/exec-noscript /bin/exec-link=\>/bin/exec

# The initramfs holds copies without debug information, and an empty /tmp
# for the tests' own tmpfs mounts: a test that had to create it would leave
# a directory behind, which the leak check counts when its inode or name
# needs a new slab page (how full the slabs are depends on how many files
# the initramfs holds).
$(USER_BUILD)/stripped/%: $(USER_BIN)/%
	@mkdir -p $(dir $@)
	@$(USER_STRIP) -o $@ $<

$(USER_INITRAMFS): $(addprefix $(USER_BUILD)/stripped/,init $(USER_TESTS)) $(USER_BUILD)/bad-elf \
		$(USER_BUILD)/exec-script $(USER_BUILD)/exec-noscript tools/mkinitramfs.sh
	@echo "  CPIO [$(USER_TARGET)] $@"
	@bash tools/mkinitramfs.sh $@ /init=$(USER_BUILD)/stripped/init /tmp/ \
		$(foreach t,$(USER_TESTS),/bin/$(t)=$(USER_BUILD)/stripped/$(t)) /bin/bad-elf=$(USER_BUILD)/bad-elf \
		$(call USER_EXEC_EXTRAS,$(USER_BUILD))

-include $(USER_LIBC_OBJS:.o=.d) $(patsubst %,$(USER_BUILD)/obj/tests/user/%.c.d,init $(USER_TESTS))

# ---- glibc build -----------------------------------------------------------------
$(eval $(call user_init_list_rule,$(USER_LINUX_BUILD)))

$(USER_LINUX_BIN)/init: tests/user/init.c $(USER_LINUX_BUILD)/init_tests.h $(USER_LIB)/tap/tap.c $(USER_LIB)/tap/tap.h
	@mkdir -p $(dir $@)
	@echo "  CC [glibc] $@"
	@$(USER_LINUX_CC) $(USER_LINUX_CFLAGS) -I$(USER_LINUX_BUILD) -o $@ $< $(USER_LIB)/tap/tap.c

# (the tests' shared headers too: glibc builds have no -MMD dependency files)
$(USER_LINUX_BIN)/%: tests/user/%.c $(wildcard tests/user/*.h) $(USER_LIB)/tap/tap.c $(USER_LIB)/tap/tap.h
	@mkdir -p $(dir $@)
	@echo "  CC [glibc] $@"
	@$(USER_LINUX_CC) $(USER_LINUX_CFLAGS) -o $@ $< $(USER_LIB)/tap/tap.c

# dynexec is the one glibc program linked dynamically (a PIE, full RELRO):
# the initramfs carries the cross toolchain's ld.so and libc.so.6 (Debian's
# libc6 for arm64) where Debian puts them, with Debian's /lib link.
USER_LINUX_DYNAMIC := dynexec
USER_LINUX_SYSROOT := /usr/aarch64-linux-gnu/lib
$(addprefix $(USER_LINUX_BIN)/,$(USER_LINUX_DYNAMIC)): USER_LINUX_CFLAGS := $(filter-out -static,$(USER_LINUX_CFLAGS)) \
	-fPIE -pie -Wl,-z,relro,-z,now
USER_LINUX_DYN_EXTRAS := /lib/aarch64-linux-gnu/ld-linux-aarch64.so.1=$(USER_LINUX_SYSROOT)/ld-linux-aarch64.so.1 \
	/lib/aarch64-linux-gnu/libc.so.6=$(USER_LINUX_SYSROOT)/libc.so.6 \
	'/lib/ld-linux-aarch64.so.1->aarch64-linux-gnu/ld-linux-aarch64.so.1'

$(USER_LINUX_BUILD)/stripped/%: $(USER_LINUX_BIN)/%
	@mkdir -p $(dir $@)
	@aarch64-linux-gnu-strip -o $@ $<

$(USER_LINUX_INITRAMFS): $(addprefix $(USER_LINUX_BUILD)/stripped/,init $(USER_TESTS)) $(USER_LINUX_BUILD)/bad-elf \
		$(USER_LINUX_BUILD)/exec-script $(USER_LINUX_BUILD)/exec-noscript tools/mkinitramfs.sh
	@echo "  CPIO [glibc] $@"
	@bash tools/mkinitramfs.sh $@ /init=$(USER_LINUX_BUILD)/stripped/init /tmp/ \
		$(foreach t,$(USER_TESTS),/bin/$(t)=$(USER_LINUX_BUILD)/stripped/$(t)) /bin/bad-elf=$(USER_LINUX_BUILD)/bad-elf \
		$(call USER_EXEC_EXTRAS,$(USER_LINUX_BUILD)) $(USER_LINUX_DYN_EXTRAS)

include tests/fuzz/fuzz.mk

.DEFAULT_GOAL := $(if $(_user_saved_goal),$(_user_saved_goal),$(if $(filter tests/user/user.mk,$(firstword $(MAKEFILE_LIST))),user))
