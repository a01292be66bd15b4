#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Function sets, "kprobe:[MOD:]GLOB" and "kretprobe:[MOD:]GLOB"
# (tests/vm/guest/suite.sh): exact counts per function on kprof_funcs.ko
# (tests/kmod-funcs, 300 functions with known call counts) from a set added
# before the module loads and one added after, checked against ftrace's
# function tracer in the same boot; skipped functions; latency per
# function; unload and reload; a real module (null_blk); a core glob.
# kprofctl and kprof_funcs are loaded.
# shellcheck source=tap.sh
. /tests/tap.sh
KO=/kmod/kmod-funcs/kprof_funcs.ko
D=/sys/kernel/debug/kprof_funcs
TR=/sys/kernel/tracing

# where the kernel has dynamic ftrace, hit counts go through one ftrace_ops
if [ -e $TR/available_filter_functions ]; then MECH=ftrace; else MECH=kprobes; fi

sj() { # ID -> show --json of ID in /tmp/fs.json, on one line
	kprofctl show "$1" --json | tr -d '\n' >/tmp/fs.json
}
jfield() { # FIELD -> its first value in /tmp/fs.json (quotes stripped)
	sed -n "s/^[^{]*{\"probes\":.*\"$1\":\"*\([^,\"}]*\).*/\1/p" /tmp/fs.json |
		head -n 1
}
jstate() { sj "$1"; jfield state; }
# "NAME VALUE" for each object of array ARR (functions or skipped) in
# /tmp/fs.json, VALUE being field KEY (its quotes stripped; - if absent)
jlist() { # ARR KEY
	awk -v arr="$1" -v key="$2" '{
		i = index($0, "\"" arr "\":[")
		if (!i) exit
		s = substr($0, i + length(arr) + 4)
		s = substr(s, 1, index(s, "]") - 1)
		while (match(s, /\{[^}]*\}/)) {
			o = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			name = "-"; val = "-"
			if (match(o, /"name":"[^"]*"/))
				name = substr(o, RSTART + 8, RLENGTH - 9)
			if (match(o, "\"" key "\":\"?[^,\"}]*")) {
				val = substr(o, RSTART + length(key) + 3,
					     RLENGTH - length(key) - 3)
				sub(/^"/, "", val)
			}
			print name, val
		}
	}' /tmp/fs.json
}
# kpf_f<i>'s calls: R rounds of kpf_calls(i), and I loads' init calls
expect() { # R I -> "kpf_fNNN COUNT" x 300
	awk -v r="$1" -v n="$2" 'BEGIN {
		for (i = 0; i < 300; i++) {
			c = i % 50 == 49 ? 0 : i + 1
			printf "kpf_f%03d %d\n", i, r * c + (c && i % 3 == 0 ? n : 0)
		}
	}'
}
# compares "NAME COUNT" lines of kpf_f* in file GOT with file WANT: prints
# the differences, nothing when every kpf_f* is equal; with "0" as third
# argument a function GOT does not list counts 0 (a trace lists calls)
differ() { # GOT WANT [0]
	awk -v zero="${3:-}" 'NR == FNR { if ($1 ~ /^kpf_f[0-9][0-9][0-9]$/) got[$1] = $2; next }
	{
		if (!($1 in got) && zero != "" && $2 == 0) next
		if (!($1 in got)) { d = d " " $1 ":missing"; nd++ }
		else if (got[$1] != $2) { d = d " " $1 ":" got[$1] "!=" $2; nd++ }
		delete got[$1]
	}
	END {
		for (k in got) { d = d " " k ":extra"; nd++ }
		if (nd) print nd " differ:" substr(d, 1, 200)
	}' "$1" "$2"
}
hits() { # ID FILE: "NAME HITS" of set ID's functions into FILE
	sj "$1"
	jlist functions count >"$2"
}
val() { # NAME FILE -> its value
	awk -v f="$1" '$1 == f { print $2 }' "$2"
}

expect 0 0 >/tmp/fs.zero

# ---- (a) a set added before the module loads: pending, then exact with
# the calls its init makes
rmmod kprof_funcs
ok $? "rmmod kprof_funcs (loaded at boot)"
capture kprofctl add 'kprobe:kprof_funcs:*' --start
ok "$rc" "add kprobe:kprof_funcs:* --start while kprof_funcs is not loaded"
A=$out
is "$(jstate "$A")" pending "set $A is pending"
is "$(sj "$A"; jfield type)" kprobe-set "show --json: type kprobe-set"
insmod $KO
ok $? "insmod kprof_funcs"
is "$(jstate "$A")" running "module loaded: set $A resolved and running"
is "$(jfield mech)" $MECH "set $A hooks through $MECH"
nf=$(jfield nr_funcs) np=$(jfield nr_probed)
[ "${nf:-0}" -ge 305 ] && [ "${np:-0}" -ge 300 ] && [ "$np" -le "$nf" ]
ok $? "set $A: $nf functions matched (>= 305), $np hooked"
echo "run 2" >$D/trigger
ok $? "2 rounds of calls"
hits "$A" /tmp/fs.a
is "$(awk '$1 ~ /^kpf_f[0-9]+$/' /tmp/fs.a | wc -l)" 300 "set $A lists kpf_f000..kpf_f299"
expect 2 1 >/tmp/fs.want
is "$(differ /tmp/fs.a /tmp/fs.want)" "" "set $A: every kpf_f* counted exactly (2 rounds + init calls)"
is "$(differ $D/counts /tmp/fs.want)" "" "the module's own tally agrees (the test module works)"
is "$(grep -c '^kpf_f[0-9]* 0$' /tmp/fs.a)" 6 "set $A: the 6 functions never called are listed with 0"
is "$(val kpf_init_only /tmp/fs.a)" 1 "set $A: kpf_init_only (__init) counted its call from init"
jlist functions init | grep -q '^kpf_init_only true$'
ok $? "set $A: kpf_init_only is marked \"init\":true"
jlist skipped reason >/tmp/fs.skip
is "$(val kpf_init_only /tmp/fs.skip)" init_done "set $A: kpf_init_only skipped after init: init_done"

# ---- (d) kpf_notrace: ftrace cannot hook it; kprobes can
if [ $MECH = ftrace ]; then
	is "$(val kpf_notrace /tmp/fs.skip)" notrace "set $A: kpf_notrace skipped: notrace"
	# a skipped function that counted nothing is listed under "skipped" only
	n=$(val kpf_notrace /tmp/fs.a)
	is "${n:-0}" 0 "set $A: kpf_notrace counts nothing"
else
	is "$(val kpf_notrace /tmp/fs.skip)" "" "set $A (kprobes): kpf_notrace is hooked"
	is "$(val kpf_notrace /tmp/fs.a)" 2 "set $A (kprobes): kpf_notrace counted its 2 calls"
fi
# a set of which nothing can be hooked is refused, says why, leaves nothing
# (its memory was once released without the module's lock: lockdep WARN)
if [ $MECH = ftrace ]; then
	s=kprobe:kprof_funcs:kpf_notrac?
	n0=$(kprofctl list | wc -l)
	kprofctl add "$s" >/tmp/fs.out 2>&1
	is "$?" 1 "add $s (notrace only) fails"
	grep -q "no function '$s' matches can be hooked" /tmp/fs.out
	ok $? "and says that no function it matches can be hooked" ||
		diag "$(cat /tmp/fs.out)"
	is "$(kprofctl list | wc -l)" "$n0" "and leaves no probe behind"
fi
ns=$(wc -l </tmp/fs.skip)
is "$np" $((nf - ns)) "set $A: nr_probed = nr_funcs - skipped ($nf - $ns)"
diag "set $A skipped: $(tr '\n' ';' </tmp/fs.skip)"
kprofctl show "$A" | grep -q "kpf_init_only"
ok $? "text show names the skipped function"

# ---- (b) a set added after the module loaded: no init calls
capture kprofctl add 'kprobe:kprof_funcs:kpf_*' --start
ok "$rc" "add kprobe:kprof_funcs:kpf_* --start (kprof_funcs loaded)"
B=$out
is "$(jstate "$B")" running "set $B running"
is "$(jfield mech)" $MECH "set $B hooks through $MECH"
echo "run 3" >$D/trigger
hits "$B" /tmp/fs.b
expect 3 0 >/tmp/fs.want
is "$(differ /tmp/fs.b /tmp/fs.want)" "" "set $B: every kpf_f* counted exactly (3 rounds, no init calls)"
hits "$A" /tmp/fs.a
expect 5 1 >/tmp/fs.want
is "$(differ /tmp/fs.a /tmp/fs.want)" "" "set $A: 5 rounds + init calls"
# a narrower glob: [] and ? as glob_match() reads them
capture kprofctl add 'kprobe:kprof_funcs:kpf_f1?[05]'
ok "$rc" "add kprobe:kprof_funcs:kpf_f1?[05]"
G=$out
sj "$G"
is "$(jlist functions count | sort | awk '{ printf "%s ", $1 }')" \
	"kpf_f100 kpf_f105 kpf_f110 kpf_f115 kpf_f120 kpf_f125 kpf_f130 kpf_f135 kpf_f140 kpf_f145 kpf_f150 kpf_f155 kpf_f160 kpf_f165 kpf_f170 kpf_f175 kpf_f180 kpf_f185 kpf_f190 kpf_f195 " \
	"kpf_f1?[05]: exactly the 20 functions it matches, by name"
kprofctl del "$G"

# ---- (c) ftrace's function tracer on the same calls, same boot
if grep -qw function $TR/available_tracers 2>/dev/null; then
	# "7 (expanded: 1408)" until the buffer was first used
	kb=$(sed 's/.*expanded: \([0-9]*\).*/\1/' $TR/buffer_size_kb)
	echo 0 >$TR/tracing_on
	echo nop >$TR/current_tracer
	echo 8192 >$TR/buffer_size_kb
	echo ':mod:kprof_funcs' >$TR/set_ftrace_filter
	echo >$TR/trace
	kprofctl reset "$A"
	echo function >$TR/current_tracer
	echo 1 >$TR/tracing_on
	echo "run 1" >$D/trigger
	echo 0 >$TR/tracing_on
	kprofctl stop "$A"
	# "    sh-123 [000] ..... 1.234: kpf_f001 <-kpf_write"
	awk '!/^#/ { for (i = 2; i < NF; i++) if ($(i + 1) ~ /^<-/) {
		f = $i; if (f ~ /^\[/) f = $(i - 1); c[f]++; break } }
		END { for (f in c) print f, c[f] }' $TR/trace | sort >/tmp/fs.ref
	over=$(cat $TR/per_cpu/cpu*/stats | awk '/^overrun:/ { s += $2 } END { print s + 0 }')
	echo nop >$TR/current_tracer
	echo >$TR/set_ftrace_filter
	echo "$kb" >$TR/buffer_size_kb
	echo 1 >$TR/tracing_on
	is "$over" 0 "function tracer: no event lost (overrun 0)"
	hits "$A" /tmp/fs.a
	# every function either side names, non-zero on one side at least
	d=$(awk 'NR == FNR { ref[$1] = $2; next } { got[$1] = $2 }
		END {
			for (f in ref) if (got[f] != ref[f]) { d = d " " f ":" got[f] + 0 "!=" ref[f]; n++ }
			for (f in got) if (!(f in ref) && got[f] != 0) { d = d " " f ":" got[f] "!=0"; n++ }
			if (n) print n " differ:" substr(d, 1, 200)
		}' /tmp/fs.ref /tmp/fs.a)
	nref=$(wc -l </tmp/fs.ref)
	is "$d" "" "set $A equals ftrace's function tracer for every function ($nref traced, same round)"
	expect 1 0 >/tmp/fs.want
	is "$(differ /tmp/fs.ref /tmp/fs.want 0)" "" "and the tracer's own counts are the known ones"
	kprofctl start "$A"
else
	echo "ok - set $A equals ftrace's function tracer # SKIP no function tracer in this kernel"
fi

# ---- (c2) ftrace's function profiler, where the kernel has one (debug
# kernels; Debian's lack CONFIG_FUNCTION_PROFILER)
if [ -w $TR/function_profile_enabled ]; then
	echo ':mod:kprof_funcs' >$TR/set_ftrace_filter
	kprofctl reset "$A"
	echo 1 >$TR/function_profile_enabled
	echo "run 1" >$D/trigger
	echo 0 >$TR/function_profile_enabled
	kprofctl stop "$A"
	# "  Function  Hit  Time  Avg  s^2" per CPU
	awk '$1 ~ /^[a-z_]/ && $2 ~ /^[0-9]+$/ { c[$1] += $2 }
		END { for (f in c) print f, c[f] }' $TR/trace_stat/function* |
		sort >/tmp/fs.prof
	echo >$TR/set_ftrace_filter
	hits "$A" /tmp/fs.a
	d=$(awk 'NR == FNR { ref[$1] = $2; next } { got[$1] = $2 }
		END {
			for (f in ref) if (got[f] != ref[f]) { d = d " " f ":" got[f] + 0 "!=" ref[f]; n++ }
			for (f in got) if (!(f in ref) && got[f] != 0) { d = d " " f ":" got[f] "!=0"; n++ }
			if (n) print n " differ:" substr(d, 1, 200)
		}' /tmp/fs.prof /tmp/fs.a)
	is "$d" "" "set $A equals ftrace's function profiler for every function ($(wc -l </tmp/fs.prof) profiled)"
	expect 1 0 >/tmp/fs.want
	is "$(differ /tmp/fs.prof /tmp/fs.want 0)" "" "and the profiler's own counts are the known ones"
	kprofctl start "$A"
else
	echo "ok - set $A equals ftrace's function profiler # SKIP no CONFIG_FUNCTION_PROFILER"
fi

# ---- (e) latency per function: p50 within 1/16 of the known duration,
# through kretprobes and through the fast path (ftrace and kprofctl's
# return trampoline, where the module has it)
need_kprobes "a latency set through kretprobes (--kretprobe)" && hows=--kretprobe || hows=
for how in $hows --fast; do
capture kprofctl add 'kretprobe:kprof_funcs:kpf_lat_*' $how --start
if [ "$how" = --fast ] && [ "$rc" != 0 ] && echo "$err" | grep -q "needs dynamic ftrace"; then
	echo "ok - a latency set through the fast path # SKIP $(uname -m): no fast path"
	continue
fi
ok "$rc" "add kretprobe:kprof_funcs:kpf_lat_* $how --start"
L=$out
echo "lat 64" >$D/trigger
kprofctl stop "$L"
sj "$L"
want=kprobes
[ "$how" = --fast ] && want=ftrace
is "$(jfield type) $(jfield mech)" "kretprobe-set $want" "set $L: a kretprobe set through $want"
jlist functions count >/tmp/fs.lc
jlist functions p50_ns >/tmp/fs.lp
is "$(sort /tmp/fs.lc | awk '{ printf "%s:%s ", $1, $2 }')" \
	"kpf_lat_0:64 kpf_lat_100us:64 kpf_lat_10us:64 kpf_lat_1us:64 " \
	"set $L: 64 calls of each kpf_lat_*"
base=$(val kpf_lat_0 /tmp/fs.lp)
diag "set $L ($how): p50 of an empty spin (kpf_lat_0, two clock reads): ${base:-?} ns"
for f in 1us:1000 10us:10000 100us:100000; do
	n=${f%:*} dur=${f#*:}
	p50=$(val "kpf_lat_$n" /tmp/fs.lp)
	want=$((dur + ${base:-0}))
	diff=$((${p50:-0} - want))
	if [ "${base:-0}" -gt $((4 * dur)) ]; then
		# debug kernels (KASAN, lockdep): the empty call's variation
		# between functions is more than 1/16 of the duration
		echo "ok - kpf_lat_$n: p50 ${p50:-?} ns near $want ns # SKIP the empty call ($base ns) is over 4x its $dur ns"
		continue
	fi
	[ ${diff#-} -le $((want / 16)) ]
	ok $? "kpf_lat_$n ($how): p50 ${p50:-?} ns within 1/16 of $want ns ($dur + kpf_lat_0's $base)"
done
kprofctl del "$L"
done

# ---- (e2) a latency set through the fast path because it is the default
# (fast=Y, no --fast) gives a function it cannot follow (kpf_notrace, no
# ftrace call site) a kretprobe of its own, as a single probe falls back;
# --fast skips it.  Exact counts through both, none while stopped.
FP=/sys/module/kprofctl/parameters/fast
S='kretprobe:kprof_funcs:kpf_[ln][ao]t[_r]*'
if [ -e $FP ] && [ $KPROBES = no ]; then
	# no kprobes to fall back on: what ftrace cannot follow is skipped
	capture kprofctl add "$S" --start
	ok "$rc" "no kprobes: add $S --start (the default: ftrace)"
	F=$out
	echo "lat 2" >$D/trigger
	echo "run 1" >$D/trigger
	sj "$F"
	jlist skipped reason | tr '\n' ' ' >/tmp/fs.fs
	is "$(jfield mech) $(jfield nr_probed) $(cat /tmp/fs.fs)" "ftrace 4 kpf_notrace notrace " \
		"set $F without kprobes: kpf_notrace skipped as notrace, no kretprobe"
	is "$(jlist functions count | sort | tr '\n' ' ')" \
		"kpf_lat_0 2 kpf_lat_100us 2 kpf_lat_10us 2 kpf_lat_1us 2 " \
		"set $F without kprobes: the followed functions' calls exact"
	kprofctl del "$F"
	kprofctl add 'kretprobe:kprof_funcs:kpf_notrac?' >/tmp/fs.out 2>&1
	is "$?" 1 "no kprobes: a set of kpf_notrace alone is refused"
elif [ -e $FP ]; then
	fast0=$(cat $FP)
	echo Y >$FP
	capture kprofctl add "$S" --start
	ok "$rc" "fast=Y: add $S --start"
	F=$out
	echo "run 2" >$D/trigger
	echo "lat 3" >$D/trigger
	kprofctl stop "$F"
	echo "run 1" >$D/trigger
	echo "lat 1" >$D/trigger
	kprofctl start "$F"
	echo "run 1" >$D/trigger
	echo "lat 1" >$D/trigger
	sj "$F"
	is "$(jfield mech) $(jfield nr_funcs) $(jfield nr_probed)" "ftrace 5 5" \
		"set $F: through ftrace, all 5 functions hooked"
	jlist functions via | sort | tr '\n' ' ' >/tmp/fs.fv
	is "$(cat /tmp/fs.fv)" "kpf_lat_0 - kpf_lat_100us - kpf_lat_10us - kpf_lat_1us - kpf_notrace kretprobe " \
		"set $F: kpf_notrace through a kretprobe of its own, kpf_lat_* through ftrace"
	jlist functions count | sort | tr '\n' ' ' >/tmp/fs.fc
	is "$(cat /tmp/fs.fc)" "kpf_lat_0 4 kpf_lat_100us 4 kpf_lat_10us 4 kpf_lat_1us 4 kpf_notrace 3 " \
		"set $F: exact counts through both, none while stopped (3 of 4 rounds, 4 of 5 lat)"
	kprofctl show "$F" >/tmp/fs.ft
	grep -q "5 hooked, 0 skipped), via ftrace and 1 kretprobe$" /tmp/fs.ft &&
		grep -q "^  kpf_notrace (kretprobe) " /tmp/fs.ft
	ok $? "show: the header counts the kretprobes, the row says (kretprobe)" ||
		diag "$(cat /tmp/fs.ft)"
	kprofctl list >/tmp/fs.fl
	grep -q "^ *$F  kretprobe-set .* ftrace .*(5 funcs, 0 skipped, 1 kretprobe)$" /tmp/fs.fl
	ok $? "list: VIA ftrace, and the set's kretprobe counted" ||
		diag "$(cat /tmp/fs.fl)"
	kprofctl del "$F"
	capture kprofctl add "$S" --fast --start
	ok "$rc" "add $S --fast --start"
	F=$out
	sj "$F"
	jlist skipped reason | tr '\n' ' ' >/tmp/fs.fs
	is "$(jfield nr_probed) $(cat /tmp/fs.fs)" "4 kpf_notrace notrace " \
		"set $F (--fast): kpf_notrace skipped as notrace, no kretprobe"
	kprofctl del "$F"
	# nothing for ftrace: no ftrace_ops at all (an empty filter would
	# hook every function)
	n0=$(wc -l <$TR/enabled_functions)
	capture kprofctl add 'kretprobe:kprof_funcs:kpf_notrac?' --start
	ok "$rc" "fast=Y: add kretprobe:kprof_funcs:kpf_notrac? (kpf_notrace alone) --start"
	F=$out
	echo "run 2" >$D/trigger
	sj "$F"
	is "$(jfield mech) $(jlist functions count | tr '\n' ' ')$(wc -l <$TR/enabled_functions)" \
		"ftrace kpf_notrace 2 $n0" \
		"set $F: its kretprobe counted the 2 calls; ftrace hooks no function more ($n0)"
	kprofctl del "$F"
	kprofctl add 'kretprobe:kprof_funcs:kpf_notrac?' --fast >/tmp/fs.out 2>&1
	is "$?" 1 "--fast: a set of kpf_notrace alone is refused"
	echo "$fast0" >$FP
else
	echo "ok - a fast set's kretprobes for what it cannot follow # SKIP $(uname -m): no fast path"
fi

# ---- (g) --if on sets: this shell's calls only; slow calls of one comm
capture kprofctl add 'kprobe:kprof_funcs:kpf_f*' --if "pid==$$" --start
ok "$rc" "add kprobe:kprof_funcs:kpf_f* --if 'pid==\$\$'"
P=$out
echo "run 2" >$D/trigger
sh -c "echo 'run 1' >$D/trigger"
hits "$P" /tmp/fs.p
expect 2 0 >/tmp/fs.want
is "$(differ /tmp/fs.p /tmp/fs.want)" "" "set $P --if pid: this shell's 2 rounds exactly, another pid's round not"
kprofctl del "$P"
capture kprofctl add 'kprobe:kprof_funcs:kpf_f*' --if 'arg1==1'
[ "$rc" = 2 ] && echo "$err" | grep -q 'only with kretprobe:'
ok $? "arguments on a kprobe set are refused, saying what takes them"
capture kprofctl add 'kretprobe:kprof_funcs:kpf_lat_*' --if 'latency>=60000 && comm==kpset' --start
ok "$rc" "add kretprobe:kprof_funcs:kpf_lat_* --if 'latency>=60000 && comm==kpset'"
Q=$out
echo "lat 8" >$D/trigger
sh -c "printf kpset >/proc/\$\$/comm; echo 'lat 4' >$D/trigger"
sj "$Q"
jlist functions count >/tmp/fs.qc
# Under icount both vCPUs advance one clock: a faster call that the other
# vCPU's slice interrupts can read past 60 us.  Exactly kpset's 4 calls of
# kpf_lat_100us, and of the 12 faster calls of kpset at most one (the other
# comm's 8 rounds: none at all).
got=$(sort /tmp/fs.qc | awk '{ printf "%s:%s ", $1, $2 }')
stray=$(sort /tmp/fs.qc | awk '$1 != "kpf_lat_100us" { n += $2 } END { print n + 0 }')
case $got in
*kpf_lat_100us:4\ *) [ "$stray" -le 1 ] ;;
*) false ;;
esac
ok $? "set $Q: only kpset's 4 calls of kpf_lat_100us pass ($got; stretched: $stray)"
kprofctl del "$Q"

# ---- (f) unload and reload with the sets armed: gone, back, counts go on
kprofctl reset "$A"
kprofctl reset "$B"
echo "run 1" >$D/trigger
rmmod kprof_funcs
ok $? "rmmod kprof_funcs with sets $A and $B armed"
is "$(jstate "$A") $(jstate "$B")" "gone gone" "both sets gone"
hits "$A" /tmp/fs.a
expect 1 0 >/tmp/fs.want
is "$(differ /tmp/fs.a /tmp/fs.want)" "" "set $A (gone) still shows its counts"
insmod $KO
ok $? "insmod kprof_funcs again"
is "$(jstate "$A") $(jstate "$B")" "running running" "both sets back and running"
echo "run 1" >$D/trigger
expect 2 1 >/tmp/fs.want
hits "$A" /tmp/fs.a
is "$(differ /tmp/fs.a /tmp/fs.want)" "" "set $A: counts go on across the reload (2 rounds + the 2nd load's init calls)"
hits "$B" /tmp/fs.b
is "$(differ /tmp/fs.b /tmp/fs.want)" "" "set $B (added after the 1st load): counts go on too"
is "$(val kpf_init_only /tmp/fs.b)" 1 "set $B: kpf_init_only's call from the 2nd init counted"
# rmmod kprofctl with sets armed (a pending one too), then calls go on
kprofctl add 'kprobe:kprof_funcs_absent:*' --start >/dev/null
ok $? "a set on a module that never loads: pending"
kprofctl add 'kretprobe:kprof_funcs:kpf_f00*' --start >/dev/null
rmmod kprofctl
ok $? "rmmod kprofctl with function sets armed"
echo "run 1" >$D/trigger
ok $? "kprof_funcs runs its calls after kprofctl left"
insmod /kprofctl.ko set_ftrace=0
ok $? "kprofctl loads again, set_ftrace=0"

# ---- the kprobe fallback (the mechanism without dynamic ftrace) on any
# kernel with kprobes: set_ftrace=0
if need_kprobes "set_ftrace=0: a set through kprobes"; then
capture kprofctl add 'kprobe:kprof_funcs:kpf_*' --if "pid==$$" --start
ok "$rc" "set_ftrace=0: add kprobe:kprof_funcs:kpf_* --if 'pid==\$\$' --start"
K=$out
is "$(jstate "$K") $(jfield mech)" "running kprobes" "set $K runs through kprobes"
echo "run 2" >$D/trigger
sh -c "echo 'run 1' >$D/trigger"
hits "$K" /tmp/fs.k
expect 2 0 >/tmp/fs.want
is "$(differ /tmp/fs.k /tmp/fs.want)" "" "set $K (kprobes): every kpf_f* counted exactly (this shell's 2 rounds)"
is "$(val kpf_notrace /tmp/fs.k)" 2 "set $K (kprobes): kpf_notrace is hooked and counted its 2 calls"
kprofctl del "$K"
fi
rmmod kprofctl && insmod /kprofctl.ko
ok $? "kprofctl reloaded with its defaults"

# ---- (g) a real module: null_blk under direct-I/O reads of nullb0
nb='kprobe:null_blk:*'
if [ ! -e /sys/block/nullb0 ]; then
	insmod /files/configfs.ko 2>/dev/null
	insmod /files/null_blk.ko
fi
# built in (debug kernels): the core kernel's null_blk functions
[ -e /sys/module/null_blk/initstate ] || nb='kprobe:null*'
if [ -e /sys/block/nullb0 ]; then
	[ -b /dev/nullb0 ] || mknod /dev/nullb0 b $(tr ':' ' ' </sys/block/nullb0/dev)
	capture kprofctl add "$nb" --start
	ok "$rc" "add $nb --start"
	N=$out
	/files/selftest dio /dev/nullb0 100
	ok $? "100 direct-I/O reads of nullb0"
	kprofctl stop "$N"
	hits "$N" /tmp/fs.n
	diag "$nb: $(jfield nr_funcs) functions, $(jfield nr_probed) hooked, mech $(jfield mech)"
	diag "busiest: $(sort -k2nr /tmp/fs.n | head -n 8 | tr '\n' ';')"
	# one request per read: queued (null_queue_rqs on 6.12 calls it too)
	# and completed once each
	is "$(val null_queue_rq /tmp/fs.n) $(val null_complete_rq /tmp/fs.n)" "100 100" \
		"the request path: null_queue_rq and null_complete_rq 100 calls each"
	# configfs and zoned-device functions: no configfs write, no zoned disk
	z= nz=0
	for f in null_report_zones null_process_zoned_cmd null_zone_write \
		nullb_group_make_item nullb_group_drop_item nullb_device_power_store; do
		c=$(val $f /tmp/fs.n)
		[ -n "$c" ] || continue
		nz=$((nz + 1))
		[ "$c" = 0 ] || z="$z $f:$c"
	done
	[ $nz -ge 2 ] && [ -z "$z" ]
	ok $? "$nz functions it cannot reach (configfs, zoned) count 0${z:+ (not:$z)}"
	is "$(jfield mech)" $MECH "$nb hooks through $MECH"
	kprofctl del "$N"
else
	ok 1 "null_blk: no nullb0 (neither built in nor in /files)"
fi

# ---- (h) a core-kernel glob
capture kprofctl add 'kprobe:vfs_*' --start
ok "$rc" "add kprobe:vfs_* --start (core kernel)"
V=$out
head -c 100 /dev/zero >/tmp/fs.100
dd if=/tmp/fs.100 of=/dev/null bs=1 count=100 2>/dev/null
kprofctl stop "$V"
hits "$V" /tmp/fs.v
nf=$(jfield nr_funcs)
[ "${nf:-0}" -gt 20 ]
ok $? "kprobe:vfs_*: $nf functions (> 20)"
is "$(jfield mech)" $MECH "kprobe:vfs_* hooks through $MECH"
r=$(val vfs_read /tmp/fs.v)
[ "${r:-0}" -ge 100 ]
ok $? "vfs_read: ${r:-?} calls >= the 100 reads of dd bs=1"
kprofctl del all

# ---- a set whose hooked functions are all __init: once init is over,
# nothing is left to hook, and an empty ftrace filter would hook every
# function in the kernel (enabled_functions would list them all)
if [ $MECH = ftrace ]; then
	rmmod kprof_funcs
	en0=$(wc -l <$TR/enabled_functions)
	capture kprofctl add 'kprobe:kprof_funcs:kpf_init_onl?' --start
	ok "$rc" "add kprobe:kprof_funcs:kpf_init_onl? before the module loads"
	I=$out
	insmod $KO && echo "run 1" >$D/trigger
	ok $? "kprof_funcs loaded, one round"
	sj "$I"
	is "$(jfield state) $(jfield nr_probed) $(jlist functions count | tr '\n' ' ')" \
		"running 0 kpf_init_only 1 " "the __init-only set: running, nothing hooked, init counted once"
	is "$(wc -l <$TR/enabled_functions)" "$en0" \
		"no function is left hooked by it (enabled_functions: $en0 lines, as before)"
	kprofctl stop "$I" && kprofctl start "$I"
	ok $? "stopped and started again"
	is "$(wc -l <$TR/enabled_functions)" "$en0" "starting it hooks nothing either"
	kprofctl del "$I"
else
	ok 1 "__init-only set # SKIP no dynamic ftrace (mechanism $MECH)"
fi
# ... and a latency set on the fast path by default, kpf_notrace beside
# the __init one: once init is over ftrace's part goes whole (no ops left
# with an empty filter), kpf_notrace's kretprobe stays and counts on
if [ $MECH = ftrace ] && [ -e $FP ] &&
   need_kprobes "a fast set's __init function and kretprobe"; then
	fast0=$(cat $FP)
	echo Y >$FP
	rmmod kprof_funcs
	en0=$(wc -l <$TR/enabled_functions)
	S='kretprobe:kprof_funcs:kpf_[in][no][it]*'
	capture kprofctl add "$S" --start
	ok "$rc" "fast=Y: add $S (kpf_init_only, kpf_notrace) before the module loads"
	I=$out
	insmod $KO && echo "run 2" >$D/trigger
	ok $? "kprof_funcs loaded, two rounds"
	sj "$I"
	is "$(jfield state) $(jfield nr_probed) $(jlist functions count | sort | tr '\n' ' ')" \
		"running 1 kpf_init_only 1 kpf_notrace 2 " \
		"set $I: init's call through ftrace, then kpf_notrace's kretprobe alone: its 2 calls"
	is "$(wc -l <$TR/enabled_functions)" "$en0" \
		"... and ftrace hooks no function for it after init ($en0 lines, as before)"
	kprofctl stop "$I" && kprofctl start "$I" && echo "run 1" >$D/trigger
	sj "$I"
	is "$(jlist functions count | sort | tr '\n' ' ')$(wc -l <$TR/enabled_functions)" \
		"kpf_init_only 1 kpf_notrace 3 $en0" \
		"stopped and started: the kretprobe counts on, ftrace still hooks nothing"
	kprofctl del "$I"
	echo "$fast0" >$FP
elif [ $KPROBES = yes ]; then
	echo "ok - a fast set's __init function and kretprobe # SKIP no fast path or no dynamic ftrace"
fi

# ---- (i) boot-time lists take globs: a set from probes= waits for its
# module and counts from its init
rmmod kprof_funcs && rmmod kprofctl &&
	insmod /kprofctl.ko 'probes=kprobe:kprof_funcs:kpf_f00?'
ok $? "insmod kprofctl.ko probes=kprobe:kprof_funcs:kpf_f00?"
B=$(kprofctl list | awk '/kprof_funcs:kpf_f00/ { print $1; exit }')
is "$(jstate "${B:-0}")" pending "the boot-time set waits for kprof_funcs"
insmod $KO && echo "run 1" >$D/trigger
ok $? "kprof_funcs loaded, one round"
hits "${B:-0}" /tmp/fs.b
# one round (i + 1 calls) and the init call of every third function
is "$(sort /tmp/fs.b | tr '\n' ' ')" \
	"kpf_f000 2 kpf_f001 2 kpf_f002 3 kpf_f003 5 kpf_f004 5 kpf_f005 6 kpf_f006 8 kpf_f007 8 kpf_f008 9 kpf_f009 11 " \
	"the boot-time set counts kpf_f000..kpf_f009 exactly, init calls included"
kprofctl del all
rmmod kprofctl && insmod /kprofctl.ko
ok $? "kprofctl reloaded without the list"
exit $tap_fail
