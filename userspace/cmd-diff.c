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
#include "diff-gate.h"
#include "diff-print.h"
#include "junit.h"
#include "spec.h"

enum {
	OPT_FAILIF = KP_OPT_BASE, OPT_JSON, OPT_BYCLUSTER, OPT_KEYS, OPT_TOP,
	OPT_ALPHA, OPT_JUNIT, OPT_ALLOW_MISSING, OPT_ALLOW_MISMATCH
};

#define MAX_GATES	16

static const struct kp_opt diff_opts[] = {
	{ NULL, 0, 0, "BEFORE AFTER", "two captures (kprofctl save, record)", 0,
	  NULL },
	{ "fail-if", 0, required_argument, "EXPR",
	  "exit 1 when EXPR holds: [TARGET:]METRIC OP VALUE\n"
	  "(see GATES below; 16 at most)", OPT_FAILIF, NULL },
	{ "allow-missing", 0, no_argument, NULL,
	  "a gate passes a probe, function or key that AFTER\n"
	  "lost or left without calls", OPT_ALLOW_MISSING, NULL },
	{ "allow-mismatch", 0, no_argument, NULL,
	  "a gate judges rows that cannot be compared (another\n"
	  "mechanism, filter, kernel, CPUs)", OPT_ALLOW_MISMATCH, NULL },
	{ "junit", 0, required_argument, "FILE",
	  "also write the gates as JUnit XML: a test case per\n"
	  "gate and row it covers", OPT_JUNIT, NULL },
	{ "by-cluster", 0, no_argument, NULL,
	  "also compare each CPU cluster (A55, A76) of both", OPT_BYCLUSTER,
	  NULL },
	{ "keys", 0, no_argument, NULL,
	  "also compare the keys found in both", OPT_KEYS, NULL },
	{ "top", 0, required_argument, "N",
	  "with --keys: the N busiest keys of each probe (default 10)",
	  OPT_TOP, NULL },
	{ "alpha", 0, required_argument, "P",
	  "significance level of the Mann-Whitney test (default 0.01)",
	  OPT_ALPHA, NULL },
	{ "json", 0, no_argument, NULL,
	  "one JSON object: {\"before\",\"after\",\"rows\":[{\"spec\",\n"
	  "\"function\"|\"key\",\"cluster\",\"not_comparable\",\"p\",\n"
	  "\"metrics\":{\"p99\":{\"before\",\"after\",\"change_pct\",\n"
	  "\"ci_pct\",\"significant\"}}}],\"gates\":[{\"expr\",\"verdict\",\n"
	  "\"rows\":[{\"spec\",\"metric\",\"before_ns\",\"after_ns\",...,\n"
	  "\"verdict\",\"reason\"}]}],\"only_before\",\"only_after\",\n"
	  "\"crossed\"}",
	  OPT_JSON, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_diff = {
	.usage =
"Usage: kprofctl diff BEFORE AFTER [--fail-if EXPR]... [--allow-missing]\n"
"                     [--allow-mismatch] [--junit FILE] [--by-cluster]\n"
"                     [--keys] [--top N] [--alpha P] [--json]\n",
	.text =
"Compare two captures probe by probe (matched by spec), and each function\n"
"of a set: count, p50, p90, p99, max and mean before -> after, the change\n"
"in percent, its 95 % interval and whether it is beyond noise (*).  A\n"
"shift is significant when a Mann-Whitney U test on the two histograms'\n"
"buckets gives p < 0.01 (the p beside the header: the whole\n"
"distribution's) and a Poisson bootstrap interval of the metric's change\n"
"(1000 resamples, fixed seed: the same files give the same answer)\n"
"excludes 0.  The tests take calls as independent and values as known to\n"
"their bucket (1/16 of a power of two, 3 % at worst); counts are exact, so\n"
"any change in count is one.  Probes, functions and keys in one capture\n"
"only are listed as such; a row whose two sides differ in mechanism,\n"
"--if filter, options, kernel, CPUs or clusters says it is not comparable.\n",
	.opts = diff_opts,
	.width = 17,
	.after =
"\nGATES: --fail-if '[TARGET:]METRIC OP VALUE'.  METRIC: count, mean, min,\n"
"max, p50, p90, p99, p999; OP: >, <, >=, <=; VALUE: a change (+10%, -5%)\n"
"or a value (500us, 2ms; count: a number).  TARGET (else every probe and\n"
"function of a set): a cluster (A76), a probe by spec, symbol or id, a\n"
"function of a set, a key (-EAGAIN or EAGAIN, a caller).  A relative gate\n"
"needs the shift to be significant too, so noise never fails a build; an\n"
"absolute one holds whenever the after value is beyond it.  A covered row\n"
"gone from AFTER or without calls there fails (--allow-missing), as does\n"
"one that cannot be compared (--allow-mismatch).\n"
"\n"
"Exit status: 0 no gate crossed, 1 a gate crossed (each failing row is\n"
"printed), 2 trouble: a bad argument, an unreadable or invalid capture, a\n"
"--junit FILE that cannot be written.\n",
	.examples =
"  kprofctl diff before.json after.json\n"
"  kprofctl diff before.json after.json --fail-if 'p99>+10%' --fail-if 'count<-1%'\n"
"  kprofctl diff before.json after.json --fail-if 'mydrv_xfer:p99>+10%' --junit gates.xml\n"
"  kprofctl diff before.json after.json --fail-if 'EAGAIN:count>+50%'\n"
"  kprofctl diff before.json after.json --by-cluster --fail-if 'A76:p50>+5%'\n"
"  kprofctl diff before.json after.json --keys --top 5 --json\n",
};

/* each gate judged into res; what is printed; 0, 1 (crossed) or 2 */
static int diff_run(const char *const paths[2], const struct kp_capture *cb,
		    const struct kp_capture *ca, const struct kp_failif *gates,
		    const char *const *text, unsigned int ngates,
		    const struct kp_gate_cfg *gc, const char *junit,
		    struct kp_diff_opts *o)
{
	struct kp_gate_res res[MAX_GATES];
	struct kp_drows rs;
	unsigned int g, n = 0, failed = 0;
	char err[320];
	FILE *jf = NULL;
	int ret = 2;

	if (kp_drows_build(&rs, cb, ca, 1)) {
		fprintf(stderr, "kprofctl diff: out of memory\n");
		return 2;
	}
	for (g = 0; g < ngates; g++)
		if (kp_gate_aim(&gates[g], &rs, err, sizeof(err))) {
			kp_bad_usage("diff", "--fail-if '%s': %s", text[g], err);
			goto out;
		}
	if (junit)
		jf = fopen(junit, "w");
	if (junit && !jf) {
		fprintf(stderr, "kprofctl diff: --junit %s: %s\n", junit,
			strerror(errno));
		goto out;
	}
	for (n = 0; n < ngates; n++) {
		if (kp_gate_eval(&gates[n], text[n], &rs, gc, &res[n])) {
			fprintf(stderr, "kprofctl diff: out of memory\n");
			goto out;
		}
		failed += !!res[n].fail;
	}
	o->gates = res;
	o->ngates = ngates;
	if (kp_diff_print(stdout, paths, cb, ca, &rs, o)) {
		fprintf(stderr, "kprofctl diff: out of memory\n");
		goto out;
	}
	if (jf) {
		int bad = kp_junit_write(jf, res, ngates);

		if (fclose(jf) || bad) {
			jf = NULL;
			fprintf(stderr, "kprofctl diff: --junit %s: %s\n", junit,
				strerror(errno));
			goto out;
		}
		jf = NULL;
	}
	ret = failed ? 1 : 0;
out:
	if (jf)
		fclose(jf);
	while (n--)
		kp_gate_res_free(&res[n]);
	kp_drows_free(&rs);
	return ret;
}

int cmd_diff(struct kp_dev *unused, int argc, char **argv)
{
	struct kp_failif gates[MAX_GATES];
	const char *gate_text[MAX_GATES];
	unsigned int ngates = 0, top = 10;
	struct kp_gate_cfg gc = { 0 };
	struct option lo[KP_MAX_OPTS + 1];
	struct kp_capture cb, ca;
	struct kp_diff_opts o = { 0 };
	int opt, ret;
	const char *paths[2], *junit = NULL;
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
			o.json = 1;
		} else if (opt == OPT_BYCLUSTER) {
			o.clusters = 1;
		} else if (opt == OPT_KEYS) {
			o.keys = 1;
		} else if (opt == OPT_JUNIT) {
			junit = optarg;
		} else if (opt == OPT_ALLOW_MISSING) {
			gc.allow_missing = 1;
		} else if (opt == OPT_ALLOW_MISMATCH) {
			gc.allow_mismatch = 1;
		} else if (opt == OPT_TOP) {
			uint64_t v;

			if (kp_parse_u64(optarg, 1, 1 << 20, &v))
				return kp_bad_usage("diff", "--top takes a count, "
						    "not '%s'", optarg);
			top = (unsigned int)v;
		} else if (opt == OPT_ALPHA) {
			char *end;

			errno = 0;
			o.cfg.alpha = strtod(optarg, &end);
			if (errno || *end ||
			    !(o.cfg.alpha > 0 && o.cfg.alpha < 0.5))
				return kp_bad_usage("diff", "--alpha takes a level "
						    "between 0 and 0.5 (0.01), "
						    "not '%s'", optarg);
		} else {
			return kp_bad_usage("diff", "%s", "unknown option");
		}
	}
	if (npaths != 2)
		return kp_bad_usage("diff", "%s", "give two captures: BEFORE AFTER");
	/* an unreadable input is trouble (2), not a crossed gate (1) */
	if (kp_capture_load(&cb, paths[0], err, sizeof(err))) {
		fprintf(stderr, "kprofctl diff: %s: %s\n", paths[0], err);
		return 2;
	}
	if (kp_capture_load(&ca, paths[1], err, sizeof(err))) {
		fprintf(stderr, "kprofctl diff: %s: %s\n", paths[1], err);
		kp_capture_free(&cb);
		return 2;
	}
	o.top = top;
	gc.cfg = o.cfg;
	ret = diff_run(paths, &cb, &ca, gates, gate_text, ngates, &gc, junit,
		       &o);
	kp_capture_free(&cb);
	kp_capture_free(&ca);
	return ret;
}
