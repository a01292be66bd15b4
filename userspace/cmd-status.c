// SPDX-License-Identifier: GPL-2.0
/* kprofctl status and version. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include "builtin.h"
#include "pmu.h"
#include "show-set.h"
#include "spec.h"

const struct kp_help kp_help_status = {
	.usage = "Usage: kprofctl status\n",
	.text =
"Module and CLI ABI, what this kernel supports, limits and probes in use:\n"
"each probe with how it is hooked (via ftrace, kprobes, kretprobes,\n"
"tracepoint or perf) and, for a function set, its functions and the ones\n"
"it skipped, with the reason.\n",
	.examples = "  kprofctl status\n",
};

const struct kp_help kp_help_version = {
	.usage = "Usage: kprofctl version\n",
	.examples = "  kprofctl version\n",
};

/* ABI 1.6 on: may anyone but CAP_SYS_ADMIN read the events group? */
static const char *kp_events_group(const struct kprof_version *v)
{
	if (v->abi_minor < 6)
		return "unknown (module ABI before 1.6)";
	if (v->caps & KPROF_CAP_EVENTS_RESTRICTED)
		return "restricted to CAP_SYS_ADMIN (--stack available)";
	return "open to every user: this kernel lacks GENL_MCAST_CAP_SYS_ADMIN, "
	       "so --stack is refused";
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

/* each probe: how it is hooked; a set's functions and skipped ones */
static void print_probes(struct kp_dev *d, const struct kprof_probe_info *r,
			 unsigned int n)
{
	unsigned int i, k, nskip, nfuncs;
	struct kp_fn *skip;
	char why[160];

	for (i = 0; i < n; i++) {
		printf("  %u %s: %s", r[i].id, r[i].spec,
		       kp_state_name(r[i].state));
		if (r[i].mech)
			printf(", via %s", kp_mech_label(r[i].type, r[i].mech));
		if (!kp_is_set(r[i].type)) {
			printf("\n");
			continue;
		}
		skip = calloc(r[i].nr_funcs ? r[i].nr_funcs : 1, sizeof(*skip));
		if (!skip || kp_dev_map(d) ||
		    kp_set_skips(&d->m, r[i].id, skip, r[i].nr_funcs, &nskip,
				 &nfuncs)) {
			printf(", %u funcs\n", r[i].nr_funcs);
			free(skip);
			continue;
		}
		printf(", %u funcs (%u hooked), %u skipped\n", nfuncs,
		       r[i].nr_probed, nskip);
		for (k = 0; k < nskip && k < nfuncs; k++) {
			kp_skip_reason(&skip[k], why, sizeof(why));
			printf("    skipped %s: %s\n", skip[k].name, why);
		}
		free(skip);
	}
}

int cmd_status(struct kp_dev *d, int argc, char **argv)
{
	const struct kprof_version *v = &d->ver;
	struct kprof_probe_info *recs;
	unsigned int n = 0;

	if (argc > 1)
		return kp_bad_usage(argv[0], "unexpected argument '%s'", argv[1]);
	if (kp_list_probes(d, &recs, &n)) {
		recs = NULL;
		n = 0;
	}
	printf("module ABI:      %u.%u (CLI %u.%u, %s)\n", v->abi_major,
	       v->abi_minor, KPROF_ABI_MAJOR, KPROF_ABI_MINOR, KPROFCTL_VERSION);
	printf("kprobes:         %s\n", kp_has_kprobe_core(v) ? "yes" :
	       "no: this kernel has no kprobes (CONFIG_KPROBES=n); offsets, notrace functions and --kretprobe need them");
	if (v->abi_major > 1 || v->abi_minor >= 13)
		printf("ftrace:          %s\n", v->caps & KPROF_CAP_FTRACE ?
		       "yes: function entries, and returns by the fast path" :
		       "no (no dynamic ftrace with a return address to change)");
	printf("function probes: %s\n",
	       !(v->caps & (KPROF_CAP_KPROBE | KPROF_CAP_KRETPROBE)) ?
	       "no: kprobe: and kretprobe: need kprobes or the function tracer" :
	       kp_has_kprobe_core(v) ? "kprobe:, kretprobe: and their sets" :
	       "kprobe:, kretprobe: and their sets, through ftrace alone");
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
	print_probes(d, recs, n);
	free(recs);
	if (v->abi_minor >= 8)
		printf("function sets:   %u at once, up to %u functions each\n",
		       v->max_sets, v->max_set_funcs);
	printf("histogram:       %u buckets, 1/%u resolution, up to 2^%u ns\n",
	       v->hist_nr_buckets, 1U << v->hist_sub_bits, v->hist_max_exp);
	printf("stats mapping:   %" PRIu64 " KiB of address space, backed as probes are added\n",
	       (uint64_t)(v->mmap_size >> 10));
	printf("netlink events:  %s\n", netlink_state());
	printf("events group:    %s\n", kp_events_group(v));
	print_boot_report(d);
	return 0;
}

int cmd_version(struct kp_dev *unused, int argc, char **argv)
{
	struct kp_dev d;

	(void)unused;
	(void)argc;
	(void)argv;
	printf("kprofctl %s (ABI %u.%u)\n", KPROFCTL_VERSION,
	       KPROF_ABI_MAJOR, KPROF_ABI_MINOR);
	if (!access(kp_dev_path, F_OK) && !kp_dev_open(&d, kp_dev_path)) {
		printf("module ABI %u.%u\n", d.ver.abi_major,
		       d.ver.abi_minor);
		printf("events group: %s\n", kp_events_group(&d.ver));
		kp_dev_close(&d);
	}
	return 0;
}
