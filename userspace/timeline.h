/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A recording (record -i) as a timeline: per probe and interval the calls
 * that ended in it, their rate and percentiles, and each CPU's share
 * (timeline.c, the model); written as Chrome/Perfetto Trace Event Format
 * JSON by timeline-json.c, which Perfetto UI, chrome://tracing and
 * speedscope open.
 */
#ifndef KPROFCTL_TIMELINE_H
#define KPROFCTL_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#include "uapi/linux/kprofctl.h"

struct kp_capture;

/* One probe in one interval */
struct kp_tl_cell {
	uint64_t count;
	uint64_t p50_ns, p99_ns, max_ns;	/* latency probes with calls */
	uint64_t *cpu_count;			/* [nr_cpus] */
};

struct kp_tl_probe {
	uint32_t id;
	int latency;			/* a latency histogram, else hits */
	char spec[KPROF_SPEC_LEN];
	struct kp_tl_cell *cell;	/* [nr_iv] */
};

/* A slow call: [t0_ns, t0_ns + dur_ns] on its task's lane */
struct kp_tl_slow {
	uint64_t t0_ns, dur_ns;		/* cut at the recording's start */
	uint64_t latency_ns;
	uint32_t probe, cpu, pid, tgid;
	uint32_t lane;			/* its task's calls overlap: 1, 2.. */
	uint32_t ftrace;		/* what it did to ftrace */
	const char *spec;		/* the probe's, in struct kp_timeline */
	char comm[16];
};

struct kp_timeline {
	unsigned int nr_iv, nr_probes, nr_cpus;
	uint64_t *t0_ns, *dt_ns;	/* [nr_iv], since the recording began */
	uint64_t end_ns;		/* the last interval's end */
	struct kp_tl_probe *p;		/* [nr_probes], in the capture's order */
	struct kp_tl_slow *slow;	/* [nr_slow], by task, lane, start */
	unsigned int nr_slow;
	int has_slow;			/* the recording listened for them */
	uint64_t slow_lost;
	char kernel[128], machine[128], created[40];
};

/* c's series as a timeline; 0, or -1 with why (no series, no memory) */
int kp_timeline_build(struct kp_timeline *tl, const struct kp_capture *c,
		      char *err, size_t len);
void kp_timeline_free(struct kp_timeline *tl);
/* tl as one Trace Event Format object; 0, or -1 on a write error */
int kp_timeline_write(const struct kp_timeline *tl, FILE *f);
/*
 * The recording in file from as a trace in out (NULL or "-": stdout), for
 * timeline and record --timeline; 0, or 1 after saying why as cmd
 */
int kp_timeline_convert(const char *cmd, const char *from, const char *out);

#endif
