// SPDX-License-Identifier: GPL-2.0
/* show --json: one probe's object (function sets: show-set.c). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"
#include "show-keys.h"
#include "show-json.h"
#include "spec.h"
#include "util.h"
#include "kprofctl/hist.h"

#define U64(k, v) fprintf(f, ",\"" k "\":%" PRIu64, (uint64_t)(v))

/* ,"p50_ns":...: every percentile, in kp_pcts' order */
static void json_pcts(FILE *f, const struct kp_agg *a, const char *sfx)
{
	unsigned int i;

	for (i = 0; i < KP_NR_PCTS; i++)
		fprintf(f, ",\"%s%s\":%" PRIu64, kp_pcts[i].key, sfx,
			kp_pct_value(a, i));
}

/* a distribution; sfx "_ns" for latencies, "" for plain values */
static void json_dist(FILE *f, const struct kp_agg *a, const char *sfx)
{
	struct kprof_hist_iter it;
	int first = 1;

	U64("count", a->count);
	fprintf(f, ",\"min%s\":%" PRIu64 ",\"max%s\":%" PRIu64
		",\"sum%s\":%" PRIu64, sfx, a->min, sfx, a->max, sfx, a->sum);
	json_pcts(f, a, sfx);
	fprintf(f, ",\"mean%s\":%" PRIu64, sfx, a->count ? a->sum / a->count : 0);
	fprintf(f, ",\"buckets\":[");
	kprof_hist_for_each(&it, a->hist) {
		fprintf(f, "%s{\"lo%s\":%" PRIu64 ",\"hi%s\":%" PRIu64
			",\"count\":%" PRIu64 "}", first ? "" : ",", sfx,
			it.lower, sfx, it.upper, it.count);
		first = 0;
	}
	fprintf(f, "]");
}

static void json_latency(FILE *f, const struct kp_agg *a)
{
	json_dist(f, a, "_ns");
}

/* ,"clusters":[...] when --by-cluster */
static void json_clusters(FILE *f, const struct kp_map *m,
			  const struct kprof_probe_info *r,
			  const struct kp_show_opts *o, int key, int event)
{
	unsigned int k;

	if (!o->by_cluster || !o->topo)
		return;
	fprintf(f, ",\"clusters\":[");
	for (k = 0; k < o->topo->nr_clusters; k++) {
		const struct kp_cluster *cl = &o->topo->cl[k];
		struct kp_agg a;

		kp_aggregate_mask(m, r, key, event, cl->mask, &a);
		fprintf(f, "%s{\"cluster\":", k ? "," : "");
		kp_json_str(f, cl->name);
		fprintf(f, ",\"cpus\":");
		kp_json_str(f, cl->cpus);
		U64("lost", a.drops);
		json_dist(f, &a, event >= 0 ? "" : "_ns");
		fprintf(f, "}");
	}
	fprintf(f, "]");
}

static void show_pmu_json(FILE *f, const struct kp_map *m,
			  const struct kprof_probe_info *r,
			  const struct kp_show_opts *o)
{
	struct kp_pmu_snap s;
	struct kp_topo none;
	unsigned int e;
	double ipc;

	if (kp_pmu_snap_read(m, r, &s))
		return;
	fprintf(f, ",\"pmu\":{");
	if (r->type == KPROF_TYPE_KRETPROBE) {
		fprintf(f, "\"per_call\":{");
		for (e = 0; e < s.nr_events; e++) {
			struct kp_agg a;

			kp_aggregate_pmu(m, r, e, -1, &a);
			fprintf(f, "%s\"%s\":{\"lost\":%" PRIu64, e ? "," : "",
				s.ev[e].name, a.drops);
			json_dist(f, &a, "");
			json_clusters(f, m, r, o, -1, (int)e);
			fprintf(f, "}");
		}
		fprintf(f, "},");
		if (kp_pmu_call_ipc(m, r, &s, NULL, &ipc))
			fprintf(f, "\"ipc_per_call\":%.4f,", ipc);
	}
	if (!o->topo) {
		memset(&none, 0, sizeof(none));
		none.nr_cpus = 0;
	}
	fprintf(f, "\"window\":");
	kp_pmu_print(f, &s, o->topo ? o->topo : &none,
		     o->sysfs_root ? o->sysfs_root : "", 1);
	fprintf(f, "}");
	kp_pmu_snap_free(&s);
}

static void show_pair_json(FILE *f, const struct kp_map *m,
			   const struct kprof_probe_info *r,
			   const struct kp_show_opts *o)
{
	unsigned int n, total, i;
	struct kp_key *keys = kp_select_keys(m, r, o, &n, &total);
	struct kp_agg a, other;

	kp_aggregate_pair(m, r, -1, &a);
	kp_aggregate_key(m, r, r->nr_keys, -1, &other);
	fprintf(f, "{\"id\":%u,\"spec\":", r->id);
	kp_json_str(f, r->spec);
	fprintf(f, ",\"type\":\"%s\",\"state\":\"%s\"", kp_type_name(r->type),
		kp_state_name(r->state));
	U64("missed", a.drops);
	U64("dropped_starts", a.drops);
	U64("unmatched_ends", a.unmatched);
	U64("slow_ns", r->slow_ns);
	U64("slow_events", a.events);
	U64("slow_dropped", a.events_dropped);
	U64("nr_keys", r->nr_keys);
	json_latency(f, &a);
	fprintf(f, ",\"keys\":[");
	for (i = 0; i < n; i++) {
		struct kp_agg ka;
		char label[KP_KEY_LABEL];

		kp_aggregate_key(m, r, keys[i].index, -1, &ka);
		kp_key_label(r, &keys[i], label, sizeof(label));
		fprintf(f, "%s{\"key\":", i ? "," : "");
		kp_json_str(f, label);
		fprintf(f, ",\"name\":");
		kp_json_str(f, keys[i].name);
		json_latency(f, &ka);
		json_clusters(f, m, r, o, (int)keys[i].index, -1);
		fprintf(f, "}");
	}
	fprintf(f, "],\"other_keys\":{\"beyond\":%u", r->nr_keys);
	json_latency(f, &other);
	fprintf(f, "}}");
	free(keys);
}

/* ,"same_function":[IDS]: the other probes on a kprobe's function */
static void json_sharing(FILE *f, const struct kprof_probe_info *r,
			 const struct kp_show_opts *o)
{
	char fn[KPROF_SPEC_LEN], other[KPROF_SPEC_LEN];
	unsigned int i;
	int first = 1;

	if (!o->all || kp_probe_func(r->spec, fn, sizeof(fn)))
		return;
	fprintf(f, ",\"same_function\":[");
	for (i = 0; i < o->nall; i++)
		if (o->all[i].id != r->id &&
		    !kp_probe_func(o->all[i].spec, other, sizeof(other)) &&
		    kp_same_func(fn, other)) {
			fprintf(f, "%s%u", first ? "" : ",", o->all[i].id);
			first = 0;
		}
	fprintf(f, "]");
}

/* ,"stack":["func+0x1c",...] when the reader may see the frames */
static void json_stack(FILE *f, const struct kprof_probe_info *r,
		       const struct kp_show_opts *o, const struct kp_key *k)
{
	uint64_t id = kp_key_stack_id(r, k);
	const char *name;
	unsigned int i;

	for (i = 0; id && o->stack_frame &&
	     (name = o->stack_frame(o->caller_ctx, r, id, i)); i++) {
		fprintf(f, "%s", i ? "," : ",\"stack\":[");
		kp_json_str(f, name);
	}
	if (i)
		fprintf(f, "]");
}

static void show_keys_json(FILE *f, const struct kp_map *m,
			   const struct kprof_probe_info *r,
			   const struct kp_show_opts *o)
{
	unsigned int n, total, i, j;
	struct kp_key *keys;
	struct kp_agg other;
	char buf[256];

	if (r->filter.nr) {
		kp_filter_format(&r->filter, buf, sizeof(buf));
		fprintf(f, ",\"filter\":");
		kp_json_str(f, buf);
	}
	if (!r->key_rec_size)
		return;
	keys = kp_select_keys(m, r, o, &n, &total);
	fprintf(f, ",\"key_spec\":[");
	for (j = 0; j < KPROF_MAX_KEYS && r->key[j]; j++) {
		kp_key_format(r->key[j], buf, sizeof(buf));
		fprintf(f, "%s", j ? "," : "");
		kp_json_str(f, buf);
	}
	fprintf(f, "]");
	U64("nr_keys", r->nr_keys);
	fprintf(f, ",\"keys\":[");
	for (i = 0; keys && i < n; i++) {
		struct kp_agg ka;
		uint64_t v[2] = { keys[i].value, keys[i].value2 };

		kp_aggregate_key(m, r, keys[i].index, -1, &ka);
		fprintf(f, "%s{\"key\":", i ? "," : "");
		kp_key_label(r, &keys[i], buf, sizeof(buf));
		kp_json_str(f, buf);
		fprintf(f, ",\"values\":[");
		for (j = 0; j < KPROF_MAX_KEYS && r->key[j]; j++) {
			unsigned int fl = KPROF_KEYSPEC_FLAGS(r->key[j]);
			unsigned int kind = KPROF_KEYSPEC_KIND(r->key[j]);

			if (kind == KPROF_KEY_COMM) {
				kp_json_str(f, keys[i].name);
			} else if ((kind == KPROF_KEY_RETVAL ||
				    kind == KPROF_KEY_ARG) && v[j] != KPROF_KEY_KPTR &&
				   ((fl & KPROF_KEYF_S32) || kind == KPROF_KEY_RETVAL) &&
				   !(fl & (KPROF_KEYF_BOOL | KPROF_KEYF_LOG2))) {
				fprintf(f, "%" PRId64, (int64_t)v[j]);
			} else {
				kp_keyval_format(r->key[j], v[j], keys[i].name,
						 buf, sizeof(buf));
				if (v[j] == KPROF_KEY_KPTR ||
				    (fl & (KPROF_KEYF_BOOL)))
					kp_json_str(f, buf);
				else
					fprintf(f, "%" PRIu64, v[j]);
			}
			fprintf(f, "%s", j + 1 < KPROF_MAX_KEYS && r->key[j + 1] ?
				"," : "");
		}
		fprintf(f, "],\"name\":");
		kp_json_str(f, keys[i].name);
		json_stack(f, r, o, &keys[i]);
		json_latency(f, &ka);
		json_clusters(f, m, r, o, (int)keys[i].index, -1);
		fprintf(f, "}");
	}
	kp_aggregate_key(m, r, r->nr_keys, -1, &other);
	fprintf(f, "],\"other_keys\":{\"beyond\":%u", r->nr_keys);
	json_latency(f, &other);
	fprintf(f, "}");
	free(keys);
}

void kp_show_json(FILE *f, const struct kp_map *m,
		  const struct kprof_probe_info *r,
		  const struct kp_show_opts *o)
{
	struct kprof_hist_iter it;
	struct kp_agg a;
	unsigned int c;
	int first = 1, sample = r->type == KPROF_TYPE_SAMPLE,
	    offcpu = r->type == KPROF_TYPE_OFFCPU;

	if (r->type == KPROF_TYPE_PAIR) {
		show_pair_json(f, m, r, o);
		return;
	}
	kp_aggregate(m, r, -1, &a);
	fprintf(f, "{\"id\":%u,\"spec\":", r->id);
	kp_json_str(f, r->spec);
	fprintf(f, ",\"type\":\"%s\",\"state\":\"%s\"", kp_type_name(r->type),
		kp_state_name(r->state));
	U64("count", a.count);
	U64("missed", r->nmissed + a.drops);
	if (sample) {
		/* no latencies: the counter's overflows and events instead */
		U64("overflows", a.events);
		U64("events_counted", a.sum);
		goto per_cpu;
	}
	/* waits: their time is per stack (show --folded) */
	if (offcpu)
		goto per_cpu;
	U64("min_ns", a.min);
	U64("max_ns", a.max);
	U64("sum_ns", a.sum);
	json_pcts(f, &a, "_ns");
	U64("mean_ns", a.count ? a.sum / a.count : 0);
	fprintf(f, ",\"buckets\":[");
	kprof_hist_for_each(&it, a.hist) {
		fprintf(f, "%s{\"lo_ns\":%" PRIu64 ",\"hi_ns\":%" PRIu64
			",\"count\":%" PRIu64 "}", first ? "" : ",",
			it.lower, it.upper, it.count);
		first = 0;
	}
	fprintf(f, "]");
per_cpu:
	fprintf(f, ",\"per_cpu\":[");
	first = 1;
	for (c = 0; c < m->hdr->nr_cpus; c++) {
		struct kp_agg ca;

		kp_aggregate(m, r, (int)c, &ca);
		if (!ca.count && !ca.drops)
			continue;
		fprintf(f, "%s{\"cpu\":%u", first ? "" : ",", c);
		U64("count", ca.count);
		U64("missed", ca.drops);
		if (sample || offcpu) {
			if (sample) {
				U64("overflows", ca.events);
				U64("events_counted", ca.sum);
			}
			fprintf(f, "}");
			first = 0;
			continue;
		}
		U64("min_ns", ca.min);
		U64("max_ns", ca.max);
		U64("sum_ns", ca.sum);
		json_pcts(f, &ca, "_ns");
		U64("mean_ns", ca.count ? ca.sum / ca.count : 0);
		fprintf(f, "}");
		first = 0;
	}
	fprintf(f, "]");
	if (!sample && !offcpu) {
		U64("slow_ns", r->slow_ns);
		U64("slow_events", a.events);
		U64("slow_dropped", a.events_dropped);
	}
	if (r->mech)
		fprintf(f, ",\"mech\":\"%s\"", kp_mech_name(r->mech));
	json_sharing(f, r, o);
	if (r->type != KPROF_TYPE_PMU)
		json_clusters(f, m, r, o, -1, -1);
	if (r->pmu_block)
		show_pmu_json(f, m, r, o);
	show_keys_json(f, m, r, o);
	fprintf(f, "}");
}
