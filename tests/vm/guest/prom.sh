#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# export on the live device (the suite's capture stage): a kretprobe, a keyed kretprobe and a set
# with known calls, stopped, exported; each count is show's, kprofctl_info
# names this kernel, -o writes the same atomically, and serve (this static
# CLI's libmicrohttpd has no HTTPS) answers export's bytes over loopback;
# tests/prom/guest scrapes it from the host.  kprofctl and kprof_test are
# loaded.
# shellcheck source=tap.sh
. /tests/tap.sh
kprofctl del all >/dev/null 2>&1

need_kprobes "export of live probes" || exit 0
prom_workload

kprofctl export >/tmp/m.prom
ok $? "export"
# FAMILY ID [MORE]: the sample's value (labels after id= matched by MORE)
val() {
	grep "^$1{id=\"$2\",.*$3" /tmp/m.prom | sed 's/.* //'
}
is "$(val kprofctl_probe_calls_total "$a")" "$(count "$a")" \
	"kretprobe: calls_total is show's count"
is "$(val kprofctl_probe_latency_seconds_count "$a")" 40 \
	"kretprobe: the histogram's _count, the 40 spins"
is "$(val kprofctl_probe_latency_seconds_bucket "$a" 'le="+Inf"')" 40 \
	"kretprobe: +Inf is the count"
is "$(val kprofctl_key_calls_total "$c" 'key="-EPROBE_DEFER (-517)"')" \
	"$(keycount "$c" '-EPROBE_DEFER (-517)')" "keyed: -517's calls are show's"
kprofctl show "$e" --json >/tmp/set.json
# a set's object has its mech and module before its count
is "$(val kprofctl_probe_calls_total "$e")" \
	"$(sed -n 's/^{"probes":\[{.*"module":"[^"]*","count":\([0-9]*\),.*/\1/p' /tmp/set.json)" \
	"set: calls_total is show's count"
for f in kprof_test_caller_a kprof_test_caller_b; do
	want=$(sed -n 's/.*{"name":"'$f'","count":\([0-9]*\),.*/\1/p' /tmp/set.json)
	is "$(val kprofctl_function_latency_seconds_count "$e" "function=\"$f\"")" \
		"$want" "set: $f's _count is show's"
done
grep -q "^kprofctl_info{kernel=\"$(uname -r)\"," /tmp/m.prom
ok $? "kprofctl_info names this kernel"
! grep -q 'ffff[0-9a-f]\{12\}' /tmp/m.prom
ok $? "no kernel address in the metrics"
# promtool and an OpenMetrics parser read them on the host (capture/check)
kprofctl export --openmetrics >/tmp/m.om
ok $? "export --openmetrics"
export_file PROM /tmp/m.prom
export_file OPENMETRICS /tmp/m.om

mkdir -p /tmp/tf
kprofctl export -o /tmp/tf/kprofctl.prom &&
	cmp -s /tmp/tf/kprofctl.prom /tmp/m.prom &&
	[ "$(ls /tmp/tf)" = kprofctl.prom ]
ok $? "export -o: the same metrics, no temporary left"

ip link set lo up
mkfifo /tmp/serve.fifo
kprofctl serve --listen 127.0.0.1:9471 2>/tmp/serve.fifo &
spid=$!
fifo_open "3</tmp/serve.fifo"
# its first line is the handshake: it listens
read -r line <&3
case $line in *"port 9471: GET /metrics") r=0 ;; *) r=1 ;; esac
ok $r "serve --listen 127.0.0.1:9471 in the static build listens"
if [ $r = 0 ]; then
	wget -q -O /tmp/s.prom http://127.0.0.1:9471/metrics &&
		cmp -s /tmp/s.prom /tmp/m.prom
	ok $? "serve: GET /metrics answers export's bytes"
	kill $spid
	wait $spid
	ok $? "serve ends on SIGTERM with status 0"
else
	diag "$line $(cat <&3)"
fi
exec 3<&-
kprofctl del all >/dev/null
exit $tap_fail
