/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building a mapping in the module's layout from a capture's probes: a
 * plan per probe, then the buffer filled (map-build.c), for capture-read.c.
 */
#ifndef KPROFCTL_MAP_BUILD_H
#define KPROFCTL_MAP_BUILD_H

#include <stdint.h>

#include "capture-get.h"
#include "map.h"

/* where a probe's parts go in the mapping being built */
struct plan {
	struct json_object *o;
	struct kprof_probe_info r;
	uint64_t rec_size;		/* key records */
};

struct build {
	unsigned int n, max_slot, nr_pmus;
	struct plan *p;
	uint64_t size;			/* bytes so far */
};

struct layout {
	uint64_t probes_off, stats_off, probe_stride, pmus_off, pmu_stride;
	uint32_t pmu_counts_off, pmu_stats_off;
	unsigned int max_probes, nr_pmus;
	uint64_t size;
};

int kp_plan_probe(struct rd *x, struct build *b, struct plan *p);
int kp_build_map(struct rd *x, const struct layout *l, struct build *b,
		 struct json_object *a, int full, uint32_t abi_minor,
		     void **out, struct kp_map *m, struct kprof_probe_info **recs,
		     unsigned int *n);

/*
 * b's size grows by len (aligned, within kp_capture_max_bytes) and *off
 * gets where it starts; a * b into *out unless it overflows.  0, or -1
 * after kp_rd_bad().  The macros check that the outputs are 64-bit.
 */
int kp_reserve_(struct rd *x, struct build *b, uint64_t len, void *off);
int kp_mul_ok_(struct rd *x, uint64_t a, uint64_t b, void *out);
#define kp_reserve(x, b, len, off) \
	kp_reserve_(x, b, len, off + 0 * sizeof(char[sizeof(*(off)) == 8 ? 1 : -1]))
#define kp_mul_ok(x, a, b, out) \
	kp_mul_ok_(x, a, b, out + 0 * sizeof(char[sizeof(*(out)) == 8 ? 1 : -1]))

#endif
