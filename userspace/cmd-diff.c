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
#include "diff-print.h"
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

int cmd_diff(struct kp_dev *unused, int argc, char **argv)
{
	struct kp_failif gates[MAX_GATES];
	const char *gate_text[MAX_GATES];
	unsigned int ngates = 0, top = 10, i, g;
	struct kp_diff_cfg cfg = { 0 };
	struct option lo[KP_MAX_OPTS + 1];
	struct kp_capture cb, ca;
	struct kp_diff_opts o = { 0 };
	int opt, json = 0, clusters = 0, keys = 0, ret = 1, crossed;
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
	o.gates = gates;
	o.gate_text = gate_text;
	o.ngates = ngates;
	o.json = json;
	o.clusters = clusters;
	o.keys = keys;
	o.top = top;
	o.cfg = cfg;
	crossed = kp_diff_print(stdout, paths, &cb, &ca, &o);
	if (crossed < 0)
		goto out;
	ret = crossed ? 1 : 0;
out:
	kp_capture_free(&cb);
	kp_capture_free(&ca);
	return ret;
}
