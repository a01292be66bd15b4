#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kprofctl top (tests/vm/guest/suite.sh); kprofctl and kprof_test are
# loaded.  Rates depend on time: the totals, and the calls of an interval
# made while top waits between two snapshots, are exact.  Output to a file
# (not a terminal) must carry no control codes; --json parses.
# shellcheck source=tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
N=7
ESC=$(printf '\033')

# a strict JSON check of each line of a file: one value per line
json_lines() { # FILE -> status 0 if every line is one JSON value
	awk '
	function ws() { while (substr(s, p, 1) ~ /^[ \t]$/) p++ }
	function str(   c) {
		if (substr(s, p, 1) != "\"") return 0
		for (p++; p <= length(s); p++) {
			c = substr(s, p, 1)
			if (c == "\\") { p++; continue }
			if (c == "\"") { p++; return 1 }
			if (c < " ") return 0
		}
		return 0
	}
	function num(   m) {
		if (!match(substr(s, p), /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/))
			return 0
		p += RLENGTH
		return 1
	}
	function val(   c) {
		ws(); c = substr(s, p, 1)
		if (c == "{") return obj()
		if (c == "[") return arr()
		if (c == "\"") return str()
		if (substr(s, p, 4) == "null" || substr(s, p, 4) == "true") { p += 4; return 1 }
		if (substr(s, p, 5) == "false") { p += 5; return 1 }
		return num()
	}
	function obj() {
		p++; ws()
		if (substr(s, p, 1) == "}") { p++; return 1 }
		for (;;) {
			ws(); if (!str()) return 0
			ws(); if (substr(s, p, 1) != ":") return 0
			p++; if (!val()) return 0
			ws()
			if (substr(s, p, 1) == ",") { p++; continue }
			if (substr(s, p, 1) == "}") { p++; return 1 }
			return 0
		}
	}
	function arr() {
		p++; ws()
		if (substr(s, p, 1) == "]") { p++; return 1 }
		for (;;) {
			if (!val()) return 0
			ws()
			if (substr(s, p, 1) == ",") { p++; continue }
			if (substr(s, p, 1) == "]") { p++; return 1 }
			return 0
		}
	}
	{ s = $0; p = 1; if (!val()) bad = 1; ws(); if (p <= length(s)) bad = 1; n++ }
	END { exit bad || !n }' "$1"
}
# TOTAL of the plain table's row named NAME (a probe's "ID SPEC", a key's
# label): the columns are NAME RATE/s TOTAL P99 MEAN (--no-clusters)
total() { # FILE NAME (the id column pads "99" to the width of "101")
	awk -v name="$2" '{ l = $0; sub(/^ +/, "", l); gsub(/  +/, " ", l) }
		substr(l, 1, length(name) + 1) == name " " { print $(NF - 2); exit }' "$1"
}
# the file has a line with ESC or CR
has_ctl() {
	grep -q "$ESC" "$1" || grep -q "$(printf '\r')" "$1"
}

kprofctl del all
capture kprofctl top --once -i 100ms
[ "$rc" = 1 ] && echo "$err" | grep -q 'no probes; add one first'
ok $? "no probes: top says how to add one ($rc)"

sid=$(kprofctl add kretprobe:kprof_test_spin --tgid $$ --start)
ok $? "add kretprobe:kprof_test_spin"
kid=$(kprofctl add kretprobe:kprof_test_ret --key retval --tgid $$ --start)
ok $? "add kretprobe:kprof_test_ret --key retval"
# a function set: its functions under it
fid=$(kprofctl add 'kretprobe:kprof_test:kprof_test_re*' --start)
ok $? "add kretprobe:kprof_test:kprof_test_re*"
echo "spin 50 1000" >$T
echo "ret $N" >$T

kprofctl top --once -i 200ms --no-clusters >/tmp/top.out 2>/tmp/top.err
ok $? "top --once -i 200ms"
sed 's/^/# /' /tmp/top.out
! has_ctl /tmp/top.out && [ ! -s /tmp/top.err ]
ok $? "--once to a file: no control codes, nothing on stderr"
[ "$(grep -c '^probes: ' /tmp/top.out)" = 1 ] && grep -q '^probes: 3  interval: ' /tmp/top.out
ok $? "--once: one table of the three probes"
is "$(total /tmp/top.out "$sid kretprobe:kprof_test_spin")" 50 "spin's total: 50"
is "$(total /tmp/top.out "$kid kretprobe:kprof_test_ret")" $((10 * N)) "ret's total: $((10 * N))"
is "$(total /tmp/top.out 0)" $N "key 0: $N"
is "$(total /tmp/top.out '-EAGAIN (-11)')" $((2 * N)) "key -EAGAIN (-11): $((2 * N))"
is "$(total /tmp/top.out '-EPROBE_DEFER (-517)')" $((3 * N)) "key -EPROBE_DEFER (-517): $((3 * N))"
is "$(total /tmp/top.out 2048)" $((4 * N)) "key 2048: $((4 * N))"
is "$(total /tmp/top.out kprof_test_ret)" $((10 * N)) "the set's kprof_test_ret: $((10 * N))"
# no calls in the interval: rate 0, no latency
awk -v id="$sid" '$1 == id { exit !($3 == "0.0" && $5 == "-" && $6 == "-") }' /tmp/top.out
ok $? "spin: rate 0.0, no p99 or mean in an interval without calls"

# --json -n 2: 30 calls made after the first object, before the second
kprofctl top --json -n 2 -i 2s >/tmp/top.json 2>/tmp/top.err &
pid=$!
i=0
while [ ! -s /tmp/top.json ] && [ $i -lt 400 ]; do
	sleep 0.01
	i=$((i + 1))
done
echo "spin 30 1000" >$T
wait $pid
ok $? "top --json -n 2 -i 2s"
[ "$(wc -l </tmp/top.json)" = 2 ] && json_lines /tmp/top.json && ! has_ctl /tmp/top.json
ok $? "two JSON objects that parse, no control codes"
sed -n 2p /tmp/top.json >/tmp/top2.json
grep -q '{"id":'"$sid"',"spec":"kretprobe:kprof_test_spin","type":"kretprobe","rate":[0-9.]*,"count":30,"total":80,"p99_ns":[0-9]*,"mean_ns":[0-9]*' /tmp/top2.json
ok $? "the second interval: exactly the 30 calls, total 80, p99 and mean"
grep -q '"keys":\[{"name":"2048","rate":0.000,"count":0,"total":'$((4 * N)) /tmp/top2.json
ok $? "ret's keys in JSON, the busiest first, no calls in the interval"
[ ! -s /tmp/top.err ]
ok $? "nothing on stderr"

# the set's functions in JSON: kprof_test_ret's calls of the interval
grep -q '{"id":'"$fid"',"spec":"kretprobe:kprof_test:kprof_test_re\*","type":"kretprobe-set",.*"functions":\[{"name":"kprof_test_ret","rate":0.000,"count":0,"total":'$((10 * N)) /tmp/top2.json
ok $? "the set's functions in JSON, kprof_test_ret's $((10 * N)) calls"

kprofctl del "$sid"
kprofctl del "$kid"
kprofctl del "$fid"
exit $tap_fail
