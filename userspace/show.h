/* SPDX-License-Identifier: GPL-2.0 */
/* Showing probes of the device or a capture: show, and run at its end. */
#ifndef KPROFCTL_SHOW_H
#define KPROFCTL_SHOW_H

#include <stdint.h>

#include "stats.h"

struct kp_dev;

/*
 * Prints probes ids[nids] (nids 0: all) as o says; 0, or the exit code
 * after a message on stderr.
 */
int kp_show_ids(struct kp_dev *d, const uint32_t *ids, unsigned int nids,
		const struct kp_show_opts *o);

#endif
