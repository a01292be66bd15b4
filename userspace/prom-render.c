// SPDX-License-Identifier: GPL-2.0
/* Metrics of a source's probes, as export writes them and serve answers. */
#include <stdio.h>

#include "prom.h"
#include "prom-render.h"
#include "show.h"
#include "source.h"

int kp_prom_render(struct kp_dev *d, const uint32_t *ids, unsigned int nids,
		   struct kp_prom_opts *p, FILE *out)
{
	struct kp_show_opts so = { 0 };
	struct kp_src_context ctx;

	kp_src_context(d, &ctx);
	p->kernel = ctx.kernel;
	p->machine = ctx.machine;
	p->module_abi = ctx.module_abi;
	p->cut = 0;
	so.prom = p;
	so.out = out;
	return kp_show_ids(d, ids, nids, &so);
}
