// SPDX-License-Identifier: GPL-2.0
/*
 * kprofctl profile: sample kernel stacks on a PMU event (or the CPU clock)
 * for a while or a command's run; the hottest functions and stacks per
 * cluster, folded stacks or a flame graph.
 */
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
#include "probe-add.h"
#include "flame.h"
#include "flame-svg.h"
#include "pmu.h"
#include "profile.h"
#include "spec.h"

enum {
	OPT_EVENT = 'e', OPT_FREQ = 'F', OPT_PERIOD = 'c', OPT_ALLCPUS = 'a',
	OPT_DURATION = 'd', OPT_OUTPUT = 'o',
	OPT_FOLDED = KP_ADD_OPT_END, OPT_SVG, OPT_BYCLUSTER, OPT_TOP,
	OPT_STACKS, OPT_PID, OPT_TGID, OPT_CPUS, OPT_NOINHERIT, OPT_OFFCPU,
};

static const struct kp_opt profile_opts[] = {
	{ "event", 'e', required_argument, "EVENT",
	  "what to sample on: a PMU event as 'stat -e' takes\n"
	  "(default cpu_cycles; l1d_cache_refill shows where cache\n"
	  "misses happen) or cpu-clock (a timer: where no PMU is)",
	  OPT_EVENT, NULL },
	{ "freq", 'F', required_argument, "HZ",
	  "samples per second on each CPU (default 999; 1-100000)",
	  OPT_FREQ, NULL },
	{ "count", 'c', required_argument, "N",
	  "a sample every N events instead (N >= 1000; cpu-clock: ns)",
	  OPT_PERIOD, NULL },
	{ "all-cpus", 'a', no_argument, NULL,
	  "every CPU, every task (the default without -- CMD)", OPT_ALLCPUS,
	  NULL },
	{ "cpus", 0, required_argument, "LIST",
	  "only these CPUs, e.g. 4-7", OPT_CPUS, NULL },
	{ "pid", 0, required_argument, "P",
	  "only while thread P runs", OPT_PID, NULL },
	{ "tgid", 0, required_argument, "P",
	  "only while process P (any of its threads) runs", OPT_TGID, NULL },
	{ "no-inherit", 0, no_argument, NULL,
	  "-- CMD: its own process only, not its children", OPT_NOINHERIT,
	  NULL },
	{ "off-cpu", 0, optional_argument, NULL,
	  "where tasks wait instead: the time each was blocked, by\n"
	  "the kernel stack where it blocked; MODE uninterruptible:\n"
	  "D-state waits only (I/O, most mutexes).  Not with -e/-F/-c",
	  OPT_OFFCPU, "--off-cpu[=MODE]" },
	{ "duration", 'd', required_argument, "TIME",
	  "sample for TIME (10s, 500ms: the unit is required), not\n"
	  "until Ctrl-C; not with -- CMD", OPT_DURATION, NULL },
	{ "folded", 0, no_argument, NULL,
	  "print folded stacks (\"outer;...;inner COUNT\") instead of\n"
	  "the report: for 'kprofctl flamegraph' or flamegraph.pl",
	  OPT_FOLDED, NULL },
	{ "svg", 0, required_argument, "FILE",
	  "also write an interactive flame graph to FILE", OPT_SVG, NULL },
	{ "by-cluster", 0, no_argument, NULL,
	  "--svg: one graph per CPU cluster (A55, A76) side by side;\n"
	  "--folded: the cluster as the outermost frame", OPT_BYCLUSTER,
	  NULL },
	{ "top", 0, required_argument, "N",
	  "functions and stacks in the report (default 10)", OPT_TOP, NULL },
	{ "stacks", 0, required_argument, "N",
	  "distinct stacks kept (a power of two, default 4096);\n"
	  "samples of further stacks are counted as dropped", OPT_STACKS,
	  NULL },
	{ "output", 'o', required_argument, "FILE",
	  "write the report (or --folded) to FILE, not stdout", OPT_OUTPUT,
	  NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_profile = {
	.usage =
"Usage: kprofctl profile [-e EVENT] [-F HZ | -c N] [-a | --cpus LIST]\n"
"                        [--pid P | --tgid P] [-d TIME] [--folded]\n"
"                        [--svg FILE] [--by-cluster] [-- CMD [ARGS]]\n",
	.text =
"Sample where the CPUs are: every N events (or HZ times a second) the\n"
"kernel stack that was running is counted, in the module, per CPU.  Then\n"
"the functions that were running most (self), the hottest stacks, per\n"
"CPU cluster (A55 and A76 on RK3588).  A sample in user mode counts as\n"
"[user] under its process.  Without -- CMD every task on every CPU is\n"
"sampled until Ctrl-C or -d; with it, CMD and its children (as 'run').\n"
"The caller of a function interrupted before it saved its frame (a leaf,\n"
"or in its first instructions) may be missing from that stack.\n",
	.opts = profile_opts,
	.width = 18,
	.examples =
"  kprofctl profile -d 10s                      # every CPU, 10 seconds\n"
"  kprofctl profile --svg prof.svg --by-cluster -- ./mydrv-test.sh\n"
"  kprofctl profile -e l1d_cache_refill -c 10000 -- dd if=/dev/mmcblk0 of=/dev/null bs=1M count=64\n"
"  kprofctl profile --folded -d 5s > out.folded; kprofctl flamegraph out.folded > out.svg\n"
"  kprofctl profile --cpus 4-7 -F 4999 -d 2s    # the A76 cluster only\n"
"  kprofctl profile --off-cpu --svg wait.svg -- ./mydrv-test.sh  # where it waits\n",
};

/* Can the PMU sample cpu_cycles here?  (x86 TCG and some boards: no) */
static int pmu_samples(struct kp_dev *d)
{
	struct kprof_probe_add a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.flags = kp_owned_flag(d);
	snprintf(a.spec, sizeof(a.spec), "sample:cpu_cycles:period=1000000");
	if (kp_ioctl(d, KPROF_IOC_ADD_PROBE, &a))
		return 0;
	kp_id_cmd(d, KPROF_IOC_DEL_PROBE, a.id);
	return 1;
}

struct prof_args {
	const char *event, *svg, *output, *cpulist;
	uint64_t freq, period, duration_ns;
	uint32_t pid, stacks;
	int tgid, folded, by_cluster, all, noinherit, offcpu, d_only;
	unsigned int top;
};

static int parse_args(int argc, char **argv, struct prof_args *o, char ***cmd)
{
	struct option lo[KP_MAX_OPTS + 1];
	char shorts[40], err[256];
	uint64_t v;
	int opt;

	kp_opts_build(profile_opts, lo);
	kp_opts_short(profile_opts, shorts, sizeof(shorts));
	optind = 1;
	while ((opt = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		switch (opt) {
		case OPT_EVENT:
			o->event = optarg;
			break;
		case OPT_FREQ:
			if (kp_parse_u64(optarg, 1, 100000, &v))
				return kp_bad_usage("profile", "-F takes samples "
						    "per second (1-100000), not '%s'",
						    optarg);
			o->freq = v;
			break;
		case OPT_PERIOD:
			if (kp_parse_u64(optarg, 1000, UINT64_MAX / 2, &v))
				return kp_bad_usage("profile", "-c takes events "
						    "between samples (at least 1000), "
						    "not '%s'", optarg);
			o->period = v;
			break;
		case OPT_ALLCPUS:
			o->all = 1;
			break;
		case OPT_CPUS:
			o->cpulist = optarg;
			break;
		case OPT_PID:
		case OPT_TGID:
			if (o->pid)
				return kp_bad_usage("profile", "%s",
						    "give one --pid or --tgid");
			if (kp_parse_u64(optarg, 1, INT32_MAX, &v))
				return kp_bad_usage("profile", "--%s takes a pid "
						    "(1-%d), not '%s'",
						    opt == OPT_PID ? "pid" : "tgid",
						    INT32_MAX, optarg);
			o->pid = (uint32_t)v;
			o->tgid = opt == OPT_TGID;
			break;
		case OPT_NOINHERIT:
			o->noinherit = 1;
			break;
		case OPT_OFFCPU:
			if (optarg && strcmp(optarg, "uninterruptible"))
				return kp_bad_usage("profile", "--off-cpu takes "
						    "=uninterruptible or nothing, "
						    "not '%s'", optarg);
			o->offcpu = 1;
			o->d_only = !!optarg;
			break;
		case OPT_DURATION:
			if (kp_parse_duration(optarg, &o->duration_ns) ||
			    !o->duration_ns) {
				kp_duration_error("-d", optarg, err, sizeof(err));
				return kp_bad_usage("profile", "%s", err);
			}
			break;
		case OPT_FOLDED:
			o->folded = 1;
			break;
		case OPT_SVG:
			o->svg = optarg;
			break;
		case OPT_BYCLUSTER:
			o->by_cluster = 1;
			break;
		case OPT_TOP:
			if (kp_parse_u64(optarg, 1, 100000, &v))
				return kp_bad_usage("profile", "--top takes a "
						    "number (1-100000), not '%s'",
						    optarg);
			o->top = (unsigned int)v;
			break;
		case OPT_STACKS:
			if (kp_parse_u64(optarg, 16, 65536, &v) || (v & (v - 1)))
				return kp_bad_usage("profile", "--stacks takes a "
						    "power of two (16-65536), not "
						    "'%s'", optarg);
			o->stacks = (uint32_t)v;
			break;
		case OPT_OUTPUT:
			o->output = optarg;
			break;
		default:
			return kp_bad_usage("profile", "%s", "unknown option");
		}
	}
	if (optind < argc && !strcmp(argv[optind - 1], "--"))
		*cmd = argv + optind;
	else if (optind < argc)
		return kp_bad_usage("profile", "unexpected '%s' (a command goes "
				    "after --)", argv[optind]);
	if (o->offcpu && (o->event || o->freq || o->period))
		return kp_bad_usage("profile", "%s", "--off-cpu times waits: "
				    "-e, -F and -c are for sampling");
	if (o->freq && o->period)
		return kp_bad_usage("profile", "%s", "-F and -c exclude each other");
	if (*cmd && o->duration_ns)
		return kp_bad_usage("profile", "%s", "-d goes without -- CMD "
				    "(CMD's run is how long it samples)");
	if (*cmd && (o->all || o->pid))
		return kp_bad_usage("profile", "%s", "-- CMD samples CMD: -a, "
				    "--pid and --tgid go without it");
	if (o->noinherit && !*cmd)
		return kp_bad_usage("profile", "%s", "--no-inherit goes with -- CMD");
	if (o->all && o->pid)
		return kp_bad_usage("profile", "%s", "-a samples every task: "
				    "--pid and --tgid go without it");
	if (o->by_cluster && !o->svg && !o->folded)
		return kp_bad_usage("profile", "%s", "--by-cluster goes with --svg "
				    "or --folded (the report is by cluster anyway)");
	if (o->pid && kp_need_pid("profile", o->tgid ? "--tgid" : "--pid",
				  o->pid))
		return 2;
	if (!o->top)
		o->top = 10;
	return 0;
}

/* The report or the folded stacks, per cluster */
static void print_profile(FILE *f, struct kp_profile *p,
			  const struct kp_topo *t, const struct prof_args *o,
			  const char *event)
{
	unsigned int c;
	uint64_t n;
	char note[512], buf[32];

	if (o->folded) {
		if (!o->by_cluster || p->offcpu) {
			kp_prof_folded(f, p, NULL, NULL);
			return;
		}
		for (c = 0; c < t->nr_clusters; c++)
			kp_prof_folded(f, p, t->cl[c].mask, t->cl[c].name);
		return;
	}
	if (p->offcpu) {
		kp_fmt_ns(kp_prof_total(p, NULL) * 1000, buf, sizeof(buf));
		fprintf(f, "%" PRIu64 " waits, %s off the CPU in all, by the "
			"stack where the task blocked\n", p->samples, buf);
		if (p->dropped)
			fprintf(f, "%" PRIu64 " waits not timed: their stacks "
				"found no room among the %u kept (--stacks %u "
				"keeps more), or too many tasks waited at once\n",
				p->dropped, p->nr_ids,
				p->nr_ids * 2 > 65536 ? 65536 : p->nr_ids * 2);
		fprintf(f, "\n");
		kp_prof_report(f, p, NULL, o->top);
		return;
	}
	fprintf(f, "%" PRIu64 " samples of %s", p->samples, event);
	if (o->period)
		fprintf(f, ", one every %" PRIu64 " %s", o->period,
			strcmp(event, "cpu-clock") ? "events" : "ns");
	else
		fprintf(f, " at %" PRIu64 " Hz per CPU", o->freq ? o->freq : 999);
	fputc('\n', f);
	if (kp_sample_late(&p->r, &p->agg, note, sizeof(note)))
		fprintf(f, "note: %s\n", note);
	if (p->dropped)
		fprintf(f, "%" PRIu64 " samples (%.1f %%) dropped: their stacks "
			"found no room among the %u kept (--stacks %u keeps more)\n",
			p->dropped, 100.0 * (double)p->dropped / (double)p->samples,
			p->nr_ids, p->nr_ids * 2 > 65536 ? 65536 : p->nr_ids * 2);
	for (c = 0; c < t->nr_clusters; c++) {
		n = kp_prof_total(p, t->cl[c].mask);
		if (t->nr_clusters > 1 && !n)
			continue;
		fprintf(f, "\n%s (cpu %s): %" PRIu64 " samples\n", t->cl[c].name,
			t->cl[c].cpus, n);
		kp_prof_report(f, p, t->cl[c].mask, o->top);
	}
}

static int write_svg(struct kp_profile *p, const struct kp_topo *t,
		     const struct prof_args *o, const char *event)
{
	struct kp_flame graphs[KP_FLAME_MAX_GRAPHS], *gv[KP_FLAME_MAX_GRAPHS];
	struct kp_flame_opts fo = { 0 };
	unsigned int n = 0, c;
	char err[256], title[128];
	int ret = 0;
	FILE *f;

	snprintf(title, sizeof(title), "kprofctl profile: %s", event);
	fo.title = title;
	fo.count_name = p->unit;
	for (c = 0; c < (o->by_cluster && !p->offcpu ? t->nr_clusters : 1) &&
	     n < KP_FLAME_MAX_GRAPHS; c++) {
		int split = o->by_cluster && !p->offcpu;
		const __u64 *mask = split ? t->cl[c].mask : NULL;

		if (split && !kp_prof_total(p, mask) && t->nr_clusters > 1)
			continue;
		if (kp_flame_init(&graphs[n], split ? t->cl[c].name : NULL)) {
			ret = -1;
			break;
		}
		gv[n] = &graphs[n];
		n++;
		if (kp_prof_flame(p, mask, gv[n - 1], err, sizeof(err))) {
			fprintf(stderr, "kprofctl profile: %s\n", err);
			ret = -1;
			break;
		}
	}
	f = ret ? NULL : fopen(o->svg, "w");
	if (!ret && !f) {
		fprintf(stderr, "kprofctl profile: cannot write '%s': %s\n",
			o->svg, strerror(errno));
		ret = -1;
	}
	if (f) {
		if (kp_flame_svg(f, gv, n, &fo) || fclose(f)) {
			fprintf(stderr, "kprofctl profile: writing '%s': %s\n",
				o->svg, strerror(errno));
			ret = -1;
		}
	}
	while (n--)
		kp_flame_free(&graphs[n]);
	return ret;
}

int cmd_profile(struct kp_dev *d, int argc, char **argv)
{
	struct prof_args o = { 0 };
	struct kp_add_opts ao;
	struct kprof_probe_info info;
	struct kprof_probe_query q;
	static struct kp_topo topo;
	struct kp_profile p;
	struct sigaction sa;
	char spec[KPROF_SPEC_LEN], **cmd = NULL;
	const char *event;
	pid_t child = 0;
	uint32_t id = 0;
	struct kp_tick tk = { .sig = &kp_run_signal };
	uint64_t t;
	int ret, status = 0;
	FILE *out = stdout;

	ret = parse_args(argc, argv, &o, &cmd);
	if (ret)
		return ret;
	if (kp_dev_ready(d))
		return 1;
	if (d->ver.abi_minor < 10) {
		fprintf(stderr, "kprofctl profile: this module cannot sample (its "
			"ABI is %u.%u, sampling needs 1.10)\n", d->ver.abi_major,
			d->ver.abi_minor);
		return 1;
	}
	if (kp_dev_map(d))
		return 1;
	event = o.offcpu ? (o.d_only ? "off-cpu (uninterruptible)" : "off-cpu") :
			   o.event;
	if (!event) {
		event = "cpu_cycles";
		if (!pmu_samples(d)) {
			event = "cpu-clock";
			fprintf(stderr, "kprofctl profile: no PMU samples cpu_cycles "
				"here: sampling the CPU clock (cpu-clock)\n");
		}
	}
	if (o.offcpu)
		snprintf(spec, sizeof(spec), "offcpu:%s",
			 o.d_only ? "uninterruptible" : "all");
	else if (o.period)
		snprintf(spec, sizeof(spec), "sample:%s:period=%" PRIu64, event,
			 o.period);
	else
		snprintf(spec, sizeof(spec), "sample:%s:hz=%" PRIu64, event,
			 o.freq ? o.freq : 999);
	memset(&ao, 0, sizeof(ao));
	ao.key[0] = "stack";
	ao.nr_key = 1;
	ao.nr_keys = o.stacks;
	ao.cpulist = o.cpulist;
	ao.flags = KPROF_ADD_START | kp_owned_flag(d);
	if (o.pid) {
		ao.flags |= o.tgid ? KPROF_ADD_TGID : KPROF_ADD_PID;
		ao.pid = o.pid;
	}
	if (o.output) {
		out = fopen(o.output, "w");
		if (!out) {
			fprintf(stderr, "kprofctl profile: cannot write '%s': %s\n",
				o.output, strerror(errno));
			return 1;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kp_on_run_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (cmd) {
		child = kp_launch_stopped("profile", cmd, d->fd, 1);
		if (child < 0) {
			ret = 1;
			goto out;
		}
		ao.flags |= o.noinherit ? KPROF_ADD_TGID : KPROF_ADD_SESSION;
		ao.pid = (uint32_t)child;
	}
	ret = kp_add_one(d, spec, &ao, &id);
	if (ret || kp_run_signal) {
		if (child > 0) {
			kp_kill_session(child);
			waitpid(child, NULL, 0);
		}
		ret = ret ? ret : 1;
		goto out;
	}
	/* no ticks: until -d's end or Ctrl-C */
	kp_tick_init(&tk, kp_now_ns(), 0, o.duration_ns);
	if (child > 0) {
		kill(child, SIGCONT);
		status = kp_wait_session("profile", child);
	} else {
		if (!o.duration_ns && isatty(STDERR_FILENO))
			fprintf(stderr, "kprofctl profile: sampling; Ctrl-C to "
				"stop\n");
		kp_tick_wait(&tk, &t);
	}
	kp_id_cmd(d, KPROF_IOC_STOP, id);
	if (child > 0 && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 127) {
		ret = 127;
		goto del;
	}
	memset(&q, 0, sizeof(q));
	q.size = sizeof(q);
	q.id = id;
	if (kp_ioctl(d, KPROF_IOC_INFO, &q)) {
		perror("kprofctl profile: probe info");
		ret = 1;
		goto del;
	}
	info = q.info;
	if (kp_prof_load(d, &info, &p)) {
		ret = 1;
		goto del;
	}
	if (p.frames_err) {
		fprintf(stderr, "kprofctl profile: the stacks are kernel "
			"addresses: %s\n", p.frames_err == EPERM ?
			"run as root (it needs CAP_SYSLOG)" : strerror(p.frames_err));
		ret = 1;
		goto free;
	}
	kp_topo_load(&topo, kp_sysfs_root(), d->ver.nr_cpus);
	if (!p.samples && o.offcpu) {
		fprintf(stderr, "kprofctl profile: no waits: what was followed "
			"never blocked\n");
		ret = 1;
		goto free;
	}
	if (!p.samples) {
		fprintf(stderr, "kprofctl profile: no samples: %s did not count "
			"on the CPUs sampled%s\n", event,
			strcmp(event, "cpu-clock") ? " (QEMU's PMU counts "
			"cpu_cycles and inst_retired only; -e cpu-clock samples "
			"a timer)" : "");
		ret = 1;
		goto free;
	}
	print_profile(out, &p, &topo, &o, event);
	if (o.svg && write_svg(&p, &topo, &o, event))
		ret = 1;
	if (child > 0 && !ret)
		ret = kp_exit_code(status);
free:
	kp_prof_free(&p);
del:
	kp_id_cmd(d, KPROF_IOC_DEL_PROBE, id);
out:
	if (out != stdout && fclose(out)) {
		fprintf(stderr, "kprofctl profile: writing '%s': %s\n", o.output,
			strerror(errno));
		ret = 1;
	}
	return ret;
}
