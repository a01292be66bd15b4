// SPDX-License-Identifier: GPL-2.0
/*
 * include/kprofctl/filter.h: --if and --key parsing, errors with their
 * span, validation of what the parser makes (the module's ADD check),
 * what each probe type can evaluate, and the errno table.
 */
#include <inttypes.h>
#include <errno.h>
#include <string.h>

#include "unit.h"
#include "kprofctl/filter.h"
#include "spec.h"

static struct kprof_filter f;
static struct kprof_parse_err e;

/* parses, and the result is what the module accepts */
static int parse(const char *text)
{
	int ret = kprof_filter_parse(text, &f, &e);

	if (!ret)
		CHECK(!kprof_filter_valid(&f), "'%s' parsed but not valid", text);
	return ret;
}

static void term_is(const char *text, unsigned int i, unsigned int field,
		    unsigned int op, unsigned int flags, __u64 value)
{
	const struct kprof_term *t = &f.term[i];

	CHECK(t->field == field && t->op == op && t->flags == flags &&
	      t->value == value, "'%s' term %u: field %u op %u flags %u "
	      "value %lld, want %u %u %u %lld", text, i, t->field, t->op,
	      t->flags, (long long)t->value, field, op, flags,
	      (long long)value);
}

static void one(const char *text, unsigned int field, unsigned int op,
		unsigned int flags, __u64 value)
{
	int ret = parse(text);

	CHECK(!ret && f.nr == 1, "'%s': %d nr %u (%s)", text, ret, f.nr,
	      e.msg ? e.msg : "");
	if (!ret)
		term_is(text, 0, field, op, flags, value);
}

/* an error: message (its start), quoted or not, and span */
static void bad(const char *text, const char *msg, bool quote,
		unsigned int off, unsigned int len)
{
	int ret = parse(text);

	CHECK(ret == -1 && e.msg && !strncmp(e.msg, msg, strlen(msg)) &&
	      e.quote == quote && e.off == off && e.len == len,
	      "'%s': %d '%s' quote %d at %u+%u, want '%s' %d at %u+%u", text,
	      ret, e.msg ? e.msg : "(none)", e.quote, e.off, e.len, msg,
	      quote, off, len);
}

#define S32	KPROF_TERM_S32

static void test_accepted(void)
{
	one("retval<0", KPROF_F_RETVAL, KPROF_OP_LT, S32, 0);
	one("retval == -517", KPROF_F_RETVAL, KPROF_OP_EQ, S32, -517);
	one("retval==-EPROBE_DEFER", KPROF_F_RETVAL, KPROF_OP_EQ, S32, -517);
	one("retval != -EAGAIN", KPROF_F_RETVAL, KPROF_OP_NE, S32, -11);
	one("retval:64 < 0", KPROF_F_RETVAL, KPROF_OP_LT, 0, 0);
	one("retval:s32>=0x10", KPROF_F_RETVAL, KPROF_OP_GE, S32, 16);
	one("arg1>=4096", KPROF_F_ARG1, KPROF_OP_GE, 0, 4096);
	one("arg6 <= -1", KPROF_F_ARG6, KPROF_OP_LE, 0, -1);
	one("arg3:s32 > -2147483648", KPROF_F_ARG1 + 2, KPROF_OP_GT, S32,
	    -2147483648LL);
	one("arg2 & 0x8000000000000000", KPROF_F_ARG1 + 1, KPROF_OP_AND, 0,
	    0x8000000000000000ULL);
	one("arg2:s32 & 0xffffffff", KPROF_F_ARG1 + 1, KPROF_OP_AND, S32,
	    0xffffffffULL);
	one("arg4 == 9223372036854775807", KPROF_F_ARG1 + 3, KPROF_OP_EQ, 0,
	    0x7fffffffffffffffULL);
	one("arg5==-9223372036854775808", KPROF_F_ARG1 + 4, KPROF_OP_EQ, 0,
	    0x8000000000000000ULL);
	one("pid==4294967295", KPROF_F_PID, KPROF_OP_EQ, 0, 0xffffffffULL);
	one("tgid!=1", KPROF_F_TGID, KPROF_OP_NE, 0, 1);
	one("cpu<4", KPROF_F_CPU, KPROF_OP_LT, 0, 4);
	one("latency>1000000", KPROF_F_LATENCY, KPROF_OP_GT, 0, 1000000);
	one("latency >= 0xFFFFFFFFFFFFFFFF", KPROF_F_LATENCY, KPROF_OP_GE, 0,
	    ~0ULL);
	one("\tpid == 010 ", KPROF_F_PID, KPROF_OP_EQ, 0, 10);	/* base 10 */

	one("comm == kworker/u8:2", KPROF_F_COMM, KPROF_OP_EQ, 0, 0);
	CHECK(!strcmp(f.term[0].comm, "kworker/u8:2"), "comm '%s'",
	      f.term[0].comm);
	one("comm!=123456789012345", KPROF_F_COMM, KPROF_OP_NE, 0, 0);
	CHECK(!strcmp(f.term[0].comm, "123456789012345"), "15-char comm");

	CHECK(!parse("arg1>=4096 && pid==42") && f.nr == 2, "two terms");
	term_is("2", 0, KPROF_F_ARG1, KPROF_OP_GE, 0, 4096);
	term_is("2", 1, KPROF_F_PID, KPROF_OP_EQ, 0, 42);
	CHECK(e.term_off[0] == 0 && e.term_len[0] == 10 &&
	      e.term_off[1] == 14 && e.term_len[1] == 7,
	      "term spans %u+%u %u+%u", e.term_off[0], e.term_len[0],
	      e.term_off[1], e.term_len[1]);
	CHECK(!parse("retval<0&&comm==sh&&cpu==1&&latency>5") && f.nr == 4,
	      "four terms, no spaces");
	term_is("4", 1, KPROF_F_COMM, KPROF_OP_EQ, 0, 0);
	CHECK(!strcmp(f.term[1].comm, "sh"), "comm before &&: '%s'",
	      f.term[1].comm);
	term_is("4", 3, KPROF_F_LATENCY, KPROF_OP_GT, 0, 5);
}

static void test_errors(void)
{
	bad("", "empty expression", false, 0, 0);
	bad("   ", "empty expression", false, 3, 0);
	bad("argx==1", "unknown field", true, 0, 4);
	bad("pid==1 && argx>2", "unknown field", true, 10, 4);
	bad("arg7==1", "the arguments are arg1 to arg6", true, 0, 4);
	bad("arg0==1", "the arguments are arg1 to arg6", true, 0, 4);
	bad("arg12==1", "the arguments are arg1 to arg6", true, 0, 5);
	bad("pid:64==1", "a width (:64, :s32) is for retval", true, 3, 3);
	bad("retval:u8==1", "unknown width", true, 7, 2);
	bad("== 3", "expected a field", false, 0, 1);
	bad("pid 3", "expected an operator", false, 4, 1);
	bad("pid = 3", "expected an operator", false, 4, 1);
	bad("pid", "expected an operator", false, 3, 0);
	bad("pid && 3", "expected an operator", false, 4, 1);
	bad("comm & 4", "'&' needs a field that is a number", false, 5, 1);
	bad("comm < x", "comm takes == or != only", false, 5, 1);
	bad("comm == 1234567890123456", "a comm is at most 15 characters",
	    true, 8, 16);
	bad("comm ==", "expected a comm", false, 7, 0);
	bad("pid ==", "expected a number", false, 6, 0);
	bad("pid == -1", "this field is unsigned", true, 7, 2);
	bad("cpu == 4294967296", "out of range", true, 7, 10);
	bad("pid == 0x", "not a number", true, 7, 2);
	bad("pid == 12abc", "not a number", true, 7, 5);
	bad("pid == 0x1g", "not a number", true, 7, 4);
	bad("latency > 18446744073709551616", "out of range", true, 10, 20);
	bad("arg1 > 9223372036854775808", "out of range", true, 7, 19);
	bad("arg1 > -9223372036854775809", "out of range", true, 7, 20);
	bad("arg1:s32 > 2147483648", "out of range", true, 11, 10);
	bad("retval > -2147483649", "out of range", true, 9, 11);
	bad("retval & 0x100000000", "out of range", true, 9, 11);
	bad("arg1 & -4", "a mask is not negative", true, 7, 2);
	bad("arg1 == -EAGAIN", "errno names are for retval only", true, 8, 7);
	bad("retval == EAGAIN", "an errno name needs its minus sign", true,
	    10, 6);
	bad("retval == -EWHAT", "unknown errno name", true, 11, 5);
	bad("pid==1 pid==2", "expected && between terms", true, 7, 6);
	bad("pid==1 & pid==2", "expected && between terms", true, 7, 1);
	bad("pid==1 &&", "expected a term after &&", false, 9, 0);
	bad("pid==1 && && cpu==1", "expected a field", false, 10, 1);
	/* the fifth term, up to the next && or the end */
	bad("pid==1 && cpu==1 && tgid==1 && retval<0 && arg1 > 5",
	    "at most 4 terms joined by &&", false, 43, 8);
	bad("a==1&&b==1&&c==1&&d==1", "unknown field", true, 0, 1);
	bad("cpu==1&&cpu==2&&cpu==3&&cpu==4&&cpu==5 && cpu==6",
	    "at most 4 terms joined by &&", false, 32, 6);
}

/* what the module refuses of a struct the CLI did not make */
static void test_valid(void)
{
	struct kprof_filter g;

	CHECK(!parse("comm == sh && arg1:s32 < 0"), "base filter");
	g = f;
	CHECK(!kprof_filter_valid(&g), "as parsed");
	g.nr = 5;
	CHECK(kprof_filter_valid(&g), "nr 5");
	g = f;
	g.reserved0 = 1;
	CHECK(kprof_filter_valid(&g), "reserved0");
	g = f;
	g.term[2].field = KPROF_F_PID;
	CHECK(kprof_filter_valid(&g), "a term beyond nr");
	g = f;
	g.term[1].field = KPROF_F_MAX + 1;
	CHECK(kprof_filter_valid(&g), "unknown field");
	g = f;
	g.term[1].field = 0;
	CHECK(kprof_filter_valid(&g), "field 0");
	g = f;
	g.term[1].op = KPROF_OP_MAX + 1;
	CHECK(kprof_filter_valid(&g), "unknown op");
	g = f;
	g.term[1].op = 0;
	CHECK(kprof_filter_valid(&g), "op 0");
	g = f;
	g.term[1].flags = 2;
	CHECK(kprof_filter_valid(&g), "unknown term flag");
	g = f;
	g.term[1].field = KPROF_F_PID;
	CHECK(kprof_filter_valid(&g), "S32 on pid");
	g = f;
	g.term[1].comm[0] = 'x';
	CHECK(kprof_filter_valid(&g), "comm on a number term");
	g = f;
	g.term[0].op = KPROF_OP_LT;
	CHECK(kprof_filter_valid(&g), "comm with <");
	g = f;
	g.term[0].op = KPROF_OP_AND;
	CHECK(kprof_filter_valid(&g), "comm with &");
	g = f;
	g.term[0].value = 1;
	CHECK(kprof_filter_valid(&g), "comm with a value");
	g = f;
	g.term[0].comm[0] = 0;
	g.term[0].comm[1] = 0;
	CHECK(kprof_filter_valid(&g), "empty comm");
	g = f;
	memset(g.term[0].comm, 'a', sizeof(g.term[0].comm));
	CHECK(kprof_filter_valid(&g), "comm without its NUL");
	g = f;
	g.term[0].comm[5] = 'z';
	CHECK(kprof_filter_valid(&g), "comm not NUL-padded");
	memset(&g, 0, sizeof(g));
	CHECK(!kprof_filter_valid(&g), "no filter");
}

static void test_check(void)
{
	static const unsigned int all[] = {
		KPROF_TYPE_KPROBE, KPROF_TYPE_KRETPROBE, KPROF_TYPE_TRACEPOINT,
		KPROF_TYPE_PAIR, KPROF_TYPE_PMU, KPROF_TYPE_KPROBE_SET,
		KPROF_TYPE_KRETPROBE_SET,
	};
	/* per expression: the types (bit = KPROF_TYPE_*) that evaluate it */
	static const struct {
		const char *text;
		unsigned int types;
	} rules[] = {
		{ "retval<0", 1 << KPROF_TYPE_KRETPROBE |
			      1 << KPROF_TYPE_KRETPROBE_SET },
		{ "latency>9", 1 << KPROF_TYPE_KRETPROBE |
			       1 << KPROF_TYPE_KRETPROBE_SET },
		{ "arg3==1", 1 << KPROF_TYPE_KPROBE | 1 << KPROF_TYPE_KRETPROBE |
			     1 << KPROF_TYPE_KRETPROBE_SET },
		{ "pid==1", 1 << KPROF_TYPE_KPROBE | 1 << KPROF_TYPE_KRETPROBE |
			    1 << KPROF_TYPE_TRACEPOINT |
			    1 << KPROF_TYPE_KPROBE_SET |
			    1 << KPROF_TYPE_KRETPROBE_SET },
		{ "comm==sh&&cpu==0&&tgid==3",
		  1 << KPROF_TYPE_KPROBE | 1 << KPROF_TYPE_KRETPROBE |
		  1 << KPROF_TYPE_TRACEPOINT | 1 << KPROF_TYPE_KPROBE_SET |
		  1 << KPROF_TYPE_KRETPROBE_SET },
	};
	unsigned int r, i;
	int ret;

	for (r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
		CHECK(!parse(rules[r].text), "'%s'", rules[r].text);
		for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
			ret = kprof_filter_check(&f, all[i], &e);
			CHECK(!ret == !!(rules[r].types & 1 << all[i]),
			      "'%s' on type %u: %d", rules[r].text, all[i], ret);
		}
	}
	/* the refused term is pointed at, with the kind's message */
	CHECK(!parse("pid==1 && retval<0"), "two terms");
	CHECK(kprof_filter_check(&f, KPROF_TYPE_KPROBE, &e) == -1 &&
	      !strcmp(e.msg, "retval only on kretprobes") && e.off == 10 &&
	      e.len == 8, "retval on a kprobe: '%s' at %u+%u", e.msg, e.off,
	      e.len);
	CHECK(!parse("cpu==0&&latency>100"), "latency");
	CHECK(kprof_filter_check(&f, KPROF_TYPE_TRACEPOINT, &e) == -1 &&
	      !strcmp(e.msg, "latency only on kretprobes") && e.off == 8 &&
	      e.len == 11, "latency on a tracepoint: '%s' at %u+%u", e.msg,
	      e.off, e.len);
	CHECK(!parse("arg2 & 4"), "arg2");
	CHECK(kprof_filter_check(&f, KPROF_TYPE_TRACEPOINT, &e) == -1 &&
	      !strcmp(e.msg, "arguments only on kprobes and kretprobes"),
	      "arg on a tracepoint: '%s'", e.msg);
	CHECK(kprof_filter_check(&f, KPROF_TYPE_PAIR, NULL) == -1,
	      "no err: still refused");
	memset(&f, 0, sizeof(f));
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		CHECK(!kprof_filter_check(&f, all[i], NULL),
		      "no filter on type %u", all[i]);
}

static void key_ok(const char *text, __u32 want)
{
	__u32 spec = ~0U;
	int ret = kprof_key_parse(text, &spec, &e);

	CHECK(!ret && spec == want && !kprof_key_valid(spec),
	      "key '%s': %d 0x%x, want 0x%x (%s)", text, ret, spec, want,
	      e.msg ? e.msg : "");
}

static void key_bad(const char *text, const char *msg, unsigned int off,
		    unsigned int len)
{
	__u32 spec = ~0U;
	int ret = kprof_key_parse(text, &spec, &e);

	CHECK(ret == -1 && !spec && e.msg &&
	      !strncmp(e.msg, msg, strlen(msg)) && e.off == off &&
	      e.len == len, "key '%s': %d '%s' at %u+%u, want '%s' at %u+%u",
	      text, ret, e.msg ? e.msg : "(none)", e.off, e.len, msg, off, len);
}

#define KS	KPROF_KEYSPEC

static void test_keys(void)
{
	static const unsigned int all[] = {
		KPROF_TYPE_KPROBE, KPROF_TYPE_KRETPROBE, KPROF_TYPE_TRACEPOINT,
		KPROF_TYPE_PAIR, KPROF_TYPE_PMU, KPROF_TYPE_KPROBE_SET,
		KPROF_TYPE_KRETPROBE_SET, KPROF_TYPE_MEM,
	};
	static const struct {
		const char *text;
		unsigned int types;
	} rules[] = {
		{ "retval", 1 << KPROF_TYPE_KRETPROBE },
		{ "arg1:log2", 1 << KPROF_TYPE_KPROBE |
			       1 << KPROF_TYPE_KRETPROBE },
		{ "caller", 1 << KPROF_TYPE_KPROBE | 1 << KPROF_TYPE_KRETPROBE },
		{ "stack", 1 << KPROF_TYPE_KPROBE | 1 << KPROF_TYPE_KRETPROBE |
			   1 << KPROF_TYPE_TRACEPOINT | 1 << KPROF_TYPE_MEM },
		{ "comm", 1 << KPROF_TYPE_KPROBE | 1 << KPROF_TYPE_KRETPROBE |
			  1 << KPROF_TYPE_TRACEPOINT },
	};
	unsigned int r, i;
	__u32 spec, k[2];
	int ret;

	key_ok("retval", KS(KPROF_KEY_RETVAL, 0, KPROF_KEYF_S32));
	key_ok("retval:64", KS(KPROF_KEY_RETVAL, 0, 0));
	key_ok("retval:bool", KS(KPROF_KEY_RETVAL, 0,
				 KPROF_KEYF_BOOL | KPROF_KEYF_S32));
	key_ok("retval:64:bool", KS(KPROF_KEY_RETVAL, 0, KPROF_KEYF_BOOL));
	key_ok("retval:log2:64", KS(KPROF_KEY_RETVAL, 0, KPROF_KEYF_LOG2));
	key_ok("arg1", KS(KPROF_KEY_ARG, 1, 0));
	key_ok("arg6:log2", KS(KPROF_KEY_ARG, 6, KPROF_KEYF_LOG2));
	key_ok("arg2:s32", KS(KPROF_KEY_ARG, 2, KPROF_KEYF_S32));
	key_ok("arg2:s32:log2", KS(KPROF_KEY_ARG, 2,
				   KPROF_KEYF_S32 | KPROF_KEYF_LOG2));
	key_ok("caller", KS(KPROF_KEY_CALLER, 0, 0));
	key_ok("pid", KS(KPROF_KEY_PID, 0, 0));
	key_ok("tgid", KS(KPROF_KEY_TGID, 0, 0));
	key_ok("comm", KS(KPROF_KEY_COMM, 0, 0));
	key_ok("cpu", KS(KPROF_KEY_CPU, 0, 0));
	key_ok("stack", KS(KPROF_KEY_STACK, 0, 0));

	key_bad("", "unknown key", 0, 0);
	key_bad("args", "unknown key", 0, 4);
	key_bad("arg7", "unknown key", 0, 4);
	key_bad("arg1:bool", "unknown modifier (log2, 64, s32)", 5, 4);
	key_bad("retval:log3", "unknown modifier (bool, log2, 64, s32)", 7, 4);
	key_bad("retval:", "unknown modifier", 7, 0);
	key_bad("retval:64:s32", "unknown modifier", 10, 3);
	key_bad("retval:bool:log2", "bool and log2 do not go together", 0, 16);
	key_bad("pid:log2", "modifiers are for retval and argN only", 3, 5);
	key_bad("retval-1", "expected :MODIFIER", 6, 2);

	for (r = 0; r < sizeof(rules) / sizeof(rules[0]); r++) {
		CHECK(!kprof_key_parse(rules[r].text, &spec, NULL), "'%s'",
		      rules[r].text);
		for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
			ret = kprof_key_check(spec, all[i], &e);
			CHECK(!ret == !!(rules[r].types & 1 << all[i]),
			      "key '%s' on type %u: %d", rules[r].text, all[i],
			      ret);
		}
	}
	/* a mem: probe's sites are call sites, or stacks (1.18) */
	kprof_key_parse("caller", &spec, NULL);
	CHECK(kprof_key_check(spec, KPROF_TYPE_MEM, &e) == -1 &&
		  strstr(e.msg, "or by stack (--key stack)"),
		  "caller key on a mem: probe: '%s'", e.msg);
	kprof_key_parse("retval", &spec, NULL);
	CHECK(kprof_key_check(spec, KPROF_TYPE_KPROBE, &e) == -1 &&
	      !strcmp(e.msg, "retval keys only on kretprobes"),
	      "retval key on a kprobe: '%s'", e.msg);

	/* the struct checks of ADD */
	CHECK(kprof_key_valid(0), "kind 0");
	CHECK(kprof_key_valid(KS(KPROF_KEY_MAX + 1, 0, 0)), "unknown kind");
	CHECK(kprof_key_valid(KS(KPROF_KEY_ARG, 0, 0)), "arg 0");
	CHECK(kprof_key_valid(KS(KPROF_KEY_ARG, 7, 0)), "arg 7");
	CHECK(kprof_key_valid(KS(KPROF_KEY_PID, 1, 0)), "arg on pid");
	CHECK(kprof_key_valid(KS(KPROF_KEY_PID, 0, KPROF_KEYF_LOG2)),
	      "log2 on pid");
	CHECK(kprof_key_valid(KS(KPROF_KEY_ARG, 1, KPROF_KEYF_BOOL)),
	      "bool on arg");
	CHECK(kprof_key_valid(KS(KPROF_KEY_RETVAL, 0,
				 KPROF_KEYF_BOOL | KPROF_KEYF_LOG2)),
	      "bool with log2");
	CHECK(kprof_key_valid(KS(KPROF_KEY_RETVAL, 0, 0x80)), "unknown flag");
	CHECK(kprof_key_valid(KS(KPROF_KEY_CPU, 0, 0) | 1U << 24),
	      "reserved bits");
	k[0] = KS(KPROF_KEY_RETVAL, 0, 0);
	k[1] = KS(KPROF_KEY_CALLER, 0, 0);
	CHECK(!kprof_keys_valid(k, 0) && !kprof_keys_valid(k, 256) &&
	      !kprof_keys_valid(k, 1), "two keys, nr_keys 0, 1, 256");
	CHECK(kprof_keys_valid(k, 48), "nr_keys not a power of two");
	k[1] = KS(KPROF_KEY_RETVAL, 0, KPROF_KEYF_BOOL);
	CHECK(kprof_keys_valid(k, 0), "retval twice");
	k[0] = KS(KPROF_KEY_ARG, 1, 0);
	k[1] = KS(KPROF_KEY_ARG, 2, 0);
	CHECK(!kprof_keys_valid(k, 0), "arg1 and arg2");
	k[1] = KS(KPROF_KEY_ARG, 1, KPROF_KEYF_LOG2);
	CHECK(kprof_keys_valid(k, 0), "arg1 twice");
	k[1] = KS(KPROF_KEY_ARG, 8, 0);
	CHECK(kprof_keys_valid(k, 0), "a bad key[1]");
	k[0] = 0;
	k[1] = KS(KPROF_KEY_PID, 0, 0);
	CHECK(kprof_keys_valid(k, 0), "key[1] without key[0]");
	k[1] = 0;
	CHECK(!kprof_keys_valid(k, 0), "no keys");
	CHECK(kprof_keys_valid(k, 64), "nr_keys without a key");
}

static void test_errnos(void)
{
	/* the host's numbers are the asm-generic ones on x86 and arm64 */
	static const struct {
		const char *name;
		unsigned int nr;
	} host[] = {
		{ "EPERM", EPERM }, { "ENOENT", ENOENT }, { "EIO", EIO },
		{ "ENXIO", ENXIO }, { "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM },
		{ "EFAULT", EFAULT }, { "EBUSY", EBUSY }, { "ENODEV", ENODEV },
		{ "EINVAL", EINVAL }, { "ENOSPC", ENOSPC }, { "EPIPE", EPIPE },
		{ "ERANGE", ERANGE }, { "ENODATA", ENODATA }, { "ETIME", ETIME },
		{ "EOPNOTSUPP", EOPNOTSUPP }, { "ECONNRESET", ECONNRESET },
		{ "ESHUTDOWN", ESHUTDOWN }, { "ETIMEDOUT", ETIMEDOUT },
		{ "EALREADY", EALREADY }, { "EINPROGRESS", EINPROGRESS },
		{ "ENOTCONN", ENOTCONN }, { "EREMOTEIO", EREMOTEIO },
		{ "ECANCELED", ECANCELED }, { "EDQUOT", EDQUOT },
		{ "EOVERFLOW", EOVERFLOW }, { "ENOTTY", ENOTTY },
	};
	const struct kprof_errno *t;
	unsigned int n, i, j;

	for (i = 0; i < sizeof(host) / sizeof(host[0]); i++) {
		CHECK(kprof_errno_by_name(host[i].name, strlen(host[i].name)) ==
		      host[i].nr, "%s is %u", host[i].name, host[i].nr);
		CHECK(kprof_errno_name(host[i].nr) &&
		      !strcmp(kprof_errno_name(host[i].nr), host[i].name),
		      "%u is %s", host[i].nr, host[i].name);
	}
	CHECK(kprof_errno_by_name("EPROBE_DEFER", 12) == 517, "EPROBE_DEFER");
	CHECK(kprof_errno_by_name("ENOTSUPP", 8) == 524, "ENOTSUPP");
	CHECK(kprof_errno_name(517) &&
	      !strcmp(kprof_errno_name(517), "EPROBE_DEFER"), "517");
	CHECK(!kprof_errno_name(0) && !kprof_errno_name(4096) &&
	      !kprof_errno_name(41), "no names for 0, 41, 4096");
	CHECK(!kprof_errno_by_name("EAGAINX", 7) &&
	      kprof_errno_by_name("EAGAINX", 6) == 11, "by length");
	/* sorted, unique numbers and names, every one below MAX_ERRNO */
	t = kprof_errnos(&n);
	CHECK(n >= 70, "%u errno names", n);
	for (i = 0; i < n; i++) {
		CHECK(t[i].nr && t[i].nr <= KPROF_MAX_ERRNO &&
		      (!i || t[i - 1].nr < t[i].nr), "errno %u sorted", t[i].nr);
		for (j = 0; j < i; j++)
			CHECK(strcmp(t[i].name, t[j].name), "%s twice",
			      t[i].name);
	}
}

/* the CLI's message: what, the text, carets under the part at fault */
static void test_format(void)
{
	char buf[256];
	const char *text = "pid==1 && argx>2";

	CHECK(parse(text) == -1, "argx");
	kp_parse_err_format("--if", text, &e, buf, sizeof(buf));
	CHECK(!strcmp(buf, "--if: unknown field 'argx'\n"
			   "  pid==1 && argx>2\n"
			   "            ^^^^\n"), "argx message:\n%s", buf);
	text = "pid==1 &&";
	CHECK(parse(text) == -1, "trailing &&");
	kp_parse_err_format("--if", text, &e, buf, sizeof(buf));
	CHECK(!strcmp(buf, "--if: expected a term after &&\n"
			   "  pid==1 &&\n"
			   "           ^\n"), "one caret at the end:\n%s", buf);
	text = "\tcomm & 1";
	CHECK(parse(text) == -1, "comm &");
	kp_parse_err_format("--if", text, &e, buf, sizeof(buf));
	CHECK(!strcmp(buf, "--if: '&' needs a field that is a number\n"
			   "  \tcomm & 1\n"
			   "  \t     ^\n"), "tab kept in the pad:\n%s", buf);
	/* the kind check points at the term the parser recorded */
	text = "cpu == 1 && retval < 0";
	CHECK(!parse(text) && kprof_filter_check(&f, KPROF_TYPE_TRACEPOINT,
						 &e) == -1, "retval on a tp");
	kp_parse_err_format("--if", text, &e, buf, sizeof(buf));
	CHECK(!strcmp(buf, "--if: retval only on kretprobes\n"
			   "  cpu == 1 && retval < 0\n"
			   "              ^^^^^^^^^^\n"), "kind:\n%s", buf);
	kprof_key_parse("arg1:bool", (__u32 [1]){ 0 }, &e);
	kp_parse_err_format("--key", "arg1:bool", &e, buf, sizeof(buf));
	CHECK(!strcmp(buf, "--key: unknown modifier (log2, 64, s32): 'bool'\n"
			   "  arg1:bool\n"
			   "       ^^^^\n"), "key:\n%s", buf);
	/* cut short, still a string */
	kp_parse_err_format("--key", "arg1:bool", &e, buf, 20);
	CHECK(strlen(buf) == 19, "cut to %zu", strlen(buf));
}

/* text -> struct -> text -> struct: the same */
static void round_trip(const char *text, const char *want)
{
	struct kprof_filter g;
	char buf[512];

	CHECK(!parse(text), "'%s' parses", text);
	g = f;
	kp_filter_format(&g, buf, sizeof(buf));
	CHECK(!strcmp(buf, want), "'%s' formats as '%s', want '%s'", text, buf,
	      want);
	CHECK(!parse(buf) && !memcmp(&f, &g, sizeof(f)),
	      "'%s' parses back the same", buf);
}

static __u64 rnd_value(unsigned int field, unsigned int op, int s32)
{
	__u64 v = unit_rand();

	/* small values and edges often: errno names, signs, bounds */
	switch (unit_rand() % 4) {
	case 0:
		v = (__u64)-(long long)(unit_rand() % 600);
		break;
	case 1:
		v %= 5000;
		break;
	case 2:
		v = unit_rand() & 1 ? 0x7fffffffULL : 0x8000000000000000ULL;
		break;
	}
	if (field == KPROF_F_PID || field == KPROF_F_TGID ||
	    field == KPROF_F_CPU)
		return v & 0xffffffff;
	if (field == KPROF_F_LATENCY)
		return v;
	if (op == KPROF_OP_AND)
		return s32 ? v & 0xffffffff : v;
	return s32 ? (__u64)(long long)(int)v : v;
}

static void test_random_round_trip(void)
{
	static const char cc[] = "abcxyz0189/:_-.[]";
	struct kprof_filter g;
	char buf[512];
	unsigned int iter, i, j, n;

	for (iter = 0; iter < 20000; iter++) {
		memset(&g, 0, sizeof(g));
		g.nr = 1 + unit_rand() % KPROF_FILTER_TERMS;
		for (i = 0; i < g.nr; i++) {
			struct kprof_term *t = &g.term[i];

			t->field = 1 + unit_rand() % KPROF_F_MAX;
			t->op = 1 + unit_rand() % KPROF_OP_MAX;
			if (t->field == KPROF_F_COMM) {
				t->op = unit_rand() & 1 ? KPROF_OP_EQ :
							  KPROF_OP_NE;
				n = 1 + unit_rand() % (KPROF_COMM_LEN - 1);
				for (j = 0; j < n; j++)
					t->comm[j] = cc[unit_rand() %
							(sizeof(cc) - 1)];
				continue;
			}
			if (kprof_field_signed(t->field) && unit_rand() & 1)
				t->flags = KPROF_TERM_S32;
			t->value = rnd_value(t->field, t->op,
					     t->flags & KPROF_TERM_S32);
		}
		CHECK(!kprof_filter_valid(&g), "random filter %u valid", iter);
		kp_filter_format(&g, buf, sizeof(buf));
		if (kprof_filter_parse(buf, &f, &e) || memcmp(&f, &g, sizeof(f))) {
			CHECK(0, "random filter %u: '%s' (%s)", iter, buf,
			      e.msg ? e.msg : "parsed differently");
			break;
		}
	}
}

static void test_key_format(void)
{
	static const char *const keys[] = {
		"retval", "retval:64", "retval:bool", "retval:bool:64",
		"retval:log2", "arg1", "arg6:log2", "arg3:s32", "arg2:log2:s32",
		"caller", "pid", "tgid", "comm", "cpu", "stack",
	};
	unsigned int i;
	__u32 spec, back;
	char buf[32];

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		CHECK(!kprof_key_parse(keys[i], &spec, NULL), "%s", keys[i]);
		kp_key_format(spec, buf, sizeof(buf));
		CHECK(!strcmp(buf, keys[i]), "key '%s' formats as '%s'",
		      keys[i], buf);
		CHECK(!kprof_key_parse(buf, &back, NULL) && back == spec,
		      "key '%s' back", buf);
	}
}

#define STARTS(s, lit)	(!strncmp((s), (lit), sizeof(lit) - 1))

/* the CLI's add: options into the struct, or the message it prints */
static void test_fill(void)
{
	const char *k2[] = { "retval:bool", "pid" };
	const char *same[] = { "arg1", "arg1:log2" };
	const char *bad1[] = { "argx" };
	const char *onkp[] = { "retval" };
	struct kprof_probe_add a;
	char msg[512];

	memset(&a, 0, sizeof(a));
	CHECK(!kp_keys_fill(k2, 2, 256, "arg1 >= 4096 && pid == 7",
			    KPROF_TYPE_KRETPROBE, &a, msg, sizeof(msg)) &&
	      a.key[0] == KPROF_KEYSPEC(KPROF_KEY_RETVAL, 0,
					KPROF_KEYF_BOOL | KPROF_KEYF_S32) &&
	      a.key[1] == KPROF_KEYSPEC(KPROF_KEY_PID, 0, 0) &&
	      a.nr_keys == 256 && a.filter.nr == 2 &&
	      a.filter.term[1].value == 7, "two keys, --keys, --if");
	CHECK(!kprof_keys_valid(a.key, a.nr_keys) &&
	      !kprof_filter_valid(&a.filter), "what the module accepts");
	memset(&a, 0, sizeof(a));
	CHECK(!kp_keys_fill(NULL, 0, 0, NULL, KPROF_TYPE_PAIR, &a, msg,
			    sizeof(msg)) && !a.key[0] && !a.filter.nr,
	      "nothing: fine on any kind");
	CHECK(kp_keys_fill(k2, 2, 0, NULL, KPROF_TYPE_KPROBE, &a, msg,
			   sizeof(msg)) &&
	      !strcmp(msg, "--key retval:bool: retval keys only on "
		      "kretprobes\n"), "retval key on a kprobe: %s", msg);
	CHECK(kp_keys_fill(same, 2, 0, NULL, KPROF_TYPE_KPROBE, &a, msg,
			   sizeof(msg)) &&
	      !strcmp(msg, "--key arg1 and --key arg1:log2 key the same value "
		      "twice\n"), "same key twice: %s", msg);
	CHECK(kp_keys_fill(bad1, 1, 0, NULL, KPROF_TYPE_KPROBE, &a, msg,
			   sizeof(msg)) &&
	      !strcmp(msg, "--key: unknown key (retval, argN, caller, pid, "
		      "tgid, comm, cpu, stack): 'argx'\n  argx\n  ^^^^\n"),
	      "unknown key: %s", msg);
	CHECK(kp_keys_fill(NULL, 0, 64, NULL, KPROF_TYPE_KPROBE, &a, msg,
			   sizeof(msg)) &&
	      !strcmp(msg, "--keys goes with --key\n"), "--keys alone: %s",
	      msg);
	CHECK(kp_keys_fill(onkp, 0, 0, "cpu == 1 && latency > 5",
			   KPROF_TYPE_TRACEPOINT, &a, msg, sizeof(msg)) &&
	      !strcmp(msg, "--if: latency only on kretprobes\n"
		      "  cpu == 1 && latency > 5\n"
		      "              ^^^^^^^^^^^\n"), "latency on a tp: %s",
	      msg);
	CHECK(kp_keys_fill(NULL, 0, 0, "pid == 1 pid", KPROF_TYPE_KPROBE, &a,
			   msg, sizeof(msg)) &&
	      STARTS(msg, "--if: expected && between terms, not 'pid'\n"),
	      "syntax: %s", msg);
	CHECK(kp_keys_fill(onkp, 1, 0, "pid == 1", KPROF_TYPE_PMU, &a, msg,
			   sizeof(msg)) &&
	      STARTS(msg, "--key retval: pair: and pmu: probes take no --key"),
	      "pmu: %s", msg);
}

/* show's key values: labels, and --key matching them */
static void test_keyval(void)
{
	static const struct {
		const char *spec;
		uint64_t v;
		const char *label;
		const char *also;	/* matches too, or NULL */
	} t[] = {
		{ "retval", (uint64_t)-517, "-EPROBE_DEFER (-517)",
		  "-EPROBE_DEFER" },
		{ "retval", (uint64_t)-11, "-EAGAIN (-11)", "-11" },
		{ "retval", 0, "0", "0x0" },
		{ "retval", 4096, "4096", "0x1000" },
		{ "retval", (uint64_t)-5000, "-5000", "-5000" },
		{ "retval:64", KPROF_KEY_KPTR, "kernel pointer", NULL },
		{ "retval:bool", 1, "error", NULL },
		{ "retval:bool", 0, "ok", NULL },
		{ "arg2:log2", 4096, "4096..8191", NULL },
		{ "arg2:log2", 1, "1", NULL },
		{ "arg2:log2", 0, "0", NULL },
		{ "arg1", 5, "5", "5" },
		{ "arg1", 1ULL << 40, "0x10000000000", "1099511627776" },
		{ "arg1:s32", (uint64_t)-2, "-2", "-2" },
		{ "pid", 42, "42", "42" },
		{ "cpu", 3, "3", NULL },
	};
	char buf[KP_KEY_LABEL];
	unsigned int i;
	uint64_t other;
	__u32 spec;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CHECK(!kprof_key_parse(t[i].spec, &spec, NULL), "%s", t[i].spec);
		kp_keyval_format(spec, t[i].v, "", buf, sizeof(buf));
		CHECK(!strcmp(buf, t[i].label), "%s %s: '%s'", t[i].spec,
		      t[i].label, buf);
		CHECK(kp_keyval_match(spec, t[i].v, t[i].label),
		      "%s matches its label", t[i].label);
		CHECK(!t[i].also || kp_keyval_match(spec, t[i].v, t[i].also),
		      "%s matches %s", t[i].label, t[i].also);
		other = KPROF_KEYSPEC_FLAGS(spec) & KPROF_KEYF_BOOL ?
			t[i].v ^ 1 : t[i].v + 1;
		CHECK(!kp_keyval_match(spec, other, t[i].label),
		      "%s is not %" PRIu64, t[i].label, other);
	}
	kprof_key_parse("comm", &spec, NULL);
	kp_keyval_format(spec, 12345, "dd", buf, sizeof(buf));
	CHECK(!strcmp(buf, "dd"), "a comm key is its name: '%s'", buf);
	kprof_key_parse("retval", &spec, NULL);
	CHECK(!kp_keyval_match(spec, (uint64_t)-517, "-EAGAIN") &&
	      !kp_keyval_match(spec, 517, "-517") &&
	      !kp_keyval_match(spec, 10, "010x"), "no near misses");
	CHECK(kp_keyval_match(spec, 10, "010"), "010 is ten");
}

/* what a term means, written plainly (the module's first evaluator) */
static bool term_ref(const struct kprof_term *t, __u64 x)
{
	if (kprof_field_signed(t->field)) {
		int64_t sx = (int64_t)x, sc = (int64_t)t->value;

		switch (t->op) {
		case KPROF_OP_EQ: return sx == sc;
		case KPROF_OP_NE: return sx != sc;
		case KPROF_OP_LT: return sx < sc;
		case KPROF_OP_LE: return sx <= sc;
		case KPROF_OP_GT: return sx > sc;
		case KPROF_OP_GE: return sx >= sc;
		default: return sx & sc;
		}
	}
	switch (t->op) {
	case KPROF_OP_EQ: return x == t->value;
	case KPROF_OP_NE: return x != t->value;
	case KPROF_OP_LT: return x < t->value;
	case KPROF_OP_LE: return x <= t->value;
	case KPROF_OP_GT: return x > t->value;
	case KPROF_OP_GE: return x >= t->value;
	default: return x & t->value;
	}
}

/* any magnitude: xorshift, shifted right by 0-63 */
static __u64 rnd(void)
{
	static __u64 s = 88172645463325252ULL;

	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return s >> (s >> 58);
}

/*
 * The module's evaluator: every term's range (kprof_term_range()) passes
 * exactly the values the term means, at the edges (0, +-1, the signed and
 * unsigned extremes, the constant and its neighbours) and at random.
 */
static void test_range(void)
{
	static const __u64 edge[] = {
		0, 1, 2, 4095, 4096, 0x7fffffffffffffffULL,
		0x8000000000000000ULL, 0x8000000000000001ULL,
		0xfffffffffffffffeULL, 0xffffffffffffffffULL,
		(__u64)-517, 0xffffffffULL, 0x80000000ULL,
	};
	const unsigned int ne = sizeof(edge) / sizeof(edge[0]);
	static const unsigned int fields[] = {
		KPROF_F_RETVAL, KPROF_F_ARG1 + 2, KPROF_F_PID, KPROF_F_LATENCY,
	};
	unsigned int fi, op, ci, xi, bad = 0, n = 0;
	struct kprof_term t;

	for (fi = 0; fi < 4; fi++) {
		for (op = 1; op <= KPROF_OP_MAX; op++) {
			for (ci = 0; ci < ne + 64; ci++) {
				struct kprof_range r;

				memset(&t, 0, sizeof(t));
				t.field = fields[fi];
				t.op = op;
				t.value = ci < ne ? edge[ci] : rnd();
				r = kprof_term_range(&t);
				for (xi = 0; xi < ne + 3 + 64; xi++) {
					__u64 x = xi < ne ? edge[xi] :
						  xi == ne ? t.value :
						  xi == ne + 1 ? t.value + 1 :
						  xi == ne + 2 ? t.value - 1 : rnd();

					n++;
					if (kprof_range_has(&r, x) != term_ref(&t, x) &&
					    bad++ < 5)
						CHECK(0, "field %u op %u value %#llx: x %#llx "
						      "passes %d, means %d", t.field, op,
						      (unsigned long long)t.value,
						      (unsigned long long)x,
						      kprof_range_has(&r, x), term_ref(&t, x));
				}
			}
		}
	}
	CHECK(!bad && n > 50000, "%u of %u term ranges wrong", bad, n);
}

/* kernel pointers in keys, tagged (arm64: KASAN software tags, MTE) too */
static void test_kptr(void)
{
	static const struct {
		uint64_t v;
		bool kptr, tagged_kptr;
	} t[] = {
		{ 0xffff800008123456ULL, true, true },	/* untagged */
		{ 0xf4ff800008123456ULL, false, true },	/* a software tag */
		{ 0x00ff800008123456ULL, false, true },	/* tag 0x00 */
		{ 0xfeff000012345678ULL, false, true },	/* linear map, tagged */
		{ 0xff00000000000000ULL, true, false },	/* untags to 0 */
		{ (uint64_t)-1, false, false },		/* -EPERM */
		{ (uint64_t)-4095, false, false },
		{ (uint64_t)-4096, true, true },
		{ 0x0000ffffa0001000ULL, false, false },	/* a user pointer */
		{ 0x007fffffffffffffULL, false, false },	/* bit 55 clear */
		{ 0, false, false },
		{ 42, false, false },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CHECK(kprof_key_is_kptr(t[i].v, false) == t[i].kptr,
		      "%#" PRIx64 " untagged: %d", t[i].v, t[i].kptr);
		CHECK(kprof_key_is_kptr(t[i].v, true) == t[i].tagged_kptr,
		      "%#" PRIx64 " tagged: %d", t[i].v, t[i].tagged_kptr);
	}
}

int main(void)
{
	test_kptr();
	test_range();
	test_keyval();
	test_accepted();
	test_errors();
	test_valid();
	test_check();
	test_keys();
	test_errnos();
	test_format();
	round_trip("retval < 0", "retval<0");
	round_trip("retval == -EPROBE_DEFER && arg2:s32 != -1",
		   "retval==-EPROBE_DEFER&&arg2:s32!=-1");
	round_trip("retval:64 >= -4095", "retval:64>=-4095");
	round_trip("retval == -4096", "retval==-4096");
	round_trip("arg1 & 4097 && pid == 010", "arg1&0x1001&&pid==10");
	round_trip("comm != kworker/0:1 && latency > 1000 && cpu <= 3",
		   "comm!=kworker/0:1&&latency>1000&&cpu<=3");
	test_random_round_trip();
	test_key_format();
	test_fill();
	return unit_done("filter");
}
