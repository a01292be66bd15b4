#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# arm64: stacks through a corrupted frame record (kprof_test "corrupt":
# a misaligned x29, a loop, a pointer off the stack) under stack-keyed
# probes and the sampler: kprofctl's walk (module/unwind.c) stops there,
# counted, with the frames below it, and nothing faults.  kprofctl and
# kprof_test are loaded.
# shellcheck source=tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
P=/sys/module/kprofctl/parameters
if [ ! -e $P/unwind_stats ]; then
	echo "ok - corrupt # SKIP $(uname -m) keeps stack_trace_save() (README, Known limits)"
	exit 0
fi
# stat NAME -> its count in unwind_stats
stat() {
	awk -v f="$1" '$1 == "walks" { for (i = 1; i < NF; i += 2)
		if ($i == f) print $(i + 1) }' $P/unwind_stats
}
WANT='kprof_test_corrupt_cmd;kprof_test_corrupt;kprof_test_corrupt_leaf'
# which count a bad record makes: 1, 2 cut there; 3 is on no stack the
# walk knows, so stack_trace_save() takes the stack (and stops there too)
for mode in 1 2 3; do
	[ $mode = 3 ] && what=fallbacks || what=cuts
	for kind in kprobe kretprobe; do
		need_kprobes "corrupt $mode: $kind" || continue
		echo 0 >$P/unwind_stats
		id=$(kprofctl add $kind:kprof_test_corrupt_leaf --key stack --start)
		echo "corrupt $mode 100 10" >$T
		ok $? "corrupt $mode 100 10 under $kind --key stack"
		kprofctl show "$id" --folded >/tmp/corrupt.folded
		is "$(cat /tmp/corrupt.folded)" "$WANT 100" \
			"corrupt $mode, $kind: one stack, ending at the bad record"
		[ "$(stat $what)" -ge 100 ]
		ok $? "corrupt $mode, $kind: the walk counted $(stat $what) $what"
		kprofctl del "$id"
	done
done

# the sampler, in the leaf's loop while its caller's record points at itself
pct=$(cat /proc/sys/kernel/perf_cpu_time_max_percent)
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
echo 0 >$P/unwind_stats
id=$(kprofctl add sample:cpu-clock:hz=4999 --key stack --tgid $$ --start)
echo "corrupt 2 20 1000000" >$T
ok $? "corrupt 2 20 1000000 under a stack-keyed sampler"
kprofctl stop "$id"
kprofctl show "$id" --folded >/tmp/corrupt.folded
# a leaf interrupted in its loop may have no frame record of its own
# (README, "Where does my driver spend its time?"): its caller may be
# missing; a sample in an interrupt or softirq over the leaf has their
# frames above it
re='^kprof_test_corrupt_cmd;(kprof_test_corrupt;)?kprof_test_corrupt_leaf(;[^ ]+)? [0-9]+$'
n=$(grep -E "$re" /tmp/corrupt.folded | awk '{ t += $2 } END { print t + 0 }')
grep kprof_test_corrupt_leaf /tmp/corrupt.folded | grep -Ev "$re" >/tmp/corrupt.other
# over the leaf in a softirq on the IRQ stack, where this walk does not
# know that stack (no VMAP_STACK), the kernel's walk stops there instead
cut=$(( $(stat cuts) + $(stat fallbacks) ))
[ "$n" -ge 100 ] && [ ! -s /tmp/corrupt.other ] && [ "$cut" -ge "$n" ]
r=$?
ok $r "$n samples in the leaf, each stack ending at the bad record ($(stat cuts) cuts, $(stat fallbacks) fallbacks)"
# ok's own status is 0: the stacks that broke the rule, if any
[ $r = 0 ] || sed 's/^/# /' /tmp/corrupt.other | head -5
kprofctl del "$id"
echo "$pct" >/proc/sys/kernel/perf_cpu_time_max_percent
exit $tap_fail
