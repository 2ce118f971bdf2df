# arch/arm64/arch.mk - arm64 build and QEMU settings (included by the Makefile).

BOARD ?= virt
MEM ?= 512M
CPU ?= max
SMP ?= 1
EL ?= 1
GIC ?= 2

CROSS_COMPILE ?= aarch64-linux-gnu-
ARCH_CFLAGS := -mgeneral-regs-only -mcmodel=small -fno-pie -mno-outline-atomics
ARCH_LDFLAGS := -no-pie
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
DT_EXPECT = mem:$(MEM),cpu:$(CPU),el:$(EL),gic:$(GIC)
QEMU_CMD = qemu-system-aarch64 -M $(QEMU_MACHINE) -cpu $(QEMU_CPU) -m $(MEM) -smp $(SMP) \
	-nographic -no-reboot -nic none -kernel $(KERNEL_IMAGE) -append "$(BOOTARGS)" $(if $(INITRD),-initrd $(INITRD)) $(QEMU_EXTRA)
GDB ?= gdb-multiarch
GDB_ARCH := aarch64
