# tests/selftests/selftests.mk - Linux's own mm selftests, run on our kernel
# and on Debian's Linux 6.12, results compared case by case. Included by the
# top-level Makefile.
#
#   make check-linux-selftests   tools/check-linux-selftests.sh: fetch the
#                                selftest sources from Debian's
#                                linux-source-6.12 (cached outside the tree,
#                                never committed), build them static against
#                                glibc, boot both kernels, compare
#
# The files of this directory are ours: compat.h (forced into every test
# build: the syscall numbers the cross glibc's 6.1 headers lack) and
# mm_probe.c (memfd, ftruncate, fallocate and pkey results, compared as text).
# The runner /init is tests/user/init.c built with its own program list.

.PHONY: check-linux-selftests

check-linux-selftests:
	@bash tools/check-linux-selftests.sh
