/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU statistics blocks (struct kprof_cpu_stats) in the mapping, and
 * the updates probe context makes to them.
 */
#ifndef KPROF_STATS_H
#define KPROF_STATS_H

#include <linux/types.h>
#include <linux/cpumask.h>
#include <asm/local64.h>

#include "../uapi/linux/kprofctl.h"
#include "kprofctl/hist.h"

#define KPROF_CPU_STRIDE	ALIGN(sizeof(struct kprof_cpu_stats), 64)

/* Block @idx of an array of nr_cpu_ids-wide rows of blocks at @base. */
static __always_inline struct kprof_cpu_stats *
kprof_cpu_block(u8 *base, size_t idx, unsigned int cpu)
{
	return (struct kprof_cpu_stats *)(base +
		(idx * nr_cpu_ids + cpu) * KPROF_CPU_STRIDE);
}

/* Context: process, no handler writing @st. */
static inline void kprof_zero_stats(struct kprof_cpu_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->min = U64_MAX;
}

/*
 * Statistics are plain __u64 in the shared mapping, written only by the
 * CPU they belong to, through local64_t: each operation is atomic with
 * respect to an IRQ or NMI that nests on the same CPU and records its own
 * call.  Handlers run with preemption disabled and check "armed" first;
 * STOP and RESET clear it and wait for a grace period, so they never see
 * half of an update, without handlers masking interrupts.
 */
static __always_inline local64_t *kprof_l64(__u64 *v)
{
	BUILD_BUG_ON(sizeof(local64_t) != sizeof(__u64));
	return (local64_t *)v;
}

/* a new minimum or maximum is rare: one compare, then the retry loop */
static __always_inline void kprof_stat_min(__u64 *v, u64 x)
{
	local64_t *l = kprof_l64(v);
	s64 old = local64_read(l), seen;

	if (likely(x >= (u64)old))
		return;
	do {
		seen = local64_cmpxchg(l, old, x);
		if (seen == old)
			break;
		old = seen;
	} while (x < (u64)old);
}

static __always_inline void kprof_stat_max(__u64 *v, u64 x)
{
	local64_t *l = kprof_l64(v);
	s64 old = local64_read(l), seen;

	if (likely(x <= (u64)old))
		return;
	do {
		seen = local64_cmpxchg(l, old, x);
		if (seen == old)
			break;
		old = seen;
	} while (x > (u64)old);
}

static __always_inline void kprof_stat_count(struct kprof_cpu_stats *st)
{
	local64_inc(kprof_l64(&st->count));
}

static __always_inline void kprof_stat_drop(struct kprof_cpu_stats *st)
{
	local64_inc(kprof_l64(&st->drops));
}

static __always_inline void kprof_stat_unmatched(struct kprof_cpu_stats *st)
{
	local64_inc(kprof_l64(&st->unmatched));
}

static __always_inline void kprof_stat_latency(struct kprof_cpu_stats *st,
					       u64 ns)
{
	local64_inc(kprof_l64(&st->hist[kprof_hist_index(ns)]));
	local64_add(ns, kprof_l64(&st->sum));
	kprof_stat_min(&st->min, ns);
	kprof_stat_max(&st->max, ns);
	/* readers that load count first never see it ahead of the buckets */
	smp_wmb();
	local64_inc(kprof_l64(&st->count));
}

#endif /* KPROF_STATS_H */
