/* SPDX-License-Identifier: GPL-2.0 */
/* diff: two captures' rows and the gates' verdicts printed, text or JSON. */
#ifndef KPROFCTL_DIFF_PRINT_H
#define KPROFCTL_DIFF_PRINT_H

#include <stdio.h>

#include "diff-gate.h"
#include "diff-rows.h"
#include "diffstat.h"

struct kp_capture;

struct kp_diff_opts {
	const struct kp_gate_res *gates;	/* [ngates], judged */
	unsigned int ngates;
	int json;
	int clusters;		/* also each CPU cluster of both */
	int keys;		/* also keys found in both */
	unsigned int top;	/* with keys: the busiest of each probe */
	struct kp_diff_cfg cfg;
};

/*
 * rs (before cb, its file paths[0]; after ca, paths[1]) and the gates
 * into f; 0, or -1 out of memory.
 */
int kp_diff_print(FILE *f, const char *const paths[2],
		  const struct kp_capture *cb, const struct kp_capture *ca,
		  const struct kp_drows *rs, const struct kp_diff_opts *o);

#endif
