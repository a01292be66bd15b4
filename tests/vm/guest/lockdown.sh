#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Kernel lockdown (tests/vm/guest/suite.sh, last: it cannot be lifted).
# "integrity" leaves kprobes alone (LOCKDOWN_KPROBES is a confidentiality
# reason), so the test raises it to confidentiality.  kprofctl is loaded.
. /tests/tap.sh
L=/sys/kernel/security/lockdown

[ -e $L ] || mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
if [ ! -w $L ]; then
	echo "ok - lockdown refuses kprobes # SKIP no $L (lockdown LSM not built in)"
	exit 0
fi
before=$(kprofctl list)
echo confidentiality >$L
grep -q '\[confidentiality\]' $L; ok $? "lockdown raised to confidentiality"
for s in kprobe:vfs_read kretprobe:vfs_read; do
	capture kprofctl add $s
	[ "$rc" = 1 ] && echo "$err" | grep -q "kernel lockdown (confidentiality) forbids kprobes"
	ok $? "lockdown: add $s is refused with the lockdown message"
	[ "$rc" = 1 ] || diag "rc $rc: $out $err"
done
is "$(kprofctl list)" "$before" "lockdown: nothing left registered"
capture kprofctl add tracepoint:sched:sched_switch
ok $rc "lockdown: a tracepoint can still be added"
[ "$rc" = 0 ] && kprofctl del "$out"
exit $tap_fail
