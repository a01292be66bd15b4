/* SPDX-License-Identifier: GPL-2.0 */
/* show's text: a probe's lines, and the pieces function sets print too. */
#ifndef KPROFCTL_SHOW_TEXT_H
#define KPROFCTL_SHOW_TEXT_H

#include <stdint.h>
#include <stdio.h>

#include "show-opts.h"

/* a probe's lines (not a function set's: show-set.c) */
void kp_show_text(FILE *f, const struct kp_map *m,
		  const struct kprof_probe_info *r,
		  const struct kp_show_opts *o);
/* show --folded: a probe's stack keys, one line per stack */
int kp_show_folded(FILE *f, const struct kp_map *m,
		   const struct kprof_probe_info *r,
		   const struct kp_show_opts *o);

/* the pieces, for the function sets' rendering (show-set.c) */
void kp_print_hist(FILE *f, const struct kp_agg *a, const char *unit);
void kp_print_notes(FILE *f, const struct kprof_probe_info *r,
		    const struct kp_show_opts *o, uint64_t count,
		    uint64_t missed);
void kp_print_slow(FILE *f, const char *indent,
		   const struct kprof_probe_info *r, const struct kp_agg *a);

#endif
