/* SPDX-License-Identifier: GPL-2.0 */
/* Adding a probe: add's options and ADD_PROBE, for add, run, profile, stat. */
#ifndef KPROFCTL_PROBE_ADD_H
#define KPROFCTL_PROBE_ADD_H

#include <stdint.h>

#include "uapi/linux/kprofctl.h"
#include "ftrace-act.h"
#include "util.h"

struct kp_dev;

/*
 * add's options, parsed by kp_parse_add_opt(); run takes those with a
 * KP_OPT_ entry too, through the same entry.
 */
enum {
	KP_ADD_OPT_PID = KP_OPT_BASE, KP_ADD_OPT_TGID, KP_ADD_OPT_MAXACTIVE,
	KP_ADD_OPT_CPUS, KP_ADD_OPT_START, KP_ADD_OPT_DEFER, KP_ADD_OPT_PERPID,
	KP_ADD_OPT_PMU, KP_ADD_OPT_SLOW, KP_ADD_OPT_STACK, KP_ADD_OPT_KEY,
	KP_ADD_OPT_KEYS, KP_ADD_OPT_IF, KP_ADD_OPT_FAST, KP_ADD_OPT_KRETPROBE,
	KP_ADD_OPT_SNAPSHOT, KP_ADD_OPT_TRACE_OFF, KP_ADD_OPT_MARK,
	KP_ADD_OPT_OBJECTS, KP_ADD_OPT_END
};

#define KP_OPT_DEFER \
	{ "defer", 0, no_argument, NULL, \
	  "tracepoint: if nothing defines it yet, wait (state\n" \
	  "pending) and attach when a module that does loads;\n" \
	  "kprobe/kretprobe on MOD:SYM: wait for module MOD and\n" \
	  "register when it loads, before its init runs (so a\n" \
	  "driver's probe is caught); again after each reload", \
	  KP_ADD_OPT_DEFER, NULL }
#define KP_OPT_PERPID \
	{ "per-pid", 0, no_argument, NULL, \
	  "wakeup: one key per woken pid instead of one in all", KP_ADD_OPT_PERPID, \
	  NULL }
#define KP_OPT_OBJECTS \
	{ "objects", 0, required_argument, "N", \
	  "mem: room for N live objects (a power of two, up to\n" \
	  "1048576; default 65536); allocations beyond it are\n" \
	  "counted, not followed", KP_ADD_OPT_OBJECTS, NULL }
#define KP_OPT_MAXACTIVE \
	{ "maxactive", 0, required_argument, "N", \
	  "kretprobe: calls that can be pending at once (1-4096;\n" \
	  "default: max(64, 4 x CPUs)); calls beyond it are counted\n" \
	  "as missed; a kretprobe set's is per function", \
	  KP_ADD_OPT_MAXACTIVE, NULL }
#define KP_OPT_FAST \
	{ "fast", 0, no_argument, NULL, \
	  "kretprobe: follow the calls through the function's\n" \
	  "ftrace call site and a return trampoline in the module\n" \
	  "(list: via ftrace), about a third of a kretprobe's cost;\n" \
	  "refused where ftrace cannot hook the function", \
	  KP_ADD_OPT_FAST, NULL }
#define KP_OPT_KRETPROBE \
	{ "kretprobe", 0, no_argument, NULL, \
	  "kretprobe: a kretprobe even where the module would use\n" \
	  "the fast path (its parameter fast=Y)", KP_ADD_OPT_KRETPROBE, \
	  NULL }
#define KP_OPT_CPUS \
	{ "cpus", 0, required_argument, "LIST", \
	  "only calls entered on these CPUs, e.g. 0-3 or 4-7,1", KP_ADD_OPT_CPUS, \
	  NULL }
#define KP_OPT_PMU \
	{ "pmu", 0, required_argument, "EVENTS", \
	  "kretprobe: also record each call's PMU counter deltas\n" \
	  "(entry to return, on the CPU it ran on), one histogram\n" \
	  "per event; 'show' derives IPC.  EVENTS as for 'stat'.\n" \
	  "A call that migrated or whose counter was not running is\n" \
	  "counted as lost, never as zero.  The counters are pinned\n" \
	  "(never multiplexed) while the probe runs.", KP_ADD_OPT_PMU, NULL }
#define KP_OPT_SLOW \
	{ "slow", 0, required_argument, "LAT", \
	  "kretprobes, kretprobe sets and pairs: every call at least\n" \
	  "LAT long (500us, 2ms, 800ns: the unit is required) is also\n" \
	  "sent to 'kprofctl watch' as it happens (a set's names its\n" \
	  "function)", \
	  KP_ADD_OPT_SLOW, NULL }
#define KP_OPT_STACK \
	{ "stack", 0, no_argument, NULL, \
	  "with --slow: the event carries up to 16 kernel return\n" \
	  "addresses", KP_ADD_OPT_STACK, NULL }
#define KP_OPT_SNAPSHOT \
	{ "snapshot", 0, optional_argument, "N", \
	  "with --slow: the first slow call (the first N) swaps\n" \
	  "ftrace's snapshot buffer at its return, freezing the live\n" \
	  "trace of that call in /sys/kernel/tracing/snapshot; later\n" \
	  "ones are counted.  The buffer is allocated and held while\n" \
	  "the probe exists; refused if a latency tracer or a hist\n" \
	  "trigger holds it", KP_ADD_OPT_SNAPSHOT, "--snapshot[=N]" }
#define KP_OPT_TRACE_OFF \
	{ "trace-off", 0, no_argument, NULL, \
	  "with --slow: the first slow call stops ftrace's recording\n" \
	  "(tracing_on goes 0) instead: no second buffer", \
	  KP_ADD_OPT_TRACE_OFF, NULL }
#define KP_OPT_MARK \
	{ "mark", 0, optional_argument, "INSTANCE", \
	  "with --slow: each slow call is also a line in ftrace's\n" \
	  "ring buffer (of instance NAME, else the top one): probe,\n" \
	  "spec, latency_ns, pid, comm; trace-cmd and KernelShark\n" \
	  "show it beside the driver's events", KP_ADD_OPT_MARK, \
	  "--mark[=NAME]" }

#define KP_OPT_KEY \
	{ "key", 0, required_argument, "K", \
	  "statistics per key (up to two --key): retval, retval:bool\n" \
	  "(ok/error), arg1..arg6, argN:log2 (power-of-two buckets),\n" \
	  "caller (the call site: kprobes at the entry, kretprobes;\n" \
	  "named for root), stack (16 frames; show --folded), pid,\n" \
	  "tgid, comm, cpu; retval is a C\n" \
	  "int, retval:64 a long or pointer, argN:s32 an int argument", \
	  KP_ADD_OPT_KEY, NULL }
#define KP_OPT_KEYS \
	{ "keys", 0, required_argument, "N", \
	  "with --key: room for N keys (a power of two; default:\n" \
	  "the module's pair_keys); the rest count as other keys", \
	  KP_ADD_OPT_KEYS, NULL }
#define KP_OPT_IF \
	{ "if", 0, required_argument, "EXPR", \
	  "record only calls where EXPR holds: up to 4 terms joined\n" \
	  "by &&, each FIELD OP NUMBER with FIELD retval, arg1..arg6,\n" \
	  "pid, tgid, cpu or latency (ns), OP ==, !=, <, <=, >, >=\n" \
	  "or & (any bit), NUMBER decimal, 0x hex or -ENAME for\n" \
	  "retval; or comm == NAME, comm != NAME.\n" \
	  "e.g. 'retval < 0', 'arg1 >= 4096 && pid == 1234'", \
	  KP_ADD_OPT_IF, NULL }

/* add, and run for each SPEC */
struct kp_add_opts {
	uint32_t flags, pid, maxactive;
	uint32_t objects;		/* mem: --objects */
	const char *key[KPROF_MAX_KEYS];	/* --key, nr_key of them */
	unsigned int nr_key;
	uint32_t nr_keys;		/* --keys */
	const char *filter;		/* --if */
	int per_pid;
	const char *pmu;		/* kretprobe: events per call */
	uint64_t slow_ns;		/* --slow */
	struct kp_ftrace_opts ft;	/* --snapshot, --trace-off, --mark */
	const char *cpulist;
};

int kp_add_one(struct kp_dev *d, const char *spec,
	       const struct kp_add_opts *o, uint32_t *id);
/* stderr: spec may be a glob the shell expanded; quote it */
void kp_quote_hint(const char *cmd, const char *spec);
/* one of add's options (getopt's optarg) into o; 0 or exit code 2 */
int kp_parse_add_opt(const char *cmd, int opt, struct kp_add_opts *o);
/* run and stat: their probes go with the process, however it ends */
uint32_t kp_owned_flag(const struct kp_dev *d);

#endif
