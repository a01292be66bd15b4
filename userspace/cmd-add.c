// SPDX-License-Identifier: GPL-2.0
/* kprofctl add: register a probe. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "probe-add.h"

static const struct kp_opt add_opts[] = {
	{ NULL, 0, 0, "SPEC",
	  "kprobe:SYM[+OFF] counts hits; kretprobe:SYM records\n"
	  "entry-to-return latency; tracepoint:SUBSYS:NAME counts\n"
	  "a tracepoint of the kernel or a module.  SYM may be\n"
	  "MOD:SYM, or a glob (a function set: MOD:*, 'vfs_*').\n"
	  "A pair records event-to-event latency, one\n"
	  "histogram per key:\n"
	  "  irq        handler time, per IRQ (named by its action)\n"
	  "  softirq    softirq time, per vector (TIMER, NET_RX...)\n"
	  "  workqueue  work item time, per work function\n"
	  "  wakeup     wakeup to running (run-queue latency);\n"
	  "             --pid/--tgid select the woken task\n"
	  "  block      request issue to completion, per device", 0, NULL },
	KP_OPT_DEFER,
	KP_OPT_PERPID,
	{ "pid", 0, required_argument, "P", "only calls made by thread P (which must exist)",
	  KP_ADD_OPT_PID, NULL },
	{ "tgid", 0, required_argument, "P",
	  "only calls made by process P (any of its threads; it\n"
	  "must exist)", KP_ADD_OPT_TGID, NULL },
	KP_OPT_MAXACTIVE,
	KP_OPT_FAST,
	KP_OPT_KRETPROBE,
	KP_OPT_CPUS,
	KP_OPT_PMU,
	KP_OPT_SLOW,
	KP_OPT_STACK,
	KP_OPT_SNAPSHOT,
	KP_OPT_TRACE_OFF,
	KP_OPT_MARK,
	KP_OPT_KEY,
	KP_OPT_KEYS,
	KP_OPT_OBJECTS,
	KP_OPT_IF,
	{ "start", 0, no_argument, NULL, "arm at once", KP_ADD_OPT_START, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_add = {
	.usage =
"Usage: kprofctl add SPEC [--pid P | --tgid P] [--maxactive N] [--cpus LIST]\n"
"                    [--fast | --kretprobe] [--defer] [--per-pid] [--pmu EVENTS]\n"
"                    [--slow LAT [--stack] [--snapshot[=N] | --trace-off]\n"
"                    [--mark[=INSTANCE]]] [--key K [--key K] [--keys N]]\n"
"                    [--if EXPR] [--start]\n",
	.text =
"Register a probe and print its id.  It is created stopped (disarmed, zero\n"
"cost) unless --start is given.  A kprobe or kretprobe on a function that\n"
"already carries a probe is added with a warning naming that probe: each\n"
"adds its handlers' time to the other's calls.\n"
"A glob in SYM (kprobe:[MOD:]GLOB, kretprobe:[MOD:]GLOB, with *, ? and\n"
"[...]; quote it from the shell) makes one function set: every function\n"
"of module MOD (or of the kernel) whose name matches, hit counts or a\n"
"latency histogram per function ('kprofctl show ID' lists them).  A MOD:\n"
"set waits for MOD like --defer and follows its reloads.  Functions that\n"
"cannot be probed are skipped and listed with the reason.  --maxactive is\n"
"per function; --slow events name the function.\n"
"--key and --if are checked before the module sees them, against what\n"
"the kind can evaluate (retval and latency at a kretprobe's return,\n"
"arguments and caller on kprobes and kretprobes, pid, tgid, cpu and comm\n"
"on tracepoints too; not on sets, pairs and pmu); a bad expression is\n"
"shown with the part at fault underlined.\n",
	.opts = add_opts,
	.width = 15,
	.examples =
"  kprofctl add kretprobe:vfs_read --start\n"
"  kprofctl add kretprobe:mydrv_irq --fast --start\n"
"  kprofctl add kretprobe:mydrv_xfer --slow 500us --stack --start\n"
"  kprofctl add kretprobe:mydrv_xfer --slow 5ms --snapshot --mark --start\n"
"  kprofctl add kretprobe:mydrv:* --slow 5ms --trace-off --mark=drv --start\n"
"  kprofctl add kretprobe:dw_mci_request --maxactive 64 --cpus 4-7\n"
"  kprofctl add kprobe:mydrv:mydrv_irq --tgid 1234 --start\n"
"  kprofctl add tracepoint:irq:irq_handler_entry --cpus 4-7 --start\n"
"  kprofctl add tracepoint:mydrv:mydrv_xfer --defer --start\n"
"  kprofctl add kretprobe:mydrv:mydrv_probe --defer --start; modprobe mydrv\n"
"  kprofctl add workqueue --start\n"
"  kprofctl add wakeup --per-pid --start\n"
"  kprofctl add kretprobe:mydrv_xfer --pmu cycles,instructions,l1d_cache_refill\n"
"  kprofctl add kprobe:mydrv:* --start\n"
"  kprofctl add kretprobe:mydrv:* --slow 1ms --start; kprofctl show 3 --sort p99 --top 10\n"
"  kprofctl add kprobe:'vfs_*' --cpus 4-7 --start\n"
"  kprofctl add kretprobe:mydrv_probe --key retval --start\n"
"  kprofctl add kretprobe:mydrv_xfer --key arg2:log2 --if 'retval < 0' --start\n"
"  kprofctl add tracepoint:sched:sched_switch --key comm --keys 256 --start\n"
"  kprofctl add kretprobe:mydrv_xfer --key caller --key retval:bool --start\n",
};

int cmd_add(struct kp_dev *d, int argc, char **argv)
{
	struct kp_add_opts o;
	struct option lo[KP_MAX_OPTS + 1];
	const char *spec = NULL;
	uint32_t id;
	int opt, ret;

	memset(&o, 0, sizeof(o));
	kp_opts_build(add_opts, lo);
	optind = 1;
	for (;;) {
		opt = getopt_long(argc, argv, "+", lo, NULL);
		if (opt == -1) {
			/* SPEC may stand before, between or after options */
			if (optind < argc && !spec) {
				spec = argv[optind++];
				continue;
			}
			break;
		}
		if (opt == '?')
			return kp_bad_usage("add", "%s", "unknown option");
		ret = kp_parse_add_opt("add", opt, &o);
		if (ret)
			return ret;
	}
	if (!spec)
		return kp_bad_usage("add", "%s", "missing SPEC");
	if (optind < argc) {
		/* kprobe:mydrv:* unquoted, and files matched it */
		if (!access(spec, F_OK))
			kp_quote_hint("add", spec);
		return kp_bad_usage("add", "unexpected argument '%s'", argv[optind]);
	}
	ret = kp_add_one(d, spec, &o, &id);
	if (!ret)
		printf("%u\n", id);
	return ret;
}
