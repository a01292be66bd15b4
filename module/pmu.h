/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMU counters (perf kernel API): a probe's events, counted per CPU over
 * its capture windows and, for kinds that accept per-call PMU events,
 * read at both ends of each call.
 */
#ifndef KPROF_PMU_H
#define KPROF_PMU_H

#include <linux/types.h>
#include <linux/perf_event.h>
#include <linux/sched.h>

#include "stats.h"

struct kprof_probe;

struct kprof_pmu_base {
	u64 value, enabled, running;
};

/* A probe's PMU counters; see pmu.c. */
struct kprof_pmu {
	/* read in probe context */
	u32 nr;				/* events */
	struct perf_event **ev;		/* [cpu * MAX_EVENTS + e], NULL: none */
	u8 *stats;			/* in the mapping: per-call deltas */

	/* process context, under the core's lock */
	int slot;			/* PMU block, -1: none */
	bool pinned;
	struct kprof_pmu_event *map_desc;	/* in the mapping */
	struct kprof_pmu_count *counts;		/* in the mapping */
	bool open;			/* a capture window is open */
	/* [cpu * MAX_EVENTS + e]: window start, closed windows, scratch */
	struct kprof_pmu_base *base, *acc, *tmp;
	u32 *ok;			/* [cpu] scratch */
	struct kprof_pmu_event desc[KPROF_PMU_MAX_EVENTS];
	struct perf_event_attr attr[KPROF_PMU_MAX_EVENTS];
};

/* PMU values read on a kretprobe's entry, kept in its instance. */
struct kprof_pmu_snap {
	u32 cpu;
	u32 ok;				/* bit e: v[e] valid */
	unsigned long nsw;		/* kprof_switches() on entry */
	u64 v[];
};

int kprof_pmu_parse(struct kprof_pmu *pm, const char *list, u32 *bad);
/* One event name (as pmu: takes it) into a zeroed *attr; -EINVAL if unknown. */
int kprof_pmu_attr(const char *name, struct perf_event_attr *attr);
int kprof_pmu_create(struct kprof_pmu *pm, const unsigned long *mask,
		     bool pinned, u32 *err_event, u32 *err_cpu);
void kprof_pmu_destroy(struct kprof_pmu *pm);
void kprof_pmu_publish(struct kprof_pmu *pm);
int kprof_pmu_enable(struct kprof_pmu *pm, u32 *err_event, u32 *err_cpu);
void kprof_pmu_disable(struct kprof_pmu *pm);
void kprof_pmu_window_open(struct kprof_pmu *pm);
void kprof_pmu_window_close(struct kprof_pmu *pm);
void kprof_pmu_sample(struct kprof_pmu *pm);
void kprof_pmu_window_reset(struct kprof_pmu *pm);
void kprof_pmu_refresh(struct kprof_pmu *pm);

/*
 * The events of @list, parsed, with no counter yet (kfree() it); an
 * ERR_PTR, and *bad the 1-based event at fault, if the list is bad.
 */
struct kprof_pmu *kprof_pmu_new(const char *list, u32 *bad);

/* a PMU block's per-call statistics of event e */
static __always_inline struct kprof_cpu_stats *
kprof_pmu_stats(struct kprof_pmu *pm, unsigned int e, unsigned int cpu)
{
	return kprof_cpu_block(pm->stats, e, cpu);
}

/* ---- PMU reads in probe context ----------------------------------- */

/*
 * perf_event_read_local() is not exported; this is the part of it a
 * CPU-bound counting event read on its own CPU needs.  With interrupts off
 * the event cannot be scheduled in or out under us: that happens on this
 * CPU, with interrupts off (context switch, IPI, the rotation hrtimer).  So
 * if it is active here, with its hardware counter assigned and started
 * (PERF_HES_STOPPED clear: not between sched-in and pmu->add()), the PMU's
 * read callback folds the hardware count into ->count.  arm_pmu and x86 do
 * that with a cmpxchg on prev_count, which an NMI nesting on the same CPU
 * cannot tear.  Anything else is a loss for the caller to count.
 *
 * Context: any probe context, including NMI.
 */
static __always_inline bool kprof_pmu_read(struct perf_event *ev,
						   unsigned int cpu, u64 *val)
{
	if (!ev || READ_ONCE(ev->oncpu) != (int)cpu ||
	    READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE ||
	    (READ_ONCE(ev->hw.state) & PERF_HES_STOPPED))
		return false;
	ev->pmu->read(ev);
	*val = local64_read(&ev->count);
	return true;
}

/*
 * Context: any probe context.  Bit e set: v[e] was read.  One copy of the
 * code for entry, return and window reads (pmu.c), so the instructions
 * between two events' reads are the same at both ends of a call.
 */
u32 kprof_pmu_read_all(struct kprof_pmu *pm, unsigned int cpu, u64 *v);

/*
 * Context: any probe context.  current's context switches so far: a call
 * during which they changed (it slept or was preempted) let other tasks
 * run on its CPU, and the counters are per CPU, so their work would be in
 * its delta.  Only current writes them, in __schedule().
 */
static __always_inline unsigned long kprof_switches(void)
{
	return current->nvcsw + current->nivcsw;
}

/*
 * Context: kretprobe return handler.  Records each event's delta since
 * the entry read, or a loss when either end was not readable here or the
 * call did not run alone on one CPU from entry to return (it migrated or
 * was switched out).
 */
static __always_inline void kprof_pmu_call(struct kprof_pmu *pm,
					   unsigned int cpu,
					   const struct kprof_pmu_snap *start)
{
	/* v[e] is read only where bit e of ok says it was written */
	u64 v[KPROF_PMU_MAX_EVENTS] __uninitialized;
	u32 ok = 0, e;

	if (start->cpu == cpu && start->nsw == kprof_switches())
		ok = kprof_pmu_read_all(pm, cpu, v) & start->ok;
	for (e = 0; e < pm->nr; e++) {
		struct kprof_cpu_stats *st = kprof_pmu_stats(pm, e, cpu);

		if (ok & BIT(e))
			kprof_stat_latency(st, v[e] - start->v[e]);
		else
			kprof_stat_drop(st);
	}
}

#endif /* KPROF_PMU_H */
