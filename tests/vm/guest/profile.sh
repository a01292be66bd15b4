#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Sampling probes, "sample:EVENT" (tests/vm/guest/suite.sh): a profile of
# kprof_test's "hot" command, whose two loops run 3:1 instructions (and
# under icount, cycles) from one caller.  kprofctl and kprof_test are
# loaded.
# shellcheck source=tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger

# QEMU's arm64 PMU counts cpu_cycles and inst_retired; x86 TCG has no PMU:
# the CPU clock there (1 ns = 1 instruction under icount too)
if kprofctl add sample:cpu_cycles:period=100003 >/tmp/prof.id 2>/dev/null; then
	kprofctl del "$(cat /tmp/prof.id)"
	EV=cpu_cycles
else
	EV=cpu-clock
fi
diag "sampling on $EV"
# TCG is slow: perf would take that for a slow interrupt handler and
# lower the sample rate as the test runs
pct=$(cat /proc/sys/kernel/perf_cpu_time_max_percent)
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent

# leaf NAME -> samples whose stack is ...;kprof_test_hot;NAME
leaf() {
	awk -v f="$1" '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s)
		k = split(s, fr, ";")
		if (fr[k] == f && k > 1 && fr[k - 1] == "kprof_test_hot") t += n }
		END { print t + 0 }' /tmp/prof.folded
}

# QEMU counts inst_retired but raises its overflow interrupt only at
# the next tick: cycles and the CPU clock are the events that sample here
for ev in $(echo $EV cpu-clock | tr ' ' '\n' | sort -u); do
	id=$(kprofctl add "sample:$ev:period=100003" --key stack --tgid $$ --start)
	ok $? "add sample:$ev:period=100003 --key stack --tgid \$\$"
	echo "hot 20 1000000" >$T
	kprofctl stop "$id"
	kprofctl show "$id" --folded >/tmp/prof.folded
	a=$(leaf kprof_test_hot_a) b=$(leaf kprof_test_hot_b)
	all=$(awk '{ t += $NF } END { print t + 0 }' /tmp/prof.folded)
	diag "$ev: hot_a $a, hot_b $b of $all samples"
	[ "$a" -ge 1000 ] && [ "$b" -gt 0 ] &&
		[ $((a * 100)) -ge $((b * 285)) ] && [ $((a * 100)) -le $((b * 315)) ]
	ok $? "$ev: kprof_test_hot_a : kprof_test_hot_b = $a : $b, 3:1 within 5%, under kprof_test_hot"
	kprofctl del "$id"
done
echo "$pct" >/proc/sys/kernel/perf_cpu_time_max_percent
capture kprofctl add sample:l1d_cache_refill,cpu_cycles
[ "$rc" = 2 ] && echo "$err" | grep -q 'one PMU event'
ok $? "sample: takes one event, and says so"
capture kprofctl add sample:cpu-clock:hz=0
[ "$rc" = 2 ] && echo "$err" | grep -q ':hz=1..100000'
ok $? "sample: a rate out of range is refused with the range"
