#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Captures (tests/vm/guest/suite.sh): probes of every kind with known
# counts are stopped, saved, and shown from the file; the output must be
# byte for byte what show prints live, for each way of showing.  Then a
# recording whose intervals must add up to the capture, and diff/gates on
# two captures of a target whose duration changes by a known amount.
# The captures go to the host as comments (export_file).  kprofctl and
# kprof_test are loaded.
# shellcheck source=tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
kprofctl del all >/dev/null 2>&1


# ---- every kind of probe, stopped: nothing moves between live and file
a=$(kprofctl add kretprobe:kprof_test_spin --tgid $$ --start)
b=$(kprofctl add kprobe:kprof_test_nop --start)
c=$(kprofctl add kretprobe:kprof_test_ret --key retval --tgid $$ --start)
d=$(kprofctl add kprobe:kprof_test_callee --key caller --tgid $$ --start)
e=$(kprofctl add 'kretprobe:kprof_test:kprof_test_caller_?' --start)
f=$(kprofctl add sample:cpu-clock:hz=999 --key stack --tgid $$ --start)
g=$(kprofctl add tracepoint:sched:sched_process_exec --start)
ok $? "seven probes: kretprobe, kprobe, keyed, caller key, set, profile, tracepoint"
# and where there is a PMU, per-call deltas and window totals (one event
# this PMU does not count: its "not counted" note must survive the file)
pm= pw=
for d in /sys/bus/event_source/devices/*; do
	[ -e "$d/events/inst_retired" ] && pm=yes
done
if [ -n "$pm" ]; then
	pm=$(kprofctl add kretprobe:kprof_test_loop --pmu cycles,instructions --tgid $$ --start)
	pw=$(kprofctl add pmu:cpu_cycles,l1d_cache_refill --start)
	ok $? "and a kretprobe with --pmu, a pmu: probe"
	echo "loop 20 1000" >$T
else
	echo "ok - and a kretprobe with --pmu, a pmu: probe # SKIP this guest has no PMU"
fi
echo "spin 40 20000" >$T
echo "nop 25" >$T
echo "ret 3" >$T
echo "callers 4" >$T
echo "hot 5 1000000" >$T
/bin/true
kprofctl stop >/dev/null
is "$(count "$a")" 40 "kretprobe: the 40 spins"

kprofctl save /tmp/cap.json
ok $? "save /tmp/cap.json"
grep -q '"format": "kprofctl-capture"' /tmp/cap.json &&
	grep -q '"version": 1' /tmp/cap.json
ok $? "the file says its format and version"
for args in "" "--json" "--per-cpu" "--by-cluster" "$a" "$c --key -EAGAIN" \
	"$d" "$e --nonzero" "$e --sort p99 --top 1" "$f" "$f --folded" \
	"$f --by-cluster" "$c --json --per-cpu" ${pm:+"$pm --by-cluster"} \
	${pw:+"$pw --by-cluster"} ${pw:+"$pw --json"}; do
	# shellcheck disable=SC2086
	kprofctl show $args >/tmp/live.txt 2>&1
	# shellcheck disable=SC2086
	kprofctl show $args --from /tmp/cap.json >/tmp/file.txt 2>&1
	if cmp -s /tmp/live.txt /tmp/file.txt && [ -s /tmp/live.txt ]; then
		echo "ok - show $args: the same from the file as live"
	else
		echo "not ok - show $args: the same from the file as live"
		diff /tmp/live.txt /tmp/file.txt | head -n 20 | sed 's/^/#   /'
		tap_fail=1
	fi
done
export_file CAPTURE /tmp/cap.json
kprofctl show --by-cluster >/tmp/live.txt 2>&1
export_file SHOW /tmp/live.txt
kprofctl save /tmp/one.json "$a" && kprofctl show --from /tmp/one.json --json |
	grep -o '"id":[0-9]*,"spec"' >/tmp/ids.txt
is "$(cat /tmp/ids.txt)" "\"id\":$a,\"spec\"" "save FILE ID: that probe alone"
capture kprofctl save /tmp/x.json 999
is "$rc:$err" "1:kprofctl save: no probe with id 999" "save of a probe that does not exist"
capture kprofctl show --from /tmp/nonexistent.json
is "$rc:$err" "1:kprofctl show: /tmp/nonexistent.json: No such file or directory" \
	"show --from a missing file"
head -c 500 /tmp/cap.json >/tmp/trunc.json
capture kprofctl show --from /tmp/trunc.json
is "$rc:$err" "1:kprofctl show: /tmp/trunc.json: truncated: the JSON stops after 500 bytes, inside the document" \
	"a truncated capture is refused, saying so"
kprofctl del all >/dev/null

# ---- record: the intervals add up to the whole; its slow calls (the 10
# of 200 us, and any 20 us one stretched past 100 us) are the ones the
# module counted, each a span of the timeline; a watch beside it hears the
# same calls (each listener its own copy)
a=$(kprofctl add kretprobe:kprof_test_spin --slow 100us --start)
F=/tmp/capture.fifo
mkfifo $F
watch --probe "$a" --count 10
ok $? "a watch listens beside the recording"
kprofctl record -i 100ms -o /tmp/rec.json --timeline /tmp/rec.trace.json -- sh -c \
	"echo 'spin 10 20000' >$T; echo 'spin 10 200000' >$T" 2>/tmp/rec.err
ok $? "record -i 100ms -o FILE --timeline OUT -- CMD"
kprofctl stop >/dev/null
collect
rm -f $F
grep -q "kprofctl record: [0-9]* intervals of 0.100 s in /tmp/rec.json" /tmp/rec.err &&
	grep -q "kprofctl record: its timeline in /tmp/rec.trace.json" /tmp/rec.err &&
	[ "$(wc -l </tmp/rec.err)" = 2 ]
ok $? "record says what it wrote, and no loss: $(tr '\n' ' ' </tmp/rec.err)"
nslow=$(kprofctl show "$a" --from /tmp/rec.json --json | sed -n 's/.*"slow_events":\([0-9]*\).*/\1/p')
heard=$(tr '{' '\n' </tmp/rec.json | grep -c '"probe": '"$a"', "t_ns"')
[ "${nslow:-0}" -ge 10 ] && [ "$heard" = "$nslow" ] &&
	grep -q '"slow": { "lost": 0, "calls"' /tmp/rec.json
ok $? "the recording heard every slow call the module counted: $heard of $nslow, none lost"
is "$(tr '{' '\n' </tmp/rec.json | grep '"probe": '"$a"', "t_ns"' |
	sed -n 's/.*"latency_ns": \([0-9]*\),.*/\1/p' | awk '$1 < 100000' | wc -l)" 0 \
	"each is at least the 100 us threshold"
is "$(sed -n 's/.*"slow_calls":\([0-9]*\),"slow_lost":\([0-9]*\).*/\1:\2/p' /tmp/rec.trace.json)" \
	"$nslow:0" "the timeline holds them as spans, none lost"
is "$(sed 's/{"ph"/\n&/g' /tmp/rec.trace.json | grep -c '"ph":"X".*"pid":3,.*"latency_ns"')" \
	"$nslow" "one span each on its task's track (process 3)"
# the watch's 10 (the first to arrive) are among the recording's
echo "$out" | field latency_ns >/tmp/w.lat
tr '{' '\n' </tmp/rec.json | grep '"probe": '"$a"', "t_ns"' |
	sed -n 's/.*"latency_ns": \([0-9]*\),.*/\1/p' >/tmp/r.lat
[ "$wrc" = 0 ] && [ "$(wc -l </tmp/w.lat)" = 10 ] &&
	awk 'NR == FNR { n[$1]++; next } n[$1]-- <= 0 { bad = 1 } END { exit bad }' \
		/tmp/r.lat /tmp/w.lat
ok $? "the watch beside it heard 10 of the same calls (exit $wrc)"
kprofctl timeline --from /tmp/rec.json | cmp -s - /tmp/rec.trace.json
ok $? "--timeline wrote what timeline --from makes of the recording"
# the spans on the probe's track (pid 1) add up to its 20 calls
is "$(sed 's/{"ph"/\n&/g' /tmp/rec.trace.json | grep '"ph":"X".*"pid":1,' |
	sed -n 's/.*"count":\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s }')" \
	20 "the timeline's spans of the probe add up to the 20 calls"
export_file RECORD /tmp/rec.json
export_file TIMELINE /tmp/rec.trace.json
is "$(kprofctl show --from /tmp/rec.json --intervals --json |
	sed -n 's/^{"probes":\[{"id":[0-9]*,"spec":"[^"]*","type":"[^"]*","state":"[^"]*","count":\([0-9]*\),.*/\1/p' |
	awk '{ s += $1 } END { print s }')" 20 "the recorded intervals add up to the 20 calls"
is "$(kprofctl show --from /tmp/rec.json --json | sed -n 's/^{"probes":\[{"id":[0-9]*,"spec":"[^"]*","type":"[^"]*","state":"[^"]*","count":\([0-9]*\),.*/\1/p')" \
	20 "and so does the recording's capture"
kprofctl del all >/dev/null

# ---- a series whose latency changes at a known time: 50 spins of 20 us,
# 0.45 s of sleep, then one call of kprof_test_nop (a second probe: the
# mark) and 50 spins of 100 us.  With -i 100ms the fast calls are in
# interval 1 and the slow ones in the interval of the mark, which the
# snapshots place on the same clock (or the slow ones straddle its end)
a=$(kprofctl add kretprobe:kprof_test_spin --start)
m=$(kprofctl add kprobe:kprof_test_nop --start)
kprofctl record -i 100ms -o /tmp/series.json -- sh -c \
	"echo 'spinoff 50 20000' >$T; sleep 0.45; echo 'nop 1' >$T;
	 echo 'spinoff 50 100000' >$T; sleep 0.2" 2>/dev/null
ok $? "record -i 100ms of a target that slows down after 0.45 s"
# per interval of probe ID: COUNT:P50 (p50 as show prints it)
per_iv() {
	kprofctl show "$1" --from /tmp/series.json --intervals --json |
		sed -n 's/^{"probes":\[{"id":[0-9]*,"spec":"[^"]*","type":"[^"]*","state":"[^"]*","count":\([0-9]*\),[^[{]*"p50_ns":\([0-9]*\),.*/\1:\2/p'
}
# per interval of a probe that times nothing: COUNT
per_count() {
	kprofctl show "$1" --from /tmp/series.json --intervals --json |
		sed -n 's/^{"probes":\[{"id":[0-9]*,"spec":"[^"]*","type":"[^"]*","state":"[^"]*","count":\([0-9]*\)[,}].*/\1/p'
}
busy=$(per_iv "$a" | awk -F: '$1 > 0 { printf "%d:%s:%s ", NR, $1, $2 }')
mark=$(per_count "$m" | awk '$1 > 0 { printf "%d:%s ", NR, $1 }')
set -- $busy
is "${1%%:*}:$(echo "$1" | cut -d: -f2)" "1:50" "interval 1 holds the 50 fast calls"
p1=${1##*:}
shift
slow=${1%%:*} p2=${1##*:}
is "$mark" "$slow:1 " "the mark's one call is in interval $slow, where the slow calls start"
# the 5 ms of slow calls may straddle that interval's end: one or two
# intervals in a row, 50 calls in all
n=0 last=$((slow - 1)) inrow=1
for x in "$@"; do
	n=$((n + $(echo "$x" | cut -d: -f2)))
	[ "${x%%:*}" = $((last + 1)) ] || inrow=0
	last=${x%%:*}
done
is "$n:$inrow:$(($# <= 2))" "50:1:1" "the 50 slow calls in interval $slow (or it and the next)"
[ "$slow" -ge 5 ]
ok $? "and not before the 0.45 s of sleep: interval $slow"
# the probe's own cost is in both (more on the debug kernel): the spins
# differ by 80 us, the p50s by that within their buckets' resolution
[ "$p1" -ge 20000 ] && [ $((p2 - p1)) -ge 72000 ] && [ $((p2 - p1)) -le 88000 ]
ok $? "interval $slow's p50 ($p2 ns) is 80 us above interval 1's ($p1 ns)"
export_file SERIES /tmp/series.json
kprofctl del all >/dev/null

# ---- diff: the same target 10 us slower, and the same target again
diffcap() { # NAME D: 200 calls of a D ns spin, saved as /tmp/NAME.json
	kprofctl reset "$id" >/dev/null && kprofctl start "$id" >/dev/null &&
		echo "spinoff 200 $2" >$T && kprofctl stop "$id" >/dev/null &&
		kprofctl save "/tmp/$1.json" 2>/dev/null
}
# FIELD of p50 in diff --json: before, after
p50() { sed -n 's/.*"p50":{"before":\([0-9]*\),"after":\([0-9]*\),.*/\1 \2/p' /tmp/diff.json; }
id=$(kprofctl add kretprobe:kprof_test_spin --tgid $$)
diffcap base 20000 && diffcap slow 30000
ok $? "two captures: 200 spins of 20 us, then of 30 us"
kprofctl diff /tmp/base.json /tmp/slow.json --fail-if 'p50>+10%' >/tmp/diff.txt
is "$?" 1 "diff --fail-if 'p50>+10%' exits 1 on the slower target"
kprofctl diff /tmp/base.json /tmp/slow.json --json >/tmp/diff.json
set -- $(p50)
# the probe's cost is in both: the p50s differ by the spins' 10 us, within
# their buckets' resolution (2 us at 32-64 us)
[ $# = 2 ] && [ $(($2 - $1)) -ge 8000 ] && [ $(($2 - $1)) -le 12000 ]
ok $? "p50 moved by 10 us: $1 -> $2 ns"
grep -q '^  p50 .* +[1-9][0-9]\.[0-9] % \*' /tmp/diff.txt
ok $? "p50's change is significant and said in percent: $(grep '^  p50' /tmp/diff.txt)"
grep -q "^FAIL kretprobe:kprof_test_spin: p50 " /tmp/diff.txt
ok $? "the crossing is named: $(grep '^FAIL' /tmp/diff.txt)"
kprofctl diff /tmp/slow.json /tmp/base.json --fail-if 'p50>+10%' >/tmp/diff.txt
is "$?" 0 "the other way round (faster) passes the same gate"
grep -q '^  p50 .* -[1-9][0-9]\.[0-9] % \*' /tmp/diff.txt
ok $? "and says p50 fell, significantly: $(grep '^  p50' /tmp/diff.txt)"
for i in 1 2 3 4 5; do
	diffcap again 20000 &&
		kprofctl diff /tmp/base.json /tmp/again.json --fail-if 'p50>+5%' \
			--fail-if 'p99>+10%' --fail-if 'mean>+5%' >/tmp/diff.txt
	r=$?
	sig=$(grep -c '^  \(p50\|p90\|mean\) .*\*' /tmp/diff.txt)
	is "$r:$sig" "0:0" "run $i: the same target again: no significant shift, gates pass"
done
export_file BASE /tmp/base.json
export_file SLOW /tmp/slow.json
kprofctl del all >/dev/null
exit $tap_fail
