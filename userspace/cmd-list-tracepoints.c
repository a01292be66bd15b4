// SPDX-License-Identifier: GPL-2.0
/* kprofctl list-tracepoints: what 'add tracepoint:' can attach to. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

const struct kp_help kp_help_list_tp = {
	.usage = "Usage: kprofctl list-tracepoints [GLOB]\n",
	.text =
"Print the tracepoints of the kernel and of loaded modules that 'add\n"
"tracepoint:SUBSYS:NAME' can attach to, as SUBSYS:NAME (SUBSYS from tracefs\n"
"when it is mounted, else '*'), sorted.  GLOB filters on NAME or\n"
"SUBSYS:NAME.\n",
	.examples = "  kprofctl list-tracepoints\n  kprofctl list-tracepoints 'irq*'\n"
"  kprofctl list-tracepoints 'block:*'\n",
};

struct tp_name {
	const char *name;
	char sys[64];
};

static int tp_cmp(const void *x, const void *y)
{
	const struct tp_name *a = x, *b = y;

	return strcmp(a->name, b->name);
}

static int tp_full_cmp(const void *x, const void *y)
{
	const struct tp_name *a = x, *b = y;
	int r = strcmp(a->sys, b->sys);

	return r ? r : strcmp(a->name, b->name);
}

/* SUBSYS of each name from tracefs events/SUBSYS/NAME, where mounted */
static void tp_subsystems(struct tp_name *tps, size_t n)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events",
	};
	unsigned int r;

	for (r = 0; r < sizeof(roots) / sizeof(roots[0]); r++) {
		DIR *top = opendir(roots[r]);
		struct dirent *s;

		if (!top)
			continue;
		while ((s = readdir(top))) {
			char path[512];
			struct dirent *e;
			DIR *sub;

			if (s->d_name[0] == '.' || strlen(s->d_name) >= sizeof(tps->sys))
				continue;
			snprintf(path, sizeof(path), "%s/%s", roots[r], s->d_name);
			sub = opendir(path);
			if (!sub)
				continue;
			while ((e = readdir(sub))) {
				struct tp_name key = { .name = e->d_name }, *hit;

				hit = bsearch(&key, tps, n, sizeof(*tps), tp_cmp);
				if (hit && !hit->sys[0])
					snprintf(hit->sys, sizeof(hit->sys), "%s",
						 s->d_name);
			}
			closedir(sub);
		}
		closedir(top);
		return;
	}
}

int cmd_list_tp(struct kp_dev *d, int argc, char **argv)
{
	struct kprof_tp_list t;
	struct tp_name *tps = NULL;
	const char *glob = argc > 1 ? argv[1] : NULL;
	char *buf = NULL, *p;
	size_t n = 0, i, shown = 0;
	int ret, tries;

	if (argc > 2)
		return kp_bad_usage(argv[0], "unexpected argument '%s'", argv[2]);
	if (kp_dev_ready(d))
		return 1;
	if (!(d->ver.caps & KPROF_CAP_TRACEPOINT)) {
		fprintf(stderr, "kprofctl: this kernel or module has no tracepoint "
			"support\n");
		return 1;
	}
	memset(&t, 0, sizeof(t));
	/* modules may load between the two calls: retry with more room */
	for (tries = 0; tries < 8; tries++) {
		size_t len = t.needed + 4096;

		free(buf);
		buf = malloc(len);
		if (!buf) {
			fprintf(stderr, "kprofctl: out of memory\n");
			return 1;
		}
		memset(&t, 0, sizeof(t));
		t.size = sizeof(t);
		t.len = len;
		t.ptr = (uintptr_t)buf;
		ret = kp_ioctl(d, KPROF_IOC_TRACEPOINTS, &t);
		if (ret != -ENOSPC)
			break;
	}
	if (ret) {
		kp_explain(d, "list-tracepoints", "", -ret);
		free(buf);
		return 1;
	}
	tps = calloc(t.count ? t.count : 1, sizeof(*tps));
	if (!tps) {
		free(buf);
		fprintf(stderr, "kprofctl: out of memory\n");
		return 1;
	}
	for (p = buf; p < buf + t.needed && n < t.count; p += strlen(p) + 1)
		tps[n++].name = p;
	qsort(tps, n, sizeof(*tps), tp_cmp);
	tp_subsystems(tps, n);
	for (i = 0; i < n; i++)
		if (!tps[i].sys[0])
			snprintf(tps[i].sys, sizeof(tps[i].sys), "*");
	qsort(tps, n, sizeof(*tps), tp_full_cmp);
	for (i = 0; i < n; i++) {
		char full[256];

		snprintf(full, sizeof(full), "%s:%s", tps[i].sys, tps[i].name);
		if (glob && fnmatch(glob, tps[i].name, 0) &&
		    fnmatch(glob, full, 0))
			continue;
		printf("%s\n", full);
		shown++;
	}
	if (glob && !shown)
		fprintf(stderr, "kprofctl list-tracepoints: no tracepoint matches "
			"'%s'\n", glob);
	free(tps);
	free(buf);
	return glob && !shown ? 1 : 0;
}

