/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One source of statistics: the device, a capture file (show --from) and
 * an interval (a frozen copy of either, show -i, --intervals) look the
 * same to every reader through these.  A source is a struct kp_dev
 * (kp_dev_open, kp_dev_from_capture); only here is it asked where its
 * data came from.
 */
#ifndef KPROFCTL_SOURCE_H
#define KPROFCTL_SOURCE_H

#include <stdint.h>

#include "uapi/linux/kprofctl.h"

struct kp_dev;
struct kp_map;
struct kp_profile;
struct kp_topo;

/*
 * iv: an interval of source d whose statistics are m (a delta of the
 * device's mapping, a recording's interval): read like d, nothing in it
 * refreshed.
 */
void kp_src_interval(struct kp_dev *iv, const struct kp_dev *d,
		     const struct kp_map *m);

/* probe id's record: the device's INFO, or the capture's; 0 or -1 */
int kp_src_probe(struct kp_dev *d, uint32_t id, struct kprof_probe_info *out);

/*
 * What the mapping holds only as of its last refresh, made fresh in
 * recs[n] (misses, PMU totals): the device only; a capture and an
 * interval keep what they hold.
 */
void kp_src_refresh(struct kp_dev *d, struct kprof_probe_info *recs,
		    unsigned int n);

/* The CPU clusters: the capture's, or this machine's (sysfs). */
void kp_src_topo(struct kp_dev *d, struct kp_topo *t);

/*
 * Was a --pid/--tgid filter's process gone: when the capture was saved,
 * or now.  The answer for d holds until the next call.
 */
typedef int kp_pid_gone_fn(uint32_t pid);
kp_pid_gone_fn *kp_src_pid_gone(struct kp_dev *d);

/*
 * Probe r's stack table into p with the names of its frames (the
 * capture's, or the kernel's when the reader may see them; else
 * p->frames_err says why).  0, or -1 with why on stderr.
 */
int kp_src_profile(struct kp_dev *d, const struct kprof_probe_info *r,
		   struct kp_profile *p);

/*
 * Where the statistics come from: the kernel release, machine model and
 * module ABI ("1.10") the capture recorded, or this machine's.
 */
struct kp_src_context {
	char kernel[128], machine[128], module_abi[16];
};

void kp_src_context(struct kp_dev *d, struct kp_src_context *c);

#endif
