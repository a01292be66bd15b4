// SPDX-License-Identifier: GPL-2.0
/* kprofctl diff: two captures compared, and a regression gate. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "builtin.h"
#include "capture.h"
#include "diffstat.h"
#include "failif.h"
#include "json.h"
#include "show-set.h"
#include "spec.h"

enum { OPT_FAILIF = KP_OPT_BASE, OPT_JSON, OPT_BYCLUSTER, OPT_KEYS, OPT_TOP,
       OPT_ALPHA };

#define MAX_GATES	16

static const struct kp_opt diff_opts[] = {
	{ NULL, 0, 0, "BEFORE AFTER", "two captures (kprofctl save, record)", 0,
	  NULL },
	{ "fail-if", 0, required_argument, "EXPR",
	  "exit 1 when EXPR holds for a probe present in both:\n"
	  "[CLUSTER:]METRIC OP VALUE with METRIC count, mean, min,\n"
	  "max, p50, p90, p99 or p999, OP > < >= <=, VALUE a change\n"
	  "(+10%, -5%) or a value (2ms, 500us; count: a number);\n"
	  "a change must also be significant (repeatable, 16 at most)",
	  OPT_FAILIF, NULL },
	{ "by-cluster", 0, no_argument, NULL,
	  "also compare each CPU cluster (A55, A76) of both", OPT_BYCLUSTER,
	  NULL },
	{ "keys", 0, no_argument, NULL,
	  "also compare keys (and functions of sets) found in both",
	  OPT_KEYS, NULL },
	{ "top", 0, required_argument, "N",
	  "with --keys: the N busiest keys of each probe (default 10)",
	  OPT_TOP, NULL },
	{ "alpha", 0, required_argument, "P",
	  "significance level of the Mann-Whitney test (default 0.01)",
	  OPT_ALPHA, NULL },
	{ "json", 0, no_argument, NULL,
	  "one JSON object: {\"before\",\"after\",\"rows\":[{\"spec\",\n"
	  "\"key\",\"cluster\",\"metrics\":{\"p99\":{\"before\",\"after\",\n"
	  "\"change_pct\",\"ci_pct\",\"p\",\"significant\"}}}],\"gates\":[...]}",
	  OPT_JSON, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_diff = {
	.usage =
"Usage: kprofctl diff BEFORE AFTER [--fail-if EXPR]... [--by-cluster] [--keys]\n"
"                     [--top N] [--alpha P] [--json]\n",
	.text =
"Compare two captures probe by probe (matched by spec): count, p50, p90,\n"
"p99, max and mean before -> after, the change in percent, its 95 %\n"
"interval and whether it is beyond noise (*).  A shift is significant when\n"
"a Mann-Whitney U test on the two histograms' buckets gives p < 0.01 and\n"
"a Poisson bootstrap interval of the metric's change (1000 resamples,\n"
"fixed seed: the same files give the same answer) excludes 0.  The tests\n"
"take calls as independent and values as known to their bucket (1/16 of\n"
"a power of two, 3 % at worst); counts are exact, so any change in count\n"
"is one.  Probes in one capture only are listed as such.\n",
	.opts = diff_opts,
	.width = 14,
	.after =
"Exit status: 0, or 1 when a --fail-if holds (each crossing is printed),\n"
"2 for a usage error.  A relative gate (p99>+10%) needs the shift to be\n"
"significant too, so noise never fails a build; an absolute one (p99>2ms)\n"
"holds whenever the after value is beyond it.\n",
	.examples =
"  kprofctl diff before.json after.json\n"
"  kprofctl diff before.json after.json --fail-if 'p99>+10%' --fail-if 'count<-1%'\n"
"  kprofctl diff before.json after.json --by-cluster --fail-if 'A76:p50>+5%'\n"
"  kprofctl diff before.json after.json --keys --top 5 --json\n",
};

static const enum kp_metric shown[] = {
	KP_M_COUNT, KP_M_P50, KP_M_P90, KP_M_P99, KP_M_MAX, KP_M_MEAN,
};

/* one thing compared: a probe's total, key or function, on a cluster */
struct row {
	char spec[KPROF_SPEC_LEN];
	char key[160];			/* "" for the probe's total */
	char cluster[40];		/* "" for every CPU */
	int latency;			/* 0: counts only */
	uint64_t order;			/* sort within a probe: busiest first */
	struct kp_agg a;
};

struct rows {
	struct row *v;
	unsigned int n, max;
};

static struct row *row_add(struct rows *rs)
{
	if (rs->n == rs->max) {
		unsigned int m = rs->max ? 2 * rs->max : 64;
		struct row *v = realloc(rs->v, m * sizeof(*v));

		if (!v)
			return NULL;
		rs->v = v;
		rs->max = m;
	}
	memset(&rs->v[rs->n], 0, sizeof(rs->v[0]));
	return &rs->v[rs->n++];
}

/* a key's label, by name for caller and stack ids (ids differ by boot) */
static void key_label(const struct kp_capture *c,
		      const struct kprof_probe_info *r, const struct kp_key *k,
		      char *buf, size_t len)
{
	unsigned int j, i;
	size_t used = 0;

	kp_key_label(r, k, buf, len);
	for (j = 0; r->key_rec_size && j < KPROF_MAX_KEYS; j++) {
		unsigned int kind = KPROF_KEYSPEC_KIND(r->key[j]);
		uint64_t id = j ? k->value2 : k->value;
		const char *n;

		if (kind == KPROF_KEY_CALLER && (n = kp_cap_caller(c, r->id, id))) {
			snprintf(buf, len, "%s", n);
			return;
		}
		if (kind != KPROF_KEY_STACK || !kp_cap_frame(c, r->id, id, 0))
			continue;
		buf[0] = '\0';
		for (i = 0; (n = kp_cap_frame(c, r->id, id, i)) && used + 2 < len;
		     i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 i ? ";" : "", n);
		return;
	}
}

static int collect(const struct kp_capture *c, struct rows *rs, int clusters,
		   int keys, unsigned int top)
{
	unsigned int i, k, cl;
	struct kp_key *kv = NULL;

	for (i = 0; i < c->n; i++) {
		const struct kprof_probe_info *r = &c->recs[i];
		struct row *w;

		for (cl = 0; cl <= (clusters ? c->topo.nr_clusters : 0); cl++) {
			w = row_add(rs);
			if (!w)
				return -1;
			snprintf(w->spec, sizeof(w->spec), "%s", r->spec);
			w->latency = kp_type_latency(r->type);
			if (!cl) {
				kp_aggregate(&c->m, r, -1, &w->a);
			} else {
				snprintf(w->cluster, sizeof(w->cluster), "%s",
					 c->topo.cl[cl - 1].name);
				kp_aggregate_mask(&c->m, r, -1, -1,
						  c->topo.cl[cl - 1].mask, &w->a);
			}
			w->order = UINT64_MAX;
		}
		if (!keys)
			continue;
		if (kp_has_keys(r)) {
			unsigned int nk;

			free(kv);
			kv = calloc(r->nr_keys + 1, sizeof(*kv));
			if (!kv)
				return -1;
			nk = kp_pair_keys(&c->m, r, kv);
			for (k = 0; k < nk && k < top; k++) {
				w = row_add(rs);
				if (!w)
					goto oom;
				snprintf(w->spec, sizeof(w->spec), "%s", r->spec);
				key_label(c, r, &kv[k], w->key, sizeof(w->key));
				w->latency = kp_type_latency(r->type);
				kp_aggregate_key(&c->m, r, kv[k].index, -1, &w->a);
				w->order = w->a.count;
			}
		}
		for (k = 0; kp_is_set(r->type) && k < r->nr_funcs; k++) {
			struct kp_fn fn;

			w = row_add(rs);
			if (!w)
				goto oom;
			snprintf(w->spec, sizeof(w->spec), "%s", r->spec);
			memset(&w->a, 0, sizeof(w->a));
			kp_set_func(&c->m, r, k, NULL, &fn, w->a.hist);
			snprintf(w->key, sizeof(w->key), "%s", fn.name);
			w->a.count = fn.count;
			w->a.sum = fn.sum;
			w->a.min = fn.count ? fn.min : 0;
			w->a.max = fn.max;
			w->latency = kp_type_latency(r->type);
			w->order = fn.count;
		}
	}
	free(kv);
	return 0;
oom:
	free(kv);
	return -1;
}

static const struct row *find(const struct rows *rs, const struct row *w)
{
	unsigned int i;

	for (i = 0; i < rs->n; i++)
		if (!strcmp(rs->v[i].spec, w->spec) &&
		    !strcmp(rs->v[i].key, w->key) &&
		    !strcmp(rs->v[i].cluster, w->cluster))
			return &rs->v[i];
	return NULL;
}

static void ctx_line(FILE *f, const char *path, const struct kp_capture *c)
{
	fprintf(f, "%s: %s, %s%s%s, %u CPUs\n", path,
		c->created[0] ? c->created : "undated",
		c->kernel[0] ? c->kernel : "unknown kernel",
		c->machine[0] ? ", " : "", c->machine, c->nr_cpus);
}

static void ctx_json(struct kp_jw *jw, const char *name, const char *path,
		     const struct kp_capture *c)
{
	kp_jw_name(jw, name);
	kp_jw_start_object(jw);
	kp_jw_string_field(jw, "file", path);
	kp_jw_string_field(jw, "created", c->created);
	kp_jw_string_field(jw, "kernel", c->kernel);
	kp_jw_string_field(jw, "machine", c->machine);
	kp_jw_end_object(jw);
}

static void shift_json(struct kp_jw *jw, const struct kp_shift *s)
{
	kp_jw_name(jw, kp_metric_name(s->metric));
	kp_jw_start_object(jw);
	kp_jw_u64_field(jw, "before", s->before);
	kp_jw_u64_field(jw, "after", s->after);
	if (s->has_change) {
		kp_jw_name(jw, "change_pct");
		kp_jw_printf(jw, "%.3f", s->change);
	}
	if (s->has_ci && s->has_change) {
		kp_jw_name(jw, "ci_pct");
		kp_jw_start_array(jw);
		kp_jw_printf(jw, "%.3f", s->ci_lo_pct);
		kp_jw_printf(jw, "%.3f", s->ci_hi_pct);
		kp_jw_end_array(jw);
	}
	kp_jw_name(jw, "p");
	kp_jw_printf(jw, "%.6g", s->p);
	kp_jw_name(jw, "significant");
	kp_jw_bool(jw, s->significant);
	kp_jw_end_object(jw);
}

/*
 * The bootstrap's interval is at bucket resolution (midpoints), while
 * show's quantiles are clamped to the exact min and max: widen it to hold
 * the change printed next to it.
 */
static void widen(struct kp_shift *s)
{
	if (!s->has_ci || !s->has_change)
		return;
	if (s->change < s->ci_lo_pct)
		s->ci_lo_pct = s->change;
	if (s->change > s->ci_hi_pct)
		s->ci_hi_pct = s->change;
}

static void value(const struct kp_shift *s, uint64_t v, char *buf, size_t len)
{
	if (s->metric == KP_M_COUNT)
		snprintf(buf, len, "%" PRIu64, v);
	else
		kp_fmt_ns(v, buf, len);
}

static const char *pvalue(double p, char *buf, size_t len)
{
	if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
	return buf;
}

int cmd_diff(struct kp_dev *unused, int argc, char **argv)
{
	struct kp_failif gates[MAX_GATES];
	const char *gate_text[MAX_GATES];
	unsigned int ngates = 0, top = 10, i, g, m, crossed = 0;
	struct kp_diff_cfg cfg = { 0 };
	struct option lo[KP_MAX_OPTS + 1];
	struct kp_capture cb, ca;
	struct rows rb = { 0 }, ra = { 0 };
	struct kp_jw jw;
	int opt, json = 0, clusters = 0, keys = 0, ret = 1;
	const char *paths[2];
	unsigned int npaths = 0;
	char err[256];

	(void)unused;
	kp_opts_build(diff_opts, lo);
	optind = 1;
	for (;;) {
		opt = getopt_long(argc, argv, "+", lo, NULL);
		if (opt == -1) {
			if (optind < argc) {
				if (npaths == 2)
					return kp_bad_usage("diff", "unexpected "
							    "argument '%s'",
							    argv[optind]);
				paths[npaths++] = argv[optind++];
				continue;
			}
			break;
		}
		if (opt == OPT_FAILIF) {
			if (ngates == MAX_GATES)
				return kp_bad_usage("diff", "at most %u --fail-if",
						    MAX_GATES);
			if (kp_failif_parse(optarg, &gates[ngates], err,
					    sizeof(err)))
				return kp_bad_usage("diff", "--fail-if '%s': %s",
						    optarg, err);
			gate_text[ngates++] = optarg;
		} else if (opt == OPT_JSON) {
			json = 1;
		} else if (opt == OPT_BYCLUSTER) {
			clusters = 1;
		} else if (opt == OPT_KEYS) {
			keys = 1;
		} else if (opt == OPT_TOP) {
			uint64_t v;

			if (kp_parse_u64(optarg, 1, 1 << 20, &v))
				return kp_bad_usage("diff", "--top takes a count, "
						    "not '%s'", optarg);
			top = (unsigned int)v;
		} else if (opt == OPT_ALPHA) {
			char *end;

			errno = 0;
			cfg.alpha = strtod(optarg, &end);
			if (errno || *end || !(cfg.alpha > 0 && cfg.alpha < 0.5))
				return kp_bad_usage("diff", "--alpha takes a level "
						    "between 0 and 0.5 (0.01), "
						    "not '%s'", optarg);
		} else {
			return kp_bad_usage("diff", "%s", "unknown option");
		}
	}
	if (npaths != 2)
		return kp_bad_usage("diff", "%s", "give two captures: BEFORE AFTER");
	if (kp_capture_load(&cb, paths[0], err, sizeof(err))) {
		fprintf(stderr, "kprofctl diff: %s: %s\n", paths[0], err);
		return 1;
	}
	if (kp_capture_load(&ca, paths[1], err, sizeof(err))) {
		fprintf(stderr, "kprofctl diff: %s: %s\n", paths[1], err);
		kp_capture_free(&cb);
		return 1;
	}
	/* a gate on a cluster needs that cluster in both */
	for (g = 0; g < ngates; g++) {
		int inb = 0, ina = 0;

		if (!gates[g].cluster[0] || !strcasecmp(gates[g].cluster, "all"))
			continue;
		for (i = 0; i < cb.topo.nr_clusters; i++)
			inb |= !strcasecmp(cb.topo.cl[i].name, gates[g].cluster);
		for (i = 0; i < ca.topo.nr_clusters; i++)
			ina |= !strcasecmp(ca.topo.cl[i].name, gates[g].cluster);
		if (!inb || !ina) {
			char names[256] = "";
			size_t used = 0;

			for (i = 0; i < ca.topo.nr_clusters; i++)
				used += (size_t)snprintf(names + used,
					sizeof(names) - used, "%s%s", i ? ", " : "",
					ca.topo.cl[i].name);
			kp_bad_usage("diff", "--fail-if: no cluster '%s' in %s "
				     "(its clusters: %s, or all)",
				     gates[g].cluster, !inb ? paths[0] : paths[1],
				     names);
			ret = 2;
			goto out;
		}
		clusters = 1;
	}
	if (collect(&cb, &rb, clusters, keys, top) ||
	    collect(&ca, &ra, clusters, keys, top)) {
		fprintf(stderr, "kprofctl diff: out of memory\n");
		goto out;
	}
	kp_jw_init(&jw, stdout);
	if (json) {
		kp_jw_start_object(&jw);
		ctx_json(&jw, "before", paths[0], &cb);
		ctx_json(&jw, "after", paths[1], &ca);
		kp_jw_name(&jw, "rows");
		kp_jw_start_array(&jw);
	} else {
		ctx_line(stdout, "before", &cb);
		ctx_line(stdout, "after ", &ca);
	}
	for (i = 0; i < ra.n; i++) {
		const struct row *w = &ra.v[i], *b = find(&rb, w);
		struct kp_shift s;
		char cell[128], ci[64], p[16], vb[32], va[32];

		if (!b)
			continue;
		if (json) {
			kp_jw_start_object(&jw);
			kp_jw_string_field(&jw, "spec", w->spec);
			if (w->key[0])
				kp_jw_string_field(&jw, "key", w->key);
			if (w->cluster[0])
				kp_jw_string_field(&jw, "cluster", w->cluster);
			kp_jw_name(&jw, "metrics");
			kp_jw_start_object(&jw);
		} else {
			printf("\n%s%s%s%s%s\n", w->spec, w->key[0] ? "  key " : "",
			       w->key, w->cluster[0] ? "  on " : "", w->cluster);
			printf("  %-6s %10s %10s %9s   %-18s %s\n", "", "before",
			       "after", "change", "95 % interval", "p");
		}
		for (m = 0; m < sizeof(shown) / sizeof(shown[0]); m++) {
			if (!w->latency && shown[m] != KP_M_COUNT)
				continue;
			s = kp_diff_metric(&b->a, &w->a, shown[m], &cfg);
			widen(&s);
			if (json) {
				shift_json(&jw, &s);
				continue;
			}
			value(&s, s.before, vb, sizeof(vb));
			value(&s, s.after, va, sizeof(va));
			if (s.has_change)
				snprintf(cell, sizeof(cell), "%+.1f %%", s.change);
			else
				snprintf(cell, sizeof(cell), "n/a");
			if (s.has_ci && s.has_change && shown[m] != KP_M_COUNT)
				snprintf(ci, sizeof(ci), "[%+.1f, %+.1f] %%",
					 s.ci_lo_pct, s.ci_hi_pct);
			else
				ci[0] = '\0';
			printf("  %-6s %10s %10s %9s %s %-18s %s\n",
			       kp_metric_name(shown[m]), vb, va, cell,
			       s.significant ? "*" : " ", ci,
			       shown[m] == KP_M_COUNT ? "" : pvalue(s.p, p, sizeof(p)));
		}
		if (json) {
			kp_jw_end_object(&jw);
			kp_jw_end_object(&jw);
		}
	}
	/* the gates, on every probe's total (per cluster if they name one) */
	if (json) {
		kp_jw_end_array(&jw);
		kp_jw_name(&jw, "gates");
		kp_jw_start_array(&jw);
	}
	for (g = 0; g < ngates; g++) {
		const struct kp_failif *f = &gates[g];
		const char *want = f->cluster[0] && strcasecmp(f->cluster, "all") ?
				   f->cluster : "";

		for (i = 0; i < ra.n; i++) {
			const struct row *w = &ra.v[i], *b;
			struct kp_shift s;
			char reason[256];
			int hit;

			if (w->key[0] || strcasecmp(w->cluster, want))
				continue;
			if (!w->latency && f->metric != KP_M_COUNT)
				continue;
			b = find(&rb, w);
			if (!b)
				continue;
			s = kp_diff_metric(&b->a, &w->a, f->metric, &cfg);
			widen(&s);
			hit = kp_failif_eval(f, &s, reason, sizeof(reason));
			crossed += hit;
			if (json) {
				kp_jw_start_object(&jw);
				kp_jw_string_field(&jw, "expr", gate_text[g]);
				kp_jw_string_field(&jw, "spec", w->spec);
				kp_jw_name(&jw, "crossed");
				kp_jw_bool(&jw, hit);
				kp_jw_string_field(&jw, "reason", reason);
				kp_jw_end_object(&jw);
			} else if (hit) {
				printf("\nFAIL %s%s%s: %s\n", w->spec,
				       want[0] ? " on " : "", want, reason);
			}
		}
	}
	if (json)
		kp_jw_end_array(&jw);
	/* what only one side has */
	for (i = 0; i < 2; i++) {
		const struct rows *in = i ? &ra : &rb, *other = i ? &rb : &ra;
		unsigned int k, n = 0;

		for (k = 0; k < in->n; k++) {
			const struct row *w = &in->v[k];

			if (w->key[0] || w->cluster[0] || find(other, w))
				continue;
			if (json) {
				if (!n) {
					kp_jw_name(&jw, i ? "only_after" :
						   "only_before");
					kp_jw_start_array(&jw);
				}
				kp_jw_string(&jw, w->spec);
			} else {
				printf("\nonly in %s: %s\n", i ? "AFTER" : "BEFORE",
				       w->spec);
			}
			n++;
		}
		if (json && n)
			kp_jw_end_array(&jw);
	}
	if (json) {
		kp_jw_u64_field(&jw, "crossed", crossed);
		kp_jw_end_object(&jw);
		putchar('\n');
	} else {
		printf("\n* significant: Mann-Whitney U p < %g and the bootstrap "
		       "interval excludes 0\n", cfg.alpha ? cfg.alpha : KP_DIFF_ALPHA);
		if (ngates)
			printf("%s: %u of %u gate%s crossed\n", crossed ? "FAIL" : "ok",
			       crossed, ngates, ngates == 1 ? "" : "s");
	}
	ret = crossed ? 1 : 0;
out:
	free(rb.v);
	free(ra.v);
	kp_capture_free(&cb);
	kp_capture_free(&ca);
	return ret;
}
