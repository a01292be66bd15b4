// SPDX-License-Identifier: GPL-2.0
/*
 * The probe table, its lock and the mapping it is published in, for every
 * kind alike: a kind's differences are its row in kprof_kinds() and its
 * backend's callbacks.  The commands are add.c, life.c and query.c;
 * layout.c lays the mapping out.  All of it runs in process context under
 * kprof.lock; probe context only ever touches a probe's "armed", filters
 * and its preallocated statistics.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/tracepoint.h>
#include <linux/bitops.h>
#include <linux/rcupdate.h>

#include "core-int.h"
#include "backends.h"
#include "keys.h"
#include "pmu.h"

#define KPROF_NMISSED_PERIOD	(HZ / 10)

void kprof_core_listen(const struct kprof_listener *l)
{
	kprof.listener = l;
}

/* Can nobody without CAP_SYS_ADMIN see what probes send? */
bool kprof_restricted(void)
{
	return kprof.listener && kprof.listener->restricted();
}

/* Context: process; the listener takes no lock the core holds. */
void kprof_tell(u32 event, const struct kprof_probe *p, u64 dropped,
		u64 nmissed)
{
	if (kprof.listener)
		kprof.listener->probe(event, p, dropped, nmissed);
}

void kprof_tell_leak(const struct kprof_probe *p, const struct kprof_leak *l)
{
	if (kprof.listener && kprof.listener->leak)
		kprof.listener->leak(p, l);
}

u64 kprof_caps(void)
{
	u64 caps = 0;

	if (KPROF_FUNC_KINDS)
		caps |= KPROF_CAP_KPROBE | KPROF_CAP_KRETPROBE;
	if (IS_ENABLED(CONFIG_KRETPROBES))
		caps |= KPROF_CAP_KPROBE_CORE;
	if (KPROF_FAST)
		caps |= KPROF_CAP_FTRACE;
	if (IS_ENABLED(CONFIG_TRACEPOINTS))
		caps |= KPROF_CAP_TRACEPOINT;
	if (IS_ENABLED(CONFIG_TRACEPOINTS) && kprof_max_pairs())
		caps |= KPROF_CAP_PAIR;
	if (kprof_max_pmus())
		caps |= KPROF_CAP_PMU;
	if (kprof_restricted())
		caps |= KPROF_CAP_EVENTS_RESTRICTED;
	return caps;
}

/* ---- lookup ----------------------------------------------------------- */

/* First probe at or after *slot that is id (any probe if id is 0). */
struct kprof_probe *kprof_next(u32 *slot, u32 id)
{
	for (; *slot < kprof_max_probes(); (*slot)++) {
		struct kprof_probe *p = kprof.slots[*slot];

		if (p && (!id || p->id == id))
			return p;
	}
	return NULL;
}

struct kprof_probe *kprof_find(u32 id)
{
	struct kprof_probe *p;
	u32 i;

	kprof_for_each_probe(p, i, id)
		return p;
	return NULL;
}

/* Takes kprof.lock unless id names no probe (-ENOENT); 0 means all. */
int kprof_lock_id(u32 id)
{
	mutex_lock(&kprof.lock);
	if (id && !kprof_find(id)) {
		mutex_unlock(&kprof.lock);
		return -ENOENT;
	}
	return 0;
}

/* 0 if probe id exists (or id is 0: all), else -ENOENT */
int kprof_probe_exists(u32 id)
{
	int ret = kprof_lock_id(id);

	if (!ret)
		mutex_unlock(&kprof.lock);
	return ret;
}

/* ---- mmap probe table, written under the header seqcount ------------- */

void kprof_seq_begin(void)
{
	WRITE_ONCE(kprof.hdr->seq, kprof.hdr->seq + 1);
	smp_wmb();	/* odd seq visible before table writes; pairs with reader */
}

void kprof_seq_end(bool bump_generation)
{
	smp_wmb();	/* table writes visible before even seq */
	if (bump_generation)
		WRITE_ONCE(kprof.hdr->generation, kprof.hdr->generation + 1);
	WRITE_ONCE(kprof.hdr->seq, kprof.hdr->seq + 1);
}

/*
 * The kprobe core's miss count is cumulative; report it from the last
 * add or RESET.  A re-registration restarts the core's count: then so
 * does the baseline.
 */
static u64 kprof_be_nmissed(struct kprof_probe *p)
{
	return p->be->nmissed ? p->be->nmissed(p) : 0;
}

static u64 kprof_nmissed(struct kprof_probe *p)
{
	u64 n = kprof_be_nmissed(p), *base = &kprof.nmissed_base[p->slot];

	if (n < *base)
		*base = 0;
	return n - *base;
}

void kprof_nmissed_rebase(struct kprof_probe *p)
{
	kprof.nmissed_base[p->slot] = kprof_be_nmissed(p);
}

void kprof_fill_info(struct kprof_probe *p, struct kprof_probe_info *i)
{
	memset(i, 0, sizeof(*i));
	i->id = p->id;
	i->slot = p->slot;
	i->type = p->kind->type;
	i->state = p->state;
	i->mech = p->be->mech;
	i->flags = p->flags & ~KPROF_ADD_START;
	i->pid = p->pid;
	i->maxactive = p->maxactive;
	i->reg_errno = p->reg_errno;
	i->nmissed = kprof_nmissed(p);
	bitmap_to_arr64(i->cpus, p->cpus, KPROF_CPUMASK_WORDS * 64);
	i->stats_off = kprof.stats_region.off +
		       (u64)p->slot * kprof.stats_region.stride;
	strscpy(i->spec, p->spec, sizeof(i->spec));
	if (p->keys.slot >= 0) {
		i->keys_off = kprof.pair_region.off +
			      (u64)p->keys.slot * kprof.pair_region.stride;
		i->key_stats_off = i->keys_off +
				   (p->keys.stats - (u8 *)p->keys.map);
		i->key_stride = (u64)nr_cpu_ids * KPROF_CPU_STRIDE;
		i->nr_keys = p->keys.nr;
		if (p->key[0])
			i->key_rec_size = p->keys.rec_size;
	}
	memcpy(i->key, p->key, sizeof(i->key));
	i->filter = p->filter;
	if (p->pmu)
		i->pmu_block = p->pmu->slot + 1;
	i->slow_ns = p->slow_ns;
	if (p->be->fill_info)
		p->be->fill_info(p, i);
}

/* Caller holds kprof.lock and is inside kprof_seq_begin/end. */
void kprof_publish(struct kprof_probe *p)
{
	kprof_fill_info(p, &kprof.table[p->slot]);
}

static void kprof_refresh_nmissed(void)
{
	struct kprof_probe *p;
	u32 i;

	kprof_for_each_probe(p, i, 0)
		WRITE_ONCE(kprof.table[i].nmissed, kprof_nmissed(p));
}

bool kprof_any_running(void)
{
	struct kprof_probe *p;
	u32 i;

	kprof_for_each_probe(p, i, 0)
		if (p->state == KPROF_STATE_RUNNING)
			return true;
	return false;
}

/* nmissed lives in kprobe core structs; mirror it for syscall-free reads */
void kprof_nmissed_kick(void)
{
	mod_delayed_work(system_wq, &kprof.nmissed_work, KPROF_NMISSED_PERIOD);
}

static void kprof_nmissed_fn(struct work_struct *work)
{
	mutex_lock(&kprof.lock);
	kprof_refresh_nmissed();
	if (kprof_any_running())
		schedule_delayed_work(&kprof.nmissed_work,
				      KPROF_NMISSED_PERIOD);
	mutex_unlock(&kprof.lock);
	kprof_report_losses(false);
}

/* ---- statistics reset ------------------------------------------------- */

/* No handler of p is running. */
void kprof_zero_probe(struct kprof_probe *p)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		kprof_zero_stats(kprof_this_stats(p, cpu));
	kprof_keys_zero(&p->keys);
	kprof_frames_zero(&p->callers);
	kprof_frames_zero(&p->stacks);
	if (p->be->clear)
		p->be->clear(p);
}

/* Zero per-call deltas; window totals start again from here. */
void kprof_zero_pmu(struct kprof_probe *p)
{
	struct kprof_pmu *pm = p->pmu;
	unsigned int cpu, e;

	if (!pm)
		return;
	for (e = 0; e < KPROF_PMU_MAX_EVENTS; e++)
		for_each_possible_cpu(cpu)
			kprof_zero_stats(kprof_pmu_stats(pm, e, cpu));
	kprof_pmu_window_reset(pm);
	kprof_pmu_refresh(pm);
}

/*
 * Waits until no handler that saw a probe armed is still running: kprobe
 * handlers and tracepoint callbacks run with preemption disabled, and some
 * tracepoints (the _rcuidle ones) under SRCU, which the tracepoint helper
 * also waits for.
 */
void kprof_sync(void)
{
#ifdef CONFIG_TRACEPOINTS
	tracepoint_synchronize_unregister();
#endif
	/*
	 * kprobe handlers: where tracepoints use SRCU-fast (7.x) the wait
	 * above no longer includes an RCU grace period.
	 */
#if !defined(CONFIG_TRACEPOINTS) || defined(KPROF_HAVE_TRACEPOINT_SRCU_FAST)
	synchronize_rcu();
#endif
}

u64 kprof_events_dropped(struct kprof_probe *p)
{
	unsigned int cpu;
	u64 sum = 0;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(kprof_this_stats(p, cpu)->events_dropped);
	return sum;
}

/*
 * Sends what each probe lost since its last report: slow calls that found
 * their ring full, and the kprobe core's misses.  At most once a second
 * per probe unless forced (STOP: the window's losses are all told).
 */
void kprof_report_losses(bool force)
{
	struct kprof_probe *p;
	u32 i;

	mutex_lock(&kprof.lock);
	kprof_for_each_probe(p, i, 0) {
		u64 dropped = kprof_events_dropped(p);
		u64 nmissed = kprof_nmissed(p);

		if (dropped == p->rep_dropped && nmissed == p->rep_nmissed)
			continue;
		if (!force && time_before(jiffies, p->rep_at + HZ))
			continue;
		/* a RESET zeroes the counters: report from there */
		if (dropped < p->rep_dropped)
			p->rep_dropped = 0;
		if (nmissed < p->rep_nmissed)
			p->rep_nmissed = 0;
		kprof_tell(KPROF_GENL_EV_LOSSES, p,
				 dropped - p->rep_dropped,
				 nmissed - p->rep_nmissed);
		p->rep_dropped = dropped;
		p->rep_nmissed = nmissed;
		p->rep_at = jiffies;
	}
	mutex_unlock(&kprof.lock);
}

/* ---- init/exit -------------------------------------------------------- */

/* After events and netlink (probes use them), before any probe. */
int kprof_core_init(void)
{
	int ret;

	mutex_init(&kprof.lock);
	kprof.next_id = 1;
	INIT_DELAYED_WORK(&kprof.nmissed_work, kprof_nmissed_fn);
	ret = kprof_layout();
	if (ret)
		return ret;
	kprof.slots = kcalloc(kprof_max_probes(), sizeof(*kprof.slots),
			      GFP_KERNEL);
	kprof.nmissed_base = kcalloc(kprof_max_probes(),
				     sizeof(*kprof.nmissed_base), GFP_KERNEL);
	if (!kprof.slots || !kprof.nmissed_base) {
		ret = -ENOMEM;
		goto free_slots;
	}
	return 0;

free_slots:
	kfree(kprof.nmissed_base);
	kfree(kprof.slots);
	kprof_area_exit();
	return ret;
}

/*
 * Every probe is gone (kprof_probe_del(0)) and no file is open, so no
 * mapping of the area remains; the module notifier went before.
 */
void kprof_core_exit(void)
{
	cancel_delayed_work_sync(&kprof.nmissed_work);
	kfree(kprof.nmissed_base);
	kfree(kprof.slots);
	kprof_area_exit();
}
