/* SPDX-License-Identifier: GPL-2.0 */
/* Metrics of a source's probes, for export and serve (prom.h: the format). */
#ifndef KPROFCTL_PROM_RENDER_H
#define KPROFCTL_PROM_RENDER_H

#include <stdint.h>
#include <stdio.h>

struct kp_dev;
struct kp_prom_opts;

/*
 * Probes ids[nids] of d (nids 0: all) as metrics to out, with p's format
 * and guard and kprofctl_info from d's context; read from one consistent
 * copy of the mapping.  0, or the exit code after a message on stderr.
 */
int kp_prom_render(struct kp_dev *d, const uint32_t *ids, unsigned int nids,
		   struct kp_prom_opts *p, FILE *out);

#endif
