/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What show prints and how: the options every printer of the statistics
 * (show-text.c, show-json.c, show-set.c, show.c) takes.
 */
#ifndef KPROFCTL_SHOW_OPTS_H
#define KPROFCTL_SHOW_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uapi/linux/kprofctl.h"
#include "agg.h"
#include "frames.h"

struct kp_jw;
struct kp_profile;
struct kp_prom_opts;
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
	/* JSON: members written after "probes" (run's "followed") */
	void (*json_more)(struct kp_jw *w, const void *ctx);
	const void *json_more_ctx;
	/*
	 * "func+0x1c" of probe r's caller id (i 0), frame i of its stack
	 * id, NULL when the reader may not see it (CAP_SYSLOG), it is
	 * unknown or past the last frame; NULL callback: ids only
	 */
	kp_frame_fn *caller_name;
	kp_frame_fn *stack_frame;
	void *caller_ctx;
	int folded;		/* show --folded: 1 counts, 2 total ns */
	struct kp_prom_opts *prom;	/* export, serve: metrics (prom.c) */
	/*
	 * JSON: probe r's stack table and frames into *p (kp_src_profile),
	 * 0 or -1; NULL: a profile's stacks are left out
	 */
	int (*profile)(void *ctx, const struct kprof_probe_info *r,
		       struct kp_profile *p);
	void *profile_ctx;
};

#endif
