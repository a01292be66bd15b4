/* SPDX-License-Identifier: GPL-2.0 */
/*
 * show's rendering of function sets: a table of functions, one
 * function's histogram, the skipped ones; text and JSON.
 */
#ifndef KPROFCTL_SHOW_SET_H
#define KPROFCTL_SHOW_SET_H

#include <stdint.h>
#include <stdio.h>

#include "funcset.h"
#include "json.h"
#include "show-opts.h"

void kp_show_set_text(FILE *f, const struct kp_map *m,
		      const struct kprof_probe_info *r,
		      const struct kp_show_opts *o);
void kp_show_set_json(struct kp_jw *w, const struct kp_map *m,
		      const struct kprof_probe_info *r,
		      const struct kp_show_opts *o);

#endif
