#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A mem: probe's numbers from show --json, for mem.sh and memstack.sh.
# With STACKS_SKIP set (a regular expression), sites whose stack matches
# it are left out of site's sums.

# sites FILE -> show --json's sites in FILE, one a line, STACKS_SKIP's out
sites() {
	tr '{' '\n' <"$1" | grep '"site":' | grep -Ev "${STACKS_SKIP:-^$}"
}
# site_in FILE FUNC FIELD -> FIELD summed over the sites in FUNC of FILE
site_in() {
	sites "$1" | grep "\"site\":\"$2+" |
		sed -n "s/.*\"$3\":\([0-9]*\).*/\1/p" |
		awk '{ s += $1 } END { print s + 0 }'
}
# site ID FUNC FIELD -> the same, of the probe's show --json now
site() {
	kprofctl show "$1" --json >/tmp/mem.json
	site_in /tmp/mem.json "$2" "$3"
}
# total ID FIELD -> the probe's total FIELD
total() {
	kprofctl show "$1" --json >/tmp/mem.json
	sed -n "s/.*\"total\":{[^}]*\"$2\":\([0-9]*\).*/\1/p" /tmp/mem.json
}
top() { # ID FIELD -> the probe's own FIELD (dropped, forgotten)
	kprofctl show "$1" --json >/tmp/mem.json
	sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p" /tmp/mem.json
}
# kind ID RE FIELD -> FIELD summed over the sites whose kind matches RE
kind() {
	kprofctl show "$1" --json >/tmp/mem.json
	tr '{' '\n' </tmp/mem.json | grep -E "\"kind\":\"$2\"" |
		sed -n "s/.*\"$3\":\([0-9]*\).*/\1/p" |
		awk '{ s += $1 } END { print s + 0 }'
}
# row ID FUNC -> allocs, bytes, frees, live and leaks of FUNC's sites,
# from one show (a debug kernel names hundreds of frames a show)
row() {
	kprofctl show "$1" --json >/tmp/mem.json
	for f in allocs alloc_bytes frees live leaks; do
		site_in /tmp/mem.json "$2" $f
	done | tr '\n' ' ' | sed 's/ $//'
}
# check ID FUNC ALLOCS BYTES FREES LIVE LEAKS: one site's numbers
check() {
	is "$(row "$1" "$2")" "$3 $4 $5 $6 $7" "$8: $2 allocs, bytes, frees, live, leaks"
}

