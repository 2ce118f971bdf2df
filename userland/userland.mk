# userland/userland.mk - what `make run` boots when no INIT or INITRD is
# given (included by the top-level Makefile, after tests/user/user.mk):
#
#   busybox-initramfs   arm64: Debian's busybox-static sh (tools/fetch-busybox.sh
#                       fetches it into BUSYBOX_CACHE), an applet link per applet,
#                       and our /init script userland/busybox-init
#                       -> build/arm64/busybox-initramfs.cpio
#   sh-initramfs        the project's shell (userland/sh.c, on the test libc) as
#                       /init and /bin/sh, with /bin/hello to run
#                       -> build/$(USER_TARGET)/sh-initramfs.cpio (every ARCH/BOARD)
#   userland-all        both, for arm64 and both MicroBlaze boards
#
# USERLAND picks the default of `make run`: busybox (arm64's default) or sh
# (MicroBlaze's, and possible on arm64).

BUSYBOX_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/teachos/busybox
BUSYBOX_BIN := $(BUSYBOX_CACHE)/bin/busybox
BUSYBOX_INITRAMFS := build/arm64/busybox-initramfs.cpio
# symlink: /bin/<applet> -> busybox, as `busybox --install -s` makes them;
# hard: hard links (tools/mkbusybox-initramfs.sh).
BUSYBOX_LINKS ?= symlink

SH_BUILD := build/$(USER_TARGET)/userland
SH_INITRAMFS := build/$(USER_TARGET)/sh-initramfs.cpio

USERLAND ?= $(if $(filter arm64,$(ARCH)),busybox,sh)
USERLAND_INITRAMFS = $(if $(filter busybox,$(USERLAND)),$(BUSYBOX_INITRAMFS),$(SH_INITRAMFS))

.PHONY: busybox-initramfs sh-initramfs userland-all
busybox-initramfs: $(BUSYBOX_INITRAMFS)
sh-initramfs: $(SH_INITRAMFS)

# Every image the console sessions boot (tests/sessions, make check).
userland-all:
	@$(MAKE) --no-print-directory ARCH=arm64 busybox-initramfs sh-initramfs
	@$(MAKE) --no-print-directory ARCH=microblaze BOARD=ml605 sh-initramfs
	@$(MAKE) --no-print-directory ARCH=microblaze BOARD=s3adsp1800 sh-initramfs

$(BUSYBOX_BIN):
	@BUSYBOX_CACHE=$(BUSYBOX_CACHE) bash tools/fetch-busybox.sh >/dev/null

$(BUSYBOX_INITRAMFS): $(BUSYBOX_BIN) userland/busybox-init tools/mkbusybox-initramfs.sh tools/mkinitramfs.sh
	@mkdir -p $(dir $@)
	@bash tools/mkbusybox-initramfs.sh $@ $(BUSYBOX_BIN) userland/busybox-init $(BUSYBOX_LINKS)

$(SH_BUILD)/sh: $(USER_BUILD)/obj/userland/sh.c.o $(USER_LIBC_CRT0) $(USER_LIBC_A) $(USER_LDSCRIPT)
	@mkdir -p $(dir $@)
	@echo "  LD [$(USER_TARGET)] $@"
	@$(USER_CC) $(USER_CFLAGS) $(USER_LDFLAGS) -o $@ $(USER_LIBC_CRT0) $< $(USER_LIBC_A) -lgcc

$(SH_BUILD)/stripped/sh: $(SH_BUILD)/sh
	@mkdir -p $(dir $@)
	@$(USER_STRIP) -o $@ $<

$(SH_INITRAMFS): $(SH_BUILD)/stripped/sh $(USER_BUILD)/stripped/hello tools/mkinitramfs.sh
	@echo "  CPIO [$(USER_TARGET)] $@"
	@bash tools/mkinitramfs.sh $@ /init=$(SH_BUILD)/stripped/sh /bin/sh=\>/init \
		/bin/hello=$(USER_BUILD)/stripped/hello /tmp/ /etc/

-include $(USER_BUILD)/obj/userland/sh.c.d
