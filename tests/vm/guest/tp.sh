#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tracepoint counts, module tracepoints and keyed pairs
# (tests/vm/guest/suite.sh); kprofctl and kprof_test are loaded.
# shellcheck source=tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
KO=/kmod/kmod/kprof_test.ko

keys() { # ID [SHOW ARGS] -> "KEY|NAME|COUNT|P50" per key, busiest first
	kid=$1
	shift
	kprofctl show "$kid" --json "$@" |
		grep -o '{"key":"[^"]*","name":"[^"]*","count":[0-9]*,"min_ns":[0-9]*,"max_ns":[0-9]*,"sum_ns":[0-9]*,"p50_ns":[0-9]*' |
		sed 's/{"key":"\([^"]*\)","name":"\([^"]*\)","count":\([0-9]*\),"min_ns":[0-9]*,"max_ns":[0-9]*,"sum_ns":[0-9]*,"p50_ns":\([0-9]*\)/\1|\2|\3|\4/'
}
field() { cut -d'|' -f"$1"; }

# ---- tracepoint counts: exact, on a module's tracepoint, pid-filtered
id=$(kprofctl add tracepoint:kprof_test:kprof_test_event --tgid $$ --start)
ok $? "add tracepoint:kprof_test:kprof_test_event (a module's) --tgid --start"
echo "event 1234" >$T
(echo "event 99" >$T)	# another process: filtered out
is "$(count "$id")" 1234 "tracepoint count is exact, other processes filtered"
kprofctl reset "$id"
is "$(count "$id")" 0 "reset zeroes it"
kprofctl del "$id"

id=$(kprofctl add tracepoint:sched:sched_process_fork --tgid $$ --start)
for i in 1 2 3 4 5 6 7; do /bin/true; done
# the 8th: the shell forks for the command substitution that reads it
is "$(count "$id")" 8 "core tracepoint sched_process_fork: 7 forks + 1 counted"
kprofctl del "$id"

# ---- a module's tracepoint, attached before the module loads
rmmod kprof_test || ok 1 "rmmod kprof_test"
capture kprofctl add tracepoint:kprof_test:kprof_test_event
is "$rc" 1 "not loaded, no --defer: add fails"
echo "$err" | grep -q "no tracepoint named in 'tracepoint:kprof_test:kprof_test_event'"
ok $? "and says the tracepoint was not found"
id=$(kprofctl add tracepoint:kprof_test:kprof_test_event --defer --tgid $$ --start)
ok $? "--defer: add succeeds before the module loads"
is "$(state "$id")" pending "state pending"
insmod $KO
is "$(state "$id")" running "module loaded: attached and running"
echo "event 50" >$T
is "$(count "$id")" 50 "counts the module's tracepoint exactly"
rmmod kprof_test
is "$(state "$id")" gone "module unloaded: detached, gone"
dmesg | grep -q "probe $id (tracepoint:kprof_test:kprof_test_event): module kprof_test unloaded, detached"
ok $? "the detach is reported in the kernel log"
kprofctl show "$id" | grep -q "^probe $id: tracepoint:kprof_test:kprof_test_event \[gone\]"
ok $? "show reports it gone"
insmod $KO
is "$(state "$id")" running "loaded again: attached again"
echo "event 7" >$T
is "$(count "$id")" 57 "and counts on: 57"
kprofctl stop "$id"
rmmod kprof_test && insmod $KO
is "$(state "$id")" stopped "a stopped probe re-attaches stopped"
echo "event 5" >$T
is "$(count "$id")" 57 "and does not count"
kprofctl del "$id"

# ---- list-tracepoints
capture kprofctl list-tracepoints 'kprof_test*'
is "$out" "kprof_test:kprof_test_event" "list-tracepoints GLOB finds a module's tracepoint"
capture kprofctl list-tracepoints
n=$(echo "$out" | wc -l)
echo "$out" | grep -qx "irq:irq_handler_entry" && [ "$n" -gt 100 ]
ok $? "list-tracepoints lists the kernel's ($n)"
capture kprofctl list-tracepoints 'no_such_*'
is "$rc" 1 "a GLOB that matches nothing exits 1"

# ---- bad input
capture kprofctl add tracepoint:nosys:no_such_tracepoint
is "$rc" 1 "unknown tracepoint: exit 1"
echo "$err" | grep -q "no tracepoint named"; ok $? "unknown tracepoint: says so"
capture kprofctl add pair:bogus
is "$rc" 2 "unknown pair: usage error"
echo "$err" | grep -q "unknown pair 'bogus'"; ok $? "unknown pair: says so"
capture kprofctl add kretprobe:kprof_test_spin --defer
is "$rc" 2 "--defer on a kretprobe: usage error"
tid=$(kprofctl add tracepoint:irq:irq_handler_entry)
capture kprofctl show "$tid" --key 3
is "$rc" 2 "--key on a probe without keys: usage error"
echo "$err" | grep -q "no keys"; ok $? "--key on a probe without keys: says so"
kprofctl del "$tid"
i=0
while [ $i -lt 4 ]; do kprofctl add softirq >/dev/null || break; i=$((i + 1)); done
capture kprofctl add softirq
is "$rc" 1 "a fifth pair (max_pairs=4): exit 1"
echo "$err" | grep -q "too many pair probes (max 4"; ok $? "too many pairs: says the limit"
kprofctl del all
id=$(kprofctl add tracepoint:kprof_test:kprof_test_event --tgid $$ --start)
echo "event 3" >$T
is "$(count "$id")" 3 "after the errors the module still counts exactly"
kprofctl del "$id"

# ---- irq: the timer (or a device) IRQ, keyed by number and named
id=$(kprofctl add irq --start)
echo "irq 50" >$T
# x86 timers are system vectors, not IRQs: the UART's TX IRQ is the one
# that x86 guests see, so write to the console through the tty layer
for i in 1 2 3 4 5 6 7 8; do diag "irq: console output while the probe runs ($i)"; done
kprofctl stop "$id"
k=$(keys "$id" | head -n 1)
diag "irq keys: $(keys "$id" | tr '\n' ';')"
irq=$(echo "$k" | field 1) name=$(echo "$k" | field 2)
n=$(echo "$k" | field 3) p50=$(echo "$k" | field 4)
[ -n "$irq" ] && [ "$irq" -eq "$irq" ] 2>/dev/null && [ -n "$name" ] &&
	[ "${n:-0}" -gt 0 ] && [ "${p50:-0}" -gt 0 ]
ok $? "irq: busiest key is an IRQ number ($irq) with a name ($name) and a histogram ($n events)"
is "$(keys "$id" --key "$irq" | field 1)" "$irq" "show --key $irq selects it"
is "$(keys "$id" --key "$name" | field 1)" "$irq" "show --key $name (by name) selects it"
kprofctl show "$id" | grep -q "^  key $irq $name:"; ok $? "text output names the key"
kprofctl reset "$id"
is "$(keys "$id" | wc -l)" 0 "reset drops the keys"
kprofctl del "$id"

# ---- softirq: vectors named
id=$(kprofctl add softirq --start)
echo "irq 50" >$T
kprofctl stop "$id"
names=$(keys "$id" | field 2 | tr '\n' ' ')
echo " $names" | grep -Eq " (TIMER|RCU|SCHED|HRTIMER|NET_RX|BLOCK|TASKLET) "
ok $? "softirq: named vectors ($names)"
kprofctl del "$id"

# ---- workqueue: N items of known duration under their function's key
id=$(kprofctl add workqueue --start)
echo "work 20 0" >$T
base=$(keys "$id" --key kprof_test_work_fn | field 4)
kprofctl reset "$id"
D=400000
echo "work 64 $D" >$T
kprofctl stop "$id"
k=$(keys "$id" --key kprof_test_work_fn)
is "$(echo "$k" | field 2)" "kprof_test_work_fn [kprof_test]" "workqueue: key named by its function and module"
is "$(echo "$k" | field 3)" 64 "workqueue: exactly 64 items under kprof_test_work_fn"
p50=$(echo "$k" | field 4)
want=$((D + ${base:-0}))
diff=$((${p50:-0} - want))
[ ${diff#-} -le $((want / 16)) ]
ok $? "workqueue: p50 ${p50:-?} ns within 1/16 of ${want} ns (D $D + empty item $base)"
kprofctl del "$id"

# ---- wakeup: a ping-pong pair
id=$(kprofctl add wakeup --start)
pid=$(kprofctl add wakeup --per-pid --start)
capture /files/selftest pingpong 500
ok $rc "ping-pong ran 500 round trips"
kprofctl stop
k=$(keys "$id")
n=$(echo "$k" | field 3)
[ "${n:-0}" -ge 500 ]; ok $? "wakeup: ${n:-0} wakeups >= 500 round trips"
is "$(echo "$k" | field 1-2)" "0|all" "wakeup: one key, 'all'"
# the parent's key was named when it was woken as a forked "sh"
parent=${out% *} child=${out#* }
a=$(keys "$pid" --key "$parent" | awk -F'|' '{ print ($3 > 0) }')
b=$(keys "$pid" --key "$child" | awk -F'|' '{ print $2 " " ($3 > 0) }')
is "$a / $b" "1 / selftest 1" "wakeup --per-pid: both pids keyed, the child named by comm"
kprofctl del all

# ---- block: direct-I/O reads on null_blk, counted per device
if [ ! -e /sys/block/nullb0 ]; then
	insmod /files/configfs.ko 2>/dev/null
	insmod /files/null_blk.ko
fi
if [ -e /sys/block/nullb0 ]; then
	[ -b /dev/nullb0 ] || mknod /dev/nullb0 b $(tr ':' ' ' </sys/block/nullb0/dev)
	id=$(kprofctl add block --start)
	capture /files/selftest dio /dev/nullb0 100
	ok $rc "100 direct-I/O reads of nullb0"
	kprofctl stop "$id"
	dev=$(cat /sys/block/nullb0/dev)
	k=$(keys "$id" --key nullb0)
	is "$(echo "$k" | field 1-3)" "$dev|nullb0|100" "block: exactly 100 completions under $dev nullb0"
	p50=$(echo "$k" | field 4)
	[ "${p50:-0}" -gt 0 ]; ok $? "block: p50 ${p50:-0} ns"
	kprofctl del "$id"
else
	ok 1 "null_blk: no nullb0 (neither built in nor in /files)"
fi
exit $tap_fail
