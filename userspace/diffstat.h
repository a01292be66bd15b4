/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics of `kprofctl diff`: a metric of two struct kp_agg, its change,
 * whether the change is beyond noise, and the --fail-if gate.
 *
 * Assumptions: calls are independent draws of one distribution per side;
 * a value is known only to its histogram bucket (1/16 of a power of two,
 * include/kprofctl/hist.h), so values in one bucket are ties.  Two tests:
 * Mann-Whitney U on the buckets (did the distribution move?) and a Poisson
 * bootstrap of the metric (by how much, with a confidence interval).  A
 * shift is significant when both agree (see kp_diff_metric).
 */
#ifndef KPROFCTL_DIFFSTAT_H
#define KPROFCTL_DIFFSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "agg.h"

enum kp_metric {
	KP_M_COUNT, KP_M_MEAN, KP_M_MIN, KP_M_MAX,
	KP_M_P50, KP_M_P90, KP_M_P99, KP_M_P999,
	KP_M_NR
};

/* "p99" (any case; "p99.9" is p999) -> 0 and *m, or -1 */
int kp_metric_parse(const char *name, enum kp_metric *m);
const char *kp_metric_name(enum kp_metric m);
/* ns (mean: sum / count, rounded down), or calls for count; 0 if empty */
uint64_t kp_metric_value(const struct kp_agg *a, enum kp_metric m);

/*
 * Two-sided Mann-Whitney U of after against before over the buckets, in
 * O(buckets): u is after's U (pairs with after > before, ties half), mu
 * and sigma its mean and tie-corrected deviation under no shift, z the
 * continuity-corrected score, p the normal approximation's p-value (1
 * when a side is empty or all values tie).
 */
struct kp_mwu {
	long double u, mu, sigma;
	double z, p;
};

void kp_mwu(const __u64 *before, const __u64 *after, struct kp_mwu *r);

#define KP_DIFF_ALPHA		0.01
#define KP_DIFF_RESAMPLES	1000
#define KP_DIFF_LEVEL		0.95
#define KP_DIFF_SEED		0x6b70726f66637466ULL

/* zero fields (or a NULL cfg) take the defaults above */
struct kp_diff_cfg {
	double alpha;		/* significance level of the MWU p-value */
	unsigned int resamples;	/* bootstrap resamples B */
	double level;		/* confidence level of the interval */
	uint64_t seed;		/* bootstrap PRNG seed */
};

struct kp_shift {
	enum kp_metric metric;
	uint64_t before, after;	/* kp_metric_value() of each side */
	int has_change;		/* 0: before is 0, the change is "n/a" */
	double change;		/* (after - before) / before, percent */
	int has_ci;		/* 0: too few calls for an interval */
	double ci_lo, ci_hi;	/* interval of after - before (ns, calls) */
	double ci_lo_pct, ci_hi_pct;	/* the same in percent of before */
	double p;		/* MWU p-value, from every bucket */
	int significant;
};

/*
 * The shift of metric m from before to after.  The interval of after -
 * before at cfg's level: for the quantiles, min and max a percentile
 * interval of B Poisson bootstrap resamples per side, at bucket
 * resolution (bucket midpoints); for mean the normal approximation
 * around the exact means (sum / count) with variances from the buckets;
 * for count none is needed: counts are exact, [d, d].  significant: p <
 * alpha and the interval excludes 0; for count, before != after.  The
 * same inputs give the same bits, whatever was computed before.
 * 200 probes x 8 metrics take about 0.2 s.
 */
struct kp_shift kp_diff_metric(const struct kp_agg *before,
			       const struct kp_agg *after, enum kp_metric m,
			       const struct kp_diff_cfg *cfg);

/*
 * The bootstrap's interval is at bucket resolution (midpoints), while
 * show's quantiles are clamped to the exact min and max: widened to hold
 * the change printed next to it.
 */
void kp_diff_widen(struct kp_shift *s);

/*
 * The diff table's cell: "6.1us -> 7.02us  +15.1 %  *" (* when
 * significant; "n/a" when before is 0; plain numbers for count).
 */
void kp_fmt_shift(const struct kp_shift *s, char *buf, size_t len);
/* its parts: a value of metric m ("6.1us", or calls), the change ("+15.1 %") */
void kp_fmt_metric(enum kp_metric m, uint64_t v, char *buf, size_t len);
void kp_fmt_change(const struct kp_shift *s, char *buf, size_t len);

#endif
