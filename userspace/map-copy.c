// SPDX-License-Identifier: GPL-2.0
/*
 * Copies of the mapping taken under its seqcount, and their differences:
 * what an interval added (show -i, record, top) and sums of intervals.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "map-copy.h"
#include "kprofctl/hist.h"

static void copy_range(uint8_t *dst, const uint8_t *src, uint64_t size,
		       uint64_t off, uint64_t len)
{
	if (kp_in_map(off, len, size))
		memcpy(dst + off, src + off, len);
}

/*
 * What a reader of the probes in src uses, into dst (both of m's
 * layout): the header, the probe table, and each live probe's blocks,
 * keys, PMU block and function or stack rows.  The rest stays as it is
 * (zero): a mapping sized for every slot costs what is in use.
 */
static void copy_live(const struct kp_map *m, uint8_t *dst, const uint8_t *src)
{
	const struct kprof_mmap_header *h = (const void *)src;
	uint64_t size = m->size, table;
	unsigned int s;

	table = (uint64_t)m->hdr->max_probes * m->hdr->probe_rec_size;
	copy_range(dst, src, size, 0, m->hdr->header_size);
	copy_range(dst, src, size, m->hdr->probes_off, table);
	for (s = 0; s < m->hdr->max_probes; s++) {
		const struct kprof_probe_info *r =
			(const void *)(src + m->hdr->probes_off +
				       (uint64_t)s * m->hdr->probe_rec_size);
		uint64_t rs = r->key_rec_size ? r->key_rec_size :
			      sizeof(struct kprof_key);

		if (!r->id)
			continue;
		copy_range(dst, src, size, r->stats_off,
			   (uint64_t)h->nr_cpus * h->cpu_stride);
		if (kp_has_keys(r) && r->nr_keys <= 65536) {
			copy_range(dst, src, size, r->keys_off, r->nr_keys * rs);
			copy_range(dst, src, size, r->key_stats_off,
				   (r->nr_keys + 1ULL) * r->key_stride);
		}
		if (r->pmu_block && r->pmu_block <= h->max_pmus)
			copy_range(dst, src, size, h->pmus_off +
				   (uint64_t)(r->pmu_block - 1) * h->pmu_stride,
				   h->pmu_stride);
		if (r->nr_funcs && r->nr_funcs <= (1U << 20)) {
			if (kp_is_set(r->type))
				copy_range(dst, src, size, r->funcs_off,
					   (uint64_t)r->nr_funcs *
					   sizeof(struct kprof_func));
			if (r->func_cpu_stride <= size)
				copy_range(dst, src, size, r->func_stats_off,
					   (h->nr_cpus - 1ULL) * r->func_cpu_stride +
					   (uint64_t)r->nr_funcs * r->func_stride);
		}
	}
}

/* *out: a consistent copy of m; 0, -ENOMEM, or -EAGAIN if it never settles */
static int map_copy(const struct kp_map *m, uint8_t **out)
{
	struct kp_seq s = { 0 };
	/* calloc: the pages of unused slots are never touched */
	uint8_t *buf = calloc(1, m->size);

	if (!buf)
		return -ENOMEM;
	do {
		if (kp_seq_begin(m, &s)) {
			free(buf);
			return -EAGAIN;
		}
		copy_live(m, buf, m->base);
	} while (kp_seq_retry(m, &s));
	*out = buf;
	return 0;
}

void *kp_map_copy(const struct kp_map *m)
{
	uint8_t *buf;

	return map_copy(m, &buf) ? NULL : buf;
}

int kp_map_snap(const struct kp_map *m, struct kp_map *snap)
{
	uint8_t *buf;
	char err[128];
	int ret = map_copy(m, &buf);

	if (ret)
		return ret;
	/* m's own header: refused only where m's would be */
	if (kp_map_init(snap, buf, m->size, err, sizeof(err))) {
		free(buf);
		return -EINVAL;
	}
	return 0;
}

void kp_map_snap_free(struct kp_map *snap)
{
	free((void *)snap->base);
	snap->base = NULL;
}

/*
 * cur -= prev over one block of per-CPU stats: counts, sums and buckets
 * are differences; min and max stay cur's (since the start).  A block
 * whose count went down was reset: it keeps cur's values.
 */
static void sub_stats(struct kprof_cpu_stats *c,
		      const struct kprof_cpu_stats *p, int add)
{
	unsigned int i;

	if (add) {	/* c += p: an interval onto what came before */
		if (p->count && (!c->count || p->min < c->min))
			c->min = p->min;
		if (p->max > c->max)
			c->max = p->max;
		if (!c->count && !p->count)
			c->min = ~0ULL;
		c->count += p->count;
		c->sum += p->sum;
		c->drops += p->drops;
		c->unmatched += p->unmatched;
		c->events += p->events;
		c->events_dropped += p->events_dropped;
		for (i = 0; i < KPROF_HIST_NR_BUCKETS; i++)
			c->hist[i] += p->hist[i];
		return;
	}
	if (c->count < p->count || c->drops < p->drops)
		return;
	c->count -= p->count;
	c->sum -= p->sum;
	c->drops -= p->drops;
	c->unmatched -= c->unmatched >= p->unmatched ? p->unmatched : 0;
	c->events -= c->events >= p->events ? p->events : 0;
	c->events_dropped -= c->events_dropped >= p->events_dropped ?
			     p->events_dropped : 0;
	for (i = 0; i < KPROF_HIST_NR_BUCKETS; i++)
		c->hist[i] -= c->hist[i] >= p->hist[i] ? p->hist[i] : c->hist[i];
	if (!c->count) {
		c->min = ~0ULL;
		c->max = 0;
	}
}

/* nr blocks from off, the mapping's cpu_stride apart */
static void sub_blocks(const struct kp_map *m, uint8_t *cur,
		       const uint8_t *prev, uint64_t off, unsigned int nr,
		       int add)
{
	uint64_t stride = m->hdr->cpu_stride;
	unsigned int i;

	for (i = 0; i < nr; i++)
		sub_stats((void *)(cur + off + i * stride),
			  (const void *)(prev + off + i * stride), add);
}

static void sub_u64(uint8_t *cur, const uint8_t *prev, uint64_t off, int add)
{
	uint64_t *c = (void *)(cur + off);
	const uint64_t *p = (const void *)(prev + off);

	if (add)
		*c += *p;
	else
		*c = *c >= *p ? *c - *p : *c;
}

/*
 * probe r's statistics in cur, minus those in prev (same probe, same
 * place), or with add plus them
 */
static void sub_probe(const struct kp_map *m, uint8_t *cur, const uint8_t *prev,
		      const struct kprof_probe_info *r, int add)
{
	const struct kprof_mmap_header *h = m->hdr;
	unsigned int k, c, f;

	sub_blocks(m, cur, prev, r->stats_off, h->nr_cpus, add);
	for (k = 0; kp_has_keys(r) && k <= r->nr_keys; k++)
		sub_blocks(m, cur, prev, r->key_stats_off + k * r->key_stride,
			   h->nr_cpus, add);
	if (r->pmu_block) {
		uint64_t b = h->pmus_off + (uint64_t)(r->pmu_block - 1) *
			     h->pmu_stride;

		for (k = 0; k < KPROF_PMU_MAX_EVENTS * h->nr_cpus; k++) {
			uint64_t o = b + h->pmu_counts_off +
				     k * sizeof(struct kprof_pmu_count);

			sub_u64(cur, prev, o, add);
			sub_u64(cur, prev, o + 8, add);
			sub_u64(cur, prev, o + 16, add);
		}
		sub_blocks(m, cur, prev, b + h->pmu_stats_off,
			   KPROF_PMU_MAX_EVENTS * h->nr_cpus, add);
	}
	if (!r->nr_funcs)
		return;
	for (c = 0; c < h->nr_cpus; c++)
		for (f = 0; f < r->nr_funcs; f++) {
			uint64_t o = r->func_stats_off + c * r->func_cpu_stride +
				     (uint64_t)f * r->func_stride;

			if (r->type == KPROF_TYPE_KRETPROBE_SET) {
				struct kprof_func_hist *x = (void *)(cur + o);
				const struct kprof_func_hist *y =
					(const void *)(prev + o);
				unsigned int i;

				if (add) {
					if (y->count && (!x->count || y->min < x->min))
						x->min = y->min;
					if (y->max > x->max)
						x->max = y->max;
					x->count += y->count;
					x->sum += y->sum;
					for (i = 0; i < KPROF_FHIST_NR_BUCKETS; i++)
						x->hist[i] += y->hist[i];
					continue;
				}
				if (x->count < y->count)
					continue;
				x->count -= y->count;
				x->sum -= y->sum;
				for (i = 0; i < KPROF_FHIST_NR_BUCKETS; i++)
					x->hist[i] -= x->hist[i] >= y->hist[i] ?
						      y->hist[i] : x->hist[i];
				continue;
			}
			sub_u64(cur, prev, o, add);
			if (r->func_stride == 16)	/* off-CPU: waits, ns */
				sub_u64(cur, prev, o + 8, add);
		}
}

/*
 * The statistics added between two copies of one mapping, in place of
 * cur.  A probe whose slot changed hands (another id) counts from zero.
 */
static void map_delta(const struct kp_map *mc, uint8_t *cur, const uint8_t *prev)
{
	const struct kprof_mmap_header *h = mc->hdr;
	unsigned int s;

	for (s = 0; s < h->max_probes; s++) {
		const struct kprof_probe_info *r =
			(const void *)(cur + h->probes_off +
				       (uint64_t)s * h->probe_rec_size);
		const struct kprof_probe_info *q =
			(const void *)(prev + h->probes_off +
				       (uint64_t)s * h->probe_rec_size);

		if (!r->id || r->id != q->id)
			continue;
		if (r->nr_keys != q->nr_keys || r->nr_funcs != q->nr_funcs ||
		    r->keys_off != q->keys_off || r->pmu_block != q->pmu_block)
			continue;
		sub_probe(mc, cur, prev, r, 0);
		/* the record itself: misses and hits are counts too */
		((struct kprof_probe_info *)r)->nmissed -=
			r->nmissed >= q->nmissed ? q->nmissed : 0;
		((struct kprof_probe_info *)r)->hits -=
			r->hits >= q->hits ? q->hits : 0;
	}
}

/* the keys, functions and PMU events src names and dst does not yet */
static void add_names(const struct kp_map *m, uint8_t *dst, const uint8_t *src,
		      const struct kprof_probe_info *r)
{
	const struct kprof_mmap_header *h = m->hdr;
	uint64_t rs = r->key_rec_size ? r->key_rec_size : sizeof(struct kprof_key);
	unsigned int k;

	for (k = 0; kp_has_keys(r) && k < r->nr_keys; k++) {
		struct kprof_key *d = (void *)(dst + r->keys_off + k * rs);
		const struct kprof_key *q = (const void *)(src + r->keys_off + k * rs);

		if ((q->flags & KPROF_KEY_USED) && !(d->flags & KPROF_KEY_USED))
			memcpy(d, q, rs);
	}
	if (kp_is_set(r->type) && r->nr_funcs)
		memcpy(dst + r->funcs_off, src + r->funcs_off,
		       (size_t)r->nr_funcs * sizeof(struct kprof_func));
	if (r->pmu_block) {
		uint64_t b = h->pmus_off + (uint64_t)(r->pmu_block - 1) *
			     h->pmu_stride;

		if (!dst[b])
			memcpy(dst + b, src + b, KPROF_PMU_MAX_EVENTS *
			       sizeof(struct kprof_pmu_event));
		for (k = 0; k < KPROF_PMU_MAX_EVENTS * h->nr_cpus; k++) {
			struct kprof_pmu_count *d = (void *)(dst + b +
				h->pmu_counts_off + k * sizeof(*d));
			const struct kprof_pmu_count *q = (const void *)(src + b +
				h->pmu_counts_off + k * sizeof(*q));

			if (!d->flags && q->flags) {
				d->flags = q->flags;
				d->pmu_type = q->pmu_type;
				memcpy(d->pmu, q->pmu, sizeof(d->pmu));
			}
		}
	}
}

void kp_map_add(const struct kp_map *m, void *dst, const void *src)
{
	const struct kprof_mmap_header *h = m->hdr;
	unsigned int s;

	for (s = 0; s < h->max_probes; s++) {
		struct kprof_probe_info *r =
			(void *)((uint8_t *)dst + h->probes_off +
				 (uint64_t)s * h->probe_rec_size);
		const struct kprof_probe_info *q =
			(const void *)((const uint8_t *)src + h->probes_off +
				       (uint64_t)s * h->probe_rec_size);

		if (!q->id)
			continue;
		if (!r->id)
			memcpy(r, q, sizeof(*r));
		else if (r->id != q->id)
			continue;
		sub_probe(m, dst, src, r, 1);
		r->nmissed += q->nmissed;
		r->hits += q->hits;
		add_names(m, dst, src, r);
	}
}

void *kp_map_since(const struct kp_map *m, void **prev)
{
	uint8_t *cur = kp_map_copy(m), *keep = calloc(1, m->size);
	struct kp_map mc;
	char err[128];

	if (!cur || !keep || kp_map_init(&mc, cur, m->size, err, sizeof(err))) {
		free(cur);
		free(keep);
		return NULL;
	}
	copy_live(&mc, keep, cur);
	map_delta(&mc, cur, *prev);
	free(*prev);
	*prev = keep;
	return cur;
}
