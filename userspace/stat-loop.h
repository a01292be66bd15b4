/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat's loop: at each -I tick the counts since the last one, then the
 * end (-d), Ctrl-C or the command's exit.  Apart from the device so that
 * a test drives it on a fake clock.
 */
#ifndef KPROFCTL_STAT_LOOP_H
#define KPROFCTL_STAT_LOOP_H

#include <stdio.h>

#include "pmu.h"
#include "util.h"

struct kp_stat_loop {
	struct kp_tick tick;	/* kp_tick_init()ed; sig, child set */
	/* the window totals now, into s: 0, or -1 after a message */
	int (*snap)(void *ctx, struct kp_pmu_snap *s);
	void *ctx;
	FILE *out;
	const struct kp_topo *topo;
	const char *root;	/* kp_pmu_print()'s sysfs root */
	int json;
	unsigned int n;		/* intervals printed */
};

/* 0, or 1 when a snapshot failed */
int kp_stat_loop(struct kp_stat_loop *l);

#endif
