#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PMU counters (tests/vm/guest/suite.sh); kprofctl and kprof_test are
# loaded.  Under QEMU's -icount shift=0 the cortex-a76 model counts
# cpu_cycles and inst_retired from the same clock and nothing else, so
# cycles == instructions exactly wherever no CPU sat idle.
# shellcheck source=tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
NCPU=$(grep -c '^processor' /proc/cpuinfo)
LAST=$((NCPU - 1))

PMU=
for d in /sys/bus/event_source/devices/*; do
	[ -e "$d/events/inst_retired" ] && PMU=${d##*/}
done
if [ -z "$PMU" ]; then
	# x86 under TCG: no PMU at all.  The error must still say so.
	capture kprofctl stat -e cycles,instructions -- true
	[ "$rc" = 1 ] && echo "$err" | grep -q "PMU event cpu_cycles on CPU 0: no PMU serves this CPU" &&
		r=0 || r=1
	ok $r "stat without a PMU: which event, which CPU, why"
	[ $r = 0 ] || diag "rc $rc: $err"
	is "$(kprofctl list)" "no probes" "nothing left behind"
	echo "ok - PMU counting # SKIP this guest has no PMU (QEMU TCG x86 models none)"
	exit $tap_fail
fi
# "hw perfevents: enabled with armv8_pmuv3 PMU driver, 7 counters available"
# (6.12: "7 (0,8000003f) counters available")
NCNT=$(dmesg | sed -n 's/.*PMU driver, \([0-9]*\) .*counters available.*/\1/p' | head -n 1)
NGEN=$((NCNT - 1))	# the cycle counter counts only cpu_cycles
diag "PMU $PMU, $NCNT counters ($NGEN general), $NCPU CPUs"

# ---- stat: cycles == instructions on every CPU
capture kprofctl stat -e cycles,instructions -- dd if=/dev/zero of=/dev/null count=2000
ok $rc "stat -e cycles,instructions -- dd"
good=$(echo "$out" | awk '$3 == "cpu_cycles" { c[$1] = $4 } $3 == "inst_retired" { i[$1] = $4 }
	END { n = 0; for (k in c) if (c[k] == i[k] && c[k] > 0) n++; print n }')
is "$good" "$NCPU" "cycles == instructions, non-zero, on each of $NCPU CPUs"
[ "$good" = "$NCPU" ] || echo "$out" | sed 's/^/# /'
echo "$out" | grep -q "^  cluster A76 (cpu0-$LAST, PMU $PMU): .* IPC 1.00$"
ok $? "cluster line: A76 from MIDR_EL1, PMU $PMU, IPC 1.00"

capture kprofctl stat -e instructions,cycles --json -- dd if=/dev/zero of=/dev/null count=500
ok $rc "stat --json"
echo "$out" | grep -q '^{"duration_ns":[0-9]*,"pmu":{"events":\["inst_retired","cpu_cycles"\],"cpus":\[{"cpu":0,"cluster":"A76","pmu":"'"$PMU"'","pmu_type":[0-9]*,"counts":{"inst_retired":{"value":[1-9]'
ok $? "JSON carries per-CPU counts with cluster, PMU name and type"
echo "$out" | grep -q '"clusters":\[{"name":"A76","cpus":"0-'"$LAST"'","counts":{[^}]*},"ipc":1.0000}\]'
ok $? "JSON cluster IPC 1.0000"

# One CPU for both: under icount, QEMU lets an idle vCPU's timer slip while
# another vCPU runs, so a sleeping stat on the other CPU wakes late.
capture taskset 1 kprofctl stat -e cycles,instructions -I 10ms -- dd if=/dev/zero of=/dev/null count=20000
n=$(echo "$out" | grep -c '^# interval [0-9]* at ')
[ "$rc" = 0 ] && [ "$n" -ge 2 ] && r=0 || r=1
ok $r "-I 10ms prints intervals ($n) and a total"

# ---- an event QEMU does not count: opens, reads 0, and says why
capture kprofctl stat -e l1d_cache,instructions -- true
zero=$(echo "$out" | awk '$3 == "l1d_cache" && $4 == 0 && /not counted by this PMU/' | wc -l)
is "$zero" "$NCPU" "l1d_cache reads 0 on every CPU: \"not counted by this PMU\""
# a miss event that is not counted has no sum and no rate, not "0.00"
capture kprofctl stat -e l1d_cache_refill,instructions,cycles -- true
echo "$out" | grep -q "^  cluster .* l1d_cache_refill not-counted .*IPC" &&
	! echo "$out" | grep -q '/1000 instr'
ok $? "cluster line: l1d_cache_refill not-counted, no per-1000 rate"

# ---- bad input: usage errors, nothing created
capture kprofctl stat -e cycles,bogus -- true
[ "$rc" = 2 ] && echo "$err" | grep -q "unknown event 'bogus'; known events: cpu_cycles (cycles)" && r=0 || r=1
ok $r "unknown event name: exit 2, lists the known ones"
capture kprofctl stat -e 0x10000 -- true
[ "$rc" = 2 ] && echo "$err" | grep -q "raw event 0x10000 is out of range (0x0-0xffff" && r=0 || r=1
ok $r "raw event beyond 0xffff: exit 2"
capture kprofctl add kprobe:kprof_test_loop --pmu cycles
[ "$rc" = 2 ] && echo "$err" | grep -q "applies to kretprobes only" && r=0 || r=1
ok $r "--pmu on a kprobe: exit 2"
is "$(kprofctl list)" "no probes" "no probe left by bad input"

# ---- more events than counters: multiplexed, scaled
ev=0x8,0x8,0x8,0x8,0x8,0x8,0x8,0x8
capture kprofctl stat -e $ev -- dd if=/dev/zero of=/dev/null count=20000
rows=$(echo "$out" | awk '$3 == "0x8" && $4 > 0' | wc -l)
part=$(echo "$out" | awk '$3 == "0x8" && $5 + 0 < 100' | wc -l)
[ "$rc" = 0 ] && [ "$rows" = $((8 * NCPU)) ] && [ "$part" -gt 0 ] && r=0 || r=1
ok $r "8 events on $NGEN counters: all count, $part of $rows multiplexed"
capture kprofctl stat -e $ev --json -- dd if=/dev/zero of=/dev/null count=20000
# every multiplexed one reports enabled > running and a scaled value above it
echo "$out" | grep -o '"value":[0-9]*,"scaled":[0-9]*,"enabled_ns":[0-9]*,"running_ns":[0-9]*' |
	tr ':,' '  ' | awk '{ if ($8 < $6) { m++; if (!($4 > $2)) bad++ } } END { print m + 0, bad + 0 }' >/tmp/mux
read -r m bad </tmp/mux
[ "$m" -gt 0 ] && [ "$bad" = 0 ] && r=0 || r=1
ok $r "JSON: $m multiplexed counters report enabled_ns > running_ns and scaled > value"

# ---- per call: a fixed instruction loop gives one value, N times
# QEMU counts the instructions of every vCPU, so the other CPUs go offline
# for this part (where the kernel can): nothing else runs during a call.
others=
for c in /sys/devices/system/cpu/cpu[1-9]*; do
	[ -w "$c/online" ] && echo 0 >"$c/online" && others="$others $c"
done
alone=1
if [ -z "$others" ] && [ "$NCPU" != 1 ]; then
	alone=
	diag "CPUs cannot go offline here (no CPU hotplug): other vCPUs may add to some calls"
fi
# EVENT JSON -> $one (its per-call object), $1 $2 (min max), $modal (the
# fullest bucket's count)
per_call_of() {
	one=$(echo "$2" | grep -o "\"$1\":{\"lost\":0,\"count\":100,\"min\":[0-9]*,\"max\":[0-9]*,[^[]*\"buckets\":\[[^]]*\]")
	modal=$(echo "$one" | sed 's/.*"buckets":\[//' | grep -o '"count":[0-9]*' |
		cut -d: -f2 | sort -n | tail -n 1)
}
# all 100 in one bucket; without CPU hotplug at least 90 of them
one_bucket() { # LABEL
	if [ -n "$alone" ]; then
		is "${modal:-0}" 100 "$1: all 100 calls in one bucket"
	else
		[ "${modal:-0}" -ge 90 ] && r=0 || r=1
		ok $r "$1: ${modal:-0} of 100 calls in one bucket (other vCPUs running)"
	fi
}
id=$(kprofctl add kretprobe:kprof_test_loop --pmu cycles,instructions --tgid $$ --start)
ok $? "add kretprobe:kprof_test_loop --pmu cycles,instructions"
echo "loop 100 1000" >$T
kprofctl stop "$id"
json=$(kprofctl show "$id" --json)
for e in cpu_cycles inst_retired; do
	per_call_of $e "$json"
	lo=$(echo "$one" | sed -n 's/.*"min":\([0-9]*\),"max":\([0-9]*\).*/\1 \2/p')
	set -- $lo
	[ -n "$one" ] && [ "$1" -gt 1000 ] && r=0 || r=1
	ok $r "$e per call: 100 calls, none lost ($1-$2)"
	[ $r = 0 ] || diag "$json"
	one_bucket "$e per call"
	# alone on the machine, every call is the same instructions
	if [ -n "$alone" ]; then
		is "$1" "$2" "$e per call: one value, $1"
	fi
	eval "per_$e=\$1"
done
ipc=$(echo "$json" | sed -n 's/.*"ipc_per_call":\([0-9.]*\).*/\1/p')
if [ -n "$alone" ]; then
	is "$per_cpu_cycles" "$per_inst_retired" "cycles == instructions per call"
	is "$ipc" "1.0000" "IPC per call 1.0000"
else
	# the ratio of the means: a burst of another vCPU inside one call
	# adds cycles, never instructions (one call of 100 at 4x: 0.97)
	case $ipc in 0.9*|1.00*) r=0 ;; *) r=1 ;; esac
	ok $r "IPC per call $ipc (1 under icount; other vCPUs may add cycles)"
fi
per_call=$per_inst_retired
if [ -n "$alone" ]; then
	kprofctl show "$id" | grep -q "^  IPC per call 1.00$"
else
	kprofctl show "$id" | grep -q "^  IPC per call \(0\.9[0-9]\|1\.00\)$"
fi
ok $? "show prints IPC per call"
# 1000 more iterations: more instructions, still one value
kprofctl reset "$id"
kprofctl start "$id"
echo "loop 100 2000" >$T
kprofctl stop "$id"
per_call_of inst_retired "$(kprofctl show "$id" --json)"
more=$(echo "$one" | sed -n 's/.*"min":\([0-9]*\),"max":\([0-9]*\).*/\1 \2/p')
set -- $more
[ -n "$one" ] && [ "$1" -gt "$per_call" ] && r=0 || r=1
ok $r "twice the loop: $1-$2 instructions per call"
one_bucket "twice the loop"
[ $r = 0 ] || diag "$one"
# window totals beside the histograms.  QEMU's cycle counter is its
# virtual clock, which icount moves on without instructions while every
# vCPU idles.  Alone, the loop's CPU does not idle inside the window:
# cycles == instructions.  With other vCPUs online, a moment when all of
# them idle may fall inside (the debug kernel's once: 0.23 % of 18.2M):
# never fewer cycles than instructions, at most 1 % more.
kprofctl show "$id" >/tmp/pmu.show
win=$(awk -v alone="$alone" '/PMU totals over the capture window/ { w = 1 }
	w && $3 == "cpu_cycles" { c[$1] = $4 } w && $3 == "inst_retired" { i[$1] = $4 }
	END {
		n = 0
		for (k in c) {
			over = c[k] - i[k]
			if (i[k] > 0 && over >= 0 && over <= (alone ? 0 : i[k] / 100))
				n++
		}
		print n
	}' /tmp/pmu.show)
online=$(grep -c '^processor' /proc/cpuinfo)
if [ -n "$alone" ]; then
	is "$win" "$online" "window totals: cycles == instructions on each online CPU"
else
	is "$win" "$online" "window totals: instructions <= cycles <= instructions + 1 % on each online CPU (all vCPUs idle: cycles only)"
fi
[ "$win" = "$online" ] || sed 's/^/# /' /tmp/pmu.show
kprofctl del "$id"

# ---- a call that sleeps is lost: its delta would hold whatever ran
# meanwhile, here a hog on the same CPU.  40 calls, every 4th sleeps a jiffy;
# the others run with interrupts off, so they neither switch nor count
# anything but the loop: exactly 30 counted, each the no-sleep value.
per_call_json() { # EVENT JSON -> $1 $2 $3 $4 (lost count min max)
	set -- $(echo "$2" | grep -o "\"$1\":{\"lost\":[0-9]*,\"count\":[0-9]*,\"min\":[0-9]*,\"max\":[0-9]*" |
		tr -c '0-9\n' ' ')
	lost=$1 calls=$2 min=$3 max=$4
}
id=$(kprofctl add kretprobe:kprof_test_maysleep --pmu cycles,instructions --start)
taskset 1 sh -c "echo 'maysleep 40 0 1000' >$T"
kprofctl stop "$id"
per_call_json cpu_cycles "$(kprofctl show "$id" --json)"
base=$min
is "$lost $calls" "0 40" "maysleep without sleeps: 40 calls counted, none lost"
[ -n "$alone" ] && is "$max" "$min" "maysleep without sleeps: one value, $min cycles"
kprofctl reset "$id"
taskset 1 sh -c 'while :; do :; done' &
hog=$!
kprofctl start "$id"
taskset 1 sh -c "echo 'maysleep 40 4 1000' >$T"
kprofctl stop "$id"
kill "$hog"
wait "$hog" 2>/dev/null
json=$(kprofctl show "$id" --json)
for e in cpu_cycles inst_retired; do
	per_call_json $e "$json"
	is "$lost $calls" "10 30" "$e: the 10 sleeping calls lost, the 30 others counted"
	if [ -n "$alone" ]; then
		is "$min $max" "$base $base" "$e: the 30 others, one value each, as without a hog"
	else
		[ "$max" -lt $((base * 2)) ] && r=0 || r=1
		ok $r "$e: the 30 others hold no hog ($min-$max, alone $base)"
	fi
	[ "$lost $calls" = "10 30" ] ||
		diag "$(echo "$json" | grep -o "\"$e\":{[^[]*")"
done
kprofctl del "$id"
for c in $others; do echo 1 >"$c/online"; done
is "$(grep -c '^processor' /proc/cpuinfo)" "$NCPU" "all $NCPU CPUs online again"

# ---- --by-cluster on a heterogeneous tree (a fixture: cpu0 A55, cpu1 A76)
if [ "$NCPU" = 2 ]; then
	F=/tmp/rk3588-2
	for c in 0 1; do mkdir -p $F/sys/devices/system/cpu/cpu$c/regs/identification; done
	echo 0x00000000412fd050 >$F/sys/devices/system/cpu/cpu0/regs/identification/midr_el1
	echo 0x00000000414fd0b0 >$F/sys/devices/system/cpu/cpu1/regs/identification/midr_el1
	mkdir -p $F/sys/bus/event_source/devices/armv8_pmuv3
	echo 0-1 >$F/sys/bus/event_source/devices/armv8_pmuv3/cpus
	id=$(kprofctl add kretprobe:kprof_test_loop --pmu instructions --tgid $$ --start)
	# the shell itself moves, so the tgid filter keeps its calls
	taskset -p 1 $$ >/dev/null
	echo "loop 30 100" >$T
	taskset -p 2 $$ >/dev/null
	echo "loop 50 100" >$T
	taskset -p 3 $$ >/dev/null
	kprofctl stop "$id"
	txt=$(KPROFCTL_SYSFS_ROOT=$F kprofctl show "$id" --by-cluster)
	a55=$(echo "$txt" | awk '/^  cluster A55 \(cpu0\):$/ { getline; print $2; exit }')
	a76=$(echo "$txt" | awk '/^  cluster A76 \(cpu1\):$/ { getline; print $2; exit }')
	[ "$a55" = 30 ] && [ "$a76" = 50 ] && r=0 || r=1
	ok $r "--by-cluster: A55 (cpu0) 30 calls, A76 (cpu1) 50 calls"
	[ $r = 0 ] || echo "$txt" | sed 's/^/# /'
	echo "$txt" | grep -A1 '^    cluster A55 (cpu0):$' | grep -q '^      count 30  lost 0$'
	ok $? "--by-cluster splits the per-call PMU histograms too"
	KPROFCTL_SYSFS_ROOT=$F kprofctl show "$id" --by-cluster --json |
		grep -q '"clusters":\[{"cluster":"A55","cpus":"0","lost":0,"count":30,'
	ok $? "--by-cluster JSON"
	kprofctl del "$id"
else
	echo "ok - --by-cluster # SKIP needs a 2-CPU guest, this one has $NCPU"
fi

# ---- failures leave nothing, and counters are released
/files/selftest pmucheck $NGEN >/tmp/pc.out
ok $? "baseline: $NGEN pinned counters per CPU schedule"
many=instructions
i=1
while [ $i -lt "$NCNT" ]; do many=$many,instructions; i=$((i + 1)); done
capture kprofctl add kretprobe:kprof_test_loop --pmu $many --start
[ "$rc" = 1 ] && echo "$err" | grep -q "PMU event inst_retired on CPU 0: cannot be scheduled" && r=0 || r=1
ok $r "$NCNT pinned instruction counters: refused, says which event, CPU, why"
[ $r = 0 ] || diag "$err"
is "$(kprofctl list)" "no probes" "nothing half-created"
/files/selftest pmucheck $NGEN >/tmp/pc.out
ok $? "the failed add released its counters"
capture kprofctl add kretprobe:kprof_no_such_function --pmu cycles,instructions
[ "$rc" = 1 ] && r=0 || r=1
ok $r "unknown symbol with --pmu: refused"
/files/selftest pmucheck $NGEN >/tmp/pc.out
ok $? "and released its counters"

id=$(kprofctl add kretprobe:kprof_test_loop --pmu instructions --start)
/files/selftest pmucheck $NGEN >/tmp/pc.out
[ $? = 1 ] && r=0 || r=1
ok $r "a running --pmu probe holds a pinned counter (the check can fail)"
kprofctl stop "$id"
/files/selftest pmucheck $NGEN >/tmp/pc.out
ok $? "stopped, it holds none"
kprofctl start "$id"
kprofctl add pmu:cycles,instructions --start >/dev/null
ok $? "add pmu:cycles,instructions --start"
rmmod kprofctl
ok $? "rmmod with a running --pmu probe and a pmu: probe"
/files/selftest pmucheck $NGEN >/tmp/pc.out
ok $? "after rmmod all $NGEN counters per CPU schedule again"
[ -s /tmp/pc.out ] && sed 's/^/# /' /tmp/pc.out
insmod /kprofctl.ko
ok $? "kprofctl loads again"
exit $tap_fail
