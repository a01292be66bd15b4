// SPDX-License-Identifier: GPL-2.0
/* kprofctl show: statistics, percentiles, histograms. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtin.h"
#include "show.h"
#include "capture.h"
#include "flame.h"
#include "flame-svg.h"
#include "json.h"
#include "key-frames.h"
#include "profile.h"
#include "pmu.h"
#include "show-set.h"
#include "source.h"
#include "spec.h"
#include "syms.h"

enum { OPT_JSON = KP_OPT_BASE, OPT_PERCPU, OPT_TOP, OPT_KEY, OPT_BYCLUSTER,
       OPT_SORT, OPT_NONZERO, OPT_FOLDED, OPT_SVG, OPT_FROM,
       OPT_INTERVALS, OPT_INTERVAL = 'i', OPT_COUNT = 'n' };

static const struct kp_opt show_opts[] = {
	{ "top", 0, required_argument, "N",
	  "keys: only the first N in --sort order; function sets: the\n"
	  "first N functions in --sort order", OPT_TOP, NULL },
	{ "key", 0, required_argument, "K",
	  "keys: only key K, by value (45, 253:0, -517, 0x10) or name\n"
	  "(TIMER, -EPROBE_DEFER, a comm), with its histogram;\n"
	  "function sets: function K alone, with its histogram and\n"
	  "percentiles (hits per CPU and cluster for kprobe sets)", OPT_KEY,
	  NULL },
	{ "sort", 0, required_argument, "BY",
	  "keys and function sets: by count (default), total, mean or\n"
	  "p99 (descending); sets also by name; hit counts (kprobe,\n"
	  "tracepoint): count (or name for kprobe sets)",
	  OPT_SORT, NULL },
	{ "nonzero", 0, no_argument, NULL,
	  "function sets: hide functions never called (listed with 0\n"
	  "by default)", OPT_NONZERO, NULL },
	{ "folded", 0, optional_argument, "count|total",
	  "stack keys as folded stacks, one line per stack, the\n"
	  "outermost frame first, with its count (or total ns):\n"
	  "kprofctl flamegraph, flamegraph.pl, inferno, speedscope\n"
	  "read them; needs root",
	  OPT_FOLDED, NULL },
	{ "svg", 0, required_argument, "FILE",
	  "the same stacks as an interactive flame graph in FILE\n"
	  "(with --by-cluster one graph per cluster for a profile)",
	  OPT_SVG, NULL },
	{ "json", 0, no_argument, NULL,
	  "one JSON object: {\"probes\":[{\"id\",\"spec\",\"count\",\"missed\",\n"
	  "\"min_ns\",\"max_ns\",\"sum_ns\",\"p50_ns\",\"p90_ns\",\"p99_ns\",\n"
	  "\"p999_ns\",\"mean_ns\",\"buckets\":[{\"lo_ns\",\"hi_ns\",\"count\"}],\n"
	  "\"per_cpu\":[every CPU],[\"same_function\":[IDS]]}]}; latency\n"
	  "fields only for kinds that time calls; keys: \"nr_keys\" (used)\n"
	  "and \"key_capacity\"; a profile: \"stacks\":[{\"stack\",\"count\"}]",
	  OPT_JSON, NULL },
	{ "per-cpu", 0, no_argument, NULL, "add a breakdown per CPU", OPT_PERCPU,
	  NULL },
	{ "interval", 'i', required_argument, "TIME",
	  "live: what each interval of TIME added (calls, percentiles,\n"
	  "histograms), until Ctrl-C or -n; from the mapping, no\n"
	  "system call per snapshot", OPT_INTERVAL, NULL },
	{ "count", 'n', required_argument, "N", "with -i: stop after N intervals",
	  OPT_COUNT, NULL },
	{ "from", 0, required_argument, "FILE",
	  "a capture (kprofctl save, record) instead of the\n"
	  "device: the same output as show gave live, on any\n"
	  "machine, no module needed (- reads stdin)", OPT_FROM, NULL },
	{ "intervals", 0, no_argument, NULL,
	  "with --from a recording: each interval it recorded, as\n"
	  "show -i printed them", OPT_INTERVALS, NULL },
	{ "by-cluster", 0, no_argument, NULL,
	  "add a breakdown per CPU cluster (core type from MIDR_EL1,\n"
	  "else the PMU's cpus list: A55 cpu0-3 and A76 cpu4-7 on RK3588)",
	  OPT_BYCLUSTER, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_show = {
	.usage =
"Usage: kprofctl show [ID] [--json] [--per-cpu] [--by-cluster] [--top N] [--key K]\n"
"                     [--sort count|total|mean|p99|name] [--nonzero]\n"
"                     [--folded[=count|total]] [--from FILE] [-i TIME [-n N]]\n",
	.text =
"Print count, missed, min/mean/max, p50/p90/p99/p99.9 and a histogram for\n"
"each probe, read from the statistics mapping (no syscall per snapshot).\n"
"Pairs print one histogram per key, busiest first, and their keys beyond\n"
"the table (\"other keys\"), dropped starts and unmatched ends.  A probe\n"
"added with --key prints its totals, then each key (return values with\n"
"errno names, -EPROBE_DEFER (-517); log2 keys as ranges, 4096..8191;\n"
"pids with their comm) and its count or latency; with --if, which calls it\n"
"kept.  JSON adds \"filter\", \"key_spec\", \"keys\":[{\"key\",\"values\",\n"
"\"name\",\"count\",...}] and \"other_keys\".\n"
"Histogram rows are [low, high) in the units of the lines above them.\n"
"Misses are read fresh (LIST) and, above 1 % of the calls, explained\n"
"with the fix; a probe whose function carries another probe is marked.\n"
"A function set (kprobe:mydrv:*) prints one row per function: hits and\n"
"share, or calls, total, mean, p50, p99 and max; then the functions it\n"
"skipped and why.  A latency set through ftrace gives a function it\n"
"cannot follow a kretprobe of its own, marked (kretprobe) (--fast skips\n"
"it, --kretprobe makes them all kretprobes).  --by-cluster adds a column\n"
"per cluster (kprobe sets) or a row per cluster under each function\n"
"(kretprobe sets); --per-cpu a row per CPU.  JSON: \"mech\", \"nr_funcs\",\n"
"\"nr_probed\", \"functions\":[{\"name\",\"count\"} (hits) or {\"name\",\"count\",\n"
"\"total_ns\",\"mean_ns\",\"min_ns\",\"max_ns\",\"p50_ns\",\"p90_ns\",\"p99_ns\",\n"
"\"p999_ns\"} and \"via\":\"kretprobe\" for those], \"skipped\":[{\"name\",\n"
"\"reason\",\"error\"}].\n",
	.opts = show_opts,
	.width = 12,
	.after =
"Probes with PMU events also print their per-call deltas (kretprobe --pmu)\n"
"and the counters' totals over the capture window, per CPU and per cluster.\n",
	.examples =
"  kprofctl show\n  kprofctl show 1 --per-cpu\n  kprofctl show --json | jq '.probes[].p99_ns'\n"
"  kprofctl show 2 --top 3\n  kprofctl show 2 --key 45 --json\n"
"  kprofctl show 5 --key -EPROBE_DEFER\n  kprofctl show 5 --sort p99 --top 5\n"
"  kprofctl show 6 --folded > out.folded; kprofctl flamegraph out.folded > out.svg\n"
"  kprofctl show 4 --by-cluster\n"
"  kprofctl show 3 --sort p99 --top 10\n"
"  kprofctl show 3 --nonzero --by-cluster\n"
"  kprofctl show 3 --key mydrv_xfer\n"
"  kprofctl save before.json; kprofctl show --from before.json --by-cluster\n"
"  kprofctl show 1 -i 1s -n 10\n",
};

/*
 * Folded lines into graphs: one, or with split one per first frame (a
 * profile's cluster), labelled with it (lab holds the labels).  0, or -1
 * with why in err.
 */
static int flame_from_folded(char *text, int split, struct kp_flame *g,
			     struct kp_flame **gv, unsigned int *n,
			     char lab[][40], char *err, size_t errlen)
{
	char *line, *save = NULL, *sp, *stack, *semi, *end;
	unsigned long long count;
	unsigned int i;

	*n = 0;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		sp = strrchr(line, ' ');
		if (!sp)
			continue;
		errno = 0;
		count = strtoull(sp + 1, &end, 10);
		if (errno || *end)
			continue;
		stack = line;
		i = 0;
		if (split) {
			semi = strchr(line, ';');
			if (!semi || semi > sp)
				continue;
			for (i = 0; i < *n; i++)
				if (!strncmp(lab[i], line, semi - line) &&
				    !lab[i][semi - line])
					break;
			stack = semi + 1;
		}
		if (i == *n) {
			if (*n == KP_FLAME_MAX_GRAPHS)
				continue;
			snprintf(lab[i], 40, "%.*s", split ?
				 (int)(strchr(line, ';') - line) : 0, line);
			if (kp_flame_init(&g[i], split ? lab[i] : NULL)) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			gv[i] = &g[i];
			(*n)++;
		}
		if (kp_flame_add(&g[i], stack, (size_t)(sp - stack), count, err,
				 errlen))
			return -1;
	}
	if (!*n) {
		snprintf(err, errlen, "no stack to draw");
		return -1;
	}
	return 0;
}

/*
 * show ID --svg FILE: the probe's folded stacks (as --folded prints them,
 * with --by-cluster a profile's per cluster) into one flame graph each.
 */
static int show_svg(struct kp_dev *d, uint32_t id,
		    const struct kp_show_opts *o, const char *path)
{
	struct kp_flame g[KP_FLAME_MAX_GRAPHS], *gv[KP_FLAME_MAX_GRAPHS];
	struct kp_show_opts so = *o;
	struct kp_flame_opts fo = { 0 };
	unsigned int n = 0, i;
	char *text = NULL, err[256], title[64], lab[KP_FLAME_MAX_GRAPHS][40];
	struct kprof_probe_info info;
	size_t len = 0;
	FILE *mem, *f;
	int ret, split;

	mem = open_memstream(&text, &len);
	if (!mem)
		return 1;
	if (!so.folded)
		so.folded = 1;
	so.out = mem;
	ret = kp_show_ids(d, &id, 1, &so);
	fclose(mem);
	if (ret) {
		free(text);
		return ret;
	}
	if (!len) {
		free(text);
		fprintf(stderr, "kprofctl show: probe %u has no stack yet\n", id);
		return 1;
	}
	/* a profile's clusters are each line's first frame: one graph each */
	split = o->by_cluster && !kp_src_probe(d, id, &info) &&
		kp_prof_is(&d->m, &info) && info.type == KPROF_TYPE_SAMPLE;
	ret = flame_from_folded(text, split, g, gv, &n, lab, err, sizeof(err));
	free(text);
	if (ret) {
		fprintf(stderr, "kprofctl show: %s\n", err);
		goto out;
	}
	snprintf(title, sizeof(title), "kprofctl probe %u", id);
	fo.title = title;
	fo.count_name = so.folded == 2 ? "ns" : NULL;
	f = fopen(path, "w");
	if (!f || kp_flame_svg(f, gv, n, &fo) || fclose(f)) {
		fprintf(stderr, "kprofctl show: cannot write '%s': %s\n", path,
			strerror(errno));
		ret = 1;
	}
out:
	for (i = 0; i < n; i++)
		kp_flame_free(&g[i]);
	return ret;
}

/* show -i --json's line before an interval's probes */
static void json_interval(uint64_t k, uint64_t t_ns)
{
	struct kp_jw w;

	kp_jw_init(&w, stdout);
	kp_jw_start_object(&w);
	kp_jw_u64_field(&w, "interval", k);
	kp_jw_u64_field(&w, "t_ns", t_ns);
	kp_jw_end_object(&w);
	putchar('\n');
}

/*
 * show -i: every interval, what it added, rendered as show renders the
 * whole (kp_map_since); until Ctrl-C or count intervals.
 */
static int show_intervals(struct kp_dev *d, const uint32_t *ids,
			  unsigned int nids, const struct kp_show_opts *o,
			  uint64_t interval, uint64_t count)
{
	struct kp_tick tk = { .sig = &kp_run_signal };
	struct sigaction sa;
	uint64_t t, k;
	void *prev;
	int ret = 0;

	if (kp_dev_map(d))
		return 1;
	prev = kp_map_copy(&d->m);
	if (!prev) {
		fprintf(stderr, "kprofctl show: the mapping never settles\n");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kp_on_run_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	kp_tick_init(&tk, kp_now_ns(), interval, 0);
	for (k = 0; !ret && (!count || k < count) &&
	     kp_tick_wait(&tk, &t) == KP_TICK_DUE;) {
		struct kp_map dm = d->m;
		struct kp_dev iv;
		void *delta;

		delta = kp_map_since(&d->m, &prev);
		if (!delta) {
			fprintf(stderr, "kprofctl show: the mapping never settles\n");
			ret = 1;
			break;
		}
		dm.base = delta;
		dm.hdr = delta;
		kp_src_interval(&iv, d, &dm);
		k++;
		if (o->json)
			json_interval(k, t - tk.start);
		else
			printf("%s# interval %" PRIu64 ": %.3f s to %.3f s\n",
			       k > 1 ? "\n" : "", k,
			       (tk.due - interval - tk.start) / 1e9,
			       (t - tk.start) / 1e9);
		ret = kp_show_ids(&iv, ids, nids, o);
		fflush(stdout);
		free(delta);
	}
	free(prev);
	return ret;
}

/* show --from FILE --intervals: a recording's intervals, as show -i */
static int show_recorded(struct kp_dev *d, const struct kp_capture *c,
			 const uint32_t *ids, unsigned int nids,
			 const struct kp_show_opts *o)
{
	unsigned int k;
	int ret = 0;

	if (!c->nr_iv) {
		fprintf(stderr, "kprofctl show: the capture has no intervals "
			"(kprofctl record makes them)\n");
		return 1;
	}
	for (k = 0; !ret && k < c->nr_iv; k++) {
		const struct kp_cap_interval *v = &c->iv[k];
		struct kp_dev iv;

		kp_src_interval(&iv, d, &v->m);
		if (o->json)
			json_interval(k + 1, v->t_ns);
		else
			printf("%s# interval %u: %.3f s to %.3f s\n", k ? "\n" : "",
			       k + 1, (v->t_ns - v->dt_ns) / 1e9, v->t_ns / 1e9);
		ret = kp_show_ids(&iv, ids, nids, o);
	}
	return ret;
}

/* ids' probes (none: every probe), or with svg one's flame graph */
static int show_probes(struct kp_dev *d, const uint32_t *ids, unsigned int nids,
		       const struct kp_show_opts *o, const char *svg)
{
	return svg ? show_svg(d, ids[0], o, svg) : kp_show_ids(d, ids, nids, o);
}

/* the device is opened here, after the options: show --from needs none */
int cmd_show(struct kp_dev *unused, int argc, char **argv)
{
	struct kp_show_opts o = { 0 };
	const char *idarg = NULL;
	const uint32_t *ids;
	unsigned int nids;
	uint32_t id;
	struct option lo[KP_MAX_OPTS + 1];
	const char *svg = NULL, *from = NULL;
	uint64_t interval = 0, count = 0;
	int intervals = 0;
	char shorts[40];
	struct kp_capture cap;
	struct kp_dev dev;
	char err[256];
	int opt, ret;

	(void)unused;
	kp_opts_build(show_opts, lo);
	kp_opts_short(show_opts, shorts, sizeof(shorts));
	optind = 1;
	for (;;) {
		opt = getopt_long(argc, argv, shorts, lo, NULL);
		if (opt == -1) {
			if (optind < argc && !idarg) {
				idarg = argv[optind++];
				continue;
			}
			break;
		}
		if (opt == OPT_JSON) {
			o.json = 1;
		} else if (opt == OPT_PERCPU) {
			o.per_cpu = 1;
		} else if (opt == OPT_BYCLUSTER) {
			o.by_cluster = 1;
		} else if (opt == OPT_TOP) {
			uint64_t v;

			if (kp_parse_u64(optarg, 1, 1 << 20, &v))
				return kp_bad_usage("show", "--top takes a count, not '%s'",
						 optarg);
			o.top = (unsigned int)v;
		} else if (opt == OPT_SORT) {
			if (kp_sort_parse(optarg) < 0) {
				char list[64];

				kp_sort_list(list, sizeof(list), 0, 0);
				return kp_bad_usage("show", "--sort takes %s, "
						    "not '%s'", list, optarg);
			}
			o.sort = optarg;
		} else if (opt == OPT_NONZERO) {
			o.nonzero = 1;
		} else if (opt == OPT_FOLDED) {
			if (optarg && strcmp(optarg, "count") &&
			    strcmp(optarg, "total"))
				return kp_bad_usage("show", "--folded takes count or "
						    "total, not '%s'", optarg);
			o.folded = optarg && !strcmp(optarg, "total") ? 2 : 1;
		} else if (opt == OPT_SVG) {
			svg = optarg;
		} else if (opt == OPT_FROM) {
			from = optarg;
		} else if (opt == OPT_INTERVALS) {
			intervals = 1;
		} else if (opt == OPT_INTERVAL) {
			if (kp_parse_duration(optarg, &interval) || !interval) {
				kp_duration_error("-i", optarg, err, sizeof(err));
				return kp_bad_usage("show", "%s", err);
			}
		} else if (opt == OPT_COUNT) {
			if (kp_parse_u64(optarg, 1, UINT32_MAX, &count))
				return kp_bad_usage("show", "-n takes a count, not '%s'",
						    optarg);
		} else if (opt == OPT_KEY) {
			if (!*optarg)
				return kp_bad_usage("show", "%s", "--key needs a value");
			o.key = optarg;
		} else {
			return kp_bad_usage("show", "%s", "unknown option");
		}
	}
	if (optind < argc)
		return kp_bad_usage("show", "unexpected argument '%s'", argv[optind]);
	if (svg && (!idarg || o.json))
		return kp_bad_usage("show", "%s", "--svg draws one probe's stacks: "
				    "give its ID (and no --json)");
	if (idarg) {
		ret = kp_parse_id("show", idarg, 0, &id);
		if (ret)
			return ret;
	}
	if (count && !interval)
		return kp_bad_usage("show", "%s", "-n counts intervals: give -i TIME");
	if (interval && (from || svg || o.folded))
		return kp_bad_usage("show", "-i shows the live device interval by "
				    "interval, and not with %s", from ? "--from "
				    "(report draws a recording's intervals)" :
				    svg ? "--svg" : "--folded");
	if (intervals && (!from || svg || o.folded))
		return kp_bad_usage("show", "%s", "--intervals reads a recording: "
				    "give --from FILE (and no --svg, --folded)");
	ids = idarg ? &id : NULL;
	nids = idarg ? 1 : 0;
	if (!from) {
		/* after the options: a usage error is one, module or not */
		if (kp_dev_open(&dev, kp_dev_path))
			return 1;
		ret = interval ? show_intervals(&dev, ids, nids, &o, interval,
						count) :
		      show_probes(&dev, ids, nids, &o, svg);
		kp_dev_close(&dev);
		return ret;
	}
	if (kp_capture_load(&cap, from, err, sizeof(err))) {
		fprintf(stderr, "kprofctl show: %s: %s\n", from, err);
		return 1;
	}
	kp_dev_from_capture(&dev, &cap);
	ret = intervals ? show_recorded(&dev, &cap, ids, nids, &o) :
	      show_probes(&dev, ids, nids, &o, svg);
	kp_capture_free(&cap);
	return ret;
}

