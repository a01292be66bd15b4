#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of tests/dt/check's timer-rate case: the device tree says the
# arch timer runs at 31.25 MHz, half of CNTFRQ_EL0.  A fast probe times
# kprof_test_spin(1 ms), which spins by the kernel's own clock: every call
# takes at least 1 ms and not much more, by kprofctl's clock too.
# shellcheck source=../vm/guest/tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
dmesg | grep -q "arch_timer: cp15 timer(s) running at 31.25MHz"
ok $? "the kernel keeps time at the device tree's 31.25 MHz"
id=$(kprofctl add kretprobe:kprof_test_spin --fast --start)
echo "spin 10 1000000" >$T
json=$(kprofctl show "$id" --json)
min=$(json_field "$json" min_ns)
max=$(json_field "$json" max_ns)
[ "${min:-0}" -ge 1000000 ] && [ "${max:-0}" -lt 1100000 ]
ok $? "kprof_test_spin(1 ms) x 10 by the fast probe's clock: ${min:-?} to ${max:-?} ns"
exit $tap_fail
