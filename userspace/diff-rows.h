/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diff's model: what two captures hold, paired row by row (a probe's
 * total, a function of a set, a key, on every CPU or a cluster), with
 * what one side only has and why a pair cannot be compared.
 */
#ifndef KPROFCTL_DIFF_ROWS_H
#define KPROFCTL_DIFF_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "agg.h"

struct kp_capture;

enum kp_drow_kind { KP_DROW_PROBE, KP_DROW_FUNC, KP_DROW_KEY };

/* where one side's row is in its capture; c NULL: not in it */
struct kp_dside {
	const struct kp_capture *c;
	const struct kprof_probe_info *r;
	unsigned int index;	/* function or key index */
	uint64_t count;		/* its calls */
	struct kp_key k;	/* a key's value and names */
};

struct kp_drow {
	char spec[KPROF_SPEC_LEN];
	char name[160];		/* function or key label; "" for the total */
	char cluster[40];	/* "" for every CPU */
	int cl;			/* cluster index + 1, 0 for every CPU */
	enum kp_drow_kind kind;
	int latency;		/* 0: counts only */
	unsigned int rank;	/* a key's place in its probe, busiest first */
	char mismatch[272];	/* why the two cannot be compared, or "" */
	struct kp_dside s[2];	/* 0: before, 1: after */
};

struct kp_drows {
	struct kp_drow *v;
	unsigned int n, max;
};

/*
 * The rows of cb (before) and ca (after), paired: after's order, then
 * what before only has; with clusters also each cluster's.  0, or -1
 * (out of memory).
 */
int kp_drows_build(struct kp_drows *rs, const struct kp_capture *cb,
		   const struct kp_capture *ca, int clusters);
void kp_drows_free(struct kp_drows *rs);

/* side 0 or 1 of w summed into a (zeroed when w is not there) */
void kp_drow_agg(const struct kp_drow *w, int side, struct kp_agg *a);

/* "SPEC", "SPEC  function F", "SPEC  key K", then "  on CLUSTER" */
void kp_drow_label(const struct kp_drow *w, char *buf, size_t len);

/* does w match a gate's target (probe spec, id or symbol, function, key)? */
int kp_drow_match(const struct kp_drow *w, const char *target);

#endif
