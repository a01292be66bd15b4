// SPDX-License-Identifier: GPL-2.0
/* kprofctl run: profile one command, like perf stat. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "builtin.h"
#include "json.h"
#include "probe-add.h"
#include "show.h"
#include "spec.h"

enum {
	OPT_JSON = KP_ADD_OPT_END, OPT_PERCPU, OPT_ALL, OPT_RUNPID,
	OPT_NOINHERIT
};

static const struct kp_opt run_opts[] = {
	{ "all", 0, no_argument, NULL,
	  "do not filter: record every caller while CMD runs", OPT_ALL, NULL },
	{ "pid", 0, required_argument, "P",
	  "filter on process P instead of CMD", OPT_RUNPID, NULL },
	{ "no-inherit", 0, no_argument, NULL,
	  "only CMD's own process, not the children it starts", OPT_NOINHERIT,
	  NULL },
	{ "output", 'o', required_argument, "FILE",
	  "write the statistics to FILE, not to stdout (CMD's)", 'o',
	  "-o, --output FILE" },
	/* one line for both; the label keeps the column of the others */
	{ "json", 0, no_argument, NULL, "as for show", OPT_JSON,
	  "--json, --per-cpu" },
	{ "per-cpu", 0, no_argument, NULL, NULL, OPT_PERCPU, NULL },
	KP_OPT_MAXACTIVE,
	KP_OPT_FAST,
	KP_OPT_KRETPROBE,
	KP_OPT_CPUS,
	KP_OPT_PMU,
	KP_OPT_SLOW,
	KP_OPT_STACK,
	KP_OPT_DEFER,
	KP_OPT_PERPID,
	KP_OPT_KEY,
	KP_OPT_KEYS,
	KP_OPT_OBJECTS,
	KP_OPT_IF,
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_run = {
	.usage =
"Usage: kprofctl run [--json] [--per-cpu] [-o FILE] [--all | --pid P |\n"
"                    --no-inherit] [add's options] SPEC... -- CMD [ARGS]\n",
	.text =
"Add the probes filtered to CMD and every process it starts, start them,\n"
"run CMD, stop and show, then delete the probes (also on errors and\n"
"Ctrl-C).  CMD runs as the leader of a session of its own, which is what\n"
"is followed: a descendant that calls setsid() (a daemon) leaves it, and\n"
"CMD has no controlling terminal (its stdin, stdout and stderr stay).\n"
"The output says what was followed.  A first Ctrl-C goes to CMD's\n"
"process group; a second one, or SIGTERM, kills CMD's whole session.\n"
"Exits with CMD's status.\n",
	.opts = run_opts,
	.width = 17,
	.examples =
"  kprofctl run kretprobe:vfs_read -- dd if=/dev/zero of=/dev/null count=10000\n"
"  kprofctl run kretprobe:mydrv_xfer -- ./mydrv-test.sh\n"
"  kprofctl run --json -o stats.json kretprobe:mydrv_xfer -- ./mydrv-test.sh | less\n"
"  kprofctl run --maxactive 512 --slow 2ms kretprobe:mydrv_xfer -- fio job.fio\n"
"  kprofctl run --all kretprobe:mmc_blk_mq_issue_rq -- fio job.fio\n",
};

/* what the filter follows, as the output says it */
enum { FOLLOW_SESSION, FOLLOW_PROCESS, FOLLOW_PID, FOLLOW_ALL };

struct followed {
	int follow;
	uint32_t pid;
};

/* run --json's "followed":{"what","pid"} after the probes */
static void json_followed(struct kp_jw *w, const void *ctx)
{
	const struct followed *fl = ctx;

	kp_jw_name(w, "followed");
	kp_jw_start_object(w);
	if (fl->follow == FOLLOW_ALL) {
		kp_jw_string_field(w, "what", "all");
	} else {
		kp_jw_string_field(w, "what", fl->follow == FOLLOW_SESSION ?
				   "session" : "process");
		kp_jw_u64_field(w, "pid", fl->pid);
	}
	kp_jw_end_object(w);
}

static void say_followed(FILE *f, int follow, uint32_t pid)
{
	switch (follow) {
	case FOLLOW_SESSION:
		fprintf(f, "following the command's session (pid %u and its "
			"children)\n", pid);
		break;
	case FOLLOW_PROCESS:
		fprintf(f, "following the command's process only (pid %u, "
			"--no-inherit)\n", pid);
		break;
	case FOLLOW_PID:
		fprintf(f, "following process %u (--pid)\n", pid);
		break;
	default:
		fprintf(f, "following every caller (--all)\n");
	}
}

int cmd_run(struct kp_dev *d, int argc, char **argv)
{
	struct option lo[KP_MAX_OPTS + 1];
	struct kp_show_opts so = { 0 };
	struct kp_add_opts ao;
	int all = 0, noinherit = 0, opt, nspecs = 0, i, ret = 0, status = 0;
	int follow;
	uint32_t *ids, runpid = 0;
	unsigned int nids = 0;
	char **specs, **cmd = NULL;
	struct followed fl;
	const char *output = NULL;
	struct sigaction sa;
	FILE *out = NULL;
	pid_t child;
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
		opt = getopt_long(argc, argv, "+o:", lo, NULL);
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
		case OPT_NOINHERIT:
			noinherit = 1;
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_RUNPID:
			if (kp_parse_u64(optarg, 1, INT32_MAX, &v)) {
				ret = kp_bad_usage("run", "--pid takes a pid (1-%d), not '%s'",
						   INT32_MAX, optarg);
				goto out;
			}
			ret = kp_need_pid("run", "--pid", (uint32_t)v);
			if (ret)
				goto out;
			runpid = (uint32_t)v;
			break;
		case '?':
			ret = kp_bad_usage("run", "%s", "unknown option");
			goto out;
		default:
			/* add's options, as add parses them */
			ret = kp_parse_add_opt("run", opt, &ao);
			if (ret)
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
	if (all + !!runpid + noinherit > 1) {
		ret = kp_bad_usage("run", "%s",
				   "--all, --pid and --no-inherit exclude each other");
		goto out;
	}
	for (i = 0; i < nspecs; i++) {
		char err[256];

		if (!kp_is_pair(specs[i]) &&
		    !kp_parse_spec(specs[i], err, sizeof(err))) {
			ret = kp_bad_usage("run", "%s", err);
			goto out;
		}
	}
	if (kp_dev_ready(d)) {
		ret = 1;
		goto out;
	}
	follow = all ? FOLLOW_ALL : runpid ? FOLLOW_PID :
		noinherit ? FOLLOW_PROCESS : FOLLOW_SESSION;
	if (follow == FOLLOW_SESSION && d->ver.abi_minor < 7) {
		fprintf(stderr, "kprofctl run: the module (ABI 1.%u) cannot follow "
			"a session (ABI 1.7): following the command's process "
			"only, as --no-inherit\n", d->ver.abi_minor);
		follow = FOLLOW_PROCESS;
	}
	if (output) {
		/* before CMD runs, so that a bad FILE costs nothing */
		out = kp_open_output("run", output);
		if (!out) {
			ret = 1;
			goto out;
		}
		so.out = out;
	}
	/* always a session: it is the tree that a second Ctrl-C kills */
	child = kp_launch_stopped("run", cmd, d->fd, 1);
	if (child < 0) {
		ret = 1;
		goto out;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kp_on_run_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	switch (follow) {
	case FOLLOW_SESSION:
		ao.flags |= KPROF_ADD_SESSION;
		ao.pid = (uint32_t)child;
		break;
	case FOLLOW_PROCESS:
		ao.flags |= KPROF_ADD_TGID;
		ao.pid = (uint32_t)child;
		break;
	case FOLLOW_PID:
		ao.flags |= KPROF_ADD_TGID;
		ao.pid = runpid;
		break;
	}
	ao.flags |= KPROF_ADD_START | kp_owned_flag(d);
	for (i = 0; i < nspecs && !kp_run_signal; i++) {
		ret = kp_add_one(d, specs[i], &ao, &ids[nids]);
		if (ret)
			break;
		nids++;
	}
	if (ret || kp_run_signal) {
		kp_kill_session(child);
		waitpid(child, NULL, 0);
		ret = ret ? ret : 1;
		goto cleanup;
	}
	kill(child, SIGCONT);
	status = kp_wait_session("run", child);
	for (i = 0; i < (int)nids; i++)
		kp_id_cmd(d, KPROF_IOC_STOP, ids[i]);
	/* 127: CMD could not be run, and said so */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		ret = 127;
		goto cleanup;
	}
	fl.follow = follow;
	fl.pid = ao.pid;
	if (so.json) {
		so.json_more = json_followed;
		so.json_more_ctx = &fl;
	} else {
		say_followed(out ? out : stdout, follow, ao.pid);
	}
	ret = kp_show_ids(d, ids, nids, &so) ? 1 : kp_exit_code(status);
	if (out && fflush(out)) {
		fprintf(stderr, "kprofctl run: writing '%s': %s\n", output,
			strerror(errno));
		ret = 1;
	}
cleanup:
	for (i = 0; i < (int)nids; i++)
		kp_id_cmd(d, KPROF_IOC_DEL_PROBE, ids[i]);
out:
	if (out)
		fclose(out);
	free(specs);
	free(ids);
	return ret;
}
