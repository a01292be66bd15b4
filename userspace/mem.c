// SPDX-License-Identifier: GPL-2.0
/* A mem probe's rows per allocation site (mem.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "show-keys.h"
#include "spec.h"

static struct kp_mem_site *site_of(struct kp_mem *mem, uint64_t id)
{
	unsigned int i;

	for (i = 0; i < mem->nr; i++)
		if (mem->site[i].id == id)
			return &mem->site[i];
	return NULL;
}

static void add_hist(__u64 *dst, const struct kp_agg *a)
{
	unsigned int b;

	for (b = 0; b < KPROF_HIST_NR_BUCKETS; b++)
		dst[b] += a->hist[b];
}

static void add_row(struct kp_mem_site *s, uint64_t row,
		    const struct kp_agg *a)
{
	switch (row) {
	case KPROF_MEM_KMALLOC:
	case KPROF_MEM_CACHE:
	case KPROF_MEM_VMALLOC:
	case KPROF_MEM_DMA_COHERENT:
	case KPROF_MEM_DMA_BIDI:
	case KPROF_MEM_DMA_TO_DEVICE:
	case KPROF_MEM_DMA_FROM_DEVICE:
	case KPROF_MEM_PAGES:
		/* a site of two kinds: its sizes over both */
		if (a->count) {
			if (!s->allocs || a->min < s->size_min)
				s->size_min = a->min;
			if (a->max > s->size_max)
				s->size_max = a->max;
		}
		s->kinds |= 1U << row;
		s->allocs += a->count;
		s->bytes += a->sum;
		s->slab += a->unmatched;
		add_hist(s->sizes, a);
		break;
	case KPROF_MEM_FREE:
		s->frees += a->count;
		s->freed += a->sum;
		s->freed_slab += a->unmatched;
		s->life_p50 = a->count ? kp_pct_value(a, KP_P50) : 0;
		add_hist(s->lives, a);
		break;
	case KPROF_MEM_LEAK:
		s->leaks += a->count;
		s->leaked += a->sum;
		s->leaked_slab += a->unmatched;
		break;
	case KPROF_MEM_PEAK:
		s->peak_bytes = a->max;
		break;
	}
}

/* a - b, or 0: rows are read one after another while the probe runs */
static uint64_t rest(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static void live_of(struct kp_mem_site *s)
{
	s->live = rest(s->allocs, s->frees + s->leaks);
	s->live_bytes = rest(s->bytes, s->freed + s->leaked);
	s->live_slab = rest(s->slab, s->freed_slab + s->leaked_slab);
}

static int site_cmp(const void *x, const void *y)
{
	const struct kp_mem_site *a = x, *b = y;

	if (a->live_bytes != b->live_bytes)
		return a->live_bytes > b->live_bytes ? -1 : 1;
	if (a->leaked != b->leaked)
		return a->leaked > b->leaked ? -1 : 1;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

int kp_mem_build(const struct kp_map *m, const struct kprof_probe_info *r,
		 const struct kp_show_opts *o, struct kp_mem *mem)
{
	struct kp_show_opts all = *o;
	unsigned int n, total, i;
	struct kp_key *keys;
	struct kp_agg a;

	memset(mem, 0, sizeof(*mem));
	all.top = 0;		/* sites, not rows, are what --top cuts */
	all.key = NULL;
	all.sort = NULL;
	keys = kp_select_keys(m, r, &all, &n, &total);
	mem->site = calloc(n ? n : 1, sizeof(*mem->site));
	if (!keys || !mem->site) {
		free(keys);
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct kp_mem_site *s;

		kp_aggregate_key(m, r, keys[i].index, -1, &a);
		if (keys[i].value2 == KPROF_MEM_PEAK_ALL) {
			/* not a site's: all of MOD's live bytes */
			mem->total.peak_bytes = a.max;
			continue;
		}
		s = site_of(mem, keys[i].value);
		if (!s) {
			s = &mem->site[mem->nr++];
			s->id = keys[i].value;
			memcpy(s->name, keys[i].sym[0], sizeof(s->name));
		}
		add_row(s, keys[i].value2, &a);
	}
	free(keys);
	for (i = 0; i < mem->nr; i++) {
		struct kp_mem_site *s = &mem->site[i];

		live_of(s);
		mem->total.allocs += s->allocs;
		mem->total.bytes += s->bytes;
		mem->total.slab += s->slab;
		mem->total.live_slab += s->live_slab;
		mem->total.leaked_slab += s->leaked_slab;
		mem->total.frees += s->frees;
		mem->total.freed += s->freed;
		mem->total.leaks += s->leaks;
		mem->total.leaked += s->leaked;
		mem->total.live += s->live;
		mem->total.live_bytes += s->live_bytes;
	}
	qsort(mem->site, mem->nr, sizeof(*mem->site), site_cmp);
	if (o->top && mem->nr > o->top)
		mem->nr = o->top;
	kp_aggregate_own(m, r, -1, &a);
	mem->dropped = a.drops;
	mem->forgotten = a.unmatched;
	kp_aggregate_key(m, r, r->nr_keys, -1, &a);
	mem->other = a.count;
	return 0;
}

void kp_mem_free(struct kp_mem *mem)
{
	free(mem->site);
	memset(mem, 0, sizeof(*mem));
}

const char *kp_mem_kind_name(const struct kp_mem_site *s, char *buf,
			     size_t len)
{
	size_t n = 0;
	unsigned int k;

	if (!s->kinds)
		return "?";
	buf[0] = '\0';
	for (k = 1; k < 32 && n < len; k++)
		if (s->kinds & (1U << k))
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? "," : "",
					      kp_mem_row_name(k));
	return buf;
}
