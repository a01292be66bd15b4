// SPDX-License-Identifier: GPL-2.0
/*
 * ADD's keys and filter (ABI 1.9 draft): validated with the rules the CLI
 * parses by (include/kprofctl/filter.h).  Until handlers evaluate them,
 * a valid request that uses them is refused too: the module reports ABI
 * minor 8, which tells the CLI why.
 */
#include <linux/string.h>

#include "filter.h"
#include "core.h"

/* Context: process.  The struct rules of key[], nr_keys and filter. */
int kprof_add_check_keys(const struct kprof_probe_add *arg)
{
	if (arg->reserved3 || kprof_keys_valid(arg->key, arg->nr_keys) ||
	    kprof_filter_valid(&arg->filter))
		return -EINVAL;
	/* the key table is sized like a pair slot's, for now */
	if (arg->nr_keys > kprof_pair_keys())
		return -EINVAL;
	return 0;
}

/*
 * Context: process.  Can a probe of @type (KPROF_TYPE_*) evaluate them?
 * -EINVAL otherwise, and (for now) whenever there is any: no handler
 * does yet.
 */
int kprof_add_check_kind_keys(const struct kprof_probe_add *arg,
			      unsigned int type)
{
	unsigned int i;

	if (kprof_filter_check(&arg->filter, type, NULL))
		return -EINVAL;
	for (i = 0; i < KPROF_MAX_KEYS; i++)
		if (arg->key[i] && kprof_key_check(arg->key[i], type, NULL))
			return -EINVAL;
	if (arg->key[0] || arg->filter.nr)
		return -EINVAL;	/* TODO(issue 14): the handlers */
	return 0;
}

/*
 * Context: process.  A valid filter's terms in two: those known at entry
 * (arguments, task, CPU) and those known at return (retval, latency), so
 * that a kretprobe drops a call at entry when it can.  Each half keeps
 * the terms' order.
 */
void kprof_filter_split(const struct kprof_filter *f,
			struct kprof_filter *entry, struct kprof_filter *exit)
{
	const struct kprof_term *t;
	unsigned int i;

	memset(entry, 0, sizeof(*entry));
	memset(exit, 0, sizeof(*exit));
	for (i = 0; i < f->nr && i < KPROF_FILTER_TERMS; i++) {
		t = &f->term[i];
		if (t->field == KPROF_F_RETVAL || t->field == KPROF_F_LATENCY)
			exit->term[exit->nr++] = *t;
		else
			entry->term[entry->nr++] = *t;
	}
}
