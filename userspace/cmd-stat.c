// SPDX-License-Identifier: GPL-2.0
/* kprofctl stat: PMU counts per CPU and per cluster. */
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
#include "json.h"
#include "probe-add.h"
#include "pmu.h"
#include "pmu-events.h"
#include "spec.h"
#include "stat-loop.h"

enum { OPT_CPUS = KP_OPT_BASE, OPT_JSON };

static const struct kp_opt stat_opts[] = {
	{ "events", 'e', required_argument, "EVENTS",
	  "cpu_cycles (cycles), inst_retired (instructions), l1d_cache,\n"
	  "l1d_cache_refill, l2d_cache_refill, br_mis_pred\n"
	  "(branch-misses), stall_frontend, stall_backend, mem_access,\n"
	  "ll_cache_miss_rd, or raw 0xNN (0-0xffff, a PMUv3 event\n"
	  "number); at most 8.  x86 uses the nearest generic events.",
	  'e', NULL },
	{ "all-cpus", 'a', no_argument, NULL, "all CPUs (the default)", 'a',
	  NULL },
	{ "cpus", 0, required_argument, "LIST", "only these CPUs, e.g. 4-7",
	  OPT_CPUS, NULL },
	{ "interval", 'I', required_argument, "TIME",
	  "also print the counts of every TIME (10ms-3600s), e.g.\n"
	  "500ms or 1s: the unit is required", 'I', NULL },
	{ "duration", 'd', required_argument, "TIME",
	  "count for TIME (1ms-86400s, e.g. 5s; without CMD)", 'd', NULL },
	{ "json", 0, no_argument, NULL,
	  "JSON: {\"duration_ns\",\"pmu\":{\"events\",\"cpus\":[{\"cpu\",\n"
	  "\"cluster\",\"pmu\",\"counts\":{EVENT:{\"value\",\"scaled\",\n"
	  "\"enabled_ns\",\"running_ns\",\"counted\"}}}],\"clusters\":[...]}};\n"
	  "with -I one such line per interval", OPT_JSON, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_stat = {
	.usage =
"Usage: kprofctl stat -e EVENT[,EVENT...] [-a | --cpus LIST] [-I TIME] [-d TIME]\n"
"                     [--json] [-- CMD [ARGS]]\n",
	.text =
"Count PMU events on every CPU (-a, the default) or on LIST, through the\n"
"perf kernel API, until CMD exits, -d's TIME passes, or Ctrl-C.  Prints each\n"
"CPU's counts with its cluster, then per cluster the sums, IPC and misses\n"
"per 1000 instructions.  Counters that perf had to multiplex are scaled by\n"
"enabled/running time (the RUNNING column, JSON enabled_ns/running_ns).\n"
"An event the CPU's PMU does not implement is shown as \"not counted by\n"
"this PMU\".  Exits with CMD's status.\n",
	.opts = stat_opts,
	.width = 12,
	.examples =
"  kprofctl stat -e cycles,instructions -- dd if=/dev/zero of=/dev/null count=100000\n"
"  kprofctl stat -e cycles,instructions,br_mis_pred --cpus 4-7 -d 5s\n"
"  kprofctl stat -e l1d_cache,l1d_cache_refill,0x2a -I 1s --json\n",
};

/* the probe's record from the mapping; 0 or -1 */
static int probe_rec(struct kp_dev *d, uint32_t id, struct kprof_probe_info *out)
{
	struct kprof_probe_info *recs;
	unsigned int n, i;
	int ret = -1;

	recs = calloc(d->m.hdr->max_probes, sizeof(*recs));
	if (!recs)
		return -1;
	if (!kp_map_probes(&d->m, recs, d->m.hdr->max_probes, &n))
		for (i = 0; i < n; i++)
			if (recs[i].id == id) {
				*out = recs[i];
				ret = 0;
			}
	free(recs);
	return ret;
}

/* refreshes the window totals and copies them out */
static int stat_snap(struct kp_dev *d, uint32_t id, struct kp_pmu_snap *s)
{
	struct kprof_probe_info r;
	int ret = kp_id_cmd(d, KPROF_IOC_PMU_READ, id);

	if (ret) {
		kp_explain(d, "stat", "PMU read", -ret);
		return -1;
	}
	if (probe_rec(d, id, &r) || kp_pmu_snap_read(&d->m, &r, s)) {
		fprintf(stderr, "kprofctl stat: cannot read the counters' block "
			"from the mapping\n");
		return -1;
	}
	return 0;
}

struct stat_ctx {
	struct kp_dev *d;
	uint32_t id;
};

static int stat_snap_cb(void *ctx, struct kp_pmu_snap *s)
{
	struct stat_ctx *c = ctx;

	return stat_snap(c->d, c->id, s);
}

/* -I (10ms-3600s) or -d (1ms-86400s) into ns; 0 or the usage error 2 */
static int stat_time(int opt, const char *arg, uint64_t *ns)
{
	uint64_t min = opt == 'I' ? 10000000ull : 1000000ull;
	uint64_t max = (opt == 'I' ? 3600ull : 86400ull) * 1000000000ull;
	char why[160];

	if (kp_parse_duration(arg, ns)) {
		kp_duration_error(opt == 'I' ? "-I" : "-d", arg, why, sizeof(why));
		return kp_bad_usage("stat", "%s", why);
	}
	if (*ns < min || *ns > max)
		return kp_bad_usage("stat", "%s takes %s, not '%s'",
				    opt == 'I' ? "-I" : "-d",
				    opt == 'I' ? "10ms-3600s" : "1ms-86400s", arg);
	return 0;
}

int cmd_stat(struct kp_dev *d, int argc, char **argv)
{
	const char *events = NULL, *cpulist = NULL;
	uint64_t interval = 0, duration = 0, start, v;
	char spec[KPROF_SPEC_LEN], list[KPROF_PMU_SPEC_LEN], err[768];
	struct kp_stat_loop l = { 0 };
	struct stat_ctx sc = { d, 0 };
	struct kp_pmu_snap cur;
	struct kprof_probe_add a;
	static struct kp_topo topo;
	char **cmd = NULL;
	int opt, json = 0, ret = 0, all = 0;
	struct sigaction sa;
	pid_t child = -1;
	struct option lo[KP_MAX_OPTS + 1];
	char shorts[40];

	kp_opts_build(stat_opts, lo);
	kp_opts_short(stat_opts, shorts, sizeof(shorts));
	optind = 1;
	while (optind < argc) {
		if (!strcmp(argv[optind], "--")) {
			cmd = argv + optind + 1;
			break;
		}
		opt = getopt_long(argc, argv, shorts, lo, NULL);
		if (opt == -1)
			return kp_bad_usage("stat", "unexpected argument '%s'",
					 argv[optind]);
		switch (opt) {
		case 'e':
			events = optarg;
			break;
		case 'a':
			all = 1;
			break;
		case OPT_CPUS:
			cpulist = optarg;
			break;
		case 'I':
		case 'd':
			ret = stat_time(opt, optarg, opt == 'I' ? &interval :
					&duration);
			if (ret)
				return ret;
			break;
		case OPT_JSON:
			json = 1;
			break;
		default:
			return kp_bad_usage("stat", "%s", "unknown option");
		}
	}
	if (!events)
		return kp_bad_usage("stat", "%s", "missing -e EVENTS");
	if (all && cpulist)
		return kp_bad_usage("stat", "%s", "-a and --cpus exclude each other");
	if (cmd && !cmd[0])
		return kp_bad_usage("stat", "%s", "missing CMD after '--'");
	if (cmd && duration)
		return kp_bad_usage("stat", "%s", "-d and '-- CMD' exclude each other");
	if (kp_pmu_parse_events(events, list, sizeof(list), err, sizeof(err)))
		return kp_bad_usage("stat", "-e: %s", err);
	if (strlen(list) + 5 > sizeof(spec))
		return kp_bad_usage("stat", "%s", "-e: event list too long");
	snprintf(spec, sizeof(spec), "pmu:%s", list);
	if (kp_dev_ready(d))
		return 1;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.flags = KPROF_ADD_START | kp_owned_flag(d);
	if (cpulist) {
		if (kp_parse_cpulist(cpulist, d->ver.nr_cpus, a.cpus, err,
				     sizeof(err)))
			return kp_bad_usage("stat", "--cpus: %s", err);
		a.flags |= KPROF_ADD_CPUS;
	}
	memcpy(a.spec, spec, strlen(spec) + 1);
	if (!(d->ver.caps & KPROF_CAP_PMU) || !d->ver.max_pmus) {
		fprintf(stderr, "kprofctl stat: this module has no PMU support "
			"(ABI %u.%u, max_pmus=%u)\n", d->ver.abi_major,
			d->ver.abi_minor, d->ver.max_pmus);
		return 1;
	}
	if (kp_dev_map(d))
		return 1;
	kp_topo_load(&topo, kp_sysfs_root(), d->ver.nr_cpus);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kp_on_run_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = kp_on_child;
	sigaction(SIGCHLD, &sa, NULL);

	if (cmd) {
		/* counts per CPU, whoever runs: no session needed */
		child = kp_launch_stopped("stat", cmd, d->fd, 0);
		if (child < 0)
			return 1;
	}
	ret = kp_ioctl(d, KPROF_IOC_ADD_PROBE, &a);
	if (ret) {
		if (a.err_event)
			kp_explain_pmu("stat", list, a.err_event, a.err_cpu, -ret);
		else
			kp_explain(d, "stat", spec, -ret);
		if (child > 0) {
			kill(child, SIGKILL);
			waitpid(child, NULL, 0);
		}
		return 1;
	}
	start = kp_now_ns();
	kp_tick_init(&l.tick, start, interval, duration);
	l.tick.sig = &kp_run_signal;
	l.tick.child = child;
	l.snap = stat_snap_cb;
	sc.id = a.id;
	l.ctx = &sc;
	l.out = stdout;
	l.topo = &topo;
	l.root = kp_sysfs_root();
	l.json = json;
	if (child > 0)
		kill(child, SIGCONT);
	ret = kp_stat_loop(&l);
	v = kp_now_ns() - start;
	if (kp_id_cmd(d, KPROF_IOC_STOP, a.id) == 0 && !ret &&
	    !stat_snap(d, a.id, &cur)) {
		if (json) {
			struct kp_jw w;

			kp_jw_init(&w, stdout);
			kp_jw_start_object(&w);
			kp_jw_u64_field(&w, "duration_ns", v);
			kp_jw_name(&w, "pmu");
			kp_pmu_json(&w, &cur, &topo, kp_sysfs_root());
			kp_jw_end_object(&w);
			putchar('\n');
		} else {
			printf("kprofctl stat: %s over %.3f s%s%s\n", list, v / 1e9,
			       cmd ? " of " : "", cmd ? cmd[0] : "");
			kp_pmu_print(stdout, &cur, &topo, kp_sysfs_root(), 0);
		}
		kp_pmu_snap_free(&cur);
	} else if (!ret) {
		ret = 1;
	}
	kp_id_cmd(d, KPROF_IOC_DEL_PROBE, a.id);
	if (child > 0 && !l.tick.reaped) {
		kill(child, SIGKILL);
		waitpid(child, &l.tick.status, 0);
	}
	if (child > 0 && !ret)
		ret = kp_exit_code(l.tick.status);
	return ret;
}
