#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mem: probes by stack (--key stack, kprofctl mem --stacks) on
# kprof_test_mem, beside one by call site over the same rounds: each
# site's numbers the same both ways (summed over its stacks); kvmalloc()
# from kprof_tm_kv (its call site kvmalloc's own on most kernels) exact
# by stack; the stacks' frames; names and leaks after unload.
# kprofctl is loaded (and kprof_test_mem, by tests/vm/run).
# shellcheck source=tap.sh
. /tests/tap.sh
# shellcheck source=memlib.sh
. /tests/memlib.sh
KO=/kmod/kmod/kprof_test_mem.ko
D=/sys/kernel/debug/kprof_test_mem
# the allocator's allocations for itself, made inside MOD's and so MOD's
# by stack (README, Known limits), are left out: a debug kernel's
# kmemleak's record of each object, 7.x SLUB's sheaves of a cache
STACKS_SKIP='"kmemleak_|"create_object|"__alloc_empty_sheaf'

# allleaks ID -> leaks summed over the sites (STACKS_SKIP's left out)
allleaks() {
	kprofctl show "$1" --json >/tmp/mem.json
	sites /tmp/mem.json | sed -n 's/.*"leaks":\([0-9]*\).*/\1/p' |
		awk '{ s += $1 } END { print s + 0 }'
}

# a stack is a site: MOD's init alone (a platform device, debugfs files)
# is dozens of stacks, more rows than the default key table's 64
rmmod kprof_test_mem 2>/dev/null
rmmod kprofctl && insmod /kprofctl.ko pair_keys=512
ok $? "kprofctl loaded again with pair_keys=512"
capture kprofctl add --key stack --key pid mem:kprof_test_mem
is "$rc" 2 "--key stack with a second key on a mem: probe is refused"
capture kprofctl add --key caller mem:kprof_test_mem
is "$rc" 2 "--key caller on a mem: probe is refused (that is its default)"
echo "$err" | grep -q "or by stack (--key stack)"
ok $? "and says what it takes"
capture kprofctl add --start mem:kprof_test_mem
cid=$out
capture kprofctl add --start --key stack mem:kprof_test_mem
sid=$out
ok $rc "add --key stack mem:kprof_test_mem beside a probe by call site"
insmod $KO
ok $? "insmod kprof_test_mem"
echo 1 >$D/round && echo 1 >$D/round && echo 1 >$D/kv && echo 1 >$D/kv
ok $? "two rounds and two kvmalloc rounds"
for f in kprof_tm_init_site kprof_tm_a kprof_tm_b kprof_tm_c kprof_tm_d \
	kprof_tm_e kprof_tm_f kprof_tm_round; do
	want=$(row "$cid" $f)
	[ "$want" != "0 0 0 0 0" ] && [ "$(row "$sid" $f)" = "$want" ]
	ok $? "$f: its stacks add up to its call site's numbers ($want)"
done
is "$(top "$sid" other_keys) $(top "$cid" other_keys)" "0 0" "both probes' rows fit their key tables"
is "$(row "$sid" kprof_tm_kv)" "6 1200 4 2 0" \
	"kprof_tm_kv: by stack, 6 kvmalloc(200), 4 kvfree'd, 2 live"
bycaller=$(row "$cid" kprof_tm_kv)
[ "$bycaller" = "0 0 0 0 0" ] || [ "$bycaller" = "6 1200 4 2 0" ]
ok $? "by call site, kvmalloc's are this kernel's kvmalloc's ($bycaller) or the same"
kprofctl show "$sid" >/tmp/memstack.txt
# a site row, then its frames: the allocator's first (kvmalloc's where
# it did not tail-call), MOD's named one below
awk '/^  kprof_tm_kv\+0x[0-9a-f]* +kmalloc / { s = 1; n = 0; next }
	s && /^      / { if ($1 ~ /^kprof_tm_kv\+/ && n) f = 1; n++; next }
	{ s = 0 } END { exit !f }' /tmp/memstack.txt
ok $? "show: kprof_tm_kv's stacks, the allocator's frames above kprof_tm_kv's" ||
	diag "$(grep -A8 '^  kprof_tm_kv' /tmp/memstack.txt)"
kprofctl show "$sid" --json | tr '{' '\n' | grep '"site":"kprof_tm_kv+' |
	grep -q '"kind":"kmalloc","stack":\["[^]]*","kprof_tm_kv+0x[0-9a-f]*"'
ok $? "JSON: the site's stack, its frames named"
rmmod kprof_test_mem
ok $? "rmmod kprof_test_mem"
is "$(row "$sid" kprof_tm_e) $(row "$sid" kprof_tm_f)" "$(row "$cid" kprof_tm_e) $(row "$cid" kprof_tm_f)" \
	"the leak at unload, by stack as by call site: e's and f's"
is "$(row "$sid" kprof_tm_kv)" "6 1200 6 0 0" "kprof_tm_kv: the kept ones freed by its exit"
# what its init registered (a platform device, debugfs files) its exit
# unregistered, RCU's frees (inodes) before the leak is counted (before
# the fix, counted as leaks); what the kernel keeps for it is sysfs's
# entries of its slab cache (6.1: a merged cache's alias; 6.1-RT: its
# directory and alias; none on the debug kernel): nothing else
kprofctl show "$sid" --json >/tmp/mem.json
sites /tmp/mem.json | grep -v '"leaks":0,' |
	grep -v '"site":"kprof_tm_[ef]+' >/tmp/memstack.extra
is "$(grep -Evc '"(sysfs_slab_add|sysfs_slab_alias|__kmem_cache_alias|__kmem_cache_create)\+' /tmp/memstack.extra)" 0 \
	"by stack, what MOD leaked by call site and only sysfs's entries of its slab cache besides ($(allleaks "$sid") objects, $(total "$cid" leaks) by call site)"
while read -r l; do
	diag "also live at unload: $(echo "$l" | sed -n 's/.*"site":"\([^"]*\)".*"stack":\[\([^]]*\)\].*"leaks":\([0-9]*\).*/\3 at \1: \2/p' | cut -c1-300)"
done </tmp/memstack.extra
kprofctl show "$sid" >/tmp/memstack.txt
grep -q "^  kprof_tm_e+0x[0-9a-f]* *kmalloc " /tmp/memstack.txt
ok $? "sites keep their names after the module is gone"
grep -Eq "^ +(cleanup_module|init_module)\+" /tmp/memstack.txt
ok $((!$?)) "no frame of the text gone is named after another symbol"
grep -q "^      \[kprof_test_mem\]$" /tmp/memstack.txt
ok $? "its frames show as [kprof_test_mem], the site's as the site"
kprofctl del "$cid" && kprofctl del "$sid"

# the command: kprofctl mem --stacks
capture kprofctl mem --stacks --json kprof_test_mem -- sh -c "insmod $KO && echo 1 >$D/kv && rmmod kprof_test_mem"
ok $rc "kprofctl mem --stacks MOD -- CMD"
echo "$out" | tr '{' '\n' | grep '"site":"kprof_tm_kv+' | grep -Ev "$STACKS_SKIP" |
	sed -n 's/.*"allocs":\([0-9]*\).*"frees":\([0-9]*\).*/\1 \2/p' |
	awk '{ a += $1; f += $2 } END { print a + 0, f + 0 }' >/tmp/memstack.kv
is "$(cat /tmp/memstack.kv)" "3 3" "its kvmalloc round: 3 allocated, 3 freed"
echo "$out" | grep -q '"other_keys":0,'
ok $? "every row in the key table (none beyond it)"
rmmod kprofctl && insmod /kprofctl.ko
ok $? "kprofctl loaded again as before"
insmod $KO
ok $? "kprof_test_mem loaded again for the stages after"
exit $tap_fail
