// SPDX-License-Identifier: GPL-2.0
/* kprofctl record: snapshots every interval, saved as a series (capture.c). */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "builtin.h"
#include "capture.h"
#include "slow-listen.h"
#include "spec.h"
#include "timeline.h"

enum { OPT_REC_OUT = 'o', OPT_REC_I = 'i', OPT_REC_D = 'd',
       OPT_REC_TL = KP_OPT_BASE };

static const struct kp_opt record_opts[] = {
	{ "interval", 'i', required_argument, "TIME",
	  "snapshot every TIME (with a unit: 1s, 250ms; default 1s)",
	  OPT_REC_I, NULL },
	{ "duration", 'd', required_argument, "TIME",
	  "stop after TIME (default: until CMD exits, or Ctrl-C)", OPT_REC_D,
	  NULL },
	{ "output", 'o', required_argument, "FILE",
	  "the capture with its series (required; - is stdout)", OPT_REC_OUT,
	  NULL },
	{ "timeline", 0, required_argument, "OUT",
	  "also the recording as a Perfetto trace (see timeline)",
	  OPT_REC_TL, NULL },
	{ NULL, 0, 0, "ID", "only these probes (default: every probe)", 0,
	  NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_record = {
	.usage =
"Usage: kprofctl record [-i TIME] [-d TIME] -o FILE [--timeline OUT] [ID...]\n"
"                       [-- CMD [ARGS]]\n",
	.text =
"Snapshot the statistics every interval through the mapping (no system\n"
"call per snapshot) and save, with the final capture, what each interval\n"
"added: the series behind report's heatmaps and top --from.  The probes\n"
"must exist (kprofctl add ... --start); record neither adds nor starts\n"
"them.  With -- CMD it runs CMD and stops when CMD exits (exit status\n"
"CMD's); Ctrl-C stops a recording and still writes the file.  Probes\n"
"added with --slow: their slow calls too, heard as watch hears them\n"
"(CAP_SYS_ADMIN), as spans on the timeline; any the module sent that\n"
"never arrived within 2 s of the end are counted as lost, and said.\n",
	.opts = record_opts,
	.width = 16,
	.examples =
"  kprofctl record -i 1s -d 60s -o run.json\n"
"  kprofctl record -i 100ms -o dd.json -- dd if=/dev/mmcblk0 of=/dev/null count=1000\n"
"  kprofctl record -i 10ms -d 5s -o run.json --timeline run.trace.json\n"
"  kprofctl add kretprobe:mmc_blk_mq_issue_rq --slow 5ms --start\n"
"  kprofctl record -i 100ms -o io.json --timeline io.trace.json -- sync\n"
"  kprofctl report -o run.html run.json\n",
};

static int rec_time(const char *opt, const char *arg, uint64_t *ns)
{
	char why[256];

	if (!kp_parse_duration(arg, ns) && *ns)
		return 0;
	kp_duration_error(opt, arg, why, sizeof(why));
	return kp_bad_usage("record", "%s", why);
}

int cmd_record(struct kp_dev *d, int argc, char **argv)
{
	uint64_t interval = 1000000000ull, duration = 0, start;
	struct kp_tick tk = { 0 };
	const char *out = NULL, *tl = NULL;
	struct option lo[KP_MAX_OPTS + 1];
	struct kp_recorder rec;
	struct kp_slow_listen ear;
	struct sigaction sa;
	char **cmd = NULL, shorts[40];
	uint32_t *ids = NULL;
	unsigned int n = 0;
	pid_t child = -1;
	int opt, ret, nargs = 0;
	char **args;

	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return 1;
	kp_opts_build(record_opts, lo);
	kp_opts_short(record_opts, shorts, sizeof(shorts));
	optind = 1;
	while (optind < argc) {
		if (!strcmp(argv[optind], "--")) {
			cmd = argv + optind + 1;
			break;
		}
		opt = getopt_long(argc, argv, shorts, lo, NULL);
		if (opt == -1) {
			args[nargs++] = argv[optind++];
			continue;
		}
		ret = 0;
		if (opt == OPT_REC_I)
			ret = rec_time("-i", optarg, &interval);
		else if (opt == OPT_REC_D)
			ret = rec_time("-d", optarg, &duration);
		else if (opt == OPT_REC_OUT)
			out = optarg;
		else if (opt == OPT_REC_TL)
			tl = optarg;
		else
			ret = kp_bad_usage("record", "%s", "unknown option");
		if (ret) {
			free(args);
			return ret;
		}
	}
	ret = 0;
	if (!out)
		ret = kp_bad_usage("record", "%s", "missing -o FILE");
	else if (tl && !strcmp(out, "-"))
		ret = kp_bad_usage("record", "%s", "--timeline reads the recording "
				   "back: give -o a FILE, not stdout");
	else if (cmd && !cmd[0])
		ret = kp_bad_usage("record", "%s", "missing CMD after '--'");
	else if (cmd && duration)
		ret = kp_bad_usage("record", "%s", "-d and '-- CMD' exclude each other");
	else if (duration && duration < interval)
		ret = kp_bad_usage("record", "%s", "-d is shorter than one interval (-i)");
	if (!ret)
		ret = kp_cap_parse_ids("record", nargs, args, &ids, &n);
	free(args);
	if (!ret && kp_dev_ready(d))
		ret = 1;
	if (ret) {
		free(ids);
		return ret;
	}
	ret = kp_cap_ids_exist(d, "record", ids, n);
	if (ret)
		goto out_ids;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kp_on_run_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = kp_on_child;
	sigaction(SIGCHLD, &sa, NULL);
	if (cmd) {
		child = kp_launch_stopped("record", cmd, d->fd, 0);
		if (child < 0) {
			ret = 1;
			goto out_ids;
		}
	}
	start = kp_now_ns();
	if (kp_rec_init(&rec, &d->m, start, interval)) {
		fprintf(stderr, "kprofctl record: out of memory, or the mapping "
			"never settled\n");
		ret = 1;
		goto out_child;
	}
	kp_tick_init(&tk, start, interval, duration);
	/* probes with --slow: their slow calls too, from the events group */
	if (kp_slow_listen_start(&ear, &d->m, ids, n, start) > 0) {
		tk.sleep = kp_slow_listen_sleep;
		tk.ctx = &ear;
	}
	tk.sig = &kp_run_signal;
	tk.child = child;
	if (child > 0)
		kill(child, SIGCONT);
	for (;;) {
		uint64_t t;
		int w = kp_tick_wait(&tk, &t);

		if (w == KP_TICK_END) {
			if (kp_rec_snap(&rec, &d->m, t))
				ret = 1;
			break;
		}
		if (w != KP_TICK_DUE)
			break;
		if (kp_rec_snap(&rec, &d->m, t)) {
			ret = 1;
			break;
		}
	}
	/* the part of an interval the command or Ctrl-C cut short */
	if (!ret && !(tk.end && rec.prev_ns >= tk.end) &&
	    kp_now_ns() > rec.prev_ns &&
	    kp_rec_snap(&rec, &d->m, kp_now_ns()))
		ret = 1;
	if (!ret && ear.sk)
		kp_slow_listen_end(&ear, &d->m, rec.prev_ns, &rec);
	kp_slow_listen_free(&ear);
	if (ret)
		fprintf(stderr, "kprofctl record: out of memory, or the mapping "
			"never settled\n");
	else
		ret = kp_capture_save(out, d, ids, n, rec.prev_ns - rec.t0_ns,
				      &rec);
	if (!ret && strcmp(out, "-"))
		fprintf(stderr, "kprofctl record: %u intervals of %.3f s in %s\n",
			rec.n, interval / 1e9, out);
	if (!ret && tl) {
		ret = kp_timeline_convert("record", out, tl);
		if (!ret && strcmp(tl, "-"))
			fprintf(stderr, "kprofctl record: its timeline in %s\n",
				tl);
	}
	kp_rec_free(&rec);
out_child:
	if (child > 0 && !tk.reaped) {
		kill(child, SIGKILL);
		waitpid(child, &tk.status, 0);
	}
	if (child > 0 && !ret)
		ret = kp_exit_code(tk.status);
out_ids:
	free(ids);
	return ret;
}
