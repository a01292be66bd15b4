# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A real Prometheus for tests/prom/check and tests/prom/guest (sourced):
# started on a free port, scraping the given targets, and PromQL against
# show's JSON.  The caller defines ok (TAP), $cl (clients.py), $work and
# the array pids (killed at its exit).
# shellcheck disable=SC2154

free_port() {
	$PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# prom_start INTERVAL JOB=HOST:PORT...: Debian's prometheus, scraping
# each target every INTERVAL; $purl is its API's URL
prom_start() {
	local t pport

	pport=$(free_port)
	{
		printf 'global:\n  scrape_interval: %s\n  scrape_timeout: %s\n' "$1" "$1"
		echo 'scrape_configs:'
		shift
		for t in "$@"; do
			printf "  - job_name: %s\n    static_configs: [{targets: ['%s']}]\n" \
				"${t%%=*}" "${t#*=}"
		done
	} >"$work/prometheus.yml"
	prometheus --config.file="$work/prometheus.yml" \
		--storage.tsdb.path="$work/tsdb" \
		--web.listen-address="127.0.0.1:$pport" >"$work/prometheus.log" 2>&1 &
	pids+=($!)
	purl=http://127.0.0.1:$pport
}

q() { $cl query "$purl" "$1"; }

# promql NAME SHOW PATH FAMILY SELECTOR: for each job of PROM_JOBS the
# family's _count is exactly show's count; the kprofctl job's p99 is
# within one kprofctl bucket of show's
PROM_JOBS=${PROM_JOBS:-kprofctl}
promql() {
	local want got v j

	want=$($cl count "$2" "$3")
	for j in $PROM_JOBS; do
		got=$(q "${4}_count{job=\"$j\",$5}")
		[ -n "$want" ] && [ "$got" = "$want.0" ]
		ok $? "$1 ($j): _count $got, show's count $want"
	done
	v=$(q "histogram_quantile(0.99, ${4}_bucket{job=\"kprofctl\",$5})")
	$cl near "$2" "$3" 99 "$v"
	ok $? "$1: histogram_quantile(0.99) within one bucket of show's p99"
}
