// SPDX-License-Identifier: GPL-2.0
/* kprofctl top: the busiest probes and keys, live (top.c does the work). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "spec.h"
#include "capture.h"
#include "top.h"

enum {
	OPT_ONCE = KP_OPT_BASE, OPT_PLAIN, OPT_JSON, OPT_SORT, OPT_NO_KEYS,
	OPT_KEYS, OPT_CLUSTERS, OPT_FROM
};

static const struct kp_opt top_opts[] = {
	{ "interval", 'i', required_argument, "TIME",
	  "refresh every TIME (10ms-3600s, e.g. 500ms or 2s: the unit\n"
	  "is required); rates are over it.  Default: 1s", 'i', NULL },
	{ "duration", 'd', required_argument, "TIME",
	  "stop after TIME (1ms-86400s, e.g. 30s)", 'd', NULL },
	{ "count", 'n', required_argument, "N", "stop after N intervals", 'n',
	  NULL },
	{ "once", 0, no_argument, NULL,
	  "one table after one interval, then exit (-n 1, plain)",
	  OPT_ONCE, NULL },
	{ "plain", 0, no_argument, NULL,
	  "a plain table per interval even on a terminal (the\n"
	  "default when standard output is not one): no control codes",
	  OPT_PLAIN, NULL },
	{ "json", 0, no_argument, NULL,
	  "one JSON object per interval: {\"t_ns\",\"interval_ns\",\"sort\",\n"
	  "\"probes\":[{\"id\",\"spec\",\"type\",\"rate\",\"count\",\"total\",\n"
	  "[\"p99_ns\",\"mean_ns\"],[\"clusters\":[{\"name\",\"rate\",\"count\"}]],\n"
	  "[\"keys\"|\"functions\":[{\"name\",...}]]}]}; rate and count are\n"
	  "null for a probe new (or reset) in the interval", OPT_JSON, NULL },
	{ "sort", 0, required_argument, "KEY",
	  "rate (the default), total, p99 or name; 's' cycles them", OPT_SORT,
	  NULL },
	{ "keys", 0, required_argument, "N",
	  "the N busiest keys (pairs, --key probes) or functions\n"
	  "(sets) under each probe (default 5); 'k' hides them",
	  OPT_KEYS, NULL },
	{ "no-keys", 0, no_argument, NULL, "probes only, no key rows",
	  OPT_NO_KEYS, NULL },
	{ "no-clusters", 0, no_argument, NULL,
	  "no per-cluster rate columns (shown when the CPUs are of\n"
	  "more than one core type); 'c' toggles them", OPT_CLUSTERS, NULL },
	{ "from", 0, required_argument, "FILE",
	  "replay a recording (kprofctl record) instead of the device:\n"
	  "one recorded interval per refresh (-i: default the\n"
	  "recording's interval), ending with it", OPT_FROM, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_top = {
	.usage =
"Usage: kprofctl top [-i TIME] [-d TIME] [-n N] [--once] [--plain] [--json]\n"
"                    [--sort KEY] [--keys N] [--no-keys] [--no-clusters]\n"
"                    [--from FILE]\n",
	.text =
"The busiest probes, and under each its busiest keys or functions, with\n"
"the calls per second over the last interval (RATE/s, and per cluster,\n"
"e.g. A55/s A76/s), the calls so far (TOTAL), and the p99 and mean\n"
"latency of the interval's calls.  Read from the statistics mapping.  A\n"
"probe added or reset during an interval shows no rate (-) until the next.\n"
"On a terminal the view refreshes in place: q quits, p pauses (values\n"
"freeze), s cycles the sort, c toggles the cluster columns, k the keys,\n"
"? lists the keys; rows that do not fit are counted (+N more), and on a\n"
"narrow terminal the names are shortened before a column is lost.  With\n"
"--from the heading gives the time within the recording.\n"
"Otherwise (or --plain) a plain table per interval, without control codes.\n",
	.opts = top_opts,
	.width = 16,
	.examples =
"  kprofctl add kretprobe:vfs_read --start; kprofctl top\n"
"  kprofctl top --once -i 2s\n"
"  kprofctl top --json -n 10 --sort p99 > top.jsonl\n"
"  kprofctl record -i 1s -d 60s -o run.json; kprofctl top --from run.json\n",
};

/* the device's mapping, copied each interval (no ioctl) */
struct live {
	struct kp_dev *d;
	struct kprof_probe_info *recs;
};

static int live_next(void *ctx, const struct kp_map **m,
		     const struct kprof_probe_info **recs, unsigned int *n,
		     uint64_t *t_ns)
{
	struct live *l = ctx;

	if (kp_map_probes(&l->d->m, l->recs, l->d->m.hdr->max_probes, n)) {
		fprintf(stderr, "kprofctl top: the probe table never settled\n");
		return -1;
	}
	*t_ns = kp_now_ns();
	*m = &l->d->m;
	*recs = l->recs;
	return 0;
}

/*
 * A recording replayed: the state before it, then each interval added on
 * (kp_map_add), at the recording's times.
 */
struct replay {
	const struct kp_capture *c;
	void *cum;
	struct kp_map m;
	struct kprof_probe_info *recs;
	unsigned int next;	/* intervals added so far */
};

static int replay_next(void *ctx, const struct kp_map **m,
		       const struct kprof_probe_info **recs, unsigned int *n,
		       uint64_t *t_ns)
{
	struct replay *r = ctx;
	const struct kp_cap_interval *iv;

	if (r->next > r->c->nr_iv)
		return 1;
	if (r->next) {
		iv = &r->c->iv[r->next - 1];
		kp_map_add(&r->m, r->cum, iv->buf);
		*t_ns = iv->t_ns;
	} else {
		*t_ns = 0;
	}
	r->next++;
	if (kp_map_probes(&r->m, r->recs, r->m.hdr->max_probes, n))
		return -1;
	*m = &r->m;
	*recs = r->recs;
	return 0;
}

static int replay_init(struct replay *r, const struct kp_capture *c)
{
	const struct kprof_mmap_header *h = c->m.hdr;
	char err[128];

	memset(r, 0, sizeof(*r));
	r->c = c;
	if (!c->nr_iv) {
		fprintf(stderr, "kprofctl top: the capture has no intervals: "
			"kprofctl record makes them\n");
		return -1;
	}
	/* the layout and header of the capture, no counts */
	r->cum = calloc(1, c->m.size);
	r->recs = calloc(h->max_probes, sizeof(*r->recs));
	if (!r->cum || !r->recs) {
		fprintf(stderr, "kprofctl top: out of memory\n");
		return -1;
	}
	memcpy(r->cum, c->m.base, h->header_size);
	/* the probes as they were at the start: there, and no calls yet */
	memcpy((uint8_t *)r->cum + h->probes_off, c->m.base + h->probes_off,
	       (size_t)h->max_probes * h->probe_rec_size);
	if (kp_map_init(&r->m, r->cum, c->m.size, err, sizeof(err))) {
		fprintf(stderr, "kprofctl top: %s\n", err);
		return -1;
	}
	return 0;
}

/* -i (10ms-3600s) or -d (1ms-86400s) into ns; 0 or the usage error 2 */
static int top_time(int opt, const char *arg, uint64_t *ns)
{
	uint64_t min = opt == 'i' ? 10000000ull : 1000000ull;
	uint64_t max = (opt == 'i' ? 3600ull : 86400ull) * 1000000000ull;
	char why[160];

	if (kp_parse_duration(arg, ns)) {
		kp_duration_error(opt == 'i' ? "-i" : "-d", arg, why, sizeof(why));
		return kp_bad_usage("top", "%s", why);
	}
	if (*ns < min || *ns > max)
		return kp_bad_usage("top", "%s takes %s, not '%s'",
				    opt == 'i' ? "-i" : "-d",
				    opt == 'i' ? "10ms-3600s" : "1ms-86400s", arg);
	return 0;
}

/* top --from FILE: a recording's intervals, one per refresh */
static int top_from(const char *path, struct kp_top_opts *o, int plain,
		    int interval_set)
{
	static struct kp_capture c;
	struct kp_top_src src;
	struct replay r;
	char err[256];
	int ret = 1;

	if (kp_capture_load(&c, path, err, sizeof(err))) {
		fprintf(stderr, "kprofctl top: %s: %s\n", path, err);
		return 1;
	}
	if (replay_init(&r, &c))
		goto out;
	if (!interval_set && c.interval_ns >= 10000000ull)
		o->interval_ns = c.interval_ns;
	o->topo = c.topo.nr_clusters > 1 ? &c.topo : NULL;
	o->interactive = !plain && !o->json && isatty(STDOUT_FILENO) &&
			 isatty(STDIN_FILENO);
	o->in_fd = STDIN_FILENO;
	o->out = stdout;
	/* the screen's time is within the recording, not the wall clock */
	o->replay_ns = c.nr_iv ? c.iv[c.nr_iv - 1].t_ns : 1;
	src.next = replay_next;
	src.ctx = &r;
	ret = kp_top_run(&src, o);
out:
	free(r.cum);
	free(r.recs);
	kp_capture_free(&c);
	return ret;
}

/* top on the device's probes */
static int top_live(struct kp_dev *d, struct kp_top_opts *o, int plain)
{
	static struct kp_topo topo;
	struct kp_top_src src;
	struct live l = { .d = d };
	unsigned int n;
	int ret;

	if (kp_dev_map(d))
		return 1;
	l.recs = calloc(d->m.hdr->max_probes ? d->m.hdr->max_probes : 1,
			sizeof(*l.recs));
	if (!l.recs) {
		fprintf(stderr, "kprofctl top: out of memory\n");
		return 1;
	}
	if (kp_map_probes(&d->m, l.recs, d->m.hdr->max_probes, &n)) {
		fprintf(stderr, "kprofctl top: the probe table never settled\n");
		free(l.recs);
		return 1;
	}
	if (!n) {
		fprintf(stderr, "kprofctl top: no probes; add one first, e.g.\n"
			"  kprofctl add kretprobe:vfs_read --start\n");
		free(l.recs);
		return 1;
	}
	kp_topo_load(&topo, kp_sysfs_root(), d->ver.nr_cpus);
	/* one cluster: its column would repeat RATE/s */
	o->topo = topo.nr_clusters > 1 ? &topo : NULL;
	o->interactive = !plain && !o->json && isatty(STDOUT_FILENO) &&
			 isatty(STDIN_FILENO);
	o->in_fd = STDIN_FILENO;
	o->out = stdout;
	src.next = live_next;
	src.ctx = &l;
	ret = kp_top_run(&src, o);
	free(l.recs);
	return ret;
}

/* the device is opened here, after the options: top --from needs none */
int cmd_top(struct kp_dev *unused, int argc, char **argv)
{
	struct kp_top_opts o = { .interval_ns = 1000000000ull, .keys = 1,
				 .clusters = 1 };
	struct option lo[KP_MAX_OPTS + 1];
	struct kp_dev dev;
	int opt, plain = 0, ret, interval_set = 0;
	const char *from = NULL;
	char shorts[40];
	uint64_t v;

	(void)unused;
	kp_opts_build(top_opts, lo);
	kp_opts_short(top_opts, shorts, sizeof(shorts));
	optind = 1;
	while ((opt = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		switch (opt) {
		case 'i':
			interval_set = 1;
			/* fall through */
		case 'd':
			ret = top_time(opt, optarg,
				       opt == 'i' ? &o.interval_ns : &o.duration_ns);
			if (ret)
				return ret;
			break;
		case 'n':
			if (kp_parse_u64(optarg, 1, UINT32_MAX, &v))
				return kp_bad_usage("top", "-n takes a number of "
						    "intervals, not '%s'", optarg);
			o.count = (unsigned int)v;
			break;
		case OPT_ONCE:
			o.count = 1;
			plain = 1;
			break;
		case OPT_PLAIN:
			plain = 1;
			break;
		case OPT_JSON:
			o.json = 1;
			break;
		case OPT_SORT:
			o.sort = kp_top_sort_parse(optarg);
			if (o.sort < 0)
				return kp_bad_usage("top", "--sort takes rate, total, "
						    "p99 or name, not '%s'", optarg);
			break;
		case OPT_KEYS:
			if (kp_parse_u64(optarg, 1, KP_TOP_TRACK, &v))
				return kp_bad_usage("top", "--keys takes 1-%u, not '%s'",
						    KP_TOP_TRACK, optarg);
			o.nkeys = (unsigned int)v;
			o.keys = 1;
			break;
		case OPT_NO_KEYS:
			o.keys = 0;
			break;
		case OPT_CLUSTERS:
			o.clusters = 0;
			break;
		case OPT_FROM:
			from = optarg;
			break;
		default:
			return kp_bad_usage("top", "%s", "unknown option");
		}
	}
	if (optind < argc)
		return kp_bad_usage("top", "unexpected argument '%s'", argv[optind]);
	if (from)
		return top_from(from, &o, plain, interval_set);
	/* after the options: a usage error is one, module or not */
	if (kp_dev_open(&dev, kp_dev_path))
		return 1;
	ret = top_live(&dev, &o, plain);
	kp_dev_close(&dev);
	return ret;
}
