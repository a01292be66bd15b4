/* SPDX-License-Identifier: GPL-2.0 */
/* show --json: a probe's object (not a function set's: show-set.c). */
#ifndef KPROFCTL_SHOW_JSON_H
#define KPROFCTL_SHOW_JSON_H

#include <stdio.h>

#include "json.h"
#include "show-opts.h"
#include "kprofctl/hist.h"

/* probe r's object, written through w */
void kp_show_json(struct kp_jw *w, const struct kp_map *m,
		  const struct kprof_probe_info *r,
		  const struct kp_show_opts *o);

/*
 * "buckets":[{"lo_ns","hi_ns","count"},...] (sfx "_ns"; "" for plain
 * values): the buckets it walks, freshly initialised
 */
void kp_json_buckets(struct kp_jw *w, struct kprof_hist_iter *it,
		     const char *sfx);

#endif
