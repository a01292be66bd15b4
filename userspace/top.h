/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kprofctl top's engine: rows (probes, and their busiest keys or set
 * functions) with rates and p99 over the last interval, from successive
 * snapshots of a mapping, whatever produces them (the device, a replayed
 * capture, a test's script); plain, JSON and full-screen rendering, and
 * the interactive loop.
 */
#ifndef KPROFCTL_TOP_H
#define KPROFCTL_TOP_H

#include <stdint.h>
#include <stdio.h>

#include "agg.h"
#include "pmu.h"

/* one snapshot: a mapping, its probes, its time */
struct kp_top_src {
	/* 0 ok, 1 no more (end of a replay), -1 error (said on stderr) */
	int (*next)(void *ctx, const struct kp_map **m,
		    const struct kprof_probe_info **recs, unsigned int *n,
		    uint64_t *t_ns);
	void *ctx;
};

enum { KP_TOP_RATE, KP_TOP_TOTAL, KP_TOP_P99, KP_TOP_NAME, KP_TOP_NR_SORTS };

/* keys or functions followed per probe (by calls so far) */
#define KP_TOP_TRACK	256

struct kp_top_opts {
	uint64_t interval_ns;
	uint64_t duration_ns;	/* 0: until quit (or the source ends) */
	unsigned int count;	/* tables to print, 0: no limit */
	int sort;		/* KP_TOP_* */
	int keys;		/* rows of keys/functions under their probe */
	unsigned int nkeys;	/* of them per probe, 0: 5 */
	int clusters;		/* per-cluster rate columns (needs topo) */
	const struct kp_topo *topo;	/* NULL: none */
	int json;
	int interactive;	/* full screen on out, keys from in_fd */
	int in_fd;
	FILE *out;		/* NULL: stdout */
	uint64_t replay_ns;	/* a recording's length: its times are
				 * within it; 0: live, the wall clock
				 */
};

/* a row: a probe (depth 0) or one of its keys/functions (depth 1) */
struct kp_top_row {
	uint32_t id;
	int depth;
	char name[KPROF_SPEC_LEN + 16];	/* "3 kretprobe:f", or a key's label */
	int has_rate;		/* 0: new or restarted, no interval yet */
	int has_lat;		/* the interval had latencies */
	double rate;		/* calls per second over the interval */
	uint64_t count;		/* calls in the interval */
	uint64_t total;		/* calls so far */
	uint64_t p99, mean;	/* over the interval, ns */
	double cl_rate[KP_MAX_CLUSTERS];
	uint64_t cl_count[KP_MAX_CLUSTERS];
	struct kp_top_row *sub;	/* probes: their keys, nsub of them */
	unsigned int nsub;
	uint32_t type;
};

struct kp_top;

struct kp_top *kp_top_new(const struct kp_top_opts *o);
void kp_top_free(struct kp_top *t);

/* Takes a snapshot: the rows' intervals end at t_ns.  0, or -1 (ENOMEM). */
int kp_top_update(struct kp_top *t, const struct kp_map *m,
		  const struct kprof_probe_info *recs, unsigned int n,
		  uint64_t t_ns);

/* The probes' rows of the last snapshot, sorted by t's sort */
unsigned int kp_top_rows(struct kp_top *t, const struct kp_top_row **rows);

void kp_top_set_sort(struct kp_top *t, int sort);
int kp_top_sort(const struct kp_top *t);
const char *kp_top_sort_name(int sort);
int kp_top_sort_parse(const char *s);	/* -1: unknown */

/*
 * The model's state, kept by top.c, read by the table (top-print.c) and
 * the screen (top-tty.c).
 */
/* what a row had at its last snapshot */
struct track {
	uint32_t id, slot;
	unsigned int index;	/* key or function index; probes: 0 */
	char name[KPROF_SPEC_LEN + 16];
	int valid;
	uint64_t t_ns, count, sum;
	__u64 *hist;		/* nb buckets */
	uint64_t cl[KP_MAX_CLUSTERS];
};

/* a probe's track and those of its keys or functions, by index */
struct ptrack {
	struct track self;
	struct track *sub;
	unsigned int nsub;
	int complete;	/* every key/function with calls has a track */
};

struct kp_top {
	struct kp_top_opts o;
	struct ptrack *pt;
	unsigned int npt;
	struct kp_top_row *rows;
	unsigned int nrows;
	uint64_t t_ns, dt_ns;	/* last snapshot, and its interval */
	int snapshots;
	int help;			/* the screen shows the keys ('?') */
	struct kp_agg agg, prev;	/* scratch */
};

/* the screen's size and state */
struct kp_top_view {
	unsigned int rows, cols;
	int paused, ended;
	const char *now;	/* the wall clock, "12:34:56" (live) */
};

/*
 * The screen's lines for v: a heading, then the table fitted to v->cols
 * (the names shortened first, so that the cluster columns stay) and to
 * v->rows (a last line "+N more" for the rows left out), or the keys'
 * help.  Each line to emit, without its newline.
 */
void kp_top_screen(struct kp_top *t, const struct kp_top_view *v,
		   void (*emit)(void *ctx, const char *line), void *ctx);

/* a key pressed on the screen: 1 to quit */
int kp_top_key(struct kp_top *t, char c, int *paused);

/* clusters of the topology (0: none) */
unsigned int kp_top_nr_clusters(const struct kp_top *t);
/* the table's lines, each to emit (no newline) */
void kp_top_table(struct kp_top *t, void (*emit)(void *ctx, const char *line),
		  void *ctx);

/* One table (no control codes), one JSON line */
void kp_top_print(struct kp_top *t, FILE *f);
void kp_top_json(struct kp_top *t, FILE *f);

/*
 * Runs top: a table (or JSON line) per interval, or the interactive
 * screen.  0, 1 on a source's error.
 */
int kp_top_run(const struct kp_top_src *src, const struct kp_top_opts *o);

#endif
