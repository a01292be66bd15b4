/* SPDX-License-Identifier: GPL-2.0 */
/* diff --fail-if: CI gates on the shift of a metric. */
#ifndef KPROFCTL_FAILIF_H
#define KPROFCTL_FAILIF_H

#include <stddef.h>
#include <stdint.h>

#include "diffstat.h"

/* --fail-if '[TARGET:]METRIC OP VALUE' */
enum kp_cmp { KP_CMP_GT, KP_CMP_LT, KP_CMP_GE, KP_CMP_LE };

struct kp_failif {
	/*
	 * What the gate covers, as written: a cluster (A76), a probe (its
	 * spec, id or symbol), a function of a set, a key (-EAGAIN,
	 * EAGAIN); "" for every probe and function (diff-gate.c aims it)
	 */
	char target[256];
	enum kp_metric metric;
	enum kp_cmp op;
	int relative;		/* 1: pct, a change in percent; 0: value */
	double pct;
	uint64_t value;		/* ns, or calls for count */
	char text[32];		/* VALUE as written, for reasons */
};

/* 0, or -1 with what is wrong in err (diff --help shows the forms) */
int kp_failif_parse(const char *s, struct kp_failif *out, char *err,
		    size_t errlen);

/*
 * 1 when s (the same metric) crosses f, else 0; reason gets one line.  A
 * relative threshold is crossed only by a significant shift, so noise
 * never fails a gate; an absolute one whenever the after value is beyond
 * it, significant or not (an objective, not a comparison).  A change
 * from 0 ("n/a") crosses no relative threshold.
 */
int kp_failif_eval(const struct kp_failif *f, const struct kp_shift *s,
		   char *reason, size_t len);

#endif
