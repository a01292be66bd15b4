/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record's ear on the events group: the slow calls of the recorded
 * probes, kept for the capture (series.slow) and its timeline, with the
 * number the module queued but the recording never heard.
 */
#ifndef KPROFCTL_SLOW_LISTEN_H
#define KPROFCTL_SLOW_LISTEN_H

#include <stddef.h>
#include <stdint.h>

struct kp_map;
struct kp_recorder;
struct kp_cap_slow;

struct kp_slow_listen {
	void *sk;			/* struct nl_sock */
	const uint32_t *ids;		/* the recorded probes; none: all */
	unsigned int nids;
	uint64_t t0_ns;			/* the recording's start */
	uint64_t queued0;		/* their queued slow calls then */
	uint64_t heard;			/* theirs since t0_ns */
	struct kp_cap_slow *ev;
	size_t nr, cap;
	int nomem;
};

/*
 * Listens when a recorded probe has a slow-call threshold: 1 listening,
 * 0 nothing to hear, -1 not listening after saying why (record goes on)
 */
int kp_slow_listen_start(struct kp_slow_listen *l, const struct kp_map *m,
			 const uint32_t *ids, unsigned int nids, uint64_t t0);
/* struct kp_tick's sleep: waits to the time given, taking events */
int kp_slow_listen_sleep(void *ctx, uint64_t now, uint64_t until);
/*
 * The recording ended at end: waits (at most 2 s) for what the module
 * queued until then, and hands the calls up to end to rec
 */
void kp_slow_listen_end(struct kp_slow_listen *l, const struct kp_map *m,
			uint64_t end, struct kp_recorder *rec);
void kp_slow_listen_free(struct kp_slow_listen *l);

#endif
