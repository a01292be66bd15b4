// SPDX-License-Identifier: GPL-2.0
/*
 * kprofctl top: rates and p99 per interval from successive snapshots.
 * Each row keeps its counts, sum and buckets of the previous snapshot; the
 * interval's are the differences.  A row whose identity changed (a probe
 * deleted, another added in its slot) or whose counters went down (reset)
 * starts again: no rate until its next snapshot, never a negative one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kprofctl/hist.h"
#include "funcset.h"
#include "spec.h"
#include "termsafe.h"
#include "top.h"
#include "util.h"

/* the current values of a row, read through agg.c / funcset.c */
struct cur {
	uint64_t count, sum, min, max;
	const __u64 *hist;
	unsigned int nb;
	uint64_t cl[KP_MAX_CLUSTERS];
};

static const char *const sort_names[KP_TOP_NR_SORTS] = {
	"rate", "total", "p99", "name",
};

const char *kp_top_sort_name(int sort)
{
	return sort >= 0 && sort < KP_TOP_NR_SORTS ? sort_names[sort] : "?";
}

int kp_top_sort_parse(const char *s)
{
	int i;

	for (i = 0; i < KP_TOP_NR_SORTS; i++)
		if (!strcmp(s, sort_names[i]))
			return i;
	return -1;
}

struct kp_top *kp_top_new(const struct kp_top_opts *o)
{
	struct kp_top *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->o = *o;
	if (!t->o.nkeys)
		t->o.nkeys = 5;
	if (!t->o.out)
		t->o.out = stdout;
	return t;
}

static void free_rows(struct kp_top *t)
{
	unsigned int i;

	for (i = 0; i < t->nrows; i++)
		free(t->rows[i].sub);
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
}

static void free_ptrack(struct ptrack *p)
{
	unsigned int i;

	free(p->self.hist);
	for (i = 0; i < p->nsub; i++)
		free(p->sub[i].hist);
	free(p->sub);
}

void kp_top_free(struct kp_top *t)
{
	unsigned int i;

	if (!t)
		return;
	free_rows(t);
	for (i = 0; i < t->npt; i++)
		free_ptrack(&t->pt[i]);
	free(t->pt);
	free(t);
}

void kp_top_set_sort(struct kp_top *t, int sort)
{
	t->o.sort = sort;
}

int kp_top_sort(const struct kp_top *t)
{
	return t->o.sort;
}

unsigned int kp_top_nr_clusters(const struct kp_top *t)
{
	return t->o.topo ? t->o.topo->nr_clusters : 0;
}

/*
 * Row r from c against track tr (same: tr is this row's, as identified),
 * then tr takes c.  -1: out of memory.
 */
static int fill(struct kp_top *t, struct kp_top_row *r, struct track *tr,
		const struct cur *c, uint64_t t_ns, int same)
{
	unsigned int i, ncl = kp_top_nr_clusters(t);
	size_t hb = (size_t)c->nb * sizeof(__u64);
	int ok = same && tr->valid && t_ns > tr->t_ns &&
		 c->count >= tr->count && c->sum >= tr->sum;

	/* no buckets yet: a key or function first seen, zero before */
	for (i = 0; ok && tr->hist && i < c->nb; i++)
		ok = c->hist[i] >= tr->hist[i];
	for (i = 0; ok && i < ncl; i++)
		ok = c->cl[i] >= tr->cl[i];
	r->total = c->count;
	if (ok) {
		uint64_t dt = t_ns - tr->t_ns, dn = 0;
		__u64 *dh = t->agg.hist;

		r->has_rate = 1;
		r->count = c->count - tr->count;
		r->rate = (double)r->count * 1e9 / (double)dt;
		for (i = 0; i < c->nb; i++) {
			dh[i] = c->hist[i] - (tr->hist ? tr->hist[i] : 0);
			dn += dh[i];
		}
		if (dn && r->count) {
			/* the interval's calls lie within all calls' min..max */
			r->has_lat = 1;
			r->p99 = kp_quantile_buckets(dh, c->nb,
						     kp_pcts[KP_P99].num,
						     kp_pcts[KP_P99].den,
						     c->min, c->max);
			r->mean = (c->sum - tr->sum) / r->count;
		}
		for (i = 0; i < ncl; i++) {
			r->cl_count[i] = c->cl[i] - tr->cl[i];
			r->cl_rate[i] = (double)r->cl_count[i] * 1e9 /
					(double)dt;
		}
	}
	if (!tr->hist || !same) {
		free(tr->hist);
		tr->hist = hb ? malloc(hb) : NULL;
		if (hb && !tr->hist) {
			tr->valid = 0;
			return -1;
		}
	}
	if (hb)
		memcpy(tr->hist, c->hist, hb);
	tr->count = c->count;
	tr->sum = c->sum;
	memcpy(tr->cl, c->cl, sizeof(tr->cl));
	tr->t_ns = t_ns;
	tr->valid = 1;
	return 0;
}

static struct ptrack *find_probe(struct kp_top *t,
				 const struct kprof_probe_info *rec)
{
	unsigned int i;

	for (i = 0; i < t->npt; i++)
		if (t->pt[i].self.id == rec->id)
			return &t->pt[i];
	return NULL;
}

static int sub_cmp(const void *x, const void *y)
{
	const struct track *a = x, *b = y;

	return a->index < b->index ? -1 : a->index > b->index;
}

static struct track *find_sub(struct ptrack *p, unsigned int index)
{
	struct track key = { .index = index };

	if (!p || !p->sub)
		return NULL;
	return bsearch(&key, p->sub, p->nsub, sizeof(key), sub_cmp);
}

/* a probe's own row */
static int probe_row(struct kp_top *t, const struct kp_map *m,
		     const struct kprof_probe_info *rec, struct ptrack *old,
		     struct ptrack *p, struct kp_top_row *r, uint64_t t_ns,
		     const struct kp_key *keys, unsigned int nkeys)
{
	struct kp_agg *a = &t->prev;
	struct cur c = { 0 };
	char safe[KPROF_SPEC_LEN];
	unsigned int i, k;
	int same;

	if (rec->type == KPROF_TYPE_PAIR)
		kp_aggregate_pair(m, rec, -1, a);
	else
		kp_aggregate(m, rec, -1, a);
	c.count = a->count;
	c.sum = a->sum;
	c.min = a->min;
	c.max = a->max;
	c.hist = a->hist;
	c.nb = KPROF_HIST_NR_BUCKETS;
	for (i = 0; i < kp_top_nr_clusters(t); i++) {
		struct kp_agg *ca = &t->agg;

		kp_aggregate_mask(m, rec, -1, -1, t->o.topo->cl[i].mask, ca);
		c.cl[i] = ca->count;
		/* a pair's calls are its keys' (used ones, and other keys) */
		for (k = 0; rec->type == KPROF_TYPE_PAIR && k <= nkeys; k++) {
			kp_aggregate_mask(m, rec, k < nkeys ? (int)keys[k].index :
					  (int)rec->nr_keys, -1,
					  t->o.topo->cl[i].mask, ca);
			c.cl[i] += ca->count;
		}
	}
	r->id = rec->id;
	r->type = rec->type;
	/* a spec's control bytes shown, never sent to the terminal */
	snprintf(r->name, sizeof(r->name), "%u %s", rec->id,
		 kp_term_safe(rec->spec, safe, sizeof(safe)));
	same = old && old->self.slot == rec->slot &&
	       !strcmp(old->self.name, r->name);
	if (old) {
		p->self = old->self;
		old->self.hist = NULL;
	}
	p->self.id = rec->id;
	p->self.slot = rec->slot;
	snprintf(p->self.name, sizeof(p->self.name), "%s", r->name);
	/* fill's scratch is t->agg: the probe's buckets are in t->prev */
	return fill(t, r, &p->self, &c, t_ns, same);
}

/* one key or function row under probe rec */
static int sub_row(struct kp_top *t, struct ptrack *old, int same_probe,
		   struct track *tr, struct kp_top_row *r, const char *name,
		   unsigned int index, const struct cur *c, uint64_t t_ns)
{
	struct track *o = same_probe ? find_sub(old, index) : NULL;
	int same = o && !strcmp(o->name, name);

	/*
	 * Not followed at the last snapshot although the probe had all its
	 * keys (functions) with calls followed: it had none then.
	 */
	if (!o && same_probe && old->complete) {
		memset(tr, 0, sizeof(*tr));
		tr->valid = 1;
		tr->t_ns = old->self.t_ns;
		same = 1;
	}

	r->depth = 1;
	snprintf(r->name, sizeof(r->name), "%s", name);
	if (o) {
		*tr = *o;
		o->hist = NULL;
	}
	tr->index = index;
	snprintf(tr->name, sizeof(tr->name), "%s", name);
	return fill(t, r, tr, c, t_ns, same);
}

static int cnt_desc(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

/* a keyed probe's (pair or --key) busiest keys so far */
static int key_rows(struct kp_top *t, const struct kp_map *m,
		    const struct kprof_probe_info *rec, struct ptrack *old,
		    int same_probe, struct ptrack *p, struct kp_top_row *r,
		    uint64_t t_ns, const struct kp_key *keys, unsigned int n)
{
	unsigned int i, j;
	int ret = 0;

	p->complete = n <= KP_TOP_TRACK;
	if (n > KP_TOP_TRACK)
		n = KP_TOP_TRACK;
	r->sub = calloc(n ? n : 1, sizeof(*r->sub));
	p->sub = calloc(n ? n : 1, sizeof(*p->sub));
	if (!r->sub || !p->sub)
		return -1;
	for (i = 0; i < n && !ret; i++) {
		struct kp_agg *a = &t->prev;
		struct cur c = { 0 };
		char label[KP_KEY_LABEL];

		kp_aggregate_key(m, rec, keys[i].index, -1, a);
		c.count = a->count;
		c.sum = a->sum;
		c.min = a->min;
		c.max = a->max;
		c.hist = a->hist;
		c.nb = KPROF_HIST_NR_BUCKETS;
		for (j = 0; j < kp_top_nr_clusters(t); j++) {
			kp_aggregate_mask(m, rec, (int)keys[i].index, -1,
					  t->o.topo->cl[j].mask, &t->agg);
			c.cl[j] = t->agg.count;
		}
		kp_key_label(rec, &keys[i], label, sizeof(label));
		ret = sub_row(t, old, same_probe, &p->sub[i], &r->sub[i], label,
			      keys[i].index, &c, t_ns);
		r->sub[i].type = rec->type;
		r->sub[i].id = rec->id;
	}
	r->nsub = i;
	p->nsub = i;
	return ret;
}

static int fn_count_cmp(const void *x, const void *y)
{
	const struct kp_fn *a = x, *b = y;

	if (a->count != b->count)
		return cnt_desc(a->count, b->count);
	return a->index < b->index ? -1 : a->index > b->index;
}

/* a function set's busiest functions so far */
static int func_rows(struct kp_top *t, const struct kp_map *m,
		     const struct kprof_probe_info *rec, struct ptrack *old,
		     int same_probe, struct ptrack *p, struct kp_top_row *r,
		     uint64_t t_ns)
{
	struct kp_fn *fns = calloc(rec->nr_funcs ? rec->nr_funcs : 1,
				   sizeof(*fns));
	__u64 hist[KPROF_FHIST_NR_BUCKETS];
	unsigned int n = 0, i, j;
	int ret = 0;

	if (!fns)
		return -1;
	for (i = 0; i < rec->nr_funcs; i++) {
		kp_set_func(m, rec, i, NULL, &fns[n], NULL);
		if (fns[n].count)
			n++;
	}
	if (n)
		qsort(fns, n, sizeof(*fns), fn_count_cmp);
	p->complete = n <= KP_TOP_TRACK;
	if (n > KP_TOP_TRACK)
		n = KP_TOP_TRACK;
	r->sub = calloc(n ? n : 1, sizeof(*r->sub));
	p->sub = calloc(n ? n : 1, sizeof(*p->sub));
	if (!r->sub || !p->sub) {
		free(fns);
		return -1;
	}
	for (i = 0; i < n && !ret; i++) {
		struct kp_fn fn, cf;
		struct cur c = { 0 };
		int lat = rec->type == KPROF_TYPE_KRETPROBE_SET;

		memset(hist, 0, sizeof(hist));
		kp_set_func(m, rec, fns[i].index, NULL, &fn, lat ? hist : NULL);
		c.count = fn.count;
		c.sum = fn.sum;
		c.min = fn.min;
		c.max = fn.max;
		c.hist = hist;
		c.nb = lat ? KPROF_FHIST_NR_BUCKETS : 0;
		for (j = 0; j < kp_top_nr_clusters(t); j++) {
			kp_set_func(m, rec, fns[i].index, t->o.topo->cl[j].mask,
				    &cf, NULL);
			c.cl[j] = cf.count;
		}
		ret = sub_row(t, old, same_probe, &p->sub[i], &r->sub[i],
			      fn.name, fn.index, &c, t_ns);
		r->sub[i].type = rec->type;
		r->sub[i].id = rec->id;
	}
	r->nsub = i;
	p->nsub = i;
	free(fns);
	return ret;
}

int kp_top_update(struct kp_top *t, const struct kp_map *m,
		  const struct kprof_probe_info *recs, unsigned int n,
		  uint64_t t_ns)
{
	struct ptrack *pt = calloc(n ? n : 1, sizeof(*pt));
	struct kp_top_row *rows = calloc(n ? n : 1, sizeof(*rows));
	unsigned int i, done;
	int ret = 0;

	if (!pt || !rows) {
		free(pt);
		free(rows);
		return -1;
	}
	for (i = 0; i < n && !ret; i++) {
		const struct kprof_probe_info *rec = &recs[i];
		struct ptrack *old = find_probe(t, rec);
		struct kp_key *keys = NULL;
		unsigned int nk = 0;
		int same;

		/* the used keys, busiest so far first */
		if (kp_has_keys(rec)) {
			keys = calloc(rec->nr_keys ? rec->nr_keys : 1,
				      sizeof(*keys));
			if (!keys) {
				ret = -1;
				break;
			}
			nk = kp_pair_keys(m, rec, keys);
		}
		ret = probe_row(t, m, rec, old, &pt[i], &rows[i], t_ns, keys, nk);
		/* keys and functions: only those of the very same probe */
		same = old && rows[i].has_rate;
		if (!ret && keys)
			ret = key_rows(t, m, rec, old, same, &pt[i], &rows[i],
				       t_ns, keys, nk);
		else if (!ret && kp_is_set(rec->type) && kp_set_ok(m, rec))
			ret = func_rows(t, m, rec, old, same, &pt[i], &rows[i],
					t_ns);
		if (pt[i].nsub)
			qsort(pt[i].sub, pt[i].nsub, sizeof(*pt[i].sub),
			      sub_cmp);
		free(keys);
	}
	done = i;
	/* the previous tracks: what was moved out is NULL now */
	for (i = 0; i < t->npt; i++)
		free_ptrack(&t->pt[i]);
	free(t->pt);
	free_rows(t);
	t->pt = pt;
	t->npt = done;
	t->rows = rows;
	t->nrows = done;
	t->dt_ns = t->snapshots ? t_ns - t->t_ns : 0;
	t->t_ns = t_ns;
	t->snapshots++;
	return ret;
}

/* ---- sorting ------------------------------------------------------------- */

static int sort_by;

static int row_cmp(const void *x, const void *y)
{
	const struct kp_top_row *a = x, *b = y;
	int d = 0;

	switch (sort_by) {
	case KP_TOP_RATE:
		if (a->has_rate != b->has_rate)
			d = a->has_rate ? -1 : 1;
		else if (a->rate != b->rate)
			d = a->rate > b->rate ? -1 : 1;
		break;
	case KP_TOP_TOTAL:
		d = cnt_desc(a->total, b->total);
		break;
	case KP_TOP_P99:
		if (a->has_lat != b->has_lat)
			d = a->has_lat ? -1 : 1;
		else
			d = cnt_desc(a->p99, b->p99);
		break;
	}
	/* equal rates or p99s: the busiest so far first */
	if (!d && sort_by != KP_TOP_NAME)
		d = cnt_desc(a->total, b->total);
	if (d)
		return d;
	if (a->depth)	/* keys: by label; probes: by spec, then id */
		return strcmp(a->name, b->name);
	d = strcmp(strchr(a->name, ' ') ? strchr(a->name, ' ') : a->name,
		   strchr(b->name, ' ') ? strchr(b->name, ' ') : b->name);
	if (d)
		return d;
	return a->id < b->id ? -1 : a->id > b->id;
}

unsigned int kp_top_rows(struct kp_top *t, const struct kp_top_row **rows)
{
	unsigned int i;

	sort_by = t->o.sort;
	if (t->nrows)
		qsort(t->rows, t->nrows, sizeof(*t->rows), row_cmp);
	for (i = 0; i < t->nrows; i++)
		if (t->rows[i].nsub)
			qsort(t->rows[i].sub, t->rows[i].nsub, sizeof(*t->rows[i].sub),
		      row_cmp);
	*rows = t->rows;
	return t->nrows;
}

int kp_top_key(struct kp_top *t, char c, int *paused)
{
	switch (c) {
	case 'q':
	case 'Q':
		return 1;
	case 'p':
	case ' ':
		*paused = !*paused;
		break;
	case 's':
		t->o.sort = (t->o.sort + 1) % KP_TOP_NR_SORTS;
		break;
	case 'c':
		t->o.clusters = !t->o.clusters;
		break;
	case 'k':
		t->o.keys = !t->o.keys;
		break;
	case '?':
		t->help = !t->help;
		break;
	}
	return 0;
}
