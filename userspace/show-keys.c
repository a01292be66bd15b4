// SPDX-License-Identifier: GPL-2.0
/* The keys show prints of a probe: named, sorted, selected (--sort, --key, --top). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "show-keys.h"

static int keyv_cmp(const void *x, const void *y)
{
	const struct kp_key *a = x, *b = y;

	if (a->sortv != b->sortv)
		return a->sortv > b->sortv ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* --sort (count is kp_pair_keys()' order already; show refuses name) */
static void sort_keys(const struct kp_map *m, const struct kprof_probe_info *r,
		      const struct kp_show_opts *o, struct kp_key *keys,
		      unsigned int n)
{
	int k = kp_sort_parse(o->sort), p;
	unsigned int i;

	if (k < 0 || k == KP_SORT_COUNT || !kp_sort_keys[k].keys)
		return;
	p = kp_sort_keys[k].pct;
	for (i = 0; i < n; i++) {
		uint64_t q[KP_NR_PCTS] = { 0 };
		struct kp_agg a;

		kp_aggregate_key(m, r, keys[i].index, -1, &a);
		if (p >= 0)
			q[p] = kp_pct_value(&a, (unsigned int)p);
		keys[i].sortv = kp_sort_measure(k, a.count, a.sum, q);
	}
	qsort(keys, n, sizeof(*keys), keyv_cmp);
}

struct kp_key *kp_select_keys(const struct kp_map *m,
			      const struct kprof_probe_info *r,
			      const struct kp_show_opts *o, unsigned int *n,
			      unsigned int *total)
{
	struct kp_key *keys = calloc(r->nr_keys ? r->nr_keys : 1, sizeof(*keys));
	unsigned int i;

	*n = *total = 0;
	if (!keys)
		return NULL;
	*total = kp_pair_keys(m, r, keys);
	for (i = 0; i < *total; i++) {
		uint64_t v[KPROF_MAX_KEYS] = { keys[i].value, keys[i].value2 };
		unsigned int j;

		for (j = 0; j < KPROF_MAX_KEYS; j++) {
			const char *sym = NULL;

			/* a mem probe's stacks are named too: by MOD's frame */
			if (r->key_rec_size && o->caller_name &&
			    (KPROF_KEYSPEC_KIND(r->key[j]) == KPROF_KEY_CALLER ||
			     (r->type == KPROF_TYPE_MEM && !j)))
				sym = o->caller_name(o->caller_ctx, r, v[j], 0);
			snprintf(keys[i].sym[j], sizeof(keys[i].sym[j]), "%s",
				 sym ? sym : "");
		}
	}
	sort_keys(m, r, o, keys, *total);
	for (i = 0; i < *total; i++) {
		if (o->top && *n >= o->top)
			break;
		if (!o->key || kp_key_match(r, &keys[i], o->key))
			keys[(*n)++] = keys[i];
	}
	return keys;
}

uint64_t kp_key_stack_id(const struct kprof_probe_info *r, const struct kp_key *k)
{
	if (KPROF_KEYSPEC_KIND(r->key[0]) == KPROF_KEY_STACK)
		return k->value;
	if (KPROF_KEYSPEC_KIND(r->key[1]) == KPROF_KEY_STACK)
		return k->value2;
	return 0;
}
