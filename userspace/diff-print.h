/* SPDX-License-Identifier: GPL-2.0 */
/* diff: two captures compared and printed, text or JSON, with gates. */
#ifndef KPROFCTL_DIFF_PRINT_H
#define KPROFCTL_DIFF_PRINT_H

#include <stdio.h>

#include "diffstat.h"
#include "failif.h"

struct kp_capture;

struct kp_diff_opts {
	const struct kp_failif *gates;	/* [ngates], on every probe's total */
	const char *const *gate_text;	/* as given, for JSON's "expr" */
	unsigned int ngates;
	int json;
	int clusters;		/* also each CPU cluster of both */
	int keys;		/* also keys and functions found in both */
	unsigned int top;	/* with keys: the busiest of each probe */
	struct kp_diff_cfg cfg;
};

/*
 * before cb (its file paths[0]) and after ca (paths[1]) compared into f;
 * the number of gates crossed, or -1 after a message on stderr.
 */
int kp_diff_print(FILE *f, const char *const paths[2],
		  const struct kp_capture *cb, const struct kp_capture *ca,
		  const struct kp_diff_opts *o);

#endif
