#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of tests/dt/check: the module was loaded with a device-tree
# node from an overlay; the case is "kprofdt=NAME" on the command line.
# shellcheck source=../vm/guest/tap.sh
. /tests/tap.sh
DRV=/sys/bus/platform/drivers/kprofctl
case=$(sed -n 's/.*kprofdt=\([a-z-]*\).*/\1/p' /proc/cmdline)
running() { kprofctl list | grep -c ' running '; }
# the module still works: a probe added by hand counts
still_works() {
	id=$(kprofctl add tracepoint:sched:sched_process_exec --start) &&
	/bin/busybox true && /bin/busybox true
	is "$(count "$id")" 3 "$1: a probe added by hand counts (2 execs + show)"
	kprofctl del "$id"
}
diag "case $case"
test -d /proc/device-tree/kprofctl
ok $? "$case: the overlay's /kprofctl node is in the booted DT"

case $case in
generic)
	test -e $DRV/kprofctl
	ok $? "generic: the module bound to the node (platform driver)"
	is "$(running)" 4 "generic: its 4 probes run from load"
	capture kprofctl list
	for s in kretprobe:vfs_read kretprobe:really_probe \
		 tracepoint:sched:sched_process_exec pair:irq; do
		echo "$out" | grep -q " running .* $s\$"
		ok $? "generic: list shows $s running"
	done
	kprofctl status | grep -q '^boot probes: *4 armed, 0 failed$'
	ok $? "generic: status: 4 armed, 0 failed"
	exec_id=$(echo "$out" | awk '/sched_process_exec/ { print $1 }')
	read_id=$(echo "$out" | awk '/kretprobe:vfs_read/ { print $1 }')
	kprofctl reset "$exec_id"
	i=0
	while [ $i -lt 25 ]; do /bin/busybox true; i=$((i + 1)); done
	# 25 execs, then the exec of the kprofctl that reads the count
	is "$(count "$exec_id")" 26 "generic: exec tracepoint counts 25 execs + 1 exactly"
	head -c 4096 /proc/version >/dev/null
	[ "$(count "$read_id")" -gt 0 ]
	ok $? "generic: kretprobe:vfs_read counts reads"
	kprofctl show "$read_id" --json | grep -q '"pmu":{"per_call":{"cpu_cycles":{.*"inst_retired":{'
	ok $? "generic: with the node's pmu-events per call"
	kprofctl show "$read_id" | grep -q '^  slow calls (>= 1ms)'
	ok $? "generic: and its slow-threshold-ns"
	echo kprofctl >$DRV/unbind
	ok $? "generic: unbind"
	is "$(kprofctl list)" "no probes" "generic: unbinding deletes the node's probes"
	echo kprofctl >$DRV/bind
	ok $? "generic: bind again"
	is "$(running)" 4 "generic: binding arms them again"
	# a module init that fails after sizing from the node keeps nothing
	# of it: the next load binds and arms as the first did
	rmmod kprofctl
	ok $? "generic: rmmod"
	insmod /kprofctl.ko max_probes=0 2>/dev/null
	ok $(( ! $? )) "generic: a load with max_probes=0 fails in init"
	test -e $DRV
	ok $(( ! $? )) "generic: and leaves no driver behind"
	insmod /kprofctl.ko
	ok $? "generic: the next load succeeds"
	test -e $DRV/kprofctl
	ok $? "generic: binds to the node"
	is "$(running)" 4 "generic: and arms its 4 probes"
	# Removing and applying the overlay again at run time needs configfs
	# overlays (CONFIG_OF_OVERLAY and an out-of-tree configfs patch);
	# Debian's kernels have neither, so unbind/bind stands in for it.
	grep -q configfs /proc/filesystems &&
		mount -t configfs none /sys/kernel/config 2>/dev/null
	[ -d /sys/kernel/config/device-tree/overlays ] &&
		why="configfs overlays exist but this test has no overlay to apply" ||
		why="no /sys/kernel/config/device-tree/overlays in this kernel"
	echo "ok - generic: remove and re-apply the overlay at run time # SKIP $why"
	;;
two-nodes)
	# the first available node in the tree's order is used
	is "$(ls -d $DRV/kprofctl* | wc -l)" 1 "two-nodes: the module bound one node"
	is "$(running)" 1 "two-nodes: one node's one probe runs"
	used=$(basename "$(ls -d $DRV/kprofctl*)")
	other=kprofctl-second
	[ "$used" = kprofctl-second ] && other=kprofctl
	want=tracepoint:sched:sched_process_exec
	[ "$used" = kprofctl-second ] && want=kretprobe:vfs_read
	kprofctl list | grep -q " running .* $want\$"
	ok $? "two-nodes: the bound node's (/$used, $want)"
	kprofctl status | grep -qF "  dt    /$other: LIST FAILED (errno 16): only one kprofctl node is used, /$used: no probe of this one armed"
	ok $? "two-nodes: status says why /$other is not armed"
	# the other node is refused only while this one is bound (as an
	# overlay removed and applied again is a new node)
	otherwant=kretprobe:vfs_read
	[ "$used" = kprofctl-second ] && otherwant=tracepoint:sched:sched_process_exec
	echo "$used" >$DRV/unbind
	ok $? "two-nodes: unbind /$used"
	is "$(kprofctl list)" "no probes" "two-nodes: its probe is gone"
	echo "$other" >$DRV/bind
	ok $? "two-nodes: /$other binds once /$used is unbound"
	is "$(running)" 1 "two-nodes: one probe runs"
	kprofctl list | grep -q " running .* $otherwant\$"
	ok $? "two-nodes: /$other's ($otherwant)"
	echo "$used" >$DRV/bind 2>/dev/null
	ok $(( ! $? )) "two-nodes: /$used is refused while /$other is bound"
	kprofctl status | grep -qF "  dt    /$used: LIST FAILED (errno 16): only one kprofctl node is used, /$other: no probe of this one armed"
	ok $? "two-nodes: status says why /$used is not armed"
	echo "$other" >$DRV/unbind && echo "$used" >$DRV/bind
	ok $? "two-nodes: unbind /$other, bind /$used again"
	kprofctl list | grep -q " running .* $want\$"
	ok $? "two-nodes: /$used's $want runs again"
	is "$(running)" 1 "two-nodes: and only it"
	;;
partial)
	is "$(running)" 2 "partial: the 2 good specs of 3 arm"
	capture kprofctl status
	echo "$out" | grep -q '^boot probes: *2 armed, 1 failed$'
	ok $? "partial: status: 2 armed, 1 failed"
	echo "$out" | grep -q '^  dt    /kprofctl: kprobe:kprof_no_such_function: NOT ARMED: -ENOENT: symbol not found'
	ok $? "partial: status names the spec that did not resolve"
	echo "$out" | grep -q '^probes: *2 in use, 16 max$'
	ok $? "partial: max-probes = <16> sized the table"
	kprofctl show 1 | grep -q '^  slow calls (>= 5s)'
	ok $? "partial: a two-cell slow-threshold-ns (5 s)"
	;;
bad-sizing|bad-probes|wrong-board)
	test -e $DRV/kprofctl
	ok $(( ! $? )) "$case: the module did not bind to the node"
	is "$(kprofctl list)" "no probes" "$case: no probe of the node armed"
	case $case in
	bad-sizing) want='property pair-keys = <100>: want a power of two, 64-1024' ;;
	bad-probes) want='property probes: not a list of strings' ;;
	wrong-board) want='node for radxa,rock-5b-plus-kprofctl on a machine that is not radxa,rock-5b-plus: overlay for another board' ;;
	esac
	kprofctl status | grep -qF "  dt    /kprofctl: LIST FAILED (errno 22): $want" ||
	kprofctl status | grep -qF "  dt    /kprofctl: LIST FAILED (errno 19): $want" ||
	kprofctl status | grep -qF "  dt    /kprofctl: LIST FAILED (errno 34): $want"
	ok $? "$case: status says why: $want"
	still_works "$case"
	;;
*)
	ok 1 "unknown case '$case'"
	;;
esac
rmmod kprofctl
ok $? "$case: rmmod kprofctl"
exit $tap_fail
