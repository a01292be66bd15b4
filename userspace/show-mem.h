/* SPDX-License-Identifier: GPL-2.0 */
/* show for mem probes: a table of sites, or JSON (show-mem.c). */
#ifndef KPROFCTL_SHOW_MEM_H
#define KPROFCTL_SHOW_MEM_H

#include <stdio.h>

#include "show-opts.h"

struct kp_jw;

void kp_show_mem_text(FILE *f, const struct kp_map *m,
		      const struct kprof_probe_info *r,
		      const struct kp_show_opts *o);
void kp_show_mem_json(struct kp_jw *w, const struct kp_map *m,
		      const struct kprof_probe_info *r,
		      const struct kp_show_opts *o);

#endif
