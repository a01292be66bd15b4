#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Issue 18: silent wrong answers a new user meets in the first hour
# (tests/vm/guest/suite.sh).  Each section fails on the code before its fix.
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
kprofctl del all >/dev/null 2>&1

missed_of() { # ID -> MISSED column of list
	kprofctl list | awk -v id="$1" '$1 == id { print $5 }'
}

# ---- durations need a unit: "--slow 5" was 5 ns.  timeout: before the
# fix watch --min 5 and stat -d 1 ran instead of refusing.
capture kprofctl add kretprobe:kprof_test_nop --slow 5
is "$rc" 2 "add --slow 5: refused"
echo "$err" | grep -q "give a unit: 5ns, 5us, 5ms or 5s"; ok $? "add --slow 5: the message shows the forms"
capture timeout 5 kprofctl watch --min 5 --count 1
is "$rc" 2 "watch --min 5: refused"
capture timeout 5 kprofctl stat -e cycles -d 1
is "$rc" 2 "stat -d 1: refused"
echo "$err" | grep -q "give a unit: 1ns, 1us, 1ms or 1s"; ok $? "stat -d 1: the message shows the forms"
capture timeout 5 kprofctl stat -e cycles -I 100 -- true
is "$rc" 2 "stat -I 100: refused"
is "$(kprofctl list)" "no probes" "durations: nothing added"
kprofctl del all >/dev/null 2>&1

# ---- missed is read fresh by show (it lagged list by up to 100 ms), and
# explained.  A sleeper holds the only instance (maxactive 1): each other
# call misses.
id=$(kprofctl add kretprobe:kprof_test_sleep --maxactive 1 --start)
echo "sleep 1 5000" >$T &
bg=$!
n=0
while [ "$(missed_of "$id")" = 0 ] && [ $n -lt 200 ]; do
	echo "sleep 1 0" >$T
	n=$((n + 1))
done
kprofctl reset "$id"
for k in 1 2 3 4; do
	echo "sleep 1 0" >$T
	kprofctl show "$id" >/tmp/fh.show
	lm=$(missed_of "$id")
	sm=$(sed -n 's/^  count \([0-9]*\)  missed \([0-9]*\)$/\1 \2/p' /tmp/fh.show)
	is "$sm $lm" "0 $k $k" "round $k: show and list both count $k missed"
done
grep -qx "  4 calls (100 %) missed: maxactive 1 exhausted; add it again with --maxactive 64" /tmp/fh.show
ok $? "show explains the misses and the fix"
wait $bg
capture kprofctl show "$id"
echo "$out" | grep -qx "  count 1  missed 4"; ok $? "the sleeper's call counted, 4 missed"
echo "$out" | grep -qx "  4 calls (80 %) missed: maxactive 1 exhausted; add it again with --maxactive 64"
ok $? "80 % missed"
kprofctl show "$id" --json | grep -q '"count":1,"missed":4,'; ok $? "JSON missed 4"
kprofctl del "$id"

# ---- two probes on one function: a warning naming the other, marks in show
a=$(kprofctl add kretprobe:kprof_test_nop --start)
capture kprofctl add kretprobe:kprof_test_nop --start
ok $rc "a second probe on the function is added"
b=$out
echo "$err" | grep -q "warning: kprof_test_nop already carries probe $a (kretprobe:kprof_test_nop, running)"
ok $? "the warning names probe $a"
echo "$err" | grep -q "ns per call"; ok $? "the warning gives the overhead"
capture kprofctl add kprobe:kprof_test_spin
echo "$err" | grep -q warning; is $? 1 "no warning for a function without probes"
kprofctl del "$out"
capture kprofctl show
is "$(echo "$out" | grep -c "^  kprof_test_nop also carries probe")" 2 "show marks both"
echo "$out" | grep -q "^  kprof_test_nop also carries probe $b (kretprobe:kprof_test_nop, running)"
ok $? "probe $a is marked with $b"
kprofctl show "$b" | grep -q "^  kprof_test_nop also carries probe $a "
ok $? "show $b alone is marked with $a"
kprofctl del all

# ---- targets that do not exist are refused
capture kprofctl add kretprobe:kprof_test_nop --pid 99999
is "$rc" 2 "add --pid 99999: refused"
is "$err" "kprofctl add: --pid: no such process 99999" "add --pid: message"
capture kprofctl add kretprobe:kprof_test_nop --tgid 99999
is "$rc" 2 "add --tgid 99999: refused"
is "$err" "kprofctl add: --tgid: no such process 99999" "add --tgid: message"
capture kprofctl run --pid 99999 kretprobe:kprof_test_nop -- true
is "$rc" 2 "run --pid 99999: refused"
is "$err" "kprofctl run: --pid: no such process 99999" "run --pid: message"
capture timeout 5 kprofctl watch --probe 42
is "$rc" 1 "watch --probe 42: refused"
is "$err" "kprofctl watch: no probe 42" "watch --probe: message"
is "$(kprofctl list)" "no probes" "targets: nothing added"
# a process that exits later is fine, and show says so
sleep 1000 &
p=$!
id=$(kprofctl add kretprobe:kprof_test_nop --tgid $p)
ok $? "add --tgid of a live process"
kill $p
wait $p
kprofctl show "$id" | grep -qx "  tgid $p has exited: this probe records nothing more"
ok $? "show says the filtered process exited"
kprofctl del "$id"

# ---- smaller ones
capture kprofctl start
is "$rc" 1 "start with no probes: an error"
is "$err" "kprofctl start: no probes (add one: kprofctl add SPEC)" "start with no probes says so"
id=$(kprofctl add kretprobe:kprof_test_nop)
kprofctl show "$id" | grep -qx "  stopped: kprofctl start $id"; ok $? "show on a stopped, empty probe says how to start it"
kprofctl del "$id"
capture kprofctl show -d /dev/kprofctl
is "$rc" 2 "show -d: refused"
echo "$err" | grep -q "put -d before the command"; ok $? "show -d: the hint"
capture kprofctl list --device /dev/kprofctl
echo "$err" | grep -q "put --device before the command"; ok $? "list --device: the hint"

# PMU window totals while running (they read 0 until STOP)
PMU=
for d in /sys/bus/event_source/devices/*; do
	[ -e "$d/events/inst_retired" ] && PMU=${d##*/}
done
if [ -z "$PMU" ]; then
	echo "ok - PMU window totals while running # SKIP this guest has no PMU"
else
	id=$(kprofctl add kretprobe:kprof_test_loop --pmu cycles,instructions --tgid $$ --start)
	echo "loop 20 1000" >$T
	n=$(kprofctl show "$id" | awk '/PMU totals over the capture window/ { w = 1 } w && $3 == "inst_retired" && $4 > 0 { n++ } END { print n + 0 }')
	[ "$n" -ge 1 ]; ok $? "PMU window totals while running: $n CPUs counted"
	kprofctl del "$id"
fi

exit $tap_fail
