/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Log-linear histogram bucket math, shared verbatim by the kernel module
 * (hot path: kprof_hist_index) and userspace (bounds, quantiles, tests).
 * Shifts and one find-last-set only: no division, no floating point.
 * Every walk over buckets goes through struct kprof_hist_iter.
 */
#ifndef KPROF_HIST_H
#define KPROF_HIST_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/compiler.h>
typedef u64 kprof_u64;
typedef u32 kprof_u32;
/* 1-based index of the most significant set bit; v != 0 (no zero case) */
#if BITS_PER_LONG == 64
#define kprof_fls64(v)	(__fls(v) + 1)
#else
#define kprof_fls64(v)	fls64(v)
#endif
/* buckets may be counting while they are walked: one untorn load each */
#define kprof_hist_load(p)	READ_ONCE(*(p))
#else
#include <stdbool.h>
#include <stdint.h>
typedef uint64_t kprof_u64;
typedef uint32_t kprof_u32;
#define kprof_fls64(v)	(64 - __builtin_clzll(v))
#define kprof_hist_load(p)	__atomic_load_n(p, __ATOMIC_RELAXED)
#endif

#include "../../uapi/linux/kprofctl.h"

#define KPROF_HIST_SUB		(1U << KPROF_HIST_SUB_BITS)

/*
 * With s = max(fls(v) - 5, 0), v >> s has 5 significant bits: it is below
 * 32, and for s > 0 it is at least 16, so (s << 4) + (v >> s) numbers the
 * linear buckets 0..31 and then 16 sub-buckets per power of two, with no
 * branch.  Everything from 2^MAX_EXP up lands at or past the overflow
 * index and is clamped to it.
 */
static inline kprof_u32 kprof_hist_index(kprof_u64 v)
{
	kprof_u32 s = kprof_fls64(v | (2 * KPROF_HIST_SUB - 1)) -
		      (KPROF_HIST_SUB_BITS + 1);
	kprof_u64 idx = ((kprof_u64)s << KPROF_HIST_SUB_BITS) + (v >> s);

	return idx < KPROF_HIST_OVERFLOW ? (kprof_u32)idx : KPROF_HIST_OVERFLOW;
}

/* Smallest value that lands in bucket idx (idx <= KPROF_HIST_OVERFLOW). */
static inline kprof_u64 kprof_hist_lower(kprof_u32 idx)
{
	kprof_u32 grp = idx >> KPROF_HIST_SUB_BITS;
	kprof_u32 sub = idx & (KPROF_HIST_SUB - 1);

	if (grp == 0)
		return idx;
	/* grp g >= 1 covers [2^(g+SUB_BITS-1), 2^(g+SUB_BITS)) */
	return ((kprof_u64)(KPROF_HIST_SUB + sub)) << (grp - 1);
}

/*
 * One past the largest value in bucket idx.  The overflow bucket is
 * unbounded; report UINT64_MAX for it.
 */
static inline kprof_u64 kprof_hist_upper(kprof_u32 idx)
{
	if (idx >= KPROF_HIST_OVERFLOW)
		return ~(kprof_u64)0;
	return kprof_hist_lower(idx + 1);
}

/*
 * A latency set's compact histogram (struct kprof_func_hist): the same
 * buckets up to KPROF_FHIST_NR_BUCKETS - 1, which takes everything above.
 */
static inline kprof_u32 kprof_fhist_index(kprof_u64 v)
{
	kprof_u32 idx = kprof_hist_index(v);

	return idx < KPROF_FHIST_NR_BUCKETS - 1 ? idx :
						  KPROF_FHIST_NR_BUCKETS - 1;
}

/*
 * The one way to walk a histogram, full (__u64 x KPROF_HIST_NR_BUCKETS) or
 * compact (__u32 x KPROF_FHIST_NR_BUCKETS): each non-empty bucket in index
 * order, with its bounds [lower, upper) (upper is UINT64_MAX for the last,
 * overflow bucket), its count and the running total up to and including
 * it.  Each bucket is loaded once, so the figures agree with each other
 * even while the buckets are counting.  After the walk, cum is the
 * histogram's total.
 */
struct kprof_hist_iter {
	const __u64 *hist;	/* full histogram, or NULL */
	const __u32 *hist32;	/* compact histogram, or NULL */
	kprof_u32 nr;		/* buckets; the last one is the overflow */
	kprof_u32 next;		/* next index to look at */
	kprof_u32 idx;		/* the current bucket */
	kprof_u64 lower, upper, count, cum;
};

static inline void kprof_hist_iter_init(struct kprof_hist_iter *it,
					const __u64 *hist)
{
	it->hist = hist;
	it->hist32 = 0;
	it->nr = KPROF_HIST_NR_BUCKETS;
	it->next = 0;
	it->idx = 0;
	it->lower = 0;
	it->upper = 0;
	it->count = 0;
	it->cum = 0;
}

static inline void kprof_fhist_iter_init(struct kprof_hist_iter *it,
					 const __u32 *hist)
{
	kprof_hist_iter_init(it, 0);
	it->hist32 = hist;
	it->nr = KPROF_FHIST_NR_BUCKETS;
}

/* Moves to the next non-empty bucket; false once there is none. */
static inline bool kprof_hist_iter_next(struct kprof_hist_iter *it)
{
	while (it->next < it->nr) {
		kprof_u32 i = it->next++;
		kprof_u64 n = it->hist ? kprof_hist_load(&it->hist[i]) :
					 kprof_hist_load(&it->hist32[i]);

		if (!n)
			continue;
		it->idx = i;
		it->count = n;
		it->cum += n;
		it->lower = kprof_hist_lower(i);
		it->upper = i + 1 < it->nr ? kprof_hist_upper(i) :
					      ~(kprof_u64)0;
		return true;
	}
	return false;
}

#define kprof_hist_for_each(it, h)					\
	for (kprof_hist_iter_init(it, h); kprof_hist_iter_next(it);)

/* Sum of all buckets. */
static inline kprof_u64 kprof_hist_total(const __u64 *hist)
{
	struct kprof_hist_iter it;

	kprof_hist_iter_init(&it, hist);
	while (kprof_hist_iter_next(&it))
		;
	return it.cum;
}

/* ceil(total * num / den) within [1, total], not overflowing for sane q */
static inline kprof_u64 kprof_hist_rank(kprof_u64 total, kprof_u64 num,
					kprof_u64 den)
{
	kprof_u64 rank = total / den * num +
			 ((total % den) * num + den - 1) / den;

	if (rank < 1)
		rank = 1;
	return rank > total ? total : rank;
}

/*
 * What a value known only to be in bucket [lower, upper) reports: the
 * midpoint, or the overflow bucket's lower bound (it has no upper one).
 */
static inline kprof_u64 kprof_hist_mid(kprof_u64 lower, kprof_u64 upper,
				       bool overflow)
{
	return overflow ? lower : lower + ((upper - lower - 1) >> 1);
}

/*
 * Value reported for quantile q = num/den over the histogram @it walks
 * (freshly initialised): the midpoint of the bucket holding the
 * ceil(q * total)-th smallest sample, clamped to [min, max] of the data
 * when they are known (min <= max).  Returns 0 for an empty histogram.  A
 * rank in, or past, the overflow bucket reports its lower bound.
 */
static inline kprof_u64 kprof_hist_iter_quantile(struct kprof_hist_iter *it,
						 kprof_u64 total,
						 kprof_u64 num, kprof_u64 den,
						 kprof_u64 min, kprof_u64 max)
{
	kprof_u64 rank, mid;
	bool found = false;

	if (!total || !den)
		return 0;
	rank = kprof_hist_rank(total, num, den);
	while (kprof_hist_iter_next(it)) {
		if (it->cum >= rank) {
			found = true;
			break;
		}
	}
	if (!found)
		mid = kprof_hist_lower(it->nr - 1);
	else
		mid = kprof_hist_mid(it->lower, it->upper,
				     it->idx == it->nr - 1);
	if (min <= max) {
		if (mid < min)
			mid = min;
		if (mid > max)
			mid = max;
	}
	return mid;
}

/* The same over a full histogram hist[0..KPROF_HIST_NR_BUCKETS). */
static inline kprof_u64 kprof_hist_quantile(const __u64 *hist,
					    kprof_u64 total,
					    kprof_u64 num, kprof_u64 den,
					    kprof_u64 min, kprof_u64 max)
{
	struct kprof_hist_iter it;

	kprof_hist_iter_init(&it, hist);
	return kprof_hist_iter_quantile(&it, total, num, den, min, max);
}

#endif /* KPROF_HIST_H */
