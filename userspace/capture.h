/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Captures: every probe's statistics saved as one versioned JSON file
 * (userspace/kprofctl-capture.schema.json), and read back into a mapping
 * laid out as the module lays out its own, so that show, diff, top and
 * report render a file through the code that renders the live device.
 * Frames are saved as names (never addresses), and only when the saving
 * user could read them.  Reading uses json-c.
 */
#ifndef KPROFCTL_CAPTURE_H
#define KPROFCTL_CAPTURE_H

#include <stdint.h>
#include <stdio.h>

#include "pmu.h"
#include "agg.h"
#include "map-copy.h"

#define KP_CAPTURE_FORMAT	"kprofctl-capture"
#define KP_CAPTURE_VERSION	1

struct kp_dev;

/* What a capture adds to a probe's mapping record. */
struct kp_cap_probe {
	uint32_t id;
	int pid_gone;		/* its --pid/--tgid process had exited */
	int frames_err;		/* 0: names saved (if any); else why not */
	uint32_t depth;		/* names per stack id */
	uint32_t nr_callers, nr_stacks;
	char **callers;		/* [id - 1]: a caller key's name, or NULL */
	char **stacks;		/* [(id - 1) * depth + i]: frames, or NULL */
};

/* One interval of a recorded series: what it added, as a mapping. */
struct kp_cap_interval {
	uint64_t t_ns;		/* its end, since the recording started */
	uint64_t dt_ns;		/* its length */
	void *buf;
	struct kp_map m;
	struct kprof_probe_info *recs;
	unsigned int n;
};

/* One slow call a recording heard (record, with probes added --slow) */
struct kp_cap_slow {
	uint64_t t_ns;		/* its return, since the recording started */
	uint64_t latency_ns;
	uint32_t probe, cpu, pid, tgid;
	uint32_t ftrace;	/* what it did to ftrace (KPROF_GENL_FT_*) */
	char comm[16];
};

struct kp_capture {
	char kernel[128], machine[128], arch[32], created[40], cli[32];
	uint32_t abi_major, abi_minor, nr_cpus;
	uint64_t window_ns;		/* how long the probes counted, 0: unknown */
	struct kp_topo topo;
	void *buf;			/* the statistics, as a mapping */
	struct kp_map m;
	struct kprof_probe_info *recs;	/* its probes, in slot order */
	unsigned int n;
	struct kp_cap_probe *p;		/* [n], same order */
	struct kp_cap_interval *iv;	/* record -i's series, or NULL */
	unsigned int nr_iv;
	uint64_t interval_ns;
	int has_slow;			/* the recording heard slow calls */
	struct kp_cap_slow *slow;	/* [nr_slow], by t_ns */
	unsigned int nr_slow;
	uint64_t slow_lost;		/* queued in the module, never heard */
};

/*
 * A recording in progress: the copy of the mapping at the last snapshot
 * and the intervals so far (their JSON, sparse).
 */
struct kp_recorder {
	void *prev;
	size_t size;
	uint64_t t0_ns, prev_ns, interval_ns;
	void *intervals;		/* json-c array */
	unsigned int n;
	int has_slow;			/* kp_rec_slow() was called */
	struct kp_cap_slow *slow;	/* owned */
	size_t nr_slow;
	uint64_t slow_lost;
};

int kp_rec_init(struct kp_recorder *r, const struct kp_map *m, uint64_t now,
		uint64_t interval_ns);
/* One snapshot: the interval since the last; 0, or -1 (out of memory) */
int kp_rec_snap(struct kp_recorder *r, const struct kp_map *m, uint64_t now);
/* The slow calls heard (ev malloc'ed, now r's) and how many were not */
void kp_rec_slow(struct kp_recorder *r, struct kp_cap_slow *ev, size_t n,
		 uint64_t lost);
void kp_rec_free(struct kp_recorder *r);

/*
 * Saves d's probes (all, or ids[nids]) with the context to path ("-":
 * stdout).  window_ns: how long they counted, 0 if unknown; rec: a
 * recording's intervals, or NULL.  0, or 1 after a message on stderr.
 */
/*
 * save's and record's ID operands: the probes named (*ids malloc'ed, *n
 * of them), each of which must name a probe of the mapping; 0, or the
 * exit code after why
 */
int kp_cap_parse_ids(const char *cmd, int argc, char **argv, uint32_t **ids,
		     unsigned int *n);
int kp_cap_ids_exist(struct kp_dev *d, const char *cmd, const uint32_t *ids,
		     unsigned int n);

int kp_capture_save(const char *path, struct kp_dev *d, const uint32_t *ids,
		    unsigned int nids, uint64_t window_ns,
		    const struct kp_recorder *rec);

/*
 * Reads a capture from path ("-": stdin).  0, or -1 with why in err (a
 * file that is not a capture, truncated, corrupt, of another version).
 */
int kp_capture_load(struct kp_capture *c, const char *path, char *err,
		    size_t errlen);
/* The same from a buffer of len bytes (the fuzzer's entry). */
int kp_capture_parse(struct kp_capture *c, const char *text, size_t len,
		     char *err, size_t errlen);
void kp_capture_free(struct kp_capture *c);
/* what a capture may make the reader allocate per mapping (tests lower it) */
extern size_t kp_capture_max_bytes;

/* this machine's model (device tree), else its DMI product, else "" */
void kp_machine_model(char *buf, size_t len);

/* A device stand-in for the readers of a mapping: c's, no descriptor. */
void kp_dev_from_capture(struct kp_dev *d, const struct kp_capture *c);

/* The capture's record of probe id, or NULL. */
const struct kp_cap_probe *kp_cap_probe(const struct kp_capture *c,
					uint32_t id);
/* A caller key's name, frame i of a stack id: NULL if not saved */
const char *kp_cap_caller(const struct kp_capture *c, uint32_t probe,
			  uint64_t id);
const char *kp_cap_frame(const struct kp_capture *c, uint32_t probe,
			 uint64_t id, unsigned int i);
/* kp_cap_frame for kp_prof_set_frames(), ctx the capture */
const char *kp_cap_frame_cb(void *ctx, const struct kprof_probe_info *r,
			    uint64_t id,
			    unsigned int i);

#endif
