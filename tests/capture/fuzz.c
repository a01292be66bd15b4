// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the capture reader, then every reader of the mapping
 * it rebuilds (show's text and JSON, per CPU and per cluster, and each
 * recorded interval).  Built and run for a bounded time by
 * tests/capture/check; its seeds are tests/capture/corpus/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "capture.h"
#include "show.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void render(const struct kp_capture *c, const struct kp_map *m,
		   FILE *null)
{
	struct kprof_probe_info *recs;
	struct kp_show_opts o = { 0 };
	unsigned int n;

	recs = calloc(m->hdr->max_probes, sizeof(*recs));
	if (!recs || kp_map_probes(m, recs, m->hdr->max_probes, &n)) {
		free(recs);
		return;
	}
	o.topo = &c->topo;
	o.all = recs;
	o.nall = n;
	o.by_cluster = 1;
	kp_show(null, m, recs, n, &o);
	o.json = 1;
	o.per_cpu = 1;
	kp_show(null, m, recs, n, &o);
	free(recs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct kp_capture c;
	char err[256];
	unsigned int i;

	if (!null)
		null = fopen("/dev/null", "w");
	/* a hostile file must not make the reader allocate gigabytes */
	kp_capture_max_bytes = 64u << 20;
	if (kp_capture_parse(&c, (const char *)data, size, err, sizeof(err)))
		return 0;
	render(&c, &c.m, null);
	for (i = 0; i < c.nr_iv; i++)
		render(&c, &c.iv[i].m, null);
	kp_capture_free(&c);
	return 0;
}
