// SPDX-License-Identifier: GPL-2.0
/*
 * diff --fail-if aimed and judged.  A gate covers every probe's total and
 * every function of a set on every CPU, or what its target names: a
 * cluster (those rows there), a probe, a function, a key.  A covered row
 * that AFTER lost or left without calls fails, as does one that cannot
 * be compared (another mechanism, filter, kernel): a gate never passes
 * for want of something to measure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diff-gate.h"

int kp_gate_is_cluster(const struct kp_drows *rs, const char *name)
{
	unsigned int i;
	int in[2] = { 0, 0 };

	for (i = 0; i < rs->n; i++)
		if (rs->v[i].cl && !strcasecmp(rs->v[i].cluster, name)) {
			in[0] |= !!rs->v[i].s[0].c;
			in[1] |= !!rs->v[i].s[1].c;
		}
	return in[0] && in[1];
}

/* does g cover w (before its metric is asked about)? */
static int covers(const struct kp_failif *g, const struct kp_drow *w,
		  int cluster)
{
	if (cluster)
		return w->cl && !strcasecmp(w->cluster, g->target) &&
		       w->kind != KP_DROW_KEY;
	if (w->cl)
		return 0;
	if (!g->target[0])
		return w->kind != KP_DROW_KEY;
	return kp_drow_match(w, g->target);
}

static int has_metric(const struct kp_failif *g, const struct kp_drow *w)
{
	return w->latency || g->metric == KP_M_COUNT;
}

int kp_gate_aim(const struct kp_failif *g, const struct kp_drows *rs,
		char *err, size_t len)
{
	int cluster = g->target[0] && kp_gate_is_cluster(rs, g->target);
	unsigned int i, named = 0, timed = 0;

	if (!strcasecmp(g->target, "all"))
		return 0;
	for (i = 0; i < rs->n; i++) {
		if (!covers(g, &rs->v[i], cluster))
			continue;
		named++;
		timed += has_metric(g, &rs->v[i]);
	}
	if (!g->target[0] || timed)
		return 0;
	if (!named)
		snprintf(err, len, "'%s' names no probe, function, key or "
			 "cluster of BEFORE or AFTER", g->target);
	else
		snprintf(err, len, "'%s' counts calls and times nothing: "
			 "gate it on count", g->target);
	return -1;
}

static struct kp_gate_row *res_add(struct kp_gate_res *res)
{
	struct kp_gate_row *v;

	if (!(res->n & (res->n - 1)) || !res->n) {
		v = realloc(res->v, (res->n ? 2 * res->n : 1) * sizeof(*v));
		if (!v)
			return NULL;
		res->v = v;
	}
	memset(&res->v[res->n], 0, sizeof(res->v[0]));
	return &res->v[res->n++];
}

/* a row that one side lacks, or has no calls in: 1 when that decides */
static int absent(struct kp_gate_row *x, const struct kp_failif *g,
		  const struct kp_gate_cfg *cfg, uint64_t cb, uint64_t ca)
{
	const struct kp_drow *w = x->w;
	const char *allowed = cfg->allow_missing ? " (allowed)" : "";

	if (!w->s[1].c) {
		x->fail = !cfg->allow_missing;
		snprintf(x->reason, sizeof(x->reason), "not in AFTER: renamed, "
			 "inlined or not attached?%s", allowed);
		return 1;
	}
	if (!w->s[0].c && g->relative) {
		snprintf(x->reason, sizeof(x->reason), "new in AFTER: no "
			 "change to measure");
		return 1;
	}
	if (w->s[0].c && cb && !ca) {
		x->fail = !cfg->allow_missing;
		snprintf(x->reason, sizeof(x->reason), "no calls in AFTER "
			 "(%llu before)%s", (unsigned long long)cb, allowed);
		return 1;
	}
	if (!cb && !ca && g->metric != KP_M_COUNT) {
		snprintf(x->reason, sizeof(x->reason), "no calls in either");
		return 1;
	}
	return 0;
}

static int judge(struct kp_gate_row *x, const struct kp_failif *g,
		 const struct kp_gate_cfg *cfg, struct kp_agg *ab,
		 struct kp_agg *aa)
{
	const struct kp_drow *w = x->w;
	char why[256];
	int hit;

	kp_drow_agg(w, 0, ab);
	kp_drow_agg(w, 1, aa);
	if (absent(x, g, cfg, ab->count, aa->count))
		return x->fail;
	x->has_shift = 1;
	x->s = kp_diff_metric(ab, aa, g->metric, &cfg->cfg);
	kp_diff_widen(&x->s);
	hit = kp_failif_eval(g, &x->s, why, sizeof(why));
	if (w->mismatch[0] && !cfg->allow_mismatch) {
		x->fail = 1;
		snprintf(x->reason, sizeof(x->reason), "not comparable: %s "
			 "(%s)", w->mismatch, why);
		return 1;
	}
	x->fail = hit;
	snprintf(x->reason, sizeof(x->reason), "%s", why);
	return hit;
}

int kp_gate_eval(const struct kp_failif *g, const char *expr,
		 const struct kp_drows *rs, const struct kp_gate_cfg *cfg,
		 struct kp_gate_res *res)
{
	int cluster = g->target[0] && kp_gate_is_cluster(rs, g->target);
	struct kp_agg *ab = malloc(sizeof(*ab)), *aa = malloc(sizeof(*aa));
	struct kp_failif any = *g;
	unsigned int i;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	res->g = g;
	res->expr = expr;
	if (!strcasecmp(g->target, "all"))
		any.target[0] = '\0';
	if (!ab || !aa)
		goto out;
	for (i = 0; i < rs->n; i++) {
		const struct kp_drow *w = &rs->v[i];
		struct kp_gate_row *x;

		if (!covers(&any, w, cluster) || !has_metric(g, w))
			continue;
		x = res_add(res);
		if (!x)
			goto out;
		x->w = w;
		res->fail |= judge(x, g, cfg, ab, aa);
	}
	/* nothing to measure is no pass */
	if (!res->n)
		res->fail = 1;
	ret = 0;
out:
	free(ab);
	free(aa);
	return ret;
}

void kp_gate_res_free(struct kp_gate_res *res)
{
	free(res->v);
	memset(res, 0, sizeof(*res));
}
