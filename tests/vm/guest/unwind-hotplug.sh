#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# arm64: a CPU brought online after kprofctl's first stack table was made
# has its IRQ stack learned when the next one is made (module/unwind.c;
# until then its interrupted stacks fall back to stack_trace_save()).
# Run it first after kprofctl loads, with at least 2 CPUs: it counts the
# IRQ stacks known from none.
# shellcheck source=tap.sh
. /tests/tap.sh
P=/sys/module/kprofctl/parameters
C=/sys/devices/system/cpu/cpu1/online
# irqs -> how many CPUs' IRQ stacks the walk knows
irqs() { sed -n 's/.* irq_stacks \(-\{0,1\}[0-9]*\) .*/\1/p' $P/unwind_stats; }

if [ ! -e $P/unwind_stats ]; then
	echo "ok - unwind-hotplug # SKIP $(uname -m) keeps stack_trace_save() (README, Known limits)"
	exit 0
fi
if [ "$(irqs)" = -1 ]; then
	echo "ok - unwind-hotplug # SKIP no CONFIG_VMAP_STACK: no IRQ stack can be learned"
	exit 0
fi
if [ "$(irqs)" != 0 ] || [ ! -w $C ]; then
	echo "ok - unwind-hotplug # SKIP needs a fresh kprofctl ($(irqs) IRQ stacks known) and cpu1 hotplug"
	exit 0
fi
echo 0 >$C
is "$(cat $C)" 0 "cpu1 offline"
id=$(kprofctl add kprobe:kprof_test_nop --key stack)
ok $? "a stack table made with one CPU online"
is "$(irqs)" 1 "one IRQ stack learned"
echo 1 >$C
is "$(cat $C)" 1 "cpu1 online again"
kprofctl del "$id"
id=$(kprofctl add kprobe:kprof_test_nop --key stack)
ok $? "another stack table made"
is "$(irqs)" 2 "cpu1's IRQ stack learned too"
kprofctl del "$id"
exit $tap_fail
