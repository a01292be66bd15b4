// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics of `kprofctl diff` (see diffstat.h for the assumptions).
 *
 * Mann-Whitney U: a value is known to its bucket, so a bucket is one group
 * of ties with the group's midrank.  U - mu and the tie-corrected variance
 * are sums over the union of non-empty buckets, in long double: U - mu
 * directly (not U, ~1e24, minus n1 n2 / 2), the tie term as a sum of
 * non-negative terms, exactly 0 when every value ties.  Counts up to 1e12
 * a side keep 1e-12 relative precision and more.
 *
 * Bootstrap: the Poisson bootstrap resamples each bucket's count c as
 * Poisson(c), independently, which needs no raw values.  A quantile only
 * depends on the buckets near its rank, so only those (the "window") are
 * drawn one by one; the buckets below and above are drawn as one Poisson
 * count each, which is the same distribution (sums of independent Poisson
 * variables are Poisson).  That keeps a metric's bootstrap at a few dozen
 * draws per resample whatever the histogram's width.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diffstat.h"
#include "units.h"
#include "kprofctl/hist.h"

/* the metrics before KP_M_P50; from there on, kp_pcts in its order */
static const char *const metric_names[KP_M_P50] = {
	[KP_M_COUNT] = "count", [KP_M_MEAN] = "mean", [KP_M_MIN] = "min",
	[KP_M_MAX] = "max",
};

_Static_assert(KP_M_NR - KP_M_P50 == KP_NR_PCTS,
	       "one metric per percentile of kp_pcts");

int kp_metric_parse(const char *name, enum kp_metric *m)
{
	unsigned int i;

	for (i = 0; i < KP_M_NR; i++) {
		/* a percentile by its key (p999) or its name (p99.9) */
		if (!strcasecmp(name, kp_metric_name(i)) ||
		    (i >= KP_M_P50 &&
		     !strcasecmp(name, kp_pcts[i - KP_M_P50].name))) {
			*m = i;
			return 0;
		}
	}
	return -1;
}

const char *kp_metric_name(enum kp_metric m)
{
	if (m < KP_M_P50)
		return metric_names[m];
	return m < KP_M_NR ? kp_pcts[m - KP_M_P50].key : "?";
}

/* quantile metrics as num/den; min is rank 1, max rank total */
static int metric_q(enum kp_metric m, uint64_t *num, uint64_t *den)
{
	if (m == KP_M_MIN || m == KP_M_MAX) {
		*num = m == KP_M_MAX;
		*den = 1;
		return 1;
	}
	if (m < KP_M_P50 || m >= KP_M_NR)
		return 0;
	*num = kp_pcts[m - KP_M_P50].num;
	*den = kp_pcts[m - KP_M_P50].den;
	return 1;
}

uint64_t kp_metric_value(const struct kp_agg *a, enum kp_metric m)
{
	uint64_t num, den;

	switch (m) {
	case KP_M_COUNT:
		return a->count;
	case KP_M_MEAN:
		return a->count ? a->sum / a->count : 0;
	case KP_M_MIN:
		return a->count ? a->min : 0;
	case KP_M_MAX:
		return a->count ? a->max : 0;
	default:
		if (!metric_q(m, &num, &den))
			return 0;
		return kp_quantile(a, num, den);
	}
}

/* ---- Mann-Whitney U ---------------------------------------------------- */

void kp_mwu(const __u64 *before, const __u64 *after, struct kp_mwu *r)
{
	long double n1, n2, n, below1 = 0, s = 0, d2 = 0, ties = 0, var;
	struct kprof_hist_iter i1, i2;
	bool h1, h2;

	memset(r, 0, sizeof(*r));
	r->p = 1;
	n1 = (long double)kprof_hist_total(before);
	n2 = (long double)kprof_hist_total(after);
	n = n1 + n2;
	r->mu = n1 * n2 / 2;
	r->u = r->mu;
	if (!n1 || !n2)
		return;

	/* merge the two walks by bucket index */
	kprof_hist_iter_init(&i1, before);
	kprof_hist_iter_init(&i2, after);
	h1 = kprof_hist_iter_next(&i1);
	h2 = kprof_hist_iter_next(&i2);
	while (h1 || h2) {
		long double c1 = 0, c2 = 0, t, above1;

		if (h1 && (!h2 || i1.idx <= i2.idx))
			c1 = (long double)i1.count;
		if (h2 && (!h1 || i2.idx <= i1.idx))
			c2 = (long double)i2.count;
		if (c1)
			h1 = kprof_hist_iter_next(&i1);
		if (c2)
			h2 = kprof_hist_iter_next(&i2);
		/*
		 * U - mu = sum c2 * (below1 + c1 / 2) - n1 n2 / 2
		 *        = sum c2 * (below1 - above1) / 2
		 */
		above1 = n1 - below1 - c1;
		d2 += c2 * (below1 - above1);
		/*
		 * Tie term (N^3 - N) - sum (t^3 - t) = N^3 - sum t^3, as the
		 * sum of (S + t)^3 - S^3 - t^3 = 3 S t (S + t) over the
		 * running total S: no cancellation, exactly 0 when
		 * everything is in one bucket.
		 */
		t = c1 + c2;
		ties += 3 * s * t * (s + t);
		s += t;
		below1 += c1;
	}
	r->u = r->mu + d2 / 2;
	/* n1 n2 / 12 * ((N + 1) - sum (t^3 - t) / (N (N - 1))), the same */
	var = n1 * n2 / 12 * (ties / (n * (n - 1)));
	if (!(var > 0))
		return;
	r->sigma = sqrtl(var);
	/* continuity correction: |U - mu| moves by half a step */
	r->z = (double)((fabsl(d2 / 2) - 0.5L) / r->sigma);
	if (r->z < 0)
		r->z = 0;
	r->p = erfc(r->z / M_SQRT2);
	if (d2 < 0)
		r->z = -r->z;
}

/* ---- PRNG and Poisson draws ------------------------------------------- */

struct rng {
	uint64_t s;
	double spare;
	int has_spare;
};

/* splitmix64: fixed seed, same stream on every machine */
static uint64_t rng_u64(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* [0, 1) */
static double rng_unif(struct rng *r)
{
	return (double)(rng_u64(r) >> 11) * 0x1p-53;
}

/* standard normal, Marsaglia's polar method */
static double rng_norm(struct rng *r)
{
	double u, v, q;

	if (r->has_spare) {
		r->has_spare = 0;
		return r->spare;
	}
	do {
		u = 2 * rng_unif(r) - 1;
		v = 2 * rng_unif(r) - 1;
		q = u * u + v * v;
	} while (q >= 1 || q == 0);
	q = sqrt(-2 * log(q) / q);
	r->spare = v * q;
	r->has_spare = 1;
	return u * q;
}

/*
 * Poisson(lambda): exact below POIS_NORMAL, by inversion of a table of its
 * distribution function (built once per bucket, 1000 draws use it) with a
 * guide table, which makes a draw one or two comparisons; from
 * POIS_NORMAL on, the normal approximation rounded to an integer
 * (skewness 1/sqrt(lambda) <= 1/8 there).  The table stops where the
 * tail is below 1e-16 (12 standard deviations and 30 more).
 */
#define POIS_NORMAL	64

struct pois {
	double lambda, sd;
	uint32_t len;		/* 0: normal approximation */
	double *cdf;		/* P(X <= k), cdf[len - 1] = 1 */
	uint32_t *guide;	/* smallest k with cdf[k] >= g / len */
};

static int pois_init(struct pois *p, uint64_t count)
{
	double f;
	uint32_t k, g;

	memset(p, 0, sizeof(*p));
	p->lambda = (double)count;
	p->sd = sqrt(p->lambda);
	if (count >= POIS_NORMAL)
		return 0;
	p->len = (uint32_t)(p->lambda + 12 * p->sd + 30);
	p->cdf = malloc(p->len * sizeof(*p->cdf));
	p->guide = malloc(p->len * sizeof(*p->guide));
	if (!p->cdf || !p->guide)
		return -1;
	f = exp(-p->lambda);
	p->cdf[0] = f;
	for (k = 1; k < p->len; k++) {
		f *= p->lambda / k;
		p->cdf[k] = p->cdf[k - 1] + f;
	}
	p->cdf[p->len - 1] = 1;
	for (g = k = 0; g < p->len; g++) {
		while (p->cdf[k] < (double)g / p->len)
			k++;
		p->guide[g] = k;
	}
	return 0;
}

static void pois_free(struct pois *p)
{
	free(p->cdf);
	free(p->guide);
}

static uint64_t pois_draw(const struct pois *p, struct rng *r)
{
	double u, x;
	uint32_t k;

	if (!p->len) {
		x = floor(p->lambda + p->sd * rng_norm(r) + 0.5);
		return x > 0 ? (uint64_t)x : 0;
	}
	u = rng_unif(r);
	k = p->guide[(uint32_t)(u * p->len)];
	while (p->cdf[k] < u)
		k++;
	return k;
}

/* ---- bootstrap of one quantile metric of one side --------------------- */

struct bucket {
	uint64_t count, lower, upper;	/* upper: UINT64_MAX for overflow */
	bool overflow;
};

struct side {
	struct bucket b[KPROF_HIST_NR_BUCKETS];
	unsigned int nb;
	uint64_t total;
};

static void side_init(struct side *sd, const struct kp_agg *a)
{
	struct kprof_hist_iter it;

	sd->nb = 0;
	kprof_hist_for_each(&it, a->hist) {
		struct bucket *b = &sd->b[sd->nb++];

		b->count = it.count;
		b->lower = it.lower;
		b->upper = it.upper;
		b->overflow = it.idx == it.nr - 1;
	}
	sd->total = it.cum;
}

/*
 * The metric's value if its rank falls in bucket b: kprof_hist_mid, as
 * kp_quantile reports it but not clamped to the exact min and max.  Those
 * are single calls a resample cannot move: with them, two maxima in one
 * bucket would give a zero-width interval that excludes 0.  In buckets, a
 * metric that stays in its bucket has not moved beyond what the data can
 * tell.
 */
static double bucket_value(const struct bucket *b)
{
	return (double)kprof_hist_mid(b->lower, b->upper, b->overflow);
}

/*
 * Fills v[0..nres) with the metric of nres Poisson resamples of sd (NAN
 * for an empty resample).  The window is every bucket whose cumulative
 * count comes within 8 standard deviations (of the rank's position,
 * sqrt(q (1 - q) N)) plus 40 of the target rank: a resampled rank leaves
 * it with a probability below 1e-15 (for min and max, all of the 40 or
 * more calls at that end drawn as 0: e^-40), and then takes the bucket
 * just outside, the likeliest one.
 */
static int boot_side(const struct side *sd, enum kp_metric m, unsigned int nres,
		     uint64_t seed, double *v)
{
	struct pois *w, lo, hi;
	uint64_t *c;
	struct rng r = { .s = seed };
	uint64_t num, den, cum = 0, below = 0, above = 0;
	double q, target, margin;
	unsigned int i, a = 0, b = sd->nb, k;
	int ret;

	if (!metric_q(m, &num, &den))
		return -1;
	if (!sd->nb) {
		for (k = 0; k < nres; k++)
			v[k] = NAN;
		return 0;
	}
	q = (double)num / (double)den;
	target = q * (double)sd->total;
	if (target < 1)
		target = 1;
	margin = 8 * sqrt(q * (1 - q) * (double)sd->total) + 40;
	for (i = 0; i < sd->nb; i++) {
		uint64_t prev = cum;

		cum += sd->b[i].count;
		if ((double)cum < target - margin) {
			a = i + 1;
			below = cum;
		} else if ((double)prev > target + margin && b == sd->nb) {
			b = i;
		}
	}
	for (i = b; i < sd->nb; i++)
		above += sd->b[i].count;
	w = calloc(b - a + 1, sizeof(*w) + sizeof(*c));
	if (!w)
		return -1;
	c = (uint64_t *)(w + (b - a + 1));
	ret = pois_init(&lo, below) | pois_init(&hi, above);
	for (i = a; i < b; i++)
		ret |= pois_init(&w[i - a], sd->b[i].count);
	if (ret)
		nres = 0;

	for (k = 0; k < nres; k++) {
		uint64_t nlo = below ? pois_draw(&lo, &r) : 0;
		uint64_t nhi = above ? pois_draw(&hi, &r) : 0;
		uint64_t tot = nlo + nhi, rank, run = nlo;
		const struct bucket *hit = NULL;
		unsigned int j;

		for (j = a; j < b; j++) {
			c[j - a] = pois_draw(&w[j - a], &r);
			tot += c[j - a];
		}
		if (!tot) {
			v[k] = NAN;
			continue;
		}
		rank = kprof_hist_rank(tot, num, den);
		if (rank <= nlo) {
			hit = &sd->b[a - 1];
		} else {
			for (j = a; j < b && !hit; j++) {
				run += c[j - a];
				if (run >= rank)
					hit = &sd->b[j];
			}
			if (!hit)
				hit = &sd->b[b];
		}
		v[k] = bucket_value(hit);
	}
	for (i = a; i < b; i++)
		pois_free(&w[i - a]);
	pois_free(&lo);
	pois_free(&hi);
	free(w);
	return ret ? -1 : 0;
}

/* ---- the shift of one metric ------------------------------------------ */

/*
 * Puts the k-th smallest of v[0..n) at v[k], smaller ones before it,
 * larger ones after: O(n) on average, where a sort cost a fifth of a
 * diff's time.
 */
static void select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n;	/* [lo, hi) holds position k */

	while (hi - lo > 1) {
		double pivot = v[lo + (hi - lo) / 2], t;
		size_t lt = lo, i = lo, gt = hi;

		/*
		 * Three ways, as the values repeat (differences of bucket
		 * values): [lo, lt) < pivot, [lt, i) = pivot, [gt, hi) > pivot
		 */
		while (i < gt) {
			if (v[i] < pivot) {
				t = v[lt];
				v[lt++] = v[i];
				v[i++] = t;
			} else if (v[i] > pivot) {
				t = v[--gt];
				v[gt] = v[i];
				v[i] = t;
			} else {
				i++;
			}
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return;
	}
}

/* z with P(|Z| > z) = 1 - level, by bisection on erfc */
static double z_of_level(double level)
{
	double lo = 0, hi = 40, alpha = 1 - level;
	int i;

	for (i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (erfc(mid / M_SQRT2) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * Mean's interval from the exact sums and a normal approximation (Welch):
 * the means are exact (sum / count), their variances come from the
 * buckets: each value at its bucket's midpoint plus the spread of a value
 * uniform within its bucket, (w^2 - 1) / 12.  The overflow bucket counts
 * at its lower bound.  No bootstrap: the mean needs every bucket, and the
 * central limit theorem holds from a few dozen calls.
 */
static int mean_var(const struct kp_agg *a, double *var)
{
	struct kprof_hist_iter it;
	double mean, s = 0;

	if (a->count < 2)
		return 0;
	mean = (double)a->sum / (double)a->count;
	kprof_hist_for_each(&it, a->hist) {
		double mid, w = 0, c = (double)it.count;

		if (it.idx == it.nr - 1) {
			mid = (double)it.lower;
		} else {
			w = (double)(it.upper - it.lower);
			mid = (double)it.lower + (w - 1) / 2;
		}
		s += c * ((mid - mean) * (mid - mean) + (w * w - 1) / 12);
	}
	if (!it.cum)
		return 0;
	*var = s / (double)it.cum;
	return 1;
}

static void cfg_defaults(const struct kp_diff_cfg *in, struct kp_diff_cfg *c)
{
	if (in)
		*c = *in;
	else
		memset(c, 0, sizeof(*c));
	if (!(c->alpha > 0 && c->alpha < 1))
		c->alpha = KP_DIFF_ALPHA;
	if (!c->resamples)
		c->resamples = KP_DIFF_RESAMPLES;
	if (!(c->level > 0 && c->level < 1))
		c->level = KP_DIFF_LEVEL;
	if (!c->seed)
		c->seed = KP_DIFF_SEED;
}

/* one independent stream per metric and side, whatever the call order */
static uint64_t stream_seed(uint64_t seed, enum kp_metric m, int side)
{
	struct rng r = { .s = seed ^ ((uint64_t)m << 8 | (uint64_t)side) };

	return rng_u64(&r);
}

/* percentile interval of after - before over the defined resamples */
static int boot_ci(const struct kp_agg *before, const struct kp_agg *after,
		   enum kp_metric m, const struct kp_diff_cfg *c,
		   double *lo, double *hi)
{
	struct side *s1 = NULL, *s2 = NULL;
	double *v1 = NULL, *v2 = NULL;
	unsigned int k, n = 0;
	size_t il, ih;
	int ok = 0;

	s1 = malloc(sizeof(*s1));
	s2 = malloc(sizeof(*s2));
	v1 = malloc(c->resamples * sizeof(*v1));
	v2 = malloc(c->resamples * sizeof(*v2));
	if (!s1 || !s2 || !v1 || !v2)
		goto out;
	side_init(s1, before);
	side_init(s2, after);
	if (boot_side(s1, m, c->resamples, stream_seed(c->seed, m, 0), v1) ||
	    boot_side(s2, m, c->resamples, stream_seed(c->seed, m, 1), v2))
		goto out;
	for (k = 0; k < c->resamples; k++)
		if (!isnan(v1[k]) && !isnan(v2[k]))
			v1[n++] = v2[k] - v1[k];
	/* an interval from a handful of resamples would be noise itself */
	if (n < c->resamples / 2 || n < 2)
		goto out;
	il = (size_t)floor((1 - c->level) / 2 * (n - 1));
	ih = (size_t)ceil((1 + c->level) / 2 * (n - 1));
	if (ih >= n)
		ih = n - 1;
	select_kth(v1, n, il);
	*lo = v1[il];
	if (ih > il)
		select_kth(v1 + il + 1, n - il - 1, ih - il - 1);
	*hi = v1[ih];
	ok = 1;
out:
	free(s1);
	free(s2);
	free(v1);
	free(v2);
	return ok;
}

struct kp_shift kp_diff_metric(const struct kp_agg *before,
			       const struct kp_agg *after, enum kp_metric m,
			       const struct kp_diff_cfg *cfg)
{
	struct kp_shift s = { .metric = m };
	struct kp_diff_cfg c;
	struct kp_mwu u;
	double b, a;

	cfg_defaults(cfg, &c);
	s.before = kp_metric_value(before, m);
	s.after = kp_metric_value(after, m);
	b = (double)s.before;
	a = (double)s.after;
	if (m == KP_M_MEAN && before->count && after->count) {
		/* the change of the exact means, not of the rounded ones */
		b = (double)before->sum / (double)before->count;
		a = (double)after->sum / (double)after->count;
	}
	if (b > 0) {
		s.has_change = 1;
		s.change = (a - b) / b * 100;
	}
	kp_mwu(before->hist, after->hist, &u);
	s.p = u.p;

	if (m == KP_M_COUNT) {
		/*
		 * kprofctl counts every call, it does not sample them: the
		 * counts are exact, their difference is the difference, and
		 * "significant" means "different at all".  The p-value
		 * printed is still the distributions'.
		 */
		s.has_ci = 1;
		s.ci_lo = a - b;
		s.ci_hi = a - b;
		s.significant = s.before != s.after;
	} else if (m == KP_M_MEAN) {
		double v1, v2, se, z;

		if (mean_var(before, &v1) && mean_var(after, &v2)) {
			se = sqrt(v1 / (double)before->count +
				  v2 / (double)after->count);
			z = z_of_level(c.level);
			s.has_ci = 1;
			s.ci_lo = a - b - z * se;
			s.ci_hi = a - b + z * se;
		}
	} else {
		s.has_ci = boot_ci(before, after, m, &c, &s.ci_lo, &s.ci_hi);
	}
	if (s.has_ci && s.has_change) {
		s.ci_lo_pct = s.ci_lo / b * 100;
		s.ci_hi_pct = s.ci_hi / b * 100;
	}
	/*
	 * Beyond noise: the distributions differ (MWU) and the metric's own
	 * interval says in which direction.  Either alone is too weak: MWU
	 * sees a shift of the bulk that a p99 need not share, and a
	 * percentile interval at 95 % misses one time in twenty.
	 */
	if (m != KP_M_COUNT)
		s.significant = s.has_ci && s.p < c.alpha &&
				(s.ci_lo > 0 || s.ci_hi < 0);
	return s;
}

/* ---- rendering --------------------------------------------------------- */

void kp_fmt_metric(enum kp_metric m, uint64_t v, char *buf, size_t len)
{
	if (m == KP_M_COUNT)
		snprintf(buf, len, "%" PRIu64, v);
	else
		kp_fmt_ns(v, buf, len);
}

void kp_fmt_change(const struct kp_shift *s, char *buf, size_t len)
{
	if (s->has_change)
		snprintf(buf, len, "%+.1f %%", s->change);
	else
		snprintf(buf, len, "n/a");
}

void kp_fmt_shift(const struct kp_shift *s, char *buf, size_t len)
{
	char b[32], a[32], ch[32];

	kp_fmt_metric(s->metric, s->before, b, sizeof(b));
	kp_fmt_metric(s->metric, s->after, a, sizeof(a));
	kp_fmt_change(s, ch, sizeof(ch));
	snprintf(buf, len, "%s -> %s  %s%s", b, a, ch,
		 s->significant ? "  *" : "");
}

void kp_diff_widen(struct kp_shift *s)
{
	if (!s->has_ci || !s->has_change)
		return;
	if (s->change < s->ci_lo_pct)
		s->ci_lo_pct = s->change;
	if (s->change > s->ci_hi_pct)
		s->ci_hi_pct = s->change;
}
