#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# arm64: kprofctl's frame-record walk (module/unwind.c) against the
# kernel's stack_trace_save(), frame by frame (parameter unwind_check),
# across the stack tests (UNWIND_SCRIPTS, default keys profile offcpu;
# the suite's stage checks from its tracepoints stage on and sets
# none) and thousands of samples: no difference but the explained ones.
# kprofctl and kprof_test are loaded.
# shellcheck source=tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
P=/sys/module/kprofctl/parameters
STATS=/tmp/unwind.stats

if [ ! -e $P/unwind_check ]; then
	echo "ok - unwind # SKIP $(uname -m) keeps stack_trace_save() (README, Known limits)"
	exit 0
fi
: >$STATS
check_on() { echo 0 >$P/unwind_stats && echo 1 >$P/unwind_check; }
# field NAME -> its sum over the kept counts
field() {
	awk -v f="$1" '$1 == "walks" { for (i = 1; i < NF; i += 2)
		if ($i == f) t += $(i + 1) } END { print t + 0 }' $STATS
}

# in the suite, checked since its tracepoints stage: those counts too
if [ "$(cat $P/unwind_check)" = Y ]; then
	ok 0 "unwind_check on (since the suite's tracepoints stage)"
else
	check_on
	ok $? "unwind_check on"
fi
# not fast.sh: it reloads kprofctl, which forgets the counts (its stacks
# are exact without the check)
for s in ${UNWIND_SCRIPTS-keys profile offcpu}; do
	sh "/tests/$s.sh" || tap_fail=1
done

# thousands of samples of a kernel loop, on both CPUs, at two rates
pct=$(cat /proc/sys/kernel/perf_cpu_time_max_percent)
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
for hz in 999 4999; do
	id=$(kprofctl add "sample:cpu-clock:hz=$hz" --key stack --start)
	ok $? "add sample:cpu-clock:hz=$hz --key stack"
	echo "hot 20 1000000" >$T &
	echo "hot 20 1000000" >$T
	wait
	kprofctl del "$id"
done
echo "$pct" >/proc/sys/kernel/perf_cpu_time_max_percent

cat $P/unwind_stats >>$STATS
sed 's/^/# /' $STATS
checks=$(field checks) mis=$(field mismatches) walks=$(field walks)
[ "$checks" -ge 2000 ] && [ "$walks" -ge "$checks" ]
ok $? "$checks walks compared with the kernel's ($walks walks)"
is "$mis" 0 "no unexplained difference ($(field explained) explained, $(field fallbacks) fallbacks, $(field cuts) cuts)"
if grep -q 'irq_stacks -1' $STATS; then
	echo "ok - the IRQ stacks were learned # SKIP no CONFIG_VMAP_STACK: none can be (their stacks fall back)"
else
	grep -q 'irq_stacks [1-9]' $STATS
	ok $? "the IRQ stacks were learned"
fi
echo 0 >$P/unwind_check
exit $tap_fail
