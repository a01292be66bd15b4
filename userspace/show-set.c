// SPDX-License-Identifier: GPL-2.0
/* show's rendering of function sets, text and JSON. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "show-json.h"
#include "show-set.h"
#include "show-text.h"
#include "syms.h"
#include "pmu.h"
#include "spec.h"
#include "util.h"
#include "kprofctl/hist.h"

/* "mydrv" of "kprobe:mydrv:*", or "" for the core kernel */
static void set_module(const struct kprof_probe_info *r, char *buf,
		       size_t len)
{
	const char *arg = strchr(r->spec, ':');
	const char *colon = arg ? strchr(arg + 1, ':') : NULL;

	buf[0] = '\0';
	if (colon)
		snprintf(buf, len, "%.*s", (int)(colon - arg - 1), arg + 1);
}

/* the set's own blocks: total hits (calls) and drops */
static void set_totals(const struct kp_map *m, const struct kprof_probe_info *r,
		       struct kp_agg *a)
{
	kp_aggregate(m, r, -1, a);
}

/* ---- text ---------------------------------------------------------------- */

/* a name and every marker label() may add */
#define KP_LABEL_LEN	(KPROF_FUNC_NAME_LEN + 1 + sizeof(" (init)") + \
			 sizeof(" (kretprobe)"))

/*
 * name with its markers: "+" cut short, " (init)" __init text,
 * " (kretprobe)" a fast set's kretprobe for what ftrace cannot follow
 */
static void label(const struct kp_fn *fn, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", fn->name,
		 fn->flags & KPROF_FUNC_TRUNCATED ? "+" : "",
		 fn->flags & KPROF_FUNC_INIT ? " (init)" : "",
		 fn->flags & KPROF_FUNC_KRETPROBE ? " (kretprobe)" : "");
}

static void fmt_q(const struct kp_fn *fn, unsigned int i, char *buf,
		  size_t len)
{
	if (fn->wrapped)
		snprintf(buf, len, "?");
	else if (!fn->count)
		snprintf(buf, len, "-");
	else
		kp_fmt_ns(fn->q[i], buf, len);
}

/* "  p50 1.2us  p99 3.4us": the brief percentiles of a cluster's or CPU's row */
static void brief_q(FILE *f, const struct kp_fn *fn)
{
	unsigned int i;
	char v[24];

	for (i = 0; i < KP_NR_PCTS_BRIEF; i++) {
		fmt_q(fn, kp_pcts_brief[i], v, sizeof(v));
		fprintf(f, "  %s %s", kp_pcts[kp_pcts_brief[i]].name, v);
	}
}

static void lat_cols(FILE *f, int w, const char *name, const struct kp_fn *fn)
{
	char tot[24], mean[24], q[KP_NR_PCTS_BRIEF][24], max[24];
	unsigned int i;

	if (fn->count) {
		kp_fmt_ns(fn->sum, tot, sizeof(tot));
		kp_fmt_ns(fn->sum / fn->count, mean, sizeof(mean));
		kp_fmt_ns(fn->max, max, sizeof(max));
	} else {
		strcpy(tot, "-");
		strcpy(mean, "-");
		strcpy(max, "-");
	}
	for (i = 0; i < KP_NR_PCTS_BRIEF; i++)
		fmt_q(fn, kp_pcts_brief[i], q[i], sizeof(q[i]));
	fprintf(f, "  %-*s %12" PRIu64 " %10s %10s", w, name, fn->count, tot,
		mean);
	for (i = 0; i < KP_NR_PCTS_BRIEF; i++)
		fprintf(f, " %10s", q[i]);
	fprintf(f, " %10s\n", max);
}

static void cpu_mask(unsigned int c, __u64 *mask)
{
	memset(mask, 0, KPROF_CPUMASK_WORDS * sizeof(*mask));
	mask[c / 64] |= 1ULL << (c % 64);
}

static int want_clusters(const struct kp_show_opts *o)
{
	return o->by_cluster && o->topo && o->topo->nr_clusters;
}

static void print_table(FILE *f, const struct kp_map *m,
			const struct kprof_probe_info *r,
			const struct kp_show_opts *o, const struct kp_fn *rows,
			unsigned int n)
{
	int lat = r->type == KPROF_TYPE_KRETPROBE_SET;
	int w = 8;
	uint64_t all = 0;
	unsigned int i, k, c;
	char name[KP_LABEL_LEN];

	for (i = 0; i < r->nr_funcs; i++) {
		struct kp_fn fn;

		/* share of all functions' hits, not only those shown */
		if (!lat) {
			kp_set_func(m, r, i, NULL, &fn, NULL);
			all += fn.count;
		}
	}
	for (i = 0; i < n; i++) {
		label(&rows[i], name, sizeof(name));
		if ((int)strlen(name) > w)
			w = (int)strlen(name);
	}
	if (lat) {
		fprintf(f, "  %-*s %12s %10s %10s", w, "function", "calls",
			"total", "mean");
		for (k = 0; k < KP_NR_PCTS_BRIEF; k++)
			fprintf(f, " %10s", kp_pcts[kp_pcts_brief[k]].name);
		fprintf(f, " %10s\n", "max");
	} else {
		fprintf(f, "  %-*s %12s %7s", w, "function", "hits", "share");
		for (k = 0; want_clusters(o) && k < o->topo->nr_clusters; k++)
			fprintf(f, " %12s", o->topo->cl[k].name);
		fprintf(f, "\n");
	}
	for (i = 0; i < n; i++) {
		const struct kp_fn *fn = &rows[i];

		label(fn, name, sizeof(name));
		if (lat) {
			lat_cols(f, w, name, fn);
		} else {
			fprintf(f, "  %-*s %12" PRIu64 " %5.1f %%", w, name,
				fn->count, all ? 100.0 * fn->count / all : 0.0);
			for (k = 0; want_clusters(o) && k < o->topo->nr_clusters;
			     k++) {
				struct kp_fn cf;

				kp_set_func(m, r, fn->index, o->topo->cl[k].mask,
					    &cf, NULL);
				fprintf(f, " %12" PRIu64, cf.count);
			}
			fprintf(f, "\n");
		}
		/* latencies: a row per cluster under the function's */
		for (k = 0; lat && want_clusters(o) && k < o->topo->nr_clusters;
		     k++) {
			struct kp_fn cf;

			kp_set_func(m, r, fn->index, o->topo->cl[k].mask, &cf,
				    NULL);
			snprintf(name, sizeof(name), "  %s", o->topo->cl[k].name);
			lat_cols(f, w, name, &cf);
		}
		for (c = 0; o->per_cpu && c < m->hdr->nr_cpus &&
		     c < KPROF_CPUMASK_WORDS * 64; c++) {
			__u64 mask[KPROF_CPUMASK_WORDS];
			struct kp_fn cf;

			cpu_mask(c, mask);
			kp_set_func(m, r, fn->index, mask, &cf, NULL);
			if (!cf.count)
				continue;
			snprintf(name, sizeof(name), "  cpu %u", c);
			if (lat)
				lat_cols(f, w, name, &cf);
			else
				fprintf(f, "  %-*s %12" PRIu64 "\n", w, name,
					cf.count);
		}
	}
}

static void print_wrapped(FILE *f, const struct kprof_probe_info *r,
			  const struct kp_fn *rows, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (rows[i].wrapped)
			fprintf(f, "  warning: %s ran more than 2^32 times on one "
				"CPU: its 32-bit bucket counters may have wrapped, "
				"so its percentiles are not shown (\"?\"); reset "
				"more often (kprofctl reset %u)\n", rows[i].name,
				r->id);
}

/* --key FUNC: one function, as a kretprobe's (kprobe's) show */
static void print_key(FILE *f, const struct kp_map *m,
		      const struct kprof_probe_info *r,
		      const struct kp_show_opts *o, const struct kp_fn *fn)
{
	int lat = r->type == KPROF_TYPE_KRETPROBE_SET;
	__u64 h[KPROF_FHIST_NR_BUCKETS];
	struct kp_fn all;
	struct kp_agg *a;
	unsigned int k, c, i;
	char name[KP_LABEL_LEN], v[24];

	kp_set_func(m, r, fn->index, NULL, &all, h);
	label(&all, name, sizeof(name));
	fprintf(f, "  function %s:\n", name);
	fprintf(f, "    %s %" PRIu64 "\n", lat ? "calls" : "hits", all.count);
	if (lat && all.count) {
		kp_fmt_ns(all.min, v, sizeof(v));
		fprintf(f, "    min %s", v);
		kp_fmt_ns(all.sum / all.count, v, sizeof(v));
		fprintf(f, "  mean %s", v);
		kp_fmt_ns(all.max, v, sizeof(v));
		fprintf(f, "  max %s", v);
		kp_fmt_ns(all.sum, v, sizeof(v));
		fprintf(f, "  total %s\n    ", v);
		for (i = 0; i < KP_NR_PCTS; i++) {
			fmt_q(&all, i, v, sizeof(v));
			fprintf(f, "%s%s %s", i ? "  " : "", kp_pcts[i].name, v);
		}
		fprintf(f, "\n");
		print_wrapped(f, r, &all, 1);
		a = calloc(1, sizeof(*a));
		if (a && !all.wrapped) {
			/* same bucket indices: the compact ones nest in */
			memcpy(a->hist, h, sizeof(h));
			a->count = all.count;
			kp_print_hist(f, a, NULL);
			if (h[KPROF_FHIST_NR_BUCKETS - 1]) {
				kp_fmt_ns(kprof_hist_lower(KPROF_FHIST_NR_BUCKETS - 1),
					  v, sizeof(v));
				fprintf(f, "  (a set's last bucket holds every "
					"call of %s or more)\n", v);
			}
		}
		free(a);
	}
	for (k = 0; want_clusters(o) && k < o->topo->nr_clusters; k++) {
		struct kp_fn cf;

		kp_set_func(m, r, fn->index, o->topo->cl[k].mask, &cf, NULL);
		fprintf(f, "    cluster %s (cpu%s): %s %" PRIu64, o->topo->cl[k].name,
			o->topo->cl[k].cpus, lat ? "calls" : "hits", cf.count);
		if (lat && cf.count) {
			brief_q(f, &cf);
			kp_fmt_ns(cf.max, v, sizeof(v));
			fprintf(f, "  max %s", v);
		}
		fprintf(f, "\n");
	}
	/* a kprobe set's hits per CPU always: there is nothing else to show */
	for (c = 0; (o->per_cpu || !lat) && c < m->hdr->nr_cpus &&
	     c < KPROF_CPUMASK_WORDS * 64; c++) {
		__u64 mask[KPROF_CPUMASK_WORDS];
		struct kp_fn cf;

		cpu_mask(c, mask);
		kp_set_func(m, r, fn->index, mask, &cf, NULL);
		if (!cf.count)
			continue;
		fprintf(f, "    cpu %u: %s %" PRIu64, c, lat ? "calls" : "hits",
			cf.count);
		if (lat)
			brief_q(f, &cf);
		fprintf(f, "\n");
	}
}

static void print_state(FILE *f, const struct kprof_probe_info *r)
{
	char mod[KPROF_SPEC_LEN];

	set_module(r, mod, sizeof(mod));
	if (r->state == KPROF_STATE_PENDING)
		fprintf(f, "  waiting for module %s to load (its functions are "
			"hooked then, before its init runs)\n",
			mod[0] ? mod : "?");
	else if (r->state == KPROF_STATE_GONE)
		fprintf(f, "  module %s was unloaded: the set is hooked again "
			"when it loads\n", mod[0] ? mod : "?");
}

void kp_show_set_text(FILE *f, const struct kp_map *m,
		      const struct kprof_probe_info *r,
		      const struct kp_show_opts *o)
{
	int lat = r->type == KPROF_TYPE_KRETPROBE_SET;
	unsigned int n, nskip, hidden, listed, i, nk;
	struct kp_fn *rows, *skip = NULL;
	struct kp_set_sel sel = { o->key, o->sort, o->nonzero, o->top };
	struct kp_agg a;
	char why[160];

	set_totals(m, r, &a);
	fprintf(f, "probe %u: %s [%s%s]\n", r->id, r->spec,
		kp_state_name(r->state), kp_owned_label(r));
	rows = kp_set_rows(m, r, &sel, &n, &skip, &nskip, &hidden, &listed);
	if (!rows) {
		fprintf(f, "  (out of memory)\n");
		return;
	}
	fprintf(f, "  function set, %u functions (%u hooked, %u skipped)",
		r->nr_funcs, r->nr_probed, nskip);
	if (r->mech)
		fprintf(f, ", via %s", kp_mech_label(r->type, r->mech));
	nk = kp_set_kretprobes(m, r);
	if (nk)
		fprintf(f, " and %u kretprobe%s", nk, nk == 1 ? "" : "s");
	fprintf(f, "\n");
	print_state(f, r);
	fprintf(f, "  %s %" PRIu64 "  missed %" PRIu64 "\n",
		lat ? "calls" : "hits", a.count,
		(uint64_t)(r->nmissed + a.drops));
	kp_print_notes(f, r, o, a.count, r->nmissed + a.drops);
	if (r->slow_ns)
		kp_print_slow(f, "  ", r, &a);
	if (o->key) {
		for (i = 0; i < n; i++)
			print_key(f, m, r, o, &rows[i]);
		if (!listed)
			fprintf(f, "  no function %s in this set\n", o->key);
	} else if (n || listed) {
		print_table(f, m, r, o, rows, n);
		print_wrapped(f, r, rows, n);
		if (hidden)
			fprintf(f, "  (%u functions never called not shown: "
				"--nonzero)\n", hidden);
		if (o->top && listed - hidden > n)
			fprintf(f, "  (top %u of %u)\n", n, listed - hidden);
		for (i = 0; i < n; i++)
			if (rows[i].flags & KPROF_FUNC_TRUNCATED)
				break;
		if (i < n)
			fprintf(f, "  (+: name cut at %u characters)\n",
				KPROF_FUNC_NAME_LEN - 1);
	}
	if (nskip && !o->key) {
		fprintf(f, "  skipped:\n");
		for (i = 0; i < nskip; i++) {
			char name[KP_LABEL_LEN];

			label(&skip[i], name, sizeof(name));
			kp_skip_reason(&skip[i], why, sizeof(why));
			fprintf(f, "    %s: %s\n", name, why);
		}
	}
	free(rows);
	free(skip);
}

/* ---- JSON ---------------------------------------------------------------- */

#define U64(k, v) kp_jw_u64_field(w, k, (uint64_t)(v))

/* "p50_ns":...: every percentile, null if the buckets may have wrapped */
static void json_q(struct kp_jw *w, const struct kp_fn *fn)
{
	char name[32];
	unsigned int i;

	for (i = 0; i < KP_NR_PCTS; i++) {
		snprintf(name, sizeof(name), "%s_ns", kp_pcts[i].key);
		kp_jw_name(w, name);
		if (fn->wrapped)
			kp_jw_null(w);
		else
			kp_jw_u64(w, fn->count ? fn->q[i] : 0);
	}
}

static void json_true(struct kp_jw *w, const char *name)
{
	kp_jw_name(w, name);
	kp_jw_bool(w, 1);
}

/* a function's figures after its name */
static void json_fn_stats(struct kp_jw *w, const struct kprof_probe_info *r,
			  const struct kp_fn *fn)
{
	if (r->type == KPROF_TYPE_KPROBE_SET) {
		U64("count", fn->count);
		return;
	}
	U64("count", fn->count);
	U64("total_ns", fn->sum);
	U64("mean_ns", fn->count ? fn->sum / fn->count : 0);
	U64("min_ns", fn->min);
	U64("max_ns", fn->max);
	json_q(w, fn);
	if (fn->wrapped)
		json_true(w, "hist_wrapped");
}

static void json_fn(struct kp_jw *w, const struct kp_map *m,
		    const struct kprof_probe_info *r,
		    const struct kp_show_opts *o, const struct kp_fn *fn)
{
	__u64 h[KPROF_FHIST_NR_BUCKETS];
	struct kprof_hist_iter it;
	unsigned int k, c;

	kp_jw_start_object(w);
	kp_jw_string_field(w, "name", fn->name);
	json_fn_stats(w, r, fn);
	if (fn->flags & KPROF_FUNC_INIT)
		json_true(w, "init");
	if (fn->flags & KPROF_FUNC_KRETPROBE)
		kp_jw_string_field(w, "via", "kretprobe");
	if (fn->flags & KPROF_FUNC_TRUNCATED)
		json_true(w, "truncated");
	if (want_clusters(o)) {
		kp_jw_name(w, "clusters");
		kp_jw_start_array(w);
		for (k = 0; k < o->topo->nr_clusters; k++) {
			struct kp_fn cf;

			kp_set_func(m, r, fn->index, o->topo->cl[k].mask, &cf,
				    NULL);
			kp_jw_start_object(w);
			kp_jw_string_field(w, "cluster", o->topo->cl[k].name);
			kp_jw_string_field(w, "cpus", o->topo->cl[k].cpus);
			json_fn_stats(w, r, &cf);
			kp_jw_end_object(w);
		}
		kp_jw_end_array(w);
	}
	if (o->per_cpu || o->key) {
		kp_jw_name(w, "per_cpu");
		kp_jw_start_array(w);
		for (c = 0; c < m->hdr->nr_cpus && c < KPROF_CPUMASK_WORDS * 64;
		     c++) {
			__u64 mask[KPROF_CPUMASK_WORDS];
			struct kp_fn cf;

			cpu_mask(c, mask);
			kp_set_func(m, r, fn->index, mask, &cf, NULL);
			if (!cf.count)
				continue;
			kp_jw_start_object(w);
			U64("cpu", c);
			json_fn_stats(w, r, &cf);
			kp_jw_end_object(w);
		}
		kp_jw_end_array(w);
	}
	if (o->key && r->type == KPROF_TYPE_KRETPROBE_SET) {
		struct kp_fn all;

		kp_set_func(m, r, fn->index, NULL, &all, h);
		kp_fhist_iter_init(&it, h);
		kp_json_buckets(w, &it, "_ns");
	}
	kp_jw_end_object(w);
}

void kp_show_set_json(struct kp_jw *w, const struct kp_map *m,
		      const struct kprof_probe_info *r,
		      const struct kp_show_opts *o)
{
	unsigned int n, nskip, hidden, listed, i;
	struct kp_fn *rows, *skip = NULL;
	struct kp_set_sel sel = { o->key, o->sort, o->nonzero, o->top };
	struct kp_agg a;
	char mod[KPROF_SPEC_LEN];

	set_totals(m, r, &a);
	rows = kp_set_rows(m, r, &sel, &n, &skip, &nskip, &hidden, &listed);
	kp_jw_start_object(w);
	U64("id", r->id);
	kp_jw_string_field(w, "spec", r->spec);
	kp_jw_string_field(w, "type", kp_type_name(r->type));
	kp_jw_string_field(w, "state", kp_state_name(r->state));
	kp_jw_string_field(w, "mech", kp_mech_name(r->mech));
	set_module(r, mod, sizeof(mod));
	kp_jw_string_field(w, "module", mod);
	U64("count", a.count);
	U64("missed", r->nmissed + a.drops);
	if (r->type == KPROF_TYPE_KRETPROBE_SET) {
		/* a kprobe set times nothing: it has no slow calls */
		U64("slow_ns", r->slow_ns);
		U64("slow_events", a.events);
		U64("slow_dropped", a.events_dropped);
	}
	U64("nr_funcs", r->nr_funcs);
	U64("nr_probed", r->nr_probed);
	U64("nr_skipped", nskip);
	kp_jw_name(w, "functions");
	kp_jw_start_array(w);
	for (i = 0; rows && i < n; i++)
		json_fn(w, m, r, o, &rows[i]);
	kp_jw_end_array(w);
	kp_jw_name(w, "skipped");
	kp_jw_start_array(w);
	for (i = 0; rows && i < nskip; i++) {
		kp_jw_start_object(w);
		kp_jw_string_field(w, "name", skip[i].name);
		kp_jw_string_field(w, "reason", kp_skip_name(skip[i].reason));
		kp_jw_name(w, "error");
		kp_jw_printf(w, "%d", skip[i].error);
		if (skip[i].flags & KPROF_FUNC_INIT)
			json_true(w, "init");
		kp_jw_end_object(w);
	}
	kp_jw_end_array(w);
	kp_jw_end_object(w);
	free(rows);
	free(skip);
}
