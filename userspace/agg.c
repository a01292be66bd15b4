// SPDX-License-Identifier: GPL-2.0
/*
 * Sums of a probe's per-CPU blocks: its own statistics, a pair's or
 * keyed probe's keys, a kretprobe's PMU deltas; the published keys, their
 * labels, and quantiles of a sum.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "spec.h"
#include "kprofctl/hist.h"

static void add_blocks(const struct kp_map *m, uint64_t off, int cpu,
		       struct kp_agg *a)
{
	const struct kprof_mmap_header *h = m->hdr;
	unsigned int c;

	for (c = 0; c < h->nr_cpus; c++) {
		const struct kprof_cpu_stats *st;
		struct kprof_hist_iter it;
		uint64_t count, min;

		if (cpu >= 0 && (unsigned int)cpu != c)
			continue;
		st = (const void *)(m->base + off + (uint64_t)c * h->cpu_stride);
		/* count first: the buckets it counts are then all visible */
		count = __atomic_load_n(&st->count, __ATOMIC_ACQUIRE);
		a->count += count;
		a->sum += __atomic_load_n(&st->sum, __ATOMIC_RELAXED);
		a->drops += __atomic_load_n(&st->drops, __ATOMIC_RELAXED);
		a->unmatched += __atomic_load_n(&st->unmatched, __ATOMIC_RELAXED);
		a->events += __atomic_load_n(&st->events, __ATOMIC_RELAXED);
		a->events_dropped += __atomic_load_n(&st->events_dropped,
						     __ATOMIC_RELAXED);
		min = __atomic_load_n(&st->min, __ATOMIC_RELAXED);
		if (count && min < a->min)
			a->min = min;
		if (st->max > a->max)
			a->max = st->max;
		kprof_hist_for_each(&it, st->hist)
			a->hist[it.idx] += it.count;
	}
}

static void agg_init(struct kp_agg *a)
{
	memset(a, 0, sizeof(*a));
	a->min = UINT64_MAX;
}

/* nothing recorded a latency (no calls, or a count-only kprobe) */
static void agg_done(struct kp_agg *a)
{
	if (a->min == UINT64_MAX || !a->count)
		a->min = 0;
}

/*
 * A probe added with keys records each call in its key's row only (the
 * pair layout): its own row has the slow-call counts, and the total is
 * every row's.
 */
static void add_key_rows(const struct kp_map *m,
			 const struct kprof_probe_info *rec, int cpu,
			 struct kp_agg *a)
{
	unsigned int k;

	for (k = 0; rec->key_rec_size && k <= rec->nr_keys; k++)
		add_blocks(m, rec->key_stats_off + k * rec->key_stride, cpu, a);
}

void kp_aggregate(const struct kp_map *m, const struct kprof_probe_info *rec,
		  int cpu, struct kp_agg *a)
{
	agg_init(a);
	add_blocks(m, rec->stats_off, cpu, a);
	add_key_rows(m, rec, cpu, a);
	agg_done(a);
}

void kp_aggregate_own(const struct kp_map *m,
		      const struct kprof_probe_info *rec, int cpu,
		      struct kp_agg *a)
{
	agg_init(a);
	add_blocks(m, rec->stats_off, cpu, a);
	agg_done(a);
}

void kp_aggregate_key(const struct kp_map *m,
		      const struct kprof_probe_info *rec, unsigned int key,
		      int cpu, struct kp_agg *a)
{
	agg_init(a);
	if (kp_has_keys(rec) && key <= rec->nr_keys)
		add_blocks(m, rec->key_stats_off + key * rec->key_stride, cpu, a);
	agg_done(a);
}

static uint64_t pmu_off(const struct kp_map *m,
		       const struct kprof_probe_info *r, unsigned int e)
{
	const struct kprof_mmap_header *h = m->hdr;

	return h->pmus_off + (uint64_t)(r->pmu_block - 1) * h->pmu_stride +
	       h->pmu_stats_off + (uint64_t)e * h->nr_cpus * h->cpu_stride;
}

void kp_aggregate_pmu(const struct kp_map *m, const struct kprof_probe_info *r,
		      unsigned int e, int cpu, struct kp_agg *a)
{
	agg_init(a);
	if (r->pmu_block && e < KPROF_PMU_MAX_EVENTS)
		add_blocks(m, pmu_off(m, r, e), cpu, a);
	agg_done(a);
}

void kp_aggregate_mask(const struct kp_map *m,
		       const struct kprof_probe_info *rec, int key, int event,
		       const __u64 *mask, struct kp_agg *a)
{
	uint64_t off = rec->stats_off;
	unsigned int c;

	agg_init(a);
	if (event >= 0) {
		if (!rec->pmu_block || event >= KPROF_PMU_MAX_EVENTS)
			goto out;
		off = pmu_off(m, rec, (unsigned int)event);
	} else if (key >= 0) {
		if (!kp_has_keys(rec) || (unsigned int)key > rec->nr_keys)
			goto out;
		off = rec->key_stats_off + (uint64_t)key * rec->key_stride;
	}
	for (c = 0; c < m->hdr->nr_cpus && c < KPROF_CPUMASK_WORDS * 64; c++) {
		if (!((mask[c / 64] >> (c % 64)) & 1))
			continue;
		add_blocks(m, off, (int)c, a);
		if (event < 0 && key < 0)
			add_key_rows(m, rec, (int)c, a);
	}
out:
	agg_done(a);
}

void kp_aggregate_pair(const struct kp_map *m,
		       const struct kprof_probe_info *rec, int cpu,
		       struct kp_agg *a)
{
	unsigned int k;

	agg_init(a);
	add_blocks(m, rec->stats_off, cpu, a);	/* drops, unmatched */
	for (k = 0; k <= rec->nr_keys; k++)
		add_blocks(m, rec->key_stats_off + k * rec->key_stride, cpu, a);
	agg_done(a);
}

static int key_cmp(const void *x, const void *y)
{
	const struct kp_key *a = x, *b = y;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

unsigned int kp_pair_keys(const struct kp_map *m,
			  const struct kprof_probe_info *rec, struct kp_key *out)
{
	unsigned int k, n = 0;

	if (!kp_has_keys(rec))
		return 0;
	for (k = 0; k < rec->nr_keys; k++) {
		uint64_t off = rec->key_stats_off + k * rec->key_stride;
		const struct kprof_key2 *key = (const void *)(m->base +
			rec->keys_off + k * kp_key_rec_size(rec));
		unsigned int c;

		if (!(__atomic_load_n(&key->flags, __ATOMIC_ACQUIRE) &
		      KPROF_KEY_USED))
			continue;
		out[n].index = k;
		out[n].value = key->value;
		/* pairs' records end before value2 */
		out[n].value2 = rec->key_rec_size ? key->value2 : 0;
		memcpy(out[n].name, key->name, sizeof(out[n].name) - 1);
		out[n].name[sizeof(out[n].name) - 1] = '\0';
		/* the count alone orders keys; buckets only for those shown */
		out[n].count = 0;
		for (c = 0; c < m->hdr->nr_cpus; c++) {
			const struct kprof_cpu_stats *st = (const void *)(m->base +
				off + (uint64_t)c * m->hdr->cpu_stride);

			out[n].count += __atomic_load_n(&st->count,
							__ATOMIC_RELAXED);
		}
		n++;
	}
	qsort(out, n, sizeof(*out), key_cmp);
	return n;
}

/* what names key j's value: a caller's symbol, else the record's name */
static const char *key_name(const struct kprof_probe_info *rec,
			    const struct kp_key *k, unsigned int j)
{
	if (KPROF_KEYSPEC_KIND(rec->key[j]) == KPROF_KEY_CALLER)
		return k->sym[j];
	return k->name;
}

void kp_key_label(const struct kprof_probe_info *rec, const struct kp_key *k,
		  char *buf, size_t len)
{
	char a[64], b[64];

	if (rec->key_rec_size) {
		kp_keyval_format(rec->key[0], k->value, key_name(rec, k, 0), a,
				 sizeof(a));
		if (!rec->key[1]) {
			snprintf(buf, len, "%s", a);
			return;
		}
		kp_keyval_format(rec->key[1], k->value2, key_name(rec, k, 1), b,
				 sizeof(b));
		snprintf(buf, len, "%s, %s", a, b);
		return;
	}
	if (!strcmp(rec->spec, "pair:block"))
		snprintf(buf, len, "%" PRIu64 ":%" PRIu64, k->value >> 20,
			 k->value & 0xfffff);
	else
		snprintf(buf, len, "%" PRIu64, k->value);
}

int kp_key_match(const struct kprof_probe_info *rec, const struct kp_key *k,
		 const char *want)
{
	char label[KP_KEY_LABEL];

	size_t n = strlen(want);

	kp_key_label(rec, k, label, sizeof(label));
	if (!strcmp(want, label) || (k->name[0] && !strcmp(want, k->name)))
		return 1;
	/* a caller by its function's name alone */
	if (rec->key_rec_size && !rec->key[1] && k->sym[0][0] && n &&
	    !strncmp(k->sym[0], want, n) && k->sym[0][n] == '+')
		return 1;
	/* one key: its value as written, or an errno's name */
	if (rec->key_rec_size && !rec->key[1])
		return kp_keyval_match(rec->key[0], k->value, want);
	/* "fn" matches a module function's "fn [mod]" */
	return n && !strncmp(k->name, want, n) && !strncmp(k->name + n, " [", 2);
}

const struct kp_pct kp_pcts[KP_NR_PCTS] = {
	[KP_P50] = { 50, 100, "p50", "p50" },
	[KP_P90] = { 90, 100, "p90", "p90" },
	[KP_P99] = { 99, 100, "p99", "p99" },
	[KP_P999] = { 999, 1000, "p99.9", "p999" },
};

const unsigned int kp_pcts_brief[KP_NR_PCTS_BRIEF] = { KP_P50, KP_P99 };

const struct kp_sort_key kp_sort_keys[KP_NR_SORTS] = {
	[KP_SORT_COUNT] = { "count", -1, 0, 1 },
	[KP_SORT_TOTAL] = { "total", -1, 1, 1 },
	[KP_SORT_MEAN] = { "mean", -1, 1, 1 },
	[KP_SORT_P99] = { "p99", KP_P99, 1, 1 },
	[KP_SORT_NAME] = { "name", -1, 0, 0 },
};

int kp_sort_parse(const char *name)
{
	int i;

	if (!name)
		return KP_SORT_COUNT;
	for (i = 0; i < KP_NR_SORTS; i++)
		if (!strcmp(name, kp_sort_keys[i].name))
			return i;
	return -1;
}

void kp_sort_list(char *buf, size_t len, int keys_only, int hits)
{
	const char *pick[KP_NR_SORTS];
	size_t used = 0;
	int i, n = 0;

	for (i = 0; i < KP_NR_SORTS; i++)
		if ((!keys_only || kp_sort_keys[i].keys) &&
		    (!hits || !kp_sort_keys[i].latency))
			pick[n++] = kp_sort_keys[i].name;
	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 !i ? "" : i == n - 1 ? " or " : ", ",
					 pick[i]);
}

uint64_t kp_sort_measure(int k, uint64_t count, uint64_t sum,
			 const uint64_t *q)
{
	switch (k) {
	case KP_SORT_COUNT:
		return count;
	case KP_SORT_TOTAL:
		return sum;
	case KP_SORT_MEAN:
		return count ? sum / count : 0;
	}
	return k >= 0 && k < KP_NR_SORTS && kp_sort_keys[k].pct >= 0 ?
	       q[kp_sort_keys[k].pct] : 0;
}

uint64_t kp_quantile_buckets(const __u64 *h, unsigned int nb, uint64_t num,
			     uint64_t den, uint64_t min, uint64_t max)
{
	struct kprof_hist_iter it;
	uint64_t total;

	/* the buckets, not a count beside them, define what is ranked */
	kprof_hist_iter_init(&it, h);
	it.nr = nb;
	while (kprof_hist_iter_next(&it))
		;
	total = it.cum;
	kprof_hist_iter_init(&it, h);
	it.nr = nb;
	return kprof_hist_iter_quantile(&it, total, num, den, min, max);
}

uint64_t kp_quantile(const struct kp_agg *a, uint64_t num, uint64_t den)
{
	return kp_quantile_buckets(a->hist, KPROF_HIST_NR_BUCKETS, num, den,
				   a->min, a->max);
}

uint64_t kp_pct_value(const struct kp_agg *a, unsigned int i)
{
	return kp_quantile(a, kp_pcts[i].num, kp_pcts[i].den);
}
