// SPDX-License-Identifier: GPL-2.0
/*
 * The core's state, its limits (the sizing parameters) and the mapping's
 * layout: the header page and probe table, then the slot regions
 * (statistics, pairs, PMU blocks, function sets).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/bitops.h>

#include "core-int.h"
#include "keys.h"
#include "pmu.h"
#include "size.h"

#define KPROF_DEF_MAX_PROBES	64
#define KPROF_DEF_MAX_PAIRS	4
#define KPROF_DEF_PAIR_KEYS	64
#define KPROF_DEF_MAX_PMUS	4
#define KPROF_DEF_MAX_SETS	4
#define KPROF_DEF_MAX_SET_FUNCS	4096

static unsigned int max_probes = KPROF_DEF_MAX_PROBES;
module_param(max_probes, uint, 0444);
MODULE_PARM_DESC(max_probes,
		 "Probe slots, preallocated with their statistics (1-1024)");

static unsigned int max_pairs = KPROF_DEF_MAX_PAIRS;
module_param(max_pairs, uint, 0444);
MODULE_PARM_DESC(max_pairs,
		 "Pair probe slots (irq, softirq...), preallocated (0-64)");

static unsigned int pair_keys = KPROF_DEF_PAIR_KEYS;
module_param(pair_keys, uint, 0444);
MODULE_PARM_DESC(pair_keys,
		 "Keys per pair probe, a power of two (64-1024)");

static unsigned int max_pmus = KPROF_DEF_MAX_PMUS;
module_param(max_pmus, uint, 0444);
MODULE_PARM_DESC(max_pmus,
		 "Probes with PMU counters, preallocated (0-64)");

static unsigned int max_sets = KPROF_DEF_MAX_SETS;
module_param(max_sets, uint, 0444);
MODULE_PARM_DESC(max_sets,
		 "Function sets (kprobe:MOD:*) at once: statistics slots (0-64)");

static unsigned int max_set_funcs = KPROF_DEF_MAX_SET_FUNCS;
module_param(max_set_funcs, uint, 0444);
MODULE_PARM_DESC(max_set_funcs,
		 "Functions per set (16-65536); memory is taken per set as added");

/* pair and PMU slots are taken from one unsigned long bitmap each */
#define KPROF_MAX_PAIRS_LIMIT	(BITS_PER_LONG < 64 ? BITS_PER_LONG : 64)
#define KPROF_MAX_PMUS_LIMIT	(BITS_PER_LONG < 64 ? BITS_PER_LONG : 64)
#define KPROF_MAX_SETS_LIMIT	(BITS_PER_LONG < 64 ? BITS_PER_LONG : 64)

/* the core's state (core-int.h): this file lays it out first, at init */
struct kprof_core kprof;

u32 kprof_max_pmus(void)
{
	return max_pmus;
}

u32 kprof_max_sets(void)
{
	return max_sets;
}

u32 kprof_max_set_funcs(void)
{
	return max_set_funcs;
}

u32 kprof_max_probes(void)
{
	return max_probes;
}

u32 kprof_max_pairs(void)
{
	return max_pairs;
}

u32 kprof_pair_keys(void)
{
	return pair_keys;
}

/* ---- function-set slots ------------------------------------------------ */

int kprof_set_slot_get(size_t size, void **mem)
{
	int slot;

	lockdep_assert_held(&kprof.lock);
	slot = find_first_zero_bit(&kprof.set_used, max_sets);
	if (slot >= max_sets)
		return -ENOSPC;
	if (size > kprof.set_region.stride)
		return -E2BIG;
	*mem = kprof_area_get_size(&kprof.set_region, slot, size);
	if (!*mem)
		return -ENOMEM;
	__set_bit(slot, &kprof.set_used);
	return slot;
}

void kprof_set_slot_put(int slot)
{
	lockdep_assert_held(&kprof.lock);
	kprof_area_put(&kprof.set_region, slot);
	__clear_bit(slot, &kprof.set_used);
}

size_t kprof_set_slot_size(void)
{
	return kprof.set_region.stride;
}

u64 kprof_set_slot_off(int slot)
{
	return kprof.set_region.off + (u64)slot * kprof.set_region.stride;
}

static const struct kprof_size kprof_sizes[] = {
	{ "max_probes", "max-probes", &max_probes, KPROF_DEF_MAX_PROBES,
	  1, KPROF_MAX_PROBES_LIMIT, false },
	{ "max_pairs", "max-pairs", &max_pairs, KPROF_DEF_MAX_PAIRS,
	  0, KPROF_MAX_PAIRS_LIMIT, false },
	{ "pair_keys", "pair-keys", &pair_keys, KPROF_DEF_PAIR_KEYS,
	  64, 1024, true },
	{ "max_pmus", "max-pmus", &max_pmus, KPROF_DEF_MAX_PMUS,
	  0, KPROF_MAX_PMUS_LIMIT, false },
	{ "max_sets", "max-sets", &max_sets, KPROF_DEF_MAX_SETS,
	  0, KPROF_MAX_SETS_LIMIT, false },
	{ "max_set_funcs", "max-set-funcs", &max_set_funcs,
	  KPROF_DEF_MAX_SET_FUNCS, 16, 65536, false },
};

/*
 * The mapping: header page and probe table, allocated now, then the probe,
 * pair and PMU slot regions, backed only while a probe uses a slot.
 */
int kprof_layout(void)
{
	size_t table, stats, total, pairs, pair_stride, pmus, pmu_stride;
	size_t pmu_counts, pmu_stats, fixed, sets, set_stride;
	u64 cpus_stride, probe_stride;
	void *base;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(kprof_sizes); i++) {
		ret = kprof_size_apply(&kprof_sizes[i]);
		if (ret)
			return ret;
	}
	/* one block per CPU: a key's or a PMU event's statistics */
	cpus_stride = (u64)nr_cpu_ids * KPROF_CPU_STRIDE;
	probe_stride = PAGE_ALIGN(cpus_stride);
	/* a PMU block: events, window totals, then per-call statistics */
	pmu_counts = ALIGN(KPROF_PMU_MAX_EVENTS *
			   sizeof(struct kprof_pmu_event), 64);
	pmu_stats = PAGE_ALIGN(pmu_counts + (size_t)KPROF_PMU_MAX_EVENTS *
			       nr_cpu_ids * sizeof(struct kprof_pmu_count));
	pmu_stride = pmu_stats + PAGE_ALIGN(KPROF_PMU_MAX_EVENTS *
					    (size_t)cpus_stride);
	table = PAGE_ALIGN(array_size(max_probes,
				      sizeof(struct kprof_probe_info)));
	fixed = PAGE_SIZE + table;
	/*
	 * A pair slot (or a key table of a probe with ADD's keys): its keys,
	 * then nr_keys + 1 ("other") x nr_cpus stats
	 */
	pair_stride = PAGE_ALIGN(pair_keys * sizeof(struct kprof_key2)) +
		      PAGE_ALIGN((size_t)(pair_keys + 1) * cpus_stride);
	/* a set slot: its functions, then a row per CPU (fset.c) */
	set_stride = PAGE_ALIGN(max_set_funcs * sizeof(struct kprof_func)) +
		     PAGE_ALIGN(nr_cpu_ids *
				ALIGN((size_t)max_set_funcs *
				      sizeof(struct kprof_func_hist),
				      SMP_CACHE_BYTES));
	if (check_mul_overflow((size_t)max_probes, (size_t)probe_stride,
			       &stats) ||
	    check_mul_overflow((size_t)max_sets, set_stride, &sets) ||
	    check_mul_overflow((size_t)max_pairs, pair_stride, &pairs) ||
	    check_add_overflow(fixed, stats, &total) ||
	    check_add_overflow(total, pairs, &total) ||
	    check_mul_overflow((size_t)max_pmus, pmu_stride, &pmus) ||
	    check_add_overflow(total, pmus, &total) ||
	    check_add_overflow(total, sets, &total))
		return -EOVERFLOW;

	base = kprof_area_init(fixed, total);
	if (IS_ERR(base))
		return PTR_ERR(base);
	kprof.hdr = base;
	kprof.table = base + PAGE_SIZE;

	BUILD_BUG_ON(sizeof(struct kprof_mmap_header) > PAGE_SIZE);
	*kprof.hdr = (struct kprof_mmap_header) {
		.magic = KPROF_MMAP_MAGIC,
		.abi_major = KPROF_ABI_MAJOR,
		.abi_minor = KPROF_ABI_MINOR,
		.header_size = sizeof(struct kprof_mmap_header),
		.nr_cpus = nr_cpu_ids,
		.max_probes = max_probes,
		.probe_rec_size = sizeof(struct kprof_probe_info),
		.probes_off = PAGE_SIZE,
		.stats_off = fixed,
		.probe_stride = probe_stride,
		.cpu_stride = KPROF_CPU_STRIDE,
		.hist_sub_bits = KPROF_HIST_SUB_BITS,
		.hist_max_exp = KPROF_HIST_MAX_EXP,
		.hist_nr_buckets = KPROF_HIST_NR_BUCKETS,
		.mmap_size = total,
		.pairs_off = fixed + stats,
		.pair_stride = pair_stride,
		.max_pairs = max_pairs,
		.pair_keys = pair_keys,
		.pmus_off = fixed + stats + pairs,
		.pmu_stride = pmu_stride,
		.max_pmus = max_pmus,
		.pmu_max_events = KPROF_PMU_MAX_EVENTS,
		.pmu_counts_off = pmu_counts,
		.pmu_stats_off = pmu_stats,
		.sets_off = fixed + stats + pairs + pmus,
		.set_stride = set_stride,
		.max_sets = max_sets,
		.max_set_funcs = max_set_funcs,
	};
	ret = kprof_area_region(&kprof.stats_region, fixed, probe_stride,
				max_probes);
	if (!ret)
		ret = kprof_area_region(&kprof.pair_region, fixed + stats,
					pair_stride, max_pairs);
	if (!ret)
		ret = kprof_area_region(&kprof.pmu_region,
					fixed + stats + pairs, pmu_stride,
					max_pmus);
	if (!ret)
		ret = kprof_area_region(&kprof.set_region,
					fixed + stats + pairs + pmus,
					set_stride, max_sets);
	if (ret)
		kprof_area_exit();
	return ret;
}
