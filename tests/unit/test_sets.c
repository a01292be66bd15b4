// SPDX-License-Identifier: GPL-2.0
/*
 * Issue 13: show of function sets against a fake mapping laid out as the
 * ABI describes (a kprobe set's __u64 hits and a kretprobe set's struct
 * kprof_func_hist per function and CPU): the table, its sort orders,
 * --top, --nonzero, --key, clusters, skipped functions, the wrap warning
 * and JSON, with percentiles computed independently here from the merged
 * compact histogram through kprof_hist_iter_quantile.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "fakemap.h"
#include "agg.h"
#include "show.h"
#include "show-set.h"
#include "spec.h"
#include "pmu.h"
#include "kprofctl/hist.h"

#define NCPU	4
#define NPROBE	4
#define PAGE	4096
#define STRIDE	5120
#define MAXF	8
#define SETSZ	(MAXF * 64 + NCPU * MAXF * sizeof(struct kprof_func_hist))

static uint8_t *fake;
static size_t fake_size;
static struct kp_topo topo;

static struct kprof_mmap_header *hdr(void)
{
	return kp_fake_hdr(fake);
}

static struct kprof_probe_info *rec(unsigned int slot)
{
	return kp_fake_rec(fake, slot);
}

static struct kprof_cpu_stats *st(unsigned int slot, unsigned int cpu)
{
	return kp_fake_st(fake, slot, cpu);
}

static void build(void)
{
	struct kprof_mmap_header *h;
	unsigned int c;

	/* the sets' function tables and statistics after the blocks */
	fake = kp_fake_build(fake, &fake_size, NPROBE, NCPU, STRIDE,
			     (size_t)NPROBE * SETSZ);
	h = hdr();
	h->abi_minor = KPROF_ABI_MINOR;
	h->sets_off = 2 * PAGE + (uint64_t)NPROBE * NCPU * STRIDE;
	h->set_stride = SETSZ;
	h->max_sets = NPROBE;
	h->max_set_funcs = MAXF;
	/* RK3588-like: two little, two big */
	memset(&topo, 0, sizeof(topo));
	topo.nr_cpus = NCPU;
	topo.nr_clusters = 2;
	strcpy(topo.cl[0].name, "A55");
	strcpy(topo.cl[0].cpus, "0-1");
	topo.cl[0].mask[0] = 0x3;
	strcpy(topo.cl[1].name, "A76");
	strcpy(topo.cl[1].cpus, "2-3");
	topo.cl[1].mask[0] = 0xc;
	for (c = 0; c < NCPU; c++)
		topo.cluster_of[c] = c < 2 ? 0 : 1;
}

/* a set in slot with nf functions, named in order (the kernel's) */
static void add_set(unsigned int slot, uint32_t id, uint32_t type,
		    const char *spec, const char *const *names, unsigned int nf)
{
	struct kprof_probe_info *r = rec(slot);
	uint64_t base = hdr()->sets_off + (uint64_t)slot * SETSZ;
	unsigned int i, c;

	r->id = id;
	r->slot = slot;
	r->type = type;
	r->state = KPROF_STATE_RUNNING;
	r->mech = type == KPROF_TYPE_KPROBE_SET ? KPROF_MECH_FTRACE :
						  KPROF_MECH_KPROBES;
	r->stats_off = hdr()->stats_off + slot * hdr()->probe_stride;
	strcpy(r->spec, spec);
	r->nr_funcs = nf;
	r->nr_probed = nf;
	r->funcs_off = base;
	r->func_stride = type == KPROF_TYPE_KPROBE_SET ? 8 :
			 sizeof(struct kprof_func_hist);
	r->func_stats_off = base + MAXF * 64;
	r->func_cpu_stride = (uint64_t)MAXF * r->func_stride;
	for (i = 0; i < nf; i++) {
		struct kprof_func *kf = (void *)(fake + base + i * 64);

		snprintf(kf->name, sizeof(kf->name), "%s", names[i]);
		kf->flags = KPROF_FUNC_PROBED;
		for (c = 0; type == KPROF_TYPE_KRETPROBE_SET && c < NCPU; c++) {
			struct kprof_func_hist *fh = (void *)(fake +
				r->func_stats_off + c * r->func_cpu_stride +
				i * r->func_stride);

			fh->min = UINT64_MAX;
		}
	}
}

static struct kprof_func *func(unsigned int slot, unsigned int i)
{
	return (void *)(fake + rec(slot)->funcs_off + i * 64);
}

static void skip(unsigned int slot, unsigned int i, uint16_t reason,
		 int16_t error)
{
	func(slot, i)->flags &= ~KPROF_FUNC_PROBED;
	func(slot, i)->reason = reason;
	func(slot, i)->error = error;
	rec(slot)->nr_probed--;
}

static void hits(unsigned int slot, unsigned int i, unsigned int cpu,
		 uint64_t n)
{
	struct kprof_probe_info *r = rec(slot);

	*(uint64_t *)(fake + r->func_stats_off + cpu * r->func_cpu_stride +
		      i * r->func_stride) += n;
	st(slot, cpu)->count += n;
}

/* the test's own merged compact histogram, per function */
static __u32 want_hist[MAXF][KPROF_FHIST_NR_BUCKETS];
static uint64_t want_min[MAXF], want_max[MAXF];

static struct kprof_func_hist *fh(unsigned int slot, unsigned int i,
				  unsigned int cpu)
{
	struct kprof_probe_info *r = rec(slot);

	return (void *)(fake + r->func_stats_off + cpu * r->func_cpu_stride +
			i * r->func_stride);
}

static void calls(unsigned int slot, unsigned int i, unsigned int cpu,
		  uint64_t n, uint64_t ns)
{
	struct kprof_func_hist *h = fh(slot, i, cpu);

	h->count += n;
	h->sum += n * ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->hist[kprof_fhist_index(ns)] += (__u32)n;
	want_hist[i][kprof_fhist_index(ns)] += (__u32)n;
	if (!want_min[i] || ns < want_min[i])
		want_min[i] = ns;
	if (ns > want_max[i])
		want_max[i] = ns;
	st(slot, cpu)->count += n;
}

static uint64_t want_q(unsigned int i, uint64_t num, uint64_t den)
{
	struct kprof_hist_iter it;
	uint64_t total;

	kprof_fhist_iter_init(&it, want_hist[i]);
	while (kprof_hist_iter_next(&it))
		;
	total = it.cum;
	kprof_fhist_iter_init(&it, want_hist[i]);
	return kprof_hist_iter_quantile(&it, total, num, den, want_min[i],
					want_max[i]);
}

static char *render(int json, struct kp_show_opts *o)
{
	struct kprof_probe_info recs[NPROBE];
	struct kp_map m;
	char err[128], *buf = NULL;
	unsigned int n;
	size_t len;
	FILE *f;

	o->json = json;
	if (kp_map_init(&m, fake, fake_size, err, sizeof(err)) ||
	    kp_map_probes(&m, recs, NPROBE, &n))
		return NULL;
	f = open_memstream(&buf, &len);
	kp_show(f, &m, recs, n, o);
	fclose(f);
	return buf;
}

/* the names of "functions":[...] in order, space-separated */
static void json_names(const char *out, char *buf, size_t len)
{
	const char *p = out ? strstr(out, "\"functions\":[") : NULL;
	const char *end = p ? strstr(p, "\"skipped\":[") : NULL;
	size_t used = 0;

	buf[0] = '\0';
	while (p && (p = strstr(p, "{\"name\":\"")) && p < end) {
		const char *q;

		p += 9;
		q = strchr(p, '"');
		used += snprintf(buf + used, len - used, "%s%.*s",
				 used ? " " : "", (int)(q - p), p);
		if (used >= len)
			break;
	}
}

static const char *const knames[] = {
	"drv_alpha", "drv_beta", "drv_exit", "drv_gamma", "drv_init_hw",
	"drv_refused",
	/* 60 characters: cut to 55 and marked, as the module does */
	"drv_a_name_that_is_much_too_long_for_the_table_of_the_mappin",
};

static void kprobe_set(void)
{
	build();
	add_set(1, 3, KPROF_TYPE_KPROBE_SET, "kprobe:mydrv:*", knames, 7);
	hits(1, 0, 0, 5);
	hits(1, 0, 2, 10);
	skip(1, 2, KPROF_SKIP_NOTRACE, 0);
	hits(1, 3, 1, 100);
	hits(1, 3, 3, 1);
	func(1, 4)->flags |= KPROF_FUNC_INIT;
	skip(1, 4, KPROF_SKIP_INIT_DONE, 0);
	hits(1, 4, 0, 7);
	skip(1, 5, KPROF_SKIP_REFUSED, -22);
	func(1, 6)->flags |= KPROF_FUNC_TRUNCATED;
	hits(1, 6, 2, 3);
}

static void test_kprobe_set(void)
{
	struct kp_show_opts o = { 0 };
	char names[512], list[64], *out;

	kprobe_set();
	out = render(0, &o);
	CHECK(out && strstr(out, "probe 3: kprobe:mydrv:* [running]\n"
			    "  function set, 7 functions (4 hooked, 3 skipped), "
			    "via ftrace\n  hits 126  missed 0\n"),
	      "kprobe set header: %s", out);
	/* by count, descending; never-called drv_beta listed with 0 */
	CHECK(out && strstr(out, "drv_gamma") && strstr(out, "drv_alpha") &&
	      strstr(out, "drv_gamma") < strstr(out, "drv_alpha ") &&
	      strstr(out, "drv_alpha ") < strstr(out, "drv_init_hw (init)") &&
	      strstr(out, "drv_init_hw (init)") < strstr(out, "drv_beta "),
	      "count order: %s", out);
	CHECK(out && strstr(out, "  drv_gamma ") &&
	      strstr(strstr(out, "  drv_gamma "), " 101  80.2 %\n"),
	      "hits and share: %s", out);
	CHECK(out && strstr(strstr(out, "  drv_beta "), " 0   0.0 %\n"),
	      "never called: 0");
	CHECK(out && strstr(out, "drv_a_name_that_is_much_too_long_for_the_table_of_the_m+ ") &&
	      strstr(out, "  (+: name cut at 55 characters)\n"),
	      "truncated marker: %s", out);
	CHECK(out && strstr(out, "  skipped:\n"
			    "    drv_exit: not traceable by ftrace (notrace, "
			    "noinstr or not a function)\n"
			    "    drv_init_hw (init): __init, freed after the "
			    "module's init (counted until then)\n"
			    "    drv_refused: the kprobe core refused it: "
			    "Invalid argument\n"), "skipped: %s", out);
	/* skipped and never counted: not a table row */
	CHECK(out && !strstr(out, "  drv_exit "), "drv_exit not a row");
	free(out);

	o.nonzero = 1;
	o.top = 2;
	out = render(0, &o);
	CHECK(out && !strstr(out, "drv_beta") && strstr(out, "drv_gamma") &&
	      strstr(out, "drv_alpha") && !strstr(out, "drv_init_hw (init)  ") &&
	      strstr(out, "  (1 functions never called not shown: --nonzero)\n") &&
	      strstr(out, "  (top 2 of 4)\n"), "--nonzero --top 2: %s", out);
	free(out);

	memset(&o, 0, sizeof(o));
	o.by_cluster = 1;
	o.topo = &topo;
	out = render(0, &o);
	CHECK(out && strstr(out, "  share          A55          A76\n") &&
	      strstr(strstr(out, "  drv_gamma "),
		     " 101  80.2 %          100            1\n"),
	      "cluster columns: %s", out);
	free(out);

	memset(&o, 0, sizeof(o));
	o.key = "drv_alpha";
	o.by_cluster = 1;
	o.topo = &topo;
	out = render(0, &o);
	CHECK(out && strstr(out, "  function drv_alpha:\n    hits 15\n"
			    "    cluster A55 (cpu0-1): hits 5\n"
			    "    cluster A76 (cpu2-3): hits 10\n"
			    "    cpu 0: hits 5\n    cpu 2: hits 10\n") &&
	      !strstr(out, "drv_gamma") && !strstr(out, "skipped:"),
	      "--key of a kprobe set: %s", out);
	free(out);
	o.key = "drv_alpah";
	out = render(0, &o);
	CHECK(out && strstr(out, "  no function drv_alpah in this set\n"),
	      "unknown key: %s", out);
	free(out);

	/* JSON: counts (named as every kind names them), order, skipped */
	memset(&o, 0, sizeof(o));
	out = render(1, &o);
	CHECK(out && strstr(out, "{\"id\":3,\"spec\":\"kprobe:mydrv:*\","
			    "\"type\":\"kprobe-set\",\"state\":\"running\","
			    "\"mech\":\"ftrace\""), "JSON head: %s", out);
	/* a kprobe set times nothing: no slow-call fields */
	CHECK(out && strstr(out, "\"count\":126,\"missed\":0,\"nr_funcs\":7,"),
	      "JSON: a kprobe set without slow_*: %s", out);
	CHECK(out && strstr(out, "\"nr_funcs\":7,\"nr_probed\":4,\"nr_skipped\":3,"
			    "\"functions\":[{\"name\":\"drv_gamma\",\"count\":101},"
			    "{\"name\":\"drv_alpha\",\"count\":15},"
			    "{\"name\":\"drv_init_hw\",\"count\":7,\"init\":true},"),
	      "JSON functions: %s", out);
	CHECK(out && strstr(out, "\"skipped\":[{\"name\":\"drv_exit\",\"reason\":"
			    "\"notrace\",\"error\":0},{\"name\":\"drv_init_hw\","
			    "\"reason\":\"init_done\",\"error\":0,\"init\":true},"
			    "{\"name\":\"drv_refused\",\"reason\":\"refused\","
			    "\"error\":-22}]}"), "JSON skipped: %s", out);
	json_names(out, names, sizeof(names));
	CHECK(!strcmp(names, "drv_gamma drv_alpha drv_init_hw "
		      "drv_a_name_that_is_much_too_long_for_the_table_of_the_m "
		      "drv_beta"), "JSON count order: %s", names);
	free(out);
	o.sort = "name";
	o.nonzero = 1;
	out = render(1, &o);
	json_names(out, names, sizeof(names));
	CHECK(!strcmp(names, "drv_a_name_that_is_much_too_long_for_the_table_of_the_m "
		      "drv_alpha drv_gamma drv_init_hw"),
	      "JSON name order, --nonzero: %s", names);
	free(out);
	o.sort = NULL;
	o.nonzero = 0;
	o.top = 1;
	o.by_cluster = 1;
	o.topo = &topo;
	out = render(1, &o);
	CHECK(out && strstr(out, "\"functions\":[{\"name\":\"drv_gamma\",\"count\":101,"
			    "\"clusters\":[{\"cluster\":\"A55\",\"cpus\":\"0-1\","
			    "\"count\":100},{\"cluster\":\"A76\",\"cpus\":\"2-3\","
			    "\"count\":1}]}],"), "JSON --top 1 clusters: %s", out);
	free(out);

	/* list and status: the skipped ones from the mapping, by name */
	{
		struct kp_fn sk[8];
		unsigned int nskip = 0, nfuncs = 0;
		struct kp_map m;
		char err[64];

		CHECK(!kp_map_init(&m, fake, fake_size, err, sizeof(err)) &&
		      !kp_set_skips(&m, 3, sk, 8, &nskip, &nfuncs) &&
		      nskip == 3 && nfuncs == 7 && !strcmp(sk[0].name, "drv_exit") &&
		      sk[2].reason == KPROF_SKIP_REFUSED && sk[2].error == -22,
		      "skips: %u of %u", nskip, nfuncs);
		CHECK(kp_set_skips(&m, 4, NULL, 0, &nskip, &nfuncs) == -1,
		      "no set 4");
	}

	/* a count set sorts by count or name only */
	CHECK(kp_set_sort_ok(KPROF_TYPE_KPROBE_SET, "count") &&
	      kp_set_sort_ok(KPROF_TYPE_KPROBE_SET, "name") &&
	      !kp_set_sort_ok(KPROF_TYPE_KPROBE_SET, "p99") &&
	      !kp_set_sort_ok(KPROF_TYPE_KPROBE_SET, "total") &&
	      kp_set_sort_ok(KPROF_TYPE_KRETPROBE_SET, "p99") &&
	      kp_set_sort_ok(KPROF_TYPE_KRETPROBE_SET, "mean") &&
	      !kp_set_sort_ok(KPROF_TYPE_KRETPROBE_SET, "p50"), "sort keys");
	/* show's messages list the keys from the one table */
	kp_sort_list(list, sizeof(list), 0, 0);
	CHECK(!strcmp(list, "count, total, mean, p99 or name"), "%s", list);
	kp_sort_list(list, sizeof(list), 0, 1);
	CHECK(!strcmp(list, "count or name"), "%s", list);
	kp_sort_list(list, sizeof(list), 1, 0);
	CHECK(!strcmp(list, "count, total, mean or p99"), "%s", list);
	kp_sort_list(list, sizeof(list), 1, 1);
	CHECK(!strcmp(list, "count"), "%s", list);
}

static const char *const rnames[] = {
	"k_fast", "k_huge", "k_never", "k_slow", "k_wrap",
};

static void kretprobe_set(void)
{
	build();
	memset(want_hist, 0, sizeof(want_hist));
	memset(want_min, 0, sizeof(want_min));
	memset(want_max, 0, sizeof(want_max));
	add_set(2, 5, KPROF_TYPE_KRETPROBE_SET, "kretprobe:mydrv:k_*", rnames, 5);
	calls(2, 0, 0, 980, 100);
	calls(2, 0, 2, 30, 10000);
	calls(2, 0, 1, 20, 100);	/* the same bucket on another CPU */
	calls(2, 1, 3, 2, 5000000000ULL);	/* past the compact cut */
	calls(2, 1, 0, 1, 100);
	calls(2, 3, 3, 3, 1000000);
	calls(2, 3, 1, 2, 1500000);
}

static void test_kretprobe_set(void)
{
	struct kp_show_opts o = { 0 };
	char names[256], want[512], p50[24], p99[24], *out;
	struct kprof_probe_info recs[NPROBE];
	struct kp_map m;
	unsigned int n;

	kretprobe_set();
	out = render(1, &o);
	/* percentiles of the merged histogram, as the iterator computes them */
	snprintf(want, sizeof(want), "{\"name\":\"k_fast\",\"count\":1030,"
		 "\"total_ns\":400000,\"mean_ns\":388,\"min_ns\":100,"
		 "\"max_ns\":10000,\"p50_ns\":%" PRIu64 ",\"p90_ns\":%" PRIu64
		 ",\"p99_ns\":%" PRIu64 ",\"p999_ns\":%" PRIu64 "}",
		 want_q(0, 50, 100), want_q(0, 90, 100), want_q(0, 99, 100),
		 want_q(0, 999, 1000));
	CHECK(out && strstr(out, want), "k_fast %s in: %s", want, out);
	CHECK(want_q(0, 99, 100) > 9000 && want_q(0, 50, 100) < 110,
	      "p99 in the 10us bucket, p50 in the 100ns one");
	snprintf(want, sizeof(want), "{\"name\":\"k_slow\",\"count\":5,"
		 "\"total_ns\":6000000,\"mean_ns\":1200000,\"min_ns\":1000000,"
		 "\"max_ns\":1500000,\"p50_ns\":%" PRIu64 ",\"p90_ns\":%" PRIu64
		 ",\"p99_ns\":%" PRIu64 ",\"p999_ns\":%" PRIu64 "}",
		 want_q(3, 50, 100), want_q(3, 90, 100), want_q(3, 99, 100),
		 want_q(3, 999, 1000));
	CHECK(out && strstr(out, want), "k_slow across two CPUs %s in: %s",
	      want, out);
	/* a rank in the last compact bucket reports its lower bound */
	CHECK(want_q(1, 50, 100) == 1073741824, "last bucket's lower bound");
	snprintf(want, sizeof(want), "{\"name\":\"k_huge\",\"count\":3,"
		 "\"total_ns\":10000000100,\"mean_ns\":3333333366,"
		 "\"min_ns\":100,\"max_ns\":5000000000,\"p50_ns\":%" PRIu64
		 ",\"p90_ns\":%" PRIu64 ",", want_q(1, 50, 100), want_q(1, 90, 100));
	CHECK(out && strstr(out, want), "k_huge %s in: %s", want, out);
	CHECK(out && strstr(out, "{\"name\":\"k_never\",\"count\":0,\"total_ns\":0,"
			    "\"mean_ns\":0,\"min_ns\":0,\"max_ns\":0,\"p50_ns\":0,"),
	      "k_never zeros: %s", out);
	json_names(out, names, sizeof(names));
	CHECK(!strcmp(names, "k_fast k_slow k_huge k_never k_wrap"),
	      "count order: %s", names);
	free(out);
#define ORDER(s, w) do {						\
		o.sort = s;						\
		out = render(1, &o);					\
		json_names(out, names, sizeof(names));			\
		CHECK(!strcmp(names, w), "--sort %s: %s", s, names);	\
		free(out);						\
	} while (0)
	ORDER("total", "k_huge k_slow k_fast k_never k_wrap");
	ORDER("mean", "k_huge k_slow k_fast k_never k_wrap");
	ORDER("p99", "k_huge k_slow k_fast k_never k_wrap");
	ORDER("name", "k_fast k_huge k_never k_slow k_wrap");
	/* p99 apart from mean: k_fast's p99 is 10us, its mean 394ns */
	calls(2, 4, 0, 1000, 2000);	/* k_wrap: mean 2us < k_fast's p99 */
	ORDER("mean", "k_huge k_slow k_wrap k_fast k_never");
	ORDER("p99", "k_huge k_slow k_fast k_wrap k_never");
	o.sort = NULL;

	/* text: columns, units of show */
	out = render(0, &o);
	kp_fmt_ns(want_q(0, 50, 100), p50, sizeof(p50));
	kp_fmt_ns(want_q(0, 99, 100), p99, sizeof(p99));
	snprintf(want, sizeof(want), "  k_fast           1030      400us      388ns "
		 "%10s %10s       10us\n", p50, p99);
	CHECK(out && strstr(out, "  function set, 5 functions (5 hooked, 0 skipped), "
			    "via kretprobes\n  calls 2038  missed 0\n"
			    "  function        calls      total       mean        "
			    "p50        p99        max\n") && strstr(out, want),
	      "text table %s in: %s", want, out);
	CHECK(out && strstr(out, "  k_never             0          -          -"
			    "          -          -          -\n"),
	      "never called, dashes: %s", out);
	CHECK(out && !strstr(out, "warning"), "no wrap, no warning");
	free(out);

	/* --key: the function's full histogram, percentiles of the table */
	o.key = "k_fast";
	out = render(0, &o);
	snprintf(want, sizeof(want), "  function k_fast:\n    calls 1030\n"
		 "    min 100ns  mean 388ns  max 10us  total 400us\n"
		 "    p50 %s  p90 ", p50);
	CHECK(out && strstr(out, want) && strstr(out, "latency : count") &&
	      strstr(out, "64ns -> 128ns : 1000 ") &&
	      strstr(out, "8.192us -> 16.38us : 30 ") && !strstr(out, "k_slow"),
	      "--key k_fast %s in: %s", want, out);
	free(out);
	o.key = "k_huge";
	out = render(0, &o);
	CHECK(out && strstr(out, "  (a set's last bucket holds every call of "
			    "1.074s or more)\n"), "last bucket note: %s", out);
	free(out);
	o.json = 1;
	o.key = "k_slow";
	out = render(1, &o);
	json_names(out, names, sizeof(names));
	CHECK(!strcmp(names, "k_slow") && strstr(out, "\"per_cpu\":[{\"cpu\":1,"
						 "\"count\":2,") &&
	      strstr(out, "{\"cpu\":3,\"count\":3,") &&
	      strstr(out, "\"buckets\":[{\"lo_ns\":983040,\"hi_ns\":1015808,"
		     "\"count\":3},{\"lo_ns\":1441792,\"hi_ns\":1507328,"
		     "\"count\":2}]"), "JSON --key: %s", out);
	free(out);
	memset(&o, 0, sizeof(o));

	/* a function past 2^32 calls on one CPU: no quantiles, a warning */
	fh(2, 4, 1)->count = (1ULL << 32) + 5;
	fh(2, 4, 1)->sum = ((1ULL << 32) + 5) * 50;
	fh(2, 4, 1)->min = 50;
	fh(2, 4, 1)->max = 50;
	fh(2, 4, 1)->hist[kprof_fhist_index(50)] = 5;	/* wrapped */
	out = render(0, &o);
	CHECK(out && strstr(out, "  warning: k_wrap ran more than 2^32 times on "
			    "one CPU: its 32-bit bucket counters may have "
			    "wrapped, so its percentiles are not shown (\"?\"); "
			    "reset more often (kprofctl reset 5)\n") &&
	      strstr(out, "  k_wrap     4294968301 "), "wrap warning: %s", out);
	CHECK(out && strstr(strstr(out, "  k_wrap "), "          ?          ? "),
	      "no quantiles of a wrapped function: %s", out);
	free(out);
	out = render(1, &o);
	CHECK(out && strstr(out, "\"p50_ns\":null,\"p90_ns\":null,\"p99_ns\":null,"
			    "\"p999_ns\":null,\"hist_wrapped\":true}"),
	      "JSON wrapped: %s", out);
	free(out);

	/* watch names a slow call's function from its key */
	CHECK(!kp_map_init(&m, fake, fake_size, names, sizeof(names)) &&
	      !kp_map_probes(&m, recs, NPROBE, &n) && n == 1, "table");
	CHECK(!kp_set_func_name(&m, &recs[0], 3, names, sizeof(names)) &&
	      !strcmp(names, "k_slow"), "function of key 3: %s", names);
	CHECK(kp_set_func_name(&m, &recs[0], 5, names, sizeof(names)),
	      "no key 5");
	CHECK(kp_set_find(&m, &recs[0], "k_slow") == 3 &&
	      kp_set_find(&m, &recs[0], "k_sl") == -1, "find");
	kp_set_suggest(&m, &recs[0], "k_solw", names, sizeof(names));
	CHECK(!strncmp(names, "k_slow", 6), "suggest: %s", names);
}

/* how often @needle stands in @hay */
static unsigned int occurrences(const char *hay, const char *needle)
{
	unsigned int n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

/*
 * A latency set through ftrace whose k_huge ftrace cannot follow: its own
 * kretprobe, marked in the row, counted in the header, "via" in JSON.
 */
static void test_fast_set_kretprobes(void)
{
	struct kp_show_opts o = { 0 };
	char *out;

	kretprobe_set();
	rec(2)->mech = KPROF_MECH_FTRACE;
	func(2, 1)->flags |= KPROF_FUNC_KRETPROBE;
	out = render(0, &o);
	CHECK(out && strstr(out, "  function set, 5 functions (5 hooked, 0 "
			    "skipped), via ftrace and 1 kretprobe\n") &&
	      strstr(out, "\n  k_huge (kretprobe)            3 ") &&
	      !strstr(out, "k_fast (kretprobe)"), "text: %s", out);
	free(out);
	out = render(1, &o);
	/* k_huge's object ends with it (its p999 is no other's), only it */
	CHECK(out && strstr(out, "\"p999_ns\":1073741824,\"via\":\"kretprobe\"}") &&
	      occurrences(out, "\"via\"") == 1, "JSON via: %s", out);
	free(out);
	/* the flag on a function not hooked (now): not counted */
	func(2, 1)->flags &= ~KPROF_FUNC_PROBED;
	out = render(0, &o);
	CHECK(out && strstr(out, "skipped), via ftrace\n"), "unhooked: %s", out);
	free(out);
}

static void test_states(void)
{
	struct kp_show_opts o = { 0 };
	struct kprof_probe_info recs[NPROBE];
	struct kp_map m;
	unsigned int n;
	char err[128], *out;

	build();
	add_set(0, 9, KPROF_TYPE_KPROBE_SET, "kprobe:mydrv:*", NULL, 0);
	rec(0)->state = KPROF_STATE_PENDING;
	rec(0)->mech = 0;
	out = render(0, &o);
	CHECK(out && strstr(out, "probe 9: kprobe:mydrv:* [pending]\n"
			    "  function set, 0 functions (0 hooked, 0 skipped)\n"
			    "  waiting for module mydrv to load"), "pending: %s", out);
	free(out);
	out = render(1, &o);
	CHECK(out && strstr(out, "\"state\":\"pending\",\"mech\":\"none\","
			    "\"module\":\"mydrv\",") &&
	      strstr(out, "\"functions\":[],\"skipped\":[]}"), "pending JSON: %s",
	      out);
	free(out);
	/* a function table outside the mapping is refused */
	kprobe_set();
	rec(1)->funcs_off = fake_size - 64;
	CHECK(!kp_map_init(&m, fake, fake_size, err, sizeof(err)) &&
	      kp_map_probes(&m, recs, NPROBE, &n) == -1, "table out of bounds");
	kprobe_set();
	rec(1)->func_cpu_stride = 8;
	CHECK(!kp_map_init(&m, fake, fake_size, err, sizeof(err)) &&
	      kp_map_probes(&m, recs, NPROBE, &n) == -1, "rows overlap");
	kprobe_set();
	rec(1)->func_stats_off = fake_size - 8;
	CHECK(!kp_map_init(&m, fake, fake_size, err, sizeof(err)) &&
	      kp_map_probes(&m, recs, NPROBE, &n) == -1, "stats out of bounds");
}

int main(void)
{
	test_kprobe_set();
	test_kretprobe_set();
	test_fast_set_kretprobes();
	test_states();
	free(fake);
	return unit_done("sets");
}
