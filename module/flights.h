/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bounded in-flight tables: a start stores its timestamp (and a word of
 * its own) under a tag (a task, a request, a CPU and IRQ), the matching end
 * takes it back.  Starts and ends may run on different CPUs, so slots are
 * claimed with cmpxchg: no locks, and an IRQ or NMI that nests on the same
 * CPU at worst sees a slot as busy and moves on.  Preallocated.
 */
#ifndef KPROF_FLIGHTS_H
#define KPROF_FLIGHTS_H

#include <linux/types.h>

/* An in-flight start: tag 0 free, 1 being written, else the event's tag. */
struct kprof_flight {
	u64 tag;
	u64 ts;
	u64 aux;
};

struct kprof_flights {
	struct kprof_flight *f;		/* mask + 1 */
	u32 mask;
};

/* Context: process.  n a power of two. */
int kprof_flights_alloc(struct kprof_flights *fl, u32 n);
void kprof_flights_free(struct kprof_flights *fl);
/* Context: process; no start or end runs. */
void kprof_flights_clear(struct kprof_flights *fl);

/*
 * Context: any probe context.  A tag already present (a task woken twice
 * before it ran) is restarted rather than duplicated.  False when the
 * tag's slots are all taken: the caller counts the start as dropped.
 */
bool kprof_flight_put(struct kprof_flights *fl, u64 tag, u64 ts, u64 aux);
/* Context: any probe context.  Removes tag's start and returns it. */
bool kprof_flight_take(struct kprof_flights *fl, u64 tag, u64 *ts, u64 *aux);

#endif /* KPROF_FLIGHTS_H */
