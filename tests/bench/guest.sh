#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark scenario, run inside the VM by tests/bench/run.  Every figure is
# guest instructions per call of kprof_test_nop (icount: 1 ns = 1 insn),
# minus the unprobed baseline measured in the same boot.
set -u
T=/sys/kernel/tracing
SYM=kprof_test_nop
N=${BENCH_CALLS:-20000}
R=${BENCH_ROUNDS:-7}
BENCH=/files/bench
bare=/kmod/bare/kprof_bare.ko

measure() { # LABEL [BENCH ARGS]: kprof_test_nop calls by default
	l=$1
	shift
	v=$($BENCH -n "$N" -r "$R" "$@") || { echo "BENCH-ERROR $l"; exit 1; }
	echo "BENCH $l $v"
}
EV="-t event"		# hits of tracepoint kprof_test:kprof_test_event
NW=${BENCH_WORKS:-2000}
WQ="-t work -a 0 -n $NW"	# empty work items: a workqueue start/end pair

fail() { echo "BENCH-ERROR $*"; exit 1; }

# The fast latency probe (ftrace entry, return trampoline) beside each
# kretprobe figure: its id in $id, or a BENCH-SKIP line with the reason
# where --fast is refused (amd64 so far).
fast() { # LABEL ADD-ARGS...
	l=$1
	shift
	if ! id=$(kprofctl add "$@" --fast --start 2>/tmp/bench.err); then
		echo "BENCH-SKIP $l kprofctl add $* --fast: $(cat /tmp/bench.err)"
		return 1
	fi
	kprofctl show "$id" --json | grep -q '"mech":"ftrace"' ||
		fail "$l: kprofctl add $* --fast is not hooked through ftrace"
}
# a latency probe's calls: a count in show --json
called() { # ID LABEL
	kprofctl show "$1" --json |
		grep -q '^{"probes":\[{"id":[0-9]*,"spec":"[^"]*","type":"[^"]*","state":"running","count":[1-9]' ||
		fail "$2 recorded no call"
}

# kprof_bare is loaded at boot with no symbol; reload it per mode
rmmod kprof_bare 2>/dev/null
# the kretprobe rows measure kretprobes (the module's default on arm64 is
# the fast path: fast() asks for it by name)
FP=/sys/module/kprofctl/parameters/fast
[ -w $FP ] && echo N >$FP

measure baseline

for mode in 0 1 2 3; do
	if ! insmod "$bare" sym=$SYM mode=$mode; then
		# mode 3 needs a PMU, which QEMU's x86 lacks
		[ $mode = 3 ] && { echo "BENCH-SKIP floor_kretprobe_pmu no PMU"; continue; }
		fail "insmod kprof_bare mode=$mode"
	fi
	case $mode in
	0) measure bare_kprobe ;;
	1) measure bare_kretprobe ;;
	2) measure floor_kretprobe_2ktime ;;
	3) measure floor_kretprobe_pmu ;;
	esac
	rmmod kprof_bare || fail "rmmod kprof_bare"
done

# the floor of a function set's hit counts: an empty ftrace_ops callback
# (kernels without dynamic ftrace have none: the set uses kprobes there)
if insmod "$bare" sym=$SYM mode=4 2>/dev/null; then
	measure floor_ftrace_ops
	rmmod kprof_bare || fail "rmmod kprof_bare"
else
	echo "BENCH-SKIP floor_ftrace_ops no dynamic ftrace (kprof_bare mode=4 refused)"
fi

# function sets over a glob that matches kprof_test_nop alone
SET="kprof_test:kprof_test_no[p]"
if id=$(kprofctl add "kprobe:$SET" --start 2>/tmp/bench.err); then
	mech=$(kprofctl show "$id" --json | sed -n 's/.*"mech":"\([a-z]*\)".*/\1/p')
	kprofctl show "$id" --json | grep -q '"nr_funcs":1,"nr_probed":1' ||
		fail "kprobe:$SET does not hook exactly kprof_test_nop"
	measure kprofctl_set_count
	echo "BENCH-INFO set_mech ${mech:-unknown}"
	kprofctl show "$id" --json | grep -q '"name":"kprof_test_nop","count":[1-9]' ||
		fail "kprobe:$SET counted no hit of kprof_test_nop"
	kprofctl del "$id" || fail "del"
else
	echo "BENCH-SKIP kprofctl_set_count kprofctl add kprobe:$SET: $(cat /tmp/bench.err)"
fi
if id=$(kprofctl add "kretprobe:$SET" --start 2>/tmp/bench.err); then
	measure kprofctl_set_latency
	kprofctl show "$id" --json | grep -q '"name":"kprof_test_nop","count":[1-9]' ||
		fail "kretprobe:$SET recorded no call of kprof_test_nop"
	kprofctl del "$id" || fail "del"
else
	echo "BENCH-SKIP kprofctl_set_latency kprofctl add kretprobe:$SET: $(cat /tmp/bench.err)"
fi
if fast kprofctl_fast_set_latency "kretprobe:$SET"; then
	measure kprofctl_fast_set_latency
	kprofctl show "$id" --json | grep -q '"name":"kprof_test_nop","count":[1-9]' ||
		fail "kretprobe:$SET --fast recorded no call of kprof_test_nop"
	kprofctl del "$id" || fail "del"
fi

id=$(kprofctl add kprobe:$SYM --start) || fail "kprofctl add kprobe"
measure kprofctl_kprobe_count
kprofctl del "$id" || fail "del"

id=$(kprofctl add kretprobe:$SYM --start) || fail "kprofctl add kretprobe"
measure kprofctl_kretprobe_hist
called "$id" kprofctl_kretprobe_hist
kprofctl del "$id" || fail "del"
if fast kprofctl_fast_hist kretprobe:$SYM; then
	measure kprofctl_fast_hist
	called "$id" kprofctl_fast_hist
	kprofctl del "$id" || fail "del"
fi

# a slow-call threshold above every call: the fast path only
id=$(kprofctl add kretprobe:$SYM --slow 1s --start) || fail "add --slow"
measure kprofctl_kretprobe_slow_unmet
kprofctl show "$id" --json | grep -q '"slow_events":0,' || fail "--slow 1s sent events"
kprofctl del "$id" || fail "del"
if fast kprofctl_fast_slow_unmet kretprobe:$SYM --slow 1s; then
	measure kprofctl_fast_slow_unmet
	called "$id" kprofctl_fast_slow_unmet
	kprofctl show "$id" --json | grep -q '"slow_events":0,' ||
		fail "--fast --slow 1s sent events"
	kprofctl del "$id" || fail "del"
fi

# slow calls acting on ftrace (--mark, --snapshot): under the threshold
# the same code as --slow; then every call slow (events, most dropped as
# the ring fills), alone, with a mark each and with a freeze each
id=$(kprofctl add kretprobe:$SYM --slow 1s --mark --start) || fail "add --slow --mark"
measure kprofctl_kretprobe_mark_unmet
kprofctl del "$id" || fail "del"
id=$(kprofctl add kretprobe:$SYM --slow 1ns --start) || fail "add --slow 1ns"
measure kprofctl_kretprobe_slow_all
kprofctl del "$id" || fail "del"
id=$(kprofctl add kretprobe:$SYM --slow 1ns --mark --start) || fail "add --slow 1ns --mark"
measure kprofctl_kretprobe_mark_all
grep -q "kprofctl: slow probe=$id " $T/trace || fail "--mark wrote no line"
kprofctl del "$id" || fail "del"
echo >$T/trace
if id=$(kprofctl add kretprobe:$SYM --slow 1ns --snapshot=4000000000 --start 2>/tmp/bench.err); then
	measure kprofctl_kretprobe_snapshot_all
	kprofctl del "$id" || fail "del"
	echo 0 >$T/snapshot
else
	echo "BENCH-SKIP kprofctl_kretprobe_snapshot_all $(cat /tmp/bench.err)"
fi

# PMU deltas per call: the same kretprobe reading cycles and instructions
# on entry and return (x86 under TCG has no PMU: skipped)
if id=$(kprofctl add kretprobe:$SYM --pmu cycles,instructions --start 2>/dev/null); then
	measure kprofctl_kretprobe_pmu
	# a call the task was switched out of is lost, not timed: some
	# must be counted, and the report says how many were lost
	kprofctl show "$id" --json >/tmp/bench.json
	grep -q '"inst_retired":{"lost":[0-9]*,"count":[1-9]' /tmp/bench.json ||
		fail "kretprobe --pmu recorded no instructions per call"
	echo "BENCH-INFO pmu_lost $(sed -n 's/.*"inst_retired":{"lost":\([0-9]*\),.*/\1/p' /tmp/bench.json)"
	kprofctl del "$id" || fail "del"
else
	echo "BENCH-SKIP kprofctl_kretprobe_pmu no PMU in this guest"
fi

# keys and filters: a kretprobe keyed by retval (kprof_test_retc always
# returns -EAGAIN, against its own baseline), and calls an --if drops
measure retc_baseline -t retc
id=$(kprofctl add kretprobe:kprof_test_retc --key retval --start) || fail "add --key retval"
measure kprofctl_kretprobe_retval_key -t retc
kprofctl show "$id" --json | grep -q '{"key":"-EAGAIN (-11)","values":\[-11\],"name":"","count":[1-9]' ||
	fail "--key retval recorded no -EAGAIN"
kprofctl del "$id" || fail "del"
if fast kprofctl_fast_retval_key kretprobe:kprof_test_retc --key retval; then
	measure kprofctl_fast_retval_key -t retc
	kprofctl show "$id" --json | grep -q '{"key":"-EAGAIN (-11)","values":\[-11\],"name":"","count":[1-9]' ||
		fail "--fast --key retval recorded no -EAGAIN"
	kprofctl del "$id" || fail "del"
fi
insmod "$bare" sym=$SYM mode=5 || fail "insmod kprof_bare mode=5"
measure floor_kretprobe_stack
rmmod kprof_bare || fail "rmmod kprof_bare"
id=$(kprofctl add kretprobe:$SYM --key stack --start) || fail "add --key stack"
measure kprofctl_kretprobe_stack_key
kprofctl show "$id" --json | grep -q '{"key":"stack #1","values":\[1\],"name":"",' ||
	fail "--key stack recorded no stack #1"
kprofctl del "$id" || fail "del"
if fast kprofctl_fast_stack_key kretprobe:$SYM --key stack; then
	measure kprofctl_fast_stack_key
	kprofctl show "$id" --json | grep -q '{"key":"stack #1","values":\[1\],"name":"",' ||
		fail "--fast --key stack recorded no stack #1"
	kprofctl del "$id" || fail "del"
fi
id=$(kprofctl add kretprobe:$SYM --if 'pid==1' --start) || fail "add --if"
measure kprofctl_kretprobe_if_out
kprofctl del "$id" || fail "del"
id=$(kprofctl add kprobe:$SYM --if 'pid==1' --start) || fail "add --if"
measure kprofctl_kprobe_if_out
kprofctl del "$id" || fail "del"

id=$(kprofctl add kretprobe:$SYM --pid 1 --start) || fail "add filtered"
measure kprofctl_kretprobe_pid_filtered_out
kprofctl del "$id" || fail "del"

id=$(kprofctl add kretprobe:$SYM) || fail "kprofctl add stopped"
measure kprofctl_stopped
kprofctl del "$id" || fail "del"

# The peer: ftrace kprobe events + synthetic event + latency hist trigger
if [ -w $T/kprobe_events ] && [ -w $T/synthetic_events ]; then
	echo "p:kprof_e $SYM" >>$T/kprobe_events &&
	echo "r:kprof_r $SYM" >>$T/kprobe_events &&
	echo 'kprof_lat u64 lat' >>$T/synthetic_events &&
	echo 'hist:keys=common_pid:ts0=common_timestamp' \
		>$T/events/kprobes/kprof_e/trigger &&
	echo 'hist:keys=common_pid:lat=common_timestamp-$ts0:onmatch(kprobes.kprof_e).trace(kprof_lat,$lat)' \
		>$T/events/kprobes/kprof_r/trigger &&
	echo 'hist:keys=lat.log2' >$T/events/synthetic/kprof_lat/trigger ||
		fail "ftrace hist trigger setup"
	measure ftrace_hist_trigger
	grep -q "Hits: [1-9]" $T/events/synthetic/kprof_lat/hist ||
		fail "ftrace hist trigger recorded nothing"
	echo '!hist:keys=lat.log2' >$T/events/synthetic/kprof_lat/trigger
	echo '!hist:keys=common_pid:lat=common_timestamp-$ts0:onmatch(kprobes.kprof_e).trace(kprof_lat,$lat)' \
		>$T/events/kprobes/kprof_r/trigger
	echo '!hist:keys=common_pid:ts0=common_timestamp' \
		>$T/events/kprobes/kprof_e/trigger
	echo '!kprof_lat u64 lat' >>$T/synthetic_events
	echo >$T/kprobe_events
else
	echo "BENCH-SKIP ftrace_hist_trigger no kprobe_events/synthetic_events"
fi
# ---- tracepoints: a count on kprof_test_event, the workqueue pair
E=$T/events/kprof_test/kprof_test_event
W=$T/events/workqueue
# shellcheck disable=SC2086
{
measure tp_baseline $EV
id=$(kprofctl add tracepoint:kprof_test:kprof_test_event --start) ||
	fail "add tracepoint"
measure kprofctl_tp_count $EV
kprofctl del "$id" || fail "del"
if [ -w $E/trigger ]; then
	echo 'hist:keys=common_pid' >$E/trigger || fail "ftrace count hist"
	measure ftrace_tp_hist $EV
	grep -q "Hits: [1-9]" $E/hist || fail "ftrace count hist recorded nothing"
	echo '!hist:keys=common_pid' >$E/trigger
else
	echo "BENCH-SKIP ftrace_tp_hist no $E/trigger"
fi

measure wq_baseline $WQ
id=$(kprofctl add workqueue --start) || fail "add workqueue"
measure kprofctl_wq_pair $WQ
kprofctl del "$id" || fail "del"
if [ -w $W/workqueue_execute_end/trigger ] && [ -w $T/synthetic_events ]; then
	echo 'kprof_wq_lat u64 lat' >>$T/synthetic_events &&
	echo 'hist:keys=common_pid:ts0=common_timestamp' \
		>$W/workqueue_execute_start/trigger &&
	echo 'hist:keys=common_pid:lat=common_timestamp-$ts0:onmatch(workqueue.workqueue_execute_start).trace(kprof_wq_lat,$lat)' \
		>$W/workqueue_execute_end/trigger &&
	echo 'hist:keys=lat.log2' >$T/events/synthetic/kprof_wq_lat/trigger ||
		fail "ftrace workqueue latency hist setup"
	measure ftrace_wq_hist $WQ
	grep -q "Hits: [1-9]" $T/events/synthetic/kprof_wq_lat/hist ||
		fail "ftrace workqueue hist recorded nothing"
	echo '!hist:keys=lat.log2' >$T/events/synthetic/kprof_wq_lat/trigger
	echo '!hist:keys=common_pid:lat=common_timestamp-$ts0:onmatch(workqueue.workqueue_execute_start).trace(kprof_wq_lat,$lat)' \
		>$W/workqueue_execute_end/trigger
	echo '!hist:keys=common_pid:ts0=common_timestamp' \
		>$W/workqueue_execute_start/trigger
	echo '!kprof_wq_lat u64 lat' >>$T/synthetic_events
else
	echo "BENCH-SKIP ftrace_wq_hist no workqueue events or synthetic_events"
fi
measure wq_baseline_again $WQ
}
# ---- sampling: one fixed workload (kprof_test "hot": 1 call, about 245M
# instructions) unsampled, under a bare cycles sampler with an empty
# overflow handler (kprof_bare mode 6), and under kprofctl profile's probe
# (sample:cpu_cycles --key stack), at 99, 999 and 4999 Hz.  One warm run,
# then one measured run; its samples are the probe's count and drops.
HOT="-n 1 -r 1 -t hot -a 20000000"
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
$BENCH $HOT >/dev/null
measure hot_base $HOT
for hz in 99 999 4999; do
	if insmod "$bare" sym=x mode=6 hz=$hz 2>/dev/null; then
		$BENCH $HOT >/dev/null
		measure hot_floor_$hz $HOT
		rmmod kprof_bare || fail "rmmod kprof_bare"
	else
		echo "BENCH-SKIP hot_floor_$hz no PMU sampling (kprof_bare mode=6 refused)"
	fi
	if id=$(kprofctl add sample:cpu_cycles:hz=$hz --key stack --start 2>/tmp/bench.err); then
		$BENCH $HOT >/dev/null
		kprofctl reset "$id" || fail "reset"
		measure hot_sample_$hz $HOT
		kprofctl stop "$id"
		kprofctl show "$id" --json >/tmp/bench.json
		c=$(sed -n 's/^{"probes":\[{[^{]*"count":\([0-9]*\),"missed":\([0-9]*\),.*/\1 \2/p' /tmp/bench.json)
		set -- $c
		echo "BENCH-INFO samples_$hz $(( ${1:-0} + ${2:-0} ))"
		kprofctl del "$id" || fail "del"
	else
		echo "BENCH-SKIP hot_sample_$hz $(cat /tmp/bench.err)"
	fi
done

# the peer: perf record -g on the same workload (Debian's linux-perf for
# this kernel and the libraries it loads, from tests/vm/kernels perf; its
# own loader, as the guest has no /lib).  One warm run, one measured; its
# samples are what perf reports having written.
PERF=$(ls -d /files/perf-* 2>/dev/null | head -n 1)
if [ -n "$PERF" ]; then
	for hz in 999 4999; do
		set -- "$PERF"/lib/ld-linux-*.so.1 --library-path "$PERF/lib" \
			"$PERF/perf" record -F "$hz" -g -e cpu-cycles -o /tmp/perf.data
		"$@" -- $BENCH $HOT >/dev/null 2>/tmp/perf.err ||
			fail "perf record -F $hz -g: $(tail -n 3 /tmp/perf.err)"
		v=$("$@" -- $BENCH $HOT 2>/tmp/perf.err) ||
			fail "perf record -F $hz -g: $(tail -n 3 /tmp/perf.err)"
		echo "BENCH perf_record_$hz $v"
		echo "BENCH-INFO perf_samples_$hz $(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' /tmp/perf.err)"
	done
	rm -f /tmp/perf.data
else
	echo "BENCH-SKIP perf_record no linux-perf in this guest"
fi

# ---- a module's memory, per pair of allocation and free from
# kprof_test_mem: unprobed; under a mem: probe on another module (the
# pairs' sites are not followed: the hooks' dispatch, a range test and
# the free's table lookup); under mem:kprof_test_mem (followed)
memrun() { # PREFIX WHAT-SHOW-HAS BENCH-ARGS...
	pre=$1 has=$2
	shift 2
	measure ${pre}_baseline "$@"
	if id=$(kprofctl add --start mem:kprof_test 2>/tmp/bench.err); then
		measure ${pre}_untracked "$@"
		kprofctl del "$id" || fail "del"
		id=$(kprofctl add --start mem:kprof_test_mem) || fail "add mem:kprof_test_mem"
		measure ${pre}_tracked "$@"
		kprofctl show "$id" --json | grep -q "$has" ||
			fail "mem:kprof_test_mem followed no $pre pair"
		kprofctl del "$id" || fail "del"
	else
		echo "BENCH-SKIP ${pre}_untracked $(cat /tmp/bench.err)"
	fi
}
# kmalloc(128)/kfree, and ftrace's hist trigger on kmem:kmalloc keyed by
# call_site as the peer
MP="-t pairs -f /sys/kernel/debug/kprof_test_mem/pairs"
memrun mem '"frees":[1-9]' $MP
# by stack (--key stack): a walk per allocation of the kernel's, whether
# a frame is the module's or not
if id=$(kprofctl add --start --key stack mem:kprof_test 2>/tmp/bench.err); then
	measure mem_stack_untracked $MP
	kprofctl del "$id" || fail "del"
	id=$(kprofctl add --start --key stack mem:kprof_test_mem) ||
		fail "add --key stack mem:kprof_test_mem"
	measure mem_stack_tracked $MP
	kprofctl show "$id" --json | grep -q '"frees":[1-9]' ||
		fail "mem:kprof_test_mem by stack followed no pair"
	kprofctl del "$id" || fail "del"
else
	echo "BENCH-SKIP mem_stack_untracked $(cat /tmp/bench.err)"
fi
if echo 'hist:keys=call_site' >$T/events/kmem/kmalloc/trigger 2>/dev/null; then
	measure ftrace_kmalloc_hist $MP
	echo '!hist:keys=call_site' >$T/events/kmem/kmalloc/trigger
else
	echo "BENCH-SKIP ftrace_kmalloc_hist no hist triggers"
fi
measure mem_baseline_again $MP
# alloc_page/__free_page: the page allocator's hooks, on every page
# allocation while a mem: probe runs
PP="-t pages -f /sys/kernel/debug/kprof_test_mem/pairs"
memrun page '"kind":"pages","allocs":[1-9]' $PP
measure page_baseline_again $PP

measure baseline_again

# kmemleak (debug kernels): the kmalloc pairs without it, turned off for
# good (so last): every figure above paid its per-object cost
KL=/sys/kernel/debug/kmemleak
if [ -w $KL ]; then
	measure mem_kmemleak_on $MP
	echo off >$KL || fail "kmemleak off"
	measure mem_kmemleak_off $MP
else
	echo "BENCH-SKIP mem_kmemleak_off no kmemleak (debug kernels have it)"
fi
