// SPDX-License-Identifier: GPL-2.0
/* kprofctl export: the statistics as Prometheus or OpenMetrics text. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "capture.h"
#include "prom.h"
#include "prom-render.h"
#include "source.h"
#include "units.h"

enum { OPT_FROM = KP_OPT_BASE, OPT_OM, OPT_MAX, OPT_OUT = 'o' };

static const struct kp_opt export_opts[] = {
	{ NULL, 0, 0, "ID", "only these probes (default: every probe)", 0,
	  NULL },
	{ "output", 'o', required_argument, "FILE",
	  "write FILE atomically (a temporary file beside it, then\n"
	  "rename): node_exporter's textfile collector reads *.prom",
	  OPT_OUT, NULL },
	{ "openmetrics", 0, no_argument, NULL,
	  "OpenMetrics 1.0 text instead of the text format 0.0.4",
	  OPT_OM, NULL },
	{ "max-series", 0, required_argument, "N",
	  "at most N series per metric family (default 10000, 0: no\n"
	  "limit); the least busy keys and functions beyond it are\n"
	  "left out, said on stderr and in kprofctl_export_series_cut",
	  OPT_MAX, NULL },
	{ "from", 0, required_argument, "FILE",
	  "a capture (kprofctl save, record) instead of the device",
	  OPT_FROM, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_export = {
	.usage =
"Usage: kprofctl export [ID...] [-o FILE] [--openmetrics] [--max-series N]\n"
"                       [--from FILE]\n",
	.text =
"Print every probe's statistics as Prometheus metrics, read from the\n"
"statistics mapping as show reads them: kprofctl_probe_calls_total,\n"
"_missed_total, _samples_total and kprofctl_probe_latency_seconds (a\n"
"histogram whose le edges are kprofctl's own buckets, in seconds), per\n"
"cluster (kprofctl_cluster_*), per key (kprofctl_key_*), per function of\n"
"a set (kprofctl_function_*), PMU window totals (kprofctl_pmu_events_total)\n"
"and kprofctl_info (kernel, machine, module ABI, version).  Labels: id,\n"
"spec, kind, and cluster, key, function, event, cpu where they apply.\n",
	.opts = export_opts,
	.width = 16,
	.examples =
"  kprofctl export\n"
"  kprofctl export 3 --openmetrics\n"
"  kprofctl export -o /var/lib/prometheus/node-exporter/kprofctl.prom\n"
"  kprofctl export --from before.json --max-series 500\n",
};

/*
 * out as path's contents, atomically: written to a temporary file in
 * path's directory (a name node_exporter's *.prom glob skips), then
 * renamed over path.  0, or 1 after why.
 */
static int write_atomic(struct kp_dev *d, const uint32_t *ids,
			unsigned int n, struct kp_prom_opts *p,
			const char *path)
{
	size_t len = strlen(path) + sizeof(".tmp.XXXXXX");
	char *tmp = malloc(len);
	int fd, ret;
	FILE *f;

	if (!tmp)
		return 1;
	snprintf(tmp, len, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "kprofctl export: cannot create a file beside "
			"'%s': %s\n", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return 1;
	}
	/* mkstemp's 0600: the collector may run as another user */
	ret = kp_prom_render(d, ids, n, p, f);
	if (!ret && (fchmod(fd, 0644) || fflush(f) || fsync(fd))) {
		fprintf(stderr, "kprofctl export: cannot write '%s': %s\n", tmp,
			strerror(errno));
		ret = 1;
	}
	if (fclose(f) && !ret) {
		fprintf(stderr, "kprofctl export: cannot write '%s': %s\n", tmp,
			strerror(errno));
		ret = 1;
	}
	if (!ret && rename(tmp, path)) {
		fprintf(stderr, "kprofctl export: cannot rename '%s' to '%s': "
			"%s\n", tmp, path, strerror(errno));
		ret = 1;
	}
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

/* every ID given names a probe of d; 0, or 1 after why */
static int ids_exist(struct kp_dev *d, const uint32_t *ids, unsigned int n)
{
	struct kprof_probe_info info;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (kp_src_probe(d, ids[i], &info)) {
			fprintf(stderr, "kprofctl export: no probe with id %u "
				"(kprofctl list shows them)\n", ids[i]);
			return 1;
		}
	}
	return 0;
}

int cmd_export(struct kp_dev *d, int argc, char **argv)
{
	struct kp_prom_opts p = { .max_series = KP_PROM_MAX_SERIES,
				  .cmd = "export" };
	struct option lo[KP_MAX_OPTS + 1];
	const char *from = NULL, *out = NULL;
	struct kp_capture cap;
	struct kp_dev fd;
	unsigned int n = 0;
	uint32_t *ids = NULL;
	char **ops, shorts[16], err[256];
	int nops = 0;
	uint64_t v;
	int opt, ret;

	kp_opts_build(export_opts, lo);
	kp_opts_short(export_opts, shorts, sizeof(shorts));
	/* IDs may stand before, between or after the options */
	ops = calloc((size_t)argc + 1, sizeof(*ops));
	if (!ops)
		return 1;
	optind = 1;
	for (;;) {
		opt = getopt_long(argc, argv, shorts, lo, NULL);
		if (opt == -1) {
			if (optind < argc && strcmp(argv[optind - 1], "--")) {
				ops[nops++] = argv[optind++];
				continue;
			}
			break;
		}
		if (opt == OPT_OUT) {
			out = optarg;
		} else if (opt == OPT_OM) {
			p.openmetrics = 1;
		} else if (opt == OPT_FROM) {
			from = optarg;
		} else if (opt == OPT_MAX) {
			if (kp_parse_u64(optarg, 0, UINT32_MAX, &v)) {
				free(ops);
				return kp_bad_usage("export", "--max-series takes a "
						    "count (0: no limit), not '%s'",
						    optarg);
			}
			p.max_series = (unsigned int)v;
		} else {
			free(ops);
			return kp_bad_usage("export", "%s", "unknown option");
		}
	}
	while (optind < argc)
		ops[nops++] = argv[optind++];
	ret = kp_cap_parse_ids("export", nops, ops, &ids, &n);
	free(ops);
	if (ret)
		return ret;
	if (from) {
		if (kp_capture_load(&cap, from, err, sizeof(err))) {
			fprintf(stderr, "kprofctl export: %s: %s\n", from, err);
			free(ids);
			return 1;
		}
		kp_dev_from_capture(&fd, &cap);
		d = &fd;
	}
	ret = kp_dev_map(d) ? 1 : ids_exist(d, ids, n);
	if (!ret && out)
		ret = write_atomic(d, ids, n, &p, out);
	else if (!ret)
		ret = kp_prom_render(d, ids, n, &p, stdout);
	if (from)
		kp_capture_free(&cap);
	free(ids);
	return ret;
}
