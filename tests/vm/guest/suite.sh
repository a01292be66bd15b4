#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (tests/vm/suite): kprofctl.ko, kprof_test.ko, the
# README's example driver mydrv.ko and kprof_funcs.ko are loaded.  Every group prints TAP lines; the host renumbers them.
T=/sys/kernel/debug/kprof_test/trigger
KO=/kmod/kmod/kprof_test.ko
LEAK=/sys/kernel/debug/kmemleak
st=0

# debug kernels: scan for leaks on demand only (the scanner thread would
# preempt timed calls), and forget what boot itself left
if [ -w $LEAK ]; then
	echo scan=off >$LEAK
	echo clear >$LEAK
fi

# after each stage: its guest time (instructions, under icount), the
# host's wall time (QEMU's RTC follows the host clock) and, on debug
# kernels, a kmemleak scan
RTC=/sys/class/rtc/rtc0/since_epoch
wall() { cat $RTC 2>/dev/null || echo 0; }
t0=$(date +%s)
w0=$(wall)
stage() { # NAME
	t1=$(date +%s)
	w1=$(wall)
	echo "# stage $1: $((t1 - t0)) s guest time, $((w1 - w0)) s wall"
	t0=$t1
	w0=$w1
	if [ -w $LEAK ]; then
		echo scan >$LEAK
		leaks=$(cat $LEAK)
		[ -z "$leaks" ] && r=ok || { r="not ok"; echo "$leaks" | sed 's/^/# /'; }
		echo "$r - kmemleak: nothing suspected after $1"
		echo clear >$LEAK
	fi
}

# the volume stages' sizes for this kernel (tests/vm/suite)
FUZZ_CALLS=100000 STRESS_OPS=2000 TORTURE='100 20' SEQ_ROUNDS=25
[ -r /files/suite.env ] && . /files/suite.env
export KPROF_SEQ_ROUNDS=$SEQ_ROUNDS	# every selftest run (fast.sh's too)
echo "# volumes: fuzz $FUZZ_CALLS calls, stress 4 x $STRESS_OPS ops, torture $TORTURE, seqwrite $SEQ_ROUNDS rounds"

# hostile input first: the exact-count scenarios below must still pass
/files/fuzz --calls "$FUZZ_CALLS" --threads 2 || st=1
stage fuzz
# then control churn while probes fire on hot paths and in hard IRQ
/files/stress --ops "$STRESS_OPS" --workers 4 || st=1
stage stress

# every kretprobe on the module's default mechanism (fast.sh runs the
# latency groups again on the other)
case $(cat /sys/module/kprofctl/parameters/fast 2>/dev/null) in
Y) KPROF_SELFTEST_MECH=ftrace ;;
*) KPROF_SELFTEST_MECH=kprobes ;;
esac
export KPROF_SELFTEST_MECH
KPROF_TEST_KO=$KO /files/selftest || st=1
unset KPROF_SELFTEST_MECH
stage selftest
sh /tests/cli.sh || st=1
sh /tests/symdiag.sh || st=1
stage cli
sh /tests/firsthour.sh || st=1
stage firsthour
sh /tests/run.sh || st=1
stage run
sh /tests/tp.sh || st=1
stage tracepoints
sh /tests/keys.sh || st=1
stage keys
sh /tests/top.sh || st=1
stage top
sh /tests/capture.sh || st=1
stage capture
sh /tests/profile.sh || st=1
sh /tests/offcpu.sh || st=1
stage profile
# function sets; reloads kprofctl (and kprof_funcs)
sh /tests/funcs.sh || st=1
stage funcs
# fast latency probes: the latency tests again on them; reloads kprofctl
sh /tests/fast.sh || st=1
stage fast
sh /tests/pmu.sh || st=1
stage pmu
sh /tests/events.sh || st=1
stage events
sh /tests/boot.sh || st=1
stage boot
# reloads kprofctl
sh /tests/unload.sh || st=1
stage unload
# shellcheck disable=SC2086
sh /tests/torture.sh $TORTURE || st=1
stage torture
sh /tests/security.sh || st=1
stage security
# README.md's examples, each on a freshly loaded kprofctl (they reload it)
sh /files/readme.sh || st=1
stage readme
# taints the kernel (a forced module load): after the others
sh /tests/tptaint.sh || st=1
stage tptaint

# Last: unload kprofctl with armed probes and calls in flight, among them
# a kretprobe instance parked in a sleeping call.
/files/selftest arm || st=1
# and profiles: a perf counter per CPU, a sched_switch callback with a
# wait in flight (the sleeper's)
kprofctl add sample:cpu-clock:hz=9999 --key stack --start >/dev/null &&
	kprofctl add offcpu:all --start >/dev/null && r=ok || { r="not ok"; st=1; }
echo "$r - a profile and an off-CPU probe armed for the unload too"
echo "sleep 3 100" >$T &
sleeper=$!
echo "spin 3000 2000" >$T &
spinner=$!
if rmmod kprofctl; then
	echo "ok - rmmod kprofctl with armed probes and calls in flight"
else
	echo "not ok - rmmod kprofctl with armed probes and calls in flight"
	st=1
fi
wait $sleeper && wait $spinner && r=ok || r="not ok"
echo "$r - in-flight probed calls completed after rmmod"
[ ! -e /dev/kprofctl ] && r=ok || r="not ok"
echo "$r - /dev/kprofctl is gone"
msg=$(kprofctl list 2>&1)
[ $? = 1 ] && echo "$msg" | grep -q "module is not loaded" &&
	echo "$msg" | grep -q "insmod kprofctl.ko" && r=ok || r="not ok"
echo "$r - CLI without the module says how to load it"
insmod /kprofctl.ko && [ -c /dev/kprofctl ] && r=ok || r="not ok"
echo "$r - kprofctl loads again"
# lockdown cannot be lowered again: after the last insmod
sh /tests/lockdown.sh || st=1
rmmod kprofctl && rmmod kprof_test && rmmod mydrv && r=ok || r="not ok"
echo "$r - every module unloads"
stage rmmod
exit $st
