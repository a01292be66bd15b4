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
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "kprofctl/hist.h"
#include "show-set.h"
#include "spec.h"
#include "top.h"
#include "util.h"

/* what a row had at its last snapshot */
struct track {
	uint32_t id, slot;
	unsigned int index;	/* key or function index; probes: 0 */
	char name[KPROF_SPEC_LEN + 16];
	int valid;
	uint64_t t_ns, count, sum;
	__u64 *hist;		/* nb buckets */
	uint64_t cl[KP_MAX_CLUSTERS];
};

/* a probe's track and those of its keys or functions, by index */
struct ptrack {
	struct track self;
	struct track *sub;
	unsigned int nsub;
	int complete;	/* every key/function with calls has a track */
};

struct kp_top {
	struct kp_top_opts o;
	struct ptrack *pt;
	unsigned int npt;
	struct kp_top_row *rows;
	unsigned int nrows;
	uint64_t t_ns, dt_ns;	/* last snapshot, and its interval */
	int snapshots;
	struct kp_agg agg, prev;	/* scratch */
};

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

static unsigned int nr_clusters(const struct kp_top *t)
{
	return t->o.topo ? t->o.topo->nr_clusters : 0;
}

/* the quantile of buckets h[0..nb) as kp_quantile() reports it */
static uint64_t hist_q(const __u64 *h, unsigned int nb, uint64_t num,
		       uint64_t den, uint64_t min, uint64_t max)
{
	struct kprof_hist_iter it;
	uint64_t total;

	kprof_hist_iter_init(&it, h);
	it.nr = nb;
	while (kprof_hist_iter_next(&it))
		;
	total = it.cum;
	kprof_hist_iter_init(&it, h);
	it.nr = nb;
	return kprof_hist_iter_quantile(&it, total, num, den, min, max);
}

/*
 * Row r from c against track tr (same: tr is this row's, as identified),
 * then tr takes c.  -1: out of memory.
 */
static int fill(struct kp_top *t, struct kp_top_row *r, struct track *tr,
		const struct cur *c, uint64_t t_ns, int same)
{
	unsigned int i, ncl = nr_clusters(t);
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
			r->p99 = hist_q(dh, c->nb, 99, 100, c->min, c->max);
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
	for (i = 0; i < nr_clusters(t); i++) {
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
	snprintf(r->name, sizeof(r->name), "%u %s", rec->id, rec->spec);
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
		for (j = 0; j < nr_clusters(t); j++) {
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
		for (j = 0; j < nr_clusters(t); j++) {
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

/* ---- text ---------------------------------------------------------------- */

#define W_RATE	11
#define W_TOTAL	13
#define W_LAT	9
#define W_CL	10
#define NAME_MAX_W	48

static void fmt_rate(char *buf, size_t len, int has, double v)
{
	if (has)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "-");
}

static void fmt_lat(char *buf, size_t len, int has, uint64_t v)
{
	if (has)
		kp_fmt_ns(v, buf, len);
	else
		snprintf(buf, len, "-");
}

/* the NAME column's width: the longest name shown, within limits */
static int name_width(const struct kp_top *t, const struct kp_top_row *rows,
		      unsigned int n)
{
	unsigned int i, j;
	int w = 4;

	for (i = 0; i < n; i++) {
		if ((int)strlen(rows[i].name) > w)
			w = (int)strlen(rows[i].name);
		for (j = 0; t->o.keys && j < rows[i].nsub && j < t->o.nkeys; j++)
			if ((int)strlen(rows[i].sub[j].name) + 2 > w)
				w = (int)strlen(rows[i].sub[j].name) + 2;
	}
	return w > NAME_MAX_W ? NAME_MAX_W : w;
}

static int show_cl(const struct kp_top *t)
{
	return t->o.clusters && nr_clusters(t);
}

static void line_header(const struct kp_top *t, FILE *f, int nw)
{
	unsigned int i;
	char h[64];

	fprintf(f, "%-*s %*s %*s %*s %*s", nw, "PROBE", W_RATE, "RATE/s",
		W_TOTAL, "TOTAL", W_LAT, "P99", W_LAT, "MEAN");
	for (i = 0; show_cl(t) && i < nr_clusters(t); i++) {
		snprintf(h, sizeof(h), "%s/s", t->o.topo->cl[i].name);
		fprintf(f, " %*s", W_CL, h);
	}
}

static void line_row(const struct kp_top *t, FILE *f, int nw,
		     const struct kp_top_row *r)
{
	char name[sizeof(r->name) + 2], rate[32], p99[32], mean[32], cl[32];
	unsigned int i;

	snprintf(name, sizeof(name), "%s%s", r->depth ? "  " : "", r->name);
	if ((int)strlen(name) > nw)	/* cut: a '+' says so */
		name[nw - 1] = '+', name[nw] = '\0';
	fmt_rate(rate, sizeof(rate), r->has_rate, r->rate);
	fmt_lat(p99, sizeof(p99), r->has_lat, r->p99);
	fmt_lat(mean, sizeof(mean), r->has_lat, r->mean);
	fprintf(f, "%-*s %*s %*" PRIu64 " %*s %*s", nw, name, W_RATE, rate,
		W_TOTAL, r->total, W_LAT, p99, W_LAT, mean);
	for (i = 0; show_cl(t) && i < nr_clusters(t); i++) {
		fmt_rate(cl, sizeof(cl), r->has_rate, r->cl_rate[i]);
		fprintf(f, " %*s", W_CL, cl);
	}
}

/* the header (r NULL) or row r as one line through emit */
static void put_line(const struct kp_top *t, int nw, const struct kp_top_row *r,
		     void (*emit)(void *ctx, const char *line), void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	if (r)
		line_row(t, f, nw, r);
	else
		line_header(t, f, nw);
	fclose(f);
	emit(ctx, buf);
	free(buf);
}

/* the table's lines, each without its newline, through emit */
static void table(struct kp_top *t, void (*emit)(void *ctx, const char *line),
		  void *ctx)
{
	const struct kp_top_row *rows;
	unsigned int n = kp_top_rows(t, &rows), i, j;
	int nw = name_width(t, rows, n);

	put_line(t, nw, NULL, emit, ctx);
	for (i = 0; i < n; i++) {
		put_line(t, nw, &rows[i], emit, ctx);
		for (j = 0; t->o.keys && j < rows[i].nsub && j < t->o.nkeys; j++)
			put_line(t, nw, &rows[i].sub[j], emit, ctx);
	}
	if (!n)
		emit(ctx, "(no probes: add one, e.g. 'kprofctl add kretprobe:FUNC --start')");
}

static void emit_file(void *ctx, const char *line)
{
	fprintf(ctx, "%s\n", line);
}

void kp_top_print(struct kp_top *t, FILE *f)
{
	char iv[32];

	kp_fmt_ns(t->dt_ns, iv, sizeof(iv));
	fprintf(f, "probes: %u  interval: %s  sort: %s\n", t->nrows, iv,
		kp_top_sort_name(t->o.sort));
	table(t, emit_file, f);
	fprintf(f, "\n");
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_row(const struct kp_top *t, FILE *f,
		     const struct kp_top_row *r)
{
	unsigned int i;

	if (r->has_rate)
		fprintf(f, "\"rate\":%.3f,\"count\":%" PRIu64 ",", r->rate,
			r->count);
	else
		fprintf(f, "\"rate\":null,\"count\":null,");
	fprintf(f, "\"total\":%" PRIu64, r->total);
	if (r->has_lat)
		fprintf(f, ",\"p99_ns\":%" PRIu64 ",\"mean_ns\":%" PRIu64,
			r->p99, r->mean);
	if (!nr_clusters(t) || !r->has_rate)
		return;
	fprintf(f, ",\"clusters\":[");
	for (i = 0; i < nr_clusters(t); i++) {
		fprintf(f, "%s{\"name\":", i ? "," : "");
		kp_json_str(f, t->o.topo->cl[i].name);
		fprintf(f, ",\"rate\":%.3f,\"count\":%" PRIu64 "}",
			r->cl_rate[i], r->cl_count[i]);
	}
	fprintf(f, "]");
}

void kp_top_json(struct kp_top *t, FILE *f)
{
	const struct kp_top_row *rows;
	unsigned int n = kp_top_rows(t, &rows), i, j;

	fprintf(f, "{\"t_ns\":%" PRIu64 ",\"interval_ns\":%" PRIu64
		",\"sort\":\"%s\",\"probes\":[", t->t_ns, t->dt_ns,
		kp_top_sort_name(t->o.sort));
	for (i = 0; i < n; i++) {
		const char *spec = strchr(rows[i].name, ' ');

		fprintf(f, "%s{\"id\":%u,\"spec\":", i ? "," : "", rows[i].id);
		kp_json_str(f, spec ? spec + 1 : rows[i].name);
		fprintf(f, ",\"type\":\"%s\",", kp_type_name(rows[i].type));
		json_row(t, f, &rows[i]);
		if (rows[i].nsub) {
			fprintf(f, ",\"%s\":[", kp_is_set(rows[i].type) ?
				"functions" : "keys");
			for (j = 0; j < rows[i].nsub && j < t->o.nkeys; j++) {
				fprintf(f, "%s{\"name\":", j ? "," : "");
				kp_json_str(f, rows[i].sub[j].name);
				fprintf(f, ",");
				json_row(t, f, &rows[i].sub[j]);
				fprintf(f, "}");
			}
			fprintf(f, "]");
		}
		fprintf(f, "}");
	}
	fprintf(f, "]}\n");
}

/* ---- the screen ---------------------------------------------------------- */

static volatile sig_atomic_t top_quit, top_winch;

static void on_quit(int sig)
{
	(void)sig;
	top_quit = 1;
}

static void on_winch(int sig)
{
	(void)sig;
	top_winch = 1;
}

struct screen {
	FILE *f;
	unsigned int rows, cols, used;
};

/* a line cut to the width, if the height has room for it */
static void emit_screen(void *ctx, const char *line)
{
	struct screen *s = ctx;
	size_t n = strlen(line);

	if (s->used >= s->rows)
		return;
	if (n > s->cols)
		n = s->cols;
	fwrite(line, 1, n, s->f);
	fputs("\033[K", s->f);
	if (++s->used < s->rows)
		fputs("\r\n", s->f);
}

static void screen_size(int fd, unsigned int *rows, unsigned int *cols)
{
	struct winsize ws;

	*rows = 24;
	*cols = 80;
	if (!ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

static void draw(struct kp_top *t, int fd, int paused, int ended)
{
	struct screen s = { 0 };
	char head[256], now[16], iv[32];
	time_t wall = time(NULL);
	struct tm tm;
	char *buf = NULL;
	size_t len = 0;

	s.f = open_memstream(&buf, &len);
	if (!s.f)
		return;
	screen_size(fd, &s.rows, &s.cols);
	localtime_r(&wall, &tm);
	strftime(now, sizeof(now), "%H:%M:%S", &tm);
	if (t->dt_ns)
		kp_fmt_ns(t->dt_ns, iv, sizeof(iv));
	else
		snprintf(iv, sizeof(iv), "-");
	fputs("\033[H", s.f);
	snprintf(head, sizeof(head),
		 "kprofctl top  %s  probes: %u  interval: %s  sort: %s%s%s"
		 "   q quit  p pause  s sort  c clusters  k keys",
		 now, t->nrows, iv, kp_top_sort_name(t->o.sort),
		 paused ? "  PAUSED" : "", ended ? "  END" : "");
	emit_screen(&s, head);
	emit_screen(&s, "");
	table(t, emit_screen, &s);
	fputs("\033[J", s.f);
	fclose(s.f);
	fwrite(buf, 1, len, t->o.out);
	fflush(t->o.out);
	free(buf);
}

struct term {
	int fd, raw;
	struct termios saved;
	FILE *out;
};

static void term_restore(struct term *tm)
{
	if (!tm->raw)
		return;
	fputs("\033[?25h\033[?1049l", tm->out);
	fflush(tm->out);
	tcsetattr(tm->fd, TCSAFLUSH, &tm->saved);
	tm->raw = 0;
}

static int term_setup(struct term *tm)
{
	struct termios r;

	if (tcgetattr(tm->fd, &tm->saved))
		return -1;
	r = tm->saved;
	/* keys one by one, unechoed; Ctrl-C still raises SIGINT */
	r.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	r.c_cc[VMIN] = 1;
	r.c_cc[VTIME] = 0;
	if (tcsetattr(tm->fd, TCSAFLUSH, &r))
		return -1;
	tm->raw = 1;
	fputs("\033[?1049h\033[?25l\033[H\033[2J", tm->out);
	fflush(tm->out);
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int take(struct kp_top *t, const struct kp_top_src *src)
{
	const struct kprof_probe_info *recs;
	const struct kp_map *m;
	unsigned int n;
	uint64_t t_ns;
	int ret = src->next(src->ctx, &m, &recs, &n, &t_ns);

	if (ret)
		return ret;
	if (kp_top_update(t, m, recs, n, t_ns)) {
		fprintf(stderr, "kprofctl top: out of memory\n");
		return -1;
	}
	return 0;
}

/* a key pressed: 1 to quit */
static int on_key(struct kp_top *t, char c, int *paused)
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
	}
	return 0;
}

int kp_top_run(const struct kp_top_src *src, const struct kp_top_opts *o)
{
	struct kp_top *t = kp_top_new(o);
	struct term tm = { .fd = o->in_fd, .out = o->out ? o->out : stdout };
	struct sigaction sa, old_int, old_term, old_winch;
	uint64_t start, end = 0, deadline;
	unsigned int tables = 0;
	int ret = 0, r, paused = 0, ended = 0, dirty = 0;

	if (!t) {
		fprintf(stderr, "kprofctl top: out of memory\n");
		return 1;
	}
	top_quit = 0;
	top_winch = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_quit;	/* no SA_RESTART: poll() returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sa.sa_handler = on_winch;
	sigaction(SIGWINCH, &sa, &old_winch);
	if (o->interactive && term_setup(&tm)) {
		fprintf(stderr, "kprofctl top: cannot set up the terminal: %s\n",
			strerror(errno));
		ret = 1;
		goto out;
	}
	r = take(t, src);
	if (r) {
		ret = r < 0;
		goto out;
	}
	start = mono_ns();
	if (o->duration_ns)
		end = start + o->duration_ns;
	deadline = start + o->interval_ns;
	if (o->interactive)
		draw(t, o->out ? fileno(o->out) : STDOUT_FILENO, paused, ended);
	while (!top_quit) {
		uint64_t now = mono_ns(), wake = deadline;
		struct pollfd pfd = { .fd = o->in_fd, .events = POLLIN };
		int ms;

		if (end && wake > end)
			wake = end;
		if (dirty || top_winch) {
			top_winch = 0;
			dirty = 0;
			draw(t, fileno(tm.out), paused, ended);
		}
		if (now < wake || ended) {
			ms = ended ? -1 : (int)((wake - now + 999999) / 1000000);
			r = poll(&pfd, o->interactive ? 1 : 0, ms);
			if (r < 0 && errno != EINTR) {
				fprintf(stderr, "kprofctl top: poll: %s\n",
					strerror(errno));
				ret = 1;
				break;
			}
			if (r > 0 && (pfd.revents & POLLIN)) {
				char c[16];
				ssize_t i, k = read(o->in_fd, c, sizeof(c));

				if (k <= 0) {
					if (k == 0)	/* the terminal is gone */
						break;
					continue;
				}
				for (i = 0; i < k; i++)
					if (on_key(t, c[i], &paused))
						top_quit = 1;
				dirty = 1;
			} else if (r > 0 && (pfd.revents & (POLLHUP | POLLERR))) {
				break;
			}
			continue;
		}
		deadline += o->interval_ns;
		if (deadline <= now)	/* fell behind: no burst of ticks */
			deadline = now + o->interval_ns;
		if (!paused) {
			r = take(t, src);
			if (r < 0) {
				ret = 1;
				break;
			}
			if (r > 0) {
				if (!o->interactive)
					break;
				ended = 1;
				dirty = 1;
				continue;
			}
		}
		if (o->interactive) {
			draw(t, fileno(tm.out), paused, ended);
		} else {
			if (o->json)
				kp_top_json(t, tm.out);
			else
				kp_top_print(t, tm.out);
			fflush(tm.out);
		}
		tables++;
		if ((o->count && tables >= o->count) || (end && now >= end))
			break;
	}
out:
	term_restore(&tm);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGWINCH, &old_winch, NULL);
	kp_top_free(t);
	return ret;
}
