/* SPDX-License-Identifier: GPL-2.0 */
/* Showing probes of the device or a capture: show, and run at its end. */
#ifndef KPROFCTL_SHOW_H
#define KPROFCTL_SHOW_H

#include <stdint.h>

#include "show-opts.h"

struct kp_dev;

/*
 * Renders recs, once, from one consistent copy of the statistics (taken
 * again while a reset, add or delete overlaps it; probes deleted since
 * recs were copied are left out).  -1 with a message on stderr if the
 * mapping never settles.
 */
int kp_show(FILE *f, const struct kp_map *m,
	    const struct kprof_probe_info *recs, unsigned int n,
	    const struct kp_show_opts *o);

/*
 * Prints probes ids[nids] (nids 0: all) as o says; 0, or the exit code
 * after a message on stderr.
 */
int kp_show_ids(struct kp_dev *d, const uint32_t *ids, unsigned int nids,
		const struct kp_show_opts *o);

#endif
