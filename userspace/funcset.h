/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function sets (kprobe:[MOD:]GLOB, kretprobe:[MOD:]GLOB): their function
 * table and per-function statistics in the mapping.
 */
#ifndef KPROFCTL_FUNCSET_H
#define KPROFCTL_FUNCSET_H

#include <stddef.h>
#include <stdint.h>

#include "agg.h"

/* one function of a set, summed over some CPUs */
struct kp_fn {
	unsigned int index;		/* in the set's kprof_func table */
	char name[KPROF_FUNC_NAME_LEN + 1];
	uint32_t flags;			/* KPROF_FUNC_* */
	uint16_t reason;		/* KPROF_SKIP_* */
	int16_t error;
	uint64_t count, sum, min, max;	/* hits: count only */
	uint64_t q[KP_NR_PCTS];		/* kp_pcts' percentiles */
	int wrapped;	/* a CPU's count passed 2^32: buckets may have wrapped */
};

/*
 * Function index of set r over the CPUs of mask (KPROF_CPUMASK_WORDS
 * words, NULL: all), with its percentiles; hist (KPROF_FHIST_NR_BUCKETS,
 * or NULL) gets its merged buckets.
 */
void kp_set_func(const struct kp_map *m, const struct kprof_probe_info *r,
		 unsigned int index, const __u64 *mask, struct kp_fn *fn,
		 __u64 *hist);

/* The function a set's name matches (a truncated name by prefix), or -1 */
int kp_set_find(const struct kp_map *m, const struct kprof_probe_info *r,
		const char *name);
/* Up to max names of set r close to name, ", "-joined into buf */
void kp_set_suggest(const struct kp_map *m, const struct kprof_probe_info *r,
		    const char *name, char *buf, size_t len);
/* Name of function index of set r, read under the seqcount; 0 or -1 */
int kp_set_func_name(const struct kp_map *m, const struct kprof_probe_info *r,
		     uint64_t index, char *buf, size_t len);

/*
 * The skipped functions of set id, from the mapping under the seqcount:
 * up to max into skip (by name; NULL: none), their number into *nskip
 * and the set's function count into *nfuncs.  0, or -1 if id is no set.
 */
int kp_set_skips(const struct kp_map *m, uint32_t id, struct kp_fn *skip,
		 unsigned int max, unsigned int *nskip, unsigned int *nfuncs);

/*
 * A set through ftrace (KPROF_MECH_FTRACE): its functions hooked through
 * kretprobes of their own (KPROF_FUNC_KRETPROBE); 0 for any other set.
 */
unsigned int kp_set_kretprobes(const struct kp_map *m,
			       const struct kprof_probe_info *r);

/* --sort KEY: valid for a set of this type?  (NULL, "count", "name"...) */
int kp_set_sort_ok(uint32_t type, const char *sort);
/* "not traceable by ftrace (...)"; "notrace" etc. for JSON */
void kp_skip_reason(const struct kp_fn *fn, char *buf, size_t len);
const char *kp_skip_name(uint16_t reason);

struct kprof_hist_iter;
/* the iterator over a set's merged buckets (kp_set_func's hist) */
void kp_fhist_iter_init(struct kprof_hist_iter *it, const __u64 *hist);

/* which functions a set's table lists (show's --key, --sort, --nonzero, --top) */
struct kp_set_sel {
	const char *key;	/* only this function (its name), NULL: all */
	const char *sort;	/* count|total|mean|p99|name, NULL: count */
	int nonzero;		/* hide functions never called */
	unsigned int top;	/* the first top rows, 0: all */
};

/*
 * The rows of a set's table: every function not skipped, and skipped
 * ones that counted (__init ones, until their init ended), sorted, after
 * --nonzero, --key and --top.  *nskip gets the skipped ones (all of
 * them, into skip[] when not NULL), *hidden those --nonzero left out.
 * NULL only when out of memory.
 */
struct kp_fn *kp_set_rows(const struct kp_map *m,
			  const struct kprof_probe_info *r,
			 const struct kp_set_sel *o, unsigned int *n,
			 struct kp_fn **skip, unsigned int *nskip,
			 unsigned int *hidden, unsigned int *listed);

#endif
