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
# kprofctl probes.  show goes through a file: a sed exec'd alongside
# kprofctl would race a count of exec tracepoints.
count() { # ID -> the probe's total count in show --json (not a per-CPU one)
	kprofctl show "$1" --json >/tmp/count.json
	sed -n 's/^{"probes":\[{"id":[0-9]*,"spec":"[^"]*","type":"[^"]*","state":"[^"]*","count":\([0-9]*\)[,}].*/\1/p' /tmp/count.json
}
# keycount ID LABEL -> the count of the key shown as LABEL (show --json)
keycount() {
	kprofctl show "$1" --json >/tmp/keys.json
	sed -n 's/.*{"key":"'"$2"'","values":\[[^]]*\],"name":"[^"]*","count":\([0-9]*\)[,}].*/\1/p' /tmp/keys.json
}
state() { # ID -> state in list
	kprofctl list | awk -v id="$1" '$1 == id { print $3 }'
}
# polls (bounded) until CMD succeeds, run anew each time; 0 if it did
until_ok() { # TRIES CMD...
	n=$1; shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		n=$((n - 1))
		sleep 1
	done
	return 1
}
# the kernel's kprobes (no: a vendor kernel like the Rock 5B+'s stock one,
# where function probes go through ftrace alone)
if [ -d /sys/kernel/debug/kprobes ]; then KPROBES=yes; else KPROBES=no; fi
# a test that needs them: 0 to run it, else its SKIP line
need_kprobes() { # DESC
	[ $KPROBES = yes ] && return 0
	echo "ok - $1 # SKIP needs kprobes (CONFIG_KPROBES=n on this kernel)"
	return 1
}
# fifo_open REDIR: exec's redirection REDIR (e.g. "3<$F"), tried again
# while a child's exit interrupts the open: busybox sh takes SIGCHLD
# without SA_RESTART, a FIFO's open blocks until its other end opens, and
# a failed exec redirection ends a script without a TAP line
fifo_open() {
	_fo=0
	until { eval "command exec $1"; } 2>/dev/null; do
		_fo=$((_fo + 1))
		[ $_fo -lt 100 ] || { echo "not ok - open $1"; exit 1; }
	done
}
# own_vmalloc_kb: kB of pages in the vmalloc areas kprofctl's code made,
# and in those whose caller no symbol names any more (made by a module
# since unloaded: what an earlier kprofctl left).  VmallocUsed also moves
# with every other caller (-72 to +88 kB between two readings on 7.3).
own_vmalloc_kb() {
	echo $(($(awk '$3 ~ /^0x/ || / \[kprofctl\]/' /proc/vmallocinfo |
		area_pages) * $(page_kb)))
}
# area_pages: the pages of the /proc/vmallocinfo lines on stdin
area_pages() {
	sed -n 's/.* pages=\([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }'
}
page_kb() { # -> the kernel's page size in kB
	sed -n 's/^KernelPageSize: *\([0-9]*\) kB$/\1/p' /proc/self/smaps | head -n 1
}
# watch ARGS...: starts "kprofctl watch --json ARGS" on the fifo $F (the
# script makes it), returns once it listens (its first line); its pid is
# $wpid, the rest is read by collect.  No sleep: the listening line is the
# handshake.
watch() {
	kprofctl watch --json "$@" >$F &
	wpid=$!
	fifo_open "3<$F"
	read -r first <&3
	[ "$first" = '{"type":"listening"}' ]
}
collect() { # -> $out: every line until watch exits, $wrc its status
	out=$(cat <&3)
	exec 3<&-
	wait $wpid
	wrc=$?
}
field() { # KEY -> the numeric field of each line on stdin
	sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"
}
# the first probe's own fields: what comes before its buckets and per_cpu,
# which repeat the same names (a CPU without calls has "p50_ns":0)
json_probe() { # JSON -> first probe's scalar fields
	echo "$1" | sed -n '/^{"probes":\[{/{s/^{"probes":\[{//; s/,"buckets":.*//; s/,"per_cpu":.*//; p}'
}
json_field() { # JSON KEY -> first probe's value
	json_probe "$1" | tr ',' '\n' | sed -n "s/^\"$2\":\([0-9]*\)$/\1/p"
}
# prom.sh's and promserve.sh's probes, with known calls, stopped: a
# kretprobe ($a), a keyed kretprobe ($c) and a set ($e)
prom_workload() {
	a=$(kprofctl add kretprobe:kprof_test_spin --tgid $$ --start)
	c=$(kprofctl add kretprobe:kprof_test_ret --key retval --tgid $$ --start)
	e=$(kprofctl add 'kretprobe:kprof_test:kprof_test_caller_?' --start)
	ok $? "a kretprobe, a keyed one and a set"
	echo "spin 40 20000" >/sys/kernel/debug/kprof_test/trigger
	echo "ret 3" >/sys/kernel/debug/kprof_test/trigger
	echo "callers 4" >/sys/kernel/debug/kprof_test/trigger
	kprofctl stop >/dev/null
}
# NAME FILE: a copy for the host, as TAP comments in the suite's log, which
# tests/capture/check reads (schema, the host's show --from,
# promtool)
export_file() {
	echo "# -----BEGIN $1-----"
	base64 "$2" | sed 's/^/# /'
	echo "# -----END $1-----"
}
