// SPDX-License-Identifier: GPL-2.0
/*
 * A capture's probes laid out as a mapping in the module's layout
 * (uapi/linux/kprofctl.h), packed: one slot per saved probe slot, key
 * tables, PMU blocks and stack tables after them.  Every size is checked
 * against kp_capture_max_bytes before anything is allocated.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "capture.h"
#include "map-build.h"
#include "spec.h"
#include "kprofctl/hist.h"

/* what a capture may make this CLI allocate; the fuzzer lowers it */
size_t kp_capture_max_bytes = 512u << 20;

static int kp_rd_type(const char *s)
{
	unsigned int t;

	for (t = 1; t <= KPROF_TYPE_MEM; t++)
		if (!strcmp(kp_type_name(t), s))
			return (int)t;
	return 0;
}

static int kp_rd_state(const char *s)
{
	unsigned int t;

	for (t = KPROF_STATE_STOPPED; t <= KPROF_STATE_PENDING; t++)
		if (!strcmp(kp_state_name(t), s))
			return (int)t;
	return 0;
}

static int kp_rd_is_profile(const struct kprof_probe_info *r)
{
	return r->type == KPROF_TYPE_SAMPLE || r->type == KPROF_TYPE_OFFCPU;
}

/* size += len, within the cap; the offset it starts at, or -1 */
int kp_reserve_(struct rd *x, struct build *b, uint64_t len, void *off)
{
	b->size = (b->size + 63) & ~63ULL;
	if (len > kp_capture_max_bytes || b->size > kp_capture_max_bytes - len)
		return kp_rd_bad(x, "the statistics it describes need more than %zu MiB",
			   kp_capture_max_bytes >> 20);
	kp_rd_store64(off, b->size);
	b->size += len;
	return 0;
}

int kp_mul_ok_(struct rd *x, uint64_t a, uint64_t b, void *out)
{
	if (b && a > kp_capture_max_bytes / b)
		return kp_rd_bad(x, "the statistics it describes need more than %zu MiB",
			   kp_capture_max_bytes >> 20);
	kp_rd_store64(out, a * b);
	return 0;
}

static int read_filter(struct rd *x, struct json_object *a,
		       struct kprof_filter *f)
{
	size_t i, n;

	memset(f, 0, sizeof(*f));
	if (!a)
		return 0;
	n = json_object_array_length(a);
	if (n > KPROF_FILTER_TERMS)
		return kp_rd_bad(x, "more than %u filter terms", KPROF_FILTER_TERMS);
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct kprof_term *t = &f->term[i];
		uint32_t v;
		char comm[KPROF_COMM_LEN];

		if (!o || !json_object_is_type(o, json_type_object))
			return kp_rd_bad(x, "filter term %zu is not an object", i);
		if (kp_rd_u32(x, o, "field", UINT16_MAX, -1, &v))
			return -1;
		t->field = (__u16)v;
		if (kp_rd_u32(x, o, "op", UINT16_MAX, -1, &v))
			return -1;
		t->op = (__u16)v;
		if (kp_rd_u32(x, o, "flags", UINT32_MAX, 0, &t->flags) ||
		    kp_rd_u64(x, o, "value", UINT64_MAX, 0, &t->value) ||
		    kp_rd_str(x, o, "comm", comm, sizeof(comm), 1))
			return -1;
		memcpy(t->comm, comm, sizeof(t->comm));
	}
	f->nr = (__u32)n;
	return 0;
}

/* a probe's record, checked; its parts' sizes into the plan */
int kp_plan_probe(struct rd *x, struct build *b, struct plan *p)
{
	struct kprof_probe_info *r = &p->r;
	struct json_object *o = p->o, *a, *keys;
	char s[32];
	uint64_t v;
	size_t i;
	int t;

	memset(r, 0, sizeof(*r));
	if (!json_object_is_type(o, json_type_object))
		return kp_rd_bad(x, "not an object");
	if (kp_rd_u32(x, o, "id", UINT32_MAX, -1, &r->id) ||
	    kp_rd_u32(x, o, "slot", MAX_SLOTS - 1, -1, &r->slot) ||
	    kp_rd_str(x, o, "spec", r->spec, sizeof(r->spec), 0) ||
	    kp_rd_str(x, o, "type", s, sizeof(s), 0))
		return -1;
	if (!r->id)
		return kp_rd_bad(x, "\"id\" is 0");
	t = kp_rd_type(s);
	if (!t)
		return kp_rd_bad(x, "unknown probe type \"%s\"", s);
	r->type = (__u32)t;
	if (kp_rd_str(x, o, "state", s, sizeof(s), 0))
		return -1;
	t = kp_rd_state(s);
	if (!t)
		return kp_rd_bad(x, "unknown probe state \"%s\"", s);
	r->state = (__u32)t;
	if (kp_rd_u32(x, o, "flags", UINT32_MAX, 0, &r->flags) ||
	    kp_rd_u32(x, o, "pid", UINT32_MAX, 0, &r->pid) ||
	    kp_rd_u32(x, o, "maxactive", UINT32_MAX, 0, &r->maxactive) ||
	    kp_rd_u32(x, o, "reg_errno", 4095, 0, &r->reg_errno) ||
	    kp_rd_u64(x, o, "missed", UINT64_MAX, 0, &r->nmissed) ||
	    kp_rd_u64(x, o, "hits", UINT64_MAX, 0, &r->hits) ||
	    kp_rd_u64(x, o, "slow_ns", UINT64_MAX, 0, &r->slow_ns) ||
	    kp_rd_u32(x, o, "mech", KPROF_MECH_PERF, 0, &r->mech) ||
	    kp_rd_u32(x, o, "nr_keys", MAX_IDS, 0, &r->nr_keys) ||
	    kp_rd_u32(x, o, "key_rec_size", 4096, 0, &r->key_rec_size))
		return -1;
	a = kp_rd_arr(x, o, "cpus", 1);
	if (x->err[0])
		return -1;
	for (i = 0; a && i < KPROF_CPUMASK_WORDS; i++)
		if (i < json_object_array_length(a) &&
		    kp_rd_arr_u64(x, a, i, UINT64_MAX, "cpus", &r->cpus[i]))
			return -1;
	a = kp_rd_arr(x, o, "key", 1);
	if (x->err[0])
		return -1;
	for (i = 0; a && i < json_object_array_length(a); i++) {
		if (i >= KPROF_MAX_KEYS)
			return kp_rd_bad(x, "more than %u keys", KPROF_MAX_KEYS);
		if (kp_rd_arr_u64(x, a, i, 0xffffff, "key", &v))
			return -1;
		r->key[i] = (__u32)v;
	}
	a = kp_rd_arr(x, o, "filter", 1);
	if (x->err[0] || read_filter(x, a, &r->filter))
		return -1;
	/* the parts, as the readers will check them */
	keys = kp_rd_member(o, "keys");
	if (kp_has_keys(r) != !!keys)
		return kp_rd_bad(x, "%s", keys ? "\"keys\" on a probe without keys" :
			   "\"keys\" is missing");
	if (keys) {
		uint64_t len = 0, st = 0;

		if (r->key_rec_size && (r->key_rec_size < sizeof(struct kprof_key2) ||
					r->key_rec_size % 8 || !r->key[0] ||
					r->type == KPROF_TYPE_PAIR))
			return kp_rd_bad(x, "bad \"key_rec_size\"");
		if (!r->nr_keys)
			return kp_rd_bad(x, "\"nr_keys\" is 0 on a probe with keys");
		p->rec_size = r->key_rec_size ? r->key_rec_size :
			      sizeof(struct kprof_key);
		r->key_stride = (uint64_t)x->nr_cpus * CPU_STRIDE;
		if (kp_mul_ok(x, r->nr_keys, p->rec_size, &len) ||
		    kp_reserve(x, b, len, &r->keys_off) ||
		    kp_mul_ok(x, r->nr_keys + 1ULL, r->key_stride, &st) ||
		    kp_reserve(x, b, st, &r->key_stats_off))
			return -1;
	}
	if (kp_rd_member(o, "pmu")) {
		if (r->type != KPROF_TYPE_PMU && r->type != KPROF_TYPE_KRETPROBE &&
		    r->type != KPROF_TYPE_PAIR && r->type != KPROF_TYPE_KPROBE)
			return kp_rd_bad(x, "\"pmu\" on a %s probe", kp_type_name(r->type));
		r->pmu_block = ++b->nr_pmus;
	}
	if (kp_is_set(r->type) || kp_rd_is_profile(r)) {
		uint64_t len = 0;

		a = kp_rd_member(o, kp_is_set(r->type) ? "functions" : "stacks");
		if (kp_is_set(r->type)) {
			if (a && !json_object_is_type(a, json_type_array))
				return kp_rd_bad(x, "\"functions\" is not an array");
			r->nr_funcs = a ? (uint32_t)json_object_array_length(a) : 0;
			if (r->nr_funcs > MAX_IDS)
				return kp_rd_bad(x, "too many functions");
			if (kp_rd_u32(x, o, "nr_probed", r->nr_funcs, 0,
				      &r->nr_probed))
				return -1;
			r->func_stride = r->type == KPROF_TYPE_KRETPROBE_SET ?
					 sizeof(struct kprof_func_hist) : 8;
		} else {
			if (kp_rd_u32(x, o, "nr_stacks", MAX_IDS, 0, &r->nr_funcs))
				return -1;
			if (!!a != !!r->nr_funcs)
				return kp_rd_bad(x, "\"stacks\" and \"nr_stacks\" disagree");
			r->func_stride = r->type == KPROF_TYPE_OFFCPU ? 16 : 8;
		}
		if (r->nr_funcs) {
			if (kp_is_set(r->type) &&
			    (kp_mul_ok(x, r->nr_funcs, sizeof(struct kprof_func), &len) ||
			     kp_reserve(x, b, len, &r->funcs_off)))
				return -1;
			if (kp_mul_ok(x, r->nr_funcs, r->func_stride,
				      &r->func_cpu_stride) ||
			    kp_mul_ok(x, r->func_cpu_stride, x->nr_cpus, &len) ||
			    kp_reserve(x, b, len, &r->func_stats_off))
				return -1;
		}
	}
	if (r->slot + 1 > b->max_slot)
		b->max_slot = r->slot + 1;
	return 0;
}

/* ---- filling a mapping --------------------------------------------------- */

static uint8_t *pmu_block(uint8_t *base, const struct layout *l,
			  const struct kprof_probe_info *r)
{
	return base + l->pmus_off + (uint64_t)(r->pmu_block - 1) * l->pmu_stride;
}

static int fill_keys(struct rd *x, uint8_t *base, const struct plan *p,
		     struct kprof_probe_info *r, struct json_object *keys)
{
	struct json_object *rows;
	uint64_t v;
	size_t i, n;

	if (!json_object_is_type(keys, json_type_object))
		return kp_rd_bad(x, "\"keys\" is not an object");
	if (kp_rd_u64(x, keys, "nr", UINT32_MAX, r->nr_keys, &v))
		return -1;
	if (v != r->nr_keys)
		return kp_rd_bad(x, "\"keys\": \"nr\" differs from the probe's");
	if (kp_rd_u64(x, keys, "record_size", 4096, (int64_t)p->rec_size, &v))
		return -1;
	if (v != p->rec_size)
		return kp_rd_bad(x, "\"keys\": \"record_size\" differs from the probe's");
	rows = kp_rd_arr(x, keys, "rows", 0);
	if (!rows)
		return -1;
	n = json_object_array_length(rows);
	if (n > r->nr_keys)
		return kp_rd_bad(x, "more keys than \"nr_keys\"");
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(rows, i);
		struct kprof_key2 *k;
		uint64_t idx;
		char name[sizeof(k->name)];

		if (!o || !json_object_is_type(o, json_type_object))
			return kp_rd_bad(x, "key %zu is not an object", i);
		if (kp_rd_u64(x, o, "index", r->nr_keys - 1, -1, &idx))
			return -1;
		k = (void *)(base + r->keys_off + idx * p->rec_size);
		if (k->flags)
			return kp_rd_bad(x, "key index %" PRIu64 " twice", idx);
		if (kp_rd_u64(x, o, "value", UINT64_MAX, -1, &k->value) ||
		    kp_rd_u32(x, o, "flags", UINT32_MAX, KPROF_KEY_USED,
			      &k->flags) ||
		    kp_rd_str(x, o, "name", name, sizeof(name), 1))
			return -1;
		if (!(k->flags & KPROF_KEY_USED))
			return kp_rd_bad(x, "key %zu is not marked used", i);
		memcpy(k->name, name, sizeof(k->name));
		if (r->key_rec_size &&
		    kp_rd_u64(x, o, "value2", UINT64_MAX, 0, &k->value2))
			return -1;
		if (kp_rd_blocks(x, kp_rd_member(o, "per_cpu"), base + r->key_stats_off +
				idx * r->key_stride))
			return -1;
	}
	return kp_rd_blocks(x, kp_rd_member(keys, "other"), base + r->key_stats_off +
			   (uint64_t)r->nr_keys * r->key_stride);
}

static int fill_funcs(struct rd *x, uint8_t *base, struct kprof_probe_info *r,
		      struct json_object *a, int names)
{
	int lat = r->type == KPROF_TYPE_KRETPROBE_SET;
	size_t f;

	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != r->nr_funcs)
		return kp_rd_bad(x, "\"functions\" differs from the probe's");
	for (f = 0; f < r->nr_funcs; f++) {
		struct json_object *o = json_object_array_get_idx(a, f), *pc;
		struct kprof_func *fn = (void *)(base + r->funcs_off +
						 f * sizeof(*fn));
		char name[KPROF_FUNC_NAME_LEN];
		size_t i, n;
		uint32_t v;

		if (!o || !json_object_is_type(o, json_type_object))
			return kp_rd_bad(x, "function %zu is not an object", f);
		if (names) {
			struct json_object *e = kp_rd_member(o, "error");

			if (kp_rd_str(x, o, "name", name, sizeof(name), 0) ||
			    kp_rd_u32(x, o, "flags", UINT32_MAX, 0, &fn->flags) ||
			    kp_rd_u32(x, o, "reason", UINT16_MAX, 0, &v))
				return -1;
			memcpy(fn->name, name, sizeof(fn->name));
			fn->reason = (__u16)v;
			if (e && (!json_object_is_type(e, json_type_int) ||
				  json_object_get_int64(e) < INT16_MIN ||
				  json_object_get_int64(e) > INT16_MAX))
				return kp_rd_bad(x, "function %zu: bad \"error\"", f);
			fn->error = e ? (__s16)json_object_get_int64(e) : 0;
		}
		pc = kp_rd_arr(x, o, "per_cpu", 1);
		if (x->err[0])
			return -1;
		n = pc ? json_object_array_length(pc) : 0;
		for (i = 0; i < n; i++) {
			struct json_object *e = json_object_array_get_idx(pc, i);
			uint64_t cpu;
			uint8_t *s;

			if (!e || !json_object_is_type(e, json_type_object) ||
			    kp_rd_u64(x, e, "cpu", x->nr_cpus - 1, -1, &cpu))
				return x->err[0] ? -1 : kp_rd_bad(x, "function %zu: bad "
							   "per-CPU entry", f);
			s = base + r->func_stats_off + cpu * r->func_cpu_stride +
			    f * r->func_stride;
			if (!lat) {
				if (kp_rd_u64(x, e, "count", UINT64_MAX, -1,
					      (uint64_t *)s))
					return -1;
				continue;
			}
			{
				struct kprof_func_hist *h = (void *)s;

				if (kp_rd_u64(x, e, "count", UINT64_MAX, -1, &h->count) ||
				    kp_rd_u64(x, e, "sum", UINT64_MAX, 0, &h->sum) ||
				    kp_rd_u64(x, e, "min", UINT64_MAX, 0, &h->min) ||
				    kp_rd_u64(x, e, "max", UINT64_MAX, 0, &h->max))
					return -1;
				if (!kp_rd_member(e, "min"))
					h->min = ~0ULL;
				if (kp_rd_minmax(x, e, h->min, h->max))
					return -1;
				if (kp_rd_member(e, "buckets") &&
				    kp_rd_buckets(x, kp_rd_member(e, "buckets"), NULL,
						  h->hist, KPROF_FHIST_NR_BUCKETS,
						 h->count))
					return -1;
			}
		}
	}
	return 0;
}

static int fill_stacks(struct rd *x, uint8_t *base, struct kprof_probe_info *r,
		       struct json_object *a)
{
	unsigned int two = r->func_stride == 16;
	size_t i, n, j, m;

	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return kp_rd_bad(x, "\"stacks\" is not an array");
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i), *pc;
		uint64_t id, cpu, v;

		if (!o || !json_object_is_type(o, json_type_object) ||
		    kp_rd_u64(x, o, "id", r->nr_funcs, -1, &id))
			return x->err[0] ? -1 : kp_rd_bad(x, "stack %zu is not an object", i);
		if (!id)
			return kp_rd_bad(x, "stack id 0");
		pc = kp_rd_arr(x, o, "per_cpu", 0);
		if (!pc)
			return -1;
		m = json_object_array_length(pc);
		for (j = 0; j < m; j++) {
			struct json_object *e = json_object_array_get_idx(pc, j);
			__u64 *s;

			if (!e || !json_object_is_type(e, json_type_array) ||
			    json_object_array_length(e) != 2 + two)
				return kp_rd_bad(x, "stack %" PRIu64 ": an entry is not "
					   "[cpu, count%s]", id, two ? ", ns" : "");
			if (kp_rd_arr_u64(x, e, 0, x->nr_cpus - 1, "stack cpu", &cpu))
				return -1;
			s = (void *)(base + r->func_stats_off +
				     cpu * r->func_cpu_stride +
				     (id - 1) * r->func_stride);
			if (kp_rd_arr_u64(x, e, 1, UINT64_MAX, "stack count", &v))
				return -1;
			s[0] = v;
			if (two) {
				if (kp_rd_arr_u64(x, e, 2, UINT64_MAX, "stack ns", &v))
					return -1;
				s[1] = v;
			}
		}
	}
	return 0;
}

/* the PMU window totals a capture says its PMUs count (pmu.c asks) */
static int fill_pmu(struct rd *x, uint8_t *base, const struct layout *l,
		    struct kprof_probe_info *r, struct json_object *o, int full)
{
	uint8_t *blk = pmu_block(base, l, r);
	struct json_object *ev, *win, *pc;
	size_t e, ne, i;

	if (!json_object_is_type(o, json_type_object))
		return kp_rd_bad(x, "\"pmu\" is not an object");
	ev = kp_rd_arr(x, o, "events", !full);
	win = kp_rd_arr(x, o, "windows", 1);
	pc = kp_rd_arr(x, o, "per_call", 1);
	if (x->err[0])
		return -1;
	ne = ev ? json_object_array_length(ev) : 0;
	if (ne > KPROF_PMU_MAX_EVENTS)
		return kp_rd_bad(x, "more than %u PMU events", KPROF_PMU_MAX_EVENTS);
	for (e = 0; full && e < ne; e++) {
		struct kprof_pmu_event *d = (void *)(blk + e * sizeof(*d));
		struct json_object *eo = json_object_array_get_idx(ev, e);
		char name[sizeof(d->name)];

		if (!eo || !json_object_is_type(eo, json_type_object) ||
		    kp_rd_str(x, eo, "name", name, sizeof(name), 0) ||
		    kp_rd_u32(x, eo, "type", UINT32_MAX, 0, &d->type) ||
		    kp_rd_u32(x, eo, "flags", UINT32_MAX, 0, &d->flags) ||
		    kp_rd_u64(x, eo, "config", UINT64_MAX, 0, &d->config))
			return x->err[0] ? -1 : kp_rd_bad(x, "PMU event %zu is not an "
						   "object", e);
		if (!name[0])
			return kp_rd_bad(x, "PMU event %zu has no name", e);
		memcpy(d->name, name, sizeof(d->name));
	}
	if (win && json_object_array_length(win) > KPROF_PMU_MAX_EVENTS)
		return kp_rd_bad(x, "more than %u PMU windows", KPROF_PMU_MAX_EVENTS);
	for (e = 0; win && e < json_object_array_length(win); e++) {
		struct json_object *w = json_object_array_get_idx(win, e);

		if (!w || !json_object_is_type(w, json_type_array))
			return kp_rd_bad(x, "PMU windows of event %zu are not an array", e);
		for (i = 0; i < json_object_array_length(w); i++) {
			struct json_object *yo = json_object_array_get_idx(w, i);
			struct kprof_pmu_count *y;
			char pmu[sizeof(y->pmu)];
			uint64_t cpu;
			struct json_object *cnt;

			if (!yo || !json_object_is_type(yo, json_type_object) ||
			    kp_rd_u64(x, yo, "cpu", x->nr_cpus - 1, -1, &cpu))
				return x->err[0] ? -1 : kp_rd_bad(x, "a PMU window is not "
							   "an object");
			y = (void *)(blk + l->pmu_counts_off +
				     (e * x->nr_cpus + cpu) * sizeof(*y));
			if (kp_rd_u64(x, yo, "value", UINT64_MAX, 0, &y->value) ||
			    kp_rd_u64(x, yo, "enabled", UINT64_MAX, 0, &y->enabled) ||
			    kp_rd_u64(x, yo, "running", UINT64_MAX, 0, &y->running) ||
			    kp_rd_u32(x, yo, "pmu_type", UINT32_MAX, 0, &y->pmu_type) ||
			    kp_rd_u32(x, yo, "flags", UINT32_MAX, 0, &y->flags) ||
			    kp_rd_str(x, yo, "pmu", pmu, sizeof(pmu), 1))
				return -1;
			memcpy(y->pmu, pmu, sizeof(y->pmu));
			cnt = kp_rd_member(yo, "pmu_counts");
			if (full && cnt && e < ne && pmu[0])
				kp_pmu_counts_record(pmu, ((struct kprof_pmu_event *)
					(blk + e * sizeof(struct kprof_pmu_event)))->name,
					json_object_get_boolean(cnt));
		}
	}
	if (pc && json_object_array_length(pc) > KPROF_PMU_MAX_EVENTS)
		return kp_rd_bad(x, "more than %u PMU per-call tables", KPROF_PMU_MAX_EVENTS);
	for (e = 0; pc && e < json_object_array_length(pc); e++)
		if (kp_rd_blocks(x, json_object_array_get_idx(pc, e),
				 blk + l->pmu_stats_off +
				e * x->nr_cpus * CPU_STRIDE))
			return -1;
	return 0;
}

/* a probe's statistics (all its parts) into base; full: its names too */
static int fill_probe(struct rd *x, uint8_t *base, const struct layout *l,
		      const struct plan *p, struct json_object *o, int full)
{
	struct kprof_probe_info *r = (void *)(base + l->probes_off +
					      (uint64_t)p->r.slot *
					      sizeof(*r));
	struct json_object *v;

	if (full && r->id)
		return kp_rd_bad(x, "slot %u twice", p->r.slot);
	*r = p->r;
	r->stats_off = l->stats_off + (uint64_t)r->slot * l->probe_stride;
	if (kp_rd_blocks(x, kp_rd_member(o, "stats"), base + r->stats_off))
		return -1;
	v = kp_rd_member(o, "keys");
	if (v && kp_has_keys(r) && fill_keys(x, base, p, r, v))
		return -1;
	if (kp_is_set(r->type) && r->nr_funcs &&
	    fill_funcs(x, base, r, kp_rd_member(o, "functions"), 1))
		return -1;
	if (kp_rd_is_profile(r) && r->nr_funcs &&
	    fill_stacks(x, base, r, kp_rd_member(o, "stacks")))
		return -1;
	v = kp_rd_member(o, "pmu");
	if (v && r->pmu_block && fill_pmu(x, base, l, r, v, full))
		return -1;
	return 0;
}

/* ---- the whole file -------------------------------------------------------- */

static void kp_build_header(uint8_t *base, const struct layout *l, unsigned int nr_cpus,
			    uint32_t abi_minor)
{
	struct kprof_mmap_header *h = (void *)base;

	h->magic = KPROF_MMAP_MAGIC;
	h->abi_major = KPROF_ABI_MAJOR;
	h->abi_minor = abi_minor;
	h->header_size = sizeof(*h);
	h->nr_cpus = nr_cpus;
	h->max_probes = l->max_probes;
	h->probe_rec_size = sizeof(struct kprof_probe_info);
	h->probes_off = l->probes_off;
	h->stats_off = l->stats_off;
	h->probe_stride = l->probe_stride;
	h->cpu_stride = CPU_STRIDE;
	h->hist_sub_bits = KPROF_HIST_SUB_BITS;
	h->hist_max_exp = KPROF_HIST_MAX_EXP;
	h->hist_nr_buckets = KPROF_HIST_NR_BUCKETS;
	h->mmap_size = l->size;
	h->pmus_off = l->pmus_off;
	h->pmu_stride = l->pmu_stride;
	h->max_pmus = l->nr_pmus;
	h->pmu_max_events = KPROF_PMU_MAX_EVENTS;
	h->pmu_counts_off = l->pmu_counts_off;
	h->pmu_stats_off = l->pmu_stats_off;
}

/* a mapping of b's layout from the probes array a (main, or an interval) */
int kp_build_map(struct rd *x, const struct layout *l, struct build *b,
		 struct json_object *a, int full, uint32_t abi_minor,
		     void **out, struct kp_map *m, struct kprof_probe_info **recs,
		     unsigned int *n)
{
	uint8_t *base = calloc(1, l->size);
	const char *outer = x->where;
	char err[128], where[96];
	size_t i, k;

	*out = base;
	if (!base)
		return kp_rd_bad(x, "out of memory");
	kp_build_header(base, l, x->nr_cpus, abi_minor);
	for (i = 0; i < json_object_array_length(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		const struct plan *p = NULL;
		uint32_t id;

		x->where = outer;
		if (full) {
			p = &b->p[i];
		} else {
			if (!o || !json_object_is_type(o, json_type_object) ||
			    kp_rd_u32(x, o, "id", UINT32_MAX, -1, &id))
				return x->err[0] ? -1 : kp_rd_bad(x, "an interval's probe "
							   "is not an object");
			for (k = 0; k < b->n && !p; k++)
				if (b->p[k].r.id == id)
					p = &b->p[k];
			if (!p)	/* deleted before the end: not in the capture */
				continue;
		}
		snprintf(where, sizeof(where), "%s%sprobe %u", outer ? outer : "",
			 outer ? ", " : "", p->r.id);
		x->where = where;
		if (fill_probe(x, base, l, p, o, full))
			return -1;
	}
	x->where = outer;
	if (kp_map_init(m, base, l->size, err, sizeof(err)))
		return kp_rd_bad(x, "rebuilt statistics: %s", err);
	*recs = calloc(l->max_probes, sizeof(**recs));
	if (!*recs)
		return kp_rd_bad(x, "out of memory");
	if (kp_map_probes(m, *recs, l->max_probes, n))
		return kp_rd_bad(x, "rebuilt probe table fails its checks");
	return 0;
}
