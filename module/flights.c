// SPDX-License-Identifier: GPL-2.0
/* Bounded in-flight tables (flights.h). */
#include <linux/kernel.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/slab.h>

#include "flights.h"

/* slots an in-flight tag may live in, from its hash on */
#define KPROF_FLIGHT_PROBES	8

#define KPROF_FLIGHT_BUSY	1ULL

int kprof_flights_alloc(struct kprof_flights *fl, u32 n)
{
	fl->f = kvcalloc(n, sizeof(*fl->f), GFP_KERNEL);
	if (!fl->f)
		return -ENOMEM;
	fl->mask = n - 1;
	return 0;
}

void kprof_flights_free(struct kprof_flights *fl)
{
	kvfree(fl->f);
	fl->f = NULL;
}

void kprof_flights_clear(struct kprof_flights *fl)
{
	if (fl->f)
		memset(fl->f, 0, (fl->mask + 1) * sizeof(*fl->f));
}

notrace bool kprof_flight_put(struct kprof_flights *fl, u64 tag, u64 ts,
			      u64 aux)
{
	u32 h = hash_64(tag, 32), i;
	struct kprof_flight *f;

	for (i = 0; i < KPROF_FLIGHT_PROBES; i++) {
		f = &fl->f[(h + i) & fl->mask];
		if (READ_ONCE(f->tag) == tag &&
		    cmpxchg(&f->tag, tag, KPROF_FLIGHT_BUSY) == tag)
			goto fill;
	}
	for (i = 0; i < KPROF_FLIGHT_PROBES; i++) {
		f = &fl->f[(h + i) & fl->mask];
		if (!READ_ONCE(f->tag) &&
		    !cmpxchg(&f->tag, 0, KPROF_FLIGHT_BUSY))
			goto fill;
	}
	return false;
fill:
	WRITE_ONCE(f->ts, ts);
	WRITE_ONCE(f->aux, aux);
	smp_store_release(&f->tag, tag);	/* ts and aux before the tag */
	return true;
}
NOKPROBE_SYMBOL(kprof_flight_put);

notrace bool kprof_flight_take(struct kprof_flights *fl, u64 tag, u64 *ts,
			       u64 *aux)
{
	u32 h = hash_64(tag, 32), i;
	struct kprof_flight *f;

	for (i = 0; i < KPROF_FLIGHT_PROBES; i++) {
		f = &fl->f[(h + i) & fl->mask];
		if (READ_ONCE(f->tag) == tag &&
		    cmpxchg(&f->tag, tag, KPROF_FLIGHT_BUSY) == tag) {
			*ts = READ_ONCE(f->ts);
			*aux = READ_ONCE(f->aux);
			/* read before the slot can be reused */
			smp_store_release(&f->tag, 0);
			return true;
		}
	}
	return false;
}
NOKPROBE_SYMBOL(kprof_flight_take);
