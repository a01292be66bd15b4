# SPDX-License-Identifier: GPL-2.0
# Minimal TAP helpers for guest scripts (busybox sh); the host numbers lines.
tap_fail=0
ok() { # STATUS DESC  (STATUS: 0 = pass)
	if [ "$1" = 0 ]; then echo "ok - $2"; else echo "not ok - $2"; tap_fail=1; fi
}
is() { # GOT WANT DESC
	if [ "$1" = "$2" ]; then echo "ok - $3"; else
		echo "not ok - $3"; echo "#   got '$1', want '$2'"; tap_fail=1; fi
}
# run CMD, capture stdout in $out, stderr in $err, status in $rc
capture() {
	out=$("$@" 2>/tmp/tap.err); rc=$?; err=$(cat /tmp/tap.err)
}
diag() { echo "# $*"; }
