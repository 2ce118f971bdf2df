# Makefile - the one entry point. See README.md.
#
#   make run      boot the kernel in QEMU, console on stdio
#   make check    host tests + every QEMU configuration; ends "N passed, N failed"
#   make gdb      QEMU halted with a gdb stub, prints the gdb command to attach
#   make setup    install what is missing (also run by run and check)
#   make setup-gdb  setup, and build microblaze-elf-gdb if missing (also run by check)
#
# Variables: ARCH=arm64|microblaze BOARD MEM CPU SMP EL BOOTARGS INIT INITRD USERLAND QEMU_EXTRA TIMEOUT GDB_PORT

comma := ,
ARCH ?= arm64
ifeq ($(filter arm64 microblaze,$(ARCH)),)
$(error ARCH must be arm64 or microblaze, not '$(ARCH)')
endif
BUILD = build/$(ARCH)
BOOTARGS ?=
QEMU_EXTRA ?=
# INITRD: an initramfs (cpio newc) for the kernel; INIT: a static program to
# boot as /init (the Makefile wraps it in an initramfs of its own).
INITRD ?=
INIT ?=
TIMEOUT ?= 60

include arch/$(ARCH)/arch.mk

CC := $(CROSS_COMPILE)gcc
OBJCOPY := $(CROSS_COMPILE)objcopy
HOSTCC ?= cc

INCLUDES := -Iinclude -Ikernel -Imm -Ifs -Idrivers -Iarch/$(ARCH)/include
CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding -nostdlib \
	-fno-stack-protector -fno-omit-frame-pointer -fno-common $(ARCH_CFLAGS) \
	$(INCLUDES) -DEARLYCON=$(EARLYCON)
ASFLAGS := $(ARCH_CFLAGS) $(INCLUDES) -D__ASSEMBLER__ -DEARLYCON=$(EARLYCON)

SRCS := $(wildcard kernel/*.c) $(wildcard mm/*.c) $(wildcard fs/*.c) $(wildcard tests/kernel/*.c) $(ARCH_SRCS)
OBJS := $(patsubst %,$(BUILD)/obj/%.o,$(SRCS))

.PHONY: all kernel run check check-debian stress-ng-both gdb gdb-cmd setup setup-gdb clean host-tests host-test-list host-dtbs boot-dtbs qemu-cmd print-arch
all: kernel

kernel: $(KERNEL_IMAGE) $(KERNEL_DTB)

$(BUILD)/obj/%.c.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/%.S.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	@$(CC) $(ASFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/kernel.elf: $(OBJS) $(LINKER_SCRIPT)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) $(ARCH_LDFLAGS) -T $(LINKER_SCRIPT) -Wl,--build-id=none -o $@ $(OBJS) -lgcc

$(BUILD)/Image: $(BUILD)/kernel.elf
	@echo "  OBJCOPY $@"
	@$(OBJCOPY) -O binary $< $@

-include $(OBJS:.o=.d)

# A device tree of our own for QEMU's -dtb (arch.mk: KERNEL_DTB, which may be
# empty): dts/<name>.dts through the arch's DTS_FILTER (e.g. the RAM size), then dtc.
$(BUILD)/dts-$(MEM)/%.dtb: dts/%.dts
	@mkdir -p $(dir $@)
	@echo "  DTC     $@"
	@$(or $(DTS_FILTER),cat) <$< | dtc -q -I dts -O dtb -o $@ -

setup:
	@bash tools/setup.sh

# setup, and the MicroBlaze debugger (tools/build-microblaze-gdb.sh) if it is missing.
setup-gdb:
	@bash tools/setup.sh --with-gdb

# Print the QEMU command line for the current variables (used by the runner).
qemu-cmd:
	@echo '$(QEMU_CMD)'

print-arch:
	@echo '$(ARCH)'

# make run INIT=prog: an initramfs holding just that program as /init.
# INIT=none: no initramfs (the banner, then power-off).
ifneq ($(filter-out none,$(INIT)),)
INITRD := $(BUILD)/init-initramfs.cpio
$(INITRD): $(INIT) FORCE
	@mkdir -p $(dir $@)
	@bash tools/mkinitramfs.sh $@ /init=$(INIT)
endif
FORCE:

# What `make run` boots: INIT's or INITRD's initramfs, none for INIT=none,
# else the shell of USERLAND (userland/userland.mk). Only `run` does this:
# qemu-cmd (used by make check) keeps INITRD as given.
run: INITRD = $(if $(filter none,$(INIT)),,$(or $(RUN_INITRD),$(USERLAND_INITRAMFS)))
RUN_INITRD := $(INITRD)
run: setup
	@$(MAKE) -s --no-print-directory kernel $(INITRD)
	@bash tools/run-qemu.sh --arch $(ARCH) --timeout 0 --stream --log $(BUILD)/run.log -- $(QEMU_CMD)

# The debugger for this ARCH (arch.mk: GDB, GDB_ARCH) attached to QEMU's gdb
# stub on GDB_PORT, with the kernel's symbols (tests/host/gdb_stub.sh runs it too).
GDB_PORT ?= 1234
# arm64: the students' commands (tos-help lists them), tools/gdb/teachos.py;
# MicroBlaze's gdb has no Python.
GDB_SCRIPTS = $(if $(filter arm64,$(ARCH)),-x tools/gdb/teachos.py)
GDB_CMD = $(GDB) $(BUILD)/kernel.elf -ex 'set architecture $(GDB_ARCH)' -ex 'target remote localhost:$(GDB_PORT)' $(GDB_SCRIPTS)
gdb-cmd:
	@echo "$(GDB_CMD)"

# ARCH=microblaze: build the debugger first if it is missing (setup-gdb).
gdb: $(if $(filter microblaze,$(ARCH)),setup-gdb,setup)
	@$(MAKE) -s --no-print-directory kernel
	@echo "QEMU is waiting for gdb on localhost:$(GDB_PORT). In another terminal:"
	@echo "  $(GDB_CMD)"
	$(QEMU_CMD) -S -gdb tcp::$(GDB_PORT)

# Host unit tests: tests/host/<name>.mk files add to HOST_TESTS.
HOST_TESTS :=
include $(wildcard tests/host/*.mk)
HOST_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -fsanitize=address,undefined \
	-fno-sanitize-recover=all -DNR_CPUS=1 -Iinclude -Ikernel -Imm -Ifs -Itests/host
define host_test_rule
build/host/test_$(1): $$($(1)_SRCS) tests/host/host_env.c $$(wildcard include/*.h tests/host/*.h kernel/*.h mm/*.h tests/host/fake_*/asm/*.h arch/*/include/asm/*.h)
	@mkdir -p build/host
	$$(HOSTCC) $$(HOST_CFLAGS) $$($(1)_CFLAGS) -o $$@ $$($(1)_SRCS) tests/host/host_env.c $$($(1)_LIBS)
endef
$(foreach t,$(HOST_TESTS),$(eval $(call host_test_rule,$(t))))

host-tests: $(patsubst %,build/host/test_%,$(HOST_TESTS))

# Print "name|args" per host test for tools/check.sh.
host-test-list:
	@$(foreach t,$(HOST_TESTS),echo '$(t)|$($(t)_ARGS)';)

host-dtbs:
	@bash tools/dump-qemu-dtbs.sh build/dtbs

# Device trees for boots that must fail with a clear message (tests/qemu-configs).
BOOT_DTBS := $(patsubst tests/boot-dts/%.dts,build/boot-dtbs/%.dtb,$(wildcard tests/boot-dts/*.dts)) \
	build/boot-dtbs/bad-structure.dtb
build/boot-dtbs/%.dtb: tests/boot-dts/%.dts
	@mkdir -p $(dir $@)
	@dtc -q -I dts -O dtb -o $@ $<
build/boot-dtbs/good.dtb: tests/boot-dts/good.dts.in
	@mkdir -p $(dir $@)
	@dtc -q -I dts -O dtb -o $@ $<
build/host/dtb-corrupt: tools/dtb-corrupt.c
	@mkdir -p $(dir $@)
	@$(HOSTCC) -O1 -Wall -o $@ $< -lfdt
build/boot-dtbs/bad-structure.dtb: build/boot-dtbs/good.dtb build/host/dtb-corrupt
	@build/host/dtb-corrupt $< $@
boot-dtbs: $(BOOT_DTBS)

# check: with the MicroBlaze debugger for tests/host/gdb_stub.sh (README.md, "Debugging").
# ONLY=REGEX: only the QEMU configurations whose name matches (tools/check.sh).
check: setup-gdb
	@$(if $(value ONLY),CHECK_ONLY='$(value ONLY)' )bash tools/check.sh

# Debian's dynamically linked busybox on our kernel and on Linux 6.12, compared (tools/check-debian.sh).
check-debian: setup
	@bash tools/check-debian.sh

# Debian's stress-ng memory stressors on both kernels, tabulated (tools/stress-ng-both.sh; not in check).
stress-ng-both: setup
	@bash tools/stress-ng-both.sh

# Graded labs (docs/labs/README.md, tools/lab.py): a student tree, its grade,
# and the proof that every lab can be graded (also run by make check).
LAB ?=
LABDIR ?=
GRADE_TIMEOUT ?= 300
.PHONY: lab-start grade check-labs
lab-start:
	@python3 tools/lab.py start $(LAB) $(LABDIR) $(if $(filter 1,$(FORCE)),--force)
grade: setup
	@python3 tools/lab.py grade $(LAB) --timeout $(GRADE_TIMEOUT)
check-labs: setup
	@python3 tools/lab.py check --timeout $(GRADE_TIMEOUT)

# Pictures of the address space: boots, then SVGs and index.html in build/pictures (tools/pictures.sh).
.PHONY: pictures
pictures: setup
	@bash tools/pictures.sh

clean:
	rm -rf build
include tests/user/user.mk
include tests/selftests/selftests.mk
include tests/bench/bench.mk
include userland/userland.mk
