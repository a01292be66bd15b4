// SPDX-License-Identifier: GPL-2.0
/* kprofctl list: one line per probe. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "show-set.h"
#include "spec.h"
#include "termsafe.h"
#include "watch.h"

enum { OPT_NETLINK = KP_OPT_BASE };

/* --netlink, described in the text, is matched exactly, not by getopt */
static const struct kp_opt list_opts[] = {
	{ "netlink", 0, no_argument, NULL, NULL, OPT_NETLINK, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_list = {
	.usage = "Usage: kprofctl list [--netlink]\n",
	.text =
"One line per probe: id, type, state, hits, missed, how it is hooked (via\n"
"ftrace, kprobes, kretprobes, tracepoint or perf), filters (pid=, cpus=,\n"
"key=retval,pid, if=retval<0&&cpu==3 ...), spec; a\n"
"function set adds its number of functions and of those skipped.\n"
"--netlink asks the generic netlink family (GET_PROBES dump) instead of\n"
"the device; it needs CAP_NET_ADMIN and adds slow calls dropped.\n",
	.opts = list_opts,
	.examples = "  kprofctl list\n  kprofctl list --netlink\n",
};

static void filters(const struct kprof_probe_info *r, char *buf, size_t len)
{
	char cpus[128];
	size_t used = 0;

	buf[0] = '\0';
	if (r->flags & KPROF_ADD_PID)
		used += snprintf(buf, len, "pid=%u ", r->pid);
	if (r->flags & KPROF_ADD_TGID)
		used += snprintf(buf, len, "tgid=%u ", r->pid);
	if (r->flags & KPROF_ADD_SESSION)
		used += snprintf(buf, len, "session=%u ", r->pid);
	if ((r->flags & KPROF_ADD_CPUS) && used < len) {
		kp_format_cpulist(r->cpus, cpus, sizeof(cpus));
		used += snprintf(buf + used, len - used, "cpus=%s ", cpus);
	}
	if (r->maxactive && (r->type == KPROF_TYPE_KRETPROBE ||
			     r->type == KPROF_TYPE_KRETPROBE_SET) && used < len)
		used += snprintf(buf + used, len - used, "maxactive=%u ",
				 r->maxactive);
	if (r->key[0] && used < len) {
		char k[32], k2[32];

		kp_key_format(r->key[0], k, sizeof(k));
		k2[0] = '\0';
		if (r->key[1])
			kp_key_format(r->key[1], k2, sizeof(k2));
		used += snprintf(buf + used, len - used, "key=%s%s%s ", k,
				 k2[0] ? "," : "", k2);
	}
	if (r->filter.nr && used < len) {
		char fl[256];

		kp_filter_format(&r->filter, fl, sizeof(fl));
		used += snprintf(buf + used, len - used, "if=%s ", fl);
	}
	/* deleted when the run or stat that added it ends, even killed */
	if ((r->flags & KPROF_ADD_OWNED) && used < len)
		used += snprintf(buf + used, len - used, "temporary ");
	if (used && used < len && buf[used - 1] == ' ')
		buf[used - 1] = '\0';
	if (!buf[0])
		snprintf(buf, len, "-");
}

int cmd_list(struct kp_dev *d, int argc, char **argv)
{
	struct kprof_probe_info *recs;
	unsigned int n, i;
	int ret, tw = 9;

	if (argc == 2 && !strcmp(argv[1], "--netlink"))
		return kp_nl_list();
	if (argc > 1)
		return kp_bad_usage(argv[0], "unexpected argument '%s'", argv[1]);
	if (kp_dev_ready(d))
		return 1;
	ret = kp_list_probes(d, &recs, &n);
	if (ret) {
		kp_explain(d, "list", "", -ret);
		return 1;
	}
	/* the TYPE column as wide as its widest name ("kretprobe-set") */
	for (i = 0; i < n; i++)
		if ((int)strlen(kp_type_name(recs[i].type)) > tw)
			tw = (int)strlen(kp_type_name(recs[i].type));
	if (!n)
		printf("no probes\n");
	else
		printf("%4s  %-*s  %-7s  %12s  %8s  %-10s  %-24s  %s\n", "ID",
		       tw, "TYPE", "STATE", "HITS", "MISSED", "VIA", "FILTERS",
		       "SPEC");
	for (i = 0; i < n; i++) {
		char f[384], set[80] = "", sf[4 * 384], ss[4 * KPROF_SPEC_LEN];
		unsigned int nskip, nfuncs, nk;

		filters(&recs[i], f, sizeof(f));
		/* the skipped ones are in the mapping's function table */
		if (kp_is_set(recs[i].type) &&
		    recs[i].state == KPROF_STATE_PENDING)
			snprintf(set, sizeof(set), "  (waiting for its module)");
		else if (kp_is_set(recs[i].type) && !kp_dev_map(d) &&
		    !kp_set_skips(&d->m, recs[i].id, NULL, 0, &nskip, &nfuncs)) {
			/* a fast set's kretprobes, for what ftrace cannot follow */
			nk = kp_set_kretprobes(&d->m, &recs[i]);
			if (nk)
				snprintf(set, sizeof(set),
					 "  (%u funcs, %u skipped, %u kretprobe%s)",
					 nfuncs, nskip, nk, nk == 1 ? "" : "s");
			else
				snprintf(set, sizeof(set),
					 "  (%u funcs, %u skipped)", nfuncs, nskip);
		} else if (kp_is_set(recs[i].type)) {
			snprintf(set, sizeof(set), "  (%u funcs)",
				 recs[i].nr_funcs);
		}
		printf("%4u  %-*s  %-7s  %12" PRIu64 "  %8" PRIu64 "  %-10s  %-24s  "
		       "%s%s\n", recs[i].id, tw, kp_type_name(recs[i].type),
		       kp_state_name(recs[i].state), (uint64_t)recs[i].hits,
		       (uint64_t)recs[i].nmissed,
		       recs[i].mech ? kp_mech_label(recs[i].type, recs[i].mech) :
				      "-", kp_term_safe(f, sf, sizeof(sf)),
		       kp_term_safe(recs[i].spec, ss, sizeof(ss)), set);
	}
	free(recs);
	return 0;
}

