// SPDX-License-Identifier: GPL-2.0
/*
 * diff's rows: each capture's probes, functions of sets and keys (on
 * every CPU, and each cluster), paired by spec and name, with why a pair
 * cannot be compared.  A row keeps where it is, not its sums: they are
 * taken when asked for (kp_drow_agg), so a probe's every key costs little.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "capture.h"
#include "diff-rows.h"
#include "funcset.h"
#include "spec.h"

static struct kp_drow *row_add(struct kp_drows *rs)
{
	if (rs->n == rs->max) {
		unsigned int m = rs->max ? 2 * rs->max : 64;
		struct kp_drow *v = realloc(rs->v, m * sizeof(*v));

		if (!v)
			return NULL;
		rs->v = v;
		rs->max = m;
	}
	memset(&rs->v[rs->n], 0, sizeof(rs->v[0]));
	return &rs->v[rs->n++];
}

void kp_drows_free(struct kp_drows *rs)
{
	free(rs->v);
	memset(rs, 0, sizeof(*rs));
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
		const char *n = kind == KPROF_KEY_CALLER ?
				kp_cap_caller(c, r->id, id) : NULL;

		if (n) {
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

static struct kp_drow *side_row(struct kp_drows *rs, int side,
				const struct kp_capture *c,
				const struct kprof_probe_info *r,
				enum kp_drow_kind kind, int cl)
{
	struct kp_drow *w = row_add(rs);

	if (!w)
		return NULL;
	snprintf(w->spec, sizeof(w->spec), "%s", r->spec);
	w->kind = kind;
	w->cl = cl;
	if (cl)
		snprintf(w->cluster, sizeof(w->cluster), "%s",
			 c->topo.cl[cl - 1].name);
	w->latency = kp_type_latency(r->type);
	w->s[side].c = c;
	w->s[side].r = r;
	return w;
}

/* one capture's rows, every one on side */
static int collect(struct kp_drows *rs, int side, const struct kp_capture *c,
		   int clusters)
{
	struct kp_agg *a = malloc(sizeof(*a));
	struct kp_key *kv = NULL;
	unsigned int i, k, cl, ncl = clusters ? c->topo.nr_clusters : 0;
	struct kp_drow *w;

	if (!a)
		return -1;
	for (i = 0; i < c->n; i++) {
		const struct kprof_probe_info *r = &c->recs[i];

		for (cl = 0; cl <= ncl; cl++) {
			w = side_row(rs, side, c, r, KP_DROW_PROBE, cl);
			if (!w)
				goto oom;
			kp_drow_agg(w, side, a);
			w->s[side].count = a->count;
			for (k = 0; kp_is_set(r->type) && k < r->nr_funcs; k++) {
				struct kp_fn fn;

				w = side_row(rs, side, c, r, KP_DROW_FUNC, cl);
				if (!w)
					goto oom;
				w->s[side].index = k;
				kp_set_func(&c->m, r, k, cl ?
					    c->topo.cl[cl - 1].mask : NULL, &fn,
					    NULL);
				snprintf(w->name, sizeof(w->name), "%s", fn.name);
				w->s[side].count = fn.count;
			}
		}
		if (!kp_has_keys(r))
			continue;
		free(kv);
		kv = calloc(r->nr_keys + 1, sizeof(*kv));
		if (!kv)
			goto oom;
		k = kp_pair_keys(&c->m, r, kv);
		for (cl = 0; cl < k; cl++) {
			w = side_row(rs, side, c, r, KP_DROW_KEY, 0);
			if (!w)
				goto oom;
			key_label(c, r, &kv[cl], w->name, sizeof(w->name));
			w->s[side].index = kv[cl].index;
			w->s[side].count = kv[cl].count;
			w->s[side].k = kv[cl];
			w->rank = cl;
		}
	}
	free(kv);
	free(a);
	return 0;
oom:
	free(kv);
	free(a);
	return -1;
}

static int row_cmp(const void *x, const void *y)
{
	const struct kp_drow *a = x, *b = y;
	int d = strcmp(a->spec, b->spec);

	if (d)
		return d;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	d = strcmp(a->name, b->name);
	return d ? d : strcmp(a->cluster, b->cluster);
}

static int same_clusters(const struct kp_topo *a, const struct kp_topo *b)
{
	unsigned int i;

	if (a->nr_clusters != b->nr_clusters)
		return 0;
	for (i = 0; i < a->nr_clusters; i++)
		if (strcmp(a->cl[i].name, b->cl[i].name) ||
		    memcmp(a->cl[i].mask, b->cl[i].mask, sizeof(a->cl[i].mask)))
			return 0;
	return 1;
}

/* what keeps the two captures apart, for every row: "" if nothing */
static void capture_mismatch(const struct kp_capture *b,
			     const struct kp_capture *a, char *buf, size_t len)
{
	buf[0] = '\0';
	if (strcmp(b->kernel, a->kernel))
		snprintf(buf, len, "kernel %s -> %s", b->kernel, a->kernel);
	else if (b->nr_cpus != a->nr_cpus)
		snprintf(buf, len, "CPUs %u -> %u", b->nr_cpus, a->nr_cpus);
	else if (!same_clusters(&b->topo, &a->topo))
		snprintf(buf, len, "the CPU clusters differ");
}

/* options that change what a probe counts (not --start, --defer, ...) */
#define KP_DIFF_FLAGS	(KPROF_ADD_PID | KPROF_ADD_TGID | KPROF_ADD_CPUS | \
			 KPROF_ADD_FAST | KPROF_ADD_KRETPROBE)

static void probe_mismatch(const struct kprof_probe_info *b,
			   const struct kprof_probe_info *a, char *buf,
			   size_t len)
{
	if (b->type != a->type)
		snprintf(buf, len, "type %s -> %s", kp_type_name(b->type),
			 kp_type_name(a->type));
	else if (b->mech != a->mech)
		snprintf(buf, len, "mechanism %s -> %s", kp_mech_name(b->mech),
			 kp_mech_name(a->mech));
	else if (memcmp(&b->filter, &a->filter, sizeof(a->filter)))
		snprintf(buf, len, "--if filters differ");
	else if (memcmp(b->key, a->key, sizeof(a->key)))
		snprintf(buf, len, "--key differs");
	else if ((b->flags ^ a->flags) & KP_DIFF_FLAGS ||
		 memcmp(b->cpus, a->cpus, sizeof(a->cpus)))
		snprintf(buf, len, "options differ (--pid, --tgid, --cpus, "
			 "--mech)");
}

int kp_drows_build(struct kp_drows *rs, const struct kp_capture *cb,
		   const struct kp_capture *ca, int clusters)
{
	struct kp_drows before = { 0 };
	char cap[272];
	unsigned int i;
	int ret = -1;

	memset(rs, 0, sizeof(*rs));
	if (collect(&before, 0, cb, clusters) || collect(rs, 1, ca, clusters))
		goto out;
	qsort(before.v, before.n, sizeof(before.v[0]), row_cmp);
	capture_mismatch(cb, ca, cap, sizeof(cap));
	for (i = 0; i < rs->n; i++) {
		struct kp_drow *w = &rs->v[i];
		struct kp_drow *b = bsearch(w, before.v, before.n,
					    sizeof(before.v[0]), row_cmp);

		if (!b)
			continue;
		w->s[0] = b->s[0];
		b->s[0].c = NULL;	/* taken */
		snprintf(w->mismatch, sizeof(w->mismatch), "%s", cap);
		if (!cap[0])
			probe_mismatch(w->s[0].r, w->s[1].r, w->mismatch,
				       sizeof(w->mismatch));
	}
	for (i = 0; i < before.n; i++) {
		struct kp_drow *w;

		if (!before.v[i].s[0].c)
			continue;
		w = row_add(rs);
		if (!w)
			goto out;
		*w = before.v[i];
	}
	ret = 0;
out:
	kp_drows_free(&before);
	if (ret)
		kp_drows_free(rs);
	return ret;
}

static void add_agg(struct kp_agg *a, const struct kp_agg *x)
{
	unsigned int i;

	if (x->count && (!a->count || x->min < a->min))
		a->min = x->min;
	if (x->max > a->max)
		a->max = x->max;
	a->count += x->count;
	a->sum += x->sum;
	for (i = 0; i < KPROF_HIST_NR_BUCKETS; i++)
		a->hist[i] += x->hist[i];
}

/* function index of set r over mask (NULL: all) into a */
static void func_agg(const struct kp_capture *c,
		     const struct kprof_probe_info *r, unsigned int index,
		     const __u64 *mask, struct kp_agg *a)
{
	struct kp_fn fn;

	memset(a, 0, sizeof(*a));
	kp_set_func(&c->m, r, index, mask, &fn, a->hist);
	a->count = fn.count;
	a->sum = fn.sum;
	a->min = fn.count ? fn.min : 0;
	a->max = fn.max;
}

void kp_drow_agg(const struct kp_drow *w, int side, struct kp_agg *a)
{
	const struct kp_dside *s = &w->s[side];
	const __u64 *mask;
	struct kp_agg *f;
	unsigned int k;

	memset(a, 0, sizeof(*a));
	if (!s->c)
		return;
	mask = w->cl ? s->c->topo.cl[w->cl - 1].mask : NULL;
	if (w->kind == KP_DROW_KEY) {
		kp_aggregate_key(&s->c->m, s->r, s->index, -1, a);
		return;
	}
	if (w->kind == KP_DROW_FUNC) {
		func_agg(s->c, s->r, s->index, mask, a);
		return;
	}
	/* a set times its functions, not itself: their sum */
	if (s->r->type == KPROF_TYPE_KRETPROBE_SET) {
		f = malloc(sizeof(*f));
		for (k = 0; f && k < s->r->nr_funcs; k++) {
			func_agg(s->c, s->r, k, mask, f);
			add_agg(a, f);
		}
		free(f);
		return;
	}
	if (mask)
		kp_aggregate_mask(&s->c->m, s->r, -1, -1, mask, a);
	else
		kp_aggregate(&s->c->m, s->r, -1, a);
}

void kp_drow_label(const struct kp_drow *w, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s", w->spec,
		 w->kind == KP_DROW_FUNC ? "  function " :
		 w->kind == KP_DROW_KEY ? "  key " : "", w->name,
		 w->cl ? "  on " : "", w->cluster);
}

/* "3" names probe 3 of either capture */
static int is_id(const struct kp_drow *w, const char *t)
{
	char *end;
	unsigned long long id = strtoull(t, &end, 10);

	if (*t < '0' || *t > '9' || *end)
		return 0;
	return (w->s[0].r && w->s[0].r->id == id) ||
	       (w->s[1].r && w->s[1].r->id == id);
}

int kp_drow_match(const struct kp_drow *w, const char *t)
{
	/* "kretprobe:mydrv:mydrv_xfer" by "mydrv:mydrv_xfer" or "mydrv_xfer" */
	const char *sym = strchr(w->spec, ':'), *last = strrchr(w->spec, ':');
	const struct kp_dside *s = w->s[1].c ? &w->s[1] : &w->s[0];
	char minus[300];

	if (w->kind != KP_DROW_KEY && (!strcmp(w->spec, t) ||
				       (sym && !strcmp(sym + 1, t)) ||
				       (last && !strcmp(last + 1, t)) ||
				       is_id(w, t)))
		return 1;
	if (w->kind == KP_DROW_FUNC)
		return !strcmp(w->name, t);
	if (w->kind != KP_DROW_KEY)
		return 0;
	if (!strcmp(w->name, t) || kp_key_match(s->r, &s->k, t))
		return 1;
	/* an errno by its name alone: EAGAIN for -EAGAIN */
	snprintf(minus, sizeof(minus), "-%s", t);
	return t[0] == 'E' && kp_key_match(s->r, &s->k, minus);
}
