#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Boot-time capture without a device tree: probes= at load
# (tests/vm/guest/suite.sh); kprofctl and kprof_test are loaded on entry
# and on exit.
# shellcheck source=tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger

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
/files/selftest bootreport | grep -v "^TAP\|^1\.\."
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
PMU=
for d in /sys/bus/event_source/devices/*; do
	[ -e "$d/events/inst_retired" ] && PMU=${d##*/}
done
PE=pmu_events=cpu_cycles,inst_retired
[ -n "$PMU" ] || PE=	# x86 under TCG: no PMU at all
rmmod kprofctl &&
insmod /kprofctl.ko probes=kretprobe:kprof_test_spin,kprobe:kprof_test_nop $PE slow_ns=1000
ok $? "insmod with $PE slow_ns=1000"
echo "spinoff 5 1000" >$T
if [ -n "$PMU" ]; then
	kprofctl show 1 --json | grep -q '"pmu":{"per_call":{"cpu_cycles":{.*"inst_retired":{'
	ok $? "the kretprobe counts cpu_cycles and inst_retired per call"
else
	echo "ok - pmu_events= # SKIP this guest has no PMU (QEMU TCG x86 models none)"
fi
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

# a driver module's probe from boot: kprof_test's init calls
# kprof_test_probe(probe_ns) probe_calls times, like a driver's probe
KO=/kmod/kmod/kprof_test.ko
minns() { kprofctl show "$1" --json | grep -o '"min_ns":[0-9]*' | head -n 1 | cut -d: -f2; }
rmmod kprofctl && rmmod kprof_test &&
insmod /kprofctl.ko probes=kretprobe:kprof_test:kprof_test_probe
ok $? "insmod probes=kretprobe:kprof_test:kprof_test_probe, kprof_test not loaded"
is "$(state 1)" pending "the module's probe waits (pending)"
kprofctl status | grep -q '^  param probes=: kretprobe:kprof_test:kprof_test_probe: probe 1, pending: registers when its module loads$'
ok $? "status: pending until its module loads"
insmod $KO probe_calls=3 probe_ns=200000
ok $? "insmod kprof_test.ko probe_calls=3 probe_ns=200000"
is "$(state 1)" running "registered when the module came, running"
is "$(count 1)" 3 "its 3 calls from the module's init are counted"
[ "$(minns 1)" -ge 200000 ]
ok $? "each lasted at least probe_ns (min $(minns 1) ns)"
rmmod kprof_test
is "$(state 1)" gone "gone when the module unloads"
insmod $KO probe_calls=2 probe_ns=100000
is "$(state 1)" running "registered again on the next load"
is "$(count 1)" 5 "and 2 more calls counted"
rmmod kprof_test
id=$(kprofctl add kprobe:kprof_test:kprof_test_probe --defer --start)
ok $? "add kprobe:MOD:SYM --defer while MOD is not loaded"
is "$(state "$id")" pending "it is pending"
insmod $KO probe_calls=4 probe_ns=1000
is "$(count "$id")" 4 "the deferred kprobe counts 4 hits from init"
capture kprofctl add kprobe:kprof_test_nop --defer
is "$rc" 2 "--defer on a kprobe without MOD: is a usage error"
capture kprofctl add kretprobe:kprof_no_such_module:fn
is "$rc" 1 "without --defer, a symbol of a module not loaded is -ENOENT"

# the kernel command line, as modprobe passes it on (tests/vm/suite boots
# with kprofctl.probes=tracepoint:kprof_test:kprof_test_event,kprobe:kprof_test:
# kprof_test_nop kprofctl.slow_ns=1000); insmod ignores it
if grep -q 'kprofctl\.probes=' /proc/cmdline; then
	d=/lib/modules/$(uname -r)
	rmmod kprofctl && mkdir -p "$d" && cp /kprofctl.ko "$d/" && depmod &&
	modprobe kprofctl
	ok $? "modprobe kprofctl with kprofctl.probes= on the kernel command line"
	is "$(kprofctl list | grep -c ' running ')" 2 "its two probes run from load"
	echo "event 20" >$T
	echo "nop 30" >$T
	is "$(count 1)" 20 "tracepoint from the command line counted 20 hits"
	is "$(count 2)" 30 "kprobe:kprof_test:kprof_test_nop counted 30 hits"
	is "$(cat /sys/module/kprofctl/parameters/slow_ns)" 1000 "kprofctl.slow_ns= reached the module too"
	rm -f "$d/kprofctl.ko"
else
	echo "ok - kernel command line # SKIP this boot has no kprofctl.probes= (tests/vm/suite adds it)"
fi

# sizing parameters and the node's properties share their bounds
rmmod kprofctl
for bad in max_probes=0 max_pairs=65 pair_keys=100 pair_inflight=32 max_pmus=65 event_ring=8; do
	insmod /kprofctl.ko $bad 2>/dev/null
	ok $((! $?)) "insmod kprofctl.ko $bad is refused"
done
for want in 'max_probes=0: want 1-1024' 'pair_keys=100: want a power of two, 64-1024' \
	'event_ring=8: want a power of two, 16-65536'; do
	dmesg | grep -q "kprofctl: $want\$"
	ok $? "dmesg: $want"
done

# Slots have memory only while a probe uses them: loading takes the header
# and the table, not max_probes x nr_cpus x 5 KiB (that was 11 MiB here on
# two CPUs for 1024 slots, and 1.8 MiB per possible CPU with the defaults)
ncpu=$(grep -c '^processor' /proc/cpuinfo)
# own_vmalloc_kb (tap.sh): the module's own areas, not its code's (the
# module loader's) nor anyone else's, which move VmallocUsed too
v0=$(own_vmalloc_kb)
insmod /kprofctl.ko max_probes=1024 max_pairs=16
ok $? "insmod kprofctl.ko max_probes=1024 max_pairs=16"
v1=$(own_vmalloc_kb)
[ $((v1 - v0)) -lt 1024 ]
ok $? "loading it takes $((v1 - v0)) kB of vmalloc besides its code and data (< 1 MiB)"
dmesg | grep -q "probe slots, [0-9]* KiB mapped, [0-9]* KiB allocated$"
ok $? "dmesg says what is mapped and what is allocated"
pid=$(kprofctl add pair:workqueue --start)
ok $? "a pair probe"
v2=$(own_vmalloc_kb)
# its 64 keys + "other", per CPU, of about 5 KiB each
lo=$((65 * ncpu * 4500 / 1024)) hi=$((65 * ncpu * 5100 / 1024 + 256))
[ $((v2 - v1)) -ge $lo ] && [ $((v2 - v1)) -le $hi ]
ok $? "it takes $((v2 - v1)) kB ($lo-$hi kB for $ncpu CPUs)"
echo "work 5 0" >$T
kprofctl show "$pid" --json --key kprof_test_work_fn >/tmp/wq.json
grep -q '"name":"kprof_test_work_fn \[kprof_test\]","count":5[,}]' /tmp/wq.json
ok $? "its key reads through the mapping: 5 work items"
kprofctl del "$pid"
v3=$(own_vmalloc_kb)
is "$v3" "$v1" "del gives it all back (kB of the module's vmalloc)"
rmmod kprofctl
insmod /kprofctl.ko
ok $? "reloaded without probes="
is "$(kprofctl list)" "no probes" "no probe without the parameter"
kprofctl status | grep -q '^boot probes: *none'
ok $? "status: no boot probes"
exit $tap_fail
