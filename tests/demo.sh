#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `make demo`: runs inside the arm64 VM with kprofctl and the example
# driver (tests/example/mydrv) loaded: README's walk-through, then a real
# kernel function, vfs_read, under a small workload.
set -eu
echo
echo "=== kprofctl status"
kprofctl status
echo
echo "=== README's walk-through: what is mydrv doing? (every function, from before it loads)"
rmmod mydrv
kprofctl add 'kprobe:mydrv:*' --start >/dev/null
kprofctl add 'kretprobe:mydrv:*' --start >/dev/null
kprofctl list
insmod /kmod/mydrv/mydrv.ko
echo 1600 >/sys/kernel/debug/mydrv/xfer
kprofctl stop
kprofctl show 1
kprofctl show 2 --sort p99
kprofctl del all
echo
echo "=== which of mydrv's functions is slow?"
for f in mydrv_xfer mydrv_fast mydrv_slow; do
	kprofctl add "kretprobe:mydrv:$f" >/dev/null
done
kprofctl start
echo 1600 >/sys/kernel/debug/mydrv/xfer
kprofctl stop
kprofctl show
kprofctl del all
echo
echo "=== kprofctl run kretprobe:vfs_read kprobe:vfs_read -- dd if=/dev/zero of=/dev/null bs=4k count=20000"
kprofctl run kretprobe:vfs_read kprobe:vfs_read -- \
	dd if=/dev/zero of=/dev/null bs=4k count=20000
echo
echo "=== system-wide, by hand: add, start, workload, stop, show --per-cpu"
id=$(kprofctl add kretprobe:vfs_read --maxactive 64)
kprofctl start "$id"
for f in /proc/*/stat; do cat "$f" >/dev/null 2>&1 || true; done
find / -xdev -type f -name '*.ko' -exec cat {} + >/dev/null 2>&1 || true
kprofctl stop "$id"
kprofctl list
kprofctl show "$id" --per-cpu
kprofctl del "$id"
echo
echo "=== PMU: cycles and instructions per CPU and cluster while dd runs"
kprofctl stat -e cycles,instructions,l1d_cache_refill -- \
	dd if=/dev/zero of=/dev/null bs=4k count=5000
echo
echo "=== PMU per call: kretprobe:vfs_read --pmu cycles,instructions"
id=$(kprofctl add kretprobe:vfs_read --pmu cycles,instructions --start)
dd if=/dev/zero of=/dev/null bs=4k count=5000 2>/dev/null
kprofctl stop "$id"
kprofctl show "$id" --by-cluster
kprofctl del "$id"
echo
echo "=== where does mydrv spend its time? sampled stacks, 16000 requests"
kprofctl profile -F 9999 --top 6 -- sh -c 'echo 16000 > /sys/kernel/debug/mydrv/xfer'
echo
echo "=== and where does it wait? the same requests, off the CPU"
kprofctl profile --off-cpu --top 3 -- sh -c 'echo 16000 > /sys/kernel/debug/mydrv/xfer'
echo
echo "=== the profile's folded stacks, for the flame graph (tests/demo-flame)"
echo KPROF-FOLDED-BEGIN
kprofctl profile -F 9999 --folded -- sh -c 'echo 16000 > /sys/kernel/debug/mydrv/xfer'
echo KPROF-FOLDED-END
