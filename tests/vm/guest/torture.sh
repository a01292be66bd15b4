#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Lifecycle torture (tests/vm/guest/suite.sh): kprofctl.ko and
# kprof_test.ko are loaded on entry and on exit.
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
KO=/kmod/kmod/kprof_test.ko
CYCLES=${1:-100}
TARGET_CYCLES=${2:-20}

# After dropping reclaimable caches, so dentries and inodes that other
# stages left behind do not count.  This is a coarse backstop (a leak of
# more than ~1 kB per cycle); kmemleak on the debug kernel is the exact one.
# Empty slabs kept on the caches' partial lists are shrunk away too.
meminfo() { # FIELD -> kB
	sync
	echo 3 >/proc/sys/vm/drop_caches
	for f in /sys/kernel/slab/*/shrink; do echo 1 >"$f"; done 2>/dev/null
	sed -n "s/^$1: *\([0-9]*\) kB/\1/p" /proc/meminfo
}
# Measured on 6.12-16k over 200 cycles (shrunk): Slab climbs ~600 kB (5 %)
# at some point of the first 100 cycles, then moves +-300 kB without a
# trend: 16 kB slab pages (and higher orders) make single caches jump.  So
# the 1 % check is for 4 KiB pages; with larger ones it is reported.
WARM=30
PAGE_KB=$(sed -n 's/^KernelPageSize: *\([0-9]*\) kB/\1/p' /proc/self/smaps | head -n 1)
PAGE_KB=${PAGE_KB:-4}

# 1. unload kprofctl with probes armed and firing, CYCLES times
bad=0 slab1= vm1=
i=0
while [ $i -lt "$CYCLES" ]; do
	i=$((i + 1))
	kprofctl add kretprobe:kprof_test_spin --start >/dev/null &&
	kprofctl add kprobe:vfs_read --start >/dev/null &&
	kprofctl add kprobe:kprof_test_irq --start >/dev/null || bad=$((bad + 1))
	echo "spin 300 2000" >$T &
	spin=$!
	echo "irq 20" >$T &
	irq=$!
	cat /proc/meminfo /proc/self/stat >/dev/null
	rmmod kprofctl || bad=$((bad + 1))
	wait $spin $irq || bad=$((bad + 1))
	insmod /kprofctl.ko || { bad=$((bad + 1)); break; }
	# caches that fill once (kretprobe instances, kernfs) are warm by now
	if [ $i = $WARM ]; then
		slab1=$(meminfo Slab)
		vm1=$(meminfo VmallocUsed)
	fi
done
slabN=$(meminfo Slab)
vmN=$(meminfo VmallocUsed)
is "$bad" 0 "torture: $i cycles of add/start/load/rmmod kprofctl/insmod"
if [ -e /sys/kernel/debug/kmemleak ]; then
	# the debug kernel: KASAN's quarantine keeps freed objects in Slab
	# (up to 1/32 of RAM), so Slab climbs with any earlier stage's frees
	echo "ok - torture: Slab $slab1 -> $slabN kB # SKIP KASAN quarantine counts in Slab here; kmemleak scans this stage exactly"
elif [ "$PAGE_KB" -gt 4 ]; then
	echo "ok - torture: Slab $slab1 -> $slabN kB # SKIP ${PAGE_KB} kB pages: Slab moves by 5 % without a trend here; VmallocUsed below and kmemleak (debug kernel) check leaks"
else
	[ -n "$slab1" ] && [ $((slabN * 100)) -le $((slab1 * 101)) ]
	ok $? "torture: Slab after $i cycles ${slabN} kB, after $WARM ${slab1} kB (<= +1 %)"
fi
# the statistics area alone is hundreds of kB: one leaked area shows
[ -n "$vm1" ] && [ "$vmN" -le $((vm1 + 64)) ]
ok $? "torture: VmallocUsed after $i cycles ${vmN} kB, after $WARM ${vm1} kB (<= +64 kB)"

# 2. unload the probed target module, TARGET_CYCLES times
bad=0
i=0
while [ $i -lt "$TARGET_CYCLES" ]; do
	i=$((i + 1))
	a=$(kprofctl add kretprobe:kprof_test_spin --start) &&
	b=$(kprofctl add kprobe:kprof_test_nop --tgid $$ --start) || bad=$((bad + 1))
	echo "spin 10 1000" >$T
	rmmod kprof_test || bad=$((bad + 1))
	kprofctl list | grep -q "^ *$a  kretprobe  gone " || bad=$((bad + 1))
	kprofctl show "$b" | grep -q "^probe $b: kprobe:kprof_test_nop \[gone\]" ||
		bad=$((bad + 1))
	insmod $KO || { bad=$((bad + 1)); break; }
	kprofctl del "$a" && kprofctl del "$b" || bad=$((bad + 1))
	b=$(kprofctl add kprobe:kprof_test_nop --tgid $$ --start) || bad=$((bad + 1))
	echo "nop 5" >$T
	kprofctl show "$b" --json | grep -q '"count":5,' || bad=$((bad + 1))
	kprofctl del "$b" || bad=$((bad + 1))
done
is "$bad" 0 "torture: $i cycles of unloading a probed target: gone in list and show, re-add after reload counts exactly"

# 3. rmmod while a process holds the fd open and the stats mapped: the
# open file pins the module, so rmmod is refused and nothing is freed
mkfifo /tmp/hold.in /tmp/hold.out
/files/selftest hold </tmp/hold.in >/tmp/hold.out &
holder=$!
exec 7>/tmp/hold.in
# wait for its word, not for time
while read -r line && [ "$line" != held ]; do :; done </tmp/hold.out
is "$line" held "torture: a process holds the fd and the mapping"
rmmod kprofctl 2>/dev/null
ok $((! $?)) "torture: rmmod kprofctl is refused while it is held"
[ -c /dev/kprofctl ]; ok $? "torture: and the device is still there"
echo go >&7
exec 7>&-
wait $holder; ok $? "torture: the holder still reads a valid mapping and exits"
rmmod kprofctl && insmod /kprofctl.ko; ok $? "torture: once released, rmmod and insmod work"
rm -f /tmp/hold.in /tmp/hold.out
exit $tap_fail
