/* SPDX-License-Identifier: GPL-2.0 */
/* The keys show prints of a probe, for its text and JSON. */
#ifndef KPROFCTL_SHOW_KEYS_H
#define KPROFCTL_SHOW_KEYS_H

#include <stdint.h>

#include "show-opts.h"

/*
 * The keys to show, busiest first, after --key and --top; *total gets the
 * number of keys published.  NULL only when out of memory.
 */
struct kp_key *kp_select_keys(const struct kp_map *m,
			      const struct kprof_probe_info *r,
			      const struct kp_show_opts *o, unsigned int *n,
			      unsigned int *total);

/* the stack key's id of k, 0: none */
uint64_t kp_key_stack_id(const struct kprof_probe_info *r, const struct kp_key *k);

#endif
