// SPDX-License-Identifier: GPL-2.0
/*
 * Target modules coming, going live and going: the core's module
 * notifier, and the hook tracepoints.c replays loaded modules through.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/bitops.h>

#include "core-int.h"
#include "pmu.h"

/*
 * A module that defines tracepoints is coming (its tracepoints exist, its
 * init has not run) or going (still there until this returns).
 */
void kprof_module_event(struct module *mod, bool coming)
{
	DECLARE_BITMAP(changed, KPROF_MAX_PROBES_LIMIT);
	struct kprof_probe *p;
	u32 i;

	bitmap_zero(changed, KPROF_MAX_PROBES_LIMIT);
	mutex_lock(&kprof.lock);
	/* attaching, detaching and arming sleep: before the write section */
	kprof_for_each_probe(p, i, 0) {
		if (!p->be->module_event ||
		    !p->be->module_event(p, mod, coming))
			continue;
		__set_bit(i, changed);
		/*
		 * Backends attach stopped; a probe that was running (or added
		 * to run) starts here, PMU counters first.
		 */
		if (coming && p->want_run && p->state == KPROF_STATE_STOPPED) {
			p->want_run = false;
			kprof_start_one(p);
		}
	}
	if (bitmap_empty(changed, KPROF_MAX_PROBES_LIMIT)) {
		mutex_unlock(&kprof.lock);
		return;
	}
	/* once for all the probes detached: the module's text goes next */
	if (!coming)
		kprof_sync();
	kprof_seq_begin();
	for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT)
		kprof_publish(kprof.slots[i]);
	kprof_seq_end(true);
	for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT)
		kprof_tell(coming ? KPROF_GENL_EV_REGISTERED :
				 KPROF_GENL_EV_GONE, kprof.slots[i], 0, 0);
	if (kprof_any_running())
		kprof_nmissed_kick();
	mutex_unlock(&kprof.lock);
}

/* A module's init is over: its __init text is freed next. */
static void kprof_module_live(struct module *mod)
{
	DECLARE_BITMAP(changed, KPROF_MAX_PROBES_LIMIT);
	struct kprof_probe *p;
	u32 i;

	bitmap_zero(changed, KPROF_MAX_PROBES_LIMIT);
	mutex_lock(&kprof.lock);
	kprof_for_each_probe(p, i, 0)
		if (p->be->module_live && p->be->module_live(p, mod))
			__set_bit(i, changed);
	if (!bitmap_empty(changed, KPROF_MAX_PROBES_LIMIT)) {
		kprof_seq_begin();
		for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT)
			kprof_publish(kprof.slots[i]);
		kprof_seq_end(false);
	}
	mutex_unlock(&kprof.lock);
}

/* ---- target modules going away --------------------------------------- */

static int kprof_module_cb(struct notifier_block *nb, unsigned long action,
			   void *data)
{
	DECLARE_BITMAP(changed, KPROF_MAX_PROBES_LIMIT);
	struct module *mod = data;
	struct kprof_probe *p;
	u32 i;

	/* before the module's init runs: deferred kprobes register */
	if (action == MODULE_STATE_COMING) {
		kprof_module_event(mod, true);
		return NOTIFY_DONE;
	}
	if (action == MODULE_STATE_LIVE) {
		kprof_module_live(mod);
		return NOTIFY_DONE;
	}
	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	bitmap_zero(changed, KPROF_MAX_PROBES_LIMIT);
	mutex_lock(&kprof.lock);
	/* disarm first (stopping counters may sleep), then publish */
	kprof_for_each_probe(p, i, 0) {
		if (p->state == KPROF_STATE_GONE || !p->be->in_module ||
		    !p->be->in_module(p, mod))
			continue;
		__set_bit(i, changed);
		WRITE_ONCE(p->armed, false);
		p->want_run = p->state == KPROF_STATE_RUNNING;
		if (p->pmu && p->pmu->open) {
			kprof_pmu_window_close(p->pmu);
			kprof_pmu_disable(p->pmu);
		}
		p->state = KPROF_STATE_GONE;
	}
	if (bitmap_empty(changed, KPROF_MAX_PROBES_LIMIT)) {
		mutex_unlock(&kprof.lock);
		return NOTIFY_DONE;
	}
	kprof_seq_begin();
	for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT)
		kprof_publish(kprof.slots[i]);
	kprof_seq_end(true);
	for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT) {
		p = kprof.slots[i];
		pr_info("probe %u (%s): target module %s unloaded\n",
			p->id, p->spec, mod->name);
		kprof_tell(KPROF_GENL_EV_GONE, p, 0, 0);
	}
	/* unhooking sleeps: after the write section, before the text goes */
	for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT) {
		p = kprof.slots[i];
		if (p->be->going)
			p->be->going(p);
	}
	kprof_seq_begin();
	for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT)
		kprof_publish(kprof.slots[i]);
	kprof_seq_end(false);
	mutex_unlock(&kprof.lock);
	return NOTIFY_DONE;
}

/*
 * Right after kprof_core_init() (main.c), as its last step was: undone
 * right before kprof_core_exit().
 */
int kprof_modnotify_init(void)
{
	kprof.module_nb.notifier_call = kprof_module_cb;
	return register_module_notifier(&kprof.module_nb);
}

void kprof_modnotify_exit(void)
{
	unregister_module_notifier(&kprof.module_nb);
}
