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
	# a stage left to other kernels allocated nothing to scan for
	[ "${ran:-1}" = 1 ] || { ran=1; return 0; }
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
# the stages this kernel leaves to the others (SKIP, SKIP_WHY)
on() { # STAGE: 0 if it runs here, else a SKIP line
	case " ${SKIP:-} " in
	*" $1 "*)
		echo "ok - stage $1 # SKIP on this kernel: ${SKIP_WHY:-}"
		ran=0
		return 1 ;;
	esac
	return 0
}
echo "# volumes: fuzz $FUZZ_CALLS calls, stress 4 x $STRESS_OPS ops, torture $TORTURE, seqwrite $SEQ_ROUNDS rounds"

# hostile input first: the exact-count scenarios below must still pass
if on fuzz; then
	/files/fuzz --calls "$FUZZ_CALLS" --threads 2 || st=1
fi
stage fuzz
# then control churn while probes fire on hot paths and in hard IRQ
if on stress; then
	/files/stress --ops "$STRESS_OPS" --workers 4 || st=1
fi
stage stress

# every kretprobe on the module's default mechanism (fast.sh runs the
# latency groups again on the other)
if on selftest; then
	case $(cat /sys/module/kprofctl/parameters/fast 2>/dev/null) in
	Y) KPROF_SELFTEST_MECH=ftrace ;;
	*) KPROF_SELFTEST_MECH=kprobes ;;
	esac
	export KPROF_SELFTEST_MECH
	KPROF_TEST_KO=$KO /files/selftest || st=1
	unset KPROF_SELFTEST_MECH
fi
stage selftest
if on cli; then
	sh /tests/cli.sh || st=1
	sh /tests/symdiag.sh || st=1
fi
stage cli
if on firsthour; then
	sh /tests/firsthour.sh || st=1
fi
stage firsthour
if on run; then
	sh /tests/run.sh || st=1
fi
stage run
# arm64: the stacks of the stages up to unwind's, checked against the
# kernel's walk (tests/vm/guest/unwind.sh)
U=/sys/module/kprofctl/parameters/unwind_check
[ -w $U ] && echo 1 >$U
if on tracepoints; then
	sh /tests/tp.sh || st=1
fi
stage tracepoints
if on keys; then
	sh /tests/keys.sh || st=1
fi
stage keys
# a module's memory: kprof_test_mem's sites, leaks and reloads
if on mem; then
	sh /tests/mem.sh || st=1
	sh /tests/memstack.sh || st=1
fi
stage mem
# the function kinds as on the board's stock kernel (ftrace alone there)
if on ftonly; then
	sh /tests/ftonly.sh || st=1
fi
stage ftonly
if on top; then
	sh /tests/top.sh || st=1
fi
stage top
if on capture; then
	sh /tests/capture.sh || st=1
	sh /tests/prom.sh || st=1
fi
stage capture
if on profile; then
	sh /tests/profile.sh || st=1
	sh /tests/offcpu.sh || st=1
fi
stage profile
if on unwind; then
	UNWIND_SCRIPTS= sh /tests/unwind.sh || st=1
	sh /tests/corrupt.sh || st=1
fi
stage unwind
# function sets; reloads kprofctl (and kprof_funcs)
if on funcs; then
	sh /tests/funcs.sh || st=1
fi
stage funcs
# fast latency probes: the latency tests again on them; reloads kprofctl
if on fast; then
	sh /tests/fast.sh || st=1
fi
stage fast
if on pmu; then
	sh /tests/pmu.sh || st=1
fi
stage pmu
if on events; then
	sh /tests/events.sh || st=1
fi
stage events
# slow calls acting on ftrace: snapshot, tracing off, marks (issue 32)
if on snap; then
	sh /tests/snap.sh || st=1
fi
stage snap
if on boot; then
	sh /tests/boot.sh || st=1
fi
stage boot
# reloads kprofctl
if on unload; then
	sh /tests/unload.sh || st=1
fi
stage unload
if on torture; then
	# shellcheck disable=SC2086
	sh /tests/torture.sh $TORTURE || st=1
fi
stage torture
if on security; then
	sh /tests/security.sh || st=1
fi
stage security
# README.md's examples, each on a freshly loaded kprofctl (they reload it)
if on readme; then
	sh /files/readme.sh || st=1
fi
stage readme
# taints the kernel (a forced module load): after the others
if on tptaint; then
	sh /tests/tptaint.sh || st=1
fi
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
