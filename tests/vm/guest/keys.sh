#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Keys and filters (--key, --if) on kprobes, kretprobes and tracepoints
# (tests/vm/guest/suite.sh); kprofctl and kprof_test are loaded.
#
# "ret N" calls kprof_test_ret(sel, size) (sel + 1) x N times for sel 0-3:
# it returns 0, -EAGAIN, -EPROBE_DEFER, then size / 512 = 2048, with the
# sizes 100, 5000, 70000, 1048576, and less work for each sel than the last.
# Every count below is exact.
# shellcheck source=tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
N=7

keyfield() { # ID LABEL FIELD -> a number of that key
	kprofctl show "$1" --json >/tmp/keys.json
	sed -n 's/.*{"key":"'"$2"'","values":\[[^]]*\],"name":"[^"]*",\("[^{]*\).*/\1/p' /tmp/keys.json |
		sed -n 's/.*"'"$3"'":\([0-9]*\).*/\1/p'
}
nkeys() { # ID -> keys shown
	kprofctl show "$1" --json | grep -o '{"key":' | wc -l
}

# ---- retval: one key per return value, errno names, latencies apart
id=$(kprofctl add kretprobe:kprof_test_ret --key retval --tgid $$ --start)
ok $? "add kretprobe:kprof_test_ret --key retval"
echo "ret $N" >$T
is "$(count "$id")" $((10 * N)) "the probe's total: all $((10 * N)) calls"
is "$(keycount "$id" 0)" $N "retval 0: $N calls"
is "$(keycount "$id" '-EAGAIN (-11)')" $((2 * N)) "-EAGAIN (-11): $((2 * N)) calls"
is "$(keycount "$id" '-EPROBE_DEFER (-517)')" $((3 * N)) "-EPROBE_DEFER (-517): $((3 * N)) calls"
is "$(keycount "$id" 2048)" $((4 * N)) "2048 (a count): $((4 * N)) calls"
is "$(nkeys "$id")" 4 "four keys, nothing else"
# less work per sel: each key's median below the last one's (the medians
# of 7+ calls stand even when the other vCPU stretches a few)
p0=$(keyfield "$id" 0 p50_ns)
p1=$(keyfield "$id" '-EAGAIN (-11)' p50_ns)
p2=$(keyfield "$id" '-EPROBE_DEFER (-517)' p50_ns)
[ -n "$p2" ] && [ "$p0" -gt "$p1" ] && [ "$p1" -gt "$p2" ]
ok $? "latency per retval: p50 0 ($p0) > -EAGAIN ($p1) > -EPROBE_DEFER ($p2)"
kprofctl show "$id" >/tmp/keys.txt
grep -q '^  by retval: 4 keys (of ' /tmp/keys.txt &&
	grep -q '^  key -EPROBE_DEFER (-517):$' /tmp/keys.txt
ok $? "show: 'by retval: 4 keys', 'key -EPROBE_DEFER (-517):'"
kprofctl show "$id" --key -EPROBE_DEFER >/tmp/keys.txt
[ "$(grep -c '^  key ' /tmp/keys.txt)" = 1 ] &&
	grep -q "^    count $((3 * N)) " /tmp/keys.txt
ok $? "show --key -EPROBE_DEFER: that key alone, $((3 * N)) calls"
kprofctl show "$id" --key=-517 | grep -q '^  key -EPROBE_DEFER (-517):$'
ok $? "show --key=-517: the same key by number"
# --sort mean orders by the mean each key shows; which key is slowest is
# timing (one call a debug kernel stretches moves a 7-call mean), the
# order of the shown means is not
kprofctl show "$id" --sort mean --json | grep -o '{"key":"[^"]*"' |
	sed 's/^{"key":"//; s/"$//' >/tmp/keys.order
prev='' sorted=0 means=''
while read -r k; do
	m=$(keyfield "$id" "$k" mean_ns)
	means="$means $k=$m"
	[ -n "$m" ] || sorted=1
	[ -z "$prev" ] || [ "${m:-0}" -le "$prev" ] || sorted=1
	prev=$m
done </tmp/keys.order
[ "$(wc -l </tmp/keys.order)" = 4 ] && [ $sorted = 0 ]
ok $? "--sort mean: four keys, their means non-increasing ($means)"
kprofctl show "$id" --sort count --top 1 --json | grep -o '{"key":"[^"]*"' >/tmp/keys.txt
is "$(cat /tmp/keys.txt)" '{"key":"2048"' "--sort count --top 1: the busiest key alone"
# stop and start keep every key, its label and counts (issue 12's pair
# relabelling, on the generic table): the same four keys, twice the calls
kprofctl stop "$id" && kprofctl start "$id" && echo "ret $N" >$T
kprofctl stop "$id" && kprofctl start "$id"
is "$(keycount "$id" 0):$(keycount "$id" '-EAGAIN (-11)'):$(keycount "$id" '-EPROBE_DEFER (-517)'):$(keycount "$id" 2048):$(nkeys "$id")" \
	"$((2 * N)):$((4 * N)):$((6 * N)):$((8 * N)):4" \
	"stop, start, $N more rounds, stop, start: each key twice its calls, still four"
kprofctl del "$id"

# ---- retval:bool
id=$(kprofctl add kretprobe:kprof_test_ret --key retval:bool --tgid $$ --start)
echo "ret $N" >$T
is "$(keycount "$id" ok)" $((5 * N)) "retval:bool: ok $((5 * N))"
is "$(keycount "$id" error)" $((5 * N)) "retval:bool: error $((5 * N))"
kprofctl del "$id"

# ---- arguments, at entry: a kretprobe keeps them to its return
id=$(kprofctl add kretprobe:kprof_test_ret --key arg1 --key arg2:log2 --tgid $$ --start)
ok $? "add --key arg1 --key arg2:log2 (two keys)"
kprofctl list | grep -q " tgid=$$ maxactive=[0-9]* key=arg1,arg2:log2 *kretprobe:kprof_test_ret$"
ok $? "list: key=arg1,arg2:log2 among the filters"
echo "ret $N" >$T
is "$(keycount "$id" '0, 64..127')" $N "arg1 0, arg2 64..127: $N"
is "$(keycount "$id" '1, 4096..8191')" $((2 * N)) "arg1 1, arg2 4096..8191: $((2 * N))"
is "$(keycount "$id" '2, 65536..131071')" $((3 * N)) "arg1 2, arg2 65536..131071: $((3 * N))"
is "$(keycount "$id" '3, 1048576..2097151')" $((4 * N)) "arg1 3, arg2 1048576..2097151: $((4 * N))"
kprofctl del "$id"
id=$(kprofctl add kprobe:kprof_test_ret --key arg2 --tgid $$ --start)
echo "ret $N" >$T
is "$(keycount "$id" 70000)" $((3 * N)) "kprobe --key arg2: 70000 hit $((3 * N)) times"
is "$(nkeys "$id")" 4 "and four keys"
kprofctl del "$id"

# ---- filters, in probe context
id=$(kprofctl add kretprobe:kprof_test_ret --if 'retval<0' --start)
echo "ret $N" >$T
is "$(count "$id")" $((5 * N)) "--if 'retval<0': exactly the $((5 * N)) error calls"
kprofctl show "$id" | grep -q '^  only calls where retval<0$'
ok $? "show says which calls it keeps"
kprofctl list | grep -q " maxactive=[0-9]* if=retval<0 *kretprobe:kprof_test_ret$"
ok $? "list: if=retval<0 among the filters"
kprofctl del "$id"
id=$(kprofctl add kretprobe:kprof_test_ret --if "arg2>=4096 && pid==$$" --start)
echo "ret $N" >$T
sh -c "echo 'ret $N' >$T"	# another pid: filtered out
is "$(count "$id")" $((9 * N)) "--if 'arg2>=4096 && pid==\$\$': exactly $((9 * N))"
kprofctl del "$id"
# every operator, signed and unsigned, at the edges of the values
iff() { # EXPR WANT
	i=$(kprofctl add kretprobe:kprof_test_ret --if "$1" --tgid $$ --start)
	echo "ret $N" >$T
	is "$(count "$i")" "$2" "--if '$1': $2"
	kprofctl del "$i"
}
iff 'arg2<=5000 && arg2>100 && arg1!=2' $((2 * N))
iff 'arg2&0x10000' $((3 * N))
iff 'retval<=-12' $((3 * N))
iff 'retval>-517 && retval<2048' $((3 * N))
iff 'retval>=2048' $((4 * N))
iff 'arg1>9223372036854775807' 0
iff 'arg1<-9223372036854775808' 0
iff 'arg1>=-9223372036854775808' $((10 * N))
iff 'retval<-2147483648' 0
iff 'retval:64<0' 0
iff 'latency>0 && cpu>=0' $((10 * N))
id=$(kprofctl add kprobe:kprof_test_ret --if 'arg1==2' --key retval 2>/tmp/keys.err)
[ -z "$id" ] && grep -q 'retval keys only on kretprobes' /tmp/keys.err
ok $? "a retval key on a kprobe is refused with why"
id=$(kprofctl add kprobe:kprof_test_ret --if 'arg1==2' --start)
echo "ret $N" >$T
is "$(count "$id")" $((3 * N)) "kprobe --if 'arg1==2': $((3 * N))"
kprofctl del "$id"
# task and argument terms are a kprobe's first test, cpu and comm its
# second: both halves, and calls from another task
id=$(kprofctl add kprobe:kprof_test_ret --if "pid==$$ && arg1!=2" --start)
echo "ret $N" >$T
sh -c "echo 'ret $N' >$T"
is "$(count "$id")" $((7 * N)) "kprobe --if 'pid==\$\$ && arg1!=2': $((7 * N)), none from another pid"
kprofctl del "$id"
id=$(kprofctl add kprobe:kprof_test_ret --if 'arg1==2 && comm==kpkeys && cpu<4096' --start)
echo "ret $N" >$T
sh -c "printf kpkeys >/proc/\$\$/comm; echo 'ret $N' >$T"
is "$(count "$id")" $((3 * N)) "kprobe --if 'arg1==2 && comm==kpkeys && cpu<4096': $((3 * N))"
kprofctl del "$id"
capture kprofctl add kretprobe:kprof_test_ret --if 'retval<0 && arg9>1'
[ "$rc" = 2 ] && echo "$err" | grep -q 'arg9' && echo "$err" | grep -q '\^'
ok $? "a syntax error names the bad term and points at it"

# ---- caller: one function called from two known callers
for kind in kprobe kretprobe; do
	id=$(kprofctl add $kind:kprof_test_callee --key caller --tgid $$ --start)
	ok $? "add $kind:kprof_test_callee --key caller"
	echo "callers $N" >$T
	kprofctl show "$id" --json >/tmp/keys.json
	a=$(sed -n 's/.*{"key":"kprof_test_caller_a+0x[0-9a-f]*","values":\[[0-9]*\],"name":"","count":\([0-9]*\)[,}].*/\1/p' /tmp/keys.json)
	b=$(sed -n 's/.*{"key":"kprof_test_caller_b+0x[0-9a-f]*","values":\[[0-9]*\],"name":"","count":\([0-9]*\)[,}].*/\1/p' /tmp/keys.json)
	is "$a:$b:$(nkeys "$id")" "$N:$((2 * N)):2" "$kind --key caller: caller_a $N, caller_b $((2 * N)), by name"
	kprofctl show "$id" --key kprof_test_caller_b | grep -q "^    count $((2 * N)) "
	ok $? "$kind: show --key kprof_test_caller_b: that caller's calls"
	# no CAP_SYSLOG: ids only, and no address anywhere
	chmod 0666 /dev/kprofctl
	su -s /bin/sh nobody -c "kprofctl show $id --json" >/tmp/keys.json
	su -s /bin/sh nobody -c "kprofctl show $id" >/tmp/keys.txt
	chmod 0600 /dev/kprofctl
	grep -q '{"key":"caller #1","values":\[1\],"name":"","count":'"$N"'[,}]' /tmp/keys.json &&
		grep -q '{"key":"caller #2","values":\[2\],"name":"","count":'"$((2 * N))"'[,}]' /tmp/keys.json &&
		! grep -q 'kprof_test_caller' /tmp/keys.json &&
		grep -q '^  callers and stacks are ids: their frames need CAP_SYSLOG' /tmp/keys.txt
	ok $? "$kind: an unprivileged reader sees caller #1 ($N) and #2 ($((2 * N))), no names"
	! grep -q 'ffff' /tmp/keys.json && ! grep -q '[0-9]\{15,\}' /tmp/keys.json
	ok $? "$kind: and no kernel address"
	kprofctl del "$id"
done
# ---- stack: the same function through two call paths
for kind in kprobe kretprobe; do
	id=$(kprofctl add $kind:kprof_test_callee --key stack --tgid $$ --start)
	ok $? "add $kind:kprof_test_callee --key stack"
	echo "callers $N" >$T
	is "$(nkeys "$id")" 2 "$kind --key stack: two stacks"
	kprofctl show "$id" --folded >/tmp/keys.folded
	# outermost first: ...;kprof_test_write;kprof_test_caller_X;kprof_test_callee N
	a=$(grep -c ';kprof_test_write;kprof_test_caller_a;kprof_test_callee '"$N"'$' /tmp/keys.folded)
	b=$(grep -c ';kprof_test_write;kprof_test_caller_b;kprof_test_callee '"$((2 * N))"'$' /tmp/keys.folded)
	is "$a:$b:$(grep -c . /tmp/keys.folded)" 1:1:2 "$kind --folded: caller_a's path $N, caller_b's $((2 * N)), nothing else"
	if [ "$a:$b" != 1:1 ]; then sed 's/^/# /' /tmp/keys.folded; fi
	! grep -v '^[a-zA-Z_0-9.]*\(;[a-zA-Z_0-9.]*\)* [0-9][0-9]*$' /tmp/keys.folded
	ok $? "$kind --folded: every line is frames joined by ';', a space, a count"
	# x86 with IBT probes past the endbr64: +0x4
	kprofctl show "$id" --json | grep -q '"stack":\["kprof_test_callee+0x[04]","kprof_test_caller_b+0x'
	ok $? "$kind --json: the busiest stack's frames, the function first"
	chmod 0666 /dev/kprofctl
	su -s /bin/sh nobody -c "kprofctl show $id --json" >/tmp/keys.json
	capture su -s /bin/sh nobody -c "kprofctl show $id --folded"
	chmod 0600 /dev/kprofctl
	grep -q '{"key":"stack #1","values":\[1\],"name":"","count":'"$N"'[,}]' /tmp/keys.json &&
		! grep -q 'kprof_test_caller\|kprof_test_write\|"stack":' /tmp/keys.json &&
		! grep -q '[0-9]\{15,\}' /tmp/keys.json
	ok $? "$kind: an unprivileged reader sees stack #1 and #2, no frame, no address"
	[ "$rc" = 1 ] && echo "$err" | grep -q 'needs CAP_SYSLOG'
	ok $? "$kind: and --folded says it needs root"
	kprofctl del "$id"
done
id=$(kprofctl add tracepoint:kprof_test:kprof_test_event --key stack --start)
echo "event 9" >$T
kprofctl show "$id" --folded >/tmp/keys.folded
grep -q ';kprof_test_write;[a-z_0-9]*kprof_test_event 9$\|;kprof_test_write 9$' /tmp/keys.folded
ok $? "tracepoint --key stack: 9 events, from kprof_test_write"
sed 's/^/# /' /tmp/keys.folded
kprofctl del "$id"
capture kprofctl show 1 --folded
[ "$rc" != 0 ]
ok $? "--folded without a stack key is refused"
capture kprofctl add kprobe:kprof_test_callee+4 --key caller
[ "$rc" != 0 ]
ok $? "a caller key past the entry (+4) is refused"
capture kprofctl add tracepoint:kprof_test:kprof_test_event --key caller
[ "$rc" = 2 ] && echo "$err" | grep -q 'caller keys only on kprobes and kretprobes'
ok $? "a caller key on a tracepoint is refused with why"

# ---- tracepoint: pid, comm and cpu keys for two known processes; the
# second renames itself (/proc/PID/comm) before its events
id=$(kprofctl add tracepoint:kprof_test:kprof_test_event --key pid --start)
ok $? "add tracepoint --key pid"
echo "event 30" >$T
sh -c "printf kpkeys >/proc/\$\$/comm; echo \$\$ >/tmp/kpkeys.pid; echo 'event 20' >$T"
p2=$(cat /tmp/kpkeys.pid)
is "$(keycount "$id" $$)" 30 "pid $$: 30 events"
is "$(keycount "$id" "$p2")" 20 "pid $p2: 20 events"
kprofctl show "$id" --json | grep -q '{"key":"'"$p2"'","values":\['"$p2"'\],"name":"kpkeys"'
ok $? "pid $p2 is named by its comm"
kprofctl del "$id"
id=$(kprofctl add tracepoint:kprof_test:kprof_test_event --key comm --if 'comm!=sh' --start)
echo "event 30" >$T
sh -c "printf kpkeys >/proc/\$\$/comm; echo 'event 20' >$T"
is "$(keycount "$id" kpkeys)" 20 "--key comm --if 'comm!=sh': kpkeys 20"
is "$(nkeys "$id")" 1 "and sh filtered out"
kprofctl del "$id"
if [ "$(nproc)" -ge 2 ]; then
	id=$(kprofctl add tracepoint:kprof_test:kprof_test_event --key cpu --start)
	taskset 1 sh -c "echo 'event 11' >$T"
	taskset 2 sh -c "echo 'event 13' >$T"
	is "$(keycount "$id" 0):$(keycount "$id" 1)" 11:13 "--key cpu: 11 events on cpu0, 13 on cpu1"
	kprofctl del "$id"
else
	echo "ok - --key cpu # SKIP one CPU"
fi

# ---- a table of 1 key: the rest is 'other keys', never lost
id=$(kprofctl add kretprobe:kprof_test_ret --key retval --keys 1 --tgid $$ --start)
echo "ret $N" >$T
kprofctl show "$id" --json >/tmp/keys.json
other=$(sed -n 's/.*"other_keys":{"beyond":1,"count":\([0-9]*\).*/\1/p' /tmp/keys.json)
is "$(nkeys "$id")" 1 "--keys 1: one key"
is "$(( $(keycount "$id" 0) + other ))" $((10 * N)) "the key and 'other keys' add up to $((10 * N))"
kprofctl show "$id" | grep -q 'the table is full, add the probe again with --keys 2'
ok $? "show says the table is full and what to do"
kprofctl del "$id"

# ---- key tables are pair slots: when all are taken, add says so
ids=
while i=$(kprofctl add kprobe:kprof_test_nop --key pid 2>/tmp/keys.err); do
	ids="$ids $i"
done
grep -q '^kprofctl add: no free slot: a probe with --key takes a key table' /tmp/keys.err
ok $? "out of key tables ($(echo $ids | wc -w) taken): add says what and how many"
for i in $ids; do kprofctl del "$i"; done
is "$(kprofctl list | grep -c key=)" 0 "and no half-added probe is left"

# ---- no raw kernel address in a key: every pointer is one key
id=$(kprofctl add kretprobe:kprof_test_ptr --key retval:64 --tgid $$ --start)
echo "ptr 10" >$T
is "$(keycount "$id" 'kernel pointer')" 5 "retval:64 of a pointer: 'kernel pointer' 5"
is "$(keycount "$id" '-ENOMEM (-12)')" 5 "and ERR_PTR(-ENOMEM) by name: 5"
kprofctl del "$id"
id=$(kprofctl add kretprobe:kprof_test_ptr --key retval --key arg1 --tgid $$ --start)
echo "ptr 10" >$T
is "$(keycount "$id" 'kernel pointer, 4')" 1 "retval (s32) of a pointer: no low half shown either"
# no value at or above 0xff00000000000000 but the marker (and errnos)
vals=$(kprofctl show "$id" --json | grep -o '"values":\[[^]]*\]')
echo "$vals" | grep -q '"kernel pointer"' && ! echo "$vals" | grep -q '"values":\[[0-9]\{17,\}'
ok $? "the JSON has no kernel address among the key values"
kprofctl del "$id"

exit $tap_fail
