// SPDX-License-Identifier: GPL-2.0
/*
 * Adding a probe: add's options, shared by run, profile and stat, checked
 * against the spec's kind before the module sees them, then ADD_PROBE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev.h"
#include "pmu-events.h"
#include "probe-add.h"
#include "spec.h"
#include "util.h"

/*
 * A spec that is a file name here: the shell may have expanded a glob
 * (kprobe:mydrv:*) into the names of files that match it.
 */
void kp_quote_hint(const char *cmd, const char *spec)
{
	fprintf(stderr, "kprofctl %s: '%s' %s: if you typed a glob, the shell "
		"expanded it into file names; quote the spec, e.g. "
		"'kprobe:mydrv:*' or kprobe:'vfs_*'\n", cmd, spec,
		access(spec, F_OK) ? "looks like a file name" :
		"is the name of a file here");
}

uint32_t kp_owned_flag(const struct kp_dev *d)
{
	return d->ver.abi_minor >= 6 ? KPROF_ADD_OWNED : 0;
}

/* An option the spec's kind does not take: usage error 2 */
static int refuse(const char *opt, unsigned int accept, const char *note)
{
	char kinds[128];

	kp_kinds_accepting(accept, kinds, sizeof(kinds));
	fprintf(stderr, "kprofctl add: %s applies to %s only%s\n", opt, kinds,
		note);
	return 2;
}

/*
 * Probes on one function inflate each other's times, and one left over
 * from earlier skews a run: say so, naming them.  A warning, not a
 * refusal: a kprobe's counts beside a kretprobe's latencies is a normal
 * pairing, and scripts that add both must keep working.
 */
static void warn_sharing(struct kp_dev *d, uint32_t id, const char *spec)
{
	char fn[KPROF_SPEC_LEN], other[KPROF_SPEC_LEN];
	struct kprof_probe_info *recs;
	unsigned int n, i;

	if (kp_probe_func(spec, fn, sizeof(fn)) || kp_list_probes(d, &recs, &n))
		return;
	for (i = 0; i < n; i++)
		if (recs[i].id != id &&
		    !kp_probe_func(recs[i].spec, other, sizeof(other)) &&
		    kp_same_func(fn, other))
			fprintf(stderr, "kprofctl: warning: %s already carries "
				"probe %u (%s, %s): each probe's handlers add to "
				"the other's times, about 300 ns per call per "
				"extra probe on a Cortex-A76 (more on a little "
				"core); 'kprofctl del %u' if it is left over\n",
				fn, recs[i].id, recs[i].spec,
				kp_state_name(recs[i].state), recs[i].id);
	free(recs);
}

/*
 * The module refused a request with --key or --if: before ABI 1.9 it
 * cannot evaluate them (it answers E2BIG for the bytes it does not
 * know).  Said once, instead of a bare E2BIG.
 */
static int keys_refused(const struct kp_dev *d, const char *cmd,
			const struct kp_add_opts *o, int err)
{
	if ((err != EINVAL && err != E2BIG) || (!o->nr_key && !o->filter) ||
	    d->ver.abi_minor >= 9)
		return 0;
	fprintf(stderr, "kprofctl %s: this module does not evaluate --if/--key "
		"yet (its ABI is %u.%u, they need 1.9)\n", cmd, d->ver.abi_major,
		d->ver.abi_minor);
	return 1;
}

int kp_add_one(struct kp_dev *d, const char *spec,
	       const struct kp_add_opts *o, uint32_t *id)
{
	const struct kprof_kind *kind;
	struct kprof_probe_add a;
	char err[1024], full[64];
	struct kp_add_opts stack_opts;
	int type, ret, table;

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
		/* kprobe:mydrv:* unquoted, and a file matched it */
		if (!access(spec, F_OK) ||
		    (!kprof_kind_of_spec(spec) && strpbrk(spec, "/.")))
			kp_quote_hint("add", spec);
		return 2;
	}
	/* the spec parsed: only now does the module have to be there */
	if (kp_dev_ready(d))
		return 1;
	if (type == KPROF_TYPE_MEM && d->ver.abi_minor < 15) {
		fprintf(stderr, "kprofctl add: this module has no mem: probes "
			"(its ABI is %u.%u, they need 1.15)\n",
			d->ver.abi_major, d->ver.abi_minor);
		return 1;
	}
	if (type == KPROF_TYPE_MEM && o->nr_key && d->ver.abi_minor < 18) {
		fprintf(stderr, "kprofctl add: this module keys mem: probes by "
			"call site only (its ABI is %u.%u, --key stack needs "
			"1.18)\n", d->ver.abi_major, d->ver.abi_minor);
		return 1;
	}
	if ((type == KPROF_TYPE_SAMPLE || type == KPROF_TYPE_OFFCPU) &&
	    d->ver.abi_minor < 10) {
		fprintf(stderr, "kprofctl add: this module has no %s probes "
			"(its ABI is %u.%u, they need 1.10)\n",
			type == KPROF_TYPE_SAMPLE ? "sample:" : "offcpu:",
			d->ver.abi_major, d->ver.abi_minor);
		return 1;
	}
	/* an offcpu: probe is keyed by its stack */
	if (type == KPROF_TYPE_OFFCPU && !o->nr_key) {
		stack_opts = *o;
		stack_opts.key[0] = "stack";
		stack_opts.nr_key = 1;
		o = &stack_opts;
	}
	/* the rules of kinds.h, as the module applies them */
	kind = kprof_kind_by_type(type);
	if (type == KPROF_TYPE_MEM &&
	    (o->flags & (KPROF_ADD_PID | KPROF_ADD_TGID | KPROF_ADD_SESSION) ||
	     o->cpulist || o->per_pid)) {
		fprintf(stderr, "kprofctl add: %s: a mem: probe follows MOD's "
			"objects to their frees, whoever and wherever they run: "
			"it takes no --pid, --tgid, --per-pid or --cpus (with "
			"run, give --all)\n", spec);
		return 2;
	}
	if (o->objects && type != KPROF_TYPE_MEM) {
		fprintf(stderr, "kprofctl add: --objects sizes a mem: probe's "
			"live table; %s is not one\n", spec);
		return 2;
	}
	if (o->maxactive && !(kind->accepts & KPROF_ACCEPT_MAXACTIVE))
		return refuse("--maxactive", KPROF_ACCEPT_MAXACTIVE, "");
	if ((o->flags & KPROF_ADD_DEFER) &&
	    (!(kind->accepts & KPROF_ACCEPT_DEFER) ||
	     ((kind->flags & KPROF_KIND_DEFER_MOD) &&
	      !kprof_sym_has_mod(strchr(spec, ':') + 1))))
		return refuse("--defer", KPROF_ACCEPT_DEFER,
			      " (kprobes on MOD:SYM, sets on MOD:GLOB)");
	if ((o->flags & (KPROF_ADD_FAST | KPROF_ADD_KRETPROBE)) &&
	    !(kind->accepts & KPROF_ACCEPT_MECH))
		return refuse(o->flags & KPROF_ADD_FAST ? "--fast" : "--kretprobe",
			      KPROF_ACCEPT_MECH, "");
	if ((o->flags & (KPROF_ADD_FAST | KPROF_ADD_KRETPROBE)) &&
	    d->ver.abi_minor < 11) {
		fprintf(stderr, "kprofctl add: this module has no fast latency "
			"probes (its ABI is %u.%u, --fast and --kretprobe need "
			"1.11)\n", d->ver.abi_major, d->ver.abi_minor);
		return 1;
	}
	memset(&a, 0, sizeof(a));
	if (o->slow_ns && !(kind->accepts & KPROF_ACCEPT_SLOW))
		return refuse("--slow", KPROF_ACCEPT_SLOW, "");
	if ((o->flags & KPROF_ADD_STACK) && !o->slow_ns) {
		fprintf(stderr, "kprofctl add: --stack goes with --slow\n");
		return 2;
	}
	if (o->pmu && (kind->flags & KPROF_KIND_SET)) {
		fprintf(stderr, "kprofctl add: --pmu does not apply to a function "
			"set: per-call counters for each function would need a PMU "
			"block per function; use a single kretprobe with --pmu "
			"(kretprobe:MOD:FUNC --pmu %s) for one function's per-call "
			"counts, or pmu:%s for the counters over time\n", o->pmu,
			o->pmu);
		return 2;
	}
	if (o->pmu) {
		if (!(kind->accepts & KPROF_ACCEPT_PMU))
			return refuse("--pmu", KPROF_ACCEPT_PMU,
				      " (for counts over time use 'kprofctl stat')");
		if (kp_pmu_parse_events(o->pmu, a.pmu, sizeof(a.pmu), err,
					sizeof(err))) {
			fprintf(stderr, "kprofctl add: --pmu: %s\n", err);
			return 2;
		}
	}
	if (kp_keys_fill(o->key, o->nr_key, o->nr_keys, o->filter, type, &a,
			 err, sizeof(err))) {
		fprintf(stderr, "kprofctl add: %s", err);
		return 2;
	}
	/* a profile (sample: with a stack key alone) has its own table */
	table = (type == KPROF_TYPE_SAMPLE && o->nr_key == 1 &&
		 !strcmp(o->key[0], "stack")) || type == KPROF_TYPE_OFFCPU;
	if (o->nr_keys && d->ver.abi_minor >= 9 && !table &&
	    o->nr_keys > d->ver.pair_keys) {
		fprintf(stderr, "kprofctl add: --keys %u: this module's key tables "
			"hold at most %u keys (its pair_keys)\n", o->nr_keys,
			d->ver.pair_keys);
		return 2;
	}
	a.size = sizeof(a);
	a.flags = o->flags;
	a.pid = o->pid;
	a.maxactive = o->maxactive;
	a.objects = o->objects;
	a.slow_ns = o->slow_ns;
	ret = kp_ftrace_fill(&o->ft, o->slow_ns, d->ver.abi_minor, &a, err,
			     sizeof(err));
	if (ret) {
		fprintf(stderr, "kprofctl add: %s\n", err);
		return ret;
	}
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
	if (ret && keys_refused(d, "add", o, -ret))
		return 1;
	if (ret && kp_ftrace_refusal(&a, -ret)) {
		fprintf(stderr, "kprofctl add: %s: %s\n", spec,
			kp_ftrace_refusal(&a, -ret));
		return 1;
	}
	if (ret == -ENOSPC && table) {
		fprintf(stderr, "kprofctl add: no free slot: a profile's stack "
			"table takes a function set's slot, of which there are %u "
			"(load the module with max_sets=N for more); 'kprofctl "
			"list' shows what holds them\n", d->ver.max_sets);
		return 1;
	}
	if (ret == -EINVAL && table && o->nr_keys) {
		fprintf(stderr, "kprofctl add: --keys %u: more stacks than a "
			"function set's slot holds on this machine (max_set_funcs "
			"sizes it)\n", o->nr_keys);
		return 1;
	}
	if (ret == -ENOSPC && a.key[0]) {
		fprintf(stderr, "kprofctl add: no free slot: a probe with --key "
			"takes a key table, of which probes with keys and pair "
			"probes share %u (load the module with max_pairs=N for "
			"more), and a probe slot (max_probes=%u); 'kprofctl list' "
			"shows what holds them\n", d->ver.max_pairs,
			d->ver.max_probes);
		return 1;
	}
	/* without kprobes no --kretprobe to offer: kp_explain() says so */
	if (ret == -EADDRNOTAVAIL && (a.flags & KPROF_ADD_FAST) &&
	    kp_has_kprobe_core(&d->ver) && (kind->flags & KPROF_KIND_SET)) {
		fprintf(stderr, "kprofctl add: %s: --fast can follow none of "
			"the functions: they have no ftrace call site or never "
			"return normally.  --kretprobe (or no option) probes them "
			"with kretprobes\n", spec);
		return 1;
	}
	if (ret == -EADDRNOTAVAIL && (a.flags & KPROF_ADD_FAST) &&
	    kp_has_kprobe_core(&d->ver)) {
		fprintf(stderr, "kprofctl add: %s: --fast cannot follow this "
			"function: it has no ftrace call site (notrace, inlined, "
			"or part of the tracing machinery), or its return cannot be "
			"followed (it never returns, returns twice or switches "
			"stacks); the kernel log says which.  --kretprobe (or no "
			"option) probes it with a kretprobe\n", spec);
		return 1;
	}
	if (ret == -EOPNOTSUPP && (a.flags & KPROF_ADD_FAST)) {
		fprintf(stderr, "kprofctl add: %s: --fast needs dynamic ftrace "
			"with a return address it can change (arm64), which this "
			"kernel or architecture lacks; without --fast it is a "
			"kretprobe\n", spec);
		return 1;
	}
	if (ret) {
		kp_explain(d, "add", spec, -ret);
		if (ret == -ENOENT && !access(spec, F_OK))
			kp_quote_hint("add", spec);
		return 1;
	}
	*id = a.id;
	warn_sharing(d, a.id, spec);
	return 0;
}

int kp_parse_add_opt(const char *cmd, int opt, struct kp_add_opts *o)
{
	uint64_t v;

	switch (opt) {
	case KP_ADD_OPT_PID:
	case KP_ADD_OPT_TGID:
		if (o->flags & (KPROF_ADD_PID | KPROF_ADD_TGID))
			return kp_bad_usage(cmd, "%s", "give one --pid or --tgid");
		if (kp_parse_u64(optarg, 1, INT32_MAX, &v))
			return kp_bad_usage(cmd, "%s takes a pid (1-%d), not '%s'",
					 opt == KP_ADD_OPT_PID ? "--pid" : "--tgid",
					 INT32_MAX, optarg);
		if (kp_need_pid(cmd, opt == KP_ADD_OPT_PID ? "--pid" : "--tgid",
				(uint32_t)v))
			return 2;
		o->flags |= opt == KP_ADD_OPT_PID ? KPROF_ADD_PID : KPROF_ADD_TGID;
		o->pid = (uint32_t)v;
		return 0;
	case KP_ADD_OPT_OBJECTS:
		/* a power of two, base 10 unless 0x */
		if (kp_parse_u64(optarg, 1, KPROF_MEM_MAX_OBJECTS, &v) ||
		    (v & (v - 1)))
			return kp_bad_usage(cmd, "--objects takes a power of two "
					 "(1-%u), not '%s'",
					 KPROF_MEM_MAX_OBJECTS, optarg);
		o->objects = (uint32_t)v;
		return 0;
	case KP_ADD_OPT_MAXACTIVE:
		if (kp_parse_u64(optarg, 1, KPROF_MAX_MAXACTIVE, &v))
			return kp_bad_usage(cmd, "--maxactive takes 1-4096, not '%s'",
					 optarg);
		o->maxactive = (uint32_t)v;
		return 0;
	case KP_ADD_OPT_CPUS:
		o->cpulist = optarg;
		return 0;
	case KP_ADD_OPT_START:
		o->flags |= KPROF_ADD_START;
		return 0;
	case KP_ADD_OPT_FAST:
	case KP_ADD_OPT_KRETPROBE:
		o->flags |= opt == KP_ADD_OPT_FAST ? KPROF_ADD_FAST :
			    KPROF_ADD_KRETPROBE;
		if ((o->flags & KPROF_ADD_FAST) && (o->flags & KPROF_ADD_KRETPROBE))
			return kp_bad_usage(cmd, "%s", "give one of --fast and "
					    "--kretprobe");
		return 0;
	case KP_ADD_OPT_DEFER:
		o->flags |= KPROF_ADD_DEFER;
		return 0;
	case KP_ADD_OPT_PERPID:
		o->per_pid = 1;
		return 0;
	case KP_ADD_OPT_PMU:
		o->pmu = optarg;
		return 0;
	case KP_ADD_OPT_SLOW:
		if (kp_parse_duration(optarg, &v)) {
			char why[160];

			kp_duration_error("--slow", optarg, why, sizeof(why));
			return kp_bad_usage(cmd, "%s", why);
		}
		if (!v)
			return kp_bad_usage(cmd, "--slow takes a duration above 0, "
					 "not '%s'", optarg);
		o->slow_ns = v;
		return 0;
	case KP_ADD_OPT_STACK:
		o->flags |= KPROF_ADD_STACK;
		return 0;
	case KP_ADD_OPT_SNAPSHOT:
	case KP_ADD_OPT_TRACE_OFF:
	case KP_ADD_OPT_MARK: {
		char why[256];

		if (kp_ftrace_opt(opt == KP_ADD_OPT_SNAPSHOT ? KP_FT_OPT_SNAPSHOT :
				  opt == KP_ADD_OPT_MARK ? KP_FT_OPT_MARK :
				  KP_FT_OPT_TRACE_OFF, optarg, &o->ft, why,
				  sizeof(why)))
			return kp_bad_usage(cmd, "%s", why);
		return 0;
	}
	case KP_ADD_OPT_KEY:
		if (o->nr_key == KPROF_MAX_KEYS)
			return kp_bad_usage(cmd, "at most %d --key", KPROF_MAX_KEYS);
		o->key[o->nr_key++] = optarg;
		return 0;
	case KP_ADD_OPT_KEYS:
		/* a power of two, base 10 unless 0x */
		if (kp_parse_u64(optarg, 1, 1U << 20, &v) || (v & (v - 1)))
			return kp_bad_usage(cmd, "--keys takes a power of two "
					 "(1-1048576), not '%s'", optarg);
		o->nr_keys = (uint32_t)v;
		return 0;
	case KP_ADD_OPT_IF:
		if (o->filter)
			return kp_bad_usage(cmd, "%s", "give one --if (join its "
					 "terms with &&)");
		o->filter = optarg;
		return 0;
	}
	return kp_bad_usage(cmd, "%s", "unknown option");
}
