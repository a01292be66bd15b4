/* SPDX-License-Identifier: GPL-2.0 */
/* show --json: a probe's object (not a function set's: show-set.c). */
#ifndef KPROFCTL_SHOW_JSON_H
#define KPROFCTL_SHOW_JSON_H

#include <stdio.h>

#include "show-opts.h"

void kp_show_json(FILE *f, const struct kp_map *m,
		  const struct kprof_probe_info *r,
		  const struct kp_show_opts *o);

#endif
