// SPDX-License-Identifier: GPL-2.0
/* kprofctl run: profile one command, like perf stat. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "builtin.h"
#include "spec.h"

enum { OPT_JSON = KP_OPT_BASE, OPT_PERCPU, OPT_ALL, OPT_PID };

static const struct kp_opt run_opts[] = {
	{ "all", 0, no_argument, NULL,
	  "do not filter: record every caller while CMD runs", OPT_ALL, NULL },
	{ "pid", 0, required_argument, "P",
	  "filter on process P instead of CMD", OPT_PID, NULL },
	/* one line for both; the label keeps the column of the others */
	{ "json", 0, no_argument, NULL, "as for show", OPT_JSON,
	  "--json, --per-cpu  " },
	{ "per-cpu", 0, no_argument, NULL, NULL, OPT_PERCPU, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_run = {
	.usage =
"Usage: kprofctl run [--json] [--per-cpu] [--all | --pid P] SPEC... -- CMD [ARGS]\n",
	.text =
"Add the probes filtered to CMD's process, start them, run CMD, stop and\n"
"show, then delete the probes (also on errors and Ctrl-C).  Exits with\n"
"CMD's status.\n",
	.opts = run_opts,
	.width = 12,
	.examples =
"  kprofctl run kretprobe:vfs_read -- dd if=/dev/zero of=/dev/null count=10000\n"
"  kprofctl run --all kretprobe:mmc_blk_mq_issue_rq -- fio job.fio\n",
};

int cmd_run(struct kp_dev *d, int argc, char **argv)
{
	struct option lo[KP_MAX_OPTS + 1];
	struct kp_show_opts so = { 0 };
	struct kp_add_opts ao;
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
	kp_opts_build(run_opts, lo);
	optind = 1;
	while (optind < argc) {
		if (!strcmp(argv[optind], "--")) {
			cmd = argv + optind + 1;
			break;
		}
		opt = getopt_long(argc, argv, "+", lo, NULL);
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
				ret = kp_bad_usage("run", "--pid takes a pid (1-%d), not '%s'",
						   INT32_MAX, optarg);
				goto out;
			}
			ret = kp_need_pid("run", "--pid", (uint32_t)v);
			if (ret)
				goto out;
			ao.pid = (uint32_t)v;
			break;
		default:
			ret = kp_bad_usage("run", "%s", "unknown option");
			goto out;
		}
	}
	if (!cmd || !cmd[0]) {
		ret = kp_bad_usage("run", "%s", "missing '-- CMD'");
		goto out;
	}
	if (!nspecs) {
		ret = kp_bad_usage("run", "%s", "give at least one SPEC");
		goto out;
	}
	if (all && ao.pid) {
		ret = kp_bad_usage("run", "%s", "--all and --pid exclude each other");
		goto out;
	}
	for (i = 0; i < nspecs; i++) {
		char err[256];

		if (!kp_parse_spec(specs[i], err, sizeof(err))) {
			ret = kp_bad_usage("run", "%s", err);
			goto out;
		}
	}
	child = kp_launch_stopped("run", cmd, d->fd);
	if (child < 0) {
		ret = 1;
		goto out;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kp_on_run_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (!all) {
		ao.flags |= KPROF_ADD_TGID;
		if (!ao.pid)
			ao.pid = (uint32_t)child;
	}
	ao.flags |= KPROF_ADD_START | kp_owned_flag(d);
	for (i = 0; i < nspecs && !kp_run_signal; i++) {
		ret = kp_add_one(d, specs[i], &ao, &ids[nids]);
		if (ret)
			break;
		nids++;
	}
	if (ret || kp_run_signal) {
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
		if (w < 0 && errno == EINTR && kp_run_signal) {
			kill(child, kp_run_signal);
			continue;
		}
		if (w < 0 && errno != EINTR) {
			perror("kprofctl run: waitpid");
			break;
		}
	}
	for (i = 0; i < (int)nids; i++)
		kp_id_cmd(d, KPROF_IOC_STOP, ids[i]);
	/* 127: CMD could not be run, and said so */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		ret = 127;
	else
		ret = kp_show_ids(d, ids, nids, &so) ? 1 : kp_exit_code(status);
cleanup:
	for (i = 0; i < (int)nids; i++)
		kp_id_cmd(d, KPROF_IOC_DEL_PROBE, ids[i]);
out:
	free(specs);
	free(ids);
	return ret;
}
