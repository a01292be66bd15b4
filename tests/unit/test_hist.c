// SPDX-License-Identifier: GPL-2.0
/* Bucket math of include/kprofctl/hist.h against exact arithmetic. */
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
	static uint64_t hist[KPROF_HIST_NR_BUCKETS];
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
	CHECK(kprof_hist_quantile(v, 0, 50, 100, 0, 0) == 0, "empty is 0");
}

int main(void)
{
	test_buckets();
	test_quantiles();
	return unit_done("hist");
}
