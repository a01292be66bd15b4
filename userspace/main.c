// SPDX-License-Identifier: GPL-2.0
/*
 * kprofctl: drive kprofctl.ko captures and print their histograms.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include "dev.h"
#include "spec.h"
#include "stats.h"
#include "pmu.h"
#include "watch.h"

#define KPROFCTL_VERSION	"0.1.0"

static const char *dev_path = KPROF_DEVICE;

static void usage(FILE *f)
{
	fprintf(f,
"Usage: kprofctl [-d DEV] COMMAND [ARGS]\n"
"\n"
"Kernel latency and hit-count profiler for driver developers: attach kprobes\n"
"and kretprobes to kernel functions, read per-CPU histograms with percentiles.\n"
"\n"
"Commands:\n"
"  add SPEC [OPTIONS]     register a probe (stopped unless --start); prints its id\n"
"  del ID|all             unregister probes\n"
"  start [ID]             arm one probe, or all\n"
"  stop [ID]              disarm one probe, or all\n"
"  reset [ID]             zero statistics of one probe, or all\n"
"  list [--netlink]       probes, their state, hits and misses\n"
"  show [ID] [--json] [--per-cpu] [--by-cluster] [--top N] [--key K]\n"
"                         statistics, percentiles, histograms (per key for pairs)\n"
"  watch [--probe ID] [--min LAT] [--count N] [--json]\n"
"                         slow calls and probe events as they happen (netlink)\n"
"  stat -e EVENTS [-a | --cpus LIST] [-I MS] [-d S] [--json] [-- CMD]\n"
"                         PMU counts per CPU and per cluster (A55/A76), IPC\n"
"  list-tracepoints [GLOB]  tracepoints that can be attached\n"
"  run [OPTIONS] SPEC... -- CMD [ARGS]  profile one command, like perf stat\n"
"  status                 module ABI, capabilities, limits, boot probes\n"
"  version                CLI and module versions\n"
"\n"
"SPEC is kprobe:SYM[+OFF] (hit counts), kretprobe:SYM (latency histogram),\n"
"tracepoint:SUBSYS:NAME (hit counts; SYM may be MOD:SYM), or a keyed latency\n"
"pair: irq, softirq, workqueue, wakeup or block (one histogram per key).\n"
"A kretprobe can also record PMU counter deltas per call (--pmu).\n"
"Run 'kprofctl COMMAND --help' for a command's options.\n"
"\n"
"Options:\n"
"  -d, --device DEV       device node (default %s, or $KPROFCTL_DEV)\n"
"  -h, --help             this text\n"
"\n"
"Examples:\n"
"  kprofctl add kretprobe:vfs_read --start     # latency of vfs_read, system-wide\n"
"  kprofctl add kretprobe:mmc_blk_mq_issue_rq --cpus 4-7 --start   # A76 only\n"
"  kprofctl add kprobe:my_irq_handler --start  # hit counts\n"
"  kprofctl add irq --cpus 4-7 --start         # handler time per IRQ, A76\n"
"  kprofctl show 2 --top 5                     # the five busiest keys\n"
"  kprofctl show                               # all probes, text\n"
"  kprofctl show 1 --json --per-cpu            # one probe, for scripts\n"
"  kprofctl run kretprobe:vfs_read -- dd if=/dev/zero of=/dev/null count=1000\n"
"  kprofctl add kretprobe:mmc_blk_mq_issue_rq --pmu cycles,instructions --start\n"
"  kprofctl show 3 --by-cluster                # A55 vs A76, cycles per call\n"
"  kprofctl stat -e cycles,instructions,l1d_cache_refill -- ./bench.sh\n"
"  kprofctl del all\n",
		KPROF_DEVICE);
}

static const char *const cmd_help[][2] = {
	{ "add",
"Usage: kprofctl add SPEC [--pid P | --tgid P] [--maxactive N] [--cpus LIST]\n"
"                    [--defer] [--per-pid] [--pmu EVENTS] [--slow LAT [--stack]]\n"
"                    [--start]\n"
"\n"
"Register a probe and print its id.  It is created stopped (disarmed, zero\n"
"cost) unless --start is given.\n"
"\n"
"  SPEC            kprobe:SYM[+OFF] counts hits; kretprobe:SYM records\n"
"                  entry-to-return latency; tracepoint:SUBSYS:NAME counts\n"
"                  a tracepoint of the kernel or a module.  SYM may be\n"
"                  MOD:SYM.  A pair records event-to-event latency, one\n"
"                  histogram per key:\n"
"                    irq        handler time, per IRQ (named by its action)\n"
"                    softirq    softirq time, per vector (TIMER, NET_RX...)\n"
"                    workqueue  work item time, per work function\n"
"                    wakeup     wakeup to running (run-queue latency);\n"
"                               --pid/--tgid select the woken task\n"
"                    block      request issue to completion, per device\n"
"  --defer         tracepoint: if nothing defines it yet, wait (state\n"
"                  pending) and attach when a module that does loads;\n"
"                  kprobe/kretprobe on MOD:SYM: wait for module MOD and\n"
"                  register when it loads, before its init runs (so a\n"
"                  driver's probe is caught); again after each reload\n"
"  --per-pid       wakeup: one key per woken pid instead of one in all\n"
"  --pid P         only calls made by thread P\n"
"  --tgid P        only calls made by process P (any of its threads)\n"
"  --maxactive N   kretprobe: calls that can be pending at once (1-4096;\n"
"                  default: the kernel's); calls beyond it are counted as missed\n"
"  --cpus LIST     only calls entered on these CPUs, e.g. 0-3 or 4-7,1\n"
"  --pmu EVENTS    kretprobe: also record each call's PMU counter deltas\n"
"                  (entry to return, on the CPU it ran on), one histogram\n"
"                  per event; 'show' derives IPC.  EVENTS as for 'stat'.\n"
"                  A call that migrated or whose counter was not running is\n"
"                  counted as lost, never as zero.  The counters are pinned\n"
"                  (never multiplexed) while the probe runs.\n"
"  --slow LAT      kretprobes and pairs: every call at least LAT long (500us,\n"
"                  2ms, 800ns) is also sent to 'kprofctl watch' as it happens\n"
"  --stack         with --slow: the event carries up to 16 kernel return\n"
"                  addresses\n"
"  --start         arm at once\n"
"\n"
"Examples:\n"
"  kprofctl add kretprobe:vfs_read --start\n"
"  kprofctl add kretprobe:mydrv_xfer --slow 500us --stack --start\n"
"  kprofctl add kretprobe:dw_mci_request --maxactive 64 --cpus 4-7\n"
"  kprofctl add kprobe:mydrv:mydrv_irq --tgid 1234 --start\n"
"  kprofctl add tracepoint:irq:irq_handler_entry --cpus 4-7 --start\n"
"  kprofctl add tracepoint:mydrv:mydrv_xfer --defer --start\n"
"  kprofctl add kretprobe:mydrv:mydrv_probe --defer --start; modprobe mydrv\n"
"  kprofctl add workqueue --start\n"
"  kprofctl add wakeup --per-pid --start\n"
"  kprofctl add kretprobe:mydrv_xfer --pmu cycles,instructions,l1d_cache_refill\n" },
	{ "del",
"Usage: kprofctl del ID|all\n\nUnregister a probe, or every probe.\n\n"
"Examples:\n  kprofctl del 3\n  kprofctl del all\n" },
	{ "start",
"Usage: kprofctl start [ID]\n\nArm one probe, or every probe whose target is still there.\n\n"
"Examples:\n  kprofctl start\n  kprofctl start 2\n" },
	{ "stop",
"Usage: kprofctl stop [ID]\n\nDisarm one probe, or all.  When it returns no handler is still\n"
"recording, so a following show is stable.\n\nExamples:\n  kprofctl stop\n" },
	{ "reset",
"Usage: kprofctl reset [ID]\n\nZero the statistics of one probe, or all.\n\n"
"Examples:\n  kprofctl reset\n  kprofctl reset 1\n" },
	{ "list",
"Usage: kprofctl list [--netlink]\n\nOne line per probe: id, type, state, hits, missed, filters, spec.\n"
"--netlink asks the generic netlink family (GET_PROBES dump) instead of\n"
"the device; it needs CAP_NET_ADMIN and adds slow calls dropped.\n\n"
"Examples:\n  kprofctl list\n  kprofctl list --netlink\n" },
	{ "watch",
"Usage: kprofctl watch [--probe ID] [--min LAT] [--count N] [--json]\n\n"
"Print each slow call (probes added with --slow) as the module reports it\n"
"over generic netlink: time (CLOCK_MONOTONIC), CPU and cluster, comm/pid,\n"
"probe and latency, and its stack (--stack) symbolised from\n"
"/proc/kallsyms when kernel addresses are visible to you (kptr_restrict).\n"
"Also probe events: registered, unregistered, gone (target module\n"
"unloaded) and losses (slow calls dropped because a CPU's ring was full,\n"
"calls missed by the kprobe core).  Runs until Ctrl-C.  Joining the\n"
"events group needs CAP_SYS_ADMIN.\n\n"
"  --probe ID   only this probe\n"
"  --min LAT    only slow calls at least LAT long\n"
"  --count N    exit after N events: slow calls, probe events, and each\n"
"               loss report as the number of slow calls it reports\n"
"  --json       one JSON object per line: {\"type\":\"slow\",\"time_ns\",\"cpu\",\n"
"               \"cluster\",\"pid\",\"tgid\",\"comm\",\"probe\",\"latency_ns\",\n"
"               [\"key\"],[\"stack\"]}, {\"type\":\"registered\"|\"unregistered\"|\n"
"               \"gone\"|\"losses\",\"probe\",\"spec\",[\"dropped\",\"nmissed\"]};\n"
"               the first line is {\"type\":\"listening\"}\n\n"
"Examples:\n"
"  kprofctl add kretprobe:mydrv_xfer --slow 500us --stack --start\n"
"  kprofctl watch\n"
"  kprofctl watch --probe 3 --min 2ms --json\n" },
	{ "show",
"Usage: kprofctl show [ID] [--json] [--per-cpu] [--by-cluster] [--top N] [--key K]\n\n"
"Print count, missed, min/mean/max, p50/p90/p99/p99.9 and a histogram for\n"
"each probe, read from the statistics mapping (no syscall per snapshot).\n"
"Pairs print one histogram per key, busiest first, and their keys beyond\n"
"the table (\"other keys\"), dropped starts and unmatched ends.\n\n"
"  --top N      pairs: only the N busiest keys\n"
"  --key K      pairs: only key K, by value (45, 253:0) or name (TIMER)\n"
"  --json       one JSON object: {\"probes\":[{\"id\",\"spec\",\"count\",\"missed\",\n"
"               \"min_ns\",\"max_ns\",\"sum_ns\",\"p50_ns\",\"p90_ns\",\"p99_ns\",\n"
"               \"p999_ns\",\"buckets\":[{\"lo_ns\",\"hi_ns\",\"count\"}],\"per_cpu\":[...]}]}\n"
"  --per-cpu    add a breakdown per CPU\n"
"  --by-cluster add a breakdown per CPU cluster (core type from MIDR_EL1,\n"
"               else the PMU's cpus list: A55 cpu0-3 and A76 cpu4-7 on RK3588)\n"
"Probes with PMU events also print their per-call deltas (kretprobe --pmu)\n"
"and the counters' totals over the capture window, per CPU and per cluster.\n\n"
"Examples:\n  kprofctl show\n  kprofctl show 1 --per-cpu\n  kprofctl show --json | jq '.probes[].p99_ns'\n"
"  kprofctl show 2 --top 3\n  kprofctl show 2 --key 45 --json\n"
"  kprofctl show 4 --by-cluster\n" },
	{ "stat",
"Usage: kprofctl stat -e EVENT[,EVENT...] [-a | --cpus LIST] [-I MS] [-d S]\n"
"                     [--json] [-- CMD [ARGS]]\n\n"
"Count PMU events on every CPU (-a, the default) or on LIST, through the\n"
"perf kernel API, until CMD exits, S seconds pass, or Ctrl-C.  Prints each\n"
"CPU's counts with its cluster, then per cluster the sums, IPC and misses\n"
"per 1000 instructions.  Counters that perf had to multiplex are scaled by\n"
"enabled/running time (the RUNNING column, JSON enabled_ns/running_ns).\n"
"An event the CPU's PMU does not implement is shown as \"not counted by\n"
"this PMU\".  Exits with CMD's status.\n\n"
"  -e EVENTS    cpu_cycles (cycles), inst_retired (instructions), l1d_cache,\n"
"               l1d_cache_refill, l2d_cache_refill, br_mis_pred\n"
"               (branch-misses), stall_frontend, stall_backend, mem_access,\n"
"               ll_cache_miss_rd, or raw 0xNN (0-0xffff, a PMUv3 event\n"
"               number); at most 8.  x86 uses the nearest generic events.\n"
"  -a           all CPUs (the default)\n"
"  --cpus LIST  only these CPUs, e.g. 4-7\n"
"  -I MS        also print the counts of every MS milliseconds (10-3600000)\n"
"  -d S         count for S seconds (without CMD)\n"
"  --json       JSON: {\"duration_ns\",\"pmu\":{\"events\",\"cpus\":[{\"cpu\",\n"
"               \"cluster\",\"pmu\",\"counts\":{EVENT:{\"value\",\"scaled\",\n"
"               \"enabled_ns\",\"running_ns\",\"counted\"}}}],\"clusters\":[...]}};\n"
"               with -I one such line per interval\n\n"
"Examples:\n"
"  kprofctl stat -e cycles,instructions -- dd if=/dev/zero of=/dev/null count=100000\n"
"  kprofctl stat -e cycles,instructions,br_mis_pred --cpus 4-7 -d 5\n"
"  kprofctl stat -e l1d_cache,l1d_cache_refill,0x2a -I 1000 --json\n" },
	{ "list-tracepoints",
"Usage: kprofctl list-tracepoints [GLOB]\n\n"
"Print the tracepoints of the kernel and of loaded modules that 'add\n"
"tracepoint:SUBSYS:NAME' can attach to, as SUBSYS:NAME (SUBSYS from tracefs\n"
"when it is mounted, else '*'), sorted.  GLOB filters on NAME or\n"
"SUBSYS:NAME.\n\n"
"Examples:\n  kprofctl list-tracepoints\n  kprofctl list-tracepoints 'irq*'\n"
"  kprofctl list-tracepoints 'block:*'\n" },
	{ "run",
"Usage: kprofctl run [--json] [--per-cpu] [--all | --pid P] SPEC... -- CMD [ARGS]\n\n"
"Add the probes filtered to CMD's process, start them, run CMD, stop and\n"
"show, then delete the probes (also on errors and Ctrl-C).  Exits with\n"
"CMD's status.\n\n"
"  --all        do not filter: record every caller while CMD runs\n"
"  --pid P      filter on process P instead of CMD\n"
"  --json, --per-cpu   as for show\n\n"
"Examples:\n"
"  kprofctl run kretprobe:vfs_read -- dd if=/dev/zero of=/dev/null count=10000\n"
"  kprofctl run --all kretprobe:mmc_blk_mq_issue_rq -- fio job.fio\n" },
	{ "status",
"Usage: kprofctl status\n\nModule and CLI ABI, what this kernel supports, limits and probes in use.\n\n"
"Examples:\n  kprofctl status\n" },
	{ "version",
"Usage: kprofctl version\n\nExamples:\n  kprofctl version\n" },
};

static int want_help(int argc, char **argv, const char *cmd)
{
	unsigned int i;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--"))
			break;
		if (strcmp(argv[a], "-h") && strcmp(argv[a], "--help"))
			continue;
		for (i = 0; i < sizeof(cmd_help) / sizeof(cmd_help[0]); i++)
			if (!strcmp(cmd_help[i][0], cmd))
				fputs(cmd_help[i][1], stdout);
		return 1;
	}
	return 0;
}

static int __attribute__((format(printf, 2, 3)))
bad_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kprofctl %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\ntry 'kprofctl %s --help'\n", cmd);
	return 2;
}

/* ID argument: a probe id (1..UINT32_MAX), or "all" / absent for 0 */
static int parse_id(const char *cmd, const char *s, int allow_all,
		    uint32_t *id)
{
	uint64_t v;

	if (!s || (allow_all && !strcmp(s, "all"))) {
		*id = 0;
		return 0;
	}
	if (kp_parse_u64(s, 1, UINT32_MAX, &v))
		return bad_usage(cmd, "'%s' is not a probe id", s);
	*id = (uint32_t)v;
	return 0;
}

/* ---- add ----------------------------------------------------------------- */

struct add_opts {
	uint32_t flags, pid, maxactive;
	int per_pid;
	const char *pmu;		/* kretprobe: events per call */
	uint64_t slow_ns;		/* --slow */
	uint64_t cpus[KPROF_CPUMASK_WORDS];
	const char *cpulist;
};

/* run and stat: their probes go with the process, however it ends */
static uint32_t kp_owned_flag(const struct kp_dev *d)
{
	return d->ver.abi_minor >= 6 ? KPROF_ADD_OWNED : 0;
}

/* ABI 1.6 on: may anyone but CAP_SYS_ADMIN read the events group? */
static const char *events_group(const struct kprof_version *v)
{
	if (v->abi_minor < 6)
		return "unknown (module ABI before 1.6)";
	if (v->caps & KPROF_CAP_EVENTS_RESTRICTED)
		return "restricted to CAP_SYS_ADMIN (--stack available)";
	return "open to every user: this kernel lacks GENL_MCAST_CAP_SYS_ADMIN, "
	       "so --stack is refused";
}

static int add_one(struct kp_dev *d, const char *spec, const struct add_opts *o,
		   uint32_t *id)
{
	struct kprof_probe_add a;
	char err[256], full[64];
	int type, ret;

	/* a bare pair name, "irq", stands for "pair:irq" */
	if (kp_is_pair(spec)) {
		snprintf(full, sizeof(full), "pair:%s%s", spec,
			 o->per_pid && !strcmp(spec, "wakeup") ? "-pid" : "");
		spec = full;
	}
	if (o->per_pid && strcmp(spec, "pair:wakeup-pid")) {
		fprintf(stderr, "kprofctl add: --per-pid applies to 'wakeup' only\n");
		return 2;
	}
	type = kp_parse_spec(spec, err, sizeof(err));
	if (!type) {
		fprintf(stderr, "kprofctl add: %s\n", err);
		return 2;
	}
	if (o->maxactive && type != KPROF_TYPE_KRETPROBE) {
		fprintf(stderr, "kprofctl add: --maxactive applies to kretprobes only\n");
		return 2;
	}
	if ((o->flags & KPROF_ADD_DEFER) && type != KPROF_TYPE_TRACEPOINT &&
	    !((type == KPROF_TYPE_KPROBE || type == KPROF_TYPE_KRETPROBE) &&
	      strchr(strchr(spec, ':') + 1, ':'))) {
		fprintf(stderr, "kprofctl add: --defer applies to tracepoints and to "
			"kprobes on MOD:SYM only\n");
		return 2;
	}
	memset(&a, 0, sizeof(a));
	if (o->slow_ns && type != KPROF_TYPE_KRETPROBE && type != KPROF_TYPE_PAIR) {
		fprintf(stderr, "kprofctl add: --slow applies to kretprobes and pairs only\n");
		return 2;
	}
	if ((o->flags & KPROF_ADD_STACK) && !o->slow_ns) {
		fprintf(stderr, "kprofctl add: --stack goes with --slow\n");
		return 2;
	}
	if (o->pmu) {
		if (type != KPROF_TYPE_KRETPROBE) {
			fprintf(stderr, "kprofctl add: --pmu applies to kretprobes only "
				"(for counts over time use 'kprofctl stat')\n");
			return 2;
		}
		if (kp_pmu_parse_events(o->pmu, a.pmu, sizeof(a.pmu), err,
					sizeof(err))) {
			fprintf(stderr, "kprofctl add: --pmu: %s\n", err);
			return 2;
		}
	}
	a.size = sizeof(a);
	a.flags = o->flags;
	a.pid = o->pid;
	a.maxactive = o->maxactive;
	a.slow_ns = o->slow_ns;
	if (o->cpulist) {
		if (kp_parse_cpulist(o->cpulist, d->ver.nr_cpus, a.cpus, err,
				     sizeof(err))) {
			fprintf(stderr, "kprofctl add: --cpus: %s\n", err);
			return 2;
		}
		a.flags |= KPROF_ADD_CPUS;
	}
	snprintf(a.spec, sizeof(a.spec), "%s", spec);
	ret = kp_ioctl(d, KPROF_IOC_ADD_PROBE, &a);
	if (ret && a.err_event) {
		kp_explain_pmu("add", a.pmu, a.err_event, a.err_cpu, -ret);
		return 1;
	}
	if (ret == -EACCES && (a.flags & KPROF_ADD_STACK)) {
		fprintf(stderr, "kprofctl add: --stack refused: on this kernel any user "
			"may join the netlink events group, so any user could read the "
			"return addresses (kernel addresses) of a stack; the kernel "
			"lacks GENL_MCAST_CAP_SYS_ADMIN (6.7, or a 6.1.y backport)\n");
		return 1;
	}
	if (ret) {
		kp_explain(d, "add", spec, -ret);
		return 1;
	}
	*id = a.id;
	return 0;
}

enum { OPT_PID = 256, OPT_TGID, OPT_MAXACTIVE, OPT_CPUS, OPT_START, OPT_JSON,
       OPT_PERCPU, OPT_ALL, OPT_DEFER, OPT_PERPID, OPT_TOP, OPT_KEY,
       OPT_BYCLUSTER, OPT_PMU, OPT_CPUS_STAT, OPT_SLOW, OPT_STACK,
       OPT_PROBE, OPT_MIN, OPT_COUNT };

static int parse_add_opt(const char *cmd, int opt, struct add_opts *o)
{
	uint64_t v;

	switch (opt) {
	case OPT_PID:
	case OPT_TGID:
		if (o->flags & (KPROF_ADD_PID | KPROF_ADD_TGID))
			return bad_usage(cmd, "%s", "give one --pid or --tgid");
		if (kp_parse_u64(optarg, 1, INT32_MAX, &v))
			return bad_usage(cmd, "%s takes a pid (1-%d), not '%s'",
					 opt == OPT_PID ? "--pid" : "--tgid",
					 INT32_MAX, optarg);
		o->flags |= opt == OPT_PID ? KPROF_ADD_PID : KPROF_ADD_TGID;
		o->pid = (uint32_t)v;
		return 0;
	case OPT_MAXACTIVE:
		if (kp_parse_u64(optarg, 1, KPROF_MAX_MAXACTIVE, &v))
			return bad_usage(cmd, "--maxactive takes 1-4096, not '%s'",
					 optarg);
		o->maxactive = (uint32_t)v;
		return 0;
	case OPT_CPUS:
		o->cpulist = optarg;
		return 0;
	case OPT_START:
		o->flags |= KPROF_ADD_START;
		return 0;
	case OPT_DEFER:
		o->flags |= KPROF_ADD_DEFER;
		return 0;
	case OPT_PERPID:
		o->per_pid = 1;
		return 0;
	case OPT_PMU:
		o->pmu = optarg;
		return 0;
	case OPT_SLOW:
		if (kp_parse_duration(optarg, &v) || !v)
			return bad_usage(cmd, "--slow takes a duration above 0 "
					 "(500us, 2ms, 1s, 800ns), not '%s'", optarg);
		o->slow_ns = v;
		return 0;
	case OPT_STACK:
		o->flags |= KPROF_ADD_STACK;
		return 0;
	}
	return bad_usage(cmd, "%s", "unknown option");
}

static const struct option add_longopts[] = {
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tgid", required_argument, NULL, OPT_TGID },
	{ "maxactive", required_argument, NULL, OPT_MAXACTIVE },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "start", no_argument, NULL, OPT_START },
	{ "defer", no_argument, NULL, OPT_DEFER },
	{ "per-pid", no_argument, NULL, OPT_PERPID },
	{ "pmu", required_argument, NULL, OPT_PMU },
	{ "slow", required_argument, NULL, OPT_SLOW },
	{ "stack", no_argument, NULL, OPT_STACK },
	{ NULL, 0, NULL, 0 },
};

static int cmd_add(struct kp_dev *d, int argc, char **argv)
{
	struct add_opts o;
	const char *spec = NULL;
	uint32_t id;
	int opt, ret;

	memset(&o, 0, sizeof(o));
	optind = 1;
	for (;;) {
		opt = getopt_long(argc, argv, "+", add_longopts, NULL);
		if (opt == -1) {
			/* SPEC may stand before, between or after options */
			if (optind < argc && !spec) {
				spec = argv[optind++];
				continue;
			}
			break;
		}
		if (opt == '?')
			return bad_usage("add", "%s", "unknown option");
		ret = parse_add_opt("add", opt, &o);
		if (ret)
			return ret;
	}
	if (!spec)
		return bad_usage("add", "%s", "missing SPEC");
	if (optind < argc)
		return bad_usage("add", "unexpected argument '%s'", argv[optind]);
	ret = add_one(d, spec, &o, &id);
	if (!ret)
		printf("%u\n", id);
	return ret;
}

/* ---- del / start / stop / reset ------------------------------------------ */

static int cmd_id(struct kp_dev *d, int argc, char **argv, unsigned long ioc,
		  int need_arg)
{
	const char *cmd = argv[0];
	uint32_t id;
	int ret;

	if (argc > 2)
		return bad_usage(cmd, "unexpected argument '%s'", argv[2]);
	if (need_arg && argc < 2)
		return bad_usage(cmd, "%s", "missing ID (or 'all')");
	ret = parse_id(cmd, argc > 1 ? argv[1] : NULL, 1, &id);
	if (ret)
		return ret;
	ret = kp_id_cmd(d, ioc, id);
	if (ret) {
		kp_explain(d, cmd, argc > 1 ? argv[1] : "all", -ret);
		return 1;
	}
	return 0;
}

/* ---- list / status / version --------------------------------------------- */

static int list_probes(struct kp_dev *d, struct kprof_probe_info **out,
		       unsigned int *n)
{
	struct kprof_probe_list l;
	struct kprof_probe_info *recs;
	int ret;

	recs = calloc(d->ver.max_probes ? d->ver.max_probes : 1, sizeof(*recs));
	if (!recs)
		return -ENOMEM;
	memset(&l, 0, sizeof(l));
	l.size = sizeof(l);
	l.count = d->ver.max_probes;
	l.rec_size = sizeof(*recs);
	l.ptr = (uintptr_t)recs;
	ret = kp_ioctl(d, KPROF_IOC_LIST, &l);
	if (ret) {
		free(recs);
		return ret;
	}
	*out = recs;
	*n = l.count < d->ver.max_probes ? l.count : d->ver.max_probes;
	return 0;
}

static void filters(const struct kprof_probe_info *r, char *buf, size_t len)
{
	char cpus[128];
	size_t used = 0;

	buf[0] = '\0';
	if (r->flags & KPROF_ADD_PID)
		used += snprintf(buf, len, "pid=%u ", r->pid);
	if (r->flags & KPROF_ADD_TGID)
		used += snprintf(buf, len, "tgid=%u ", r->pid);
	if ((r->flags & KPROF_ADD_CPUS) && used < len) {
		kp_format_cpulist(r->cpus, cpus, sizeof(cpus));
		used += snprintf(buf + used, len - used, "cpus=%s ", cpus);
	}
	if (r->maxactive && r->type == KPROF_TYPE_KRETPROBE && used < len)
		used += snprintf(buf + used, len - used, "maxactive=%u ",
				 r->maxactive);
	/* deleted when the run or stat that added it ends, even killed */
	if ((r->flags & KPROF_ADD_OWNED) && used < len)
		used += snprintf(buf + used, len - used, "temporary ");
	if (used && used < len && buf[used - 1] == ' ')
		buf[used - 1] = '\0';
	if (!buf[0])
		snprintf(buf, len, "-");
}

static int cmd_list(struct kp_dev *d, int argc, char **argv)
{
	struct kprof_probe_info *recs;
	unsigned int n, i;
	int ret;

	if (argc == 2 && !strcmp(argv[1], "--netlink"))
		return kp_nl_list();
	if (argc > 1)
		return bad_usage(argv[0], "unexpected argument '%s'", argv[1]);
	ret = list_probes(d, &recs, &n);
	if (ret) {
		kp_explain(d, "list", "", -ret);
		return 1;
	}
	if (!n)
		printf("no probes\n");
	else
		printf("%4s  %-9s  %-7s  %12s  %8s  %-24s  %s\n", "ID", "TYPE",
		       "STATE", "HITS", "MISSED", "FILTERS", "SPEC");
	for (i = 0; i < n; i++) {
		char f[96];

		filters(&recs[i], f, sizeof(f));
		printf("%4u  %-9s  %-7s  %12" PRIu64 "  %8" PRIu64 "  %-24s  %s\n",
		       recs[i].id, kp_type_name(recs[i].type),
		       kp_state_name(recs[i].state), (uint64_t)recs[i].hits,
		       (uint64_t)recs[i].nmissed, f, recs[i].spec);
	}
	free(recs);
	return 0;
}

/* generic netlink family of later module versions (event stream) */
static const char *netlink_state(void)
{
	struct nl_sock *sk = nl_socket_alloc();
	const char *s = "not provided by this module version";

	if (!sk)
		return "unknown (out of memory)";
	if (genl_connect(sk))
		s = "unknown (cannot open a generic netlink socket)";
	else if (genl_ctrl_resolve(sk, KPROF_GENL_NAME) >= 0)
		s = "available (kprofctl watch)";
	nl_socket_free(sk);
	return s;
}

/* What became of probes= and the device-tree node's probes. */
static const char *boot_probe_state(struct kp_dev *d, uint32_t id)
{
	struct kprof_probe_query q;

	memset(&q, 0, sizeof(q));
	q.size = sizeof(q);
	q.id = id;
	if (kp_ioctl(d, KPROF_IOC_INFO, &q))
		return "?";
	if (q.info.state == KPROF_STATE_PENDING)
		return "pending: registers when its module loads";
	return kp_state_name(q.info.state);
}

static void print_boot_report(struct kp_dev *d)
{
	struct kprof_boot_rec *r;
	unsigned int n, lost, i, armed = 0, failed = 0;
	int ret;

	ret = kp_dev_boot_report(d, &r, &n, &lost);
	if (ret) {
		printf("boot probes:     %s\n", ret == -ENOTTY ?
		       "not reported by this module version" : strerror(-ret));
		return;
	}
	for (i = 0; i < n; i++) {
		if (r[i].flags & KPROF_BOOT_ARMED)
			armed++;
		else if (r[i].error)
			failed++;
	}
	if (!n) {
		printf("boot probes:     none (no probes= list, no device-tree node bound)\n");
	} else {
		printf("boot probes:     %u armed, %u failed\n", armed, failed);
		for (i = 0; i < n; i++) {
			const char *src = r[i].source == KPROF_BOOT_DT ?
					  "dt" : "param";

			if (r[i].flags & KPROF_BOOT_LIST)
				printf("  %-5s %s: LIST FAILED (errno %d): %s\n",
				       src, r[i].origin, -r[i].error, r[i].text);
			else if (r[i].flags & KPROF_BOOT_ARMED)
				printf("  %-5s %s: %s: probe %u, %s\n", src,
				       r[i].origin, r[i].text, r[i].id,
				       boot_probe_state(d, r[i].id));
			else if (r[i].error)
				printf("  %-5s %s: %s: NOT ARMED: %s\n", src,
				       r[i].origin, r[i].text,
				       kp_boot_reason(-r[i].error, r[i].text));
			else
				printf("  %-5s %s: %s: probe %u, since deleted\n",
				       src, r[i].origin, r[i].text, r[i].id);
		}
	}
	if (lost)
		printf("  %u more records did not fit the module's report (see dmesg)\n",
		       lost);
	free(r);
}

static int cmd_status(struct kp_dev *d, int argc, char **argv)
{
	const struct kprof_version *v = &d->ver;
	struct kprof_probe_info *recs;
	unsigned int n = 0;

	if (argc > 1)
		return bad_usage(argv[0], "unexpected argument '%s'", argv[1]);
	if (!list_probes(d, &recs, &n))
		free(recs);
	printf("module ABI:      %u.%u (CLI %u.%u, %s)\n", v->abi_major,
	       v->abi_minor, KPROF_ABI_MAJOR, KPROF_ABI_MINOR, KPROFCTL_VERSION);
	printf("kprobes:         %s\n", v->caps & KPROF_CAP_KPROBE ? "yes" :
	       "no: this kernel has no kprobes (CONFIG_KPROBES=n)");
	printf("kretprobes:      %s\n", v->caps & KPROF_CAP_KRETPROBE ? "yes" :
	       "no (CONFIG_KRETPROBES=n)");
	printf("tracepoints:     %s\n", v->caps & KPROF_CAP_TRACEPOINT ? "yes" :
	       "no (CONFIG_TRACEPOINTS=n, or an older module)");
	if (v->caps & KPROF_CAP_PMU)
		printf("PMU counters:    yes, %u probes with up to %u events\n",
		       v->max_pmus, v->pmu_max_events);
	else
		printf("PMU counters:    not in this module version (or max_pmus=0)\n");
	printf("CPUs:            %u\n", v->nr_cpus);
	if (v->event_ring)
		printf("slow-call ring:  %u records per CPU\n", v->event_ring);
	{
		static struct kp_topo t;
		unsigned int k;

		kp_topo_load(&t, kp_sysfs_root(), v->nr_cpus);
		printf("clusters:       ");
		for (k = 0; k < t.nr_clusters; k++)
			printf(" %s cpu%s%s%s%s%s", t.cl[k].name, t.cl[k].cpus,
			       t.cl[k].pmu[0] ? " (PMU " : "", t.cl[k].pmu,
			       t.cl[k].pmu[0] ? ")" : "",
			       k + 1 < t.nr_clusters ? "," : "");
		printf("\n");
	}
	printf("probes:          %u in use, %u max\n", n, v->max_probes);
	printf("histogram:       %u buckets, 1/%u resolution, up to 2^%u ns\n",
	       v->hist_nr_buckets, 1U << v->hist_sub_bits, v->hist_max_exp);
	printf("stats mapping:   %" PRIu64 " KiB\n", (uint64_t)(v->mmap_size >> 10));
	printf("netlink events:  %s\n", netlink_state());
	printf("events group:    %s\n", events_group(v));
	print_boot_report(d);
	return 0;
}

/* ---- show ---------------------------------------------------------------- */

static int show_ids(struct kp_dev *d, const uint32_t *ids, unsigned int nids,
		    const struct kp_show_opts *o)
{
	struct kprof_probe_info *recs, *sel;
	unsigned int n, i, j, k = 0;
	int ret;

	if (kp_dev_map(d))
		return 1;
	recs = calloc(d->m.hdr->max_probes, sizeof(*recs));
	sel = calloc(d->m.hdr->max_probes, sizeof(*sel));
	if (!recs || !sel) {
		free(recs);
		free(sel);
		fprintf(stderr, "kprofctl: out of memory\n");
		return 1;
	}
	if (kp_map_probes(&d->m, recs, d->m.hdr->max_probes, &n)) {
		fprintf(stderr, "kprofctl: the probe table in the mapping is "
			"inconsistent\n");
		free(recs);
		free(sel);
		return 1;
	}
	for (i = 0; i < n; i++) {
		int want = !nids;

		for (j = 0; j < nids; j++)
			want |= recs[i].id == ids[j];
		if (want)
			sel[k++] = recs[i];
	}
	for (j = 0; j < nids && nids == 1 && !k; j++) {
		fprintf(stderr, "kprofctl show: no probe with id %u\n", ids[j]);
		free(recs);
		free(sel);
		return 1;
	}
	if (o->key || o->top) {
		unsigned int pairs = 0;

		for (i = 0; i < k; i++)
			pairs += sel[i].type == KPROF_TYPE_PAIR;
		if (k && !pairs) {
			free(recs);
			free(sel);
			return bad_usage("show", "%s %s", o->key ? "--key" : "--top",
					 nids ? "applies to pair probes (irq, softirq, ...), "
					 "and this probe has no keys" :
					 "applies to pair probes, and there are none");
		}
	}
	{
		static struct kp_topo topo;
		struct kp_show_opts so = *o;

		kp_topo_load(&topo, kp_sysfs_root(), d->ver.nr_cpus);
		so.topo = &topo;
		so.sysfs_root = kp_sysfs_root();
		/* the mapping never settled: kp_show() said so */
		ret = kp_show(stdout, &d->m, sel, k, &so) ? 1 : 0;
	}
	free(recs);
	free(sel);
	return ret;
}

static const struct option show_longopts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "per-cpu", no_argument, NULL, OPT_PERCPU },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "key", required_argument, NULL, OPT_KEY },
	{ "by-cluster", no_argument, NULL, OPT_BYCLUSTER },
	{ NULL, 0, NULL, 0 },
};

static int cmd_show(struct kp_dev *d, int argc, char **argv)
{
	struct kp_show_opts o = { 0 };
	const char *idarg = NULL;
	uint32_t id;
	int opt, ret;

	optind = 1;
	for (;;) {
		opt = getopt_long(argc, argv, "+", show_longopts, NULL);
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
				return bad_usage("show", "--top takes a count, not '%s'",
						 optarg);
			o.top = (unsigned int)v;
		} else if (opt == OPT_KEY) {
			if (!*optarg)
				return bad_usage("show", "%s", "--key needs a value");
			o.key = optarg;
		} else {
			return bad_usage("show", "%s", "unknown option");
		}
	}
	if (optind < argc)
		return bad_usage("show", "unexpected argument '%s'", argv[optind]);
	if (!idarg)
		return show_ids(d, NULL, 0, &o);
	ret = parse_id("show", idarg, 0, &id);
	return ret ? ret : show_ids(d, &id, 1, &o);
}

/* ---- list-tracepoints ---------------------------------------------------- */

struct tp_name {
	const char *name;
	char sys[64];
};

static int tp_cmp(const void *x, const void *y)
{
	const struct tp_name *a = x, *b = y;

	return strcmp(a->name, b->name);
}

static int tp_full_cmp(const void *x, const void *y)
{
	const struct tp_name *a = x, *b = y;
	int r = strcmp(a->sys, b->sys);

	return r ? r : strcmp(a->name, b->name);
}

/* SUBSYS of each name from tracefs events/SUBSYS/NAME, where mounted */
static void tp_subsystems(struct tp_name *tps, size_t n)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events",
	};
	unsigned int r;

	for (r = 0; r < sizeof(roots) / sizeof(roots[0]); r++) {
		DIR *top = opendir(roots[r]);
		struct dirent *s;

		if (!top)
			continue;
		while ((s = readdir(top))) {
			char path[512];
			struct dirent *e;
			DIR *sub;

			if (s->d_name[0] == '.' || strlen(s->d_name) >= sizeof(tps->sys))
				continue;
			snprintf(path, sizeof(path), "%s/%s", roots[r], s->d_name);
			sub = opendir(path);
			if (!sub)
				continue;
			while ((e = readdir(sub))) {
				struct tp_name key = { .name = e->d_name }, *hit;

				hit = bsearch(&key, tps, n, sizeof(*tps), tp_cmp);
				if (hit && !hit->sys[0])
					snprintf(hit->sys, sizeof(hit->sys), "%s",
						 s->d_name);
			}
			closedir(sub);
		}
		closedir(top);
		return;
	}
}

static int cmd_list_tp(struct kp_dev *d, int argc, char **argv)
{
	struct kprof_tp_list t;
	struct tp_name *tps = NULL;
	const char *glob = argc > 1 ? argv[1] : NULL;
	char *buf = NULL, *p;
	size_t n = 0, i, shown = 0;
	int ret, tries;

	if (argc > 2)
		return bad_usage(argv[0], "unexpected argument '%s'", argv[2]);
	if (!(d->ver.caps & KPROF_CAP_TRACEPOINT)) {
		fprintf(stderr, "kprofctl: this kernel or module has no tracepoint "
			"support\n");
		return 1;
	}
	memset(&t, 0, sizeof(t));
	/* modules may load between the two calls: retry with more room */
	for (tries = 0; tries < 8; tries++) {
		size_t len = t.needed + 4096;

		free(buf);
		buf = malloc(len);
		if (!buf) {
			fprintf(stderr, "kprofctl: out of memory\n");
			return 1;
		}
		memset(&t, 0, sizeof(t));
		t.size = sizeof(t);
		t.len = len;
		t.ptr = (uintptr_t)buf;
		ret = kp_ioctl(d, KPROF_IOC_TRACEPOINTS, &t);
		if (ret != -ENOSPC)
			break;
	}
	if (ret) {
		kp_explain(d, "list-tracepoints", "", -ret);
		free(buf);
		return 1;
	}
	tps = calloc(t.count ? t.count : 1, sizeof(*tps));
	if (!tps) {
		free(buf);
		fprintf(stderr, "kprofctl: out of memory\n");
		return 1;
	}
	for (p = buf; p < buf + t.needed && n < t.count; p += strlen(p) + 1)
		tps[n++].name = p;
	qsort(tps, n, sizeof(*tps), tp_cmp);
	tp_subsystems(tps, n);
	for (i = 0; i < n; i++)
		if (!tps[i].sys[0])
			snprintf(tps[i].sys, sizeof(tps[i].sys), "*");
	qsort(tps, n, sizeof(*tps), tp_full_cmp);
	for (i = 0; i < n; i++) {
		char full[256];

		snprintf(full, sizeof(full), "%s:%s", tps[i].sys, tps[i].name);
		if (glob && fnmatch(glob, tps[i].name, 0) &&
		    fnmatch(glob, full, 0))
			continue;
		printf("%s\n", full);
		shown++;
	}
	if (glob && !shown)
		fprintf(stderr, "kprofctl list-tracepoints: no tracepoint matches "
			"'%s'\n", glob);
	free(tps);
	free(buf);
	return glob && !shown ? 1 : 0;
}

/* ---- run ----------------------------------------------------------------- */

static volatile sig_atomic_t run_signal;

static void on_signal(int sig)
{
	run_signal = sig;
}

static const struct option run_longopts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "per-cpu", no_argument, NULL, OPT_PERCPU },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "pid", required_argument, NULL, OPT_PID },
	{ NULL, 0, NULL, 0 },
};

static int cmd_run(struct kp_dev *d, int argc, char **argv)
{
	struct kp_show_opts so = { 0 };
	struct add_opts ao;
	int all = 0, opt, nspecs = 0, i, ret = 0, status = 0;
	uint32_t *ids;
	unsigned int nids = 0;
	char **specs, **cmd = NULL;
	struct sigaction sa;
	pid_t child, w;
	uint64_t v;

	memset(&ao, 0, sizeof(ao));
	specs = calloc(argc, sizeof(*specs));
	ids = calloc(argc, sizeof(*ids));
	if (!specs || !ids) {
		free(specs);
		free(ids);
		return 1;
	}
	optind = 1;
	while (optind < argc) {
		if (!strcmp(argv[optind], "--")) {
			cmd = argv + optind + 1;
			break;
		}
		opt = getopt_long(argc, argv, "+", run_longopts, NULL);
		if (opt == -1) {
			specs[nspecs++] = argv[optind++];
			continue;
		}
		switch (opt) {
		case OPT_JSON:
			so.json = 1;
			break;
		case OPT_PERCPU:
			so.per_cpu = 1;
			break;
		case OPT_ALL:
			all = 1;
			break;
		case OPT_PID:
			if (kp_parse_u64(optarg, 1, INT32_MAX, &v)) {
				ret = bad_usage("run", "--pid takes a pid (1-%d), not '%s'",
						INT32_MAX, optarg);
				goto out;
			}
			ao.pid = (uint32_t)v;
			break;
		default:
			ret = bad_usage("run", "%s", "unknown option");
			goto out;
		}
	}
	if (!cmd || !cmd[0]) {
		ret = bad_usage("run", "%s", "missing '-- CMD'");
		goto out;
	}
	if (!nspecs) {
		ret = bad_usage("run", "%s", "give at least one SPEC");
		goto out;
	}
	if (all && ao.pid) {
		ret = bad_usage("run", "%s", "--all and --pid exclude each other");
		goto out;
	}
	for (i = 0; i < nspecs; i++) {
		char err[256];

		if (!kp_parse_spec(specs[i], err, sizeof(err))) {
			ret = bad_usage("run", "%s", err);
			goto out;
		}
	}
	fflush(NULL);
	child = fork();
	if (child < 0) {
		perror("kprofctl run: fork");
		ret = 1;
		goto out;
	}
	if (!child) {
		/*
		 * Stop until the probes are armed.  Waiting in read() on a
		 * pipe would itself be a vfs_read the probes could see.
		 */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(d->fd);
		raise(SIGSTOP);
		execvp(cmd[0], cmd);
		fprintf(stderr, "kprofctl run: cannot run '%s': %s\n", cmd[0],
			strerror(errno));
		_exit(127);
	}
	if (waitpid(child, &status, WUNTRACED) != child || !WIFSTOPPED(status)) {
		fprintf(stderr, "kprofctl run: the command's process did not start\n");
		ret = 1;
		goto out;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (!all) {
		ao.flags |= KPROF_ADD_TGID;
		if (!ao.pid)
			ao.pid = (uint32_t)child;
	}
	ao.flags |= KPROF_ADD_START | kp_owned_flag(d);
	for (i = 0; i < nspecs && !run_signal; i++) {
		ret = add_one(d, specs[i], &ao, &ids[nids]);
		if (ret)
			break;
		nids++;
	}
	if (ret || run_signal) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		ret = ret ? ret : 1;
		goto cleanup;
	}
	kill(child, SIGCONT);
	for (;;) {
		w = waitpid(child, &status, 0);
		if (w == child)
			break;
		if (w < 0 && errno == EINTR && run_signal) {
			kill(child, run_signal);
			continue;
		}
		if (w < 0 && errno != EINTR) {
			perror("kprofctl run: waitpid");
			break;
		}
	}
	for (i = 0; i < (int)nids; i++)
		kp_id_cmd(d, KPROF_IOC_STOP, ids[i]);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		ret = 127;
	else
		ret = show_ids(d, ids, nids, &so) ? 1 :
		      WIFEXITED(status) ? WEXITSTATUS(status) :
		      128 + WTERMSIG(status);
cleanup:
	for (i = 0; i < (int)nids; i++)
		kp_id_cmd(d, KPROF_IOC_DEL_PROBE, ids[i]);
out:
	free(specs);
	free(ids);
	return ret;
}

/* ---- stat ---------------------------------------------------------------- */

static volatile sig_atomic_t child_exited;

static void on_child(int sig)
{
	(void)sig;
	child_exited = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

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

static const struct option stat_longopts[] = {
	{ "events", required_argument, NULL, 'e' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "cpus", required_argument, NULL, OPT_CPUS_STAT },
	{ "interval", required_argument, NULL, 'I' },
	{ "duration", required_argument, NULL, 'd' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

static int cmd_stat(struct kp_dev *d, int argc, char **argv)
{
	const char *events = NULL, *cpulist = NULL;
	uint64_t interval = 0, duration = 0, start, next, end, v;
	char spec[KPROF_SPEC_LEN], list[KPROF_PMU_SPEC_LEN], err[768];
	struct kp_pmu_snap prev = { 0 }, cur, keep;
	struct kprof_probe_add a;
	static struct kp_topo topo;
	char **cmd = NULL;
	int opt, json = 0, ret = 0, status = 0, tick = 0, have_prev = 0;
	int all = 0, reaped = 0;
	struct sigaction sa;
	pid_t child = -1;

	optind = 1;
	while (optind < argc) {
		if (!strcmp(argv[optind], "--")) {
			cmd = argv + optind + 1;
			break;
		}
		opt = getopt_long(argc, argv, "+e:aI:d:", stat_longopts, NULL);
		if (opt == -1)
			return bad_usage("stat", "unexpected argument '%s'",
					 argv[optind]);
		switch (opt) {
		case 'e':
			events = optarg;
			break;
		case 'a':
			all = 1;
			break;
		case OPT_CPUS_STAT:
			cpulist = optarg;
			break;
		case 'I':
			if (kp_parse_u64(optarg, 10, 3600000, &interval))
				return bad_usage("stat", "-I takes 10-3600000 ms, not '%s'",
						 optarg);
			break;
		case 'd':
			if (kp_parse_u64(optarg, 1, 86400, &duration))
				return bad_usage("stat", "-d takes 1-86400 seconds, not '%s'",
						 optarg);
			break;
		case OPT_JSON:
			json = 1;
			break;
		default:
			return bad_usage("stat", "%s", "unknown option");
		}
	}
	if (!events)
		return bad_usage("stat", "%s", "missing -e EVENTS");
	if (all && cpulist)
		return bad_usage("stat", "%s", "-a and --cpus exclude each other");
	if (cmd && !cmd[0])
		return bad_usage("stat", "%s", "missing CMD after '--'");
	if (cmd && duration)
		return bad_usage("stat", "%s", "-d and '-- CMD' exclude each other");
	if (kp_pmu_parse_events(events, list, sizeof(list), err, sizeof(err)))
		return bad_usage("stat", "-e: %s", err);
	if (strlen(list) + 5 > sizeof(spec))
		return bad_usage("stat", "%s", "-e: event list too long");
	snprintf(spec, sizeof(spec), "pmu:%s", list);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.flags = KPROF_ADD_START | kp_owned_flag(d);
	if (cpulist) {
		if (kp_parse_cpulist(cpulist, d->ver.nr_cpus, a.cpus, err,
				     sizeof(err)))
			return bad_usage("stat", "--cpus: %s", err);
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
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);

	if (cmd) {
		fflush(NULL);
		child = fork();
		if (child < 0) {
			perror("kprofctl stat: fork");
			return 1;
		}
		if (!child) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(d->fd);
			raise(SIGSTOP);
			execvp(cmd[0], cmd);
			fprintf(stderr, "kprofctl stat: cannot run '%s': %s\n",
				cmd[0], strerror(errno));
			_exit(127);
		}
		if (waitpid(child, &status, WUNTRACED) != child ||
		    !WIFSTOPPED(status)) {
			fprintf(stderr, "kprofctl stat: the command's process did not start\n");
			return 1;
		}
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
	start = now_ns();
	end = duration ? start + duration * 1000000000ull : 0;
	next = interval ? start + interval * 1000000ull : 0;
	if (child > 0)
		kill(child, SIGCONT);
	for (;;) {
		uint64_t t = now_ns(), wake = UINT64_MAX;
		struct timespec ts;

		if (child > 0 && child_exited &&
		    waitpid(child, &status, WNOHANG) == child) {
			reaped = 1;
			break;
		}
		if (run_signal) {
			if (child <= 0)
				break;
			kill(child, run_signal);
			run_signal = 0;
		}
		if (end && t >= end)
			break;
		if (next && t >= next) {
			if (stat_snap(d, a.id, &cur) || kp_pmu_snap_dup(&keep, &cur)) {
				kp_pmu_snap_free(&cur);
				ret = 1;
				break;
			}
			tick++;
			if (have_prev)
				kp_pmu_snap_sub(&cur, &prev);
			if (json) {
				printf("{\"interval\":%d,\"t_ns\":%" PRIu64 ",\"pmu\":",
				       tick, t - start);
				kp_pmu_print(stdout, &cur, &topo, kp_sysfs_root(), 1);
				printf("}\n");
			} else {
				printf("# interval %d at %.3f s\n", tick,
				       (t - start) / 1e9);
				kp_pmu_print(stdout, &cur, &topo, kp_sysfs_root(), 0);
			}
			fflush(stdout);
			kp_pmu_snap_free(&cur);
			kp_pmu_snap_free(&prev);
			prev = keep;
			have_prev = 1;
			next += interval * 1000000ull;
			continue;
		}
		if (next)
			wake = next;
		if (end && end < wake)
			wake = end;
		/* the wait is the feature here: SIGCHLD/SIGINT cut it short */
		if (wake == UINT64_MAX) {
			pause();
			continue;
		}
		ts.tv_sec = (time_t)((wake - t) / 1000000000ull);
		ts.tv_nsec = (long)((wake - t) % 1000000000ull);
		nanosleep(&ts, NULL);
	}
	kp_pmu_snap_free(&prev);
	v = now_ns() - start;
	if (kp_id_cmd(d, KPROF_IOC_STOP, a.id) == 0 && !ret &&
	    !stat_snap(d, a.id, &cur)) {
		if (json) {
			printf("{\"duration_ns\":%" PRIu64 ",\"pmu\":", v);
			kp_pmu_print(stdout, &cur, &topo, kp_sysfs_root(), 1);
			printf("}\n");
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
	if (child > 0 && !reaped) {
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
	}
	if (child > 0 && !ret) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			ret = 127;
		else
			ret = WIFEXITED(status) ? WEXITSTATUS(status) :
			      128 + WTERMSIG(status);
	}
	return ret;
}

/* ---- watch --------------------------------------------------------------- */

static const struct option watch_longopts[] = {
	{ "probe", required_argument, NULL, OPT_PROBE },
	{ "min", required_argument, NULL, OPT_MIN },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

static int cmd_watch(struct kp_dev *d, int argc, char **argv)
{
	struct kp_watch_opts o = { 0 };
	uint64_t v;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+", watch_longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_PROBE:
			if (kp_parse_u64(optarg, 1, UINT32_MAX, &v))
				return bad_usage("watch", "'%s' is not a probe id",
						 optarg);
			o.probe = (uint32_t)v;
			break;
		case OPT_MIN:
			if (kp_parse_duration(optarg, &o.min_ns))
				return bad_usage("watch", "--min takes a duration "
						 "(500us, 2ms), not '%s'", optarg);
			break;
		case OPT_COUNT:
			if (kp_parse_u64(optarg, 1, UINT64_MAX, &o.count))
				return bad_usage("watch", "--count takes a number, "
						 "not '%s'", optarg);
			break;
		case OPT_JSON:
			o.json = 1;
			break;
		default:
			return bad_usage("watch", "%s", "unknown option");
		}
	}
	if (optind < argc)
		return bad_usage("watch", "unexpected argument '%s'", argv[optind]);
	return kp_watch(&o, d->ver.nr_cpus);
}

/* ---- main ---------------------------------------------------------------- */

static const struct {
	const char *name;
	int need_dev;
} commands[] = {
	{ "add", 1 }, { "del", 1 }, { "start", 1 }, { "stop", 1 },
	{ "reset", 1 }, { "list", 1 }, { "show", 1 }, { "run", 1 },
	{ "status", 1 }, { "version", 0 }, { "help", 0 },
	{ "list-tracepoints", 1 }, { "stat", 1 }, { "watch", 1 },
};

int main(int argc, char **argv)
{
	const char *env = getenv("KPROFCTL_DEV");
	const char *cmd;
	struct kp_dev d;
	unsigned int i;
	int a = 1, ret, known = 0;

	if (env && *env)
		dev_path = env;
	while (a < argc && argv[a][0] == '-') {
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			usage(stdout);
			return 0;
		}
		if ((!strcmp(argv[a], "-d") || !strcmp(argv[a], "--device")) &&
		    a + 1 < argc) {
			dev_path = argv[a + 1];
			a += 2;
			continue;
		}
		fprintf(stderr, "kprofctl: unknown option '%s'\ntry 'kprofctl --help'\n",
			argv[a]);
		return 2;
	}
	if (a >= argc) {
		usage(stderr);
		return 2;
	}
	cmd = argv[a];
	argc -= a;
	argv += a;
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		known |= !strcmp(commands[i].name, cmd);
	if (!known) {
		fprintf(stderr, "kprofctl: unknown command '%s'\ntry 'kprofctl --help'\n",
			cmd);
		return 2;
	}
	if (!strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (want_help(argc, argv, cmd))
		return 0;
	if (!strcmp(cmd, "version")) {
		printf("kprofctl %s (ABI %u.%u)\n", KPROFCTL_VERSION,
		       KPROF_ABI_MAJOR, KPROF_ABI_MINOR);
		if (!access(dev_path, F_OK) && !kp_dev_open(&d, dev_path)) {
			printf("module ABI %u.%u\n", d.ver.abi_major,
			       d.ver.abi_minor);
			printf("events group: %s\n", events_group(&d.ver));
			kp_dev_close(&d);
		}
		return 0;
	}
	if (kp_dev_open(&d, dev_path))
		return 1;
	if (!strcmp(cmd, "add"))
		ret = cmd_add(&d, argc, argv);
	else if (!strcmp(cmd, "del"))
		ret = cmd_id(&d, argc, argv, KPROF_IOC_DEL_PROBE, 1);
	else if (!strcmp(cmd, "start"))
		ret = cmd_id(&d, argc, argv, KPROF_IOC_START, 0);
	else if (!strcmp(cmd, "stop"))
		ret = cmd_id(&d, argc, argv, KPROF_IOC_STOP, 0);
	else if (!strcmp(cmd, "reset"))
		ret = cmd_id(&d, argc, argv, KPROF_IOC_RESET, 0);
	else if (!strcmp(cmd, "list"))
		ret = cmd_list(&d, argc, argv);
	else if (!strcmp(cmd, "show"))
		ret = cmd_show(&d, argc, argv);
	else if (!strcmp(cmd, "run"))
		ret = cmd_run(&d, argc, argv);
	else if (!strcmp(cmd, "list-tracepoints"))
		ret = cmd_list_tp(&d, argc, argv);
	else if (!strcmp(cmd, "stat"))
		ret = cmd_stat(&d, argc, argv);
	else if (!strcmp(cmd, "watch"))
		ret = cmd_watch(&d, argc, argv);
	else
		ret = cmd_status(&d, argc, argv);
	kp_dev_close(&d);
	return ret;
}
