// SPDX-License-Identifier: GPL-2.0
/*
 * kprofctl mem: where a module's memory goes, for TIME or while CMD
 * runs (a mem:MOD probe of this process's own, shown, then gone).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "builtin.h"
#include "probe-add.h"
#include "show.h"
#include "spec.h"
#include "units.h"

enum { OPT_JSON = KP_ADD_OPT_END, OPT_TOP, OPT_STACKS };

static const struct kp_opt mem_opts[] = {
	{ "duration", 'd', required_argument, "TIME",
	  "follow for TIME (e.g. 10s), without CMD; with neither,\n"
	  "until Ctrl-C", 'd', "-d, --duration TIME" },
	{ "output", 'o', required_argument, "FILE",
	  "write the table to FILE, not to stdout (CMD's)", 'o',
	  "-o, --output FILE" },
	{ "json", 0, no_argument, NULL, "as for show", OPT_JSON, NULL },
	{ "top", 0, required_argument, "N",
	  "only the N sites holding the most (live, then leaked)", OPT_TOP,
	  NULL },
	{ "stacks", 0, no_argument, NULL,
	  "sites are stacks: a slab allocation is MOD's when any\n"
	  "frame is (kvmalloc(), kasprintf() from MOD); costs a\n"
	  "stack walk per allocation of the whole kernel's", OPT_STACKS,
	  NULL },
	KP_OPT_OBJECTS,
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_mem = {
	.usage =
"Usage: kprofctl mem [-d TIME] [--json] [--top N] [--stacks] [--objects N]\n"
"                    [-o FILE] MOD [-- CMD [ARGS]]\n",
	.text =
"Follow the allocations made from module MOD's code (kmalloc, kzalloc,\n"
"krealloc, kmem_cache_alloc; vmalloc, vzalloc, vcalloc and kin; DMA\n"
"coherent buffers and streaming mappings, by direction; pages from\n"
"alloc_pages, __get_free_pages and kin; the call site in MOD's text,\n"
"its init included) and their frees wherever they happen,\n"
"then print them per call site: allocations, bytes, frees, what is live,\n"
"and what MOD leaked: the objects (and mappings) still live when it was\n"
"unloaded, with their bytes.  MOD need not be loaded yet: what its init\n"
"allocates is seen.  Through the kmem tracepoints and ftrace hooks, so\n"
"kernels without kprobes (the Rock 5B's stock one) do it.\n"
"Sites are named (func+0x1c) for root, and keep their names after MOD is\n"
"unloaded.  With --stacks a site is a stack, named by its first frame in\n"
"MOD and shown with its frames (root): allocations MOD makes through\n"
"others' helpers count too.  With CMD, exits with CMD's status.  The same\n"
"probe is 'kprofctl add mem:MOD [--key stack]', for show, save, diff and\n"
"report.\n",
	.opts = mem_opts,
	.width = 17,
	.examples =
"  kprofctl mem mydrv -- sh -c 'insmod mydrv.ko; ./exercise; rmmod mydrv'\n"
"  kprofctl mem -d 30s mydrv\n"
"  kprofctl mem --stacks mydrv -- sh -c 'modprobe mydrv; rmmod mydrv'\n"
"  kprofctl mem --json --top 10 mydrv -- ./mydrv-test.sh\n"
"  kprofctl add --start mem:mydrv; ...; kprofctl show\n",
};

struct mem_args {
	const char *mod;
	char **cmd;
	uint64_t duration;
	const char *output;
	struct kp_show_opts so;
	struct kp_add_opts ao;
};

static int mem_parse(int argc, char **argv, struct mem_args *a)
{
	struct option lo[KP_MAX_OPTS + 1];
	char why[256];
	uint64_t v;
	int opt, ret;

	kp_opts_build(mem_opts, lo);
	optind = 1;
	while (optind < argc) {
		if (!strcmp(argv[optind], "--")) {
			a->cmd = argv + optind + 1;
			break;
		}
		opt = getopt_long(argc, argv, "+d:o:", lo, NULL);
		if (opt == -1) {
			if (a->mod)
				return kp_bad_usage("mem", "one MOD, not '%s' "
						    "too (a command goes "
						    "after --)", argv[optind]);
			a->mod = argv[optind++];
			continue;
		}
		switch (opt) {
		case 'd':
			if (kp_parse_duration(optarg, &a->duration) ||
			    !a->duration) {
				kp_duration_error("-d", optarg, why,
						  sizeof(why));
				return kp_bad_usage("mem", "%s", why);
			}
			break;
		case 'o':
			a->output = optarg;
			break;
		case OPT_JSON:
			a->so.json = 1;
			break;
		case OPT_STACKS:
			a->ao.key[0] = "stack";
			a->ao.nr_key = 1;
			break;
		case OPT_TOP:
			if (kp_parse_u64(optarg, 1, 1U << 20, &v))
				return kp_bad_usage("mem", "--top takes a count "
						    "(1-1048576), not '%s'",
						    optarg);
			a->so.top = (unsigned int)v;
			break;
		case KP_ADD_OPT_OBJECTS:
			ret = kp_parse_add_opt("mem", opt, &a->ao);
			if (ret)
				return ret;
			break;
		default:
			return kp_bad_usage("mem", "%s", "unknown option");
		}
	}
	if (!a->mod)
		return kp_bad_usage("mem", "%s", "give the module: kprofctl mem "
				    "MOD [-- CMD]");
	if (a->cmd && !a->cmd[0])
		return kp_bad_usage("mem", "%s", "missing CMD after --");
	if (a->cmd && a->duration)
		return kp_bad_usage("mem", "%s", "-d and -- CMD exclude each "
				    "other: CMD's run is the duration");
	return 0;
}

/* until TIME passes or Ctrl-C, the probe following MOD meanwhile */
static void mem_wait(uint64_t duration)
{
	struct kp_tick t;
	uint64_t now;
	int r;

	kp_tick_init(&t, kp_tick_now(&t), 0, duration);
	t.sig = &kp_run_signal;
	do
		r = kp_tick_wait(&t, &now);
	while (r == KP_TICK_DUE || r == KP_TICK_WOKE);
}

int cmd_mem(struct kp_dev *d, int argc, char **argv)
{
	struct mem_args a = { 0 };
	struct sigaction sa;
	char spec[KPROF_SPEC_LEN], err[256];
	uint32_t id = 0;
	pid_t child = -1;
	int ret, status = 0;
	FILE *out = NULL;

	ret = mem_parse(argc, argv, &a);
	if (ret)
		return ret;
	snprintf(spec, sizeof(spec), "mem:%s", a.mod);
	if (kp_parse_spec(spec, err, sizeof(err)) != KPROF_TYPE_MEM)
		return kp_bad_usage("mem", "%s", err);
	if (kp_dev_ready(d))
		return 1;
	if (a.output) {
		out = kp_open_output("mem", a.output);
		if (!out)
			return 1;
		a.so.out = out;
	}
	if (a.cmd) {
		child = kp_launch_stopped("mem", a.cmd, d->fd, 1);
		if (child < 0) {
			ret = 1;
			goto out;
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kp_on_run_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* the probe is this process's: it goes with it, however it ends */
	a.ao.flags |= KPROF_ADD_START | kp_owned_flag(d);
	ret = kp_add_one(d, spec, &a.ao, &id);
	if (ret || kp_run_signal) {
		if (child > 0) {
			kp_kill_session(child);
			waitpid(child, NULL, 0);
		}
		ret = ret ? ret : 1;
		goto cleanup;
	}
	if (child > 0) {
		kill(child, SIGCONT);
		status = kp_wait_session("mem", child);
	} else {
		if (!a.duration && !a.so.json)
			fprintf(stderr, "following %s's allocations until "
				"Ctrl-C\n", a.mod);
		mem_wait(a.duration);
	}
	/* running still: stopped, its live objects would be let go */
	if (child > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		ret = 127;
		goto cleanup;
	}
	ret = kp_show_ids(d, &id, 1, &a.so) ? 1 :
	      child > 0 ? kp_exit_code(status) : 0;
	if (out && fflush(out)) {
		fprintf(stderr, "kprofctl mem: writing '%s': %s\n", a.output,
			strerror(errno));
		ret = 1;
	}
cleanup:
	if (id)
		kp_id_cmd(d, KPROF_IOC_DEL_PROBE, id);
out:
	if (out)
		fclose(out);
	return ret;
}
