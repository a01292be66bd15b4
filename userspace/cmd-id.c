// SPDX-License-Identifier: GPL-2.0
/* kprofctl del, start, stop, reset: one probe by id, or all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

const struct kp_help kp_help_del = {
	.usage = "Usage: kprofctl del ID|all\n",
	.text = "Unregister a probe, or every probe.\n",
	.examples = "  kprofctl del 3\n  kprofctl del all\n",
};

const struct kp_help kp_help_start = {
	.usage = "Usage: kprofctl start [ID]\n",
	.text =
"Arm one probe, or every probe whose target is still there.  Without ID\n"
"and with no probes at all it says so and exits with 1.\n",
	.examples = "  kprofctl start\n  kprofctl start 2\n",
};

const struct kp_help kp_help_stop = {
	.usage = "Usage: kprofctl stop [ID]\n",
	.text =
"Disarm one probe, or all.  When it returns no handler is still\n"
"recording, so a following show is stable.\n",
	.examples = "  kprofctl stop\n",
};

const struct kp_help kp_help_reset = {
	.usage = "Usage: kprofctl reset [ID]\n",
	.text = "Zero the statistics of one probe, or all.\n",
	.examples = "  kprofctl reset\n  kprofctl reset 1\n",
};

static int cmd_id(struct kp_dev *d, int argc, char **argv, unsigned long ioc,
		  int need_arg)
{
	const char *cmd = argv[0];
	uint32_t id;
	int ret;

	if (argc > 2)
		return kp_bad_usage(cmd, "unexpected argument '%s'", argv[2]);
	if (need_arg && argc < 2)
		return kp_bad_usage(cmd, "%s", "missing ID (or 'all')");
	ret = kp_parse_id(cmd, argc > 1 ? argv[1] : NULL, 1, &id);
	if (ret)
		return ret;
	if (kp_dev_ready(d))
		return 1;
	/* "start" of nothing used to succeed silently */
	if (ioc == KPROF_IOC_START && !id) {
		struct kprof_probe_info *recs;
		unsigned int n;

		if (!kp_list_probes(d, &recs, &n)) {
			free(recs);
			if (!n) {
				fprintf(stderr, "kprofctl start: no probes (add one: "
					"kprofctl add SPEC)\n");
				return 1;
			}
		}
	}
	ret = kp_id_cmd(d, ioc, id);
	if (ret) {
		kp_explain(d, cmd, argc > 1 ? argv[1] : "all", -ret);
		return 1;
	}
	return 0;
}

int cmd_del(struct kp_dev *d, int argc, char **argv)
{
	return cmd_id(d, argc, argv, KPROF_IOC_DEL_PROBE, 1);
}

int cmd_start(struct kp_dev *d, int argc, char **argv)
{
	return cmd_id(d, argc, argv, KPROF_IOC_START, 0);
}

int cmd_stop(struct kp_dev *d, int argc, char **argv)
{
	return cmd_id(d, argc, argv, KPROF_IOC_STOP, 0);
}

int cmd_reset(struct kp_dev *d, int argc, char **argv)
{
	return cmd_id(d, argc, argv, KPROF_IOC_RESET, 0);
}
