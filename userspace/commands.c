// SPDX-License-Identifier: GPL-2.0
/* The command table: kprofctl.c dispatches on it, test_docs walks it. */
#include "builtin.h"

const char *kp_dev_path = KPROF_DEVICE;

/* In the order of 'kprofctl --help'. */
const struct kp_cmd kp_commands[] = {
	{ "add", "SPEC [OPTIONS]",
	  "register a probe (stopped unless --start); prints its id",
	  cmd_add, 1, &kp_help_add },
	{ "del", "ID|all", "unregister probes", cmd_del, 1, &kp_help_del },
	{ "start", "[ID]", "arm one probe, or all", cmd_start, 1,
	  &kp_help_start },
	{ "stop", "[ID]", "disarm one probe, or all", cmd_stop, 1,
	  &kp_help_stop },
	{ "reset", "[ID]", "zero statistics of one probe, or all", cmd_reset,
	  1, &kp_help_reset },
	{ "list", "[--netlink]", "probes, their state, hits and misses",
	  cmd_list, 1, &kp_help_list },
	{ "show", "[ID] [--json] [--per-cpu] [--by-cluster] [--top N] [--key K]",
	  "statistics, percentiles, histograms (per key for pairs)",
	  cmd_show, KP_DEV_UNLESS_FROM, &kp_help_show },
	{ "save", "FILE [ID...]",
	  "every probe's statistics and context into a JSON capture",
	  cmd_save, 1, &kp_help_save },
	{ "record", "[-i TIME] [-d TIME] -o FILE [-- CMD]",
	  "snapshots every interval, saved as a series (heatmaps, top)",
	  cmd_record, 1, &kp_help_record },
	{ "diff", "BEFORE AFTER [--fail-if EXPR]...",
	  "two captures compared: percentiles, significance, CI gates",
	  cmd_diff, 0, &kp_help_diff },
	{ "report", "-o FILE [BEFORE] CAPTURE",
	  "one self-contained HTML page: histograms, heatmaps, diff, flames",
	  cmd_report, 0, &kp_help_report },
	{ "watch", "[--probe ID] [--min LAT] [--count N] [--json]",
	  "slow calls and probe events as they happen (netlink)",
	  cmd_watch, 1, &kp_help_watch },
	{ "top", "[-i TIME] [--once] [--json] [--sort KEY]",
	  "the busiest probes and keys, live: rates, p99, per cluster",
	  cmd_top, KP_DEV_UNLESS_FROM, &kp_help_top },
	{ "stat", "-e EVENTS [-a | --cpus LIST] [-I TIME] [-d TIME] [--json] [-- CMD]",
	  "PMU counts per CPU and per cluster (A55/A76), IPC",
	  cmd_stat, 1, &kp_help_stat },
	{ "list-tracepoints", "[GLOB]", "tracepoints that can be attached",
	  cmd_list_tp, 1, &kp_help_list_tp },
	{ "run", "[OPTIONS] SPEC... -- CMD [ARGS]",
	  "profile one command, like perf stat", cmd_run, 1, &kp_help_run },
	{ "profile", "[-e EVENT] [-F HZ] [-d TIME] [--svg FILE] [-- CMD]",
	  "where the CPUs spend their time: sampled kernel stacks",
	  cmd_profile, 1, &kp_help_profile },
	{ "flamegraph", "[OPTIONS] [LABEL=]FILE...",
	  "folded stacks (show --folded) into an interactive SVG",
	  cmd_flamegraph, 0, &kp_help_flamegraph },
	{ "status", NULL, "module ABI, capabilities, limits, boot probes",
	  cmd_status, 1, &kp_help_status },
	{ "version", NULL, "CLI and module versions", cmd_version, 0,
	  &kp_help_version },
	/* the same as --help; not listed */
	{ "help", NULL, NULL, NULL, 0, NULL },
};

const unsigned int kp_nr_commands = sizeof(kp_commands) / sizeof(kp_commands[0]);
