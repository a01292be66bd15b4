// SPDX-License-Identifier: GPL-2.0
/* kprofctl save: every probe's statistics into a capture (capture.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "capture.h"
#include "spec.h"

static const struct kp_opt save_opts[] = {
	{ NULL, 0, 0, "FILE", "where to write (- is stdout)", 0, NULL },
	{ NULL, 0, 0, "ID", "only these probes (default: every probe)", 0,
	  NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_save = {
	.usage = "Usage: kprofctl save FILE [ID...]\n",
	.text =
"Write every probe's statistics to FILE as one JSON document (format\n"
"\"kprofctl-capture\", version 1; userspace/kprofctl-capture.schema.json):\n"
"exact histogram buckets per CPU, keys, functions of sets, stacks of\n"
"profiles (as names, when you may read kernel addresses), PMU per-call\n"
"histograms and window totals, and the context: kernel, machine, CPU\n"
"clusters and PMUs, module ABI, probe specs and options, losses.\n"
"show --from, diff and report read it on any machine.\n",
	.opts = save_opts,
	.width = 6,
	.examples =
"  kprofctl save before.json\n"
"  kprofctl save - 3 | gzip > probe3.json.gz\n"
"  kprofctl show --from before.json --by-cluster\n"
"  kprofctl diff before.json after.json --fail-if 'p99>+10%'\n",
};

int cmd_save(struct kp_dev *d, int argc, char **argv)
{
	uint32_t *ids = NULL;
	unsigned int n;
	int ret;

	if (argc > 1 && argv[1][0] == '-' && argv[1][1])
		return kp_bad_usage("save", "unknown option '%s'", argv[1]);
	if (argc < 2)
		return kp_bad_usage("save", "%s", "missing FILE");
	ret = kp_cap_parse_ids("save", argc - 2, argv + 2, &ids, &n);
	if (!ret && kp_dev_ready(d))
		ret = 1;
	if (ret) {
		free(ids);
		return ret;
	}
	ret = kp_cap_ids_exist(d, "save", ids, n);
	if (!ret)
		ret = kp_capture_save(argv[1], d, ids, n, 0, NULL);
	if (!ret && strcmp(argv[1], "-"))
		fprintf(stderr, "kprofctl save: wrote %s\n", argv[1]);
	free(ids);
	return ret;
}
