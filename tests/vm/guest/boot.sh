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
dmesg | grep -q "probes=: 'kprobe:kprof_no_such_function' not armed: -\(ENOENT\|2\)$"
ok $? "the bad spec is reported (-ENOENT) and skipped"
capture kprofctl status
echo "$out" | grep -q '^boot probes: *3 armed, 1 failed$'
ok $? "status: 3 armed, 1 failed"
echo "$out" | grep -q "^  param probes=: kprobe:kprof_no_such_function: NOT ARMED: -ENOENT: symbol not found"
ok $? "status names the spec that failed and why"
is "$(kprofctl list | grep -c ' running ')" 3 "three probes running from load"
ids=$(kprofctl list | awk '$3 == "running" { print $1 }')
set -- $ids
echo "spinoff 7 1000" >$T
echo "nop 50" >$T
echo "event 30" >$T
is "$(count "$1")" 7 "kretprobe:kprof_test_spin counted 7 calls"
is "$(count "$2")" 50 "kprobe:kprof_test_nop counted 50 hits"
is "$(count "$3")" 30 "tracepoint kprof_test_event counted 30 hits"
kprofctl del "$2" >/dev/null
kprofctl status | grep -q "^  param probes=: kprobe:kprof_test_nop: probe $2, since deleted$"
ok $? "status: a boot probe deleted since is said so"

# the list's defaults: PMU events per call and a slow-call threshold
rmmod kprofctl &&
insmod /kprofctl.ko probes=kretprobe:kprof_test_spin,kprobe:kprof_test_nop pmu_events=cpu_cycles,inst_retired slow_ns=1000
ok $? "insmod with pmu_events= and slow_ns="
echo "spinoff 5 1000" >$T
capture kprofctl show 1 --json
echo "$out" | grep -q '"pmu":{"per_call":{"cpu_cycles":{.*"inst_retired":{'
ok $? "the kretprobe counts cpu_cycles and inst_retired per call"
is "$(count 1)" 5 "and still counts 5 calls"
kprofctl show 1 | grep -q '^  slow calls (>= 1us): 5 sent to watch'
ok $? "the kretprobe has the 1000 ns slow-call threshold: 5 slow calls"
capture kprofctl show 2
echo "$out" | grep -q 'slow calls\|per call'
ok $(( ! $? )) "the kprobe takes neither (count only)"
rmmod kprofctl &&
insmod /kprofctl.ko probes=kretprobe:kprof_test_spin,kprobe:kprof_test_nop pmu_events=cpu_cycles,no_such_event
ok $? "insmod with a bad pmu_events= still loads"
is "$(kprofctl list)" "no probes" "a bad pmu_events= arms none of the list"
kprofctl status | grep -q "^  param probes=: LIST FAILED (errno 22): pmu_events=cpu_cycles,no_such_event: event 2 is not known"
ok $? "status says which event of pmu_events= is wrong"

rmmod kprofctl && insmod /kprofctl.ko
ok $? "reloaded without probes="
is "$(kprofctl list)" "no probes" "no probe without the parameter"
kprofctl status | grep -q '^boot probes: *none'
ok $? "status: no boot probes"
exit $tap_fail
