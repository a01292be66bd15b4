// SPDX-License-Identifier: GPL-2.0
/*
 * A probe's life after ADD: start, stop, reset, PMU reads and delete,
 * each under kprof.lock.
 */
#include <linux/kernel.h>

#include "core-int.h"
#include "pmu.h"

/*
 * Handlers update a probe's statistics only after seeing "armed", with
 * preemption disabled.  Clearing it and waiting for a grace period (which
 * covers such sections, NMIs included) leaves no update half-done, so the
 * blocks can be zeroed from here; calls that complete meanwhile belong to
 * neither side of the reset and are not recorded.  The wait comes before
 * the mapping's write section: a reader spins while seq is odd, so only
 * the zeroing itself is inside it.  Caller holds kprof.lock.
 */
static void kprof_reset_stats(u32 id)
{
	struct kprof_probe *p;
	u32 i;

	kprof_for_each_probe(p, i, id) {
		p->armed_saved = p->armed;
		WRITE_ONCE(p->armed, false);
	}
	kprof_sync();
	/* counters are read before the section: that may sleep */
	kprof_for_each_probe(p, i, id)
		if (p->pmu)
			kprof_pmu_sample(p->pmu);
	kprof_seq_begin();
	kprof_for_each_probe(p, i, id) {
		kprof_zero_probe(p);
		kprof_zero_pmu(p);
		kprof_nmissed_rebase(p);
		WRITE_ONCE(kprof.table[i].nmissed, 0);
	}
	kprof_seq_end(true);
	smp_wmb();	/* zeroes before re-arming */
	kprof_for_each_probe(p, i, id)
		WRITE_ONCE(p->armed, p->armed_saved);
}

/* A GONE probe that attaches again when its module returns. */
static bool kprof_reattaches(struct kprof_probe *p)
{
	return p->be->module_event &&
	       ((p->kind->flags & KPROF_KIND_FOLLOWS_MOD) ||
		(p->flags & KPROF_ADD_DEFER));
}

/*
 * Caller holds kprof.lock; p's table row is already gone, so no reader
 * looks at its blocks any more.  Unregistering waits for handlers.
 */
static void kprof_remove(struct kprof_probe *p)
{
	p->be->detach(p);
	kprof_tell(KPROF_GENL_EV_UNREGISTERED, p, 0, 0);
	kprof_keys_put(p);
	kprof_area_put(&kprof.stats_region, p->slot);
	kprof.slots[p->slot] = NULL;
	kprof_free(p);
}

int kprof_probe_del(u32 id)
{
	struct kprof_probe *p;
	int ret;
	u32 i;

	ret = kprof_lock_id(id);
	if (ret)
		return ret;
	/* the rows go first, in a short section; the slots stay taken */
	kprof_seq_begin();
	kprof_for_each_probe(p, i, id) {
		WRITE_ONCE(p->armed, false);
		memset(&kprof.table[i], 0, sizeof(kprof.table[i]));
	}
	kprof_seq_end(true);
	kprof_for_each_probe(p, i, id)
		kprof_remove(p);
	mutex_unlock(&kprof.lock);
	return 0;
}

/*
 * The id of a probe @owner added with KPROF_ADD_OWNED, 0: none left.  It
 * is disowned here, so a delete that fails cannot make the caller loop.
 */
static u32 kprof_owned_next(const void *owner)
{
	struct kprof_probe *p;
	u32 i, id = 0;

	mutex_lock(&kprof.lock);
	kprof_for_each_probe(p, i, 0)
		if (p->owner == owner) {
			p->owner = NULL;
			id = p->id;
			break;
		}
	mutex_unlock(&kprof.lock);
	return id;
}

/*
 * Context: the release of @owner, so it adds no more probes.  Each goes
 * through kprof_probe_del(), the path of DEL_PROBE; one deleted by
 * someone else meanwhile is simply not found again.
 */
void kprof_probe_del_owned(const void *owner)
{
	u32 id;

	while ((id = kprof_owned_next(owner)))
		kprof_probe_del(id);
}

int kprof_start_one(struct kprof_probe *p)
{
	int ret;

	if (p->state == KPROF_STATE_PENDING ||
	    (p->state == KPROF_STATE_GONE && kprof_reattaches(p))) {
		p->want_run = true;	/* when it attaches */
		return 0;
	}
	if (p->state == KPROF_STATE_GONE)
		return -ENODEV;
	if (p->state == KPROF_STATE_RUNNING)
		return 0;
	if (p->pmu) {
		u32 e, cpu;

		ret = kprof_pmu_enable(p->pmu, &e, &cpu);
		if (ret) {
			p->reg_errno = -ret;
			pr_info("probe %u (%s): PMU event %s on CPU %u cannot be scheduled: its hardware counters are taken\n",
				p->id, p->spec, p->pmu->desc[e - 1].name, cpu);
			return ret;
		}
	}
	WRITE_ONCE(p->armed, true);
	ret = p->be->arm(p);
	if (ret) {
		WRITE_ONCE(p->armed, false);
		if (p->pmu)
			kprof_pmu_disable(p->pmu);
		p->reg_errno = -ret;
		return ret;
	}
	/* once armed: arming may sleep (as at ADD) */
	if (p->pmu)
		kprof_pmu_window_open(p->pmu);
	p->reg_errno = 0;
	p->state = KPROF_STATE_RUNNING;
	return 0;
}

static void kprof_stop_one(struct kprof_probe *p)
{
	p->want_run = false;
	if (p->state != KPROF_STATE_RUNNING)
		return;
	p->be->disarm(p);
	WRITE_ONCE(p->armed, false);
	p->state = KPROF_STATE_STOPPED;
}

int kprof_probe_start(u32 id)
{
	struct kprof_probe *p;
	int ret, err = 0;
	u32 i;

	ret = kprof_lock_id(id);
	if (ret)
		return ret;
	/* arming registers and may sleep: outside the write section */
	kprof_for_each_probe(p, i, id) {
		/* "start all" skips probes whose target is gone for good */
		if (!id && p->state == KPROF_STATE_GONE &&
		    !kprof_reattaches(p))
			continue;
		ret = kprof_start_one(p);
		if (ret && !err)
			err = ret;
	}
	kprof_seq_begin();
	kprof_for_each_probe(p, i, id)
		kprof_publish(p);
	kprof_seq_end(false);
	if (kprof_any_running())
		kprof_nmissed_kick();
	mutex_unlock(&kprof.lock);
	return err;
}

int kprof_probe_stop(u32 id)
{
	struct kprof_probe *p;
	int ret;
	u32 i;

	ret = kprof_lock_id(id);
	if (ret)
		return ret;
	kprof_for_each_probe(p, i, id) {
		bool on = p->pmu && p->pmu->open;

		/* the window ends before disarming, which may sleep */
		if (on)
			kprof_pmu_window_close(p->pmu);
		kprof_stop_one(p);
		/*
		 * The counters stop here, not after the wait below: a call
		 * still returning reads a stopped counter and is counted as
		 * lost, like any call that ends after STOP.
		 */
		if (on)
			kprof_pmu_disable(p->pmu);
	}
	/* see kprof_reset_stats(): no update is in flight after this */
	kprof_sync();
	kprof_seq_begin();
	kprof_for_each_probe(p, i, id)
		if (p->pmu)
			kprof_pmu_refresh(p->pmu);
	kprof_for_each_probe(p, i, 0)
		kprof_publish(p);
	kprof_seq_end(false);
	mutex_unlock(&kprof.lock);
	kprof_report_losses(true);
	return 0;
}

int kprof_probe_reset(u32 id)
{
	int ret;

	ret = kprof_lock_id(id);
	if (ret)
		return ret;
	kprof_reset_stats(id);
	mutex_unlock(&kprof.lock);
	return 0;
}

int kprof_probe_pmu_read(u32 id)
{
	struct kprof_probe *p;
	int ret;
	u32 i;

	ret = kprof_lock_id(id);
	if (ret)
		return ret;
	kprof_for_each_probe(p, i, id)
		if (p->pmu)
			kprof_pmu_sample(p->pmu);
	kprof_seq_begin();
	kprof_for_each_probe(p, i, id)
		if (p->pmu)
			kprof_pmu_refresh(p->pmu);
	kprof_seq_end(false);
	mutex_unlock(&kprof.lock);
	return 0;
}
