// SPDX-License-Identifier: GPL-2.0
/*
 * diff's comparison of two captures, printed: probe by probe (matched by
 * spec), with keys and functions, per cluster; the metrics' shifts with
 * their significance, the --fail-if gates, what one side only has.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "capture.h"
#include "diff-print.h"
#include "json.h"
#include "show-set.h"
#include "spec.h"

static const enum kp_metric shown[] = {
	KP_M_COUNT, KP_M_P50, KP_M_P90, KP_M_P99, KP_M_MAX, KP_M_MEAN,
};

/* one thing compared: a probe's total, key or function, on a cluster */
struct row {
	char spec[KPROF_SPEC_LEN];
	char key[160];			/* "" for the probe's total */
	char cluster[40];		/* "" for every CPU */
	int latency;			/* 0: counts only */
	uint64_t order;			/* sort within a probe: busiest first */
	struct kp_agg a;
};

struct rows {
	struct row *v;
	unsigned int n, max;
};

static struct row *row_add(struct rows *rs)
{
	if (rs->n == rs->max) {
		unsigned int m = rs->max ? 2 * rs->max : 64;
		struct row *v = realloc(rs->v, m * sizeof(*v));

		if (!v)
			return NULL;
		rs->v = v;
		rs->max = m;
	}
	memset(&rs->v[rs->n], 0, sizeof(rs->v[0]));
	return &rs->v[rs->n++];
}

/* a key's label, by name for caller and stack ids (ids differ by boot) */
static void key_label(const struct kp_capture *c,
		      const struct kprof_probe_info *r, const struct kp_key *k,
		      char *buf, size_t len)
{
	unsigned int j, i;
	size_t used = 0;

	kp_key_label(r, k, buf, len);
	for (j = 0; r->key_rec_size && j < KPROF_MAX_KEYS; j++) {
		unsigned int kind = KPROF_KEYSPEC_KIND(r->key[j]);
		uint64_t id = j ? k->value2 : k->value;
		const char *n;

		if (kind == KPROF_KEY_CALLER && (n = kp_cap_caller(c, r->id, id))) {
			snprintf(buf, len, "%s", n);
			return;
		}
		if (kind != KPROF_KEY_STACK || !kp_cap_frame(c, r->id, id, 0))
			continue;
		buf[0] = '\0';
		for (i = 0; (n = kp_cap_frame(c, r->id, id, i)) && used + 2 < len;
		     i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 i ? ";" : "", n);
		return;
	}
}

static int collect(const struct kp_capture *c, struct rows *rs, int clusters,
		   int keys, unsigned int top)
{
	unsigned int i, k, cl;
	struct kp_key *kv = NULL;

	for (i = 0; i < c->n; i++) {
		const struct kprof_probe_info *r = &c->recs[i];
		struct row *w;

		for (cl = 0; cl <= (clusters ? c->topo.nr_clusters : 0); cl++) {
			w = row_add(rs);
			if (!w)
				return -1;
			snprintf(w->spec, sizeof(w->spec), "%s", r->spec);
			w->latency = kp_type_latency(r->type);
			if (!cl) {
				kp_aggregate(&c->m, r, -1, &w->a);
			} else {
				snprintf(w->cluster, sizeof(w->cluster), "%s",
					 c->topo.cl[cl - 1].name);
				kp_aggregate_mask(&c->m, r, -1, -1,
						  c->topo.cl[cl - 1].mask, &w->a);
			}
			w->order = UINT64_MAX;
		}
		if (!keys)
			continue;
		if (kp_has_keys(r)) {
			unsigned int nk;

			free(kv);
			kv = calloc(r->nr_keys + 1, sizeof(*kv));
			if (!kv)
				return -1;
			nk = kp_pair_keys(&c->m, r, kv);
			for (k = 0; k < nk && k < top; k++) {
				w = row_add(rs);
				if (!w)
					goto oom;
				snprintf(w->spec, sizeof(w->spec), "%s", r->spec);
				key_label(c, r, &kv[k], w->key, sizeof(w->key));
				w->latency = kp_type_latency(r->type);
				kp_aggregate_key(&c->m, r, kv[k].index, -1, &w->a);
				w->order = w->a.count;
			}
		}
		for (k = 0; kp_is_set(r->type) && k < r->nr_funcs; k++) {
			struct kp_fn fn;

			w = row_add(rs);
			if (!w)
				goto oom;
			snprintf(w->spec, sizeof(w->spec), "%s", r->spec);
			memset(&w->a, 0, sizeof(w->a));
			kp_set_func(&c->m, r, k, NULL, &fn, w->a.hist);
			snprintf(w->key, sizeof(w->key), "%s", fn.name);
			w->a.count = fn.count;
			w->a.sum = fn.sum;
			w->a.min = fn.count ? fn.min : 0;
			w->a.max = fn.max;
			w->latency = kp_type_latency(r->type);
			w->order = fn.count;
		}
	}
	free(kv);
	return 0;
oom:
	free(kv);
	return -1;
}

static const struct row *find(const struct rows *rs, const struct row *w)
{
	unsigned int i;

	for (i = 0; i < rs->n; i++)
		if (!strcmp(rs->v[i].spec, w->spec) &&
		    !strcmp(rs->v[i].key, w->key) &&
		    !strcmp(rs->v[i].cluster, w->cluster))
			return &rs->v[i];
	return NULL;
}

static void ctx_line(FILE *f, const char *path, const struct kp_capture *c)
{
	fprintf(f, "%s: %s, %s%s%s, %u CPUs\n", path,
		c->created[0] ? c->created : "undated",
		c->kernel[0] ? c->kernel : "unknown kernel",
		c->machine[0] ? ", " : "", c->machine, c->nr_cpus);
}

static void ctx_json(struct kp_jw *jw, const char *name, const char *path,
		     const struct kp_capture *c)
{
	kp_jw_name(jw, name);
	kp_jw_start_object(jw);
	kp_jw_string_field(jw, "file", path);
	kp_jw_string_field(jw, "created", c->created);
	kp_jw_string_field(jw, "kernel", c->kernel);
	kp_jw_string_field(jw, "machine", c->machine);
	kp_jw_end_object(jw);
}

static void shift_json(struct kp_jw *jw, const struct kp_shift *s)
{
	kp_jw_name(jw, kp_metric_name(s->metric));
	kp_jw_start_object(jw);
	kp_jw_u64_field(jw, "before", s->before);
	kp_jw_u64_field(jw, "after", s->after);
	if (s->has_change) {
		kp_jw_name(jw, "change_pct");
		kp_jw_printf(jw, "%.3f", s->change);
	}
	if (s->has_ci && s->has_change) {
		kp_jw_name(jw, "ci_pct");
		kp_jw_start_array(jw);
		kp_jw_printf(jw, "%.3f", s->ci_lo_pct);
		kp_jw_printf(jw, "%.3f", s->ci_hi_pct);
		kp_jw_end_array(jw);
	}
	kp_jw_name(jw, "p");
	kp_jw_printf(jw, "%.6g", s->p);
	kp_jw_name(jw, "significant");
	kp_jw_bool(jw, s->significant);
	kp_jw_end_object(jw);
}

/*
 * The bootstrap's interval is at bucket resolution (midpoints), while
 * show's quantiles are clamped to the exact min and max: widen it to hold
 * the change printed next to it.
 */
static void widen(struct kp_shift *s)
{
	if (!s->has_ci || !s->has_change)
		return;
	if (s->change < s->ci_lo_pct)
		s->ci_lo_pct = s->change;
	if (s->change > s->ci_hi_pct)
		s->ci_hi_pct = s->change;
}

static void value(const struct kp_shift *s, uint64_t v, char *buf, size_t len)
{
	if (s->metric == KP_M_COUNT)
		snprintf(buf, len, "%" PRIu64, v);
	else
		kp_fmt_ns(v, buf, len);
}

static const char *pvalue(double p, char *buf, size_t len)
{
	if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
	return buf;
}

int kp_diff_print(FILE *f, const char *const paths[2],
		  const struct kp_capture *cb, const struct kp_capture *ca,
		  const struct kp_diff_opts *o)
{
	struct rows rb = { 0 }, ra = { 0 };
	unsigned int i, g, m, crossed = 0;
	struct kp_jw jw;

	if (collect(cb, &rb, o->clusters, o->keys, o->top) ||
	    collect(ca, &ra, o->clusters, o->keys, o->top)) {
		fprintf(stderr, "kprofctl diff: out of memory\n");
		free(rb.v);
		free(ra.v);
		return -1;
	}
	kp_jw_init(&jw, f);
	if (o->json) {
		kp_jw_start_object(&jw);
		ctx_json(&jw, "before", paths[0], cb);
		ctx_json(&jw, "after", paths[1], ca);
		kp_jw_name(&jw, "rows");
		kp_jw_start_array(&jw);
	} else {
		ctx_line(f, "before", cb);
		ctx_line(f, "after ", ca);
	}
	for (i = 0; i < ra.n; i++) {
		const struct row *w = &ra.v[i], *b = find(&rb, w);
		struct kp_shift s;
		char cell[128], ci[64], p[16], vb[32], va[32];

		if (!b)
			continue;
		if (o->json) {
			kp_jw_start_object(&jw);
			kp_jw_string_field(&jw, "spec", w->spec);
			if (w->key[0])
				kp_jw_string_field(&jw, "key", w->key);
			if (w->cluster[0])
				kp_jw_string_field(&jw, "cluster", w->cluster);
			kp_jw_name(&jw, "metrics");
			kp_jw_start_object(&jw);
		} else {
			fprintf(f, "\n%s%s%s%s%s\n", w->spec,
				w->key[0] ? "  key " : "", w->key,
				w->cluster[0] ? "  on " : "", w->cluster);
			fprintf(f, "  %-6s %10s %10s %9s   %-18s %s\n", "",
				"before", "after", "change", "95 % interval",
				"p");
		}
		for (m = 0; m < sizeof(shown) / sizeof(shown[0]); m++) {
			if (!w->latency && shown[m] != KP_M_COUNT)
				continue;
			s = kp_diff_metric(&b->a, &w->a, shown[m], &o->cfg);
			widen(&s);
			if (o->json) {
				shift_json(&jw, &s);
				continue;
			}
			value(&s, s.before, vb, sizeof(vb));
			value(&s, s.after, va, sizeof(va));
			if (s.has_change)
				snprintf(cell, sizeof(cell), "%+.1f %%", s.change);
			else
				snprintf(cell, sizeof(cell), "n/a");
			if (s.has_ci && s.has_change && shown[m] != KP_M_COUNT)
				snprintf(ci, sizeof(ci), "[%+.1f, %+.1f] %%",
					 s.ci_lo_pct, s.ci_hi_pct);
			else
				ci[0] = '\0';
			fprintf(f, "  %-6s %10s %10s %9s %s %-18s %s\n",
				kp_metric_name(shown[m]), vb, va, cell,
				s.significant ? "*" : " ", ci,
				shown[m] == KP_M_COUNT ? "" :
				pvalue(s.p, p, sizeof(p)));
		}
		if (o->json) {
			kp_jw_end_object(&jw);
			kp_jw_end_object(&jw);
		}
	}
	/* the gates, on every probe's total (per cluster if they name one) */
	if (o->json) {
		kp_jw_end_array(&jw);
		kp_jw_name(&jw, "gates");
		kp_jw_start_array(&jw);
	}
	for (g = 0; g < o->ngates; g++) {
		const struct kp_failif *gate = &o->gates[g];
		const char *want = gate->cluster[0] &&
				   strcasecmp(gate->cluster, "all") ?
				   gate->cluster : "";

		for (i = 0; i < ra.n; i++) {
			const struct row *w = &ra.v[i], *b;
			struct kp_shift s;
			char reason[256];
			int hit;

			if (w->key[0] || strcasecmp(w->cluster, want))
				continue;
			if (!w->latency && gate->metric != KP_M_COUNT)
				continue;
			b = find(&rb, w);
			if (!b)
				continue;
			s = kp_diff_metric(&b->a, &w->a, gate->metric, &o->cfg);
			widen(&s);
			hit = kp_failif_eval(gate, &s, reason, sizeof(reason));
			crossed += hit;
			if (o->json) {
				kp_jw_start_object(&jw);
				kp_jw_string_field(&jw, "expr", o->gate_text[g]);
				kp_jw_string_field(&jw, "spec", w->spec);
				kp_jw_name(&jw, "crossed");
				kp_jw_bool(&jw, hit);
				kp_jw_string_field(&jw, "reason", reason);
				kp_jw_end_object(&jw);
			} else if (hit) {
				fprintf(f, "\nFAIL %s%s%s: %s\n", w->spec,
					want[0] ? " on " : "", want, reason);
			}
		}
	}
	if (o->json)
		kp_jw_end_array(&jw);
	/* what only one side has */
	for (i = 0; i < 2; i++) {
		const struct rows *in = i ? &ra : &rb, *other = i ? &rb : &ra;
		unsigned int k, n = 0;

		for (k = 0; k < in->n; k++) {
			const struct row *w = &in->v[k];

			if (w->key[0] || w->cluster[0] || find(other, w))
				continue;
			if (o->json) {
				if (!n) {
					kp_jw_name(&jw, i ? "only_after" :
						   "only_before");
					kp_jw_start_array(&jw);
				}
				kp_jw_string(&jw, w->spec);
			} else {
				fprintf(f, "\nonly in %s: %s\n",
					i ? "AFTER" : "BEFORE", w->spec);
			}
			n++;
		}
		if (o->json && n)
			kp_jw_end_array(&jw);
	}
	if (o->json) {
		kp_jw_u64_field(&jw, "crossed", crossed);
		kp_jw_end_object(&jw);
		fputc('\n', f);
	} else {
		fprintf(f, "\n* significant: Mann-Whitney U p < %g and the "
			"bootstrap interval excludes 0\n",
			o->cfg.alpha ? o->cfg.alpha : KP_DIFF_ALPHA);
		if (o->ngates)
			fprintf(f, "%s: %u of %u gate%s crossed\n",
				crossed ? "FAIL" : "ok", crossed, o->ngates,
				o->ngates == 1 ? "" : "s");
	}
	free(rb.v);
	free(ra.v);
	return (int)crossed;
}
