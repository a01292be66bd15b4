// SPDX-License-Identifier: GPL-2.0
/* --snapshot, --trace-off, --mark: options, ADD's fields, refusals, words. */
#include <errno.h>
#include <string.h>

#include "unit.h"
#include "ftrace-act.h"

static int opt(int which, const char *arg, struct kp_ftrace_opts *f)
{
	char err[256] = "";
	int ret = kp_ftrace_opt(which, arg, f, err, sizeof(err));

	if (ret)
		CHECK(err[0], "option %d '%s' says why", which, arg ? arg : "");
	return ret;
}

static void test_opts(void)
{
	struct kp_ftrace_opts f;

	memset(&f, 0, sizeof(f));
	CHECK(!opt(KP_FT_OPT_SNAPSHOT, NULL, &f), "--snapshot");
	CHECK(f.flags == KPROF_FT_SNAPSHOT && f.max == 1,
	      "--snapshot: once, flags %u max %u", f.flags, f.max);
	CHECK(!opt(KP_FT_OPT_SNAPSHOT, "12", &f) && f.max == 12,
	      "--snapshot=12: max %u", f.max);
	/* base 10 unless 0x */
	CHECK(!opt(KP_FT_OPT_SNAPSHOT, "010", &f) && f.max == 10,
	      "--snapshot=010 is ten: max %u", f.max);
	CHECK(!opt(KP_FT_OPT_SNAPSHOT, "0x10", &f) && f.max == 16,
	      "--snapshot=0x10: max %u", f.max);
	CHECK(opt(KP_FT_OPT_SNAPSHOT, "0", &f), "--snapshot=0 refused");
	CHECK(opt(KP_FT_OPT_SNAPSHOT, "-1", &f), "--snapshot=-1 refused");
	CHECK(opt(KP_FT_OPT_SNAPSHOT, "4294967296", &f),
	      "--snapshot=2^32 refused");
	CHECK(opt(KP_FT_OPT_SNAPSHOT, "2x", &f), "--snapshot=2x refused");

	memset(&f, 0, sizeof(f));
	CHECK(!opt(KP_FT_OPT_MARK, NULL, &f) && f.flags == KPROF_FT_MARK &&
	      !f.instance[0], "--mark: the top instance");
	CHECK(!opt(KP_FT_OPT_MARK, "drv", &f) && !strcmp(f.instance, "drv"),
	      "--mark=drv: '%s'", f.instance);
	CHECK(opt(KP_FT_OPT_MARK, "a/b", &f), "--mark=a/b refused");
	CHECK(opt(KP_FT_OPT_MARK, "..", &f), "--mark=.. refused");
	CHECK(opt(KP_FT_OPT_MARK, "", &f), "--mark= refused");
	{
		char big[KPROF_INSTANCE_LEN + 1];

		memset(big, 'a', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		CHECK(opt(KP_FT_OPT_MARK, big, &f), "a 64-char instance refused");
		big[KPROF_INSTANCE_LEN - 1] = '\0';
		CHECK(!opt(KP_FT_OPT_MARK, big, &f) &&
		      strlen(f.instance) == KPROF_INSTANCE_LEN - 1,
		      "a 63-char instance taken");
	}
}

static int fill(const struct kp_ftrace_opts *f, uint64_t slow,
		unsigned int minor, struct kprof_probe_add *a)
{
	char err[256] = "";
	int ret;

	memset(a, 0, sizeof(*a));
	ret = kp_ftrace_fill(f, slow, minor, a, err, sizeof(err));
	if (ret)
		CHECK(err[0], "fill %d says why", ret);
	return ret;
}

static void test_fill(void)
{
	struct kp_ftrace_opts f;
	struct kprof_probe_add a;

	memset(&f, 0, sizeof(f));
	CHECK(fill(&f, 0, 13, &a) == 0 && !a.flags &&
	      !a.ftrace.flags, "no option: nothing asked, any ABI");
	opt(KP_FT_OPT_SNAPSHOT, "3", &f);
	CHECK(fill(&f, 0, 14, &a) == 2, "--snapshot without --slow: usage");
	CHECK(fill(&f, 1000, 13, &a) == 1, "ABI 1.13: the module cannot");
	CHECK(fill(&f, 1000, 14, &a) == 0 && a.flags == KPROF_ADD_FTRACE &&
	      a.ftrace.flags == KPROF_FT_SNAPSHOT && a.ftrace.max == 3 &&
	      !a.ftrace.instance[0], "--snapshot=3 into ADD");
	opt(KP_FT_OPT_TRACE_OFF, NULL, &f);
	CHECK(fill(&f, 1000, 14, &a) == 2, "--snapshot with --trace-off: usage");

	memset(&f, 0, sizeof(f));
	opt(KP_FT_OPT_TRACE_OFF, NULL, &f);
	opt(KP_FT_OPT_MARK, "drv", &f);
	CHECK(fill(&f, 1000, 14, &a) == 0 &&
	      a.ftrace.flags == (KPROF_FT_TRACE_OFF | KPROF_FT_MARK) &&
	      a.ftrace.max == 0 && !strcmp(a.ftrace.instance, "drv"),
	      "--trace-off --mark=drv into ADD");
}

static void test_refusals(void)
{
	struct kprof_probe_add a;

	memset(&a, 0, sizeof(a));
	CHECK(!kp_ftrace_refusal(&a, EBUSY), "EBUSY without ftrace: not ours");
	a.flags = KPROF_ADD_FTRACE;
	a.ftrace.flags = KPROF_FT_SNAPSHOT;
	CHECK(kp_ftrace_refusal(&a, EBUSY) &&
	      strstr(kp_ftrace_refusal(&a, EBUSY), "hist trigger"),
	      "EBUSY names the other users");
	CHECK(kp_ftrace_refusal(&a, ENODEV) &&
	      strstr(kp_ftrace_refusal(&a, ENODEV), "CONFIG_TRACER_SNAPSHOT"),
	      "ENODEV names the config");
	CHECK(kp_ftrace_refusal(&a, ENOMEM) != NULL, "ENOMEM explained");
	CHECK(!kp_ftrace_refusal(&a, ENOENT), "ENOENT without an instance");
	a.ftrace.flags = KPROF_FT_MARK;
	strcpy(a.ftrace.instance, "drv");
	CHECK(kp_ftrace_refusal(&a, ENOENT) &&
	      strstr(kp_ftrace_refusal(&a, ENOENT), "mkdir"),
	      "ENOENT for an instance says how to make it");
	CHECK(!kp_ftrace_refusal(&a, EBUSY), "EBUSY of a mark: not ours");
}

static void test_did(void)
{
	char buf[256];

	CHECK(!strcmp(kp_ftrace_did(0, buf, sizeof(buf)), ""), "0: nothing");
	CHECK(!strcmp(kp_ftrace_did(KPROF_GENL_FT_FROZE, buf, sizeof(buf)),
		      "froze ftrace's snapshot"), "froze: '%s'", buf);
	CHECK(!strcmp(kp_ftrace_did(KPROF_GENL_FT_MARKED | KPROF_GENL_FT_SPENT,
				    buf, sizeof(buf)),
		      "marked, not frozen: --snapshot's count spent"),
	      "marked+spent: '%s'", buf);
	CHECK(!strcmp(kp_ftrace_did(KPROF_GENL_FT_NMI, buf, sizeof(buf)),
		      "not frozen: NMI context"), "nmi: '%s'", buf);
	/* a short buffer truncates, never overruns */
	CHECK(strlen(kp_ftrace_did(0x3f, buf, 8)) == 7, "truncated: '%s'", buf);
}

int main(void)
{
	test_opts();
	test_fill();
	test_refusals();
	test_did();
	return unit_done("test_ftrace_act");
}
