#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The fast path under pointer authentication and BTI (tests/vm/suite
# boots arm64 kernels a second time with QEMU's -cpu max): the kernel signs
# and checks return addresses and guards indirect branches, and fast.sh's
# tests run there too.
. /tests/tap.sh
dmesg | grep -q "CPU features: detected: Address authentication" &&
	dmesg | grep -q "CPU features: detected: Branch Target Identification"
ok $? "the kernel runs with pointer authentication and BTI ($(dmesg | grep -o 'Address authentication[^)]*)' | head -n 1))"
sh /tests/fast.sh || tap_fail=1
exit $tap_fail
