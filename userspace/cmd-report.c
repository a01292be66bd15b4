// SPDX-License-Identifier: GPL-2.0
/*
 * kprofctl report: captures into one self-contained HTML page
 * (report.c): per probe its histograms per cluster, a heatmap of a
 * recording's intervals, the diff against a first capture, a profile's
 * flame graphs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "capture.h"
#include "diffstat.h"
#include "flame.h"
#include "flame-svg.h"
#include "key-frames.h"
#include "profile.h"
#include "report.h"
#include "show-keys.h"
#include "show-set.h"
#include "spec.h"

enum { OPT_OUT = 'o', OPT_TITLE = KP_OPT_BASE };

static const struct kp_opt report_opts[] = {
	{ "output", 'o', required_argument, "FILE",
	  "the page (required; - is stdout)", OPT_OUT, NULL },
	{ "title", 0, required_argument, "TEXT",
	  "the page's title (default: the capture's file name)", OPT_TITLE,
	  NULL },
	{ NULL, 0, 0, "[BEFORE] CAPTURE",
	  "a capture (save, record); with two, the second is reported\n"
	  "and compared with the first", 0, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_report = {
	.usage = "Usage: kprofctl report -o FILE [--title TEXT] [BEFORE] CAPTURE\n",
	.text =
"Write one HTML file that needs nothing else (no network, no CDN; its\n"
"style, script and images inline).  It opens with a summary of every\n"
"probe (calls, p50, p99, the p99 change against BEFORE, coloured when\n"
"significant), each linking its section; then for each probe of CAPTURE:\n"
"its percentiles (or what it counts, for kinds that time nothing), a set's\n"
"functions or a probe's keys as a table (click a heading to sort; against\n"
"BEFORE each row's change, keys that are new or gone said), its latency\n"
"histograms for all CPUs and each cluster on one axis, a latency heatmap\n"
"over time when CAPTURE is a recording (record -i: time on x, latency\n"
"buckets on y, calls as colour), the diff against BEFORE when given (as\n"
"kprofctl diff computes it), and a profile's flame graphs per cluster.\n"
"Open it in any browser; it prints too.\n",
	.opts = report_opts,
	.width = 16,
	.examples =
"  kprofctl record -i 1s -d 60s -o run.json && kprofctl report -o run.html run.json\n"
"  kprofctl report -o change.html before.json after.json\n",
};

/* what one probe's section is made of; freed by probe_free */
struct sect {
	char title[KPROF_SPEC_LEN + 32];
	struct kp_agg *aggs;		/* all, then each cluster */
	struct kp_rep_hist *h;
	char (*labels)[80];
	struct kp_agg *iv;
	struct kp_rep_series series;
	struct kp_rep_diffrow *rows;
	char (*cells)[3][32];
	char *svg[KP_FLAME_MAX_GRAPHS + 1];
	const char *svgp[KP_FLAME_MAX_GRAPHS + 1];
	char flabel[KP_FLAME_MAX_GRAPHS + 1][48];
	const char *flabelp[KP_FLAME_MAX_GRAPHS + 1];
	struct kp_rep_row *rows_v;	/* a set's functions or the keys */
	char (*rlabels)[KP_KEY_LABEL + 24];	/* + " (only in BEFORE)" */
	char (*rchange)[24];
	char rtitle[64];
};

static void sect_free(struct sect *s)
{
	unsigned int i;

	free(s->aggs);
	free(s->h);
	free(s->labels);
	free(s->iv);
	free(s->rows);
	free(s->cells);
	free(s->rows_v);
	free(s->rlabels);
	free(s->rchange);
	for (i = 0; i <= KP_FLAME_MAX_GRAPHS; i++)
		free(s->svg[i]);
}

static const struct kprof_probe_info *rec_of(const struct kprof_probe_info *v,
					     unsigned int n, const char *spec)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].spec, spec))
			return &v[i];
	return NULL;
}

/* a profile's flame graphs, one per cluster with samples */
static void flames(struct sect *s, struct kp_rep_probe *p,
		   const struct kp_capture *c, const struct kprof_probe_info *r)
{
	const struct kp_cap_probe *cp = kp_cap_probe(c, r->id);
	struct kp_profile prof;
	unsigned int k, n = 0;

	if (!kp_prof_is(&c->m, r) || !cp || cp->frames_err ||
	    kp_prof_load_map(NULL, &c->m, r, &prof))
		return;
	kp_prof_set_frames(&prof, kp_cap_frame_cb, (void *)c);
	for (k = 0; k < (prof.offcpu ? 1 : c->topo.nr_clusters) &&
	     n < KP_FLAME_MAX_GRAPHS; k++) {
		const __u64 *mask = prof.offcpu ? NULL : c->topo.cl[k].mask;
		struct kp_flame g, *gv = &g;
		struct kp_flame_opts fo = { 0 };
		char err[128];
		size_t len = 0;
		FILE *f;

		if (!kp_prof_total(&prof, mask) || kp_flame_init(&g, NULL))
			continue;
		if (kp_prof_flame(&prof, mask, &g, err, sizeof(err))) {
			kp_flame_free(&g);
			continue;
		}
		snprintf(s->flabel[n], sizeof(s->flabel[n]), "%s",
			 prof.offcpu ? "off-CPU" : c->topo.cl[k].name);
		fo.title = s->flabel[n];
		fo.count_name = prof.offcpu ? "us" : NULL;
		f = open_memstream(&s->svg[n], &len);
		if (f && !kp_flame_svg(f, &gv, 1, &fo) && !fclose(f)) {
			s->svgp[n] = s->svg[n];
			s->flabelp[n] = s->flabel[n];
			n++;
		} else if (f) {
			free(s->svg[n]);
			s->svg[n] = NULL;
		}
		kp_flame_free(&g);
	}
	kp_prof_free(&prof);
	p->nflame = n;
	p->flame_svg = s->svgp;
	p->flame_label = s->flabelp;
}

/* what a probe that times nothing counts, by kind */
static const char *counts_of(uint32_t type)
{
	switch (type) {
	case KPROF_TYPE_KPROBE:
		return "Hits (a kprobe counts calls, it times nothing)";
	case KPROF_TYPE_TRACEPOINT:
		return "Hits (a tracepoint counts events, it times nothing)";
	case KPROF_TYPE_SAMPLE:
		return "Samples (a sample probe counts its event's overflows, "
		       "it times nothing)";
	case KPROF_TYPE_OFFCPU:
		return "Waits (their time is per stack: see the flame graph)";
	case KPROF_TYPE_PMU:
		return "Hits (the PMU counters' totals: kprofctl show)";
	default:
		return "Counts";
	}
}

/* a table of n rows: the rows, their labels and changes */
static int rows_alloc(struct sect *s, unsigned int n)
{
	s->rows_v = calloc(n ? n : 1, sizeof(*s->rows_v));
	s->rlabels = calloc(n ? n : 1, sizeof(*s->rlabels));
	s->rchange = calloc(n ? n : 1, sizeof(*s->rchange));
	return s->rows_v && s->rlabels && s->rchange ? 0 : -1;
}

/*
 * Function index of set r as a distribution diffstat compares: the
 * compact histogram has the full one's buckets up to its open last one
 */
static void fn_agg(const struct kp_map *m, const struct kprof_probe_info *r,
		   unsigned int index, struct kp_agg *a)
{
	__u64 h[KPROF_FHIST_NR_BUCKETS];
	struct kp_fn fn;

	memset(a, 0, sizeof(*a));
	kp_set_func(m, r, index, NULL, &fn, h);
	a->count = fn.count;
	a->sum = fn.sum;
	a->min = fn.count ? fn.min : 0;
	a->max = fn.max;
	memcpy(a->hist, h, sizeof(h));
}

/*
 * A function's p99 against the same function of BEFORE's set b (NULL:
 * none), through diffstat: "+15.1 %", "new" when b lacks it, "n/a"
 */
static void fn_change(struct kp_rep_row *w, char *buf, size_t len,
		      const struct kp_capture *c, const struct kprof_probe_info *r,
		      unsigned int index, const struct kp_capture *before,
		      const struct kprof_probe_info *b, const char *name)
{
	int bi = b ? kp_set_find(&before->m, b, name) : -1;
	struct kp_agg aa, ba;
	struct kp_shift x;

	w->change = buf;
	if (bi < 0) {
		snprintf(buf, len, "new");
		return;
	}
	fn_agg(&c->m, r, index, &aa);
	fn_agg(&before->m, b, (unsigned int)bi, &ba);
	x = kp_diff_metric(&ba, &aa, KP_M_P99, NULL);
	if (!x.has_change || !aa.count) {
		snprintf(buf, len, "n/a");
		return;
	}
	kp_fmt_change(&x, buf, len);
	w->significant = x.significant;
	w->direction = x.change > 0 ? 1 : x.change < 0 ? -1 : 0;
}

/*
 * A set's functions, busiest first, as show lists them; against BEFORE's
 * set b (NULL: none) each one's p99 change
 */
static int set_rows(struct sect *s, struct kp_rep_probe *p,
		    const struct kp_capture *c, const struct kprof_probe_info *r,
		    const struct kp_capture *before,
		    const struct kprof_probe_info *b)
{
	struct kp_set_sel sel = { 0 };
	unsigned int n, nskip, hidden, listed, i;
	struct kp_fn *fn = kp_set_rows(&c->m, r, &sel, &n, NULL, &nskip,
				       &hidden, &listed);
	int lat = r->type == KPROF_TYPE_KRETPROBE_SET;

	if (!fn)
		return -1;
	if (rows_alloc(s, n)) {
		free(fn);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (b && lat)
			fn_change(&s->rows_v[i], s->rchange[i], sizeof(s->rchange[i]),
				  c, r, fn[i].index, before, b, fn[i].name);
		struct kp_rep_row *w = &s->rows_v[i];

		snprintf(s->rlabels[i], sizeof(s->rlabels[i]), "%s%s", fn[i].name,
			 fn[i].flags & KPROF_FUNC_KRETPROBE ? " (kretprobe)" : "");
		w->label = s->rlabels[i];
		w->count = fn[i].count;
		w->sum = fn[i].sum;
		w->max = fn[i].max;
		w->p50 = fn[i].q[KP_P50];
		w->p99 = fn[i].q[KP_P99];
		p->rows_count += fn[i].count;
	}
	free(fn);
	p->nrows = n;
	p->rows = s->rows_v;
	snprintf(s->rtitle, sizeof(s->rtitle), "Functions (%u)", n);
	p->rows_title = s->rtitle;
	p->nh = 0;	/* a set's totals have no histogram: its functions do */
	return 0;
}

/* probe r's keys in capture c, busiest first, callers named as show names them */
static struct kp_key *capture_keys(const struct kp_capture *c,
				   const struct kprof_probe_info *r,
				   unsigned int *n)
{
	struct kp_show_opts o = { .caller_name = kp_frames_caller };
	struct kp_key *keys;
	unsigned int total;
	struct kp_dev d;

	kp_dev_from_capture(&d, c);
	o.caller_ctx = kp_frames_new(&d);
	keys = o.caller_ctx ? kp_select_keys(&c->m, r, &o, n, &total) : NULL;
	kp_frames_free(o.caller_ctx);
	return keys;
}

/*
 * A key against BEFORE's probe b: its p99 (a count's, for a probe that
 * times nothing) through diffstat, or "new"; a key that appears is
 * marked, as a new errno is what a driver's developer looks for
 */
static void key_change(struct kp_rep_row *w, char *buf, size_t len,
		       const struct kp_agg *a, const struct kp_capture *before,
		       const struct kprof_probe_info *b, const struct kp_key *bk,
		       int lat)
{
	struct kp_agg ba;
	struct kp_shift x;

	w->change = buf;
	if (!bk) {
		snprintf(buf, len, "new");
		w->significant = 1;
		return;
	}
	kp_aggregate_key(&before->m, b, bk->index, -1, &ba);
	x = kp_diff_metric(&ba, a, lat ? KP_M_P99 : KP_M_COUNT, NULL);
	if (!x.has_change) {
		snprintf(buf, len, "n/a");
		return;
	}
	kp_fmt_change(&x, buf, len);
	w->significant = x.significant;
	if (lat)
		w->direction = x.change > 0 ? 1 : x.change < 0 ? -1 : 0;
}

/*
 * A keyed probe's keys (retval, caller...), busiest first, named; against
 * BEFORE's probe b (NULL: none) each one's change, then the keys only
 * BEFORE had
 */
static int key_rows(struct sect *s, struct kp_rep_probe *p,
		    const struct kp_capture *c, const struct kprof_probe_info *r,
		    const struct kp_capture *before,
		    const struct kprof_probe_info *b)
{
	unsigned int n = 0, bn = 0, gone = 0, i, j, k;
	struct kp_key *keys = capture_keys(c, r, &n), *bkeys = NULL;
	unsigned char *seen = NULL;
	int lat = kp_type_latency(r->type), ret = -1;
	char kind[32];
	size_t used;

	if (b && kp_has_keys(b) && !memcmp(b->key, r->key, sizeof(r->key))) {
		bkeys = capture_keys(before, b, &bn);
		seen = calloc(bn ? bn : 1, 1);
		if (!bkeys || !seen)
			goto out;
	}
	for (j = 0; bkeys && j < bn; j++)
		for (i = 0, gone++; i < n; i++)
			if (keys[i].value == bkeys[j].value &&
			    keys[i].value2 == bkeys[j].value2) {
				seen[j] = 1;
				gone--;
				break;
			}
	if (!keys || rows_alloc(s, n + gone))
		goto out;
	for (i = 0; i < n; i++) {
		struct kp_rep_row *w = &s->rows_v[i];
		const struct kp_key *bk = NULL;
		struct kp_agg a;

		kp_aggregate_key(&c->m, r, keys[i].index, -1, &a);
		kp_key_label(r, &keys[i], s->rlabels[i], sizeof(s->rlabels[i]));
		w->label = s->rlabels[i];
		w->count = a.count;
		w->sum = a.sum;
		w->max = a.max;
		w->p50 = kp_quantile(&a, 50, 100);
		w->p99 = kp_quantile(&a, 99, 100);
		for (j = 0; bkeys && j < bn && !bk; j++)
			if (keys[i].value == bkeys[j].value &&
			    keys[i].value2 == bkeys[j].value2)
				bk = &bkeys[j];
		if (bkeys)
			key_change(w, s->rchange[i], sizeof(s->rchange[i]), &a,
				   before, b, bk, lat);
	}
	/* what BEFORE had and this capture has not: a key that went away */
	for (j = 0, k = n; bkeys && j < bn; j++) {
		struct kp_rep_row *w = &s->rows_v[k];
		char label[KP_KEY_LABEL];

		if (seen[j])
			continue;
		kp_key_label(b, &bkeys[j], label, sizeof(label));
		snprintf(s->rlabels[k], sizeof(s->rlabels[k]), "%s (only in BEFORE)",
			 label);
		w->label = s->rlabels[k];
		snprintf(s->rchange[k], sizeof(s->rchange[k]), "gone");
		w->change = s->rchange[k];
		w->significant = 1;
		k++;
	}
	used = (size_t)snprintf(s->rtitle, sizeof(s->rtitle), "Keys by ");
	for (j = 0; j < KPROF_MAX_KEYS && r->key[j] && used < sizeof(s->rtitle);
	     j++) {
		kp_key_format(r->key[j], kind, sizeof(kind));
		used += (size_t)snprintf(s->rtitle + used, sizeof(s->rtitle) - used,
					 "%s%s", j ? ", " : "", kind);
	}
	p->nrows = n + gone;
	p->rows = s->rows_v;
	p->rows_title = s->rtitle;
	ret = 0;
out:
	free(keys);
	free(bkeys);
	free(seen);
	return ret;
}

static const enum kp_metric shown[] = {
	KP_M_COUNT, KP_M_P50, KP_M_P90, KP_M_P99, KP_M_MAX, KP_M_MEAN,
};

static int section(struct sect *s, struct kp_rep_probe *p,
		   const struct kp_capture *c, const struct kprof_probe_info *r,
		   const struct kp_capture *before, const char *bname)
{
	unsigned int nh = 1 + (c->topo.nr_clusters > 1 ? c->topo.nr_clusters : 0);
	const struct kprof_probe_info *b;
	unsigned int i, k;

	memset(s, 0, sizeof(*s));
	memset(p, 0, sizeof(*p));
	snprintf(s->title, sizeof(s->title), "probe %u  %s", r->id, r->spec);
	p->title = s->title;
	p->id = r->id;
	p->spec = r->spec;
	p->latency = kp_type_latency(r->type);
	p->counts = counts_of(r->type);
	s->aggs = calloc(nh, sizeof(*s->aggs));
	s->h = calloc(nh, sizeof(*s->h));
	s->labels = calloc(nh, sizeof(*s->labels));
	if (!s->aggs || !s->h || !s->labels)
		return -1;
	kp_aggregate(&c->m, r, -1, &s->aggs[0]);
	snprintf(s->labels[0], sizeof(s->labels[0]), "all CPUs");
	for (k = 1; k < nh; k++) {
		kp_aggregate_mask(&c->m, r, -1, -1, c->topo.cl[k - 1].mask,
				  &s->aggs[k]);
		snprintf(s->labels[k], sizeof(s->labels[k]), "%s (cpu %s)",
			 c->topo.cl[k - 1].name, c->topo.cl[k - 1].cpus);
	}
	for (k = 0; k < nh; k++) {
		s->h[k].label = s->labels[k];
		s->h[k].agg = &s->aggs[k];
	}
	p->nh = nh;
	p->h = s->h;
	b = before ? rec_of(before->recs, before->n, r->spec) : NULL;
	if (b && b->type != r->type)
		b = NULL;
	if (kp_is_set(r->type) ? set_rows(s, p, c, r, before, b) :
	    kp_has_keys(r) ? key_rows(s, p, c, r, before, b) : 0)
		return -1;
	if (c->nr_iv && p->latency && p->nh) {
		s->iv = calloc(c->nr_iv, sizeof(*s->iv));
		if (!s->iv)
			return -1;
		for (i = 0; i < c->nr_iv; i++) {
			const struct kp_cap_interval *v = &c->iv[i];

			for (k = 0; k < v->n; k++)
				if (v->recs[k].id == r->id)
					kp_aggregate(&v->m, &v->recs[k], -1, &s->iv[i]);
		}
		s->series.t0_ns = c->iv[0].t_ns - c->iv[0].dt_ns;
		s->series.dt_ns = c->interval_ns ? c->interval_ns : c->iv[0].dt_ns;
		s->series.n = c->nr_iv;
		s->series.iv = s->iv;
		p->series = &s->series;
	}
	if (b) {
		struct kp_agg ba;
		unsigned int m, nr = 0;

		kp_aggregate(&before->m, b, -1, &ba);
		s->rows = calloc(6, sizeof(*s->rows));
		s->cells = calloc(6, sizeof(*s->cells));
		if (!s->rows || !s->cells)
			return -1;
		for (m = 0; m < 6; m++) {
			struct kp_shift x;

			/* a set's totals have calls, its functions the rest */
			if ((!p->latency || kp_is_set(r->type)) &&
			    shown[m] != KP_M_COUNT)
				continue;
			x = kp_diff_metric(&ba, &s->aggs[0], shown[m], NULL);
			if (shown[m] == KP_M_COUNT) {
				snprintf(s->cells[nr][0], 32, "%" PRIu64, x.before);
				snprintf(s->cells[nr][1], 32, "%" PRIu64, x.after);
			} else {
				kp_fmt_ns(x.before, s->cells[nr][0], 32);
				kp_fmt_ns(x.after, s->cells[nr][1], 32);
			}
			if (x.has_change)
				snprintf(s->cells[nr][2], 32, "%+.1f %%", x.change);
			else
				snprintf(s->cells[nr][2], 32, "n/a");
			s->rows[nr].metric = kp_metric_name(shown[m]);
			s->rows[nr].before = s->cells[nr][0];
			s->rows[nr].after = s->cells[nr][1];
			s->rows[nr].change = s->cells[nr][2];
			s->rows[nr].significant = x.significant;
			/* slower is worse; a count's change is neither */
			if (shown[m] != KP_M_COUNT && x.has_change && x.change)
				s->rows[nr].direction = x.change > 0 ? 1 : -1;
			nr++;
		}
		p->ndiff = nr;
		p->diff = s->rows;
		p->diff_against = bname;
	}
	flames(s, p, c, r);
	return 0;
}

int cmd_report(struct kp_dev *unused, int argc, char **argv)
{
	struct option lo[KP_MAX_OPTS + 1];
	const char *out = NULL, *title = NULL, *paths[2];
	static const char *keys[12];
	static char vals[12][256];
	const char *valp[12];
	struct kp_capture c, b;
	struct kp_rep_probe *p = NULL;
	struct sect *s = NULL;
	struct kp_rep rep = { 0 };
	unsigned int npaths = 0, i, nctx = 0;
	char err[256], shorts[40];
	int opt, ret = 1, have_b = 0;
	FILE *f;

	(void)unused;
	kp_opts_build(report_opts, lo);
	kp_opts_short(report_opts, shorts, sizeof(shorts));
	optind = 1;
	for (;;) {
		opt = getopt_long(argc, argv, shorts, lo, NULL);
		if (opt == -1) {
			if (optind < argc) {
				if (npaths == 2)
					return kp_bad_usage("report", "at most two "
							    "captures: [BEFORE] "
							    "CAPTURE, not '%s'",
							    argv[optind]);
				paths[npaths++] = argv[optind++];
				continue;
			}
			break;
		}
		if (opt == OPT_OUT)
			out = optarg;
		else if (opt == OPT_TITLE)
			title = optarg;
		else
			return kp_bad_usage("report", "%s", "unknown option");
	}
	if (!out)
		return kp_bad_usage("report", "%s", "missing -o FILE");
	if (!npaths)
		return kp_bad_usage("report", "%s", "give a capture (kprofctl save, "
				    "record)");
	if (kp_capture_load(&c, paths[npaths - 1], err, sizeof(err))) {
		fprintf(stderr, "kprofctl report: %s: %s\n", paths[npaths - 1], err);
		return 1;
	}
	if (npaths == 2) {
		if (kp_capture_load(&b, paths[0], err, sizeof(err))) {
			fprintf(stderr, "kprofctl report: %s: %s\n", paths[0], err);
			kp_capture_free(&c);
			return 1;
		}
		have_b = 1;
	}
	p = calloc(c.n + 1, sizeof(*p));
	s = calloc(c.n + 1, sizeof(*s));
	if (!p || !s)
		goto oom;
	for (i = 0; i < c.n; i++)
		if (section(&s[i], &p[i], &c, &c.recs[i], have_b ? &b : NULL,
			    paths[0]))
			goto oom;
#define CTX(k, ...) do {						\
		keys[nctx] = k;						\
		snprintf(vals[nctx], sizeof(vals[nctx]), __VA_ARGS__);	\
		valp[nctx] = vals[nctx];				\
		nctx++;							\
	} while (0)
	CTX("capture", "%s", paths[npaths - 1]);
	CTX("saved", "%s", c.created);
	CTX("kernel", "%s (%s)", c.kernel, c.arch);
	CTX("machine", "%s", c.machine[0] ? c.machine : "unknown");
	{
		size_t used = 0;

		vals[nctx][0] = '\0';
		for (i = 0; i < c.topo.nr_clusters && used < sizeof(vals[0]); i++)
			used += (size_t)snprintf(vals[nctx] + used,
						 sizeof(vals[0]) - used, "%s%s cpu %s",
						 i ? ", " : "", c.topo.cl[i].name,
						 c.topo.cl[i].cpus);
		keys[nctx] = "CPUs";
		valp[nctx] = vals[nctx];
		nctx++;
	}
	if (c.nr_iv)
		CTX("recording", "%u intervals of %.3f s", c.nr_iv,
		    c.interval_ns / 1e9);
	CTX("module ABI", "%u.%u, kprofctl %s", c.abi_major, c.abi_minor,
	    c.cli[0] ? c.cli : "?");
	if (have_b)
		CTX("compared with", "%s (saved %s)", paths[0], b.created);
#undef CTX
	rep.title = title ? title : paths[npaths - 1];
	rep.nctx = nctx;
	rep.ctx_key = keys;
	rep.ctx_val = valp;
	rep.n = c.n;
	rep.p = p;
	f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	if (!f || kp_report_html(f, &rep) || (f != stdout && fclose(f))) {
		fprintf(stderr, "kprofctl report: cannot write '%s': %s\n", out,
			strerror(errno));
		ret = 1;
	} else {
		ret = 0;
		if (f != stdout)
			fprintf(stderr, "kprofctl report: wrote %s (%u probe%s%s)\n",
				out, c.n, c.n == 1 ? "" : "s",
				c.nr_iv ? ", with heatmaps" : "");
	}
	goto out;
oom:
	fprintf(stderr, "kprofctl report: out of memory\n");
out:
	for (i = 0; s && i < c.n; i++)
		sect_free(&s[i]);
	free(s);
	free(p);
	kp_capture_free(&c);
	if (have_b)
		kp_capture_free(&b);
	return ret;
}
