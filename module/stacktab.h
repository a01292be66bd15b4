/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A profile's stack table: per CPU, a record of @words __u64 per stack id
 * (a sample's count; off-CPU's count and nanoseconds) in a function set's
 * slot of the mapping, published like a set's rows.  Written by one CPU
 * each, in probe context, with local64 operations.
 */
#ifndef KPROF_STACKTAB_H
#define KPROF_STACKTAB_H

#include <linux/types.h>

#include "stats.h"

struct kprof_probe_info;

/* distinct stacks by default, and at most */
#define KPROF_STACKTAB_DEF	4096
#define KPROF_STACKTAB_MAX	65536

struct kprof_stacktab {
	u32 nr;			/* stack ids; 0: no table */
	u32 words;		/* __u64 per id */
	int slot;		/* its set slot, -1: none */
	size_t cpu_stride;
	u8 *rows;		/* CPU c, id i: rows + c * cpu_stride + (i - 1) * words */
};

/*
 * Context: process.  @nr ids (0: the default; rounded up to a power of two)
 * of @words each; -EINVAL if every CPU's rows do not fit a set slot.
 */
int kprof_stacktab_size(struct kprof_stacktab *t, u32 nr, u32 words);
/* Context: process, under the core's lock (attach): the slot, zeroed. */
int kprof_stacktab_get(struct kprof_stacktab *t);
/* Context: process, under the core's lock; nothing writes the rows. */
void kprof_stacktab_put(struct kprof_stacktab *t);
void kprof_stacktab_clear(struct kprof_stacktab *t);
void kprof_stacktab_fill_info(const struct kprof_stacktab *t,
			      struct kprof_probe_info *i);

/* Context: probe context.  Word @w of stack @id (1..nr) on @cpu. */
static __always_inline local64_t *
kprof_stacktab_word(const struct kprof_stacktab *t, unsigned int cpu, u32 id,
		    unsigned int w)
{
	return kprof_l64((__u64 *)(t->rows + cpu * t->cpu_stride) +
			 (size_t)(id - 1) * t->words + w);
}

#endif /* KPROF_STACKTAB_H */
