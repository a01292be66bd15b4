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
	kprofctl show "$id" --svg /tmp/show.svg --by-cluster 2>/tmp/pf.err &&
		head -c 300 /tmp/show.svg | grep -q '<svg' &&
		grep -q 'data-name="kprof_test_hot_a"' /tmp/show.svg &&
		tail -c 20 /tmp/show.svg | grep -q '</svg>'
	ok $? "$ev: show --svg --by-cluster draws it" || diag "$(cat /tmp/pf.err)"
	kprofctl del "$id"
done

# ---- kprofctl profile: the same workload as one command
# ratio FILE -> "a b" samples of hot_a and hot_b under kprof_test_hot
ratio() {
	cp "$1" /tmp/prof.folded
	echo "$(leaf kprof_test_hot_a) $(leaf kprof_test_hot_b)"
}
three_to_one() { # A B
	[ "$1" -ge 1000 ] && [ "$2" -gt 0 ] &&
		[ $(($1 * 100)) -ge $(($2 * 285)) ] && [ $(($1 * 100)) -le $(($2 * 315)) ]
}
kprofctl profile -e $EV -c 100003 --folded -- sh -c "echo 'hot 20 1000000' >$T" \
	>/tmp/pf.folded 2>/tmp/pf.err
ok $? "profile -e $EV -c 100003 --folded -- CMD" || diag "$(cat /tmp/pf.err)"
set -- $(ratio /tmp/pf.folded)
diag "profile: hot_a $1, hot_b $2"
three_to_one "$1" "$2"
ok $? "profile: kprof_test_hot_a : kprof_test_hot_b = $1 : $2, 3:1 within 5%, kprof_test_hot the parent"
is "$(awk '{ print $NF }' /tmp/pf.folded | sort -u | grep -c '^0$')" 0 \
	"profile --folded: no stack of 0 samples"
is "$(sed 's/ [0-9]*$//' /tmp/pf.folded | sort | uniq -d | wc -l)" 0 \
	"profile --folded: each stack (by name) on one line"

kprofctl profile -e $EV -c 100003 --top 3 -- sh -c "echo 'hot 8 1000000' >$T" \
	>/tmp/pf.txt 2>&1
ok $? "profile -- CMD: the report"
sed -n '/self%/{n;p;q}' /tmp/pf.txt | grep -q ' kprof_test_hot_a$'
ok $? "report: kprof_test_hot_a runs most (self)" || diag "$(cat /tmp/pf.txt)"
grep -q '^  *[0-9.]*% *[0-9]*  kprof_test_hot_a <- kprof_test_hot <- kprof_test_write' /tmp/pf.txt
ok $? "report: its hottest stack, innermost first, through kprof_test_write"
grep -q "^$EV\|samples of $EV" /tmp/pf.txt
ok $? "report: names the event"

kprofctl profile -e $EV -c 100003 --svg /tmp/pf.svg --by-cluster \
	-- sh -c "echo 'hot 4 1000000' >$T" >/dev/null 2>/tmp/pf.err
ok $? "profile --svg --by-cluster" || diag "$(cat /tmp/pf.err)"
head -c 200 /tmp/pf.svg | grep -q '<svg' && grep -q 'kprof_test_hot_a' /tmp/pf.svg &&
	tail -c 20 /tmp/pf.svg | grep -q '</svg>'
ok $? "the SVG is one whole document naming kprof_test_hot_a"

# the table full: every sample is a stack's or a drop, none lost or doubled
id=$(kprofctl add "sample:$EV:period=20011" --key stack --keys 16 --start)
ok $? "add sample:$EV:period=20011 --key stack --keys 16 (a 16-stack table)"
echo "hot 4 1000000" >$T
ls -R /sys/kernel/debug/kprof_test >/dev/null
kprofctl stop "$id"
kprofctl show "$id" --json >/tmp/pf.json
n=$(sed -n 's/^{"probes":\[{[^{]*"count":\([0-9]*\),.*/\1/p' /tmp/pf.json)
d=$(sed -n 's/^{"probes":\[{[^{]*"missed":\([0-9]*\),.*/\1/p' /tmp/pf.json)
kprofctl show "$id" --folded >/tmp/pf.folded
t=$(awk '{ t += $NF } END { print t + 0 }' /tmp/pf.folded)
diag "16 stacks: $n samples in the table ($t by the folded stacks), $d dropped"
[ "${d:-0}" -gt 0 ] && [ "$t" = "$n" ]
ok $? "16 stacks: drops counted ($d), the table holds the count ($t = $n)"
kprofctl show "$id" >/tmp/pf.txt
grep -q "profile of $((n + d)) samples" /tmp/pf.txt
ok $? "show: the profile's report of every sample"
grep -q "samples ([0-9]* %) dropped: their stacks found no room among the 16 the table holds; add it again with --keys 64" /tmp/pf.txt
ok $? "show: why samples were dropped and what to do"
kprofctl del "$id"

if [ $EV = cpu_cycles ]; then
	# QEMU raises inst_retired's overflow at the next tick only
	kprofctl profile -e inst_retired -c 100003 -- sh -c "echo 'hot 4 1000000' >$T" \
		>/tmp/pf.txt 2>&1
	grep -q '^note: inst_retired counted [0-9]* events, about [0-9]* overflows at one every 100003, but the PMU raised [0-9]*: it raises its interrupt late' /tmp/pf.txt
	ok $? "inst_retired under QEMU: the late overflows are said" || diag "$(head -n 3 /tmp/pf.txt)"
	kprofctl profile -e cpu_cycles -c 100003 -- sh -c "echo 'hot 1 1000000' >$T" >/tmp/pf.txt 2>&1
	! grep -q '^note:' /tmp/pf.txt
	ok $? "cpu_cycles: no such note"
	capture kprofctl profile -e l1d_cache_refill -c 1000 -- sh -c "echo 'hot 1 1000' >$T"
	[ "$rc" = 1 ] && echo "$err" | grep -q 'no samples: l1d_cache_refill did not count'
	ok $? "an event the PMU does not count: said, no empty profile"
fi
# ---- off-CPU: where the task waits, against a kretprobe's own timing
kid=$(kprofctl add kretprobe:kprof_test_sleep --start)
# waiters outside CMD's session, in nanosleep and wait4 all along
(while :; do sleep 0.01; done) &
bg=$!
kprofctl profile --off-cpu --folded -- sh -c "echo 'sleep 10 20' >$T" \
	>/tmp/off.folded 2>/tmp/pf.err
ok $? "profile --off-cpu --folded -- CMD" || diag "$(cat /tmp/pf.err)"
kill "$bg"
wait "$bg" 2>/dev/null
kprofctl stop "$kid"
kprofctl show "$kid" --json >/tmp/off.json
kns=$(sed -n 's/^{"probes":\[{[^{]*"sum_ns":\([0-9]*\),.*/\1/p' /tmp/off.json)
# x86 compiles kprof_test_sleep's msleep() as a tail call: no frame of its
# own; -Os (the board's stock kernel) keeps schedule_timeout_uninterruptible
# out of line, and shows the tracepoint's iterator, which -O2 kernels call
# the probe without
us=$(awk '/;kprof_test_write;(kprof_test_sleep;)?msleep;(schedule_timeout_uninterruptible;)?schedule_timeout;schedule;__schedule(;__traceiter_sched_switch)? [0-9]+$/ {
	t += $NF } END { print t + 0 }' /tmp/off.folded)
diag "off-CPU under msleep: $us us; the kretprobe's 10 calls: $kns ns"
[ "$us" -ge 200000 ] && [ $((us * 1000)) -le "$kns" ] &&
	[ $((us * 1000 * 100)) -ge $((kns * 95)) ]
ok $? "off-CPU: 10 x msleep(20) blocked $us us under kprof_test_write;msleep;schedule_timeout, >= 200 ms and within 5% of the calls' time"
# CMD may itself wait elsewhere now and then (exec moving it to another
# CPU, a fault on a page being migrated): said, not failed
grep -vE ';msleep;(schedule_timeout_uninterruptible;)?schedule_timeout;' \
	/tmp/off.folded | while read -r l; do diag "CMD's other wait: $l"; done
is "$(grep -Ec 'nanosleep|do_wait' /tmp/off.folded)" 0 \
	"off-CPU of CMD: not the sleep loop waiting beside it (it follows CMD's session only)"
kprofctl del "$kid"
# uninterruptible keeps msleep's D-state waits, not a nanosleep
kprofctl profile --off-cpu=uninterruptible --folded -- \
	sh -c "echo 'sleep 2 10' >$T; sleep 0.05" >/tmp/off.folded 2>/tmp/pf.err
ok $? "profile --off-cpu=uninterruptible" || diag "$(cat /tmp/pf.err)"
grep -q ';msleep;' /tmp/off.folded && ! grep -q 'nanosleep' /tmp/off.folded
ok $? "uninterruptible: msleep's waits, not sleep(1)'s nanosleep"
kprofctl profile --off-cpu --folded -- sh -c "echo 'sleep 2 10' >$T; sleep 0.05" \
	>/tmp/off.folded 2>/tmp/pf.err
grep -q 'nanosleep' /tmp/off.folded
ok $? "all waits: sleep(1)'s nanosleep too" || diag "$(cut -c1-200 /tmp/off.folded)"
capture kprofctl profile --off-cpu -e cpu_cycles -d 1s
[ "$rc" = 2 ] && echo "$err" | grep -q 'off-cpu times waits'
ok $? "--off-cpu with -e is refused"

capture kprofctl profile -d 5
[ "$rc" = 2 ] && echo "$err" | grep -q 'give a unit'
ok $? "profile -d without a unit is refused"
capture kprofctl profile -F 10 -c 10000
[ "$rc" = 2 ] && echo "$err" | grep -q '\-F and -c exclude each other'
ok $? "profile: -F and -c exclude each other"
is "$(kprofctl list | grep -c sample)" 0 "profile leaves no probe"
echo "$pct" >/proc/sys/kernel/perf_cpu_time_max_percent
capture kprofctl add sample:l1d_cache_refill,cpu_cycles
[ "$rc" = 2 ] && echo "$err" | grep -q 'one PMU event'
ok $? "sample: takes one event, and says so"
capture kprofctl add sample:cpu-clock:hz=0
[ "$rc" = 2 ] && echo "$err" | grep -q ':hz=1..100000'
ok $? "sample: a rate out of range is refused with the range"
