#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest's half of tests/prom/guest: a kretprobe, a keyed kretprobe and
# a set with known calls (tap.sh's prom_workload, as in prom.sh), stopped;
# show's JSON on the console for the host, then serve on 0.0.0.0:9471 for
# the host's Prometheus (tests/vm/run --forward) until the host connects
# to port 9472 and reads our word there, its word that it is done.
# kprofctl and kprof_test are loaded.
# shellcheck source=tap.sh
. /tests/tap.sh
F=/tmp/serve.fifo
kprofctl del all >/dev/null 2>&1

need_kprobes "serve to a Prometheus" || exit 0
prom_workload
is "$(count "$a")" 40 "kretprobe: the 40 spins"

# one line each, read by the host once the guest has powered off
echo "PROMGUEST-IDS $a $c $e"
echo "PROMGUEST-KERNEL $(uname -r)"
kprofctl show --json >/tmp/show.json
echo "PROMGUEST-SHOW $(cat /tmp/show.json)"
kprofctl show "$e" --key kprof_test_caller_b --json >/tmp/set.json
echo "PROMGUEST-SET $(cat /tmp/set.json)"

# the host reads this word once done, and tries again until it has it:
# a connection before nc listens is not lost
echo promserve-done | nc -l -p 9472 >/dev/null &
npid=$!
mkfifo $F
kprofctl serve --listen 0.0.0.0:9471 2>$F &
spid=$!
fifo_open "3<$F"
read -r line <&3
diag "$line"
case $line in *"port 9471: GET /metrics") r=0 ;; *) r=1 ;; esac
ok $r "serve --listen 0.0.0.0:9471 listens"
if [ $r != 0 ]; then
	diag "$(cat <&3)"
	kill $npid
	exit 1
fi
wait $npid
ok $? "the host is done (it read our word on 9472)"
kill $spid
wait $spid
ok $? "serve ends on SIGTERM with status 0"
rest=$(cat <&3)
[ -z "$rest" ] || diag "serve's stderr: $rest"
exec 3<&-
kprofctl del all >/dev/null
exit $tap_fail
