/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Log-linear histogram bucket math, shared verbatim by the kernel module
 * (hot path: kprof_hist_index) and userspace (bounds, quantiles, tests).
 * Shifts and one find-last-set only: no division, no floating point.
 */
#ifndef KPROF_HIST_H
#define KPROF_HIST_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/bitops.h>
typedef u64 kprof_u64;
typedef u32 kprof_u32;
/* 1-based index of the most significant set bit; v != 0 */
#define kprof_fls64(v)	fls64(v)
#else
#include <stdint.h>
typedef uint64_t kprof_u64;
typedef uint32_t kprof_u32;
#define kprof_fls64(v)	(64 - __builtin_clzll(v))
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
 * Value reported for quantile q = num/den over hist[0..NR_BUCKETS): the
 * midpoint of the bucket holding the ceil(q * total)-th smallest sample,
 * clamped to [min, max] of the data when they are known (min <= max).
 * Returns 0 for an empty histogram.
 */
static inline kprof_u64 kprof_hist_quantile(const kprof_u64 *hist,
					    kprof_u64 total,
					    kprof_u64 num, kprof_u64 den,
					    kprof_u64 min, kprof_u64 max)
{
	kprof_u64 rank, seen = 0, lo, hi, mid;
	kprof_u32 i;

	if (!total || !den)
		return 0;
	/* rank = ceil(total * num / den) without overflowing for sane q */
	rank = total / den * num + ((total % den) * num + den - 1) / den;
	if (rank < 1)
		rank = 1;
	if (rank > total)
		rank = total;
	for (i = 0; i < KPROF_HIST_NR_BUCKETS; i++) {
		seen += hist[i];
		if (seen >= rank)
			break;
	}
	if (i >= KPROF_HIST_NR_BUCKETS)
		i = KPROF_HIST_OVERFLOW;
	lo = kprof_hist_lower(i);
	hi = kprof_hist_upper(i);
	if (i == KPROF_HIST_OVERFLOW)
		mid = lo;
	else
		mid = lo + ((hi - lo - 1) >> 1);
	if (min <= max) {
		if (mid < min)
			mid = min;
		if (mid > max)
			mid = max;
	}
	return mid;
}

#endif /* KPROF_HIST_H */
