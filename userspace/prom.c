// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics as Prometheus metrics.  The text formats want each
 * family's lines together, so every family is written into a buffer of
 * its own while the probes are walked once, then the buffers one after
 * the other.  A family's series are counted as they are written; a probe's
 * counter or histogram that would pass max_series is left out whole (keys
 * and functions come busiest first, so the least busy go), and said so.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "funcset.h"
#include "pmu.h"
#include "prom.h"
#include "show-keys.h"
#include "show-opts.h"
#include "spec.h"
#include "util.h"
#include "kprofctl/hist.h"

enum { T_COUNTER, T_GAUGE, T_HIST, T_INFO };

enum {
	F_INFO, F_CALLS, F_MISSED, F_SAMPLES, F_LAT, F_CL_CALLS, F_CL_LAT,
	F_KEY_CALLS, F_KEY_LAT, F_FN_CALLS, F_FN_LAT, F_PMU, F_CUT, NR_F
};

/* name: without _total, _info (OpenMetrics' family names) */
static const struct {
	const char *name;
	int type;
	const char *help;
} fams[NR_F] = {
	[F_INFO] = { "kprofctl", T_INFO,
		"kprofctl and the machine its statistics come from" },
	[F_CALLS] = { "kprofctl_probe_calls", T_COUNTER,
		"Calls (hits) a probe counted, as kprofctl show's count" },
	[F_MISSED] = { "kprofctl_probe_missed", T_COUNTER,
		"Calls a probe missed, as kprofctl show's missed" },
	[F_SAMPLES] = { "kprofctl_probe_samples", T_COUNTER,
		"Samples (waits) a sampling or off-CPU probe took" },
	[F_LAT] = { "kprofctl_probe_latency_seconds", T_HIST,
		"Latency of a kretprobe's or pair's calls" },
	[F_CL_CALLS] = { "kprofctl_cluster_calls", T_COUNTER,
		"Calls a probe counted on the CPUs of one cluster" },
	[F_CL_LAT] = { "kprofctl_cluster_latency_seconds", T_HIST,
		"Latency of a probe's calls on the CPUs of one cluster" },
	[F_KEY_CALLS] = { "kprofctl_key_calls", T_COUNTER,
		"Calls a probe counted under one key (--key, pairs)" },
	[F_KEY_LAT] = { "kprofctl_key_latency_seconds", T_HIST,
		"Latency of a probe's calls under one key" },
	[F_FN_CALLS] = { "kprofctl_function_calls", T_COUNTER,
		"Calls (hits) of one function of a function set" },
	[F_FN_LAT] = { "kprofctl_function_latency_seconds", T_HIST,
		"Latency of one function of a kretprobe set" },
	[F_PMU] = { "kprofctl_pmu_events", T_COUNTER,
		"A PMU event's count on one CPU while its probe ran (scaled "
		"when multiplexed)" },
	[F_CUT] = { "kprofctl_export_series_cut", T_GAUGE,
		"Series of a family left out by --max-series" },
};

struct fam {
	FILE *f;
	char *buf;
	size_t len;
	unsigned int series, cut;
};

struct pw {
	struct fam fam[NR_F];
	const struct kp_prom_opts *p;
	const struct kp_map *m;
	const struct kp_show_opts *o;
};

const char *kp_prom_content_type(int openmetrics)
{
	return openmetrics ?
		"application/openmetrics-text; version=1.0.0; charset=utf-8" :
		"text/plain; version=0.0.4; charset=utf-8";
}

void kp_prom_escape(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (; *s; s++) {
		const char *e = *s == '\\' ? "\\\\" : *s == '"' ? "\\\"" :
				*s == '\n' ? "\\n" : NULL;
		size_t need = e ? 2 : 1;

		if (o + need >= len)
			break;
		if (e)
			memcpy(buf + o, e, 2);
		else
			buf[o] = *s;
		o += need;
	}
	if (len)
		buf[o] = '\0';
}

void kp_prom_seconds(uint64_t ns, char *buf, size_t len)
{
	char frac[16];
	int i;

	snprintf(frac, sizeof(frac), "%09" PRIu64, ns % 1000000000);
	/* trailing zeros go, one digit stays: "1.5", "0.0" */
	for (i = 8; i > 0 && frac[i] == '0'; i--)
		frac[i] = '\0';
	snprintf(buf, len, "%" PRIu64 ".%s", ns / 1000000000, frac);
}

/* room for n more series in family k?  Counted as left out when not */
static int room(struct pw *w, int k, unsigned int n)
{
	struct fam *F = &w->fam[k];

	if (w->p->max_series && F->series + n > w->p->max_series) {
		F->cut += n;
		return 0;
	}
	F->series += n;
	return 1;
}

/*
 * Labels are built in buffers of LB bytes: a spec (KPROF_SPEC_LEN) and
 * the longest key, function or cluster name, escaped, fit with room.
 */
#define LB	4096

/* appends ,name="value" (value escaped) to the labels in buf[LB] */
static void add_label(char *buf, const char *name, const char *value)
{
	size_t o = strlen(buf), nl = strlen(name);

	if (o + nl + 5 > LB)
		return;
	buf[o++] = ',';
	memcpy(buf + o, name, nl);
	o += nl;
	buf[o++] = '=';
	buf[o++] = '"';
	kp_prom_escape(value, buf + o, LB - o - 1);
	o += strlen(buf + o);
	buf[o++] = '"';
	buf[o] = '\0';
}

/* lb's labels and one more into out[LB] */
static void more_label(char *out, const char *lb, const char *name,
		       const char *value)
{
	snprintf(out, LB, "%s", lb);
	add_label(out, name, value);
}

static void counter(struct pw *w, int k, const char *lb, uint64_t v)
{
	if (room(w, k, 1))
		fprintf(w->fam[k].f, "%s_total{%s} %" PRIu64 "\n",
			fams[k].name, lb, v);
}

/*
 * A histogram from the iterator it (freshly initialised), cumulative:
 * kprofctl's buckets hold whole ns in [lower, upper), so le upper - 1 ns
 * is exact.  A bucket after empty ones also gets its low edge, lower - 1
 * ns, with the count below it, so that histogram_quantile interpolates
 * within the bucket and not across the empty ones.  The overflow bucket
 * is +Inf's, after its low edge.
 */
static void hist(struct pw *w, int k, const char *lb,
		 const struct kprof_hist_iter *start, uint64_t sum_ns)
{
	struct kprof_hist_iter it = *start;
	const char *name = fams[k].name;
	FILE *f = w->fam[k].f;
	unsigned int nb = 0, next = 0;
	char s[32];

	while (kprof_hist_iter_next(&it)) {
		nb += it.idx > next;
		nb += it.idx != it.nr - 1;
		next = it.idx + 1;
	}
	if (!room(w, k, nb + 3))
		return;
	it = *start;
	next = 0;
	while (kprof_hist_iter_next(&it)) {
		if (it.idx > next) {
			kp_prom_seconds(it.lower - 1, s, sizeof(s));
			fprintf(f, "%s_bucket{%s,le=\"%s\"} %" PRIu64 "\n", name,
				lb, s, it.cum - it.count);
		}
		next = it.idx + 1;
		if (it.idx == it.nr - 1)
			continue;
		kp_prom_seconds(it.upper - 1, s, sizeof(s));
		fprintf(f, "%s_bucket{%s,le=\"%s\"} %" PRIu64 "\n", name, lb, s,
			it.cum);
	}
	fprintf(f, "%s_bucket{%s,le=\"+Inf\"} %" PRIu64 "\n", name, lb, it.cum);
	kp_prom_seconds(sum_ns, s, sizeof(s));
	fprintf(f, "%s_sum{%s} %s\n", name, lb, s);
	fprintf(f, "%s_count{%s} %" PRIu64 "\n", name, lb, it.cum);
}

static void agg_hist(struct pw *w, int k, const char *lb,
		     const struct kp_agg *a)
{
	struct kprof_hist_iter it;

	kprof_hist_iter_init(&it, a->hist);
	hist(w, k, lb, &it, a->sum);
}

static void clusters(struct pw *w, const struct kprof_probe_info *r,
		     const char *lb, int lat)
{
	const struct kp_topo *t = w->o->topo;
	char l2[LB], l3[LB];
	unsigned int c;

	for (c = 0; t && c < t->nr_clusters; c++) {
		struct kp_agg a;

		kp_aggregate_mask(w->m, r, -1, -1, t->cl[c].mask, &a);
		more_label(l2, lb, "cluster", t->cl[c].name);
		more_label(l3, l2, "cpus", t->cl[c].cpus);
		counter(w, F_CL_CALLS, l3, a.count);
		if (lat)
			agg_hist(w, F_CL_LAT, l3, &a);
	}
}

/* a probe's keys, busiest first, then the calls beyond its key table */
static void keys(struct pw *w, const struct kprof_probe_info *r,
		 const char *lb, int lat)
{
	unsigned int n, total, i;
	struct kp_key *kv = kp_select_keys(w->m, r, w->o, &n, &total);
	char label[KP_KEY_LABEL], l2[LB];
	struct kp_agg a;

	for (i = 0; kv && i < n; i++) {
		kp_aggregate_key(w->m, r, kv[i].index, -1, &a);
		kp_key_label(r, &kv[i], label, sizeof(label));
		more_label(l2, lb, "key", label);
		counter(w, F_KEY_CALLS, l2, a.count);
		if (lat)
			agg_hist(w, F_KEY_LAT, l2, &a);
	}
	free(kv);
	kp_aggregate_key(w->m, r, r->nr_keys, -1, &a);
	if (!a.count)
		return;
	more_label(l2, lb, "key", "(other keys)");
	counter(w, F_KEY_CALLS, l2, a.count);
	if (lat)
		agg_hist(w, F_KEY_LAT, l2, &a);
}

/*
 * name as a label value, "#2" on when it is the second of its name (one
 * series per label set, or Prometheus refuses the scrape): seen is how
 * many before it had the name
 */
static void dup_label(const char *name, unsigned int seen, char *buf,
		      size_t len)
{
	if (seen)
		snprintf(buf, len, "%s#%u", name, seen + 1);
	else
		snprintf(buf, len, "%s", name);
}

/* a set's function i: static functions of one name may be many */
static void fn_label(const struct kp_fn *rows, unsigned int i, char *buf,
		     size_t len)
{
	unsigned int j, seen = 0;

	for (j = 0; j < i; j++)
		seen += !strcmp(rows[j].name, rows[i].name);
	dup_label(rows[i].name, seen, buf, len);
}

static void set_funcs(struct pw *w, const struct kprof_probe_info *r,
		      const char *lb)
{
	struct kp_set_sel sel = { 0 };
	unsigned int n, nskip, hidden, listed, i;
	struct kp_fn *rows = kp_set_rows(w->m, r, &sel, &n, NULL, &nskip,
					 &hidden, &listed);
	char name[KPROF_FUNC_NAME_LEN + 16], l2[LB];
	__u64 h[KPROF_FHIST_NR_BUCKETS];
	struct kprof_hist_iter it;

	for (i = 0; rows && i < n; i++) {
		struct kp_fn fn;

		fn_label(rows, i, name, sizeof(name));
		more_label(l2, lb, "function", name);
		counter(w, F_FN_CALLS, l2, rows[i].count);
		if (r->type != KPROF_TYPE_KRETPROBE_SET)
			continue;
		kp_set_func(w->m, r, rows[i].index, NULL, &fn, h);
		if (fn.wrapped) {
			/* its 32-bit buckets may have wrapped: no histogram */
			fprintf(stderr, "kprofctl %s: probe %u, %s: a CPU counted "
				"over 2^32 calls, its buckets may have wrapped: "
				"no latency histogram (reset the probe)\n",
				w->p->cmd, r->id, fn.name);
			continue;
		}
		kp_fhist_iter_init(&it, h);
		hist(w, F_FN_LAT, l2, &it, fn.sum);
	}
	free(rows);
}

/* a probe's PMU window totals, per event and CPU */
static void pmu(struct pw *w, const struct kprof_probe_info *r,
		const char *lb)
{
	struct kp_pmu_snap s;
	unsigned int e, c, j, seen;
	char l2[LB], l3[LB], cpu[16], ev[sizeof(s.ev[0].name) + 16];

	if (kp_pmu_snap_read(w->m, r, &s))
		return;
	for (e = 0; e < s.nr_events; e++) {
		/* pmu:cpu_cycles,cpu_cycles counts it twice */
		for (j = seen = 0; j < e; j++)
			seen += !strncmp(s.ev[j].name, s.ev[e].name,
					 sizeof(s.ev[e].name));
		dup_label(s.ev[e].name, seen, ev, sizeof(ev));
		for (c = 0; c < s.nr_cpus; c++) {
			const struct kprof_pmu_count *pc = &s.c[e * s.nr_cpus + c];

			if (!(pc->flags & KPROF_PMU_CNT_OPEN))
				continue;
			snprintf(cpu, sizeof(cpu), "%u", c);
			more_label(l2, lb, "event", ev);
			more_label(l3, l2, "cpu", cpu);
			counter(w, F_PMU, l3, kp_pmu_scaled(pc));
		}
	}
	kp_pmu_snap_free(&s);
}

static void probe(struct pw *w, const struct kprof_probe_info *r)
{
	int lat = r->type == KPROF_TYPE_KRETPROBE || r->type == KPROF_TYPE_PAIR;
	int sample = r->type == KPROF_TYPE_SAMPLE || r->type == KPROF_TYPE_OFFCPU;
	char spec[2 * KPROF_SPEC_LEN], lb[LB];
	struct kp_agg a;
	uint64_t missed;

	kp_prom_escape(r->spec, spec, sizeof(spec));
	snprintf(lb, sizeof(lb), "id=\"%u\",spec=\"%s\",kind=\"%s\"", r->id,
		 spec, kp_type_name(r->type));
	if (r->type != KPROF_TYPE_PMU) {
		if (r->type == KPROF_TYPE_PAIR) {
			kp_aggregate_pair(w->m, r, -1, &a);
			missed = a.drops;
		} else {
			kp_aggregate(w->m, r, -1, &a);
			missed = r->nmissed + a.drops;
		}
		counter(w, sample ? F_SAMPLES : F_CALLS, lb, a.count);
		counter(w, F_MISSED, lb, missed);
		if (lat)
			agg_hist(w, F_LAT, lb, &a);
	}
	if (r->type == KPROF_TYPE_KPROBE || r->type == KPROF_TYPE_KRETPROBE ||
	    r->type == KPROF_TYPE_TRACEPOINT)
		clusters(w, r, lb, lat);
	if (kp_is_set(r->type))
		set_funcs(w, r, lb);
	if (kp_has_keys(r))
		keys(w, r, lb, lat);
	if (r->pmu_block)
		pmu(w, r, lb);
}

static void info(struct pw *w)
{
	const struct kp_prom_opts *p = w->p;
	char k[256], m[256], a[64];

	kp_prom_escape(p->kernel ? p->kernel : "", k, sizeof(k));
	kp_prom_escape(p->machine ? p->machine : "", m, sizeof(m));
	kp_prom_escape(p->module_abi ? p->module_abi : "", a, sizeof(a));
	room(w, F_INFO, 1);
	fprintf(w->fam[F_INFO].f, "kprofctl_info{kernel=\"%s\",machine=\"%s\","
		"module_abi=\"%s\",version=\"%s\"} 1\n", k, m, a,
		KPROFCTL_VERSION);
}

/* the families cut, named on stderr and as kprofctl_export_series_cut */
static void cuts(struct pw *w, struct kp_prom_opts *p)
{
	unsigned int k;

	for (k = 0; k < F_CUT; k++) {
		if (!w->fam[k].cut)
			continue;
		p->cut += w->fam[k].cut;
		fprintf(stderr, "kprofctl %s: %s: %u series left out over "
			"--max-series %u (the last probes, the least busy keys "
			"and functions); raise --max-series, or export fewer "
			"probes (ID...)\n", p->cmd, fams[k].name, w->fam[k].cut,
			p->max_series);
		w->fam[F_CUT].series++;
		fprintf(w->fam[F_CUT].f, "kprofctl_export_series_cut{family=\"%s\"} "
			"%u\n", fams[k].name, w->fam[k].cut);
	}
}

/* "# HELP" and "# TYPE" lines, then the family's samples */
static void flush_fam(FILE *f, const struct fam *F, int k, int om)
{
	static const char *const tn[] = { "counter", "gauge", "histogram",
					  "info" };
	const char *sfx = "";
	int type = fams[k].type;

	if (!F->series)
		return;
	if (!om && type == T_COUNTER)
		sfx = "_total";
	if (!om && type == T_INFO) {
		sfx = "_info";
		type = T_GAUGE;
	}
	fprintf(f, "# HELP %s%s %s\n", fams[k].name, sfx, fams[k].help);
	fprintf(f, "# TYPE %s%s %s\n", fams[k].name, sfx, tn[type]);
	fwrite(F->buf, 1, F->len, f);
}

int kp_prom_write(FILE *f, const struct kp_map *m,
		  const struct kprof_probe_info *recs, unsigned int n,
		  const struct kp_show_opts *o)
{
	struct kp_prom_opts *p = o->prom;
	struct pw w = { .p = p, .m = m, .o = o };
	unsigned int i;
	int k, ret = 0;

	for (k = 0; k < NR_F; k++) {
		w.fam[k].f = open_memstream(&w.fam[k].buf, &w.fam[k].len);
		if (!w.fam[k].f)
			ret = -1;
	}
	if (!ret) {
		info(&w);
		for (i = 0; i < n; i++)
			probe(&w, &recs[i]);
		cuts(&w, p);
	}
	for (k = 0; k < NR_F; k++) {
		if (w.fam[k].f && fclose(w.fam[k].f))
			ret = -1;
		if (!ret)
			flush_fam(f, &w.fam[k], k, p->openmetrics);
		free(w.fam[k].buf);
	}
	if (!ret && p->openmetrics)
		fputs("# EOF\n", f);
	if (ret)
		fprintf(stderr, "kprofctl %s: out of memory\n", p->cmd);
	return ret;
}
