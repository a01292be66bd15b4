// SPDX-License-Identifier: GPL-2.0
/* A profile's stack table (stacktab.h). */
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/cpumask.h>
#include <linux/string.h>

#include "../uapi/linux/kprofctl.h"

#include "core.h"
#include "stacktab.h"

int kprof_stacktab_size(struct kprof_stacktab *t, u32 nr, u32 words)
{
	size_t max = kprof_set_slot_size() /
		     (nr_cpu_ids * words * sizeof(u64));

	nr = nr ? roundup_pow_of_two(nr) : KPROF_STACKTAB_DEF;
	if (nr > min_t(size_t, max, KPROF_STACKTAB_MAX))
		return -EINVAL;
	t->nr = nr;
	t->words = words;
	t->cpu_stride = ALIGN((size_t)nr * words * sizeof(u64),
			      SMP_CACHE_BYTES);
	t->slot = -1;
	return 0;
}

int kprof_stacktab_get(struct kprof_stacktab *t)
{
	void *mem;
	int slot;

	slot = kprof_set_slot_get(nr_cpu_ids * t->cpu_stride, &mem);
	if (slot < 0)
		return slot;
	t->slot = slot;
	t->rows = mem;
	return 0;
}

void kprof_stacktab_put(struct kprof_stacktab *t)
{
	if (t->slot >= 0)
		kprof_set_slot_put(t->slot);
	t->slot = -1;
	t->rows = NULL;
}

void kprof_stacktab_clear(struct kprof_stacktab *t)
{
	if (t->rows)
		memset(t->rows, 0, nr_cpu_ids * t->cpu_stride);
}

void kprof_stacktab_fill_info(const struct kprof_stacktab *t,
			      struct kprof_probe_info *i)
{
	if (!t->rows)
		return;
	i->nr_funcs = t->nr;
	i->func_stride = t->words * sizeof(u64);
	i->funcs_off = kprof_set_slot_off(t->slot);
	i->func_stats_off = i->funcs_off;
	i->func_cpu_stride = t->cpu_stride;
}
