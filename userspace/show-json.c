// SPDX-License-Identifier: GPL-2.0
/* show --json: one probe's object (function sets: show-set.c). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "pmu.h"
#include "profile.h"
#include "show-keys.h"
#include "show-json.h"
#include "show-mem.h"
#include "spec.h"
#include "util.h"
#include "kprofctl/hist.h"

#define U64(k, v) kp_jw_u64_field(w, k, (uint64_t)(v))

/* name + sfx: "p50" "_ns" */
static void name_sfx(struct kp_jw *w, const char *name, const char *sfx)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%s%s", name, sfx);
	kp_jw_name(w, buf);
}

/* "p50_ns":...: every percentile, in kp_pcts' order */
static void json_pcts(struct kp_jw *w, const struct kp_agg *a,
		      const char *sfx)
{
	unsigned int i;

	for (i = 0; i < KP_NR_PCTS; i++) {
		name_sfx(w, kp_pcts[i].key, sfx);
		kp_jw_u64(w, kp_pct_value(a, i));
	}
}

void kp_json_buckets(struct kp_jw *w, struct kprof_hist_iter *it,
			 const char *sfx)
{
	kp_jw_name(w, "buckets");
	kp_jw_start_array(w);
	while (kprof_hist_iter_next(it)) {
		kp_jw_start_object(w);
		name_sfx(w, "lo", sfx);
		kp_jw_u64(w, it->lower);
		name_sfx(w, "hi", sfx);
		kp_jw_u64(w, it->upper);
		U64("count", it->count);
		kp_jw_end_object(w);
	}
	kp_jw_end_array(w);
}

/* a distribution; sfx "_ns" for latencies, "" for plain values */
static void json_dist(struct kp_jw *w, const struct kp_agg *a,
		      const char *sfx)
{
	struct kprof_hist_iter it;

	U64("count", a->count);
	name_sfx(w, "min", sfx);
	kp_jw_u64(w, a->min);
	name_sfx(w, "max", sfx);
	kp_jw_u64(w, a->max);
	name_sfx(w, "sum", sfx);
	kp_jw_u64(w, a->sum);
	json_pcts(w, a, sfx);
	name_sfx(w, "mean", sfx);
	kp_jw_u64(w, a->count ? a->sum / a->count : 0);
	kprof_hist_iter_init(&it, a->hist);
	kp_json_buckets(w, &it, sfx);
}

/* a count, and its latencies when r's kind times its calls */
static void json_latency(struct kp_jw *w, const struct kprof_probe_info *r,
			 const struct kp_agg *a)
{
	if (kp_type_latency(r->type))
		json_dist(w, a, "_ns");
	else
		U64("count", a->count);
}

/* "clusters":[...] when --by-cluster */
static void json_clusters(struct kp_jw *w, const struct kp_map *m,
			  const struct kprof_probe_info *r,
			  const struct kp_show_opts *o, int key, int event)
{
	unsigned int k;

	if (!o->by_cluster || !o->topo)
		return;
	kp_jw_name(w, "clusters");
	kp_jw_start_array(w);
	for (k = 0; k < o->topo->nr_clusters; k++) {
		const struct kp_cluster *cl = &o->topo->cl[k];
		struct kp_agg a;

		kp_aggregate_mask(m, r, key, event, cl->mask, &a);
		kp_jw_start_object(w);
		kp_jw_string_field(w, "cluster", cl->name);
		kp_jw_string_field(w, "cpus", cl->cpus);
		U64("lost", a.drops);
		if (event >= 0)
			json_dist(w, &a, "");
		else
			json_latency(w, r, &a);
		kp_jw_end_object(w);
	}
	kp_jw_end_array(w);
}

static void show_pmu_json(struct kp_jw *w, const struct kp_map *m,
			  const struct kprof_probe_info *r,
			  const struct kp_show_opts *o)
{
	struct kp_pmu_snap s;
	struct kp_topo none;
	unsigned int e;
	double ipc;

	if (kp_pmu_snap_read(m, r, &s))
		return;
	kp_jw_name(w, "pmu");
	kp_jw_start_object(w);
	if (r->type == KPROF_TYPE_KRETPROBE) {
		kp_jw_name(w, "per_call");
		kp_jw_start_object(w);
		for (e = 0; e < s.nr_events; e++) {
			struct kp_agg a;

			kp_aggregate_pmu(m, r, e, -1, &a);
			kp_jw_name(w, s.ev[e].name);
			kp_jw_start_object(w);
			U64("lost", a.drops);
			json_dist(w, &a, "");
			json_clusters(w, m, r, o, -1, (int)e);
			kp_jw_end_object(w);
		}
		kp_jw_end_object(w);
		if (kp_pmu_call_ipc(m, r, &s, NULL, &ipc)) {
			kp_jw_name(w, "ipc_per_call");
			kp_jw_printf(w, "%.4f", ipc);
		}
	}
	if (!o->topo) {
		memset(&none, 0, sizeof(none));
		none.nr_cpus = 0;
	}
	kp_jw_name(w, "window");
	kp_pmu_json(w, &s, o->topo ? o->topo : &none,
		    o->sysfs_root ? o->sysfs_root : "");
	kp_jw_end_object(w);
	kp_pmu_snap_free(&s);
}

/* "other_keys":{"beyond":N,...}: the calls of keys beyond the table */
static void json_other(struct kp_jw *w, const struct kprof_probe_info *r,
		       const struct kp_agg *other)
{
	kp_jw_name(w, "other_keys");
	kp_jw_start_object(w);
	U64("beyond", r->nr_keys);
	json_latency(w, r, other);
	kp_jw_end_object(w);
}

/* "id","spec","type","state": every probe's object starts with them */
static void json_head(struct kp_jw *w, const struct kprof_probe_info *r)
{
	U64("id", r->id);
	kp_jw_string_field(w, "spec", r->spec);
	kp_jw_string_field(w, "type", kp_type_name(r->type));
	kp_jw_string_field(w, "state", kp_state_name(r->state));
}

static void show_pair_json(struct kp_jw *w, const struct kp_map *m,
			   const struct kprof_probe_info *r,
			   const struct kp_show_opts *o)
{
	unsigned int n, total, i;
	struct kp_key *keys = kp_select_keys(m, r, o, &n, &total);
	struct kp_agg a, other;

	kp_aggregate_pair(m, r, -1, &a);
	kp_aggregate_key(m, r, r->nr_keys, -1, &other);
	kp_jw_start_object(w);
	json_head(w, r);
	U64("missed", a.drops);
	U64("dropped_starts", a.drops);
	U64("unmatched_ends", a.unmatched);
	U64("slow_ns", r->slow_ns);
	U64("slow_events", a.events);
	U64("slow_dropped", a.events_dropped);
	U64("nr_keys", total);
	U64("key_capacity", r->nr_keys);
	json_latency(w, r, &a);
	kp_jw_name(w, "keys");
	kp_jw_start_array(w);
	for (i = 0; i < n; i++) {
		struct kp_agg ka;
		char label[KP_KEY_LABEL];

		kp_aggregate_key(m, r, keys[i].index, -1, &ka);
		kp_key_label(r, &keys[i], label, sizeof(label));
		kp_jw_start_object(w);
		kp_jw_string_field(w, "key", label);
		kp_jw_string_field(w, "name", keys[i].name);
		json_latency(w, r, &ka);
		json_clusters(w, m, r, o, (int)keys[i].index, -1);
		kp_jw_end_object(w);
	}
	kp_jw_end_array(w);
	json_other(w, r, &other);
	kp_jw_end_object(w);
	free(keys);
}

/* "same_function":[IDS]: the other probes on a kprobe's function */
static void json_sharing(struct kp_jw *w, const struct kprof_probe_info *r,
			 const struct kp_show_opts *o)
{
	char fn[KPROF_SPEC_LEN], other[KPROF_SPEC_LEN];
	unsigned int i;

	if (!o->all || kp_probe_func(r->spec, fn, sizeof(fn)))
		return;
	kp_jw_name(w, "same_function");
	kp_jw_start_array(w);
	for (i = 0; i < o->nall; i++)
		if (o->all[i].id != r->id &&
		    !kp_probe_func(o->all[i].spec, other, sizeof(other)) &&
		    kp_same_func(fn, other))
			kp_jw_u64(w, o->all[i].id);
	kp_jw_end_array(w);
}

/* "stack":["func+0x1c",...] when the reader may see the frames */
static void json_stack(struct kp_jw *w, const struct kprof_probe_info *r,
		       const struct kp_show_opts *o, const struct kp_key *k)
{
	uint64_t id = kp_key_stack_id(r, k);
	const char *name;
	unsigned int i;

	for (i = 0; id && o->stack_frame &&
	     (name = o->stack_frame(o->caller_ctx, r, id, i)); i++) {
		if (!i) {
			kp_jw_name(w, "stack");
			kp_jw_start_array(w);
		}
		kp_jw_string(w, name);
	}
	if (i)
		kp_jw_end_array(w);
}

/* a key's "values":[...], one per key field, numbers where they are */
static void json_values(struct kp_jw *w, const struct kprof_probe_info *r,
			const struct kp_key *k)
{
	uint64_t v[2] = { k->value, k->value2 };
	char buf[256];
	unsigned int j;

	kp_jw_name(w, "values");
	kp_jw_start_array(w);
	for (j = 0; j < KPROF_MAX_KEYS && r->key[j]; j++) {
		unsigned int fl = KPROF_KEYSPEC_FLAGS(r->key[j]);
		unsigned int kind = KPROF_KEYSPEC_KIND(r->key[j]);

		if (kind == KPROF_KEY_COMM) {
			kp_jw_string(w, k->name);
		} else if ((kind == KPROF_KEY_RETVAL ||
			    kind == KPROF_KEY_ARG) && v[j] != KPROF_KEY_KPTR &&
			   ((fl & KPROF_KEYF_S32) || kind == KPROF_KEY_RETVAL) &&
			   !(fl & (KPROF_KEYF_BOOL | KPROF_KEYF_LOG2))) {
			kp_jw_printf(w, "%" PRId64, (int64_t)v[j]);
		} else {
			kp_keyval_format(r->key[j], v[j], k->name, buf,
					 sizeof(buf));
			if (v[j] == KPROF_KEY_KPTR || (fl & KPROF_KEYF_BOOL))
				kp_jw_string(w, buf);
			else
				kp_jw_u64(w, v[j]);
		}
	}
	kp_jw_end_array(w);
}

static void show_keys_json(struct kp_jw *w, const struct kp_map *m,
			   const struct kprof_probe_info *r,
			   const struct kp_show_opts *o)
{
	unsigned int n, total, i, j;
	struct kp_key *keys;
	struct kp_agg other;
	char buf[256];

	if (r->filter.nr) {
		kp_filter_format(&r->filter, buf, sizeof(buf));
		kp_jw_string_field(w, "filter", buf);
	}
	if (!r->key_rec_size)
		return;
	keys = kp_select_keys(m, r, o, &n, &total);
	kp_jw_name(w, "key_spec");
	kp_jw_start_array(w);
	for (j = 0; j < KPROF_MAX_KEYS && r->key[j]; j++) {
		kp_key_format(r->key[j], buf, sizeof(buf));
		kp_jw_string(w, buf);
	}
	kp_jw_end_array(w);
	/* the keys used, beside the table's capacity (add --keys) */
	U64("nr_keys", total);
	U64("key_capacity", r->nr_keys);
	kp_jw_name(w, "keys");
	kp_jw_start_array(w);
	for (i = 0; keys && i < n; i++) {
		struct kp_agg ka;

		kp_aggregate_key(m, r, keys[i].index, -1, &ka);
		kp_jw_start_object(w);
		kp_key_label(r, &keys[i], buf, sizeof(buf));
		kp_jw_string_field(w, "key", buf);
		json_values(w, r, &keys[i]);
		kp_jw_string_field(w, "name", keys[i].name);
		json_stack(w, r, o, &keys[i]);
		json_latency(w, r, &ka);
		json_clusters(w, m, r, o, (int)keys[i].index, -1);
		kp_jw_end_object(w);
	}
	kp_jw_end_array(w);
	kp_aggregate_key(m, r, r->nr_keys, -1, &other);
	json_other(w, r, &other);
	free(keys);
}

/* "per_cpu":[...]: every CPU, idle ones too, so the parts sum to count */
static void json_per_cpu(struct kp_jw *w, const struct kp_map *m,
			 const struct kprof_probe_info *r, int sample,
			 int timed)
{
	unsigned int c;

	kp_jw_name(w, "per_cpu");
	kp_jw_start_array(w);
	for (c = 0; c < m->hdr->nr_cpus; c++) {
		struct kp_agg ca;

		kp_aggregate(m, r, (int)c, &ca);
		kp_jw_start_object(w);
		U64("cpu", c);
		U64("count", ca.count);
		U64("missed", ca.drops);
		if (sample) {
			U64("overflows", ca.events);
			U64("events_counted", ca.sum);
		}
		if (timed) {
			U64("min_ns", ca.min);
			U64("max_ns", ca.max);
			U64("sum_ns", ca.sum);
			json_pcts(w, &ca, "_ns");
			U64("mean_ns", ca.count ? ca.sum / ca.count : 0);
		}
		kp_jw_end_object(w);
	}
	kp_jw_end_array(w);
}

/* a stack by its frames' names, innermost first, ';' between them */
struct stk {
	char *names;
	uint64_t count, weight;
};

static int stk_by_names(const void *x, const void *y)
{
	return strcmp(((const struct stk *)x)->names,
		      ((const struct stk *)y)->names);
}

static int stk_by_weight(const void *x, const void *y)
{
	const struct stk *a = x, *b = y;

	if (a->weight != b->weight)
		return a->weight > b->weight ? -1 : 1;
	return strcmp(a->names, b->names);
}

/*
 * p's stacks merged by name, as --folded and the text report merge them
 * (ids that differ only in addresses or inlining), heaviest first.  The
 * number of stacks, or -1 when out of memory.
 */
static int prof_stacks(struct kp_profile *p, struct stk **out)
{
	struct stk *v = calloc(p->nr_ids ? p->nr_ids : 1, sizeof(*v));
	unsigned int n = 0, i, k;
	const char *f;
	uint32_t id;

	for (id = 1; v && id <= p->nr_ids; id++) {
		uint64_t c = kp_prof_count(p, id, NULL);
		size_t len = 0;
		FILE *m;

		if (!c)
			continue;
		m = open_memstream(&v[n].names, &len);
		for (i = 0; m && (f = kp_prof_frame(p, id, i)); i++)
			fprintf(m, "%s%s", i ? ";" : "", f);
		if (!m || fclose(m))
			goto oom;
		v[n].count = c;
		v[n++].weight = kp_prof_weight(p, id, NULL);
	}
	if (!v)
		return -1;
	qsort(v, n, sizeof(*v), stk_by_names);
	for (i = k = 0; i < n; i++) {
		if (k && !strcmp(v[k - 1].names, v[i].names)) {
			v[k - 1].count += v[i].count;
			v[k - 1].weight += v[i].weight;
			free(v[i].names);
			continue;
		}
		v[k++] = v[i];
	}
	qsort(v, k, sizeof(*v), stk_by_weight);
	*out = v;
	return (int)k;
oom:
	for (i = 0; i <= n; i++)
		free(v[i].names);
	free(v);
	return -1;
}

/*
 * A profile's "stacks":[{"stack":[innermost...],"count"[,"wait_us"]}],
 * heaviest first, as show prints them; "stacks_hidden" when the reader
 * may not see the frames
 */
static void json_profile(struct kp_jw *w, const struct kprof_probe_info *r,
			 const struct kp_show_opts *o)
{
	struct kp_profile p;
	struct stk *v = NULL;
	char *f, *save;
	int n, i;

	if (!o->profile || o->profile(o->profile_ctx, r, &p))
		return;
	if (p.frames_err) {
		kp_jw_string_field(w, "stacks_hidden", p.frames_err == EPERM ?
				   "the frames need CAP_SYSLOG (run as root)" :
				   strerror(p.frames_err));
		kp_prof_free(&p);
		return;
	}
	n = prof_stacks(&p, &v);
	kp_jw_name(w, "stacks");
	kp_jw_start_array(w);
	for (i = 0; i < n; i++) {
		kp_jw_start_object(w);
		kp_jw_name(w, "stack");
		kp_jw_start_array(w);
		for (f = strtok_r(v[i].names, ";", &save); f;
		     f = strtok_r(NULL, ";", &save))
			kp_jw_string(w, f);
		kp_jw_end_array(w);
		U64("count", v[i].count);
		if (p.offcpu)
			U64("wait_us", v[i].weight);
		kp_jw_end_object(w);
		free(v[i].names);
	}
	kp_jw_end_array(w);
	free(v);
	kp_prof_free(&p);
}

void kp_show_json(struct kp_jw *w, const struct kp_map *m,
		  const struct kprof_probe_info *r,
		  const struct kp_show_opts *o)
{
	struct kprof_hist_iter it;
	struct kp_agg a;
	int sample = r->type == KPROF_TYPE_SAMPLE,
	    offcpu = r->type == KPROF_TYPE_OFFCPU,
	    timed = kp_type_latency(r->type) && !offcpu;

	if (r->type == KPROF_TYPE_PAIR) {
		show_pair_json(w, m, r, o);
		return;
	}
	if (r->type == KPROF_TYPE_MEM) {
		kp_show_mem_json(w, m, r, o);
		return;
	}
	kp_aggregate(m, r, -1, &a);
	kp_jw_start_object(w);
	json_head(w, r);
	U64("count", a.count);
	U64("missed", r->nmissed + a.drops);
	if (sample) {
		/* no latencies: the counter's overflows and events instead */
		U64("overflows", a.events);
		U64("events_counted", a.sum);
	} else if (timed) {
		/*
		 * a kind that times nothing has no latency fields, not zeros;
		 * waits: their time is per stack (show --folded)
		 */
		U64("min_ns", a.min);
		U64("max_ns", a.max);
		U64("sum_ns", a.sum);
		json_pcts(w, &a, "_ns");
		U64("mean_ns", a.count ? a.sum / a.count : 0);
		kprof_hist_iter_init(&it, a.hist);
		kp_json_buckets(w, &it, "_ns");
	}
	json_per_cpu(w, m, r, sample, timed);
	if (timed) {
		U64("slow_ns", r->slow_ns);
		U64("slow_events", a.events);
		U64("slow_dropped", a.events_dropped);
	}
	if (r->mech)
		kp_jw_string_field(w, "mech", kp_mech_name(r->mech));
	json_sharing(w, r, o);
	if (r->type != KPROF_TYPE_PMU)
		json_clusters(w, m, r, o, -1, -1);
	if (r->pmu_block)
		show_pmu_json(w, m, r, o);
	if (kp_prof_is(m, r))
		json_profile(w, r, o);
	show_keys_json(w, m, r, o);
	kp_jw_end_object(w);
}
