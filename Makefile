# SPDX-License-Identifier: GPL-2.0
#
# kprofctl: out-of-tree module (Kbuild) + CLI (userspace/).
#
#   make                      module against KDIR, and the CLI
#   make KDIR=... ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-   cross build
#   make W=1 / make C=2       extra warnings / sparse on the module
#   make check                unit tests, build checks, VM suite (arm64 6.1,
#                             6.12, 6.1-rt, 6.12-16k; amd64 6.1)
#   make demo                 boot an arm64 VM and profile vfs_read
#   make bench                instruction-count benchmark in the VM

KDIR ?= /lib/modules/$(shell uname -r)/build
PROVE ?= prove --timer
VM_KERNELS ?= arm64-6.1 arm64-6.12 amd64-6.1 arm64-6.1-rt arm64-6.12-16k \
	arm64-6.1-debug
BUILD_KERNELS ?= $(VM_KERNELS)

.PHONY: all module cli clean deps unit build-check vm-test check demo bench help

all: module cli

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

cli:
	$(MAKE) -C userspace

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean

# Debian packages for the tests and the VM (installs them when root).
deps:
	tests/deps

# Userspace unit tests (ASan + UBSan).
unit: deps
	$(MAKE) -C userspace test

# Module builds against every guest kernel and x86_64 with W=1 and
# sparse: any diagnostic fails.
build-check: deps
	tests/build-check $(BUILD_KERNELS)

vm-test: deps
	$(PROVE) -v $(addprefix tests/vm/t/,$(addsuffix .t,$(VM_KERNELS)))

check: unit build-check vm-test

demo: deps
	tests/vm/run --kernel arm64-6.1 --script tests/demo.sh

bench: deps
	tests/bench/run arm64-6.1 arm64-6.12

help:
	@sed -n '3,12p' Makefile
