/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a slow call does to ftrace (KPROF_ADD_FTRACE): freeze its snapshot,
 * stop its recording, or write a line into an instance's ring buffer.
 * Set up when a probe is added, acted on at the slow-call point
 * (events.c), undone when the probe is freed.
 */
#ifndef KPROF_SNAP_H
#define KPROF_SNAP_H

#include "probe.h"

int kprof_snap_init(void);
void kprof_snap_exit(void);
/* Context: process, before the probe is published; 0 or -errno */
int kprof_snap_get(struct kprof_probe *p, const struct kprof_probe_add *a);
/* Context: process; no handler of p runs any more */
void kprof_snap_put(struct kprof_probe *p);
/*
 * Context: any probe context, a slow call of p (latency ns, by t).
 * Returns KPROF_GENL_FT_* for its event; 0 at once without KPROF_ADD_FTRACE.
 */
u32 kprof_snap_slow(struct kprof_probe *p, u64 latency,
		    struct task_struct *t);

#endif /* KPROF_SNAP_H */
