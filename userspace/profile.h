/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Profiles: a sample probe's stack table (a count per stack id and CPU in
 * the mapping, the stacks' frames through KPROF_IOC_KEY_FRAMES), summed
 * over a set of CPUs (a cluster), as folded stacks, a flame graph or the
 * hottest functions and stacks.
 */
#ifndef KPROFCTL_PROFILE_H
#define KPROFCTL_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include "agg.h"
#include "dev.h"
#include "frames.h"
#include "syms.h"

struct kp_flame;

struct kp_profile {
	struct kprof_probe_info r;
	unsigned int nr_cpus;
	uint32_t nr_ids;		/* ids the table holds */
	int offcpu;			/* an offcpu: probe's waits */
	const char *unit;		/* of weights: "samples", "us" */
	uint64_t *counts;		/* [cpu * nr_ids + id - 1]: samples, waits */
	uint64_t *ns;			/* off-CPU: the waits' nanoseconds */
	struct kp_agg agg;		/* the probe's own stats, every CPU */
	uint64_t samples, dropped;	/* every CPU's; samples counts the
					 * dropped ones too
					 */
	uint64_t *pcs;			/* [(id - 1) * depth + i], NULL: hidden */
	uint32_t depth, nr_pcs_ids;
	int frames_err;			/* KEY_FRAMES' errno (EPERM: no
					 * CAP_SYSLOG), 0: frames read
					 */
	struct kp_syms syms;
	char **names;			/* resolved, like pcs; NULL: not yet */
	/* a capture's names instead of pcs (kp_prof_set_frames) */
	kp_frame_fn *frame;
	void *frame_ctx;
	char buf[64];
};

/*
 * Is r a profile (a sample probe with a stack table, or an offcpu: probe)
 * inside the mapping?
 */
int kp_prof_is(const struct kp_map *m, const struct kprof_probe_info *r);

/*
 * Copies probe r's stack table out of d's mapping and its frames (when
 * the reader may see them).  0, or -1 with why on stderr.
 */
int kp_prof_load(struct kp_dev *d, const struct kprof_probe_info *r,
		 struct kp_profile *p);
/*
 * The same from mapping m (a copy, or a capture's); d NULL: no frames
 * fetched (a capture gives them with kp_prof_set_frames).
 */
int kp_prof_load_map(struct kp_dev *d, const struct kp_map *m,
		     const struct kprof_probe_info *r, struct kp_profile *p);
/* frame(ctx, id, i) names the frames from now on (a capture's names) */
void kp_prof_set_frames(struct kp_profile *p, kp_frame_fn *frame, void *ctx);
void kp_prof_free(struct kp_profile *p);

/* Samples of stack id over the CPUs of mask (NULL: all) */
uint64_t kp_prof_count(const struct kp_profile *p, uint32_t id,
		       const __u64 *mask);
/*
 * What a stack weighs in folded stacks, flame graphs and the report:
 * its samples, or off-CPU its waits' microseconds (over mask)
 */
uint64_t kp_prof_weight(const struct kp_profile *p, uint32_t id,
			const __u64 *mask);
/* Every stack's weight over mask: the cluster's total */
uint64_t kp_prof_total(const struct kp_profile *p, const __u64 *mask);

/*
 * Frame i of stack id, innermost first: a function name (no offset, as
 * frames.h names with KP_FRAME_FUNC), "[user]" then the process ("comm"
 * or "pid N") for a sample in user mode, "[unknown]" for an address no
 * symbol covers; NULL past the last frame or when the frames are hidden.
 * The string lives until the next call.
 */
const char *kp_prof_frame(struct kp_profile *p, uint32_t id, unsigned int i);

/*
 * Folded lines ("outer;...;inner COUNT") over mask, root (a cluster's
 * name, or NULL) as the outermost frame.  Lines written.
 */
unsigned long kp_prof_folded(FILE *f, struct kp_profile *p, const __u64 *mask,
			     const char *root);

/* The stacks over mask into flame graph g; 0, or -1 with why in err */
int kp_prof_flame(struct kp_profile *p, const __u64 *mask, struct kp_flame *g,
		  char *err, size_t errlen);

/* The top functions by own samples, then the top stacks, over mask */
void kp_prof_report(FILE *f, struct kp_profile *p, const __u64 *mask,
		    unsigned int top);

/*
 * Did sample probe r's PMU raise far fewer overflows than the events it
 * counted make at its period (a: its own stats, every CPU)?  1 with why
 * in buf, else 0 (also for :hz=, whose period perf moves).
 */
int kp_sample_late(const struct kprof_probe_info *r, const struct kp_agg *a,
		   char *buf, size_t len);

#endif
