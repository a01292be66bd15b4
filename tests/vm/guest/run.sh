#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kprofctl run as a new user meets it (issue 18): it follows the command's
# children, takes add's options, sizes maxactive for concurrent callers,
# stops a command that ignores SIGINT, and keeps its statistics off the
# command's stdout with -o.  Exact counts: kprof_test makes them.
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger

json_count() { # JSON -> "count missed" of the first probe
	echo "$1" | sed -n 's/^{"probes":\[{"id":[0-9]*,"spec":"[^"]*","type":"[^"]*","state":"[^"]*","count":\([0-9]*\),"missed":\([0-9]*\),.*/\1 \2/p'
}
# live (not zombie) processes whose process group or session is $1
in_tree() { # SID
	cat /proc/[0-9]*/stat 2>/dev/null | sed 's/^\([0-9]*\) .*) /\1 /' |
		awk -v s="$1" '$2 != "Z" && ($4 == s || $5 == s) { print $1 }'
}
tree_size_ge() { # SID N -> 0 if at least N processes are in_tree SID
	[ "$(in_tree "$1" | wc -l)" -ge "$2" ]
}
tree_gone() { # SID -> 0 if no process is in_tree SID
	[ -z "$(in_tree "$1")" ]
}
gone() { # PID -> 0 once PID has exited (gone or a zombie)
	[ ! -e /proc/$1/stat ] || [ "$(sed 's/.*) \(.\).*/\1/' /proc/$1/stat)" = Z ]
}

# 1. the command's children are followed; outside callers are not
rm -f /tmp/run.stop
(while [ ! -e /tmp/run.stop ]; do echo 'spin 1 0' >$T; done) &
outside=$!
capture kprofctl run --json kretprobe:kprof_test_spin -- \
	sh -c "echo 'spin 5 0' >$T & echo 'spin 6 0' >$T & wait"
ok $rc "run: a command whose children make the calls"
is "$(json_count "$out")" "11 0" "run: exactly the 5 + 6 calls of the command's two children"
echo "$out" | grep -q ',"followed":{"what":"session","pid":[0-9]*}}$'
ok $? "run --json says it followed the command's session"
capture kprofctl run kretprobe:kprof_test_spin -- \
	sh -c "echo 'spin 2 0' >$T & wait"
echo "$out" | grep -q "^following the command's session (pid [0-9]* and its children)"
ok $? "run says what it followed"
capture kprofctl run --no-inherit --json kretprobe:kprof_test_spin -- \
	sh -c "echo 'spin 5 0' >$T & echo 'spin 6 0' >$T & wait"
ok $rc "run --no-inherit"
is "$(json_count "$out")" "0 0" "run --no-inherit: the shell itself makes no call"
echo "$out" | grep -q ',"followed":{"what":"process","pid":[0-9]*}}$'
ok $? "run --no-inherit --json says it followed the process only"
# the command's own calls still count under --no-inherit
capture kprofctl run --no-inherit --json kretprobe:kprof_test_spin -- \
	sh -c "echo 'spin 4 0' >$T"
is "$(json_count "$out")" "4 0" "run --no-inherit: the command's own 4 calls"
touch /tmp/run.stop
wait $outside
capture kprofctl list
is "$out" "no probes" "run leaves no probes behind"

# 2. add's options, and a default maxactive that holds 16 sleepers on
# this guest's CPUs (the kprobe core's default would be 10)
ncpu=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)
capture kprofctl run --json --maxactive 3 --cpus 0-$((ncpu - 1)) kretprobe:kprof_test_spin -- \
	sh -c "echo 'spin 3 0' >$T"
is "$(json_count "$out")" "3 0" "run --maxactive --cpus: the 3 calls"
capture kprofctl run --json --slow 1ms kretprobe:kprof_test_sleep -- \
	sh -c "echo 'sleep 1 2' >$T"
echo "$out" | grep -q '"slow_ns":1000000,"slow_events":1,'
ok $? "run --slow: the probe sent its one slow call"
capture kprofctl run --json kretprobe:kprof_test_sleep -- sh -c "
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
		echo 'sleep 1 2000' >$T &
	done; wait"
is "$(json_count "$out")" "16 0" "default maxactive: 16 concurrent sleepers, none missed"
# the same with the kprobe core's default here, max(10, 2 x CPUs): the
# 16 calls are pending at once, so 6 are missed
capture kprofctl run --json --maxactive 10 kretprobe:kprof_test_sleep -- sh -c "
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
		echo 'sleep 1 2000' >$T &
	done; wait"
is "$(json_count "$out")" "10 6" "--maxactive 10: 10 of the 16 sleepers counted, 6 missed"
PMU=
for d in /sys/bus/event_source/devices/*; do
	[ -e "$d/events/inst_retired" ] && PMU=${d##*/}
done
if [ -z "$PMU" ]; then
	echo "ok - run --pmu: the 5 calls with their counters # SKIP this guest has no PMU (QEMU TCG x86 models none)"
else
	capture kprofctl run --json --pmu inst_retired kretprobe:kprof_test_loop -- \
		sh -c "echo 'loop 5 1000' >$T"
	is "$(json_count "$out")" "5 0" "run --pmu: the 5 calls with their counters"
	echo "$out" | grep -q '"inst_retired":{"lost":0,"count":5,'
	ok $? "run --pmu: inst_retired of each of the 5 calls, none lost"
fi
id=$(kprofctl add kretprobe:kprof_test_sleep)
ma=$(kprofctl list | awk -v id="$id" '$1 == id' | sed -n 's/.*maxactive=\([0-9]*\).*/\1/p')
want=$((4 * ncpu)); [ $want -lt 64 ] && want=64
[ "${ma:-0}" -ge $want ]; ok $? "default maxactive is at least max(64, 4 x CPUs): $ma"
kprofctl del "$id"

# 5. a command that ignores SIGINT: a second one kills its whole tree
rm -f /tmp/run5.pid
kprofctl run kprobe:kprof_test_nop -- sh -c \
	'trap "" INT; sleep 100000 & echo $$ $! >/tmp/run5.pid; while :; do sleep 1; done' \
	>/tmp/run5.out 2>&1 &
runner=$!
until_ok 30 [ -s /tmp/run5.pid ]; ok $? "run: the command started"
read -r cmd bg </tmp/run5.pid
until_ok 30 tree_size_ge "$cmd" 3; ok $? "run: its children started"
kill -INT $runner
until_ok 2 gone $runner && rc=0 || rc=1
is $rc 1 "a first SIGINT, ignored by the command, does not end run"
kill -INT $runner
until_ok 30 gone $runner; ok $? "a second SIGINT ends run"
until_ok 30 tree_gone "$cmd"; ok $? "and the command's whole tree is gone"
until_ok 30 gone "$bg"; ok $? "its background child too"
kill -9 $runner 2>/dev/null; wait $runner
for p in $(in_tree "$cmd") $bg; do kill -9 "$p" 2>/dev/null; done
is "$(kprofctl list)" "no probes" "and no probe is left"
# SIGTERM once does the same
rm -f /tmp/run5.pid
kprofctl run kprobe:kprof_test_nop -- sh -c \
	'trap "" INT TERM; echo $$ >/tmp/run5.pid; while :; do sleep 1; done' \
	>/tmp/run5.out 2>&1 &
runner=$!
until_ok 30 [ -s /tmp/run5.pid ]
cmd=$(cat /tmp/run5.pid)
kill -TERM $runner
until_ok 30 gone $runner; ok $? "SIGTERM ends run"
until_ok 30 tree_gone "$cmd"; ok $? "and the command's tree is gone"
until_ok 30 gone "$cmd"; ok $? "the command itself too"
kill -9 $runner 2>/dev/null; wait $runner
for p in $(in_tree "$cmd") $cmd; do kill -9 "$p" 2>/dev/null; done
is "$(kprofctl list)" "no probes" "and no probe is left"

# 8. -o FILE: the statistics apart from the command's stdout
rm -f /tmp/run8.json
capture kprofctl run --json -o /tmp/run8.json kretprobe:kprof_test_spin -- \
	sh -c "echo hello; echo 'spin 9 0' >$T"
ok $rc "run -o FILE"
is "$out" "hello" "run -o: stdout is the command's alone"
is "$(json_count "$(cat /tmp/run8.json 2>/dev/null)")" "9 0" "run -o: the file has the JSON and its 9 calls"
[ "$(wc -l </tmp/run8.json 2>/dev/null)" = 1 ]; ok $? "run -o: one JSON line in the file"

exit $tap_fail
