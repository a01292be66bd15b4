/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU statistics summed: a probe's own, a key's, a PMU event's
 * per-call deltas; a pair's published keys; quantiles.
 */
#ifndef KPROFCTL_AGG_H
#define KPROFCTL_AGG_H

#include <stddef.h>
#include <stdint.h>

#include "map.h"

struct kp_agg {
	uint64_t count, sum, min, max, drops, unmatched;
	uint64_t events, events_dropped;	/* slow-call events */
	__u64 hist[KPROF_HIST_NR_BUCKETS];	/* the ABI's type */
};

/* a pair probe's published key */
struct kp_key {
	unsigned int index;
	uint64_t value, value2, count;
	uint64_t sortv;		/* --sort's measure */
	char sym[KPROF_MAX_KEYS][128];	/* CALLER keys: the name, if known */
	char name[sizeof(((struct kprof_key *)0)->name) + 1];
};

/* Sums a probe's per-CPU blocks (cpu < 0: all CPUs). */
void kp_aggregate(const struct kp_map *m, const struct kprof_probe_info *rec,
		  int cpu, struct kp_agg *a);

/* A keyed probe's own block alone: its drops, not its rows' counts */
void kp_aggregate_own(const struct kp_map *m,
		      const struct kprof_probe_info *rec, int cpu,
		      struct kp_agg *a);
/* A pair's key (key == nr_keys: "other keys"), or all of it with drops. */
void kp_aggregate_key(const struct kp_map *m,
		      const struct kprof_probe_info *rec, unsigned int key,
		      int cpu, struct kp_agg *a);
void kp_aggregate_pair(const struct kp_map *m,
		       const struct kprof_probe_info *rec, int cpu,
		       struct kp_agg *a);

/*
 * Sums the CPUs in mask (KPROF_CPUMASK_WORDS words) of a probe's own
 * statistics (key < 0, event < 0), a pair's key, or a PMU event's
 * per-call deltas (event >= 0).
 */
void kp_aggregate_mask(const struct kp_map *m,
		       const struct kprof_probe_info *rec, int key, int event,
		       const __u64 *mask, struct kp_agg *a);

/* Per-call deltas of PMU event e of a kretprobe (cpu < 0: all CPUs). */
void kp_aggregate_pmu(const struct kp_map *m, const struct kprof_probe_info *r,
		      unsigned int e, int cpu, struct kp_agg *a);

/* Published keys of a pair into out[nr_keys], by count, descending. */
unsigned int kp_pair_keys(const struct kp_map *m,
			  const struct kprof_probe_info *rec, struct kp_key *out);
/* "45", or "253:0" for block devices */
void kp_key_label(const struct kprof_probe_info *rec, const struct kp_key *k,
		  char *buf, size_t len);
int kp_key_match(const struct kprof_probe_info *rec, const struct kp_key *k,
		 const char *want);

/*
 * The percentiles printed, the one list: text names p99.9 "p99.9", JSON
 * keys and diff's metrics "p999".  Printers with room for fewer print
 * the named subsets below, never a list of their own.
 */
struct kp_pct {
	unsigned int num, den;
	const char *name;	/* in text */
	const char *key;	/* in JSON keys ("p999_ns") and metric names */
};

enum { KP_P50, KP_P90, KP_P99, KP_P999, KP_NR_PCTS };
extern const struct kp_pct kp_pcts[KP_NR_PCTS];
/* a table row's: p50 and p99 */
#define KP_NR_PCTS_BRIEF	2
extern const unsigned int kp_pcts_brief[KP_NR_PCTS_BRIEF];

/*
 * show's --sort keys, the one table: option parsing and its messages
 * (cmd-show.c, show.c) and the sorters of a probe's keys (show-keys.c)
 * and of a set's functions (funcset.c).  All but name sort descending.
 */
enum { KP_SORT_COUNT, KP_SORT_TOTAL, KP_SORT_MEAN, KP_SORT_P99,
       KP_SORT_NAME, KP_NR_SORTS };

struct kp_sort_key {
	const char *name;
	int pct;		/* by percentile kp_pcts[pct]; -1: none */
	unsigned int latency:1;	/* needs latencies: not for hit counts */
	unsigned int keys:1;	/* sorts a probe's keys, not only sets */
};
extern const struct kp_sort_key kp_sort_keys[KP_NR_SORTS];

/* NULL: KP_SORT_COUNT, the default; -1: no key of that name */
int kp_sort_parse(const char *name);
/*
 * "count, total, mean, p99 or name": the keys, only those that sort keys
 * (keys_only) and need no latencies (hits)
 */
void kp_sort_list(char *buf, size_t len, int keys_only, int hits);
/*
 * Key k's measure (0 for name) of count calls summing sum; q holds
 * kp_pcts' percentiles, of which only q[kp_sort_keys[k].pct] is read.
 */
uint64_t kp_sort_measure(int k, uint64_t count, uint64_t sum,
			 const uint64_t *q);

/*
 * Every quantile of a histogram (kprof_hist_iter_quantile, clamped to the
 * data's min and max), by kp_quantile of a sum's full buckets or by
 * kp_quantile_buckets of the first nb: a set's compact histogram, top's
 * deltas.  diff's bootstrap reports a resampled rank's bucket unclamped
 * (diffstat.c's bucket_value says why).
 */
uint64_t kp_quantile(const struct kp_agg *a, uint64_t num, uint64_t den);
uint64_t kp_quantile_buckets(const __u64 *h, unsigned int nb, uint64_t num,
			     uint64_t den, uint64_t min, uint64_t max);
/* percentile i of kp_pcts */
uint64_t kp_pct_value(const struct kp_agg *a, unsigned int i);

#endif
