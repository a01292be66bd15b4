/* SPDX-License-Identifier: GPL-2.0 */
/* The generic netlink side of the CLI: watch and list --netlink. */
#ifndef KPROFCTL_WATCH_H
#define KPROFCTL_WATCH_H

#include <stdint.h>

#include "uapi/linux/kprofctl.h"

struct kp_map;

struct kp_watch_opts {
	const struct kp_map *map;	/* probe id -> spec; NULL: none */
	uint32_t probe;		/* 0: every probe */
	uint64_t min_ns;	/* slow events at least this long */
	uint64_t count;		/* exit after this many events, 0: never */
	int json;
};

/* Prints events until SIGINT/SIGTERM (or count); 0, or 1 with a reason. */
int kp_watch(const struct kp_watch_opts *o, unsigned int nr_cpus);

/* The probes, through the family's GET_PROBES dump. */
int kp_nl_list(void);

#endif
