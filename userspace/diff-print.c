// SPDX-License-Identifier: GPL-2.0
/*
 * diff's comparison printed: row by row (diff-rows.h) the metrics' shifts
 * with their significance, what one side only has, the gates' verdicts
 * (diff-gate.h); text or JSON.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "capture.h"
#include "diff-print.h"
#include "json.h"
#include "spec.h"

static const enum kp_metric shown[] = {
	KP_M_COUNT, KP_M_P50, KP_M_P90, KP_M_P99, KP_M_MAX, KP_M_MEAN,
};

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

/* "spec", then "function" or "key", then "cluster" */
static void where_json(struct kp_jw *jw, const struct kp_drow *w)
{
	kp_jw_string_field(jw, "spec", w->spec);
	if (w->kind != KP_DROW_PROBE)
		kp_jw_string_field(jw, w->kind == KP_DROW_FUNC ? "function" :
				   "key", w->name);
	if (w->cl)
		kp_jw_string_field(jw, "cluster", w->cluster);
}

static void pct_pair(struct kp_jw *jw, const struct kp_shift *s)
{
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
}

static void shift_json(struct kp_jw *jw, const struct kp_shift *s)
{
	kp_jw_name(jw, kp_metric_name(s->metric));
	kp_jw_start_object(jw);
	kp_jw_u64_field(jw, "before", s->before);
	kp_jw_u64_field(jw, "after", s->after);
	pct_pair(jw, s);
	kp_jw_name(jw, "significant");
	kp_jw_bool(jw, s->significant);
	kp_jw_end_object(jw);
}

/* a line of the table, without the blanks an empty column leaves */
static void __attribute__((format(printf, 2, 3)))
line(FILE *f, const char *fmt, ...)
{
	char buf[512];
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	n = strlen(buf);
	while (n && buf[n - 1] == ' ')
		buf[--n] = '\0';
	fprintf(f, "%s\n", buf);
}

static const char *pvalue(double p, char *buf, size_t len)
{
	if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
	return buf;
}

/* is w a row of the table (in both; its cluster, key asked for)? */
static int in_table(const struct kp_drow *w, const struct kp_diff_opts *o)
{
	unsigned int g;
	int cl = !w->cl || o->clusters;

	if (!w->s[0].c || !w->s[1].c)
		return 0;
	for (g = 0; !cl && g < o->ngates; g++)
		cl = !strcasecmp(o->gates[g].g->target, w->cluster);
	if (!cl)
		return 0;
	if (w->kind == KP_DROW_FUNC)
		return w->s[0].count || w->s[1].count;
	if (w->kind == KP_DROW_KEY)
		return !w->cl && o->keys && w->rank < o->top;
	return 1;
}

/* one row of the table: its metrics, or which side had no calls */
static void row_print(FILE *f, struct kp_jw *jw, const struct kp_drow *w,
		      const struct kp_agg *ab, const struct kp_agg *aa,
		      const struct kp_diff_opts *o)
{
	int silent = !ab->count != !aa->count, lat = w->latency && !silent &&
		     ab->count;
	struct kp_shift s;
	char label[512], cell[32], ci[64], p[16], vb[32], va[32];
	unsigned int m;

	/* the Mann-Whitney p is the distribution's: any metric has it */
	if (lat)
		s = kp_diff_metric(ab, aa, KP_M_P50, &o->cfg);
	if (o->json) {
		kp_jw_start_object(jw);
		where_json(jw, w);
		if (w->mismatch[0])
			kp_jw_string_field(jw, "not_comparable", w->mismatch);
		if (silent)
			kp_jw_string_field(jw, "no_calls", ab->count ?
					   "after" : "before");
		if (lat) {
			kp_jw_name(jw, "p");
			kp_jw_printf(jw, "%.6g", s.p);
		}
		kp_jw_name(jw, "metrics");
		kp_jw_start_object(jw);
	} else {
		kp_drow_label(w, label, sizeof(label));
		fprintf(f, "\n%s%s%s%s\n", label,
			w->mismatch[0] ? "  (not comparable: " : "",
			w->mismatch, w->mismatch[0] ? ")" : "");
		line(f, "  %-6s %10s %10s %9s   %-18s%s%s", "", "before",
		     "after", "change", lat ? "95 % interval" : "",
		     lat ? " p " : "", lat ? pvalue(s.p, p, sizeof(p)) : "");
	}
	for (m = 0; m < sizeof(shown) / sizeof(shown[0]); m++) {
		if (!lat && shown[m] != KP_M_COUNT)
			continue;
		s = kp_diff_metric(ab, aa, shown[m], &o->cfg);
		kp_diff_widen(&s);
		if (o->json) {
			shift_json(jw, &s);
			continue;
		}
		kp_fmt_metric(shown[m], s.before, vb, sizeof(vb));
		kp_fmt_metric(shown[m], s.after, va, sizeof(va));
		kp_fmt_change(&s, cell, sizeof(cell));
		if (s.has_ci && s.has_change && shown[m] != KP_M_COUNT)
			snprintf(ci, sizeof(ci), "[%+.1f, %+.1f] %%",
				 s.ci_lo_pct, s.ci_hi_pct);
		else
			ci[0] = '\0';
		line(f, "  %-6s %10s %10s %9s %s %s", kp_metric_name(shown[m]),
		     vb, va, cell, s.significant ? "*" : " ", ci);
	}
	if (o->json) {
		kp_jw_end_object(jw);
		kp_jw_end_object(jw);
	} else if (silent && w->latency) {
		fprintf(f, "  no calls in %s: nothing to time\n",
			ab->count ? "AFTER" : "BEFORE");
	}
}

static int rows_print(FILE *f, struct kp_jw *jw, const struct kp_drows *rs,
		      const struct kp_diff_opts *o)
{
	struct kp_agg *ab = malloc(sizeof(*ab)), *aa = malloc(sizeof(*aa));
	unsigned int i;

	if (!ab || !aa) {
		free(ab);
		free(aa);
		return -1;
	}
	for (i = 0; i < rs->n; i++) {
		if (!in_table(&rs->v[i], o))
			continue;
		kp_drow_agg(&rs->v[i], 0, ab);
		kp_drow_agg(&rs->v[i], 1, aa);
		row_print(f, jw, &rs->v[i], ab, aa, o);
	}
	free(ab);
	free(aa);
	return 0;
}

/* what one side only has: probes, functions, keys (every CPU) */
static void only_print(FILE *f, struct kp_jw *jw, const struct kp_drows *rs,
		       int json)
{
	unsigned int side, i, n;
	char label[512];

	for (side = 0; side < 2; side++) {
		for (i = n = 0; i < rs->n; i++) {
			const struct kp_drow *w = &rs->v[i];

			if (w->cl || !w->s[side].c || w->s[!side].c)
				continue;
			if (!json) {
				kp_drow_label(w, label, sizeof(label));
				fprintf(f, "%sonly in %s: %s\n", n ? "" : "\n",
					side ? "AFTER" : "BEFORE", label);
			} else {
				if (!n) {
					kp_jw_name(jw, side ? "only_after" :
						   "only_before");
					kp_jw_start_array(jw);
				}
				kp_jw_start_object(jw);
				where_json(jw, w);
				kp_jw_end_object(jw);
			}
			n++;
		}
		if (json && n)
			kp_jw_end_array(jw);
	}
}

/* a covered row's verdict: what it covered, the metric with its unit */
static void gate_row_json(struct kp_jw *jw, const struct kp_gate_res *r,
			  const struct kp_gate_row *x)
{
	const char *unit = r->g->metric == KP_M_COUNT ? "calls" : "ns";
	char name[32];

	kp_jw_start_object(jw);
	where_json(jw, x->w);
	kp_jw_string_field(jw, "metric", kp_metric_name(r->g->metric));
	if (x->has_shift) {
		snprintf(name, sizeof(name), "before_%s", unit);
		kp_jw_u64_field(jw, name, x->s.before);
		snprintf(name, sizeof(name), "after_%s", unit);
		kp_jw_u64_field(jw, name, x->s.after);
		pct_pair(jw, &x->s);
		kp_jw_name(jw, "p");
		kp_jw_printf(jw, "%.6g", x->s.p);
		kp_jw_name(jw, "significant");
		kp_jw_bool(jw, x->s.significant);
	}
	kp_jw_string_field(jw, "verdict", x->fail ? "fail" : "pass");
	kp_jw_string_field(jw, "reason", x->reason);
	kp_jw_end_object(jw);
}

static void gates_print(FILE *f, struct kp_jw *jw,
			const struct kp_diff_opts *o)
{
	unsigned int g, i;
	char label[512];

	if (o->json) {
		kp_jw_name(jw, "gates");
		kp_jw_start_array(jw);
	}
	for (g = 0; g < o->ngates; g++) {
		const struct kp_gate_res *r = &o->gates[g];

		if (o->json) {
			kp_jw_start_object(jw);
			kp_jw_string_field(jw, "expr", r->expr);
			kp_jw_string_field(jw, "target", r->g->target);
			kp_jw_string_field(jw, "metric",
					   kp_metric_name(r->g->metric));
			kp_jw_string_field(jw, "verdict", r->fail ? "fail" :
					   "pass");
			kp_jw_name(jw, "rows");
			kp_jw_start_array(jw);
			for (i = 0; i < r->n; i++)
				gate_row_json(jw, r, &r->v[i]);
			kp_jw_end_array(jw);
			kp_jw_end_object(jw);
			continue;
		}
		if (!r->n)
			fprintf(f, "\nFAIL %s: covers nothing in BEFORE or "
				"AFTER\n", r->expr);
		for (i = 0; i < r->n; i++) {
			if (!r->v[i].fail)
				continue;
			kp_drow_label(r->v[i].w, label, sizeof(label));
			fprintf(f, "\nFAIL %s: %s\n", label, r->v[i].reason);
		}
	}
	if (o->json)
		kp_jw_end_array(jw);
}

int kp_diff_print(FILE *f, const char *const paths[2],
		  const struct kp_capture *cb, const struct kp_capture *ca,
		  const struct kp_drows *rs, const struct kp_diff_opts *o)
{
	unsigned int g, failed = 0;
	struct kp_jw jw;

	for (g = 0; g < o->ngates; g++)
		failed += !!o->gates[g].fail;
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
	if (rows_print(f, &jw, rs, o))
		return -1;
	if (o->json)
		kp_jw_end_array(&jw);
	gates_print(f, &jw, o);
	only_print(f, &jw, rs, o->json);
	if (o->json) {
		kp_jw_u64_field(&jw, "crossed", failed);
		kp_jw_end_object(&jw);
		fputc('\n', f);
		return 0;
	}
	fprintf(f, "\n* significant: Mann-Whitney U p < %g and the "
		"bootstrap interval excludes 0\n",
		o->cfg.alpha ? o->cfg.alpha : KP_DIFF_ALPHA);
	if (o->ngates)
		fprintf(f, "%s: %u of %u gate%s crossed\n",
			failed ? "FAIL" : "ok", failed, o->ngates,
			o->ngates == 1 ? "" : "s");
	return 0;
}
