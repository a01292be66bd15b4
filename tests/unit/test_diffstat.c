// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics of `kprofctl diff` on histograms built from known samples:
 * no false alarm on identical or same-distribution captures, a real +20 %
 * shift found with its size and sign, Mann-Whitney U against the textbook
 * computation from raw values, the tie correction, huge counts, the
 * bootstrap's determinism and speed, and the --fail-if parser and gate.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit.h"
#include "diffstat.h"
#include "failif.h"
#include "kprofctl/hist.h"

static void agg_init(struct kp_agg *a)
{
	memset(a, 0, sizeof(*a));
	a->min = UINT64_MAX;
}

static void agg_add_n(struct kp_agg *a, uint64_t v, uint64_t n)
{
	a->count += n;
	a->sum += v * n;
	if (v < a->min)
		a->min = v;
	if (v > a->max)
		a->max = v;
	a->hist[kprof_hist_index(v)] += n;
}

static void agg_add(struct kp_agg *a, uint64_t v)
{
	agg_add_n(a, v, 1);
}

/* as kp_aggregate leaves an empty one */
static void agg_done(struct kp_agg *a)
{
	if (!a->count)
		a->min = 0;
}

/* the test's own PRNG (unit.h's xorshift64*), seeded per sample */
static double urand(void)
{
	return ((unit_rand() >> 11) + 0.5) * 0x1p-53;
}

static double nrand(void)
{
	return sqrt(-2 * log(urand())) * cos(2 * M_PI * urand());
}

/* n calls of about 5us, log-normal (sigma 0.3), times scale */
static void draw(struct kp_agg *a, unsigned int n, double scale)
{
	unsigned int i;

	agg_init(a);
	for (i = 0; i < n; i++)
		agg_add(a, (uint64_t)(5000 * exp(0.3 * nrand()) * scale));
	agg_done(a);
}

static void test_metrics(void)
{
	static const char *const names[KP_M_NR] = {
		"count", "mean", "min", "max", "p50", "p90", "p99", "p999",
	};
	struct kp_agg a;
	enum kp_metric m;
	unsigned int i;

	for (i = 0; i < KP_M_NR; i++) {
		CHECK(!kp_metric_parse(names[i], &m) && m == i, "parse %s",
		      names[i]);
		CHECK(!strcmp(kp_metric_name(i), names[i]), "name %u", i);
	}
	CHECK(!kp_metric_parse("P99", &m) && m == KP_M_P99, "case");
	CHECK(!kp_metric_parse("p99.9", &m) && m == KP_M_P999, "p99.9");
	CHECK(kp_metric_parse("p98", &m) == -1, "p98 refused");
	CHECK(kp_metric_parse("", &m) == -1, "empty refused");

	agg_init(&a);
	for (i = 1; i <= 100; i++)
		agg_add(&a, i * 1000);
	agg_done(&a);
	CHECK(kp_metric_value(&a, KP_M_COUNT) == 100, "count");
	CHECK(kp_metric_value(&a, KP_M_MEAN) == 50500, "mean");
	CHECK(kp_metric_value(&a, KP_M_MIN) == 1000, "min");
	CHECK(kp_metric_value(&a, KP_M_MAX) == 100000, "max");
	CHECK(kp_metric_value(&a, KP_M_P50) == kp_quantile(&a, 50, 100), "p50");
	CHECK(kp_metric_value(&a, KP_M_P999) == kp_quantile(&a, 999, 1000),
	      "p999");
	agg_init(&a);
	agg_done(&a);
	for (i = 0; i < KP_M_NR; i++)
		CHECK(kp_metric_value(&a, i) == 0, "empty %s", names[i]);
}

/* ---- Mann-Whitney U against the textbook, from raw values ------------- */

static uint64_t key_of(uint64_t v)
{
	return kprof_hist_index(v);	/* a value is known to its bucket */
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/*
 * Ranks of the pooled sample with midranks for ties, R2 = after's rank
 * sum, U = R2 - n2 (n2 + 1) / 2, var = n1 n2 / 12 ((N + 1) - sum (t^3 -
 * t) / (N (N - 1))), z = (|U - n1 n2 / 2| - 1/2) / sd.
 */
static void brute_mwu(const uint64_t *x, unsigned int n1, const uint64_t *y,
		      unsigned int n2, double *u, double *sd, double *p)
{
	unsigned int n = n1 + n2, i, j;
	uint64_t *all = malloc(n * sizeof(*all));
	double r2 = 0, tie = 0, var, z;

	for (i = 0; i < n1; i++)
		all[i] = key_of(x[i]) * 2;		/* even: before */
	for (i = 0; i < n2; i++)
		all[n1 + i] = key_of(y[i]) * 2 + 1;	/* odd: after */
	qsort(all, n, sizeof(*all), cmp_u64);
	for (i = 0; i < n; i = j) {
		double t, mid;
		unsigned int k;

		for (j = i; j < n && all[j] / 2 == all[i] / 2; j++)
			;
		t = j - i;
		mid = (i + 1 + j) / 2.0;	/* mean of ranks i+1 .. j */
		for (k = i; k < j; k++)
			if (all[k] & 1)
				r2 += mid;
		tie += t * t * t - t;
	}
	free(all);
	*u = r2 - n2 * (n2 + 1) / 2.0;
	var = (double)n1 * n2 / 12 * ((n + 1) - tie / ((double)n * (n - 1)));
	*sd = var > 0 ? sqrt(var) : 0;
	z = fabs(*u - (double)n1 * n2 / 2) - 0.5;
	if (z < 0)
		z = 0;
	*p = *sd > 0 ? erfc(z / *sd / M_SQRT2) : 1;
}

static int close_to(double a, double b, double rel)
{
	return fabs(a - b) <= rel * (fabs(a) > fabs(b) ? fabs(a) : fabs(b)) +
			      1e-300;
}

static void test_mwu_brute(void)
{
	unsigned int round;

	unit_rng = 0x1234567;
	for (round = 0; round < 200; round++) {
		unsigned int n1 = 1 + unit_rand() % 40, n2 = 1 + unit_rand() % 40;
		/* few distinct buckets: many ties; the after side moved */
		double spread = round % 2 ? 0.05 : 0.6;
		double shift = 1 + (double)(unit_rand() % 5) / 10;
		uint64_t x[40], y[40];
		struct kp_agg a, b;
		struct kp_mwu r;
		double u, sd, p;
		unsigned int i;

		agg_init(&a);
		agg_init(&b);
		for (i = 0; i < n1; i++) {
			x[i] = (uint64_t)(3000 * exp(spread * nrand()));
			agg_add(&a, x[i]);
		}
		for (i = 0; i < n2; i++) {
			y[i] = (uint64_t)(3000 * shift * exp(spread * nrand()));
			agg_add(&b, y[i]);
		}
		brute_mwu(x, n1, y, n2, &u, &sd, &p);
		kp_mwu(a.hist, b.hist, &r);
		CHECK(close_to((double)r.u, u, 1e-12), "round %u: U %Lg vs %g",
		      round, r.u, u);
		CHECK(close_to((double)r.sigma, sd, 1e-9),
		      "round %u: sigma %Lg vs %g", round, r.sigma, sd);
		CHECK(close_to(r.p, p, 1e-9), "round %u: p %.17g vs %.17g",
		      round, r.p, p);
	}
}

/*
 * Everything in two buckets: the tie correction shrinks the variance by
 * 3 t1 t2 / (N^2 - 1), here 0.747, which turns p 0.020 into 0.0072.
 * Without it this test fails (and the brute-force rounds above too).
 */
static void test_mwu_ties(void)
{
	struct kp_agg a, b;
	struct kp_mwu r;
	uint64_t x[1000], y[1000];
	double u, sd, p;
	unsigned int i;

	agg_init(&a);
	agg_init(&b);
	for (i = 0; i < 1000; i++) {
		x[i] = i < 500 ? 4096 : 4352;	/* two adjacent buckets */
		y[i] = i < 440 ? 4096 : 4352;
		agg_add(&a, x[i]);
		agg_add(&b, y[i]);
	}
	kp_mwu(a.hist, b.hist, &r);
	brute_mwu(x, 1000, y, 1000, &u, &sd, &p);
	CHECK(r.u == 530000, "U %Lg", r.u);
	CHECK(close_to(r.p, p, 1e-9), "p %.17g vs brute %.17g", r.p, p);
	CHECK(r.p > 0.0070 && r.p < 0.0074, "tie-corrected p %g", r.p);
	CHECK(r.z > 2.68 && r.z < 2.70, "z %g", r.z);
}

static void test_mwu_edges(void)
{
	struct kp_agg a, b, e;
	struct kp_mwu r;

	agg_init(&e);
	agg_done(&e);
	agg_init(&a);
	agg_add_n(&a, 5000, 1000);
	agg_init(&b);
	agg_add_n(&b, 5100, 1000);	/* the same bucket: all ties */

	kp_mwu(e.hist, a.hist, &r);
	CHECK(r.p == 1 && r.sigma == 0, "empty before: p %g", r.p);
	kp_mwu(a.hist, e.hist, &r);
	CHECK(r.p == 1 && r.sigma == 0, "empty after: p %g", r.p);
	kp_mwu(e.hist, e.hist, &r);
	CHECK(r.p == 1, "both empty: p %g", r.p);
	kp_mwu(a.hist, b.hist, &r);
	CHECK(r.p == 1 && r.sigma == 0 && r.u == r.mu,
	      "one bucket: variance 0, p %g", r.p);

	/* counts of 1e12 a side: no overflow, no cancellation */
	agg_init(&a);
	agg_init(&b);
	agg_add_n(&a, 1000, 500000000000ULL);
	agg_add_n(&a, 2000, 500000000000ULL);
	agg_add_n(&b, 1000, 500000000000ULL);
	agg_add_n(&b, 2000, 500000000000ULL);
	kp_mwu(a.hist, b.hist, &r);
	CHECK(r.p == 1 && r.z == 0 && r.u == r.mu, "huge, equal: p %g z %g",
	      r.p, r.z);
	/* U - mu and sigma exact enough to see a shift of 1e-6 */
	b.hist[kprof_hist_index(1000)] -= 2000000;
	b.hist[kprof_hist_index(2000)] += 2000000;
	kp_mwu(a.hist, b.hist, &r);
	/* U - mu = 2e6 x 5e11, sigma^2 = 1e24 / 12 x 3e24 / 2e12: z = 2 sqrt 2 */
	CHECK(close_to((double)(r.u - r.mu), 1e18, 1e-12), "huge: U - mu %Lg",
	      r.u - r.mu);
	CHECK(close_to(r.p, erfc(2), 1e-6), "huge, moved: p %g z %g", r.p,
	      r.z);
	b.hist[kprof_hist_index(1000)] += 1000000;
	b.hist[kprof_hist_index(2000)] -= 1000000;
	kp_mwu(a.hist, b.hist, &r);
	CHECK(close_to(r.p, erfc(1), 1e-6), "huge, moved half: p %g z %g",
	      r.p, r.z);
}

/* ---- kp_diff_metric ----------------------------------------------------- */

static void test_identical(void)
{
	struct kp_agg a;
	unsigned int i;

	unit_rng = 42;
	draw(&a, 10000, 1);
	for (i = 0; i < KP_M_NR; i++) {
		struct kp_shift s = kp_diff_metric(&a, &a, i, NULL);

		CHECK(s.p == 1, "%s: p %g", kp_metric_name(i), s.p);
		CHECK(!s.significant, "%s significant", kp_metric_name(i));
		CHECK(s.has_change && s.change == 0, "%s change %g",
		      kp_metric_name(i), s.change);
		CHECK(s.has_ci && s.ci_lo <= 0 && s.ci_hi >= 0,
		      "%s CI [%g, %g]", kp_metric_name(i), s.ci_lo, s.ci_hi);
	}
}

static uint64_t bucket_width(uint64_t v)
{
	uint32_t i = kprof_hist_index(v);

	return kprof_hist_upper(i) - kprof_hist_lower(i);
}

static void test_shift(void)
{
	static const enum kp_metric m[] = {
		KP_M_MEAN, KP_M_P50, KP_M_P90, KP_M_P99,
	};
	struct kp_agg a, b;
	unsigned int i;

	/* the same calls, each 20 % slower */
	unit_rng = 7;
	draw(&a, 10000, 1);
	unit_rng = 7;
	draw(&b, 10000, 1.2);
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		struct kp_shift s = kp_diff_metric(&a, &b, m[i], NULL);
		struct kp_shift r = kp_diff_metric(&b, &a, m[i], NULL);
		/* each side's value is off by up to half its bucket */
		double w = 100.0 * (double)(bucket_width(s.before) +
				   bucket_width(s.after)) / 2 / (double)s.before;

		CHECK(s.significant, "%s +20 %%: not significant (p %g, CI %g "
		      "%g)", kp_metric_name(m[i]), s.p, s.ci_lo, s.ci_hi);
		CHECK(s.has_change && fabs(s.change - 20) <= w,
		      "%s change %g, bucket %g %%", kp_metric_name(m[i]),
		      s.change, w);
		CHECK(s.ci_lo > 0 && s.ci_lo_pct > 0 && s.ci_hi_pct < 45,
		      "%s CI %g %% .. %g %%", kp_metric_name(m[i]), s.ci_lo_pct,
		      s.ci_hi_pct);
		CHECK(s.p < 1e-50, "%s p %g", kp_metric_name(m[i]), s.p);
		/* the other way round: the same shift, downwards */
		CHECK(r.significant && r.change < 0 && r.ci_hi < 0,
		      "%s -17 %%: %g CI %g %g", kp_metric_name(m[i]), r.change,
		      r.ci_lo, r.ci_hi);
	}
	/* the number of calls did not change: exact, not significant */
	{
		struct kp_shift s = kp_diff_metric(&a, &b, KP_M_COUNT, NULL);

		CHECK(!s.significant && s.change == 0 && s.ci_lo == 0 &&
		      s.ci_hi == 0, "count: %g", s.change);
	}
}

/*
 * The bulk moved (MWU p ~ 0), the extremes moved within their buckets:
 * min and max are single calls, not significant at bucket resolution.
 */
static void test_extremes(void)
{
	struct kp_agg a, b;
	struct kp_shift s;

	agg_init(&a);
	agg_init(&b);
	/* 20 calls each: the extreme buckets survive every resample */
	agg_add_n(&a, 1000, 20);
	agg_add_n(&a, 5000, 1000);
	agg_add_n(&a, 100000, 20);
	agg_add_n(&b, 1010, 20);
	agg_add_n(&b, 6000, 1000);
	agg_add_n(&b, 100500, 20);
	s = kp_diff_metric(&a, &b, KP_M_MAX, NULL);
	CHECK(s.p < 1e-100 && s.before == 100000 && s.after == 100500 &&
	      !s.significant && s.ci_lo <= 0 && s.ci_hi >= 0,
	      "max within its bucket: p %g CI %g %g", s.p, s.ci_lo, s.ci_hi);
	s = kp_diff_metric(&a, &b, KP_M_MIN, NULL);
	CHECK(s.before == 1000 && s.after == 1010 && !s.significant,
	      "min within its bucket: CI %g %g", s.ci_lo, s.ci_hi);
	s = kp_diff_metric(&a, &b, KP_M_P50, NULL);
	CHECK(s.significant && s.ci_lo > 0, "p50 moved: CI %g %g", s.ci_lo,
	      s.ci_hi);
}

/* the same +20 %, 5 calls a side, 10 seeds: too few calls to tell */
static void test_small(void)
{
	unsigned int seed, i;

	for (seed = 1; seed <= 10; seed++) {
		struct kp_agg a, b;

		unit_rng = 0x5a11 + seed;
		draw(&a, 5, 1);
		draw(&b, 5, 1.2);
		for (i = 0; i < KP_M_NR; i++) {
			struct kp_shift s = kp_diff_metric(&a, &b, i, NULL);

			CHECK(!s.significant, "seed %u %s: 5 calls, +20 %% "
			      "significant (p %g)", seed, kp_metric_name(i),
			      s.p);
		}
	}
}

static void test_same_distribution(void)
{
	unsigned int seed, clean = 0;

	for (seed = 1; seed <= 10; seed++) {
		struct kp_agg a, b;
		unsigned int i, hits = 0;

		unit_rng = 0x5eed0000 + seed;
		draw(&a, 2000, 1);
		draw(&b, 2000, 1);
		for (i = 0; i < KP_M_NR; i++)
			if (kp_diff_metric(&a, &b, i, NULL).significant) {
				hits++;
				printf("seed %u: %s significant\n", seed,
				       kp_metric_name(i));
			}
		clean += !hits;
	}
	CHECK(clean >= 9, "same distribution: %u of 10 clean", clean);
}

static void test_empty(void)
{
	struct kp_agg a, e;
	struct kp_shift s;
	char buf[96];

	agg_init(&e);
	agg_done(&e);
	unit_rng = 3;
	draw(&a, 1000, 1);
	s = kp_diff_metric(&e, &a, KP_M_P99, NULL);
	CHECK(!s.has_change && !s.has_ci && !s.significant && s.p == 1,
	      "empty before");
	s = kp_diff_metric(&a, &e, KP_M_P99, NULL);
	CHECK(s.has_change && s.change == -100 && !s.has_ci &&
	      !s.significant, "empty after");
	s = kp_diff_metric(&e, &a, KP_M_COUNT, NULL);
	CHECK(!s.has_change && s.significant, "count from 0: different");
	kp_fmt_shift(&s, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0 -> 1000  n/a  *"), "'%s'", buf);
	s = kp_diff_metric(&e, &e, KP_M_MEAN, NULL);
	CHECK(!s.has_change && !s.significant && s.before == 0, "both empty");
}

static void test_determinism(void)
{
	struct kp_agg a, b;
	struct kp_shift s1, s2;

	unit_rng = 11;
	draw(&a, 3000, 1);
	draw(&b, 3000, 1.03);
	s1 = kp_diff_metric(&a, &b, KP_M_P99, NULL);
	kp_diff_metric(&a, &b, KP_M_P50, NULL);	/* order does not matter */
	s2 = kp_diff_metric(&a, &b, KP_M_P99, NULL);
	CHECK(!memcmp(&s1.ci_lo, &s2.ci_lo, sizeof(double)) &&
	      !memcmp(&s1.ci_hi, &s2.ci_hi, sizeof(double)),
	      "same CI bits: %a %a / %a %a", s1.ci_lo, s1.ci_hi, s2.ci_lo,
	      s2.ci_hi);
	CHECK(s1.p == s2.p && s1.change == s2.change &&
	      s1.significant == s2.significant, "same shift");
	CHECK(s1.ci_lo < s1.ci_hi, "a real interval: %g %g", s1.ci_lo,
	      s1.ci_hi);
}

/* 200 probes x 8 metrics, with huge counts (normal approximation) too */
static void test_speed(void)
{
	static struct kp_agg a[4], b[4];
	struct timespec t0, t1;
	unsigned int p, i, sig = 0;
	double sec;

	for (i = 0; i < 4; i++) {
		unit_rng = 100 + i;
		draw(&a[i], 100000, 1);
		draw(&b[i], 100000, 1 + 0.05 * i);
	}
	/* a 1e12-call probe: each bucket x 1e7 */
	for (i = 0; i < KPROF_HIST_NR_BUCKETS; i++) {
		a[3].hist[i] *= 10000000;
		b[3].hist[i] *= 10000000;
	}
	a[3].count *= 10000000;
	b[3].count *= 10000000;
	a[3].sum *= 10000000;
	b[3].sum *= 10000000;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	for (p = 0; p < 200; p++)
		for (i = 0; i < KP_M_NR; i++)
			sig += kp_diff_metric(&a[p % 4], &b[p % 4], i,
					      NULL).significant;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	sec = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("200 probes x 8 metrics: %.3f s (%u significant)\n", sec, sig);
	/* under ASan and UBSan at -O1: the -O2 build is several times faster */
	CHECK(sec < 1, "200 x 8 took %.3f s", sec);
	CHECK(kp_diff_metric(&a[3], &b[3], KP_M_P99, NULL).significant &&
	      !kp_diff_metric(&a[0], &b[0], KP_M_P99, NULL).significant,
	      "+15 %% at 1e12 calls found, 0 %% not");
}

/* ---- --fail-if ---------------------------------------------------------- */

static void test_parse(void)
{
	static const struct {
		const char *s, *target;
		enum kp_metric m;
		enum kp_cmp op;
		int rel;
		double pct;
		uint64_t value;
	} ok[] = {
		{ "p99>+10%", "", KP_M_P99, KP_CMP_GT, 1, 10, 0 },
		{ "A76:p99>+5%", "A76", KP_M_P99, KP_CMP_GT, 1, 5, 0 },
		{ "mean>=2ms", "", KP_M_MEAN, KP_CMP_GE, 0, 0, 2000000 },
		{ "count<-1%", "", KP_M_COUNT, KP_CMP_LT, 1, -1, 0 },
		{ "p50>10%", "", KP_M_P50, KP_CMP_GT, 1, 10, 0 },
		{ "p90<=1.5ms", "", KP_M_P90, KP_CMP_LE, 0, 0, 1500000 },
		{ "max>500us", "", KP_M_MAX, KP_CMP_GT, 0, 0, 500000 },
		{ "min<800ns", "", KP_M_MIN, KP_CMP_LT, 0, 0, 800 },
		{ "p999>1s", "", KP_M_P999, KP_CMP_GT, 0, 0, 1000000000 },
		{ "all:P99.9>2.5%", "all", KP_M_P999, KP_CMP_GT, 1, 2.5, 0 },
		{ "a55:count>=1000", "a55", KP_M_COUNT, KP_CMP_GE, 0, 0, 1000 },
		{ " p99 > +10% ", "", KP_M_P99, KP_CMP_GT, 1, 10, 0 },
		{ "p50<0.5us", "", KP_M_P50, KP_CMP_LT, 0, 0, 500 },
		{ "p99>010ms", "", KP_M_P99, KP_CMP_GT, 0, 0, 10000000 },
		{ "mean >= 2 ms", "", KP_M_MEAN, KP_CMP_GE, 0, 0, 2000000 },
		{ "p90<-5 %", "", KP_M_P90, KP_CMP_LT, 1, -5, 0 },
		/* aimed: the target ends at the last ':' */
		{ "kretprobe:x:p99>+10%", "kretprobe:x", KP_M_P99, KP_CMP_GT,
		  1, 10, 0 },
		{ "mydrv_xfer:p99>+10%", "mydrv_xfer", KP_M_P99, KP_CMP_GT, 1,
		  10, 0 },
		{ "-EAGAIN:p50>2us", "-EAGAIN", KP_M_P50, KP_CMP_GT, 0, 0, 2000 },
		{ "kprobe:f+0x10:count<-5%", "kprobe:f+0x10", KP_M_COUNT,
		  KP_CMP_LT, 1, -5, 0 },
	};
	static const struct { const char *s, *msg; } bad[] = {
		{ "", "empty expression" },
		{ "   ", "empty expression" },
		{ "p98>10%", "unknown metric 'p98'" },
		{ "p99", "no operator (>, <, >=, <=) after 'p99'" },
		{ "p99=10%", "no operator (>, <, >=, <=) after 'p99'" },
		{ "p99>", "no value after the operator" },
		{ ">10%", "'>10%': no metric" },
		{ "p99>10", "'10': a value needs a unit (ns, us, ms, s) or % "
			    "for a change" },
		{ "p99>2m", "'2m': unknown unit (ns, us, ms, s)" },
		{ "p99>0x10ms", "'0x10ms': not a base 10 number" },
		{ "p99>ten%", "'ten%': not a base 10 number" },
		{ "p99>1.%", "'1.%': not a base 10 number" },
		{ "p99>-2ms", "'-2ms': only a change (with %) has a sign" },
		{ "count>5ms", "'5ms': count takes a plain number or a change, "
			       "no unit" },
		{ "count>1.5", "'1.5': a count is a whole number" },
		{ ":p99>1%", "nothing before ':' (a probe, function, key or "
			     "cluster)" },
		{ "A 7:p99>1%", "'A 7': a target has no spaces" },
		{ "p99>+1e3%", "'+1e3%': write the number without an exponent" },
		{ "p99>>1%", "'>1%': not a base 10 number" },
		{ "p99>99999999999999999999s", "'99999999999999999999s': too "
					       "many digits" },
		{ "p999>99999999999s", "'99999999999s': too large" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct kp_failif f;
		char err[512] = "";
		int r = kp_failif_parse(ok[i].s, &f, err, sizeof(err));

		CHECK(!r, "'%s' refused: %s", ok[i].s, err);
		CHECK(!strcmp(f.target, ok[i].target) && f.metric == ok[i].m &&
		      f.op == ok[i].op && f.relative == ok[i].rel &&
		      f.pct == ok[i].pct && f.value == ok[i].value,
		      "'%s': target '%s' metric %d op %d rel %d pct %g value %"
		      PRIu64, ok[i].s, f.target, f.metric, f.op, f.relative,
		      f.pct, f.value);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct kp_failif f;
		char err[512] = "";

		CHECK(kp_failif_parse(bad[i].s, &f, err, sizeof(err)) == -1 &&
		      !strcmp(err, bad[i].msg), "'%s': got '%s'", bad[i].s, err);
	}
}

static void test_eval(void)
{
	struct kp_shift s = {
		.metric = KP_M_P99, .before = 6100, .after = 7020,
		.has_change = 1, .change = (7020 - 6100) * 100.0 / 6100,
		.has_ci = 1, .ci_lo = 400, .ci_hi = 1300, .p = 1e-9,
		.significant = 1,
	};
	struct kp_failif f;
	char err[512], why[256], cell[96];

	CHECK(!kp_failif_parse("p99>+10%", &f, err, sizeof(err)), "%s", err);
	CHECK(kp_failif_eval(&f, &s, why, sizeof(why)) == 1 &&
	      !strcmp(why, "p99 6.1us -> 7.02us (+15.1 %) crosses +10%"),
	      "'%s'", why);
	kp_fmt_shift(&s, cell, sizeof(cell));
	CHECK(!strcmp(cell, "6.1us -> 7.02us  +15.1 %  *"), "'%s'", cell);

	/* the same numbers, but noise: a relative gate holds */
	s.significant = 0;
	s.p = 0.2;
	CHECK(kp_failif_eval(&f, &s, why, sizeof(why)) == 0 &&
	      !strcmp(why, "p99 6.1us -> 7.02us (+15.1 %) would cross +10% "
		      "but is not significant (p 0.2)"), "'%s'", why);
	kp_fmt_shift(&s, cell, sizeof(cell));
	CHECK(!strcmp(cell, "6.1us -> 7.02us  +15.1 %"), "'%s'", cell);

	/* an absolute one does not care */
	CHECK(!kp_failif_parse("p99>=7us", &f, err, sizeof(err)), "%s", err);
	CHECK(kp_failif_eval(&f, &s, why, sizeof(why)) == 1 &&
	      !strcmp(why, "p99 6.1us -> 7.02us (+15.1 %) crosses >=7us"),
	      "'%s'", why);
	CHECK(!kp_failif_parse("p99 > 8us", &f, err, sizeof(err)), "%s", err);
	CHECK(kp_failif_eval(&f, &s, why, sizeof(why)) == 0 &&
	      !strcmp(why, "p99 6.1us -> 7.02us (+15.1 %) does not cross 8us"),
	      "'%s'", why);

	/* within the threshold, significant */
	s.significant = 1;
	CHECK(!kp_failif_parse("A76:p99>+20%", &f, err, sizeof(err)), "%s",
	      err);
	CHECK(kp_failif_eval(&f, &s, why, sizeof(why)) == 0 &&
	      !strcmp(why, "p99 6.1us -> 7.02us (+15.1 %) does not cross +20%"),
	      "'%s'", why);

	/* another metric's shift */
	CHECK(!kp_failif_parse("p50>+1%", &f, err, sizeof(err)), "%s", err);
	CHECK(kp_failif_eval(&f, &s, why, sizeof(why)) == 0 &&
	      !strcmp(why, "p50: no p50 figure to compare"), "'%s'", why);

	/* from 0: no relative change */
	s.before = 0;
	s.has_change = 0;
	CHECK(!kp_failif_parse("p99>10%", &f, err, sizeof(err)), "%s", err);
	CHECK(kp_failif_eval(&f, &s, why, sizeof(why)) == 0 &&
	      !strcmp(why, "p99 0ns -> 7.02us (n/a: before is 0) does not "
		      "cross 10%"), "'%s'", why);

	/* count: exact, every difference is significant */
	{
		struct kp_agg a, b;
		unsigned int i;

		agg_init(&a);
		agg_init(&b);
		for (i = 0; i < 1000; i++)
			agg_add(&a, 5000 + i);
		for (i = 0; i < 985; i++)
			agg_add(&b, 5000 + i);
		s = kp_diff_metric(&a, &b, KP_M_COUNT, NULL);
		CHECK(s.significant && s.ci_lo == -15 && s.ci_hi == -15,
		      "count 1000 -> 985");
		CHECK(!kp_failif_parse("count<-1%", &f, err, sizeof(err)), "%s",
		      err);
		CHECK(kp_failif_eval(&f, &s, why, sizeof(why)) == 1 &&
		      !strcmp(why, "count 1000 -> 985 (-1.5 %) crosses <-1%"),
		      "'%s'", why);
		CHECK(!kp_failif_parse("count<=990", &f, err, sizeof(err)),
		      "%s", err);
		CHECK(kp_failif_eval(&f, &s, why, sizeof(why)) == 1 &&
		      !strcmp(why, "count 1000 -> 985 (-1.5 %) crosses <=990"),
		      "'%s'", why);
		kp_fmt_shift(&s, cell, sizeof(cell));
		CHECK(!strcmp(cell, "1000 -> 985  -1.5 %  *"), "'%s'", cell);
	}
}

int main(void)
{
	test_metrics();
	test_mwu_brute();
	test_mwu_ties();
	test_mwu_edges();
	test_identical();
	test_shift();
	test_extremes();
	test_small();
	test_same_distribution();
	test_empty();
	test_determinism();
	test_speed();
	test_parse();
	test_eval();
	return unit_done("test_diffstat");
}
