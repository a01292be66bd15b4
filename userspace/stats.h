/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the statistics mapping: header validation, a consistent copy of
 * the probe table (seqcount), per-CPU aggregation and rendering.  Works on
 * any buffer, so the unit tests feed it fake mappings.
 */
#ifndef KPROFCTL_STATS_H
#define KPROFCTL_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uapi/linux/kprofctl.h"

struct kp_map {
	const uint8_t *base;
	size_t size;
	const struct kprof_mmap_header *hdr;
};

struct kp_agg {
	uint64_t count, sum, min, max, drops, unmatched;
	uint64_t events, events_dropped;	/* slow-call events */
	__u64 hist[KPROF_HIST_NR_BUCKETS];	/* the ABI's type */
};

struct kp_topo;

struct kp_show_opts {
	int per_cpu;
	int json;
	int by_cluster;			/* needs topo */
	const struct kp_topo *topo;	/* NULL: no cluster names */
	const char *sysfs_root;		/* for "not counted by this PMU" */
	unsigned int top;	/* pairs, sets: keys (functions) shown, 0 = all */
	const char *key;	/* pairs: only this key (value or name); sets:
				 * only this function, with its histogram
				 */
	const char *sort;	/* sets: count|total|mean|p99|name, NULL: count */
	int nonzero;		/* sets: hide functions never called */
	/* every probe, to mark those sharing a function; NULL: no marks */
	const struct kprof_probe_info *all;
	unsigned int nall;
	/* is this pid gone (a --pid/--tgid filter's)?  NULL: not checked */
	int (*pid_gone)(uint32_t pid);
	FILE *out;		/* kp_show_ids(): NULL is stdout */
	const char *json_extra;	/* JSON: members appended to the object */
	/*
	 * "func+0x1c" of probe r's caller id, NULL when the reader may not
	 * see it (CAP_SYSLOG) or it is unknown; NULL callback: ids only
	 */
	const char *(*caller_name)(void *ctx, const struct kprof_probe_info *r,
				   uint64_t id);
	/*
	 * Frame i ("func+0x1c") of probe r's stack id, NULL past its last
	 * frame or when the reader may not see it; NULL callback: ids only
	 */
	const char *(*stack_frame)(void *ctx, const struct kprof_probe_info *r,
				   uint64_t id, unsigned int i);
	void *caller_ctx;
	int folded;		/* show --folded: 1 counts, 2 total ns */
};

/* a pair probe's published key */
struct kp_key {
	unsigned int index;
	uint64_t value, value2, count;
	uint64_t sortv;		/* --sort's measure */
	char sym[KPROF_MAX_KEYS][128];	/* CALLER keys: the name, if known */
	char name[sizeof(((struct kprof_key *)0)->name) + 1];
};

/*
 * Reading under the header's seqcount (uapi reader protocol): kp_seq_begin
 * waits for an even seq (spinning briefly, then yielding, then sleeping
 * up to 1 ms at a time) and notes seq and generation; after the copy,
 * kp_seq_retry says whether they changed (then copy again).  begin fails
 * only once seq has stayed odd, or kept changing, for KP_SEQ_TIMEOUT_MS
 * since the first begin on s.
 */
#define KP_SEQ_TIMEOUT_MS	3000

struct kp_seq {
	uint32_t seq, gen;
	unsigned int waits;	/* backoff steps so far */
	uint64_t start_ns;	/* 0: not started */
};

int kp_seq_begin(const struct kp_map *m, struct kp_seq *s);
int kp_seq_retry(const struct kp_map *m, struct kp_seq *s);

/* Validates the header of a mapping of size bytes. 0 or -1 + reason. */
int kp_map_init(struct kp_map *m, const void *base, size_t size, char *err,
		size_t errlen);

/*
 * Copies the live probes (id != 0) into out[max] under the seqcount;
 * *n gets their number.  -1 if the table never settles (see kp_seq_begin)
 * or a record is inconsistent with the layout.
 */
int kp_map_probes(const struct kp_map *m, struct kprof_probe_info *out,
		  unsigned int max, unsigned int *n);

/* Sums a probe's per-CPU blocks (cpu < 0: all CPUs). */
void kp_aggregate(const struct kp_map *m, const struct kprof_probe_info *rec,
		  int cpu, struct kp_agg *a);

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
int kp_has_keys(const struct kprof_probe_info *r);
unsigned int kp_pair_keys(const struct kp_map *m,
			  const struct kprof_probe_info *rec, struct kp_key *out);
/* "45", or "253:0" for block devices */
void kp_key_label(const struct kprof_probe_info *rec, const struct kp_key *k,
		  char *buf, size_t len);
int kp_key_match(const struct kprof_probe_info *rec, const struct kp_key *k,
		 const char *want);

uint64_t kp_quantile(const struct kp_agg *a, uint64_t num, uint64_t den);

/* "1.23ms" style, 3-4 significant digits. */
void kp_fmt_ns(uint64_t ns, char *buf, size_t len);

const char *kp_type_name(uint32_t type);
const char *kp_state_name(uint32_t state);
const char *kp_owned_label(const struct kprof_probe_info *r);

/* show's pieces, for the function sets' rendering (sets.c) */
void kp_print_hist(FILE *f, const struct kp_agg *a, const char *unit);
void kp_print_notes(FILE *f, const struct kprof_probe_info *r,
		    const struct kp_show_opts *o, uint64_t count,
		    uint64_t missed);
void kp_print_slow(FILE *f, const char *indent,
		   const struct kprof_probe_info *r, const struct kp_agg *a);

/*
 * Renders recs from one consistent snapshot of the statistics (retried
 * while a reset, add or delete overlaps it; probes deleted since recs were
 * copied are left out).  -1 with a message on stderr if the mapping never
 * settles.
 */
int kp_show(FILE *f, const struct kp_map *m,
	    const struct kprof_probe_info *recs, unsigned int n,
	    const struct kp_show_opts *o);

#endif
