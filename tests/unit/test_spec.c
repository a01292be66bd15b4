// SPDX-License-Identifier: GPL-2.0
/* Spec, number and CPU-list parsing. */
#include <stdint.h>
#include <string.h>

#include "unit.h"
#include "spec.h"
#include "agg.h"

static void spec_is(const char *s, int want)
{
	char err[256] = "";
	int got = kp_parse_spec(s, err, sizeof(err));

	CHECK(got == want, "spec '%s': got %d want %d (%s)", s, got, want, err);
	if (!want)
		CHECK(err[0], "spec '%s' explains itself", s);
}

static void test_specs(void)
{
	char longsym[400];

	spec_is("kprobe:vfs_read", KPROF_TYPE_KPROBE);
	spec_is("kprobe:vfs_read+4", KPROF_TYPE_KPROBE);
	spec_is("kprobe:vfs_read+0x10", KPROF_TYPE_KPROBE);
	spec_is("kprobe:mymod:my_fn", KPROF_TYPE_KPROBE);
	spec_is("kprobe:foo.isra.0", KPROF_TYPE_KPROBE);
	spec_is("kretprobe:vfs_read", KPROF_TYPE_KRETPROBE);
	spec_is("kretprobe:mod:fn", KPROF_TYPE_KRETPROBE);
	spec_is("tracepoint:sched:sched_switch", KPROF_TYPE_TRACEPOINT);
	spec_is("tracepoint:irq:irq_handler_entry", KPROF_TYPE_TRACEPOINT);
	spec_is("tracepoint:sched", 0);
	spec_is("tracepoint::sched_switch", 0);
	spec_is("tracepoint:sched:", 0);
	spec_is("tracepoint:sched:a:b", 0);
	spec_is("tracepoint:sched:a-b", 0);
	spec_is("kretprobe:vfs_read+4", 0);
	spec_is("kprobe:", 0);
	spec_is("kprobe:+4", 0);
	spec_is("kprobe:foo+", 0);
	spec_is("kprobe:foo+-1", 0);
	spec_is("kprobe:foo+4x", 0);
	spec_is("kprobe:foo bar", 0);
	spec_is("kprobe:foo;rm", 0);
	spec_is("kprobe::foo", 0);
	spec_is("kprobe:foo:", 0);
	spec_is("uprobe:foo", 0);
	spec_is("kprobe", 0);
	spec_is("", 0);
	memset(longsym, 'a', sizeof(longsym) - 1);
	memcpy(longsym, "kprobe:", 7);
	longsym[sizeof(longsym) - 1] = '\0';
	spec_is(longsym, 0);
	longsym[KPROF_SPEC_LEN - 1] = '\0';
	spec_is(longsym, KPROF_TYPE_KPROBE);
}

/* issue 18: a bare number is no duration ("--slow 5" was 5 ns) */
static void test_durations(void)
{
	uint64_t v = 0;

	CHECK(!kp_parse_duration("800ns", &v) && v == 800, "800ns");
	CHECK(!kp_parse_duration("500us", &v) && v == 500000, "500us");
	CHECK(!kp_parse_duration("2ms", &v) && v == 2000000, "2ms");
	CHECK(!kp_parse_duration("1s", &v) && v == 1000000000, "1s");
	CHECK(!kp_parse_duration("0ns", &v) && v == 0, "0ns");
	CHECK(kp_parse_duration("5", &v), "bare 5 refused");
	CHECK(kp_parse_duration("0", &v), "bare 0 refused");
	CHECK(kp_parse_duration("5 ms", &v), "space");
	CHECK(kp_parse_duration("5m", &v), "m is no unit");
	CHECK(kp_parse_duration("ms", &v), "no number");
	CHECK(kp_parse_duration("-1ms", &v), "negative");
	CHECK(kp_parse_duration("0x10ms", &v), "hex");
	CHECK(kp_parse_duration("99999999999999999999s", &v), "overflow");
	CHECK(kp_parse_duration("18446744074s", &v), "overflow in ns");
	CHECK(kp_parse_duration(NULL, &v), "NULL");
}

/* issue 18: probes that share a function */
static void test_funcs(void)
{
	char fn[64], fn2[64];

	CHECK(!kp_probe_func("kretprobe:vfs_read", fn, sizeof(fn)) &&
	      !strcmp(fn, "vfs_read"), "kretprobe function");
	CHECK(!kp_probe_func("kprobe:vfs_read+0x10", fn2, sizeof(fn2)) &&
	      !strcmp(fn2, "vfs_read"), "kprobe function without +OFF");
	CHECK(kp_same_func(fn, fn2), "same function");
	CHECK(!kp_probe_func("kprobe:mydrv:f", fn, sizeof(fn)) &&
	      !strcmp(fn, "mydrv:f"), "MOD:SYM");
	CHECK(kp_same_func("mydrv:f", "f"), "MOD:f and f may be one");
	CHECK(!kp_same_func("mydrv:f", "other:f"), "two modules' f differ");
	CHECK(!kp_same_func("f", "g"), "f is not g");
	CHECK(kp_probe_func("tracepoint:irq:irq_handler_entry", fn, sizeof(fn)),
	      "no function of a tracepoint");
	CHECK(kp_probe_func("pair:irq", fn, sizeof(fn)), "nor of a pair");
}

static void test_numbers(void)
{
	uint64_t v = 0;

	CHECK(!kp_parse_u64("42", 0, 100, &v) && v == 42, "42");
	CHECK(!kp_parse_u64("0x10", 0, 100, &v) && v == 16, "hex");
	CHECK(kp_parse_u64("101", 0, 100, &v), "over max");
	CHECK(kp_parse_u64("0", 1, 100, &v), "under min");
	CHECK(kp_parse_u64("-1", 0, UINT64_MAX, &v), "negative");
	CHECK(kp_parse_u64("+1", 0, 100, &v), "plus sign");
	CHECK(kp_parse_u64(" 1", 0, 100, &v), "leading space");
	CHECK(kp_parse_u64("1 ", 0, 100, &v), "trailing space");
	CHECK(kp_parse_u64("12abc", 0, 100, &v), "trailing junk");
	CHECK(kp_parse_u64("", 0, 100, &v), "empty");
	CHECK(kp_parse_u64("99999999999999999999999", 0, UINT64_MAX, &v),
	      "overflow");
	CHECK(!kp_parse_u64("18446744073709551615", 0, UINT64_MAX, &v) &&
	      v == UINT64_MAX, "max u64");
	/* base 10 unless 0x is written: a leading 0 is not octal */
	CHECK(!kp_parse_u64("010", 0, 100, &v) && v == 10, "010 is 10, got %llu",
	      (unsigned long long)v);
	CHECK(!kp_parse_u64("08", 0, 100, &v) && v == 8, "08 is 8");
	CHECK(!kp_parse_u64("0009", 0, 100, &v) && v == 9, "0009 is 9");
	CHECK(!kp_parse_u64("0", 0, 100, &v) && v == 0, "0");
	CHECK(!kp_parse_u64("0X1f", 0, 100, &v) && v == 31, "0X hex");
	CHECK(!kp_parse_u64("0xffffffffffffffff", 0, UINT64_MAX, &v) &&
	      v == UINT64_MAX, "max u64 in hex");
	CHECK(kp_parse_u64("0x10000000000000000", 0, UINT64_MAX, &v),
	      "hex overflow");
	CHECK(kp_parse_u64("1e3", 0, UINT64_MAX, &v), "1e3");
	CHECK(kp_parse_u64("0x", 0, 100, &v), "0x alone");
	CHECK(kp_parse_u64("0x-1", 0, 100, &v), "0x-1");
	CHECK(kp_parse_u64("0x+1", 0, 100, &v), "0x+1");
	CHECK(kp_parse_u64("0x 1", 0, 100, &v), "0x space");
	CHECK(kp_parse_u64("0xg", 0, 100, &v), "0x junk");
	CHECK(kp_parse_u64("0x0x10", 0, 100, &v), "0x twice");
	CHECK(kp_parse_u64("0b1", 0, 100, &v), "0b");
	CHECK(kp_parse_u64("1.5", 0, 100, &v), "1.5");
	CHECK(kp_parse_u64("-0", 0, 100, &v), "-0");
	CHECK(kp_parse_u64(NULL, 0, 100, &v), "NULL");
}

static void cpus_is(const char *s, unsigned int nr, int ok_want, __u64 w0,
		    __u64 w3)
{
	__u64 mask[KPROF_CPUMASK_WORDS];
	char err[128] = "";
	int ret = kp_parse_cpulist(s, nr, mask, err, sizeof(err));

	CHECK((ret == 0) == ok_want, "cpus '%s' nr %u: ret %d (%s)", s, nr,
	      ret, err);
	if (ok_want && !ret)
		CHECK(mask[0] == w0 && mask[3] == w3,
		      "cpus '%s': %llx..%llx", s, (unsigned long long)mask[0],
		      (unsigned long long)mask[3]);
	if (!ok_want)
		CHECK(err[0], "cpus '%s' explains itself", s);
}

static void test_cpulists(void)
{
	__u64 mask[KPROF_CPUMASK_WORDS] = { 0xf1, 0, 0, 1ULL << 63 };
	char buf[64];

	cpus_is("0", 8, 1, 1, 0);
	cpus_is("0-3", 8, 1, 0xf, 0);
	cpus_is("4-7,1", 8, 1, 0xf2, 0);
	cpus_is("0-3,2-5", 8, 1, 0x3f, 0);
	cpus_is("255", 256, 1, 0, 1ULL << 63);
	cpus_is("8", 8, 0, 0, 0);
	cpus_is("256", 1024, 0, 0, 0);
	cpus_is("3-1", 8, 0, 0, 0);
	cpus_is("", 8, 0, 0, 0);
	cpus_is(",", 8, 0, 0, 0);
	cpus_is("a", 8, 0, 0, 0);
	cpus_is("1-", 8, 0, 0, 0);
	cpus_is("-1", 8, 0, 0, 0);
	cpus_is("1,,2", 8, 1, 6, 0);
	/* decimal, not octal */
	cpus_is("010", 16, 1, 1 << 10, 0);
	cpus_is("08-09", 16, 1, 0x300, 0);
	kp_format_cpulist(mask, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0,4-7,255"), "format '%s'", buf);
}

/* The one table of kinds: names, accepted options, messages from it */
static void test_kinds(void)
{
	const struct kprof_kind *k;
	unsigned int nr, i, t;
	char buf[512], err[512];

	k = kprof_kinds(&nr);
	/*
	 * five single kinds, the two function sets (issue 13), samples,
	 * off-CPU, a module's memory
	 */
	CHECK(nr == 10, "ten kinds, got %u", nr);
	for (t = KPROF_TYPE_KPROBE; t <= KPROF_TYPE_MEM; t++) {
		const struct kprof_kind *x = kprof_kind_by_type(t);
		int set = t == KPROF_TYPE_KPROBE_SET ||
			  t == KPROF_TYPE_KRETPROBE_SET;

		CHECK(x && x->type == t, "type %u has a row", t);
		CHECK(x && kprof_kind_by_prefix_set(x->prefix, strlen(x->prefix),
						    set) == x,
		      "type %u found by its prefix", t);
		CHECK(x && !(x->flags & KPROF_KIND_SET) == !set,
		      "type %u: set flag", t);
	}
	CHECK(!kprof_kind_by_type(0) && !kprof_kind_by_type(11), "no type 0, 11");
	CHECK(kp_parse_spec("mem:kprof_test_mem", err, sizeof(err)) ==
	      KPROF_TYPE_MEM, "mem:MOD");
	CHECK(kp_parse_spec("offcpu:all", err, sizeof(err)) == KPROF_TYPE_OFFCPU &&
	      kp_parse_spec("offcpu:uninterruptible", err, sizeof(err)) ==
	      KPROF_TYPE_OFFCPU, "offcpu:all and offcpu:uninterruptible");
	CHECK(!kp_parse_spec("offcpu:io", err, sizeof(err)) &&
	      strstr(err, "all or uninterruptible"), "offcpu:io refused: %s", err);
	CHECK(!strcmp(kp_type_name(KPROF_TYPE_KPROBE_SET), "kprobe-set") &&
	      !strcmp(kp_type_name(KPROF_TYPE_KRETPROBE_SET), "kretprobe-set"),
	      "set type names");
	CHECK(!strcmp(kp_type_name(KPROF_TYPE_PAIR), "pair"), "pair's name");
	CHECK(!strcmp(kp_type_name(99), "unknown"), "unknown type's name");
	CHECK(kprof_kind_of_spec("kretprobe:x")->type == KPROF_TYPE_KRETPROBE,
	      "kind of a spec");
	CHECK(!kprof_kind_of_spec("kretprobes:x") && !kprof_kind_of_spec("kprobe"),
	      "no kind without an exact prefix and a colon");
	kp_kinds_accepting(KPROF_ACCEPT_SLOW, buf, sizeof(buf));
	/* each kind named once; a set right after its single kind */
	CHECK(!strcmp(buf, "kretprobes, kretprobe sets and pairs"),
	      "slow: got '%s'", buf);
	kp_kinds_accepting(KPROF_ACCEPT_MAXACTIVE, buf, sizeof(buf));
	CHECK(!strcmp(buf, "kretprobes and kretprobe sets"),
	      "maxactive: got '%s'", buf);
	kp_kinds_accepting(KPROF_ACCEPT_PMU, buf, sizeof(buf));
	CHECK(!strcmp(buf, "kretprobes"), "pmu: got '%s'", buf);
	kp_kinds_accepting(KPROF_ACCEPT_DEFER, buf, sizeof(buf));
	CHECK(!strcmp(buf, "kprobes, kprobe sets, kretprobes, kretprobe sets "
		      "and tracepoints"), "defer: got '%s'", buf);
	/* an unknown kind's message names every kind and every pair */
	CHECK(!kp_parse_spec("uprobe:x", err, sizeof(err)), "uprobe refused");
	CHECK(strstr(err, "unknown probe type"), "says unknown: %s", err);
	for (i = 0; i < nr; i++)
		CHECK(strstr(err, k[i].syntax), "'%s' in: %s", k[i].syntax, err);
	for (i = 0; kprof_pair_names()[i]; i++) {
		const char *n = kprof_pair_names()[i];

		CHECK(strstr(err, n), "pair %s in: %s", n, err);
		snprintf(buf, sizeof(buf), "pair:%s", n);
		spec_is(buf, KPROF_TYPE_PAIR);
	}
	CHECK(!kp_parse_spec("pair:bogus", err, sizeof(err)) &&
	      !strcmp(err, "unknown pair 'bogus' (irq, softirq, workqueue, wakeup, wakeup-pid or block)"),
	      "unknown pair: %s", err);
	CHECK(!kp_parse_spec("kretprobe:f+4", err, sizeof(err)) &&
	      !strcmp(err, "a kretprobe takes no offset: 'kretprobe:f+4'"),
	      "kretprobe offset: %s", err);
	spec_is("pmu:cpu_cycles", KPROF_TYPE_PMU);
	spec_is("pmu:", 0);
	spec_is("tracepoint:*:cpu_idle", KPROF_TYPE_TRACEPOINT);
}

/* issue 13: function sets, "kprobe:[MOD:]GLOB" */
static void test_sets(void)
{
	char err[256], fn[64];

	spec_is("kprobe:mydrv:*", KPROF_TYPE_KPROBE_SET);
	spec_is("kretprobe:mydrv:*", KPROF_TYPE_KRETPROBE_SET);
	spec_is("kprobe:vfs_*", KPROF_TYPE_KPROBE_SET);
	spec_is("kprobe:mydrv:*_xfer", KPROF_TYPE_KPROBE_SET);
	spec_is("kretprobe:mydrv:mydrv_?x", KPROF_TYPE_KRETPROBE_SET);
	spec_is("kprobe:mydrv:mydrv_[a-c]*", KPROF_TYPE_KPROBE_SET);
	spec_is("kprobe:mydrv:mydrv_[!a]*", KPROF_TYPE_KPROBE_SET);
	spec_is("kprobe:my-drv:f.isra*", KPROF_TYPE_KPROBE_SET);
	/* "tracepoint:*:NAME" is a tracepoint by name, not a set */
	spec_is("tracepoint:*:sched_switch", KPROF_TYPE_TRACEPOINT);
	spec_is("kprobe:mydrv:", 0);
	spec_is("kprobe:*:f", 0);
	spec_is("kprobe:my*:f*", 0);
	spec_is("kprobe::*", 0);
	spec_is("kprobe:mydrv:*:x", 0);
	spec_is("kprobe:mydrv:[", 0);
	spec_is("kprobe:mydrv:[]", 0);
	spec_is("kprobe:mydrv:a[!]", 0);
	spec_is("kprobe:mydrv:* x", 0);
	spec_is("kprobe:mydrv:*;rm", 0);
	CHECK(!kp_parse_spec("kprobe:mydrv:*+4", err, sizeof(err)) &&
	      !strcmp(err, "a kprobe set takes no offset: 'kprobe:mydrv:*+4'"),
	      "set offset: %s", err);
	CHECK(!kp_parse_spec("kretprobe:mydrv:f/*", err, sizeof(err)) &&
	      strstr(err, "bad character '/'"), "bad char: %s", err);
	CHECK(kp_probe_func("kprobe:mydrv:*", fn, sizeof(fn)),
	      "a set has no single function");
	CHECK(!strcmp(kp_mech_label(KPROF_TYPE_KRETPROBE_SET, KPROF_MECH_KPROBES),
		      "kretprobes") &&
	      !strcmp(kp_mech_label(KPROF_TYPE_KPROBE_SET, KPROF_MECH_KPROBES),
		      "kprobes") &&
	      !strcmp(kp_mech_label(KPROF_TYPE_KPROBE_SET, KPROF_MECH_FTRACE),
		      "ftrace"), "mechanism labels");
}

int main(void)
{
	test_specs();
	test_sets();
	test_kinds();
	test_numbers();
	test_durations();
	test_funcs();
	test_cpulists();
	return unit_done("spec");
}
