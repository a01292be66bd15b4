// SPDX-License-Identifier: GPL-2.0
/*
 * Cluster identity on fixture sysfs trees (tests/unit/fixtures: RK3588
 * mainline with a PMU per cluster, Radxa's BSP with one PMU for all, a
 * homogeneous board, no MIDR_EL1, x86), event names, "not counted by this
 * PMU", and the window-total rendering.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "unit.h"
#include "pmu.h"
#include "pmu-events.h"

static char root[512];

static const char *fixture(const char *name)
{
	const char *slash = strrchr(__FILE__, '/');
	int dir = slash ? (int)(slash - __FILE__) : 1;

	snprintf(root, sizeof(root), "%.*s/fixtures/%s", dir,
		 slash ? __FILE__ : ".", name);
	return root;
}

static void want_cluster(const struct kp_topo *t, unsigned int k,
			 const char *name, const char *cpus, const char *pmu)
{
	CHECK(k < t->nr_clusters && !strcmp(t->cl[k].name, name) &&
	      !strcmp(t->cl[k].cpus, cpus) && !strcmp(t->cl[k].pmu, pmu),
	      "cluster %u: '%s' cpu%s pmu '%s', want '%s' cpu%s pmu '%s'", k,
	      k < t->nr_clusters ? t->cl[k].name : "-",
	      k < t->nr_clusters ? t->cl[k].cpus : "-",
	      k < t->nr_clusters ? t->cl[k].pmu : "-", name, cpus, pmu);
}

static void test_topo(void)
{
	static struct kp_topo t;
	unsigned int c;

	kp_topo_load(&t, fixture("rk3588-mainline"), 8);
	CHECK(t.nr_clusters == 2, "mainline: %u clusters", t.nr_clusters);
	want_cluster(&t, 0, "A55", "0-3", "armv8_cortex_a55");
	want_cluster(&t, 1, "A76", "4-7", "armv8_cortex_a76");
	for (c = 0; c < 8; c++)
		CHECK(t.cluster_of[c] == (c < 4 ? 0 : 1), "mainline cpu%u", c);
	CHECK(t.cluster_of[8] == -1, "no cpu8");

	/* one PMU for all 8: MIDR_EL1 still splits A55 from A76 */
	kp_topo_load(&t, fixture("rk3588-bsp"), 8);
	CHECK(t.nr_clusters == 2, "bsp: %u clusters", t.nr_clusters);
	want_cluster(&t, 0, "A55", "0-3", "armv8_pmuv3");
	want_cluster(&t, 1, "A76", "4-7", "armv8_pmuv3");

	kp_topo_load(&t, fixture("homogeneous"), 4);
	CHECK(t.nr_clusters == 1, "homogeneous: %u", t.nr_clusters);
	want_cluster(&t, 0, "A53", "0-3", "armv8_pmuv3_0");

	/* no MIDR_EL1 in sysfs: the PMUs' cpus lists decide */
	kp_topo_load(&t, fixture("rk3588-nomidr"), 8);
	CHECK(t.nr_clusters == 2, "nomidr: %u", t.nr_clusters);
	want_cluster(&t, 0, "armv8_cortex_a55", "0-3", "armv8_cortex_a55");
	want_cluster(&t, 1, "armv8_cortex_a76", "4-7", "armv8_cortex_a76");

	kp_topo_load(&t, fixture("x86"), 4);
	CHECK(t.nr_clusters == 1, "x86: %u", t.nr_clusters);
	want_cluster(&t, 0, "cpu", "0-3", "");

	/* fewer CPUs than the tree has, and a missing tree */
	kp_topo_load(&t, fixture("rk3588-mainline"), 2);
	CHECK(t.nr_clusters == 1 && t.nr_cpus == 2, "2 of 8 CPUs");
	kp_topo_load(&t, fixture("no-such-tree"), 3);
	CHECK(t.nr_clusters == 1, "no tree: one cluster");
	want_cluster(&t, 0, "cpu", "0-2", "");
}

static void want_events(const char *in, const char *out)
{
	char got[KPROF_PMU_SPEC_LEN], err[768];
	int ret = kp_pmu_parse_events(in, got, sizeof(got), err, sizeof(err));

	CHECK(ret == 0 && !strcmp(got, out), "'%s' -> '%s' (%s), want '%s'",
	      in, ret ? "error" : got, ret ? err : "", out);
}

static void want_error(const char *in, const char *why)
{
	char got[KPROF_PMU_SPEC_LEN], err[768] = "";
	int ret = kp_pmu_parse_events(in, got, sizeof(got), err, sizeof(err));

	CHECK(ret == -1 && strstr(err, why), "'%s': '%s', want '%s'", in, err,
	      why);
}

static void test_names(void)
{
	want_events("cycles,instructions", "cpu_cycles,inst_retired");
	want_events("cpu_cycles,l1d_cache_refill,branch-misses",
		    "cpu_cycles,l1d_cache_refill,br_mis_pred");
	want_events("0x11,0x02a", "0x11,0x2a");
	want_events("0xffff", "0xffff");
	want_events("stall_frontend,stall_backend,mem_access,ll_cache_miss_rd,"
		    "l2d_cache_refill,l1d_cache",
		    "stall_frontend,stall_backend,mem_access,ll_cache_miss_rd,"
		    "l2d_cache_refill,l1d_cache");
	want_error("cycles,bogus", "unknown event 'bogus'");
	want_error("cycles,bogus", "known events: cpu_cycles (cycles), "
		   "inst_retired (instructions), l1d_cache");
	want_error("0x10000", "out of range (0x0-0xffff");
	want_error("0xzz", "bad raw event");
	want_error("cycles,,instructions", "empty event name");
	want_error("", "empty event name");
	want_error("0x1,0x2,0x3,0x4,0x5,0x6,0x7,0x8,0x9", "more than 8 events");
}

static struct kprof_pmu_event ev(const char *name, unsigned int type,
				 unsigned long long config, unsigned int flags)
{
	struct kprof_pmu_event e;

	memset(&e, 0, sizeof(e));
	snprintf(e.name, sizeof(e.name), "%s", name);
	e.type = type;
	e.config = config;
	e.flags = flags;
	return e;
}

static void test_counted(void)
{
	const char *r = fixture("rk3588-mainline");
	struct kprof_pmu_event cyc = ev("cpu_cycles", PERF_TYPE_RAW, 0x11, 0);
	struct kprof_pmu_event l2 = ev("l2d_cache_refill", PERF_TYPE_RAW, 0x17, 0);
	struct kprof_pmu_event raw4 = ev("0x4", PERF_TYPE_RAW, 4,
					 KPROF_PMU_EV_RAW);
	struct kprof_pmu_event raw2 = ev("0x2", PERF_TYPE_RAW, 2,
					 KPROF_PMU_EV_RAW);
	struct kprof_pmu_event impl = ev("0xc1", PERF_TYPE_RAW, 0xc1,
					 KPROF_PMU_EV_RAW);
	struct kprof_pmu_event hw = ev("cpu_cycles", PERF_TYPE_HARDWARE, 0, 0);

	CHECK(kp_pmu_counts_event(r, "armv8_cortex_a55", &cyc) == 1,
	      "a55 counts cpu_cycles");
	CHECK(kp_pmu_counts_event(r, "armv8_cortex_a55", &l2) == 0,
	      "a55 fixture lists no l2d_cache_refill");
	CHECK(kp_pmu_counts_event(r, "armv8_cortex_a76", &l2) == 1,
	      "a76 fixture does");
	CHECK(kp_pmu_counts_event(r, "armv8_cortex_a55", &raw4) == 1,
	      "raw 0x4 is l1d_cache, listed");
	CHECK(kp_pmu_counts_event(r, "armv8_cortex_a55", &raw2) == 0,
	      "raw 0x2 is a common event it does not list");
	CHECK(kp_pmu_counts_event(r, "armv8_cortex_a55", &impl) == 1,
	      "implementation-defined events cannot be told: counted");
	CHECK(kp_pmu_counts_event(fixture("x86"), "cpu", &hw) == 1,
	      "generic perf events: not judged");
	CHECK(kp_pmu_counts_event(r, "no_such_pmu", &l2) == 1,
	      "unknown PMU: not judged");
}

/* A block for 2 events on 8 CPUs; counts made up. */
static void test_print(void)
{
	static struct kp_topo t;
	struct kp_pmu_snap s;
	unsigned int c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	memset(&s, 0, sizeof(s));
	s.nr_events = 3;
	s.nr_cpus = 8;
	s.ev[0] = ev("cpu_cycles", PERF_TYPE_RAW, 0x11, 0);
	s.ev[1] = ev("inst_retired", PERF_TYPE_RAW, 0x8, 0);
	s.ev[2] = ev("l2d_cache_refill", PERF_TYPE_RAW, 0x17, 0);
	s.c = calloc(KPROF_PMU_MAX_EVENTS * 8, sizeof(*s.c));
	for (c = 0; c < 8; c++) {
		unsigned int e;

		for (e = 0; e < 3; e++) {
			struct kprof_pmu_count *x = &s.c[e * 8 + c];

			x->flags = KPROF_PMU_CNT_OPEN;
			snprintf(x->pmu, sizeof(x->pmu), "%s",
				 c < 4 ? "armv8_cortex_a55" : "armv8_cortex_a76");
			x->enabled = x->running = 1000;
		}
		/* A55: IPC 0.5; A76: IPC 2 */
		s.c[0 * 8 + c].value = 1000;
		s.c[1 * 8 + c].value = c < 4 ? 500 : 2000;
		s.c[2 * 8 + c].value = 10;
	}
	/* cpu7's instruction counter ran half the time: scaled to 2000 */
	s.c[1 * 8 + 7].value = 1000;
	s.c[1 * 8 + 7].running = 500;
	kp_topo_load(&t, fixture("rk3588-mainline"), 8);

	f = open_memstream(&buf, &len);
	kp_pmu_print(f, &s, &t, fixture("rk3588-mainline"), 0);
	fclose(f);
	/* the A55 PMU does not count l2d_cache_refill: no sum, no ratio */
	CHECK(strstr(buf, "  cluster A55 (cpu0-3, PMU armv8_cortex_a55): cpu_cycles 4000 inst_retired 2000 l2d_cache_refill not-counted  IPC 0.50\n") != NULL,
	      "A55 line:\n%s", buf);
	CHECK(strstr(buf, "  cluster A76 (cpu4-7, PMU armv8_cortex_a76): cpu_cycles 4000 inst_retired 8000 l2d_cache_refill 40  IPC 2.00  l2d_cache_refill 5.00/1000 instr\n") != NULL,
	      "A76 line (cpu7 scaled):\n%s", buf);
	CHECK(strstr(buf, "     7  A76      inst_retired                       2000    50.0%") != NULL,
	      "cpu7 row shows the scaled value and 50%%:\n%s", buf);
	CHECK(strstr(buf, "     0  A55      l2d_cache_refill                     10   100.0%  not counted by this PMU") != NULL,
	      "the A55 fixture lists no l2d_cache_refill:\n%s", buf);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	kp_pmu_print(f, &s, &t, fixture("rk3588-mainline"), 1);
	fclose(f);
	CHECK(strstr(buf, "{\"cpu\":7,\"cluster\":\"A76\",\"pmu\":\"armv8_cortex_a76\",\"pmu_type\":0,\"counts\":{\"cpu_cycles\":{\"value\":1000,\"scaled\":1000,\"enabled_ns\":1000,\"running_ns\":1000,\"counted\":true,\"note\":\"\"},\"inst_retired\":{\"value\":1000,\"scaled\":2000,\"enabled_ns\":1000,\"running_ns\":500,") != NULL,
	      "JSON cpu7:\n%s", buf);
	CHECK(strstr(buf, "{\"name\":\"A55\",\"cpus\":\"0-3\",\"counts\":{\"cpu_cycles\":4000,\"inst_retired\":2000,\"l2d_cache_refill\":null},\"ipc\":0.5000}") != NULL,
	      "JSON A55 cluster:\n%s", buf);
	free(buf);
	free(s.c);
}

int main(void)
{
	test_topo();
	test_names();
	test_counted();
	test_print();
	return unit_done("pmu");
}
