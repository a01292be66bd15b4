#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot-time capture without a device tree: probes= at load
# (tests/vm/guest/suite.sh); kprofctl and kprof_test are loaded on entry
# and on exit.
# shellcheck source=tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
count() { # ID -> the probe's total count in show --json
	kprofctl show "$1" --json | sed -n 's/^{"probes":\[{"id":[0-9]*,"spec":"[^"]*","type":"[^"]*","state":"[^"]*","count":\([0-9]*\),.*/\1/p'
}

rmmod kprofctl
ok $? "rmmod kprofctl"
insmod /kprofctl.ko probes=kretprobe:kprof_test_spin,kprobe:kprof_test_nop,tracepoint:kprof_test:kprof_test_event,kprobe:kprof_no_such_function
ok $? "insmod kprofctl.ko probes=<4 specs, one bad>: the module loads"
dmesg | grep -q "probes=: 'kprobe:kprof_no_such_function' not added: -\(ENOENT\|2\)$"
ok $? "the bad spec is reported (-ENOENT) and skipped"
is "$(kprofctl list | grep -c ' running ')" 3 "three probes running from load"
ids=$(kprofctl list | awk '$3 == "running" { print $1 }')
set -- $ids
echo "spinoff 7 1000" >$T
echo "nop 50" >$T
echo "event 30" >$T
is "$(count "$1")" 7 "kretprobe:kprof_test_spin counted 7 calls"
is "$(count "$2")" 50 "kprobe:kprof_test_nop counted 50 hits"
is "$(count "$3")" 30 "tracepoint kprof_test_event counted 30 hits"
rmmod kprofctl && insmod /kprofctl.ko
ok $? "reloaded without probes="
is "$(kprofctl list)" "no probes" "no probe without the parameter"
exit $tap_fail
