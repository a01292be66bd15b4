// SPDX-License-Identifier: GPL-2.0
/*
 * kprofctl: drive kprofctl.ko captures and print their histograms.
 * Global options and dispatch; the commands are in cmd-*.c, their table
 * in commands.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argcheck.h"
#include "builtin.h"

/*
 * One line of the command list: the summary at column 25; a left part too
 * long for it gets two spaces, one of more than 40 characters a line of
 * its own.
 */
static void usage_cmd(FILE *f, const struct kp_cmd *c)
{
	char left[128];

	snprintf(left, sizeof(left), "%s%s%s", c->name, c->args ? " " : "",
		 c->args ? c->args : "");
	if (strlen(left) <= 22)
		fprintf(f, "  %-22s %s\n", left, c->summary);
	else if (strlen(left) > 40)
		fprintf(f, "  %s\n%25s%s\n", left, "", c->summary);
	else
		fprintf(f, "  %s  %s\n", left, c->summary);
}

static void usage(FILE *f)
{
	unsigned int i;

	fputs("Usage: kprofctl [-d DEV] COMMAND [ARGS]\n"
"\n"
"Kernel latency and hit-count profiler for driver developers: attach kprobes\n"
"and kretprobes to kernel functions, read per-CPU histograms with percentiles.\n"
"\n"
"Commands:\n", f);
	for (i = 0; i < kp_nr_commands; i++)
		if (kp_commands[i].summary)
			usage_cmd(f, &kp_commands[i]);
	fprintf(f,
"\n"
"SPEC is one of:\n"
"  kprobe:[MOD:]SYM[+OFF]        hit counts of a function\n"
"  kretprobe:[MOD:]SYM           its latency histogram (--pmu: counter deltas)\n"
"  kprobe:[MOD:]GLOB             a function set: hits per function (mydrv:*)\n"
"  kretprobe:[MOD:]GLOB          a function set: latency per function\n"
"  tracepoint:SUBSYS:NAME        hit counts of a tracepoint\n"
"  pair:KIND (or KIND)           keyed latency: irq, softirq, workqueue,\n"
"                                wakeup or block, a histogram per key\n"
"  sample:EVENT[:hz=N|:period=N] a CPU profile: stacks sampled on a PMU event\n"
"  offcpu:all|uninterruptible    blocked time per kernel stack\n"
"  pmu:EVENT[,EVENT...]          PMU counters per CPU over a window\n"
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

/*
 * The global -d/--device after the command (not an option of its own,
 * as stat's -d is): getopt would only say "unknown option".  2 after the
 * hint, else 0.
 */
static int global_after(int argc, char **argv, const struct kp_cmd *c)
{
	const struct kp_opt *o;
	int a;

	for (a = 1; a < argc && strcmp(argv[a], "--"); a++) {
		const char *g = !strcmp(argv[a], "-d") ? "-d" :
				!strcmp(argv[a], "--device") ||
				!strncmp(argv[a], "--device=", 9) ? "--device" :
				NULL;
		int own = 0;

		if (!g)
			continue;
		for (o = c->help ? c->help->opts : NULL;
		     o && (o->name || o->arg); o++)
			own |= (g[1] == 'd' && o->short_name == 'd') ||
			       (o->name && !strcmp(o->name, "device"));
		if (own)
			continue;
		fprintf(stderr, "kprofctl %s: %s is a global option: put %s "
			"before the command (kprofctl %s DEV %s ...)\n",
			c->name, g, g, g, c->name);
		return 2;
	}
	return 0;
}

/* -h or --help anywhere before '--', even as an option's argument */
static int want_help(int argc, char **argv, const struct kp_cmd *c)
{
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--"))
			break;
		if (strcmp(argv[a], "-h") && strcmp(argv[a], "--help"))
			continue;
		if (c->help)
			kp_help_print(stdout, c->help);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *env = getenv("KPROFCTL_DEV");
	const struct kp_cmd *c = NULL;
	struct kp_dev d;
	unsigned int i;
	int a = 1, ret;

	if (env && *env)
		kp_dev_path = env;
	while (a < argc && argv[a][0] == '-') {
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			usage(stdout);
			return 0;
		}
		if ((!strcmp(argv[a], "-d") || !strcmp(argv[a], "--device")) &&
		    a + 1 < argc) {
			kp_dev_path = argv[a + 1];
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
	argc -= a;
	argv += a;
	for (i = 0; i < kp_nr_commands; i++)
		if (!strcmp(kp_commands[i].name, argv[0]))
			c = &kp_commands[i];
	if (!c) {
		fprintf(stderr, "kprofctl: unknown command '%s'\ntry 'kprofctl --help'\n",
			argv[0]);
		return 2;
	}
	if (!c->fn) {
		usage(stdout);
		return 0;
	}
	if (want_help(argc, argv, c))
		return 0;
	if (global_after(argc, argv, c))
		return 2;
	if (c->need_dev == KP_DEV_UNLESS_FROM)
		for (i = 1; i < (unsigned int)argc; i++)
			if (!strcmp(argv[i], "--from") ||
			    !strncmp(argv[i], "--from=", 7))
				return c->fn(NULL, argc, argv);
	if (!c->need_dev)
		return c->fn(NULL, argc, argv);
	/*
	 * A usage error is one (2) even where the module is not loaded: the
	 * table's check, then the command's own parsing before kp_dev_ready.
	 */
	if (kp_args_check(c, argc, argv))
		return 2;
	kp_dev_late(&d, kp_dev_path);
	ret = c->fn(&d, argc, argv);
	kp_dev_close(&d);
	return ret;
}
