/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The core's own: its state and what its files share (core.c the table
 * and its publishing, layout.c the mapping and its limits, add.c, life.c
 * and query.c the commands, modnotify.c target modules).  The rest of the
 * module uses core.h.
 */
#ifndef KPROF_CORE_INT_H
#define KPROF_CORE_INT_H

#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/notifier.h>

#include "core.h"
#include "probe.h"
#include "area.h"

#define KPROF_MAX_PROBES_LIMIT	1024

struct kprof_core {
	struct mutex lock;	/* serialises every command and the table */
	struct kprof_probe **slots;
	u32 next_id;
	struct kprof_mmap_header *hdr;	/* the mapping's fixed part */
	/* slots of the mapping with memory only while a probe uses them */
	struct kprof_region stats_region, pair_region, pmu_region, set_region;
	struct kprof_probe_info *table;
	struct delayed_work nmissed_work;
	u64 *nmissed_base;	/* per slot: core's nmissed at add/RESET */
	struct notifier_block module_nb;
	unsigned long pair_used;	/* bitmap of key blocks */
	unsigned long pmu_used;		/* bitmap of PMU blocks */
	unsigned long set_used;		/* bitmap of set slots */
	const struct kprof_listener *listener;
};

/* layout.c, which lays the mapping out at init */
extern struct kprof_core kprof;

/* core.c */
bool kprof_restricted(void);
void kprof_tell(u32 event, const struct kprof_probe *p, u64 dropped,
		u64 nmissed);
struct kprof_probe *kprof_next(u32 *slot, u32 id);

/* Each probe, or only the one with this id when id != 0; under kprof.lock. */
#define kprof_for_each_probe(p, i, id)					\
	for ((i) = 0; ((p) = kprof_next(&(i), (id))); (i)++)

struct kprof_probe *kprof_find(u32 id);
int kprof_lock_id(u32 id);
void kprof_seq_begin(void);
void kprof_seq_end(bool bump_generation);
void kprof_nmissed_rebase(struct kprof_probe *p);
void kprof_fill_info(struct kprof_probe *p, struct kprof_probe_info *i);
void kprof_publish(struct kprof_probe *p);
bool kprof_any_running(void);
void kprof_nmissed_kick(void);
void kprof_zero_probe(struct kprof_probe *p);
void kprof_zero_pmu(struct kprof_probe *p);
void kprof_sync(void);
u64 kprof_events_dropped(struct kprof_probe *p);

/* layout.c */
int kprof_layout(void);

/* add.c */
void kprof_keys_put(struct kprof_probe *p);
void kprof_free(struct kprof_probe *p);

/* life.c */
int kprof_start_one(struct kprof_probe *p);

#endif /* KPROF_CORE_INT_H */
