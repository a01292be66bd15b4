#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Why a kprobe's symbol is missing (tests/vm/guest/suite.sh): a typo, a
# module that is not loaded, __init code, an inlined function each get
# their own message.  kprofctl and kprof_test are loaded.
# shellcheck source=tap.sh
. /tests/tap.sh
KO=/kmod/kmod/kprof_test.ko

# where modinfo would find kprof_test.ko (the initramfs has no
# /lib/modules): an absolute path in modules.dep, as kmod accepts
MD=/lib/modules/$(uname -r)
mkdir -p "$MD"
[ -e "$MD/modules.dep" ] && cp "$MD/modules.dep" /tmp/modules.dep.orig
echo "$KO:" >>"$MD/modules.dep"

nf() { # SPEC WANT DESC: add fails with exactly WANT on stderr
	spec=$1
	want=$2
	desc=$3
	capture kprofctl add "$spec"
	is "$rc" 1 "add $spec exits 1"
	is "$err" "$want" "$desc"
}

nf kprobe:kprof_test_nopp \
	"kprofctl: add: kprof_test_nopp not found in /proc/kallsyms: did you mean kprof_test_nop [kprof_test]?" \
	"a typo: the nearest name, with its module"
nf kretprobe:kprof_test:kprof_test_spn \
	"kprofctl: add: kprof_test_spn not found in /proc/kallsyms: did you mean kprof_test_spin [kprof_test]?" \
	"a typo in MOD:SYM: the nearest name of that module"
nf kretprobe:kprof_nomod:kprof_nomod_fast \
	"kprofctl: add: module kprof_nomod is not loaded: add --defer to attach when it loads" \
	"MOD:SYM, MOD not loaded: the --defer hint"
nf kretprobe:kprof_test:kprof_test_init \
	"kprofctl: add: kprof_test_init is __init code of kprof_test, freed after load: use kretprobe:kprof_test:kprof_test_init --defer and reload the module" \
	"an __init function of a module: --defer and reload"
nf kprobe:kprof_test_init \
	"kprofctl: add: kprof_test_init is __init code of kprof_test, freed after load: use kprobe:kprof_test:kprof_test_init --defer and reload the module" \
	"an __init function named without its module: found in the loaded modules"
nf kprobe:kprof_test_clamp_calls \
	"kprofctl: add: kprof_test_clamp_calls not found in /proc/kallsyms: inlined or static?" \
	"a static inline function: inlined or static"
nf kprobe:kprofctl:kprof_test_nop \
	"kprofctl: add: kprof_test_nop is not in module kprofctl but in module kprof_test: kprobe:kprof_test:kprof_test_nop" \
	"MOD:SYM, SYM in another module: that one"
nf kretprobe:kprof_test:vfs_read \
	"kprofctl: add: vfs_read is not in module kprof_test but in the kernel: kretprobe:vfs_read" \
	"MOD:SYM, SYM in the kernel: the kernel's"
capture kprofctl run kprobe:kprof_test_nopp -- true
is "$err" "kprofctl: add: kprof_test_nopp not found in /proc/kallsyms: did you mean kprof_test_nop [kprof_test]?" \
	"run reports the same diagnosis"

# the advice works: deferred, the __init function is caught at reload
id=$(kprofctl add kretprobe:kprof_test:kprof_test_init --defer --start)
ok $? "add kretprobe:kprof_test:kprof_test_init --defer"
rmmod kprof_test && insmod $KO
is "$(count "$id")" 1 "reloaded: kprof_test_init counted once"
kprofctl del "$id"

# a compressed .ko is read through its decompressor
gzip -c $KO >/tmp/kprof_test.ko.gz
echo "/tmp/kprof_test.ko.gz:" >"$MD/modules.dep"
nf kretprobe:kprof_test:kprof_test_init \
	"kprofctl: add: kprof_test_init is __init code of kprof_test, freed after load: use kretprobe:kprof_test:kprof_test_init --defer and reload the module" \
	"an __init function found in a .ko.gz"
# without the .ko it cannot tell: the nearest name, and that it may be __init
rm "$MD/modules.dep"
nf kretprobe:kprof_test:kprof_test_init \
	"kprofctl: add: kprof_test_init not found in /proc/kallsyms: did you mean kprof_test_exit [kprof_test]?
  (or __init code of kprof_test, freed after load: its .ko, not found where modinfo -n looks,
  would tell; then use --defer and reload the module)" \
	"no .ko to read: the nearest name, and maybe __init"

# while any ftrace_ops is registered ftrace keeps the names of freed
# __init functions in /proc/kallsyms: the name is listed, yet nothing can
# probe it.  kprofctl tells by the module's sections.  The function tracer
# (filtered to one function) holds an ops across a reload.
F=/sys/kernel/tracing
if [ -w $F/current_tracer ] && grep -qw function $F/available_tracers; then
	echo vfs_read >$F/set_ftrace_filter
	echo function >$F/current_tracer
	rmmod kprof_test && insmod $KO
	echo nop >$F/current_tracer
	echo >$F/set_ftrace_filter
	grep -q " kprof_test_init	\[kprof_test\]$" /proc/kallsyms
	ok $? "ftrace kept the name of kprof_test_init, freed, in /proc/kallsyms"
	nf kretprobe:kprof_test:kprof_test_init \
		"kprofctl: add: kprof_test_init is __init code of kprof_test, freed after load: use kretprobe:kprof_test:kprof_test_init --defer and reload the module" \
		"listed by ftrace, no .ko: __init all the same (its section)"
	nf kprobe:kprof_test_init \
		"kprofctl: add: kprof_test_init is __init code of kprof_test, freed after load: use kprobe:kprof_test:kprof_test_init --defer and reload the module" \
		"... named without its module"
	# forget it: a reload with no ops registered
	rmmod kprof_test && insmod $KO
	grep -q " kprof_test_init	\[kprof_test\]$" /proc/kallsyms
	is $? 1 "reloaded with ftrace idle: kallsyms does not list it"
else
	echo "ok - freed __init names ftrace keeps # SKIP no function tracer"
fi
if [ -e /tmp/modules.dep.orig ]; then
	cp /tmp/modules.dep.orig "$MD/modules.dep"
else
	rm -f "$MD/modules.dep"
fi
exit $tap_fail
