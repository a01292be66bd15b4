/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMU event names, shared by the module and the CLI so that both resolve
 * a name the same way.  arm64 counts the ARMv8 PMUv3 common event number
 * as a raw event; elsewhere the closest generic perf hardware event is
 * used (x86 has no direct counterpart for some, see "approx").
 */
#ifndef KPROF_PMU_EVENTS_H
#define KPROF_PMU_EVENTS_H

#include <linux/perf_event.h>

#define KPROF_HW_CACHE(cache, op, result)				\
	((cache) | ((op) << 8) | ((result) << 16))

/* what derived figures an event feeds */
#define KPROF_PMU_KIND_CYCLES	1
#define KPROF_PMU_KIND_INSTR	2
#define KPROF_PMU_KIND_MISS	3	/* reported per 1000 instructions */
#define KPROF_PMU_KIND_OTHER	4

struct kprof_pmu_def {
	const char *name;	/* as in /sys/bus/event_source/.../events */
	const char *alias;	/* perf-style, or NULL */
	unsigned int arm;	/* PMUv3 common event number */
	unsigned int x86_type;	/* PERF_TYPE_HARDWARE or PERF_TYPE_HW_CACHE */
	unsigned long long x86_config;
	unsigned int kind;
};

static const struct kprof_pmu_def kprof_pmu_defs[] = {
	{ "cpu_cycles", "cycles", 0x11, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CPU_CYCLES, KPROF_PMU_KIND_CYCLES },
	{ "inst_retired", "instructions", 0x08, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_INSTRUCTIONS, KPROF_PMU_KIND_INSTR },
	{ "l1d_cache", NULL, 0x04, PERF_TYPE_HW_CACHE,
	  KPROF_HW_CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
			 PERF_COUNT_HW_CACHE_RESULT_ACCESS), KPROF_PMU_KIND_OTHER },
	{ "l1d_cache_refill", NULL, 0x03, PERF_TYPE_HW_CACHE,
	  KPROF_HW_CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
			 PERF_COUNT_HW_CACHE_RESULT_MISS), KPROF_PMU_KIND_MISS },
	/* x86 approx: L2 misses are the last-level cache's references */
	{ "l2d_cache_refill", NULL, 0x17, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES, KPROF_PMU_KIND_MISS },
	{ "br_mis_pred", "branch-misses", 0x10, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_MISSES, KPROF_PMU_KIND_MISS },
	{ "stall_frontend", NULL, 0x23, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, KPROF_PMU_KIND_OTHER },
	{ "stall_backend", NULL, 0x24, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND, KPROF_PMU_KIND_OTHER },
	/* x86 approx: L1D reads */
	{ "mem_access", NULL, 0x13, PERF_TYPE_HW_CACHE,
	  KPROF_HW_CACHE(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ,
			 PERF_COUNT_HW_CACHE_RESULT_ACCESS), KPROF_PMU_KIND_OTHER },
	{ "ll_cache_miss_rd", NULL, 0x37, PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_MISSES, KPROF_PMU_KIND_MISS },
};

#endif
