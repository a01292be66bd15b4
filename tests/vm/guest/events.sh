#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Slow-call events and the generic netlink family (tests/vm/guest/suite.sh);
# kprofctl and kprof_test are loaded.
# shellcheck source=tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
KO=/kmod/kmod/kprof_test.ko
F=/tmp/watch.fifo
rm -f $F
mkfifo $F

ring=$(kprofctl status | sed -n 's/^slow-call ring: *\([0-9]*\) records per CPU/\1/p')
[ -n "$ring" ]
ok $? "status reports the slow-call ring ($ring records per CPU)"
kprofctl status | grep -q "^netlink events: *available"
ok $? "status: netlink family available"

# ---- N slow calls give exactly N events, with pid, comm and latency
N=20
D=200000
watch --count $((N + 1))
ok $? "watch --json listens"
id=$(kprofctl add kretprobe:kprof_test_spin --slow 100us --tgid $$ --start)
ok $? "add kretprobe:kprof_test_spin --slow 100us"
# Interrupts off in each call.  No "fast calls give no events" here: under
# icount a 1 us call stretches past 100 us whenever the other vCPU runs
# meanwhile, its event is real, and it would take one of the N places.
echo "spinoff $N $D" >$T
collect
is "$wrc" 0 "watch exits after its count"
is "$(echo "$out" | grep -c '"type":"registered","probe":'"$id")" 1 "one registered event for probe $id"
slow=$(echo "$out" | grep '"type":"slow"')
is "$(echo "$slow" | grep -c .)" "$N" "exactly $N slow-call events"
is "$(echo "$slow" | grep -c '"pid":'"$$"',"tgid":'"$$"',"comm":"sh","probe":'"$id")" "$N" \
	"each with this shell's pid, tgid and comm, and the probe id"
is "$(echo "$slow" | grep -c '"probe":'"$id"',"spec":"kretprobe:kprof_test_spin","latency_ns":')" "$N" \
	"each names the probe's spec"
# Under icount guest time counts every vCPU's instructions, and the other
# CPU drains and sends meanwhile: no upper bound per call, but each is at
# least D and together they are exactly what the histogram recorded.
inrange=$(echo "$slow" | field latency_ns | awk -v d=$D '$1 >= d' | wc -l)
is "$inrange" "$N" "each latency at least D"
lsum=$(echo "$slow" | field latency_ns | awk '{ s += $1 } END { print s + 0 }')
hsum=$(kprofctl show "$id" --json | grep -o '"sum_ns":[0-9]*' | head -n 1 | cut -d: -f2)
is "$lsum" "$hsum" "the events' latencies add up to the histogram's sum"
js=$(kprofctl show "$id" --json)
echo "$js" | grep -q '"slow_ns":100000,"slow_events":'"$N"',"slow_dropped":0'
ok $? "the mapping counts $N events sent, none dropped"
kprofctl show "$id" | grep -q "slow calls (>= 100us): $N sent to watch, 0 dropped"
ok $? "show prints them"

# stacks: symbolised, the probed function's caller first
kprofctl del "$id"
watch --count 2
id=$(kprofctl add kretprobe:kprof_test_spin --slow 100us --stack --tgid $$ --start)
echo "spin 1 $D" >$T
collect
echo "$out" | grep '"type":"slow"' | grep -q '"probe":'"$id"',"spec":"kretprobe:kprof_test_spin",.*"stack":\["kprof_test_spin","kprof_test_write+0x'
ok $? "--stack --json: the record names the spec; frame 0 is the function, then its caller"
kprofctl del "$id"
# the same in text: the spec on the event line, the function first
kprofctl watch --count 2 >$F &
wpid=$!
fifo_open "3<$F"
read -r first <&3
case $first in "# listening to"*) r=0 ;; *) r=1 ;; esac
ok $r "watch (text) listens"
id=$(kprofctl add kretprobe:kprof_test_spin --slow 100us --stack --tgid $$ --start)
echo "spin 1 $D" >$T
collect
is "$(echo "$out" | grep -c "^probe $id kretprobe:kprof_test_spin: registered$")" 1 \
	"text: the registered line names the spec"
is "$(echo "$out" | grep -c " sh/$$ probe $id kretprobe:kprof_test_spin [0-9.]*[mun]*s$")" 1 \
	"text: the slow-call line names the spec"
is "$(echo "$out" | sed -n '3,4p' | tr -d ' ' | sed 's/+0x.*//' | tr '\n' ' ')" \
	"kprof_test_spin kprof_test_write " "text: frame 0 is the function, frame 1 its caller"
kprofctl del "$id"
# kernel addresses hidden (kptr_restrict 2 hides them from root too):
# frame 0 is still the function, by name; the rest is "?", no address
kr=$(cat /proc/sys/kernel/kptr_restrict)
echo 2 >/proc/sys/kernel/kptr_restrict
watch --count 2
id=$(kprofctl add kretprobe:kprof_test_spin --slow 100us --stack --tgid $$ --start)
echo "spin 1 $D" >$T
collect
echo "$kr" >/proc/sys/kernel/kptr_restrict
slow=$(echo "$out" | grep '"type":"slow"')
echo "$slow" | grep -q '"spec":"kretprobe:kprof_test_spin",.*"stack":\["kprof_test_spin","?"'
ok $? "kptr_restrict 2: frame 0 is the function's name, the caller '?'"
is "$(echo "$slow" | grep -c '0x\|"stack":\[[^]]*"[^"?]*[0-9a-f]\{8\}')" 0 \
	"kptr_restrict 2: no kernel address in the record"
kprofctl del "$id"

# ---- a keyed probe's slow call names its key as show does
watch --count 4
id=$(kprofctl add kretprobe:kprof_test_retc --key retval --slow 1ns --tgid $$ --start)
echo "retc 3" >$T
collect
is "$(echo "$out" | grep -c '"type":"slow",.*"probe":'"$id"',.*"key":18446744073709551605,"key_label":"-EAGAIN (-11)"')" 3 \
	"3 slow calls of a --key retval probe: key -11 labelled -EAGAIN (-11)"
kprofctl del "$id"

# ---- overflow is exact: one burst with interrupts off, no drain between
M=$((ring * 2 + 37))
watch --count $((M + 1))
id=$(kprofctl add kretprobe:kprof_test_loop --slow 1ns --tgid $$ --start)
echo "loopoff $M 10" >$T
collect
got=$(echo "$out" | grep -c '"type":"slow"')
drop=$(echo "$out" | grep '"type":"losses"' | field dropped | awk '{ s += $1 } END { print s + 0 }')
is "$((got + drop))" "$M" "received $got + reported dropped $drop == $M calls"
is "$got" "$ring" "the ring held exactly $ring"
kprofctl show "$id" --json | grep -q '"slow_events":'"$ring"',"slow_dropped":'"$((M - ring))"
ok $? "the mapping agrees: $ring sent, $((M - ring)) dropped"
kprofctl del "$id"

# ---- list over netlink; a malformed request is refused with extack
id=$(kprofctl add kretprobe:kprof_test_spin --slow 1ms)
capture kprofctl list --netlink
echo "$out" | grep -q "^$id  *kretprobe  *stopped .* kretprobe:kprof_test_spin$"
ok $? "list --netlink shows the probe"
/files/selftest nlbad | grep -v "^TAP\|^1\.\." ; true
kprofctl del "$id"

# ---- the scheduler path: every wakeup and switch is slow, under load
watch --count 300
id=$(kprofctl add wakeup --slow 1ns --start)
id2=$(kprofctl add kretprobe:try_to_wake_up --slow 1ns --start)
/files/selftest pingpong 3000 >/dev/null
collect
is "$wrc" 0 "wakeup pair and try_to_wake_up at --slow 1ns under load: watch got 300"
kprofctl del "$id"
kprofctl del "$id2"

# ---- a probe whose module goes away: gone
id=$(kprofctl add kretprobe:kprof_test_nop --slow 1ms --start)
watch --count 1
rmmod kprof_test
collect
echo "$out" | grep -q '"type":"gone","probe":'"$id"',"spec":"kretprobe:kprof_test_nop"'
ok $? "rmmod kprof_test: gone event for probe $id"
insmod $KO
kprofctl del "$id"

# ---- Ctrl-C ends watch cleanly
watch
kill -INT $wpid
collect
is "$wrc" 0 "watch exits 0 on SIGINT"

# ---- permissions: joining the group and GET_PROBES need privileges
chmod 0666 /dev/kprofctl
nob() { su -s /bin/sh nobody -c "$*"; }
capture nob kprofctl watch
[ "$rc" = 1 ] && echo "$err" | grep -q "cannot join the 'events' group" && r=0 || r=1
ok $r "unprivileged watch is refused"
capture nob kprofctl list --netlink
[ "$rc" = 1 ] && echo "$err" | grep -q "needs CAP_NET_ADMIN" && r=0 || r=1
ok $r "unprivileged list --netlink is refused"
chmod 0600 /dev/kprofctl
nob /files/selftest nlperm | grep -v "^TAP\|^1\.\." ; true
exit $tap_fail
