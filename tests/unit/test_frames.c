// SPDX-License-Identifier: GPL-2.0
/*
 * Frame names (frames.h), called as each path calls kp_frame_name(): the
 * show path (key-frames.c: the probe, no flags), the watch path (no
 * probe: an event's stack) and the profile path (KP_FRAME_FUNC, through
 * kp_prof_frame()).  One rule: the same frame reads the same everywhere.
 */
#include <string.h>

#include "unit.h"
#include "frames.h"
#include "profile.h"

static struct kp_sym symv[] = {
	{ 0x1000, (char *)"outer" },
	{ 0x2000, (char *)"caller" },
	{ 0x2040, (char *)"next_fn" },
	{ 0x3000, (char *)"leaf" },
	{ 0x4000, (char *)"past_leaf" },
};

static const struct kp_syms syms = {
	.v = symv, .n = sizeof(symv) / sizeof(symv[0]), .visible = 1,
};

#define DEPTH	4

/*
 * A stack whose frame 1 returns to the very start of next_fn: caller's
 * call was its last instruction (a noreturn callee, a tail).
 */
static uint64_t stack[DEPTH] = { 0x3010, 0x2040, 0x1024, 0 };
/* the same without its leaf: a tracepoint's key stack, all returns */
static uint64_t key_stack[DEPTH] = { 0x2040, 0x1024, 0, 0 };
/* a kprobe's or kretprobe's key stack starts at the function itself */
static uint64_t fn_stack[DEPTH] = { 0x3000, 0x2040, 0x1024, 0 };

static const char *show(uint32_t type, const uint64_t *fr, unsigned int i,
			char *buf, size_t len)
{
	struct kprof_probe_info r = { .id = 1, .type = type };

	return kp_frame_name(&syms, &r, fr, DEPTH, i, 0, buf, len);
}

static const char *watch(const uint64_t *fr, unsigned int i, char *buf,
			 size_t len)
{
	return kp_frame_name(&syms, NULL, fr, DEPTH, i, 0, buf, len);
}

/* profile's name of frame i of fr, a probe of type type */
static const char *profile(uint32_t type, const uint64_t *fr, unsigned int i)
{
	static uint64_t pcs[DEPTH];
	static struct kp_profile p;

	memset(&p, 0, sizeof(p));
	memcpy(pcs, fr, sizeof(pcs));
	p.r.id = 1;
	p.r.type = type;
	p.pcs = pcs;
	p.depth = DEPTH;
	p.nr_pcs_ids = 1;
	p.syms = syms;
	return kp_prof_frame(&p, 1, i);
}

static int same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static void test_same_everywhere(void)
{
	char a[64], b[64];
	const char *s, *w, *pr;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		s = show(KPROF_TYPE_KRETPROBE, stack, i, a, sizeof(a));
		w = watch(stack, i, b, sizeof(b));
		CHECK(same(s, w), "frame %u: show '%s', watch '%s'", i, s, w);
		/* profile's function-only name is show's without the offset */
		pr = profile(KPROF_TYPE_OFFCPU, stack, i);
		CHECK(s && pr && !strncmp(s, pr, strlen(pr)) &&
		      s[strlen(pr)] == '+',
		      "frame %u: show '%s', profile '%s'", i, s, pr);
	}
}

static void test_return_address(void)
{
	char a[64];
	const char *s;

	s = show(KPROF_TYPE_KRETPROBE, stack, 1, a, sizeof(a));
	CHECK(same(s, "caller+0x40"),
	      "a return address at next_fn's start is caller's: '%s'", s);
	s = show(KPROF_TYPE_KRETPROBE, stack, 2, a, sizeof(a));
	CHECK(same(s, "outer+0x24"), "its offset is the return address's: '%s'",
	      s);
	/* every frame of a tracepoint's or off-CPU stack returns somewhere */
	s = show(KPROF_TYPE_TRACEPOINT, key_stack, 0, a, sizeof(a));
	CHECK(same(s, "caller+0x40"), "frame 0 of a tracepoint's stack: '%s'",
	      s);
	/* a kprobe's and a kretprobe's start at the function, named as is */
	s = show(KPROF_TYPE_KPROBE, fn_stack, 0, a, sizeof(a));
	CHECK(same(s, "leaf+0x0"), "frame 0 of a kprobe's stack: '%s'", s);
	s = show(KPROF_TYPE_KRETPROBE, fn_stack, 0, a, sizeof(a));
	CHECK(same(s, "leaf+0x0"), "frame 0 of a kretprobe's stack: '%s'", s);
	s = show(KPROF_TYPE_KRETPROBE, fn_stack, 1, a, sizeof(a));
	CHECK(same(s, "caller+0x40"), "and frame 1 returns: '%s'", s);
	s = profile(KPROF_TYPE_KRETPROBE, fn_stack, 0);
	CHECK(same(s, "leaf"), "profile's name of it: '%s'", s);
	s = profile(KPROF_TYPE_OFFCPU, key_stack, 0);
	CHECK(same(s, "caller"), "frame 0 of an off-CPU stack: '%s'", s);
	s = profile(KPROF_TYPE_SAMPLE, stack, 1);
	CHECK(same(s, "caller"), "profile: '%s'", s);
}

/* a sample's frame 0 is the interrupted instruction, not a return */
static void test_sampled_pc(void)
{
	uint64_t fr[DEPTH] = { 0x2040, 0x1024, 0, 0 };
	char a[64];
	const char *s;

	s = show(KPROF_TYPE_SAMPLE, fr, 0, a, sizeof(a));
	CHECK(same(s, "next_fn+0x0"), "a sampled pc: '%s'", s);
	s = profile(KPROF_TYPE_SAMPLE, fr, 0);
	CHECK(same(s, "next_fn"), "a sampled pc in profile: '%s'", s);
	s = show(KPROF_TYPE_SAMPLE, fr, 1, a, sizeof(a));
	CHECK(same(s, "outer+0x24"), "then return addresses: '%s'", s);
}

/* no symbols (kptr_restrict, no CAP_SYSLOG): opaque, as before */
static void test_hidden(void)
{
	struct kp_syms hidden = syms;
	uint64_t below[DEPTH] = { 0x800, 0, 0, 0 };
	uint64_t user[DEPTH] = { KPROF_FRAME_USER, 42, 0, 0 };
	char a[64];
	const char *s;

	hidden.visible = 0;
	s = kp_frame_name(&hidden, NULL, stack, DEPTH, 1, 0, a, sizeof(a));
	CHECK(!s, "hidden: no name, '%s'", s);
	s = kp_frame_name(&hidden, NULL, stack, DEPTH, 1, KP_FRAME_FUNC, a,
			  sizeof(a));
	CHECK(same(s, "[unknown]"), "hidden, function only: '%s'", s);
	s = watch(below, 0, a, sizeof(a));
	CHECK(!s, "below every symbol: '%s'", s);
	CHECK(!watch(stack, 3, a, sizeof(a)), "a 0 frame ends the stack");
	memcpy(&user[2], "mydrv\0\0\0\0\0\0\0\0\0\0", 16);
	s = show(KPROF_TYPE_SAMPLE, user, 0, a, sizeof(a));
	CHECK(same(s, "[user]"), "user mode: '%s'", s);
	s = show(KPROF_TYPE_SAMPLE, user, 1, a, sizeof(a));
	CHECK(same(s, "mydrv"), "then its comm: '%s'", s);
}

int main(void)
{
	test_same_everywhere();
	test_return_address();
	test_sampled_pc();
	test_hidden();
	return unit_done("test_frames");
}
