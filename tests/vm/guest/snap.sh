#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Slow calls acting on ftrace (issue 32): --snapshot freezes the trace of
# the one slow call, --snapshot=N at most N times, --trace-off stops
# tracing, --mark writes a line per slow call into a ring buffer.
# kprof_test's "slowonce N K D" makes call K of N slow (D ns), the others
# spin 0; function_graph follows kprof_test_probe to depth 2, so each call
# is three lines and its kprof_test_spin line carries the graph's duration.
# kprofctl and kprof_test are loaded.
# shellcheck source=tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
TR=/sys/kernel/tracing
[ -e $TR/trace ] || mount -t tracefs nodev $TR 2>/dev/null
[ -e $TR/trace ] || TR=/sys/kernel/debug/tracing
F=/tmp/snap.fifo
SLOW=2ms D=5000000
rm -f $F
mkfifo $F

# function_graph on kprof_test_probe and its callees, depth 2, emptied
graph() {
	echo 0 >$TR/tracing_on
	echo nop >$TR/current_tracer
	echo kprof_test_probe >$TR/set_graph_function
	echo 2 >$TR/max_graph_depth
	echo function_graph >$TR/current_tracer
	echo >$TR/trace
	echo 1 >$TR/tracing_on
}
graph_off() {
	echo nop >$TR/current_tracer
	echo >$TR/set_graph_function
	echo 0 >$TR/max_graph_depth
	echo >$TR/trace
}
spins() { # FILE -> its kprof_test_spin lines
	grep -c 'kprof_test_spin' "$1"
}
slowevents() { # ID -> show's slow_events
	kprofctl show "$1" --json | sed -n 's/.*"slow_events":\([0-9]*\).*/\1/p'
}

if [ ! -e $TR/current_tracer ] || ! grep -qw function_graph $TR/available_tracers; then
	echo "ok - snap.sh # SKIP no tracefs with function_graph on this kernel"
	exit 0
fi

# ---- --snapshot: the slow call's graph is frozen, the live buffer goes on
if [ ! -e $TR/snapshot ]; then
	capture kprofctl add kretprobe:kprof_test_probe --slow $SLOW --snapshot
	is "$rc" 1 "--snapshot refused without CONFIG_TRACER_SNAPSHOT"
	echo "$err" | grep -q "built without CONFIG_TRACER_SNAPSHOT"
	ok $? "the refusal names CONFIG_TRACER_SNAPSHOT and offers --trace-off"
	is "$(kprofctl list | grep -c kprof_test_probe)" 0 "nothing left registered"
	for t in "graph of the slow call" "--snapshot=1 freezes once" \
		"a second claim refused" "--snapshot=2 freezes twice"; do
		echo "ok - $t # SKIP the kernel has no snapshot buffer (CONFIG_TRACER_SNAPSHOT=n)"
	done
else
	graph
	id=$(kprofctl add kretprobe:kprof_test_probe --slow $SLOW --snapshot --start)
	ok $? "add kretprobe:kprof_test_probe --slow $SLOW --snapshot"
	watch --count 1
	echo "slowonce 5 1 $D" >$T
	collect
	is "$wrc" 0 "watch exits after its one event"
	slow=$(echo "$out" | grep '"type":"slow"')
	is "$(echo "$slow" | grep -c '"probe":'"$id"',.*"ftrace":"froze ftrace'"'"'s snapshot"')" 1 \
		"watch: the slow call froze ftrace's snapshot"
	cat $TR/snapshot >/tmp/snap.1
	cat $TR/trace >/tmp/live.1
	is "$(spins /tmp/snap.1)" 1 "the snapshot holds one call's kprof_test_spin"
	sed 's/^/# snapshot: /' /tmp/snap.1 | grep -v '^# snapshot: #'
	is "$(grep -c 'kprof_test_probe.*{' /tmp/snap.1)" 1 "and one kprof_test_probe entry"
	is "$(spins /tmp/live.1)" 4 "the live buffer goes on: the 4 fast calls after it"
	# the graph's time of the inner call (us) against kprofctl's (ns):
	# the spin is inside the probed call, and the gap is the probe's own
	# (printed as us with three decimals: the digits are ns)
	g=$(sed -n 's/.* \([0-9][0-9]*\)\.\([0-9][0-9][0-9]\) us .*kprof_test_spin.*/\1\2/p' /tmp/snap.1)
	lat=$(echo "$slow" | field latency_ns)
	diag "graph: kprof_test_spin $g ns, kprofctl: kprof_test_probe $lat ns"
	[ -n "$g" ] && [ "$g" -ge $D ] && [ "$g" -le "$lat" ] &&
		[ "$((lat - g))" -lt 100000 ]
	ok $? "the graph's duration is the slow call's: D <= graph <= kprofctl < graph + 100 us"

	# --snapshot (=1): later slow calls are counted, the snapshot stays
	watch --count 2
	echo "slowonce 3 2 $D" >$T
	echo "slowonce 3 3 $D" >$T
	collect
	is "$(echo "$out" | grep -c '"ftrace":"not frozen: --snapshot'"'"'s count spent"')" 2 \
		"--snapshot=1 freezes once: the next two slow calls are counted"
	cmp -s /tmp/snap.1 $TR/snapshot
	ok $? "the snapshot still holds the first slow call"

	# one claim at a time, and the kernel keeps others off it meanwhile
	capture kprofctl add kretprobe:kprof_test_spin --slow $SLOW --snapshot
	is "$rc" 1 "a second --snapshot probe is refused"
	echo "$err" | grep -q "snapshot buffer is in use"
	ok $? "saying the buffer is in use, and by what"
	is "$(kprofctl list | grep -c kprof_test_spin)" 0 "the refused probe left nothing"
	! echo 1 >$TR/snapshot 2>/dev/null
	ok $? "writing the snapshot file fails while the probe holds it"
	# a hist trigger's snapshot() cannot take it meanwhile (either order);
	# on kprof_test's own event, which no test here fires: on a busy
	# event a snapshot per new maximum would swap the buffers all along
	EV=$TR/events/kprof_test/kprof_test_event
	HT=$EV/trigger
	# shellcheck disable=SC2016 # $s is the trigger's variable
	HIST='hist:keys=common_pid:s=seq:onmax($s).snapshot()'
	# the same trigger is set once the buffer is free: its syntax is good
	if [ -e $EV/hist ]; then
		! echo "$HIST" >$HT 2>/dev/null
		ok $? "a hist trigger's snapshot() is refused while the probe holds the buffer"
	else
		echo "ok - hist trigger refused # SKIP no hist triggers (CONFIG_HIST_TRIGGERS=n)"
	fi
	kprofctl del "$id"
	if echo 0 >$TR/snapshot; then r=0; else r=1; fi
	ok $r "del releases the snapshot buffer (it can be freed)"
	if [ -e $EV/hist ] && echo "$HIST" >$HT; then
		capture kprofctl add kretprobe:kprof_test_probe --slow $SLOW --snapshot
		is "$rc" 1 "--snapshot is refused while a hist trigger's snapshot() holds the buffer"
		echo "$err" | grep -q "hist trigger"
		ok $? "saying so"
		echo "!$HIST" >$HT
	else
		echo "ok - refused under a hist trigger # SKIP no hist triggers (CONFIG_HIST_TRIGGERS=n)"
		echo "ok - saying so # SKIP no hist triggers"
	fi
	# a latency tracer uses the buffer itself
	if grep -qw wakeup $TR/available_tracers; then
		echo wakeup >$TR/current_tracer
		capture kprofctl add kretprobe:kprof_test_probe --slow $SLOW --snapshot
		is "$rc" 1 "--snapshot is refused under the wakeup latency tracer"
		echo nop >$TR/current_tracer
	else
		echo "ok - refused under a latency tracer # SKIP no wakeup tracer (CONFIG_SCHED_TRACER=n)"
	fi

	# --snapshot=2
	graph
	id=$(kprofctl add kretprobe:kprof_test_probe --slow $SLOW --snapshot=2 --start)
	watch --count 3
	for k in 1 2 3; do echo "slowonce 2 1 $D" >$T; done
	collect
	is "$(echo "$out" | grep -c '"ftrace":"froze')" 2 "--snapshot=2 freezes twice"
	is "$(echo "$out" | grep -c 'count spent')" 1 "and counts the third"
	kprofctl del "$id"
	echo 0 >$TR/snapshot
	# the largest count (a __u32) freezes: it is no negative budget
	id=$(kprofctl add kretprobe:kprof_test_probe --slow $SLOW --snapshot=4294967295 --start)
	watch --count 1
	echo "slowonce 1 1 $D" >$T
	collect
	is "$(echo "$out" | grep -c '"ftrace":"froze')" 1 "--snapshot=4294967295 freezes"
	kprofctl del "$id"
	echo 0 >$TR/snapshot
fi

# ---- --trace-off: the slow call stops the recording
graph
id=$(kprofctl add kretprobe:kprof_test_probe --slow $SLOW --trace-off --start)
ok $? "add --trace-off"
watch --count 1
echo "slowonce 3 2 $D" >$T
collect
is "$(cat $TR/tracing_on)" 0 "the slow call stopped tracing"
echo "$out" | grep -q '"ftrace":"stopped tracing"'
ok $? "watch says it stopped tracing"
is "$(spins $TR/trace)" 2 "the trace ends with the slow call (the third is not in it)"
kprofctl del "$id"
echo 1 >$TR/tracing_on

# ---- --mark: one line per slow call, as many as show's slow events
graph_off
id=$(kprofctl add kretprobe:kprof_test_probe --slow $SLOW --mark --start)
ok $? "add --mark"
for k in 1 2 3; do echo "slowonce 4 $k $D" >$T; done
marks=$(grep -c "kprofctl: slow probe=$id kretprobe:kprof_test_probe latency_ns=[0-9]* pid=$$ comm=sh" $TR/trace)
is "$marks" 3 "three mark lines in the top instance's trace, with pid and comm"
is "$marks" "$(slowevents "$id")" "as many as show's slow events"
kprofctl del "$id"
mkdir -p $TR/instances/kpsnap
id=$(kprofctl add kretprobe:kprof_test_probe --slow $SLOW --mark=kpsnap --start)
ok $? "add --mark=kpsnap"
echo "slowonce 2 2 $D" >$T
is "$(grep -c "kprofctl: slow probe=$id " $TR/instances/kpsnap/trace)" 1 "the line is in instance kpsnap"
! rmdir $TR/instances/kpsnap 2>/dev/null
ok $? "the instance cannot go while the probe writes into it"
kprofctl del "$id"
rmdir $TR/instances/kpsnap
ok $? "after del it can"
# a recording of it: each slow call's span on the timeline says it marked
mkdir -p $TR/instances/kpsnap
id=$(kprofctl add kretprobe:kprof_test_probe --slow $SLOW --mark=kpsnap --start)
kprofctl record -i 100ms -o /tmp/mark.json --timeline /tmp/mark.trace.json -- \
	sh -c "for k in 1 2 3; do echo 'slowonce 4 '\$k' $D' >$T; done" 2>/dev/null
ok $? "record of a --mark probe's 3 slow calls"
is "$(grep -o '"ftrace":"marked"' /tmp/mark.trace.json | wc -l)" 3 \
	"the timeline's 3 slow calls each say they marked the ring"
is "$(grep -c "kprofctl: slow probe=$id " $TR/instances/kpsnap/trace)" 3 "as the ring has them"
kprofctl del "$id"
rmdir $TR/instances/kpsnap
capture kprofctl add kretprobe:kprof_test_probe --slow $SLOW --mark=nosuch
is "$rc" 1 "--mark=nosuch is refused"
echo "$err" | grep -q "no such ftrace instance"
ok $? "saying there is no such instance"
capture kprofctl add kretprobe:kprof_test_probe --mark
is "$rc" 2 "--mark without --slow is a usage error"

# ---- trace-cmd reads the marks: recorded and reported by Debian's own
# trace-cmd (the host's binary and libraries, on the amd64 guest only)
TC=/files/tracecmd
if [ -x $TC/trace-cmd ]; then
	tc() { $TC/ld-linux-x86-64.so.2 --library-path $TC $TC/trace-cmd "$@"; }
	id=$(kprofctl add kretprobe:kprof_test_probe --slow $SLOW --mark --start)
	# a driver event, a slow call, a driver event: three times
	cat >/tmp/tcwork.sh <<EOF
for k in 1 2 3; do
	echo "event 1" >$T
	echo "slowonce 2 2 $D" >$T
	echo "event 1" >$T
done
EOF
	tc record -q -o /tmp/kp.dat -e kprof_test:kprof_test_event \
		sh /tmp/tcwork.sh >/tmp/tc.out 2>&1
	ok $? "trace-cmd record of the driver's events with --mark on"
	tc report -i /tmp/kp.dat 2>/dev/null |
		sed -n 's/.*\(kprof_test_event\|kprofctl: slow probe=[0-9]*\).*/\1/p' >/tmp/tc.seq
	n=$(grep -c "kprofctl: slow probe=$id" /tmp/tc.seq)
	is "$n" 3 "trace-cmd report shows 3 marks"
	is "$n" "$(slowevents "$id")" "as many as show's slow events"
	# each mark between two of the driver's events, in time order
	want=
	for k in 1 2 3; do
		want="${want}kprof_test_event kprofctl: slow probe=$id kprof_test_event "
	done
	is "$(tr '\n' ' ' </tmp/tc.seq)" "$want" "each mark between the driver's two events"
	kprofctl del "$id"
	echo 0 >$TR/events/enable
	echo 1 >$TR/tracing_on
else
	echo "ok - trace-cmd reads the marks # SKIP no trace-cmd in this guest (amd64 only, from the host's trace-cmd package)"
fi
echo >$TR/trace
[ $tap_fail = 0 ]
