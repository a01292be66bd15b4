// SPDX-License-Identifier: GPL-2.0
/* kprofctl watch: slow calls and probe events (watch.c does the netlink). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "spec.h"
#include "watch.h"

enum { OPT_PROBE = KP_OPT_BASE, OPT_MIN, OPT_COUNT, OPT_JSON };

static const struct kp_opt watch_opts[] = {
	{ "probe", 0, required_argument, "ID", "only this probe", OPT_PROBE,
	  NULL },
	{ "min", 0, required_argument, "LAT",
	  "only slow calls at least LAT long (500us, 2ms: the unit\n"
	  "is required)", OPT_MIN, NULL },
	{ "count", 0, required_argument, "N",
	  "exit after N events: slow calls, probe events, and each\n"
	  "loss report as the number of slow calls it reports", OPT_COUNT,
	  NULL },
	{ "json", 0, no_argument, NULL,
	  "one JSON object per line: {\"type\":\"slow\",\"time_ns\",\"cpu\",\n"
	  "\"cluster\",\"pid\",\"tgid\",\"comm\",\"probe\",\"spec\",\n"
	  "\"latency_ns\",[\"key\"],[\"stack\"]},\n"
	  "{\"type\":\"registered\"|\"unregistered\"|\"gone\"|\"losses\",\n"
	  "\"probe\",\"spec\",[\"dropped\",\"nmissed\"]},\n"
	  "{\"type\":\"leak\",\"probe\",\"spec\",\"site_id\",[\"site\"],\n"
	  "\"kind\",\"size\",\"age_ns\"};\n"
	  "the first line is {\"type\":\"listening\"}", OPT_JSON, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_watch = {
	.usage = "Usage: kprofctl watch [--probe ID] [--min LAT] [--count N] [--json]\n",
	.text =
"Print each slow call (probes added with --slow) as the module reports it\n"
"over generic netlink: time (CLOCK_MONOTONIC), CPU and cluster, comm/pid,\n"
"probe id and spec, latency, and its stack (--stack): a kretprobe's\n"
"function first (by name), then its caller and up, symbolised from\n"
"/proc/kallsyms when kernel addresses are visible to you (kptr_restrict);\n"
"a pair's is that of the tracepoint callback that ended it.\n"
"Also probe events: registered, unregistered, gone (target module\n"
"unloaded) and losses (slow calls dropped because a CPU's ring was full,\n"
"calls missed by the kprobe core).  And a mem: probe's leaks: each object\n"
"its module left allocated when it was unloaded, its size, kind, site (by\n"
"name where the group is closed to users without CAP_SYS_ADMIN) and age.\n"
"Runs until Ctrl-C.  Joining the events group needs CAP_SYS_ADMIN.\n",
	.opts = watch_opts,
	.width = 12,
	.examples =
"  kprofctl add kretprobe:mydrv_xfer --slow 500us --stack --start\n"
"  kprofctl watch\n"
"  kprofctl watch --probe 3 --min 2ms --json\n"
"  kprofctl add --start mem:mydrv; kprofctl watch --json & rmmod mydrv\n",
};

int cmd_watch(struct kp_dev *d, int argc, char **argv)
{
	struct kp_watch_opts o = { 0 };
	uint64_t v;
	struct option lo[KP_MAX_OPTS + 1];
	int opt;

	kp_opts_build(watch_opts, lo);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+", lo, NULL)) != -1) {
		switch (opt) {
		case OPT_PROBE:
			if (kp_parse_u64(optarg, 1, UINT32_MAX, &v))
				return kp_bad_usage("watch", "'%s' is not a probe id",
						 optarg);
			o.probe = (uint32_t)v;
			break;
		case OPT_MIN:
			if (kp_parse_duration(optarg, &o.min_ns)) {
				char why[160];

				kp_duration_error("--min", optarg, why, sizeof(why));
				return kp_bad_usage("watch", "%s", why);
			}
			break;
		case OPT_COUNT:
			if (kp_parse_u64(optarg, 1, UINT64_MAX, &o.count))
				return kp_bad_usage("watch", "--count takes a number, "
						 "not '%s'", optarg);
			break;
		case OPT_JSON:
			o.json = 1;
			break;
		default:
			return kp_bad_usage("watch", "%s", "unknown option");
		}
	}
	if (optind < argc)
		return kp_bad_usage("watch", "unexpected argument '%s'", argv[optind]);
	if (kp_dev_ready(d))
		return 1;
	if (o.probe) {
		struct kprof_probe_query q;
		int ret;

		/* a probe deleted later is fine: watch reports it */
		memset(&q, 0, sizeof(q));
		q.size = sizeof(q);
		q.id = o.probe;
		ret = kp_ioctl(d, KPROF_IOC_INFO, &q);
		if (ret == -ENOENT) {
			fprintf(stderr, "kprofctl watch: no probe %u\n", o.probe);
			return 1;
		}
	}
	/*
	 * Specs of probes added before watch, and a kretprobe set's function
	 * names, come from the mapping: without it they print as "?"
	 */
	if (!kp_dev_map(d))
		o.map = &d->m;
	return kp_watch(&o, d->ver.nr_cpus);
}

