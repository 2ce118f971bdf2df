# arch/arm64/arch.mk - arm64 build and QEMU settings (included by the Makefile).

BOARD ?= virt
MEM ?= 512M
CPU ?= max
SMP ?= 1
EL ?= 1
GIC ?= 2

# The translation layout (asm/layout.h derives the rest): GRANULE 4K, 16K or
# 64K and VA_BITS, one of the pairs below. The default layout builds into
# build/arm64, every other one into build/arm64-<granule>-<va bits>.
GRANULE ?= 4K
VA_BITS ?= 48
LAYOUTS := 4K-39 4K-48 4K-52 16K-47 16K-48 16K-52 64K-42 64K-48 64K-52
ifeq ($(filter $(GRANULE)-$(VA_BITS),$(LAYOUTS)),)
$(error GRANULE=$(GRANULE) VA_BITS=$(VA_BITS) is not a supported layout; valid GRANULE-VA_BITS pairs: $(LAYOUTS))
endif
GRANULE_SHIFT := $(if $(filter 4K,$(GRANULE)),12,$(if $(filter 16K,$(GRANULE)),14,16))
ifneq ($(GRANULE)-$(VA_BITS),4K-48)
BUILD := build/arm64-$(shell echo $(GRANULE) | tr K k)-$(VA_BITS)
endif
# The image's link address (asm/memlayout.h: KIMAGE_VADDR = PAGE_END + 2 GiB).
KIMAGE_VADDR := $(shell printf '0x%x' $$(( -(1 << ($(VA_BITS) - 1)) + 0x80000000 )))

CROSS_COMPILE ?= aarch64-linux-gnu-
ARCH_CFLAGS := -mgeneral-regs-only -mcmodel=small -fno-pie -mno-outline-atomics \
	-DGRANULE_SHIFT=$(GRANULE_SHIFT) -DVA_BITS=$(VA_BITS) -DNR_CPUS=8
ARCH_LDFLAGS := -no-pie -Wl,--defsym=KIMAGE_VADDR=$(KIMAGE_VADDR) -Wl,--defsym=PAGE_SIZE_LD=$$((1 << $(GRANULE_SHIFT)))
ARCH_SRCS := $(wildcard arch/arm64/kernel/*.c) $(wildcard arch/arm64/kernel/*.S) drivers/pl011.c \
	drivers/gic_common.c drivers/gic_v2.c drivers/gic_v3.c drivers/arm_arch_timer.c
LINKER_SCRIPT := linker/arm64.ld
KERNEL_IMAGE := $(BUILD)/Image
# The board's UART, used as the console until the device tree is read (and
# to report a device tree that cannot be read).
EARLYCON := 0x09000000

# -cpu max emulates pointer authentication with QARMA, about 6x slower
# under TCG; the implementation-defined algorithm is architecturally fine.
QEMU_CPU := $(if $(filter max,$(CPU)),max$(comma)pauth-impdef=on,$(CPU))
QEMU_MACHINE := virt$(if $(filter 2,$(EL)),$(comma)virtualization=on)$(if $(filter 3,$(GIC)),$(comma)gic-version=3)
DT_EXPECT = mem:$(MEM),cpu:$(CPU),el:$(EL),gic:$(GIC),smp:$(SMP)
QEMU_CMD = qemu-system-aarch64 -M $(QEMU_MACHINE) -cpu $(QEMU_CPU) -m $(MEM) -smp $(SMP) \
	-nographic -no-reboot -nic none -kernel $(KERNEL_IMAGE) -append "$(BOOTARGS)" $(if $(INITRD),-initrd $(INITRD)) $(QEMU_EXTRA)
GDB ?= gdb-multiarch
GDB_ARCH := aarch64
