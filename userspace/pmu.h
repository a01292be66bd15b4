/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMU events and CPU clusters: event names, which core type each CPU is
 * (from sysfs, under a root that tests point at fixture trees), window
 * totals read from the mapping and their rendering.  No ioctl here.
 */
#ifndef KPROFCTL_PMU_H
#define KPROFCTL_PMU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uapi/linux/kprofctl.h"
#include "agg.h"

struct kp_jw;

#define KP_MAX_CPUS	(KPROF_CPUMASK_WORDS * 64)
#define KP_MAX_CLUSTERS	16

struct kp_cluster {
	char name[40];		/* "A76", or the PMU's name */
	char cpus[64];		/* "4-7" */
	char pmu[32];		/* PMU with a cpus list covering it, or "" */
	__u64 mask[KPROF_CPUMASK_WORDS];
};

struct kp_topo {
	unsigned int nr_cpus;
	unsigned int nr_clusters;
	int cluster_of[KP_MAX_CPUS];	/* -1: no such CPU */
	struct kp_cluster cl[KP_MAX_CLUSTERS];
};

/*
 * CPU c's core type from root/sys/devices/system/cpu/cpuC/regs/
 * identification/midr_el1 (A55: part 0xd05, A76: 0xd0b, ...), else the
 * PMU whose cpus list holds it (root/sys/bus/event_source/devices/
 * PMU/cpus), else one cluster "cpu".  root "" is the live system.
 */
void kp_topo_load(struct kp_topo *t, const char *root, unsigned int nr_cpus);

/* $KPROFCTL_SYSFS_ROOT, or "" */
const char *kp_sysfs_root(void);

/*
 * Does PMU pmu (a sysfs name) count event ev?  It does not when its events
 * directory lists PMUv3 common events but not this one (name or number).
 * 1: counts or cannot tell, 0: not counted.
 */
/*
 * What a capture recorded of its machine's PMUs: from then on
 * kp_pmu_counts_event() answers for (pmu, event) from the record, so a
 * file renders as it did where it was saved.
 */
void kp_pmu_counts_record(const char *pmu, const char *event, int counts);
int kp_pmu_counts_event(const char *root, const char *pmu,
			const struct kprof_pmu_event *ev);

/* A probe's PMU block copied out of the mapping under the seqcount. */
struct kp_pmu_snap {
	unsigned int nr_events, nr_cpus;
	struct kprof_pmu_event ev[KPROF_PMU_MAX_EVENTS];
	struct kprof_pmu_count *c;	/* [e * nr_cpus + cpu] */
};

int kp_pmu_snap_read(const struct kp_map *m, const struct kprof_probe_info *r,
		     struct kp_pmu_snap *s);
void kp_pmu_snap_free(struct kp_pmu_snap *s);
int kp_pmu_snap_dup(struct kp_pmu_snap *dst, const struct kp_pmu_snap *src);
/* s -= prev, for interval output */
void kp_pmu_snap_sub(struct kp_pmu_snap *s, const struct kp_pmu_snap *prev);

/*
 * IPC of probe r's calls over the CPUs of mask (NULL: all), from its
 * per-call deltas of cpu_cycles and inst_retired; 0 without them.
 */
int kp_pmu_call_ipc(const struct kp_map *m, const struct kprof_probe_info *r,
		    const struct kp_pmu_snap *s, const __u64 *mask, double *ipc);

/* value scaled by enabled/running when the counter was multiplexed */
uint64_t kp_pmu_scaled(const struct kprof_pmu_count *c);

/* Window totals per CPU and per cluster, with IPC and misses per 1000. */
void kp_pmu_print(FILE *f, const struct kp_pmu_snap *s,
		  const struct kp_topo *t, const char *root, int json);
/* the same as one JSON value written through w (a member's, an element) */
void kp_pmu_json(struct kp_jw *w, const struct kp_pmu_snap *s,
		 const struct kp_topo *t, const char *root);

#endif
