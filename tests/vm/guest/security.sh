#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Security checks (tests/vm/guest/suite.sh); kprofctl and kprof_test loaded.
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger

id=$(kprofctl add kretprobe:kprof_test_spin --start)
echo "spin 10 1000" >$T

# a node opened up to everyone: reading is allowed (counts and latencies
# only, no addresses), every control command is still EPERM
chmod 0666 /dev/kprofctl
nob() { su -s /bin/sh nobody -c "$*"; }
capture nob kprofctl show "$id"
ok $rc "0666 node: an unprivileged user can read statistics"
for c in "add kprobe:kprof_test_nop" "del $id" "start" "stop" "reset"; do
	capture nob kprofctl $c
	is "$rc" 1 "0666 node: unprivileged '$c' is refused"
	echo "$err" | grep -q "permission denied: controlling probes needs root, CAP_PERFMON or CAP_SYS_ADMIN" ||
		ok 1 "  with the permission message"
done
# the expensive reading commands: listing tracepoints (a buffer of every
# name) needs CAP_PERFMON; a PMU refresh (an IPI to every CPU) runs at
# most once per 100 ms for unprivileged callers, and succeeds meanwhile
capture nob kprofctl list-tracepoints
is "$rc" 1 "0666 node: unprivileged list-tracepoints is refused"
echo "$err" | grep -q "list-tracepoints: permission denied: listing tracepoints needs root, CAP_PERFMON or CAP_SYS_ADMIN"
ok $? "  with a message saying what it needs"
capture kprofctl list-tracepoints
echo "$out" | grep -q "kprof_test:kprof_test_event"; ok $? "root lists tracepoints"
if pmu=$(kprofctl add pmu:cpu_cycles --start 2>/dev/null); then
	capture nob /files/selftest pmurate "$pmu"
	is "$rc" 0 "unprivileged: TRACEPOINTS is EPERM, back-to-back PMU_READs refresh once"
	echo "$out" | grep "^#"
	capture /files/selftest pmurate "$pmu"
	is "$rc" 0 "root: TRACEPOINTS works, every PMU_READ refreshes"
	echo "$out" | grep "^#"
	kprofctl del "$pmu"
else
	echo "ok - PMU_READ rate limit # SKIP this guest has no PMU"
fi
chmod 0600 /dev/kprofctl
capture kprofctl list
echo "$out" | grep -q "^ *$id  kretprobe  running"; ok $? "the probe survived every refused command"

# caller and stack keys, read by nobody: ids, never a frame or an address
ck=$(kprofctl add kretprobe:kprof_test_callee --key caller --start)
sk=$(kprofctl add kprobe:kprof_test_callee --key stack --start)
echo "callers 4" >$T
chmod 0666 /dev/kprofctl
capture nob kprofctl show --json
chmod 0600 /dev/kprofctl
echo "$out" | grep -q '"key":"caller #1"' && echo "$out" | grep -q '"key":"stack #1"'
ok $? "nobody reads caller #1 and stack #1"
echo "$out" | grep -qE 'kprof_test_caller|kprof_test_write|"stack":|(0x)?ffff[0-9a-f]{12}|[0-9]{15}'
ok $((! $?)) "and no frame name or kernel address through caller or stack"
# root too, where kptr_restrict=2 hides addresses from everyone
kr=$(cat /proc/sys/kernel/kptr_restrict)
capture kprofctl show --json
echo "$out" | grep -q '"key":"kprof_test_caller_a+0x' && echo "$out" | grep -q '"stack":\['
ok $? "root reads the caller's name and the stack's frames"
echo 2 >/proc/sys/kernel/kptr_restrict
capture kprofctl show --json
echo $kr >/proc/sys/kernel/kptr_restrict
echo "$out" | grep -q '"key":"caller #1"' && echo "$out" | grep -q '"key":"stack #1"' &&
	! echo "$out" | grep -qE 'kprof_test_caller|kprof_test_write|"stack":|(0x)?ffff[0-9a-f]{12}'
ok $? "with kptr_restrict=2 root reads ids only, as nobody does"

# no kernel address reaches userspace: CLI output and the mapping
all=$( (kprofctl status; kprofctl list; kprofctl show --per-cpu; kprofctl show --json) 2>&1)
echo "$all" | grep -qiE '(0x)?ffff[0-9a-f]{12}'
ok $((! $?)) "no kernel address in status, list, show, show --json"
/files/selftest kptr | grep -v "^TAP\|^1\.\." ; true
# the events group: what version and status report about it is what the
# kernel does to an unprivileged join; --stack only where it is restricted
capture kprofctl version
line=$(echo "$out" | sed -n 's/^events group: *//p')
nob /files/selftest nljoin >/dev/null
joined=$?
case $line in
restricted*) want=2 ;;
open*) want=0 ;;
*) want="a line 'events group: restricted|open' in version ('$line')" ;;
esac
is "$joined" "$want" "version's events group ($line) matches an unprivileged join"
status_line=$(kprofctl status | sed -n 's/^events group: *//p')
is "$status_line" "$line" "status reports the same"
capture kprofctl add kretprobe:kprof_test_spin --slow 1ms --stack
if [ "$joined" = 2 ]; then
	ok $rc "restricted group: --stack is accepted"
	[ "$rc" = 0 ] && kprofctl del "$out"
else
	[ "$rc" = 1 ] && echo "$err" | grep -q "any user could read the return addresses"
	ok $? "open group: --stack is refused, saying why"
fi
kprofctl del "$ck"
kprofctl del "$sk"
kprofctl del "$id"
exit $tap_fail
