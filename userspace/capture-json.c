// SPDX-License-Identifier: GPL-2.0
/*
 * A probe's records as a capture's JSON: its kprof_probe_info fields, its
 * per-CPU blocks with their non-empty buckets as [index, count], its keys,
 * its functions or stacks, its PMU block, the names of its frames.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "capture-json.h"
#include "funcset.h"
#include "pmu.h"
#include "profile.h"
#include "spec.h"
#include "kprofctl/hist.h"

struct json_object *kp_json_u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

void kp_json_put(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

void kp_json_put_u64(struct json_object *o, const char *k, uint64_t v)
{
	kp_json_put(o, k, kp_json_u64(v));
}

void kp_json_put_str(struct json_object *o, const char *k, const char *s)
{
	kp_json_put(o, k, json_object_new_string(s));
}

/* [[index, count], ...] of the non-empty buckets */
static struct json_object *buckets_json(const __u64 *hist)
{
	struct json_object *a = json_object_new_array();
	struct kprof_hist_iter it;

	kprof_hist_for_each(&it, hist) {
		struct json_object *p = json_object_new_array();

		json_object_array_add(p, kp_json_u64(it.idx));
		json_object_array_add(p, kp_json_u64(it.count));
		json_object_array_add(a, p);
	}
	return a;
}

/*
 * A running probe's block is read while calls land in it: its count
 * before its buckets, its min before its max.  Written whole, as the
 * reader wants it: every call in a bucket counted, max not below min.
 */
static uint64_t torn_count(const struct kprof_cpu_stats *st)
{
	struct kprof_hist_iter it;
	uint64_t total = 0;

	kprof_hist_for_each(&it, st->hist)
		total += it.count;
	return total ? total : st->count;
}

static uint64_t torn_max(uint64_t min, uint64_t max)
{
	return min != UINT64_MAX && max < min ? min : max;
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
		kp_json_put_u64(o, "cpu", c);
		kp_json_put_u64(o, "count", torn_count(st));
		kp_json_put_u64(o, "sum", st->sum);
		if (st->count) {
			kp_json_put_u64(o, "min", st->min);
			kp_json_put_u64(o, "max", torn_max(st->min, st->max));
		}
		kp_json_put_u64(o, "drops", st->drops);
		kp_json_put_u64(o, "unmatched", st->unmatched);
		kp_json_put_u64(o, "events", st->events);
		kp_json_put_u64(o, "events_dropped", st->events_dropped);
		kp_json_put(o, "buckets", buckets_json(st->hist));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *cpus_json(const __u64 *mask)
{
	struct json_object *a = json_object_new_array();
	unsigned int w;

	for (w = 0; w < KPROF_CPUMASK_WORDS; w++)
		json_object_array_add(a, kp_json_u64(mask[w]));
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

		kp_json_put_u64(o, "field", t->field);
		kp_json_put_u64(o, "op", t->op);
		kp_json_put_u64(o, "flags", t->flags);
		kp_json_put_u64(o, "value", t->value);
		memcpy(comm, t->comm, KPROF_COMM_LEN);
		comm[KPROF_COMM_LEN] = '\0';
		kp_json_put_str(o, "comm", comm);
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

	kp_json_put_u64(o, "nr", r->nr_keys);
	kp_json_put_u64(o, "record_size", rs);
	a = json_object_new_array();
	for (k = 0; k < r->nr_keys; k++) {
		const struct kprof_key *key =
			(const void *)(m->base + r->keys_off + k * rs);
		struct json_object *e;
		char name[sizeof(key->name) + 1];

		if (!(key->flags & KPROF_KEY_USED))
			continue;
		e = json_object_new_object();
		kp_json_put_u64(e, "index", k);
		kp_json_put_u64(e, "value", key->value);
		if (r->key_rec_size)
			kp_json_put_u64(e, "value2",
					((const struct kprof_key2 *)key)->value2);
		kp_json_put_u64(e, "flags", key->flags);
		memcpy(name, key->name, sizeof(key->name));
		name[sizeof(key->name)] = '\0';
		kp_json_put_str(e, "name", name);
		kp_json_put(e, "per_cpu", blocks_json(m, r->key_stats_off +
					      k * r->key_stride));
		json_object_array_add(a, e);
	}
	kp_json_put(o, "rows", a);
	kp_json_put(o, "other", blocks_json(m, r->key_stats_off +
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
		kp_json_put_str(o, "name", name);
		kp_json_put_u64(o, "flags", fn->flags);
		kp_json_put_u64(o, "reason", fn->reason);
		kp_json_put(o, "error", json_object_new_int(fn->error));
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
				kp_json_put_u64(e, "cpu", c);
				kp_json_put_u64(e, "count", *(const __u64 *)s);
			} else {
				const struct kprof_func_hist *h = (const void *)s;
				struct kprof_hist_iter it;
				struct json_object *b;

				if (!h->count)
					continue;
				e = json_object_new_object();
				kp_json_put_u64(e, "cpu", c);
				kp_json_put_u64(e, "count", h->count);
				kp_json_put_u64(e, "sum", h->sum);
				kp_json_put_u64(e, "min", h->min);
				kp_json_put_u64(e, "max", torn_max(h->min, h->max));
				b = json_object_new_array();
				kprof_fhist_iter_init(&it, h->hist);
				while (kprof_hist_iter_next(&it)) {
					struct json_object *p =
						json_object_new_array();

					json_object_array_add(p, kp_json_u64(it.idx));
					json_object_array_add(p, kp_json_u64(it.count));
					json_object_array_add(b, p);
				}
				kp_json_put(e, "buckets", b);
			}
			json_object_array_add(pc, e);
		}
		kp_json_put(o, "per_cpu", pc);
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
				kp_json_put_u64(o, "id", f + 1);
				pc = json_object_new_array();
				kp_json_put(o, "per_cpu", pc);
				json_object_array_add(a, o);
			}
			e = json_object_new_array();
			json_object_array_add(e, kp_json_u64(c));
			json_object_array_add(e, kp_json_u64(s[0]));
			if (two)
				json_object_array_add(e, kp_json_u64(s[1]));
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
		kp_json_put_str(eo, "name", name);
		kp_json_put_u64(eo, "type", x->type);
		kp_json_put_u64(eo, "flags", x->flags);
		kp_json_put_u64(eo, "config", x->config);
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
			kp_json_put_u64(yo, "cpu", c);
			kp_json_put_u64(yo, "value", y->value);
			kp_json_put_u64(yo, "enabled", y->enabled);
			kp_json_put_u64(yo, "running", y->running);
			kp_json_put_u64(yo, "pmu_type", y->pmu_type);
			kp_json_put_u64(yo, "flags", y->flags);
			kp_json_put_str(yo, "pmu", pmu);
			/* what "not counted by this PMU" needs of sysfs */
			if (root)
				kp_json_put(yo, "pmu_counts",
					    json_object_new_boolean(
					kp_pmu_counts_event(root, pmu, x)));
			json_object_array_add(w, yo);
		}
		json_object_array_add(win, w);
		json_object_array_add(pc, blocks_json(m, h->pmus_off +
			(uint64_t)(r->pmu_block - 1) * h->pmu_stride +
			h->pmu_stats_off + (uint64_t)e * h->nr_cpus * h->cpu_stride));
	}
	kp_json_put(o, "events", ev);
	kp_json_put(o, "windows", win);
	kp_json_put(o, "per_call", pc);
	return o;
}

static struct json_object *frames_json(const struct kp_cap_probe *x)
{
	struct json_object *o = json_object_new_object(), *a;
	uint32_t i, k;

	if (x->frames_err) {
		kp_json_put_str(o, "hidden", strerror(x->frames_err));
		return o;
	}
	a = json_object_new_array();
	for (i = 0; i < x->nr_callers; i++) {
		struct json_object *e;

		if (!x->callers[i])
			continue;
		e = json_object_new_array();
		json_object_array_add(e, kp_json_u64(i + 1));
		json_object_array_add(e, json_object_new_string(x->callers[i]));
		json_object_array_add(a, e);
	}
	kp_json_put(o, "callers", a);
	a = json_object_new_array();
	for (i = 0; i < x->nr_stacks; i++) {
		struct json_object *e, *names;

		if (!x->stacks[(size_t)i * x->depth])
			continue;
		e = json_object_new_object();
		kp_json_put_u64(e, "id", i + 1);
		names = json_object_new_array();
		for (k = 0; k < x->depth && x->stacks[(size_t)i * x->depth + k]; k++)
			json_object_array_add(names, json_object_new_string(
				x->stacks[(size_t)i * x->depth + k]));
		kp_json_put(e, "frames", names);
		json_object_array_add(a, e);
	}
	kp_json_put(o, "stacks", a);
	return o;
}

/* One probe's records; x: its frames and the like (NULL in intervals) */
struct json_object *kp_cap_probe_json(const struct kp_map *m,
				      const struct kprof_probe_info *r,
				       const struct kp_cap_probe *x,
				       const char *root)
{
	struct json_object *o = json_object_new_object(), *k;
	unsigned int i;

	kp_json_put_u64(o, "id", r->id);
	kp_json_put_u64(o, "slot", r->slot);
	kp_json_put_str(o, "spec", r->spec);
	if (!x) {	/* an interval: the statistics alone */
		kp_json_put(o, "stats", blocks_json(m, r->stats_off));
		goto stats;
	}
	kp_json_put_str(o, "type", kp_type_name(r->type));
	kp_json_put_str(o, "state", kp_state_name(r->state));
	kp_json_put_u64(o, "flags", r->flags);
	kp_json_put_u64(o, "pid", r->pid);
	if (x->pid_gone)
		kp_json_put(o, "pid_gone", json_object_new_boolean(1));
	kp_json_put_u64(o, "maxactive", r->maxactive);
	kp_json_put_u64(o, "reg_errno", r->reg_errno);
	kp_json_put_u64(o, "missed", r->nmissed);
	kp_json_put_u64(o, "hits", r->hits);
	kp_json_put(o, "cpus", cpus_json(r->cpus));
	kp_json_put_u64(o, "slow_ns", r->slow_ns);
	kp_json_put_u64(o, "mech", r->mech);
	kp_json_put_u64(o, "nr_keys", r->nr_keys);
	kp_json_put_u64(o, "key_rec_size", r->key_rec_size);
	k = json_object_new_array();
	for (i = 0; i < KPROF_MAX_KEYS; i++)
		json_object_array_add(k, kp_json_u64(r->key[i]));
	kp_json_put(o, "key", k);
	kp_json_put(o, "filter", filter_json(&r->filter));
	kp_json_put(o, "stats", blocks_json(m, r->stats_off));
stats:
	if (kp_has_keys(r))
		kp_json_put(o, "keys", keys_json(m, r, x));
	if (kp_is_set(r->type) && r->nr_funcs) {
		kp_json_put_u64(o, "nr_probed", r->nr_probed);
		kp_json_put(o, "functions", funcs_json(m, r));
	}
	if ((r->type == KPROF_TYPE_SAMPLE || r->type == KPROF_TYPE_OFFCPU) &&
	    r->nr_funcs) {
		kp_json_put_u64(o, "nr_stacks", r->nr_funcs);
		kp_json_put(o, "stacks", stacks_json(m, r));
	}
	if (r->pmu_block)
		kp_json_put(o, "pmu", pmu_json(m, r, x ? root : NULL));
	if (x && (x->frames_err || x->nr_callers || x->nr_stacks))
		kp_json_put(o, "frames", frames_json(x));
	return o;
}
