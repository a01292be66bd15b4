/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kprofctl report: one self-contained HTML page (no network, no external
 * font, script or image) from data already loaded: per probe the
 * histogram and percentiles per cluster, a latency heatmap of a recorded
 * series, a diff table and flame graphs.  Data in, HTML out, no I/O
 * besides the FILE it writes.
 */
#ifndef KPROFCTL_REPORT_H
#define KPROFCTL_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "agg.h"

/* heatmap rows at most: buckets are merged by powers of two above this */
#define KP_REP_MAX_ROWS		64

/* one cluster's distribution: "all", "A55 (cpu 0-3)" */
struct kp_rep_hist {
	const char *label;
	const struct kp_agg *agg;
};

/* a recorded series: interval i covers [t0 + i * dt, t0 + (i + 1) * dt) */
struct kp_rep_series {
	uint64_t t0_ns, dt_ns;
	unsigned int n;
	const struct kp_agg *iv;	/* n deltas: the calls ended in each */
};

/* a row of kprofctl diff: the strings as diff prints them */
struct kp_rep_diffrow {
	const char *metric;		/* "p99", "A76 p99" */
	const char *before, *after, *change;
	int significant;
	int direction;			/* 1 worse (slower), -1 better, 0 neither */
};

/* a set's function or a probe's key: one row of its table */
struct kp_rep_row {
	const char *label;		/* "mydrv_xfer", "-ETIMEDOUT (-110)" */
	uint64_t count;
	uint64_t sum, p50, p99, max;	/* ns, for a probe that times calls */
	const char *change;		/* p99 against BEFORE: "+15.1 %", "new";
					 * NULL in every row: no such column
					 */
	int direction, significant;	/* as a diff row's */
};

struct kp_rep_probe {
	const char *title;		/* "probe 1  kretprobe:mydrv_xfer" */
	unsigned int id;		/* the probe's: its anchor, #probe-ID */
	const char *spec;		/* for the summary; NULL: the title */
	int latency;			/* 0: hit counts only, no histogram */
	const char *counts;		/* !latency: what it counts, e.g. "Hits
					 * (a kprobe counts calls, it times
					 * nothing)"
					 */
	unsigned int nrows;		/* a set's functions or the keys */
	const struct kp_rep_row *rows;
	const char *rows_title;		/* "Functions", "Keys by retval" */
	uint64_t rows_count;		/* !nh: the calls, for the summary */
	unsigned int nh;
	const struct kp_rep_hist *h;
	const struct kp_rep_series *series;	/* NULL: none */
	unsigned int ndiff;		/* 0: no diff */
	const struct kp_rep_diffrow *diff;
	const char *diff_against;	/* the other capture's name */
	unsigned int nflame;		/* standalone SVGs of kp_flame_svg() */
	const char *const *flame_svg;
	const char *const *flame_label;	/* NULL, or nflame labels */
};

struct kp_rep {
	const char *title;
	unsigned int nctx;		/* context: kernel, machine, window */
	const char *const *ctx_key, *const *ctx_val;
	unsigned int n;
	const struct kp_rep_probe *p;
};

/* The page into f: 0, or -1 when a write failed */
int kp_report_html(FILE *f, const struct kp_rep *r);

/*
 * Heatmap rows: bucket index idx goes to row idx / merge - first / merge
 * (first: the lowest non-empty index of the series), merge being the
 * smallest power of two (1..16) that keeps the rows at KP_REP_MAX_ROWS
 * or fewer.  Rows are whole sub-bucket groups: a merge of 16 makes one
 * row per power of two.  Returns merge; *rows gets their number (0 for
 * an empty series).
 */
unsigned int kp_rep_merge(unsigned int first, unsigned int last,
			  unsigned int *rows);

/* s for HTML text or a quoted attribute; a kernel address is hidden */
void kp_rep_esc(FILE *f, const char *s);

/* the page's tables (report-tables.c); pi: the probe's index in the page */
void kp_rep_summary(FILE *f, const struct kp_rep *r);
void kp_rep_pct_table(FILE *f, const struct kp_rep_probe *p, unsigned int pi);
void kp_rep_rows(FILE *f, const struct kp_rep_probe *p, unsigned int pi);
void kp_rep_diff_table(FILE *f, const struct kp_rep_probe *p, unsigned int pi);
/* <td data-q="q" data-ns="v">1.2us</td> */
void kp_rep_td_ns(FILE *f, const char *q, uint64_t v);

#endif
