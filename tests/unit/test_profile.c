// SPDX-License-Identifier: GPL-2.0
/*
 * Profiles (userspace/profile.c): counts by CPU mask, frame names (the
 * interrupted PC as is, return addresses one byte back, user-mode
 * samples), folded stacks merged by name, the report, the flame graph.
 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "profile.h"
#include "flame.h"

#define DEPTH	4
#define IDS	8

static struct kp_sym symv[] = {
	{ 0x1000, (char *)"outer" },
	{ 0x2000, (char *)"middle" },
	{ 0x3000, (char *)"leaf_a" },
	{ 0x3100, (char *)"leaf_b" },
	{ 0x4000, (char *)"past_leaf_b" },
};

static uint64_t pcs[IDS * DEPTH];
static uint64_t counts[2 * IDS];

static void set_stack(uint32_t id, uint64_t a, uint64_t b, uint64_t c,
		      uint64_t d)
{
	uint64_t *f = &pcs[(id - 1) * DEPTH];

	f[0] = a;
	f[1] = b;
	f[2] = c;
	f[3] = d;
}

static void setup(struct kp_profile *p)
{
	memset(p, 0, sizeof(*p));
	memset(pcs, 0, sizeof(pcs));
	memset(counts, 0, sizeof(counts));
	/* a sample probe's: frame 0 is the sampled pc (frames.h) */
	p->r.type = KPROF_TYPE_SAMPLE;
	p->nr_cpus = 2;
	p->nr_ids = IDS;
	p->counts = counts;
	p->pcs = pcs;
	p->depth = DEPTH;
	p->nr_pcs_ids = IDS;
	p->syms.v = symv;
	p->syms.n = sizeof(symv) / sizeof(symv[0]);
	p->syms.visible = 1;
	p->unit = "samples";
	/* 1 and 2: the same functions at other offsets; 3 another leaf */
	set_stack(1, 0x3004, 0x2010, 0x1010, 0);
	set_stack(2, 0x3008, 0x2020, 0x1010, 0);
	set_stack(3, 0x3104, 0x2010, 0x1010, 0);
	/*
	 * 4: middle's call is its last instruction, so the return address
	 * is the first byte of leaf_a: named middle (pc - 1)
	 */
	set_stack(4, 0x3010, 0x3000, 0x1010, 0);
	/* 5: user mode, comm "mydrv-test" */
	set_stack(5, KPROF_FRAME_USER, 4242, 0, 0);
	memcpy(&pcs[4 * DEPTH + 2], "mydrv-test\0\0\0\0\0\0", 16);
	/* 6: user mode, no comm: the pid (gone) */
	set_stack(6, KPROF_FRAME_USER, 999999999, 0, 0);
	/* 7: the interrupted PC at a function's first byte is that function */
	set_stack(7, 0x3100, 0x2010, 0x1010, 0);
	counts[0 * IDS + 0] = 30;	/* id 1, CPU 0 */
	counts[1 * IDS + 1] = 15;	/* id 2, CPU 1 */
	counts[0 * IDS + 2] = 10;	/* id 3 */
	counts[1 * IDS + 3] = 4;	/* id 4 */
	counts[0 * IDS + 4] = 2;	/* id 5 */
	counts[1 * IDS + 5] = 1;	/* id 6 */
	counts[1 * IDS + 6] = 5;	/* id 7 */
	p->samples = 67;
}

static char *run_folded(struct kp_profile *p, const __u64 *mask,
			const char *root)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	kp_prof_folded(f, p, mask, root);
	fclose(f);
	return buf;
}

int main(void)
{
	struct kp_profile p;
	__u64 cpu0[KPROF_CPUMASK_WORDS] = { 1 }, cpu1[KPROF_CPUMASK_WORDS] = { 2 };
	const char *fr;
	char *out, err[128], *buf = NULL;
	size_t len = 0;
	struct kp_flame g;
	struct kp_flame_node *n;
	FILE *f;

	setup(&p);
	CHECK(kp_prof_count(&p, 1, NULL) == 30, "id 1 over all CPUs");
	CHECK(kp_prof_count(&p, 2, cpu0) == 0 && kp_prof_count(&p, 2, cpu1) == 15,
	      "id 2 by CPU mask");
	CHECK(kp_prof_count(&p, 0, NULL) == 0 && kp_prof_count(&p, IDS + 1, NULL) == 0,
	      "ids out of range count nothing");
	CHECK(kp_prof_total(&p, NULL) == 67, "total %llu",
	      (unsigned long long)kp_prof_total(&p, NULL));
	CHECK(kp_prof_total(&p, cpu0) == 42 && kp_prof_total(&p, cpu1) == 25,
	      "totals by cluster mask");

	fr = kp_prof_frame(&p, 1, 0);
	CHECK(fr && !strcmp(fr, "leaf_a"), "frame 0 of id 1: %s", fr);
	fr = kp_prof_frame(&p, 1, 2);
	CHECK(fr && !strcmp(fr, "outer"), "frame 2 of id 1: %s", fr);
	CHECK(!kp_prof_frame(&p, 1, 3), "a 0 frame ends the stack");
	fr = kp_prof_frame(&p, 4, 1);
	CHECK(fr && !strcmp(fr, "middle"),
	      "a return address at the next function's start is its caller's: %s", fr);
	fr = kp_prof_frame(&p, 7, 0);
	CHECK(fr && !strcmp(fr, "leaf_b"),
	      "the interrupted PC is not moved back: %s", fr);
	fr = kp_prof_frame(&p, 5, 0);
	CHECK(fr && !strcmp(fr, "[user]"), "user frame 0: %s", fr);
	fr = kp_prof_frame(&p, 5, 1);
	CHECK(fr && !strcmp(fr, "mydrv-test"), "user frame 1 is the comm: %s", fr);
	CHECK(!kp_prof_frame(&p, 5, 2), "a user stack has two frames");
	fr = kp_prof_frame(&p, 6, 1);
	CHECK(fr && !strcmp(fr, "pid 999999999"), "no comm: the pid: %s", fr);

	out = run_folded(&p, NULL, NULL);
	CHECK(out && !strcmp(out,
		"mydrv-test;[user] 2\n"
		"outer;middle;leaf_a 49\n"
		"outer;middle;leaf_b 15\n"
		"pid 999999999;[user] 1\n"),
	      "folded, ids of the same functions merged:\n%s", out);
	free(out);
	out = run_folded(&p, cpu1, "A76");
	CHECK(out && !strcmp(out,
		"A76;outer;middle;leaf_a 19\n"
		"A76;outer;middle;leaf_b 5\n"
		"A76;pid 999999999;[user] 1\n"),
	      "folded over a mask with its root frame:\n%s", out);
	free(out);

	f = open_memstream(&buf, &len);
	kp_prof_report(f, &p, NULL, 2);
	fclose(f);
	CHECK(buf && strstr(buf, "  73.13        49  leaf_a\n"),
	      "report: leaf_a's own samples, first:\n%s", buf);
	CHECK(buf && strstr(buf, "  22.39        15  leaf_b\n"),
	      "report: leaf_b second");
	CHECK(buf && strstr(buf, "(1 more function)\n"), "report: the rest counted");
	CHECK(buf && strstr(buf, "   73.13%        49  leaf_a <- middle <- outer\n"),
	      "report: the hottest stack, innermost first");
	CHECK(buf && strstr(buf, "(2 more stacks)"), "report: 4 stacks by name");
	free(buf);

	CHECK(!kp_flame_init(&g, NULL), "flame init");
	CHECK(!kp_prof_flame(&p, NULL, &g, err, sizeof(err)), "flame: %s", err);
	n = kp_flame_find(&g, "outer;middle;leaf_a");
	CHECK(n && n->total == 49, "flame: leaf_a merged to 49");
	n = kp_flame_find(&g, "mydrv-test;[user]");
	CHECK(n && n->total == 2, "flame: the user sample under its comm");
	CHECK(g.root->total == 67, "flame: every sample");
	kp_flame_free(&g);

	{
		struct kprof_probe_info r = { .type = KPROF_TYPE_SAMPLE };
		struct kp_agg a = { .sum = 241000000, .events = 21 };
		char why[512];

		snprintf(r.spec, sizeof(r.spec), "sample:inst_retired:period=100003");
		CHECK(kp_sample_late(&r, &a, why, sizeof(why)) &&
		      strstr(why, "inst_retired counted 241000000 events, about 2409 "
			     "overflows at one every 100003, but the PMU raised 21"),
		      "late overflows: %s", why);
		a.events = 2409;
		CHECK(!kp_sample_late(&r, &a, why, sizeof(why)), "on time");
		a.events = 1205;
		CHECK(!kp_sample_late(&r, &a, why, sizeof(why)), "half: not late yet");
		a.events = 1204;
		CHECK(kp_sample_late(&r, &a, why, sizeof(why)), "under half: late");
		snprintf(r.spec, sizeof(r.spec), "sample:inst_retired:period=0x186a3");
		CHECK(kp_sample_late(&r, &a, why, sizeof(why)), "0x period");
		snprintf(r.spec, sizeof(r.spec), "sample:inst_retired:hz=999");
		CHECK(!kp_sample_late(&r, &a, why, sizeof(why)), ":hz= says nothing");
		snprintf(r.spec, sizeof(r.spec), "sample:inst_retired:period=100003");
		a.sum = 1000000;
		a.events = 0;
		CHECK(!kp_sample_late(&r, &a, why, sizeof(why)),
		      "too few events to tell");
	}

	{
		/* off-CPU: waits, and nanoseconds that weigh in microseconds */
		static uint64_t ns[2 * IDS];

		ns[0 * IDS + 0] = 10000000;	/* id 1: 10 ms on CPU 0 */
		ns[1 * IDS + 1] = 5000500;	/* id 2: 5.0005 ms on CPU 1 */
		ns[0 * IDS + 2] = 999;		/* id 3: under a microsecond */
		p.ns = ns;
		p.offcpu = 1;
		p.unit = "us";
		CHECK(kp_prof_count(&p, 1, NULL) == 30, "off-CPU: waits");
		CHECK(kp_prof_weight(&p, 1, NULL) == 10000, "off-CPU: 10 ms weighs 10000");
		CHECK(kp_prof_weight(&p, 3, NULL) == 0, "off-CPU: under 1 us weighs 0");
		out = run_folded(&p, NULL, NULL);
		CHECK(out && !strcmp(out, "outer;middle;leaf_a 15000\n"),
		      "off-CPU folded in us, merged by name:\n%s", out);
		free(out);
		p.ns = NULL;
		p.offcpu = 0;
		p.unit = "samples";
	}

	/* hidden frames: nothing named, nothing folded */
	p.pcs = NULL;
	CHECK(!kp_prof_frame(&p, 1, 0), "no frames without KEY_FRAMES");
	out = run_folded(&p, NULL, NULL);
	CHECK(out && !*out, "nothing folded without frames");
	free(out);
	return unit_done("profile");
}
