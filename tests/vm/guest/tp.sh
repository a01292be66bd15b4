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
# ---- tracepoint:SUBSYS:NAME: SUBSYS is checked against NAME's trace event
capture kprofctl add tracepoint:foo:sched_switch
is "$rc" 1 "tracepoint:foo:sched_switch (wrong subsystem): exit 1"
echo "$err" | grep -q "no tracepoint named in 'tracepoint:foo:sched_switch'"
ok $? "wrong subsystem: says there is no such tracepoint"
dmesg | grep -q "tracepoint sched_switch is not in subsystem foo"
ok $? "wrong subsystem: the kernel log says why"
capture kprofctl add tracepoint:irq:sched_switch
is "$rc" 1 "tracepoint:irq:sched_switch (another real subsystem): exit 1"
# "*:NAME": by name whatever the subsystem, and the only way to name a
# tracepoint without a trace event
id=$(kprofctl add 'tracepoint:*:sched_process_fork' --tgid $$ --start)
ok $? "tracepoint:*:sched_process_fork is accepted"
for i in 1 2 3; do /bin/true; done
is "$(count "$id")" 4 "tracepoint:*:sched_process_fork: 3 forks + 1 counted"
kprofctl del "$id"
capture kprofctl add tracepoint:sched:sched_update_nr_running_tp
is "$rc" 1 "a tracepoint without a trace event has no subsystem to name"
id=$(kprofctl add 'tracepoint:*:sched_update_nr_running_tp' --start)
ok $? "tracepoint:*:sched_update_nr_running_tp (no trace event) is accepted"
for i in 1 2 3; do /bin/true; done
[ "$(count "$id")" -gt 0 ]
ok $? "and counts"
kprofctl del "$id"
id=$(kprofctl add tracepoint:sched:sched_switch)
ok $? "tracepoint:sched:sched_switch (its own subsystem) is accepted"
kprofctl del "$id"
capture kprofctl add tracepoint:sched:kprof_test_event
is "$rc" 1 "a module's tracepoint under a wrong subsystem: exit 1"
id=$(kprofctl add tracepoint:kprof_test:kprof_test_event --tgid $$ --start)
echo "event 9" >$T
is "$(count "$id")" 9 "a module's tracepoint under its own subsystem counts"
kprofctl del "$id"
rmmod kprof_test
bad=$(kprofctl add tracepoint:foo:kprof_test_event --defer --start)
ok $? "--defer with a wrong subsystem: pending until the module loads"
id=$(kprofctl add tracepoint:kprof_test:kprof_test_event --defer --tgid $$ --start)
insmod $KO
is "$(state "$bad")" pending "module loaded: the wrong-subsystem probe stays pending"
dmesg | grep -q "probe $bad (tracepoint:foo:kprof_test_event): module kprof_test loaded, but tracepoint kprof_test_event is not in subsystem foo"
ok $? "and the kernel log says why"
is "$(state "$id")" running "the right-subsystem probe attaches and runs"
echo "event 4" >$T
is "$(count "$id") $(count "$bad")" "4 0" "only the right-subsystem probe counts"
kprofctl del "$id"
kprofctl del "$bad"

# ---- pair keys across STOP/START: a key keeps its slot, name and counts
# (new work functions each round must not take over older keys' slots)
wname() { echo "kprof_test_wfn$(($1 / 16))$(($1 / 4 % 4))$(($1 % 4)) [kprof_test]"; }
wcount() { # ID NAME -> its counts, "+"-joined if the name is on several keys
	keys "$1" | awk -F'|' -v f="$2" \
		'$2 == f { c = c (c == "" ? "" : "+") $3 } END { print (c == "" ? 0 : c) }'
}
nk=$(cat /sys/module/kprofctl/parameters/pair_keys)
id=$(kprofctl add workqueue --start)
echo "workcoll 1 $nk 3" >$T
ok $? "work on the first of two work functions whose keys share a home slot"
kprofctl stop "$id" && kprofctl start "$id"
echo "workcoll 2 $nk 4" >$T
kprofctl stop "$id"
# "workcoll: F1 [kprof_test] and F2 [kprof_test] share home slot S of K"
pair=$(dmesg | grep "workcoll: " | tail -n 1 |
	sed 's/.*workcoll: \(.*\) and \(.*\) share home slot.*/\1|\2/')
a=${pair%|*} b=${pair#*|}
is "$(wcount "$id" "$a") $(wcount "$id" "$b")" "3 4" \
	"stop/start: a new key ($b) does not take over an older key's slot ($a)"
kprofctl del "$id"
id=$(kprofctl add workqueue --start)
echo "workfn 0 4 3" >$T
kprofctl stop "$id" && kprofctl start "$id"
echo "workfn 4 4 3" >$T
kprofctl stop "$id" && kprofctl start "$id"
echo "workfn 8 4 3" >$T
kprofctl stop "$id" && kprofctl start "$id"
echo "workfn 12 4 3" >$T
kprofctl stop "$id" && kprofctl start "$id"
echo "workfn 2 12 2" >$T
kprofctl stop "$id"
got=
for n in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
	got="$got $n:$(wcount "$id" "$(wname $n)")"
done
is "$got" " 0:3 1:3 2:5 3:5 4:5 5:5 6:5 7:5 8:5 9:5 10:5 11:5 12:5 13:5 14:3 15:3" \
	"workqueue after 5 x stop/start: every function's count exact, one key each"
dup=$(keys "$id" | field 2 | sort | uniq -d | tr '\n' ';')
is "$dup" "" "no key name appears twice"
kprofctl reset "$id"
is "$(keys "$id" | wc -l)" 0 "reset still drops the keys"
kprofctl start "$id"
echo "workfn 5 1 7" >$T
kprofctl stop "$id"
is "$(wcount "$id" "$(wname 5)")" 7 "after reset a key starts again from 0"
kprofctl del "$id"

# ---- syscall tracepoints run preemptible (6.13+ faultable; on RT 7.0+
# with only migration disabled): six tasks on one CPU, preempting each
# other inside the callback under a wakeup storm, lose no count.  dd makes
# a read and a write per byte, plus a fixed few of its own: two rounds'
# difference is exact.
if ! grep -q "^raw_syscalls:sys_enter$" /sys/kernel/tracing/available_events 2>/dev/null; then
	echo "ok - syscall tracepoints under preemption # SKIP no raw_syscalls:sys_enter here"
else
	id=$(kprofctl add tracepoint:raw_syscalls:sys_enter --if 'comm==dd' --start)
	ok $? "add tracepoint:raw_syscalls:sys_enter --if 'comm==dd'"
	storm() { # BYTES: six dd's of BYTES one-byte copies on cpu0, a storm beside
		kprofctl reset "$id"
		for i in 1 2 3 4 5 6; do
			taskset 1 dd if=/dev/zero of=/dev/null bs=1 count="$1" 2>/dev/null &
		done
		taskset 1 sh -c "echo 'wakestorm 20000' >$T"
		wait
		count "$id"
	}
	a=$(storm 5000)
	b=$(storm 15000)
	is "$((b - a))" 120000 "sys_enter: six dd's on one CPU under a storm, 120000 more syscalls counted ($a, then $b)"
	kprofctl del "$id"
fi

# ---- wakeup latencies never wrap: sched_wakeup fired from a hard IRQ lands
# inside sched_switch callbacks (between their clock read and the take)
id=$(kprofctl add wakeup --start)
pid=$(kprofctl add wakeup --per-pid --start)
echo "wakestorm 20000" >$T
ok $? "20000 wakeup/switch pairs of this shell with IRQ wakeups in between"
kprofctl stop
for p in "$id" "$pid"; do
	kprofctl show "$p" --json |
		grep -o '"count":[0-9]*,"min_ns":[0-9]*,"max_ns":[0-9]*,"sum_ns":[0-9]*' |
		sed 's/"count":\([0-9]*\),"min_ns":[0-9]*,"max_ns":\([0-9]*\),"sum_ns":\([0-9]*\)/\1 \2 \3/'
done >/tmp/tp-wake.$$
n=$(awk '$1 > 0' /tmp/tp-wake.$$ | wc -l)
big=$(awk '$1 > 0 && (length($2) > 12 || length($3) > 15)' /tmp/tp-wake.$$ | head -n 3 | tr '\n' ';')
[ "$n" -gt 0 ] && [ -z "$big" ]
ok $? "wakeup: every max_ns < 10^12 and sum_ns < 10^15 over $n blocks${big:+ (wrapped: $big)}"
{ kprofctl show "$id"; kprofctl show "$pid"; } | grep -q ">= [0-9.]*[mun]*s *: *[1-9]"
is $? 1 "wakeup: nothing in the overflow bucket"
rm -f /tmp/tp-wake.$$
kprofctl del all
exit $tap_fail
