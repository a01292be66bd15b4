// SPDX-License-Identifier: GPL-2.0
/*
 * kprofctl top's engine on fake mappings fed through a scripted source:
 * rates and p99 of the interval (not of all calls), cluster columns, sort
 * orders, a probe deleted and re-added or reset (no rate, never a negative
 * one), plain output without control codes, --once.
 *
 * "test_top --interactive [INTERVAL_MS]" runs the interactive screen on an
 * endless script instead (tests/top/check drives it under tmux).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "fakemap.h"
#include "agg.h"
#include "top.h"
#include "kprofctl/hist.h"

#define NCPU	3
#define NPROBE	4
#define NKEYS	4
#define PAGE	4096
#define STRIDE	5120
#define KEYSZ	sizeof(struct kprof_key)
#define MAXF	4
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

/* the keys of the pair in slot 2: records, then statistics */
static uint64_t keys_off(void)
{
	return hdr()->stats_off + (uint64_t)NPROBE * NCPU * STRIDE;
}

static uint64_t key_stats_off(void)
{
	return keys_off() + PAGE;
}

static struct kprof_cpu_stats *kst(unsigned int key, unsigned int cpu)
{
	return (void *)(fake + key_stats_off() + (uint64_t)key * NCPU * STRIDE +
			cpu * STRIDE);
}

static void clear_stats(struct kprof_cpu_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

static void build(void)
{
	unsigned int s, c;

	/* the pair's key records and statistics, then a set, after the blocks */
	fake = kp_fake_build(fake, &fake_size, NPROBE, NCPU, STRIDE,
			     PAGE + (size_t)(NKEYS + 1) * NCPU * STRIDE + SETSZ);
	for (s = 0; s <= NKEYS; s++)
		for (c = 0; c < NCPU; c++)
			clear_stats(kst(s, c));
	memset(&topo, 0, sizeof(topo));
	topo.nr_cpus = NCPU;
	topo.nr_clusters = 2;
	strcpy(topo.cl[0].name, "A55");
	strcpy(topo.cl[0].cpus, "0-1");
	topo.cl[0].mask[0] = 0x3;
	strcpy(topo.cl[1].name, "A76");
	strcpy(topo.cl[1].cpus, "2");
	topo.cl[1].mask[0] = 0x4;
	for (c = 0; c < NCPU; c++)
		topo.cluster_of[c] = c < 2 ? 0 : 1;
}

static void add(unsigned int slot, uint32_t id, uint32_t type, const char *spec)
{
	struct kprof_probe_info *r = rec(slot);
	unsigned int c;

	memset(r, 0, sizeof(*r));
	r->id = id;
	r->slot = slot;
	r->type = type;
	r->state = KPROF_STATE_RUNNING;
	r->stats_off = hdr()->stats_off + slot * hdr()->probe_stride;
	strcpy(r->spec, spec);
	for (c = 0; c < NCPU; c++)
		clear_stats(st(slot, c));
	if (type == KPROF_TYPE_PAIR) {
		r->nr_keys = NKEYS;
		r->keys_off = keys_off();
		r->key_stats_off = key_stats_off();
		r->key_stride = (uint64_t)NCPU * STRIDE;
	}
	hdr()->generation++;
}

static void del(unsigned int slot)
{
	rec(slot)->id = 0;
	hdr()->generation++;
}

static void record(struct kprof_cpu_stats *s, unsigned int n, uint64_t ns)
{
	s->count += n;
	s->sum += n * ns;
	if (ns < s->min)
		s->min = ns;
	if (ns > s->max)
		s->max = ns;
	s->hist[kprof_hist_index(ns)] += n;
}

/* n calls of ns on cpu of the probe in slot (ns 0: a hit, no latency) */
static void calls(unsigned int slot, unsigned int cpu, unsigned int n,
		  uint64_t ns)
{
	if (ns)
		record(st(slot, cpu), n, ns);
	else
		st(slot, cpu)->count += n;
}

static void key_calls(unsigned int key, uint64_t value, unsigned int cpu,
		      unsigned int n, uint64_t ns)
{
	struct kprof_key *k = (void *)(fake + keys_off() + key * KEYSZ);

	k->value = value;
	k->flags = KPROF_KEY_USED;
	record(kst(key, cpu), n, ns);
}

/* a kretprobe set in slot 3 whose functions are names[0..nf) */
static uint64_t set_off(void)
{
	return key_stats_off() + (uint64_t)(NKEYS + 1) * NCPU * STRIDE;
}

static void add_set(uint32_t id, const char *spec, const char *const *names,
		    unsigned int nf)
{
	struct kprof_probe_info *r;
	unsigned int i, c;

	add(3, id, KPROF_TYPE_KRETPROBE_SET, spec);
	r = rec(3);
	r->nr_funcs = nf;
	r->nr_probed = nf;
	r->mech = KPROF_MECH_KPROBES;
	r->funcs_off = set_off();
	r->func_stride = sizeof(struct kprof_func_hist);
	r->func_stats_off = set_off() + MAXF * 64;
	r->func_cpu_stride = (uint64_t)MAXF * r->func_stride;
	for (i = 0; i < nf; i++) {
		struct kprof_func *kf = (void *)(fake + set_off() + i * 64);

		snprintf(kf->name, sizeof(kf->name), "%s", names[i]);
		kf->flags = KPROF_FUNC_PROBED;
		for (c = 0; c < NCPU; c++) {
			struct kprof_func_hist *fh = (void *)(fake +
				r->func_stats_off + c * r->func_cpu_stride +
				i * r->func_stride);

			memset(fh, 0, sizeof(*fh));
			fh->min = UINT64_MAX;
		}
	}
}

/* n calls of ns to function i of the set, on cpu */
static void fcalls(unsigned int i, unsigned int cpu, unsigned int n,
		   uint64_t ns)
{
	struct kprof_probe_info *r = rec(3);
	struct kprof_func_hist *h = (void *)(fake + r->func_stats_off +
					     cpu * r->func_cpu_stride +
					     i * r->func_stride);

	h->count += n;
	h->sum += n * ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->hist[kprof_fhist_index(ns)] += n;
	st(3, cpu)->count += n;		/* the set's own hits */
}

/* ---- a scripted source: step i changes the mapping, then is read --------- */

struct script {
	void (*step[8])(void);
	unsigned int nsteps, next;
	uint64_t t_ns[8];
	struct kp_map m;
	struct kprof_probe_info recs[NPROBE];
};

static int script_next(void *ctx, const struct kp_map **m,
		       const struct kprof_probe_info **recs, unsigned int *n,
		       uint64_t *t_ns)
{
	struct script *s = ctx;
	char err[128];

	if (s->next >= s->nsteps)
		return 1;
	s->step[s->next]();
	if (kp_map_init(&s->m, fake, fake_size, err, sizeof(err)) ||
	    kp_map_probes(&s->m, s->recs, NPROBE, n)) {
		printf("bad fake mapping: %s\n", err);
		return -1;
	}
	*t_ns = s->t_ns[s->next++];
	*m = &s->m;
	*recs = s->recs;
	return 0;
}

static int take(struct kp_top *t, struct script *s)
{
	const struct kprof_probe_info *recs;
	const struct kp_map *m;
	unsigned int n;
	uint64_t t_ns;
	int ret = script_next(s, &m, &recs, &n, &t_ns);

	return ret ? ret : kp_top_update(t, m, recs, n, t_ns);
}

static const struct kp_top_row *row(struct kp_top *t, uint32_t id)
{
	const struct kp_top_row *rows;
	unsigned int n = kp_top_rows(t, &rows), i;

	for (i = 0; i < n; i++)
		if (rows[i].id == id)
			return &rows[i];
	return NULL;
}

/*
 * slot 0: id 1 kretprobe:f, 1000 slow calls before; slot 1: id 2
 * kprobe:g (hits); slot 2: id 3 pair:irq, keys 45 and 7
 */
static void step0(void)
{
	build();
	add(0, 1, KPROF_TYPE_KRETPROBE, "kretprobe:f");
	add(1, 2, KPROF_TYPE_KPROBE, "kprobe:g");
	add(2, 3, KPROF_TYPE_PAIR, "pair:irq");
	calls(0, 1, 1000, 1000000);
	calls(1, 0, 100, 0);
	key_calls(0, 45, 0, 10, 10000);
	key_calls(1, 7, 2, 0, 10000);
}

/* 2 s later: 150 + 50 fast calls of f, 20 hits of g, pair keys 20 + 120 */
static void step1(void)
{
	calls(0, 0, 150, 1000);
	calls(0, 2, 50, 1000);
	calls(1, 1, 20, 0);
	key_calls(0, 45, 0, 20, 20000);
	key_calls(1, 7, 2, 120, 10000);
}

/* f deleted, f added again as id 5 in its slot, with 30 calls */
static void step2(void)
{
	del(0);
	add(0, 5, KPROF_TYPE_KRETPROBE, "kretprobe:f");
	calls(0, 0, 30, 2000);
	calls(1, 1, 10, 0);
}

/* g reset (zeroed) then hit 5 times */
static void step3(void)
{
	unsigned int c;

	for (c = 0; c < NCPU; c++)
		clear_stats(st(1, c));
	hdr()->generation++;
	calls(1, 0, 5, 0);
	calls(0, 0, 10, 2000);
}

static void step_none(void)
{
}

static void script_init(struct script *s)
{
	memset(s, 0, sizeof(*s));
	s->step[0] = step0;
	s->step[1] = step1;
	s->step[2] = step2;
	s->step[3] = step3;
	s->step[4] = step_none;
	s->nsteps = 5;
	s->t_ns[0] = 10000000000ull;
	s->t_ns[1] = 12000000000ull;
	s->t_ns[2] = 13000000000ull;
	s->t_ns[3] = 14000000000ull;
	s->t_ns[4] = 14500000000ull;
}

static uint64_t want_q(unsigned int n, uint64_t ns, uint64_t min, uint64_t max)
{
	__u64 h[KPROF_HIST_NR_BUCKETS] = { 0 };

	h[kprof_hist_index(ns)] = n;
	return kprof_hist_quantile(h, n, 99, 100, min, max);
}

static void test_rates(void)
{
	struct kp_top_opts o = { .keys = 1, .clusters = 1, .topo = &topo };
	struct kp_top *t = kp_top_new(&o);
	const struct kp_top_row *r, *k;
	struct script s;

	script_init(&s);
	CHECK(!take(t, &s), "step 0");
	r = row(t, 1);
	CHECK(r && !r->has_rate && r->total == 1000,
	      "first snapshot: no rate, total 1000");
	CHECK(!take(t, &s), "step 1");

	r = row(t, 1);
	CHECK(r && r->has_rate && r->rate == 100.0 && r->count == 200 &&
	      r->total == 1200, "f: 200 calls in 2 s: rate %f count %" PRIu64
	      " total %" PRIu64, r ? r->rate : -1, r ? r->count : 0,
	      r ? r->total : 0);
	/* the interval's p99 is a 1us call's, not the earlier 1ms ones' */
	CHECK(r && r->has_lat && r->p99 == want_q(200, 1000, 1000, 1000000) &&
	      r->p99 < 2000, "f: p99 of the interval %" PRIu64, r ? r->p99 : 0);
	CHECK(r && r->mean == 1000, "f: mean of the interval %" PRIu64,
	      r ? r->mean : 0);
	CHECK(r && r->cl_rate[0] == 75.0 && r->cl_rate[1] == 25.0 &&
	      r->cl_count[0] == 150 && r->cl_count[1] == 50,
	      "f: A55 %f A76 %f", r ? r->cl_rate[0] : -1,
	      r ? r->cl_rate[1] : -1);

	r = row(t, 2);
	CHECK(r && r->has_rate && r->rate == 10.0 && r->total == 120 &&
	      !r->has_lat, "g: 20 hits in 2 s, no latency");
	CHECK(r && r->cl_rate[0] == 10.0 && r->cl_rate[1] == 0.0,
	      "g: all on A55");

	r = row(t, 3);
	CHECK(r && r->has_rate && r->rate == 70.0 && r->total == 150,
	      "pair: 140 calls in 2 s: rate %f total %" PRIu64,
	      r ? r->rate : -1, r ? r->total : 0);
	CHECK(r && r->nsub == 2, "pair: two keys");
	if (r && r->nsub == 2) {
		k = &r->sub[0];
		CHECK(!strcmp(k->name, "7") && k->rate == 60.0 &&
		      k->total == 120 && k->cl_rate[1] == 60.0,
		      "busiest key first: 7 at 60/s, got %s %f", k->name,
		      k->rate);
		k = &r->sub[1];
		CHECK(!strcmp(k->name, "45") && k->rate == 10.0 &&
		      k->total == 30 && k->p99 == want_q(20, 20000, 10000, 20000),
		      "key 45: 10/s, p99 of its 20us calls: %s %f %" PRIu64,
		      k->name, k->rate, k->p99);
	}

	/* deleted and added again: a new row, no rate; g goes on */
	CHECK(!take(t, &s), "step 2");
	CHECK(!row(t, 1), "f's old id is gone");
	r = row(t, 5);
	CHECK(r && !r->has_rate && r->total == 30 && r->rate == 0,
	      "f again: no rate in its first interval");
	r = row(t, 2);
	CHECK(r && r->has_rate && r->rate == 10.0, "g: 10 hits in 1 s");

	/* reset: counts went down, no (negative) rate */
	CHECK(!take(t, &s), "step 3");
	r = row(t, 2);
	CHECK(r && !r->has_rate && r->total == 5 && r->rate >= 0,
	      "g reset: no rate, total 5");
	r = row(t, 5);
	CHECK(r && r->has_rate && r->rate == 10.0 && r->count == 10,
	      "f again: 10 calls in 1 s");

	/* nothing happened: rates 0, no latency */
	CHECK(!take(t, &s), "step 4");
	r = row(t, 2);
	CHECK(r && r->has_rate && r->rate == 0.0 && r->count == 0,
	      "g: rate 0 after its restart");
	r = row(t, 5);
	CHECK(r && r->has_rate && r->rate == 0.0 && !r->has_lat,
	      "f: no calls, no p99");
	CHECK(take(t, &s) == 1, "end of the script");
	kp_top_free(t);
}

static const char *const fnames[] = { "fa", "fb", "fc" };

/* the set: fb called 5 times before */
static void set0(void)
{
	build();
	add_set(4, "kretprobe:m:f*", fnames, 3);
	fcalls(1, 0, 5, 50000);
}

/* in 2 s: fa 40 calls of 3us on A55, fb 10 of 50us on A76, fc none */
static void set1(void)
{
	fcalls(0, 1, 40, 3000);
	fcalls(1, 2, 10, 50000);
}

static uint64_t want_fq(unsigned int n, uint64_t ns, uint64_t min, uint64_t max)
{
	__u64 h[KPROF_HIST_NR_BUCKETS] = { 0 };
	struct kprof_hist_iter it;

	h[kprof_fhist_index(ns)] = n;
	kprof_hist_iter_init(&it, h);
	it.nr = KPROF_FHIST_NR_BUCKETS;
	return kprof_hist_iter_quantile(&it, n, 99, 100, min, max);
}

static void test_set(void)
{
	struct kp_top_opts o = { .keys = 1, .clusters = 1, .topo = &topo };
	struct kp_top *t = kp_top_new(&o);
	const struct kp_top_row *r;
	struct script s;
	char *buf = NULL;
	size_t len;
	FILE *f;

	memset(&s, 0, sizeof(s));
	s.step[0] = set0;
	s.step[1] = set1;
	s.nsteps = 2;
	s.t_ns[0] = 1000000000ull;
	s.t_ns[1] = 3000000000ull;
	CHECK(!take(t, &s) && !take(t, &s), "the set's snapshots");
	r = row(t, 4);
	CHECK(r && r->has_rate && r->rate == 25.0 && r->total == 55,
	      "the set: 50 calls in 2 s, 55 in all");
	CHECK(r && r->nsub == 2, "two functions called, fc not shown: %u",
	      r ? r->nsub : 0);
	if (r && r->nsub == 2) {
		CHECK(!strcmp(r->sub[0].name, "fa") && r->sub[0].rate == 20.0 &&
		      r->sub[0].total == 40 && r->sub[0].mean == 3000 &&
		      r->sub[0].p99 == want_fq(40, 3000, 3000, 3000) &&
		      r->sub[0].cl_rate[0] == 20.0 && r->sub[0].cl_rate[1] == 0,
		      "fa: 20/s, p99 %" PRIu64, r->sub[0].p99);
		CHECK(!strcmp(r->sub[1].name, "fb") && r->sub[1].rate == 5.0 &&
		      r->sub[1].total == 15 && r->sub[1].mean == 50000 &&
		      r->sub[1].cl_rate[1] == 5.0,
		      "fb: 5/s, all on A76");
	}
	f = open_memstream(&buf, &len);
	kp_top_json(t, f);
	fclose(f);
	CHECK(strstr(buf, "\"functions\":[{\"name\":\"fa\",\"rate\":20.000,"
			  "\"count\":40,\"total\":40,"), "json: %s", buf);
	free(buf);
	kp_top_free(t);
}

/* the ids of the probes in the order of the rows */
static void order(struct kp_top *t, int sort, char *buf, size_t len)
{
	const struct kp_top_row *rows;
	unsigned int n, i;
	size_t k = 0;

	kp_top_set_sort(t, sort);
	n = kp_top_rows(t, &rows);
	buf[0] = '\0';
	for (i = 0; i < n && k + 12 < len; i++)
		k += snprintf(buf + k, len - k, "%s%u", i ? "," : "", rows[i].id);
}

static void test_sort(void)
{
	struct kp_top_opts o = { .keys = 1 };
	struct kp_top *t = kp_top_new(&o);
	struct script s;
	char buf[64];

	script_init(&s);
	take(t, &s);
	take(t, &s);
	/* rates: f 100, pair 70, g 10 */
	order(t, KP_TOP_RATE, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1,3,2"), "by rate: %s", buf);
	/* totals: f 1200, pair 150, g 120 */
	order(t, KP_TOP_TOTAL, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1,3,2"), "by total: %s", buf);
	/* p99: the pair's 10us+ > f's 1us > g (none) */
	order(t, KP_TOP_P99, buf, sizeof(buf));
	CHECK(!strcmp(buf, "3,1,2"), "by p99: %s", buf);
	/* spec: kprobe:g < kretprobe:f < pair:irq */
	order(t, KP_TOP_NAME, buf, sizeof(buf));
	CHECK(!strcmp(buf, "2,1,3"), "by name: %s", buf);
	CHECK(kp_top_sort_parse("p99") == KP_TOP_P99 &&
	      kp_top_sort_parse("count") == -1, "sort names");
	/* keys under the pair follow the sort too */
	kp_top_set_sort(t, KP_TOP_NAME);
	CHECK(row(t, 3) && !strcmp(row(t, 3)->sub[0].name, "45"),
	      "keys by name");
	kp_top_free(t);
}

/* the line of plain output out whose first token is name */
static const char *line_of(const char *out, const char *name)
{
	const char *p = out;
	size_t n = strlen(name);

	while (p && *p) {
		const char *q = p;

		while (*q == ' ')
			q++;
		if (!strncmp(q, name, n) && q[n] == ' ')
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static void test_plain(void)
{
	struct kp_top_opts o = { .keys = 1, .clusters = 1, .topo = &topo };
	struct kp_top *t = kp_top_new(&o);
	char *buf = NULL, rate[32], total[32], p99[32], mean[32], a55[32],
	     a76[32], spec[64];
	const char *l;
	unsigned int id;
	size_t len;
	struct script s;
	FILE *f;

	script_init(&s);
	take(t, &s);
	take(t, &s);
	f = open_memstream(&buf, &len);
	kp_top_print(t, f);
	fclose(f);
	CHECK(!strchr(buf, '\033'), "plain output has no ESC");
	CHECK(!strncmp(buf, "probes: 3  interval: 2s  sort: rate\n", 36),
	      "header: %.40s", buf);
	CHECK(strstr(buf, "A55/s") && strstr(buf, "A76/s"), "cluster columns");
	l = line_of(buf, "1");
	CHECK(l && sscanf(l, "%u %63s %31s %31s %31s %31s %31s %31s", &id, spec,
			  rate, total, p99, mean, a55, a76) == 8 &&
	      !strcmp(spec, "kretprobe:f") && !strcmp(rate, "100.0") &&
	      !strcmp(total, "1200") && !strcmp(mean, "1us") &&
	      !strcmp(a55, "75.0") && !strcmp(a76, "25.0"),
	      "f's row: %.100s", l ? l : "(none)");
	l = line_of(buf, "2");
	CHECK(l && sscanf(l, "%u %63s %31s %31s %31s %31s", &id, spec, rate,
			  total, p99, mean) == 6 && !strcmp(rate, "10.0") &&
	      !strcmp(p99, "-") && !strcmp(mean, "-"), "g's row: %.100s",
	      l ? l : "(none)");
	l = line_of(buf, "7");
	CHECK(l && sscanf(l, "%31s %31s %31s", spec, rate, total) == 3 &&
	      !strcmp(rate, "60.0") && !strcmp(total, "120"),
	      "key 7's row: %.100s", l ? l : "(none)");
	CHECK(l && line_of(buf, "3") < l && line_of(buf, "45") > l,
	      "keys under their probe, busiest first");
	free(buf);

	/* JSON: restarted rows say null, one line */
	take(t, &s);
	f = open_memstream(&buf, &len);
	kp_top_json(t, f);
	fclose(f);
	CHECK(strstr(buf, "{\"id\":5,\"spec\":\"kretprobe:f\",\"type\":\"kretprobe\","
			  "\"rate\":null,\"count\":null,\"total\":30") &&
	      strstr(buf, "{\"id\":2,\"spec\":\"kprobe:g\",\"type\":\"kprobe\","
			  "\"rate\":10.000,\"count\":10,\"total\":130,\"clusters\":"
			  "[{\"cluster\":\"A55\",\"rate\":10.000,\"count\":10},"
			  "{\"cluster\":\"A76\",\"rate\":0.000,\"count\":0}]}") &&
	      strchr(buf, '\n') == buf + len - 1, "json: %s", buf);
	free(buf);
	kp_top_free(t);
}

/* kp_top_run, plain: --once prints one table, -n 2 two, none without ESC */
static void test_run(void)
{
	struct kp_top_opts o = { .keys = 1, .interval_ns = 1000000, .count = 1 };
	struct kp_top_src src = { script_next, NULL };
	struct script s;
	char *buf = NULL;
	const char *p;
	size_t len;
	int ret, n = 0;

	script_init(&s);
	src.ctx = &s;
	o.out = open_memstream(&buf, &len);
	ret = kp_top_run(&src, &o);
	fclose(o.out);
	for (p = buf; (p = strstr(p, "probes: ")); p++)
		n++;
	CHECK(!ret && n == 1 && !strchr(buf, '\033') && s.next == 2,
	      "--once: one table (%d) after one interval (%u snapshots): %s",
	      n, s.next, buf);
	CHECK(line_of(buf, "1") && strstr(line_of(buf, "1"), " 100.0 "),
	      "--once: the interval's rate");
	free(buf);

	/* a replay's end ends plain output, 0 */
	script_init(&s);
	o.count = 0;
	o.json = 1;
	o.out = open_memstream(&buf, &len);
	ret = kp_top_run(&src, &o);
	fclose(o.out);
	n = 0;
	for (p = buf; (p = strchr(p, '\n')); p++)
		n++;
	CHECK(!ret && n == 4 && !strchr(buf, '\033') && buf[0] == '{',
	      "json to the end: %d lines, ret %d", n, ret);
	free(buf);
}

/* ---- --interactive: an endless script for tests/top/check ---------------- */

static unsigned int tick;

/* each step: f +100 calls (latency grows), g +10*tick hits, keys */
static void step_live(void)
{
	tick++;
	calls(0, tick % NCPU, 100, 1000 * tick);
	calls(1, 0, 10 * tick, 0);
	key_calls(0, 45, 1, 5, 20000);
	key_calls(1, 7, 2, 50, 10000);
}

static int live_next(void *ctx, const struct kp_map **m,
		     const struct kprof_probe_info **recs, unsigned int *n,
		     uint64_t *t_ns)
{
	struct script *s = ctx;

	s->next = 1;
	s->nsteps = 2;
	s->t_ns[1] = (uint64_t)(tick + 1) * 1000000000ull;
	s->step[1] = step_live;
	return script_next(s, m, recs, n, t_ns);
}

static void first_live(void)
{
	build();
	add(0, 1, KPROF_TYPE_KRETPROBE, "kretprobe:fake_read");
	add(1, 2, KPROF_TYPE_KPROBE, "kprobe:fake_irq");
	add(2, 3, KPROF_TYPE_PAIR, "pair:irq");
}

static int interactive(int argc, char **argv)
{
	struct kp_top_opts o = { .keys = 1, .clusters = 1, .topo = &topo,
				 .interval_ns = 200000000, .interactive = 1,
				 .in_fd = STDIN_FILENO };
	struct kp_top_src src = { live_next, NULL };
	struct script s;

	if (argc > 2)
		o.interval_ns = strtoull(argv[2], NULL, 10) * 1000000ull;
	memset(&s, 0, sizeof(s));
	first_live();
	src.ctx = &s;
	o.interactive = isatty(STDOUT_FILENO);
	return kp_top_run(&src, &o);
}

/* the screen's lines, joined by newlines */
static void emit_buf(void *ctx, const char *line)
{
	fprintf(ctx, "%s\n", line);
}

static char *screen(struct kp_top *t, unsigned int rows, unsigned int cols,
		    unsigned int *nlines, unsigned int *widest)
{
	struct kp_top_view v = { .rows = rows, .cols = cols, .now = "12:34:56" };
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	kp_top_screen(t, &v, emit_buf, f);
	fclose(f);
	*nlines = 0;
	*widest = 0;
	for (p = buf; p && *p; p = strchr(p, '\n') + 1) {
		unsigned int w = (unsigned int)(strchr(p, '\n') - p);

		(*nlines)++;
		*widest = w > *widest ? w : *widest;
	}
	return buf;
}

/* step0 and a fourth probe of a two-digit id */
static void step0_10(void)
{
	step0();
	add(3, 10, KPROF_TYPE_KPROBE, "kprobe:h");
	calls(3, 2, 7, 0);
}

static void test_screen(void)
{
	struct kp_top_opts o = { .keys = 1, .clusters = 1, .topo = &topo };
	struct kp_top *t = kp_top_new(&o);
	unsigned int n, w, more;
	const char *a, *b, *last;
	char *buf;
	struct script s;
	int paused = 0;

	script_init(&s);
	s.step[0] = step0_10;
	take(t, &s);
	take(t, &s);
	/* 80 columns: the names give way, the cluster columns stay */
	buf = screen(t, 40, 80, &n, &w);
	CHECK(w <= 80 && strstr(buf, " A55/s") && strstr(buf, " A76/s\n"),
	      "80 columns: widest %u, the clusters' columns kept: %s", w, buf);
	CHECK(strstr(buf, "12:34:56") && strstr(buf, "? help"),
	      "live: the wall clock and '? help' in the heading: %.100s", buf);
	free(buf);
	/* ids of one and two digits: the specs in one column */
	buf = screen(t, 40, 200, &n, &w);
	a = line_of(buf, "1");
	b = line_of(buf, "10");
	CHECK(a && b && strstr(a, "kretprobe:f") - a == strstr(b, "kprobe:h") - b,
	      "ids 1 and 10: specs aligned:\n%.40s\n%.40s", a ? a : "-", b ? b : "-");
	free(buf);
	/* 6 rows: what does not fit is counted, not hidden */
	buf = screen(t, 40, 200, &n, &w);
	more = n - 2;		/* the table's lines, without the heading */
	free(buf);
	buf = screen(t, 6, 200, &n, &w);
	last = strrchr(buf, '\n');
	while (last > buf && last[-1] != '\n')
		last--;
	{
		char want[64];

		/* heading, blank, table header, 2 rows, "+N more" */
		snprintf(want, sizeof(want), "+%u more", more - 3);
		CHECK(n == 6 && !strncmp(last, want, strlen(want)),
		      "6 rows: %u lines, the last '%.30s', want '%s'", n, last, want);
	}
	free(buf);
	/* '?': the keys, and back */
	CHECK(!kp_top_key(t, '?', &paused), "'?' does not quit");
	buf = screen(t, 40, 80, &n, &w);
	CHECK(strstr(buf, "s  sort by the next key") && strstr(buf, "q  quit") &&
	      !line_of(buf, "1"), "'?' shows the keys: %s", buf);
	free(buf);
	kp_top_key(t, '?', &paused);
	buf = screen(t, 40, 80, &n, &w);
	CHECK(line_of(buf, "1") && !strstr(buf, "s  sort by the next key"),
	      "'?' again: the table: %s", buf);
	free(buf);
	CHECK(kp_top_key(t, 'q', &paused) == 1, "q quits");
	kp_top_free(t);

	/* a replay: the time within the recording, not the wall clock */
	o.replay_ns = 60000000000ull;
	t = kp_top_new(&o);
	script_init(&s);
	take(t, &s);
	take(t, &s);
	buf = screen(t, 40, 120, &n, &w);
	CHECK(strstr(buf, "at 12.000 s of 60.000 s") && !strstr(buf, "12:34:56"),
	      "replay: the recording's time: %.100s", buf);
	free(buf);
	kp_top_free(t);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--interactive"))
		return interactive(argc, argv);
	test_rates();
	test_sort();
	test_plain();
	test_run();
	test_set();
	test_screen();
	return unit_done("test_top");
}
