// SPDX-License-Identifier: GPL-2.0
/* kprofctl timeline: a recording as a Chrome/Perfetto trace (timeline.c). */
#include <stdio.h>

#include "builtin.h"
#include "timeline.h"

enum { OPT_TL_FROM = KP_OPT_BASE, OPT_TL_OUT = 'o' };

static const struct kp_opt timeline_opts[] = {
	{ "from", 0, required_argument, "FILE",
	  "the recording (kprofctl record -i TIME -o FILE)", OPT_TL_FROM,
	  NULL },
	{ "output", 'o', required_argument, "OUT",
	  "the trace (default: stdout)", OPT_TL_OUT, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_timeline = {
	.usage =
"Usage: kprofctl timeline --from FILE [-o OUT]\n",
	.text =
"Write a recording's intervals as a Trace Event Format JSON trace, which\n"
"Perfetto UI (ui.perfetto.dev), chrome://tracing and speedscope open: a\n"
"track per probe with one span per interval (its calls, and p50, p99 and\n"
"max for latency probes), counters of each probe's rate (calls/s) and p99\n"
"(us), a track per CPU with each probe's calls there, and the slow calls\n"
"the recording heard (probes added with --slow) as spans from entry to\n"
"return on a track per task (comm and pid; a further lane for a call\n"
"that crosses one open there).  Times are microseconds since the\n"
"recording began.  Function sets and profiles show their own statistics\n"
"only (no row per function or stack).\n",
	.opts = timeline_opts,
	.width = 16,
	.examples =
"  kprofctl record -i 100ms -d 10s -o run.json\n"
"  kprofctl timeline --from run.json -o run.trace.json\n"
"  kprofctl add kretprobe:mydrv:mydrv_xfer --slow 5ms --start\n"
"  kprofctl record -i 100ms -o x.json -- ./exercise && kprofctl timeline --from x.json -o x.trace.json\n",
};

int cmd_timeline(struct kp_dev *d, int argc, char **argv)
{
	struct option lo[KP_MAX_OPTS + 1];
	const char *from = NULL, *out = NULL;
	int opt;

	(void)d;
	kp_opts_build(timeline_opts, lo);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+o:", lo, NULL)) != -1) {
		if (opt == OPT_TL_FROM)
			from = optarg;
		else if (opt == OPT_TL_OUT)
			out = optarg;
		else
			return kp_bad_usage("timeline", "%s", "unknown option");
	}
	if (!from)
		return kp_bad_usage("timeline", "%s", "--from FILE is required");
	if (optind < argc)
		return kp_bad_usage("timeline", "unexpected argument '%s'",
				    argv[optind]);
	return kp_timeline_convert("timeline", from, out);
}
