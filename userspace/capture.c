// SPDX-License-Identifier: GPL-2.0
/*
 * Captures, both ways.  Saving walks a consistent copy of the mapping and
 * writes each probe's records (its kprof_probe_info fields, its per-CPU
 * blocks with their non-empty buckets as [index, count], its keys, its
 * functions or stacks, its PMU block) as JSON; loading lays those records
 * out again as a mapping that kp_map_init() accepts, so every reader of
 * the live mapping reads a file the same way.  A recorded series is a
 * list of such mappings, each holding what one interval added.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <json-c/json.h>

#include "capture.h"
#include "dev.h"
#include "frames.h"
#include "util.h"
#include "profile.h"
#include "show-set.h"
#include "spec.h"
#include "kprofctl/hist.h"

/* frames kept per stack id: a profile's unwind depth and then some */
#define KP_CAP_MAX_DEPTH	64

/* ---- copies and differences of the mapping ---------------------------- */

/* [off, off + len) inside [0, size), overflow-safe */
static int in_map(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

static void copy_range(uint8_t *dst, const uint8_t *src, uint64_t size,
		       uint64_t off, uint64_t len)
{
	if (in_map(off, len, size))
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

void *kp_map_copy(const struct kp_map *m)
{
	struct kp_seq s = { 0 };
	/* calloc: the pages of unused slots are never touched */
	uint8_t *buf = calloc(1, m->size);

	if (!buf)
		return NULL;
	do {
		if (kp_seq_begin(m, &s)) {
			free(buf);
			return NULL;
		}
		copy_live(m, buf, m->base);
	} while (kp_seq_retry(m, &s));
	return buf;
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

/* ---- writing ------------------------------------------------------------ */

static struct json_object *u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

static void put(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static void put_u64(struct json_object *o, const char *k, uint64_t v)
{
	put(o, k, u64(v));
}

static void put_str(struct json_object *o, const char *k, const char *s)
{
	put(o, k, json_object_new_string(s));
}

/* [[index, count], ...] of the non-empty buckets */
static struct json_object *buckets_json(const __u64 *hist)
{
	struct json_object *a = json_object_new_array();
	struct kprof_hist_iter it;

	kprof_hist_for_each(&it, hist) {
		struct json_object *p = json_object_new_array();

		json_object_array_add(p, u64(it.idx));
		json_object_array_add(p, u64(it.count));
		json_object_array_add(a, p);
	}
	return a;
}

static int stats_empty(const struct kprof_cpu_stats *st)
{
	return !st->count && !st->drops && !st->unmatched && !st->events &&
	       !st->events_dropped && !st->sum;
}

/* a block per CPU: [{"cpu", "count", ...}] for the CPUs with anything */
static struct json_object *blocks_json(const struct kp_map *m, uint64_t off)
{
	struct json_object *a = json_object_new_array();
	unsigned int c;

	for (c = 0; c < m->hdr->nr_cpus; c++) {
		const struct kprof_cpu_stats *st =
			(const void *)(m->base + off + c * m->hdr->cpu_stride);
		struct json_object *o;

		if (stats_empty(st))
			continue;
		o = json_object_new_object();
		put_u64(o, "cpu", c);
		put_u64(o, "count", st->count);
		put_u64(o, "sum", st->sum);
		if (st->count) {
			put_u64(o, "min", st->min);
			put_u64(o, "max", st->max);
		}
		put_u64(o, "drops", st->drops);
		put_u64(o, "unmatched", st->unmatched);
		put_u64(o, "events", st->events);
		put_u64(o, "events_dropped", st->events_dropped);
		put(o, "buckets", buckets_json(st->hist));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *cpus_json(const __u64 *mask)
{
	struct json_object *a = json_object_new_array();
	unsigned int w;

	for (w = 0; w < KPROF_CPUMASK_WORDS; w++)
		json_object_array_add(a, u64(mask[w]));
	return a;
}

static struct json_object *filter_json(const struct kprof_filter *f)
{
	struct json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < f->nr && i < KPROF_FILTER_TERMS; i++) {
		const struct kprof_term *t = &f->term[i];
		struct json_object *o = json_object_new_object();
		char comm[KPROF_COMM_LEN + 1];

		put_u64(o, "field", t->field);
		put_u64(o, "op", t->op);
		put_u64(o, "flags", t->flags);
		put_u64(o, "value", t->value);
		memcpy(comm, t->comm, KPROF_COMM_LEN);
		comm[KPROF_COMM_LEN] = '\0';
		put_str(o, "comm", comm);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *keys_json(const struct kp_map *m,
				     const struct kprof_probe_info *r,
				     const struct kp_cap_probe *x)
{
	struct json_object *o = json_object_new_object(), *a;
	uint64_t rs = r->key_rec_size ? r->key_rec_size : sizeof(struct kprof_key);
	unsigned int k;

	put_u64(o, "nr", r->nr_keys);
	put_u64(o, "record_size", rs);
	a = json_object_new_array();
	for (k = 0; k < r->nr_keys; k++) {
		const struct kprof_key *key =
			(const void *)(m->base + r->keys_off + k * rs);
		struct json_object *e;
		char name[sizeof(key->name) + 1];

		if (!(key->flags & KPROF_KEY_USED))
			continue;
		e = json_object_new_object();
		put_u64(e, "index", k);
		put_u64(e, "value", key->value);
		if (r->key_rec_size)
			put_u64(e, "value2",
				((const struct kprof_key2 *)key)->value2);
		put_u64(e, "flags", key->flags);
		memcpy(name, key->name, sizeof(key->name));
		name[sizeof(key->name)] = '\0';
		put_str(e, "name", name);
		put(e, "per_cpu", blocks_json(m, r->key_stats_off +
					      k * r->key_stride));
		json_object_array_add(a, e);
	}
	put(o, "rows", a);
	put(o, "other", blocks_json(m, r->key_stats_off +
				    (uint64_t)r->nr_keys * r->key_stride));
	(void)x;
	return o;
}

static struct json_object *funcs_json(const struct kp_map *m,
				      const struct kprof_probe_info *r)
{
	struct json_object *a = json_object_new_array();
	int lat = r->type == KPROF_TYPE_KRETPROBE_SET;
	unsigned int f, c;

	for (f = 0; f < r->nr_funcs; f++) {
		const struct kprof_func *fn =
			(const void *)(m->base + r->funcs_off + f * sizeof(*fn));
		struct json_object *o = json_object_new_object(), *pc;
		char name[KPROF_FUNC_NAME_LEN + 1];

		memcpy(name, fn->name, KPROF_FUNC_NAME_LEN);
		name[KPROF_FUNC_NAME_LEN] = '\0';
		put_str(o, "name", name);
		put_u64(o, "flags", fn->flags);
		put_u64(o, "reason", fn->reason);
		put(o, "error", json_object_new_int(fn->error));
		pc = json_object_new_array();
		for (c = 0; c < m->hdr->nr_cpus; c++) {
			const uint8_t *s = m->base + r->func_stats_off +
					   c * r->func_cpu_stride +
					   (uint64_t)f * r->func_stride;
			struct json_object *e;

			if (!lat) {
				if (!*(const __u64 *)s)
					continue;
				e = json_object_new_object();
				put_u64(e, "cpu", c);
				put_u64(e, "count", *(const __u64 *)s);
			} else {
				const struct kprof_func_hist *h = (const void *)s;
				struct kprof_hist_iter it;
				struct json_object *b;

				if (!h->count)
					continue;
				e = json_object_new_object();
				put_u64(e, "cpu", c);
				put_u64(e, "count", h->count);
				put_u64(e, "sum", h->sum);
				put_u64(e, "min", h->min);
				put_u64(e, "max", h->max);
				b = json_object_new_array();
				kprof_fhist_iter_init(&it, h->hist);
				while (kprof_hist_iter_next(&it)) {
					struct json_object *p =
						json_object_new_array();

					json_object_array_add(p, u64(it.idx));
					json_object_array_add(p, u64(it.count));
					json_object_array_add(b, p);
				}
				put(e, "buckets", b);
			}
			json_object_array_add(pc, e);
		}
		put(o, "per_cpu", pc);
		json_object_array_add(a, o);
	}
	return a;
}

/* a profile's stack table: [{"id", "per_cpu": [[cpu, n(, ns)], ...]}] */
static struct json_object *stacks_json(const struct kp_map *m,
				       const struct kprof_probe_info *r)
{
	struct json_object *a = json_object_new_array();
	int two = r->func_stride == 16;
	unsigned int f, c;

	for (f = 0; f < r->nr_funcs; f++) {
		struct json_object *o = NULL, *pc = NULL;

		for (c = 0; c < m->hdr->nr_cpus; c++) {
			const __u64 *s = (const void *)(m->base + r->func_stats_off +
					  c * r->func_cpu_stride +
					  (uint64_t)f * r->func_stride);
			struct json_object *e;

			if (!s[0] && !(two && s[1]))
				continue;
			if (!o) {
				o = json_object_new_object();
				put_u64(o, "id", f + 1);
				pc = json_object_new_array();
				put(o, "per_cpu", pc);
				json_object_array_add(a, o);
			}
			e = json_object_new_array();
			json_object_array_add(e, u64(c));
			json_object_array_add(e, u64(s[0]));
			if (two)
				json_object_array_add(e, u64(s[1]));
			json_object_array_add(pc, e);
		}
	}
	return a;
}

static struct json_object *pmu_json(const struct kp_map *m,
				    const struct kprof_probe_info *r,
				    const char *root)
{
	const struct kprof_mmap_header *h = m->hdr;
	const uint8_t *b = m->base + h->pmus_off +
			   (uint64_t)(r->pmu_block - 1) * h->pmu_stride;
	struct json_object *o = json_object_new_object(), *ev, *win, *pc;
	unsigned int e, c;

	ev = json_object_new_array();
	win = json_object_new_array();
	pc = json_object_new_array();
	for (e = 0; e < KPROF_PMU_MAX_EVENTS; e++) {
		const struct kprof_pmu_event *x = (const void *)(b + e * sizeof(*x));
		struct json_object *eo, *w;
		char name[sizeof(x->name) + 1];

		if (!x->name[0])
			break;
		memcpy(name, x->name, sizeof(x->name));
		name[sizeof(x->name)] = '\0';
		eo = json_object_new_object();
		put_str(eo, "name", name);
		put_u64(eo, "type", x->type);
		put_u64(eo, "flags", x->flags);
		put_u64(eo, "config", x->config);
		json_object_array_add(ev, eo);
		w = json_object_new_array();
		for (c = 0; c < h->nr_cpus; c++) {
			const struct kprof_pmu_count *y =
				(const void *)(b + h->pmu_counts_off +
					       (e * h->nr_cpus + c) * sizeof(*y));
			struct json_object *yo;
			char pmu[sizeof(y->pmu) + 1];

			if (!y->flags && !y->value && !y->enabled)
				continue;
			memcpy(pmu, y->pmu, sizeof(y->pmu));
			pmu[sizeof(y->pmu)] = '\0';
			yo = json_object_new_object();
			put_u64(yo, "cpu", c);
			put_u64(yo, "value", y->value);
			put_u64(yo, "enabled", y->enabled);
			put_u64(yo, "running", y->running);
			put_u64(yo, "pmu_type", y->pmu_type);
			put_u64(yo, "flags", y->flags);
			put_str(yo, "pmu", pmu);
			/* what "not counted by this PMU" needs of sysfs */
			if (root)
				put(yo, "pmu_counts",
				    json_object_new_boolean(
					kp_pmu_counts_event(root, pmu, x)));
			json_object_array_add(w, yo);
		}
		json_object_array_add(win, w);
		json_object_array_add(pc, blocks_json(m, h->pmus_off +
			(uint64_t)(r->pmu_block - 1) * h->pmu_stride +
			h->pmu_stats_off + (uint64_t)e * h->nr_cpus * h->cpu_stride));
	}
	put(o, "events", ev);
	put(o, "windows", win);
	put(o, "per_call", pc);
	return o;
}

static struct json_object *frames_json(const struct kp_cap_probe *x)
{
	struct json_object *o = json_object_new_object(), *a;
	uint32_t i, k;

	if (x->frames_err) {
		put_str(o, "hidden", strerror(x->frames_err));
		return o;
	}
	a = json_object_new_array();
	for (i = 0; i < x->nr_callers; i++) {
		struct json_object *e;

		if (!x->callers[i])
			continue;
		e = json_object_new_array();
		json_object_array_add(e, u64(i + 1));
		json_object_array_add(e, json_object_new_string(x->callers[i]));
		json_object_array_add(a, e);
	}
	put(o, "callers", a);
	a = json_object_new_array();
	for (i = 0; i < x->nr_stacks; i++) {
		struct json_object *e, *names;

		if (!x->stacks[(size_t)i * x->depth])
			continue;
		e = json_object_new_object();
		put_u64(e, "id", i + 1);
		names = json_object_new_array();
		for (k = 0; k < x->depth && x->stacks[(size_t)i * x->depth + k]; k++)
			json_object_array_add(names, json_object_new_string(
				x->stacks[(size_t)i * x->depth + k]));
		put(e, "frames", names);
		json_object_array_add(a, e);
	}
	put(o, "stacks", a);
	return o;
}

/* One probe's records; x: its frames and the like (NULL in intervals) */
static struct json_object *probe_json(const struct kp_map *m,
				      const struct kprof_probe_info *r,
				      const struct kp_cap_probe *x,
				      const char *root)
{
	struct json_object *o = json_object_new_object(), *k;
	unsigned int i;

	put_u64(o, "id", r->id);
	put_u64(o, "slot", r->slot);
	put_str(o, "spec", r->spec);
	if (!x) {	/* an interval: the statistics alone */
		put(o, "stats", blocks_json(m, r->stats_off));
		goto stats;
	}
	put_str(o, "type", kp_type_name(r->type));
	put_str(o, "state", kp_state_name(r->state));
	put_u64(o, "flags", r->flags);
	put_u64(o, "pid", r->pid);
	if (x->pid_gone)
		put(o, "pid_gone", json_object_new_boolean(1));
	put_u64(o, "maxactive", r->maxactive);
	put_u64(o, "reg_errno", r->reg_errno);
	put_u64(o, "missed", r->nmissed);
	put_u64(o, "hits", r->hits);
	put(o, "cpus", cpus_json(r->cpus));
	put_u64(o, "slow_ns", r->slow_ns);
	put_u64(o, "mech", r->mech);
	put_u64(o, "nr_keys", r->nr_keys);
	put_u64(o, "key_rec_size", r->key_rec_size);
	k = json_object_new_array();
	for (i = 0; i < KPROF_MAX_KEYS; i++)
		json_object_array_add(k, u64(r->key[i]));
	put(o, "key", k);
	put(o, "filter", filter_json(&r->filter));
	put(o, "stats", blocks_json(m, r->stats_off));
stats:
	if (kp_has_keys(r))
		put(o, "keys", keys_json(m, r, x));
	if (kp_is_set(r->type) && r->nr_funcs) {
		put_u64(o, "nr_probed", r->nr_probed);
		put(o, "functions", funcs_json(m, r));
	}
	if ((r->type == KPROF_TYPE_SAMPLE || r->type == KPROF_TYPE_OFFCPU) &&
	    r->nr_funcs) {
		put_u64(o, "nr_stacks", r->nr_funcs);
		put(o, "stacks", stacks_json(m, r));
	}
	if (r->pmu_block)
		put(o, "pmu", pmu_json(m, r, x ? root : NULL));
	if (x && (x->frames_err || x->nr_callers || x->nr_stacks))
		put(o, "frames", frames_json(x));
	return o;
}

/* ---- frames, as show names them ---------------------------------------- */

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int has_key(const struct kprof_probe_info *r, unsigned int kind)
{
	return r->key_rec_size && (KPROF_KEYSPEC_KIND(r->key[0]) == kind ||
				   KPROF_KEYSPEC_KIND(r->key[1]) == kind);
}

static uint64_t key_val(const struct kp_map *m, const struct kprof_probe_info *r,
			unsigned int k, unsigned int kind)
{
	const struct kprof_key2 *key =
		(const void *)(m->base + r->keys_off + k * r->key_rec_size);

	if (!(key->flags & KPROF_KEY_USED))
		return 0;
	return KPROF_KEYSPEC_KIND(r->key[0]) == kind ? key->value : key->value2;
}

/* the names of the caller and stack ids probe r's keys use */
static void frames_keys(struct kp_dev *d, const struct kp_map *m,
			const struct kprof_probe_info *r, struct kp_cap_probe *x)
{
	void *fr = kp_frames_new(d);
	unsigned int k, i;

	if (!fr)
		return;
	x->nr_callers = has_key(r, KPROF_KEY_CALLER) ? r->nr_keys : 0;
	x->nr_stacks = has_key(r, KPROF_KEY_STACK) ? r->nr_keys : 0;
	x->depth = KP_CAP_MAX_DEPTH;
	x->callers = calloc(x->nr_callers + 1, sizeof(char *));
	x->stacks = calloc((size_t)x->nr_stacks * x->depth + 1, sizeof(char *));
	for (k = 0; x->callers && x->stacks && k < r->nr_keys; k++) {
		uint64_t id = x->nr_callers ?
			      key_val(m, r, k, KPROF_KEY_CALLER) : 0;

		if (id && id <= x->nr_callers && !x->callers[id - 1])
			x->callers[id - 1] =
				dup_or_null(kp_frames_caller(fr, r, id));
		id = x->nr_stacks ? key_val(m, r, k, KPROF_KEY_STACK) : 0;
		if (!id || id > x->nr_stacks ||
		    x->stacks[(id - 1) * x->depth])
			continue;
		for (i = 0; i < x->depth; i++) {
			const char *s = kp_frames_stack(fr, r, id, i);

			if (!s)
				break;
			x->stacks[(id - 1) * x->depth + i] = strdup(s);
		}
	}
	x->frames_err = kp_frames_err(fr);
	kp_frames_free(fr);
}

static void frames_profile(struct kp_dev *d, const struct kp_map *m,
			   const struct kprof_probe_info *r,
			   struct kp_cap_probe *x)
{
	struct kp_profile p;
	uint32_t id;
	unsigned int i;

	if (kp_prof_load_map(d, m, r, &p))
		return;
	x->frames_err = p.frames_err;
	x->depth = KP_CAP_MAX_DEPTH;
	x->nr_stacks = p.nr_ids;
	x->stacks = calloc((size_t)x->nr_stacks * x->depth + 1, sizeof(char *));
	for (id = 1; x->stacks && !p.frames_err && id <= p.nr_ids; id++) {
		if (!kp_prof_count(&p, id, NULL) && !kp_prof_weight(&p, id, NULL))
			continue;
		for (i = 0; i < x->depth; i++) {
			const char *s = kp_prof_frame(&p, id, i);

			if (!s)
				break;
			x->stacks[(id - 1) * x->depth + i] = strdup(s);
		}
	}
	kp_prof_free(&p);
}

static void cap_probe_free(struct kp_cap_probe *x)
{
	size_t i;

	for (i = 0; x->callers && i < x->nr_callers; i++)
		free(x->callers[i]);
	for (i = 0; x->stacks && i < (size_t)x->nr_stacks * x->depth; i++)
		free(x->stacks[i]);
	free(x->callers);
	free(x->stacks);
	memset(x, 0, sizeof(*x));
}

/* ---- the context ------------------------------------------------------- */

static void first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* the board's model (device tree), else the DMI product, else "" */
static void machine_model(char *buf, size_t len)
{
	const char *root = kp_sysfs_root();
	char path[512];

	snprintf(path, sizeof(path), "%s/proc/device-tree/model", root);
	first_line(path, buf, len);
	if (buf[0])
		return;
	snprintf(path, sizeof(path), "%s/sys/class/dmi/id/product_name", root);
	first_line(path, buf, len);
}

static struct json_object *context_json(struct kp_dev *d,
					const struct kp_topo *t,
					uint64_t window_ns)
{
	struct json_object *o = json_object_new_object(), *a, *h;
	char model[128], when[40], abi[16], path[512], ver[64];
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	unsigned int i;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	machine_model(model, sizeof(model));
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	put_str(o, "created", when);
	put_str(o, "kprofctl", KPROFCTL_VERSION);
	snprintf(abi, sizeof(abi), "%u.%u", d->ver.abi_major, d->ver.abi_minor);
	put_str(o, "module_abi", abi);
	snprintf(path, sizeof(path), "%s/sys/module/kprofctl/version",
		 kp_sysfs_root());
	first_line(path, ver, sizeof(ver));
	if (ver[0])
		put_str(o, "module_version", ver);
	put_str(o, "kernel", u.release);
	put_str(o, "arch", u.machine);
	put_str(o, "machine", model);
	put_u64(o, "nr_cpus", d->m.hdr->nr_cpus);
	put_u64(o, "window_ns", window_ns);
	h = json_object_new_object();
	put_u64(h, "sub_bits", KPROF_HIST_SUB_BITS);
	put_u64(h, "max_exp", KPROF_HIST_MAX_EXP);
	put_u64(h, "nr_buckets", KPROF_HIST_NR_BUCKETS);
	put(o, "histogram", h);
	a = json_object_new_array();
	for (i = 0; i < t->nr_clusters; i++) {
		struct json_object *c = json_object_new_object();

		put_str(c, "name", t->cl[i].name);
		put_str(c, "cpus", t->cl[i].cpus);
		put_str(c, "pmu", t->cl[i].pmu);
		json_object_array_add(a, c);
	}
	put(o, "clusters", a);
	return o;
}

/* ---- recording ---------------------------------------------------------- */

int kp_rec_init(struct kp_recorder *r, const struct kp_map *m, uint64_t now,
		uint64_t interval_ns)
{
	memset(r, 0, sizeof(*r));
	r->interval_ns = interval_ns;
	r->prev = kp_map_copy(m);
	r->intervals = json_object_new_array();
	if (!r->prev || !r->intervals) {
		kp_rec_free(r);
		return -1;
	}
	r->size = m->size;
	r->t0_ns = r->prev_ns = now;
	return 0;
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

int kp_rec_snap(struct kp_recorder *r, const struct kp_map *m, uint64_t now)
{
	struct json_object *o, *a;
	struct kp_map mc;
	char err[128];
	uint8_t *cur = kp_map_since(m, &r->prev);
	unsigned int s;

	if (!cur)
		return -1;
	if (kp_map_init(&mc, cur, m->size, err, sizeof(err))) {
		free(cur);
		return -1;
	}
	o = json_object_new_object();
	put_u64(o, "t_ns", now - r->t0_ns);
	put_u64(o, "dt_ns", now - r->prev_ns);
	a = json_object_new_array();
	for (s = 0; s < mc.hdr->max_probes; s++) {
		const struct kprof_probe_info *p =
			(const void *)(cur + mc.hdr->probes_off +
				       (uint64_t)s * mc.hdr->probe_rec_size);

		if (p->id)
			json_object_array_add(a, probe_json(&mc, p, NULL, NULL));
	}
	put(o, "probes", a);
	json_object_array_add(r->intervals, o);
	r->n++;
	free(cur);
	r->prev_ns = now;
	return 0;
}

void kp_rec_free(struct kp_recorder *r)
{
	free(r->prev);
	if (r->intervals)
		json_object_put(r->intervals);
	memset(r, 0, sizeof(*r));
}

/* ---- save ---------------------------------------------------------------- */

int kp_capture_save(const char *path, struct kp_dev *d, const uint32_t *ids,
		    unsigned int nids, uint64_t window_ns,
		    const struct kp_recorder *rec)
{
	struct json_object *top = NULL, *probes, *ctx, *losses;
	uint64_t missed = 0, drops = 0, evd = 0;
	struct kprof_probe_info *recs = NULL, *live = NULL;
	struct kp_topo *t = NULL;
	unsigned int n = 0, nlive = 0, i, j;
	struct kp_map cm;
	char err[128];
	void *copy = NULL;
	int ret = 1;

	if (kp_dev_map(d))
		return 1;
	/* window totals are refreshed by PMU_READ, misses by LIST */
	if (d->ver.caps & KPROF_CAP_PMU)
		kp_id_cmd(d, KPROF_IOC_PMU_READ, 0);
	copy = kp_map_copy(&d->m);
	recs = calloc(d->m.hdr->max_probes, sizeof(*recs));
	t = calloc(1, sizeof(*t));
	if (!copy || !recs || !t) {
		fprintf(stderr, "kprofctl: %s\n", copy ? "out of memory" :
			"the statistics mapping never settled");
		goto out;
	}
	if (kp_map_init(&cm, copy, d->m.size, err, sizeof(err)) ||
	    kp_map_probes(&cm, recs, cm.hdr->max_probes, &n)) {
		fprintf(stderr, "kprofctl: the probe table in the mapping is "
			"inconsistent\n");
		goto out;
	}
	if (!kp_list_probes(d, &live, &nlive))
		for (i = 0; i < n; i++)
			for (j = 0; j < nlive; j++)
				if (live[j].id == recs[i].id)
					recs[i].nmissed = live[j].nmissed;
	kp_topo_load(t, kp_sysfs_root(), d->ver.nr_cpus);
	top = json_object_new_object();
	put_str(top, "format", KP_CAPTURE_FORMAT);
	put_u64(top, "version", KP_CAPTURE_VERSION);
	ctx = context_json(d, t, window_ns);
	put(top, "context", ctx);
	probes = json_object_new_array();
	for (i = 0; i < n; i++) {
		struct kp_cap_probe x = { .id = recs[i].id };
		int want = !nids;
		struct kp_agg a;

		for (j = 0; j < nids; j++)
			want |= ids[j] == recs[i].id;
		if (!want)
			continue;
		x.pid_gone = (recs[i].flags & (KPROF_ADD_PID | KPROF_ADD_TGID)) &&
			     kp_pid_gone(recs[i].pid);
		if (kp_prof_is(&cm, &recs[i]))
			frames_profile(d, &cm, &recs[i], &x);
		else if (has_key(&recs[i], KPROF_KEY_CALLER) ||
			 has_key(&recs[i], KPROF_KEY_STACK))
			frames_keys(d, &cm, &recs[i], &x);
		json_object_array_add(probes, probe_json(&cm, &recs[i], &x,
							 kp_sysfs_root()));
		cap_probe_free(&x);
		kp_aggregate(&cm, &recs[i], -1, &a);
		missed += recs[i].nmissed;
		drops += a.drops;
		evd += a.events_dropped;
	}
	put(top, "probes", probes);
	/* what was not counted, at a glance (each probe has its own) */
	losses = json_object_new_object();
	put_u64(losses, "missed", missed);
	put_u64(losses, "dropped", drops);
	put_u64(losses, "events_dropped", evd);
	put(ctx, "losses", losses);
	if (rec && rec->n) {
		struct json_object *s = json_object_new_object();

		put_u64(s, "interval_ns", rec->interval_ns);
		put(s, "data", json_object_get(rec->intervals));
		put(top, "series", s);
	}
	{
		FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

		ret = !f || fputs(json_object_to_json_string_ext(top,
				JSON_C_TO_STRING_SPACED |
				JSON_C_TO_STRING_NOSLASHESCAPE), f) < 0 ||
		      fputc('\n', f) < 0;
		if (f && (f == stdout ? fflush(f) : fclose(f)))
			ret = 1;
	}
	if (ret)
		fprintf(stderr, "kprofctl: cannot write '%s': %s\n", path,
			strerror(errno));
out:
	if (top)
		json_object_put(top);
	free(live);
	free(copy);
	free(recs);
	free(t);
	return ret;
}
