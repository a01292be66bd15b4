/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics as Prometheus metrics: the text exposition format 0.0.4
 * or OpenMetrics 1.0 text, for export and serve.  One family per kind of
 * figure, kprofctl_ prefixed, in seconds; latencies as histograms whose
 * le edges are kprofctl's own buckets.
 */
#ifndef KPROFCTL_PROM_H
#define KPROFCTL_PROM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uapi/linux/kprofctl.h"

struct kp_map;
struct kp_show_opts;

/* the default of --max-series: series per family */
#define KP_PROM_MAX_SERIES	10000

struct kp_prom_opts {
	int openmetrics;		/* OpenMetrics 1.0 text, else 0.0.4 */
	unsigned int max_series;	/* per family; 0: no limit */
	/* kprofctl_info's labels (kp_src_context) */
	const char *kernel, *machine, *module_abi;
	const char *cmd;		/* "export": messages on stderr */
	unsigned int cut;		/* out: series left out, all families */
};

/* "text/plain; version=0.0.4..." or OpenMetrics' media type */
const char *kp_prom_content_type(int openmetrics);

/*
 * Label value s escaped for the exposition (backslash, double quote and
 * newline) into buf; cut short, never mid-escape, when len is too small.
 */
void kp_prom_escape(const char *s, char *buf, size_t len);

/*
 * ns nanoseconds as seconds, exactly ("0.000032767", "1.5", "0"): read
 * back as a double and times 1e9 rounded it is ns again.
 */
void kp_prom_seconds(uint64_t ns, char *buf, size_t len);

/*
 * Every family of recs[n] (probes of m, a consistent copy) to f, as
 * o->prom says; the families cut by max_series are named on stderr and in
 * kprofctl_export_series_cut.  0, or -1 when out of memory.
 */
int kp_prom_write(FILE *f, const struct kp_map *m,
		  const struct kprof_probe_info *recs, unsigned int n,
		  const struct kp_show_opts *o);

#endif
