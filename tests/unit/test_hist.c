// SPDX-License-Identifier: GPL-2.0
/*
 * Bucket math of include/kprofctl/hist.h against exact arithmetic, and its
 * bucket iterator and quantiles against brute force over kprof_hist_index.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "kprofctl/hist.h"

static void check_value(uint64_t v)
{
	uint32_t i = kprof_hist_index(v);

	CHECK(i < KPROF_HIST_NR_BUCKETS, "index %u of %llu in range", i,
	      (unsigned long long)v);
	if (v >> KPROF_HIST_MAX_EXP) {
		CHECK(i == KPROF_HIST_OVERFLOW, "%llu overflows",
		      (unsigned long long)v);
		return;
	}
	CHECK(kprof_hist_lower(i) <= v && v < kprof_hist_upper(i),
	      "%llu in [%llu, %llu)", (unsigned long long)v,
	      (unsigned long long)kprof_hist_lower(i),
	      (unsigned long long)kprof_hist_upper(i));
}

static void test_buckets(void)
{
	uint32_t i;
	int k;

	for (i = 0; i < KPROF_HIST_OVERFLOW; i++) {
		uint64_t lo = kprof_hist_lower(i), hi = kprof_hist_upper(i);

		CHECK(hi > lo, "bucket %u not empty", i);
		CHECK(kprof_hist_index(lo) == i && kprof_hist_index(hi - 1) == i,
		      "bucket %u bounds map back", i);
		if (i + 1 < KPROF_HIST_OVERFLOW)
			CHECK(kprof_hist_lower(i + 1) == hi,
			      "bucket %u contiguous", i);
		if (lo >= 16)
			CHECK((hi - lo) * 16 <= lo, "bucket %u width <= lo/16", i);
		else
			CHECK(hi - lo == 1, "bucket %u exact", i);
	}
	CHECK(kprof_hist_lower(KPROF_HIST_OVERFLOW) == 1ULL << KPROF_HIST_MAX_EXP,
	      "overflow starts at 2^42");
	CHECK((1ULL << KPROF_HIST_MAX_EXP) > 3600ULL * 1000000000ULL,
	      "range covers an hour");
	for (k = 0; k < 64; k++) {
		uint64_t p = 1ULL << k;

		check_value(p - 1);
		check_value(p);
		check_value(p + 1);
	}
	check_value(0);
	check_value(15);
	check_value(16);
	check_value(17);
	check_value(UINT64_MAX);
	for (i = 0; i < 1000000; i++)
		check_value(unit_rand() >> (unit_rand() % 64));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* exact rank-ceil(q*n) quantile vs the histogram's */
static void check_quantiles(const char *name, uint64_t *v, size_t n)
{
	static const uint64_t q[][2] = { { 50, 100 }, { 90, 100 }, { 99, 100 },
					 { 999, 1000 }, { 1, 1 }, { 1, 1000 } };
	static __u64 hist[KPROF_HIST_NR_BUCKETS];
	uint64_t min = UINT64_MAX, max = 0;
	size_t i, j;

	memset(hist, 0, sizeof(hist));
	for (i = 0; i < n; i++) {
		hist[kprof_hist_index(v[i])]++;
		if (v[i] < min)
			min = v[i];
		if (v[i] > max)
			max = v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (j = 0; j < sizeof(q) / sizeof(q[0]); j++) {
		size_t rank = (size_t)((n * q[j][0] + q[j][1] - 1) / q[j][1]);
		uint64_t exact, got;
		double err;

		if (rank < 1)
			rank = 1;
		exact = v[rank - 1];
		got = kprof_hist_quantile(hist, n, q[j][0], q[j][1], min, max);
		err = exact ? fabs((double)got - (double)exact) / exact : got;
		CHECK(exact < 32 ? got == exact : err <= 0.032,
		      "%s n=%zu q=%llu/%llu: got %llu exact %llu (%.4f)", name, n,
		      (unsigned long long)q[j][0], (unsigned long long)q[j][1],
		      (unsigned long long)got, (unsigned long long)exact, err);
	}
}

static void test_quantiles(void)
{
	static uint64_t v[200000];
	size_t n, i, t;

	for (t = 0; t < 20; t++) {
		n = 1 + unit_rand() % 200000;
		for (i = 0; i < n; i++)
			v[i] = 1 + unit_rand() % 10000000;
		check_quantiles("uniform", v, n);
		for (i = 0; i < n; i++)	/* log-uniform 1 ns .. 1 h */
			v[i] = (uint64_t)exp((double)(unit_rand() % 1000000) /
					     1000000.0 * log(3.6e12));
		check_quantiles("log-uniform", v, n);
		for (i = 0; i < n; i++)
			v[i] = (unit_rand() & 1) ? 1000 + unit_rand() % 50 :
						   5000000 + unit_rand() % 999;
		check_quantiles("bimodal", v, n);
	}
	for (n = 1; n <= 3; n++) {
		for (i = 0; i < n; i++)
			v[i] = 12345 * (i + 1);
		check_quantiles("tiny", v, n);
	}
	for (i = 0; i < 1000; i++)
		v[i] = 777;
	check_quantiles("constant", v, 1000);
	for (i = 0; i < 1000; i++)
		v[i] = i % 20;
	check_quantiles("small exact", v, 1000);
	memset(v, 0, sizeof(v[0]) * KPROF_HIST_NR_BUCKETS);
	CHECK(kprof_hist_quantile((const __u64 *)v, 0, 50, 100, 0, 0) == 0,
	      "empty is 0");
}

/* 0, 1, 31, 32, 2^k - 1, 2^k, 2^k + 1 for every k, UINT64_MAX */
static size_t edge_values(uint64_t *v)
{
	size_t n = 0;
	int k;

	v[n++] = 0;
	v[n++] = 1;
	v[n++] = 31;
	v[n++] = 32;
	for (k = 1; k < 64; k++) {
		v[n++] = (1ULL << k) - 1;
		v[n++] = 1ULL << k;
		v[n++] = (1ULL << k) + 1;
	}
	v[n++] = UINT64_MAX;
	return n;
}

/*
 * The iterator over hist (filled from v[0..n)) visits exactly the buckets
 * that brute force over kprof_hist_index finds non-empty, in index order,
 * with their bounds, counts and running totals.  hist is exactly
 * NR_BUCKETS long on the heap, so ASan catches a walk past its end.
 */
static void check_iter(const char *name, const uint64_t *v, size_t n)
{
	__u64 *hist = calloc(KPROF_HIST_NR_BUCKETS, sizeof(*hist));
	struct kprof_hist_iter it;
	uint64_t cum = 0, want;
	uint32_t b = 0, visits = 0, bad = 0;
	size_t i;

	if (!hist)
		abort();
	for (i = 0; i < n; i++)
		hist[kprof_hist_index(v[i])]++;
	kprof_hist_for_each(&it, hist) {
		/* the next non-empty bucket by brute force: count its values */
		for (want = 0; b < KPROF_HIST_NR_BUCKETS; b++) {
			for (i = 0; i < n; i++)
				want += kprof_hist_index(v[i]) == b;
			if (want)
				break;
		}
		visits++;
		cum += want;
		if (it.idx != b || it.count != want || it.cum != cum) {
			bad++;
			CHECK(0, "%s: visit %u: bucket/count/cum %u/%llu/%llu, want %u/%llu/%llu",
			      name, visits, it.idx, (unsigned long long)it.count,
			      (unsigned long long)it.cum, b,
			      (unsigned long long)want, (unsigned long long)cum);
			break;
		}
		/* bounds: exactly the values kprof_hist_index puts here */
		if (kprof_hist_index(it.lower) != b ||
		    (it.lower && kprof_hist_index(it.lower - 1) != b - 1) ||
		    (b < KPROF_HIST_OVERFLOW &&
		     (kprof_hist_index(it.upper - 1) != b ||
		      kprof_hist_index(it.upper) != b + 1)) ||
		    (b == KPROF_HIST_OVERFLOW && it.upper != UINT64_MAX)) {
			bad++;
			CHECK(0, "%s: bucket %u bounds [%llu, %llu)", name, b,
			      (unsigned long long)it.lower,
			      (unsigned long long)it.upper);
		}
		for (i = 0; i < n; i++)
			if (kprof_hist_index(v[i]) == b &&
			    (v[i] < it.lower ||
			     (b < KPROF_HIST_OVERFLOW && v[i] >= it.upper)))
				bad++;
		b++;
	}
	/* no non-empty bucket left unvisited */
	for (i = 0; i < n; i++)
		if (kprof_hist_index(v[i]) >= b)
			bad++;
	CHECK(!bad, "%s: %u buckets visited in order, bounds and counts exact",
	      name, visits);
	CHECK(cum == n && it.cum == n && kprof_hist_total(hist) == n,
	      "%s: total %llu (iterator %llu, kprof_hist_total %llu)", name,
	      (unsigned long long)n, (unsigned long long)it.cum,
	      (unsigned long long)kprof_hist_total(hist));
	free(hist);
}

/*
 * Every quantile lands in the bucket of the exact rank-ceil(q*n) value of
 * the sorted data: the midpoint of that bucket, clamped to [min, max],
 * stays inside it.  Sorts v.
 */
static void check_quantile_bucket(const char *name, uint64_t *v, size_t n)
{
	static __u64 hist[KPROF_HIST_NR_BUCKETS];
	uint64_t min = UINT64_MAX, max = 0, q;
	unsigned int bad = 0;
	size_t i;

	memset(hist, 0, sizeof(hist));
	for (i = 0; i < n; i++) {
		hist[kprof_hist_index(v[i])]++;
		if (v[i] < min)
			min = v[i];
		if (v[i] > max)
			max = v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (q = 0; q <= 1000; q++) {
		size_t rank = (size_t)((n * q + 999) / 1000);
		uint64_t exact, got;

		if (rank < 1)
			rank = 1;
		exact = v[rank - 1];
		got = kprof_hist_quantile(hist, n, q, 1000, min, max);
		if (kprof_hist_index(got) != kprof_hist_index(exact) ||
		    got < min || got > max) {
			if (!bad)
				CHECK(0, "%s n=%zu q=%llu/1000: got %llu exact %llu",
				      name, n, (unsigned long long)q,
				      (unsigned long long)got,
				      (unsigned long long)exact);
			bad++;
		}
	}
	CHECK(!bad, "%s n=%zu: 1001 quantiles in the exact value's bucket (%u off)",
	      name, n, bad);
}

static void test_iter(void)
{
	static uint64_t v[3000], edges[256];
	size_t n, i, t, ne = edge_values(edges);
	uint32_t b;

	check_iter("empty", v, 0);
	n = edge_values(v);
	check_iter("edges", v, n);
	check_quantile_bucket("edges", v, n);
	v[0] = 0;
	check_iter("bucket 0 only", v, 1);
	v[0] = UINT64_MAX;
	v[1] = 1ULL << 63;
	check_iter("overflow only", v, 2);
	check_quantile_bucket("overflow only", v, 2);
	for (b = 0; b < KPROF_HIST_NR_BUCKETS; b++)
		v[b] = kprof_hist_lower(b) + (b & 1);
	check_iter("every bucket", v, KPROF_HIST_NR_BUCKETS);
	check_quantile_bucket("every bucket", v, KPROF_HIST_NR_BUCKETS);
	/* brute force is O(buckets x n): many small sets, a few large */
	for (t = 0; t < 150; t++) {
		n = 1 + unit_rand() % (t < 100 ? 40 : 3000);
		for (i = 0; i < n; i++)
			v[i] = unit_rand() % 4 ? unit_rand() >> (unit_rand() % 64) :
						 edges[unit_rand() % ne];
		check_iter("random", v, n);
		check_quantile_bucket("random", v, n);
	}
}

int main(void)
{
	test_buckets();
	test_quantiles();
	test_iter();
	return unit_done("hist");
}
