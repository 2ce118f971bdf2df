# arch/microblaze/arch.mk - MicroBlaze build and QEMU settings (included by the Makefile).
#
# Two boards, two endiannesses, so each board has its own build directory:
#   BOARD=ml605       qemu-system-microblazeel -M petalogix-ml605       little-endian, 16550 UART
#   BOARD=s3adsp1800  qemu-system-microblaze   -M petalogix-s3adsp1800  big-endian, uartlite

BOARD ?= ml605
MEM ?= 128M

ifeq ($(BOARD),ml605)
QEMU_BIN := qemu-system-microblazeel
MB_CPUFLAGS := -mlittle-endian -mcpu=v8.10.a
# RAM starts here; QEMU loads the image at its start (the ELF's physical addresses).
KIMAGE_PHYS := 0x50000000
# The 16550's registers (QEMU: base 0x83e00000 + reg-offset 0x1000, reg-shift 2).
EARLYCON := 0x83e01000
EARLYCON_UART := ns16550
else ifeq ($(BOARD),s3adsp1800)
QEMU_BIN := qemu-system-microblaze
MB_CPUFLAGS := -mcpu=v7.10.d
KIMAGE_PHYS := 0x90000000
EARLYCON := 0x84000000
EARLYCON_UART := uartlite
else
$(error BOARD must be ml605 or s3adsp1800 for ARCH=microblaze, not '$(BOARD)')
endif

# The kernel's page size: PAGE_SIZE 4K (the default), 16K or 64K (asm/memlayout.h
# derives the table split from PAGE_SHIFT). The default builds into
# build/microblaze/<board>, every other one into build/microblaze/<board>-<size>.
PAGE_SIZE ?= 4K
MB_PAGE_SIZES := 4K 16K 64K
ifeq ($(filter $(PAGE_SIZE),$(MB_PAGE_SIZES)),)
$(error PAGE_SIZE=$(PAGE_SIZE) is not a supported MicroBlaze page size; valid values: $(MB_PAGE_SIZES))
endif
MB_PAGE_SHIFT := $(if $(filter 4K,$(PAGE_SIZE)),12,$(if $(filter 16K,$(PAGE_SIZE)),14,16))

BUILD := build/microblaze/$(BOARD)$(if $(filter-out 4K,$(PAGE_SIZE)),-$(shell echo $(PAGE_SIZE) | tr K k))
CROSS_COMPILE ?= /opt/mbtc/bin/microblaze-elf-
# The CPUs QEMU models have the barrel shifter, multiplier (with mulh) and divider.
ARCH_CFLAGS := $(MB_CPUFLAGS) -mxl-barrel-shift -mno-xl-soft-mul -mno-xl-soft-div \
	-mxl-multiply-high -fno-pic -DKIMAGE_PHYS=$(KIMAGE_PHYS) -DEARLYCON_UART=$(EARLYCON_UART) -DNR_CPUS=1 \
	-DMB_PAGE_SHIFT=$(MB_PAGE_SHIFT)
# No linker relaxation: it shortens imm pairs but leaves "symbol + offset"
# absolute values (TOPHYS() in the vectors) pointing at the old addresses.
ARCH_LDFLAGS := -Wl,--defsym=KIMAGE_PHYS=$(KIMAGE_PHYS) -Wl,--no-relax \
	-Wl,--defsym=PAGE_SIZE_LD=$$((1 << $(MB_PAGE_SHIFT)))
ARCH_SRCS := $(wildcard arch/microblaze/kernel/*.c) $(wildcard arch/microblaze/kernel/*.S) \
	drivers/ns16550.c drivers/uartlite.c drivers/xps_intc.c drivers/xps_timer.c
LINKER_SCRIPT := linker/microblaze.ld
KERNEL_IMAGE := $(BUILD)/kernel.elf

# Our device tree, with the RAM size QEMU is given (-m) written into /memory:
# dts/<board>.dts says 128 MiB on the line marked MEM (so plain dtc reads it
# too); the Makefile pipes it through DTS_FILTER before dtc.
MEM_MIB = $(patsubst %G,(%*1024),$(patsubst %M,%,$(MEM)))
DTS_FILTER = sed -e '/MEM: the build/s/(128 \* 0x100000)/($(MEM_MIB) * 0x100000)/'
KERNEL_DTB = $(BUILD)/dts-$(MEM)/$(BOARD).dtb

DT_EXPECT = mem:$(MEM),board:$(BOARD)
# INITRD (Makefile): QEMU loads it after the image and passes its start in
# r6 and in /chosen/linux,initrd-start/end of our device tree, which the
# kernel reads. The user tests' image is build/microblaze-$(BOARD)/
# initramfs.cpio (tests/user/user.mk, USER_INITRAMFS).
# QEMU leaves the illegal-opcode, divide-by-zero and unaligned-access
# exceptions off on these boards; turn them on (the kernel runs with MSR.EE).
MB_EXCEPTIONS := -global microblaze-cpu.ill-opcode-exception=on \
	-global microblaze-cpu.div-zero-exception=on \
	-global microblaze-cpu.unaligned-exceptions=on \
	-global microblaze-cpu.opcode-0x0-illegal=on
QEMU_CMD = $(QEMU_BIN) -M petalogix-$(BOARD) -m $(MEM) -nographic $(MB_EXCEPTIONS) \
	-kernel $(KERNEL_IMAGE) -dtb $(KERNEL_DTB) -append "$(BOOTARGS)" \
	$(if $(INITRD),-initrd $(INITRD)) $(QEMU_EXTRA)
# Debian has no MicroBlaze gdb: tools/build-microblaze-gdb.sh builds this one.
GDB ?= /opt/mbtc/bin/microblaze-elf-gdb
GDB_ARCH := MicroBlaze
