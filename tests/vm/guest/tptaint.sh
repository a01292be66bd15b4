#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A deferred tracepoint probe on a module that the tracepoint core ignores
# (force-loaded: TAINT_FORCED_MODULE; see trace_module_has_bad_taint()).
# Run near the end of tests/vm/guest/suite.sh: the forced load taints the
# kernel, which turns lockdep off on debug kernels.  kprofctl and
# kprof_test are loaded.
# shellcheck source=tap.sh
. /tests/tap.sh
T=/sys/kernel/debug/kprof_test/trigger
KO=/kmod/kmod/kprof_test.ko

rmmod kprof_test || ok 1 "rmmod kprof_test"
id=$(kprofctl add tracepoint:kprof_test:kprof_test_event --defer --tgid $$ --start)
ok $? "--defer: add before the module loads"
if out=$(/files/forceload $KO 2>&1); then
	ok 0 "kprof_test force-loaded (finit_module ignoring vermagic)"
	grep -q "^kprof_test .*(.*F.*)" /proc/modules
	ok $? "the kernel marks it forced (F): the tracepoint core ignores it"
	is "$(state "$id")" pending "the probe does not attach to an ignored module's tracepoint: pending"
	dmesg | grep -q "probe $id (tracepoint:kprof_test:kprof_test_event): module kprof_test loaded, but the kernel ignores its tracepoints"
	ok $? "and the kernel log says why"
	echo "event 6" >$T
	is "$(count "$id")" 0 "and counts nothing"
	rmmod kprof_test
	ok $? "rmmod the forced module"
	is "$(state "$id")" pending "still pending after it unloads"
	kprofctl del "$id"
	ok $? "del after the module went: nothing left registered on freed memory"
else
	case $out in
	*"Exec format error"*)
		# without CONFIG_MODULE_FORCE_LOAD (the debug kernel's config)
		echo "ok - forced load # SKIP this kernel refuses forced module loads (ENOEXEC: no CONFIG_MODULE_FORCE_LOAD)"
		is "$(state "$id")" pending "the refused module left the probe pending" ;;
	*)
		diag "$out"
		ok 1 "kprof_test force-loaded (finit_module ignoring vermagic)" ;;
	esac
	kprofctl del "$id"
fi

# a normal load again: the same probe kind attaches and counts
id=$(kprofctl add tracepoint:kprof_test:kprof_test_event --defer --tgid $$ --start)
insmod $KO
is "$(state "$id")" running "a normally loaded module: attached and running"
echo "event 6" >$T
is "$(count "$id")" 6 "and counts exactly"
kprofctl del "$id"
exit $tap_fail
