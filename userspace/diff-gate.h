/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diff's gates: each --fail-if aimed at the rows it covers (diff-rows.h)
 * and judged on each, including the rows AFTER lost or left silent.
 */
#ifndef KPROFCTL_DIFF_GATE_H
#define KPROFCTL_DIFF_GATE_H

#include <stddef.h>

#include "diff-rows.h"
#include "diffstat.h"
#include "failif.h"

struct kp_gate_cfg {
	int allow_missing;	/* a covered row gone or silent in AFTER */
	int allow_mismatch;	/* a covered row not comparable */
	struct kp_diff_cfg cfg;
};

/* one covered row's verdict */
struct kp_gate_row {
	const struct kp_drow *w;
	int has_shift;		/* 0: a side is missing, s unused */
	struct kp_shift s;
	int fail;
	char reason[600];
};

struct kp_gate_res {
	const struct kp_failif *g;
	const char *expr;	/* as given */
	struct kp_gate_row *v;
	unsigned int n;
	int fail;		/* any row failed, or it covers nothing */
};

/*
 * Does g cover anything of rs?  0, or -1 with why into err (a target
 * that names nothing in either capture, a metric its rows do not have).
 */
int kp_gate_aim(const struct kp_failif *g, const struct kp_drows *rs,
		char *err, size_t len);

/* g judged on every row of rs it covers into res; 0, or -1 (memory) */
int kp_gate_eval(const struct kp_failif *g, const char *expr,
		 const struct kp_drows *rs, const struct kp_gate_cfg *cfg,
		 struct kp_gate_res *res);
void kp_gate_res_free(struct kp_gate_res *res);

/* is a cluster of that name (any case) in both captures' rows? */
int kp_gate_is_cluster(const struct kp_drows *rs, const char *name);

#endif
