// SPDX-License-Identifier: GPL-2.0
/*
 * The off-CPU kind, "offcpu:all" or "offcpu:uninterruptible": where tasks
 * wait.  At sched_switch a task that blocks (not preempted: it is not
 * runnable) leaves its kernel stack's id and the time in an in-flight
 * table under the task; when a switch runs it again, the time it was off
 * the CPU is added to that stack's count and nanoseconds in a stack table
 * (stacktab.h).  The task filters (--pid, --tgid, a session) and --if's
 * task terms apply to the task that blocks, --cpus where it blocked.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <linux/timekeeping.h>

#include "probe.h"
#include "filter.h"
#include "frames.h"
#include "flights.h"
#include "stacktab.h"
#include "tracepoints.h"
#include "backends.h"

/* tasks blocked at once that the table follows */
#define KPROF_OFFCPU_INFLIGHT	4096

struct kprof_offcpu {
	struct kprof_probe p;
	struct kprof_flights flights;	/* task -> when it blocked, stack id */
	struct kprof_stacktab tab;	/* per stack: count, ns */
	struct tracepoint *tp;
	bool d_only;			/* waits ps shows as D only */
	bool tp_on;
};

static struct kprof_offcpu *kprof_offcpu(struct kprof_probe *p)
{
	return container_of(p, struct kprof_offcpu, p);
}

/*
 * A wait ps shows as D: uninterruptible but not TASK_IDLE (an idle
 * kworker's or kthread's, ps's I), and PREEMPT_RT's sleeping-lock waits,
 * which ps reports as the D they stand for.
 */
static __always_inline bool kprof_offcpu_is_d(unsigned int state)
{
	return (state & (TASK_UNINTERRUPTIBLE | TASK_NOLOAD)) ==
		       TASK_UNINTERRUPTIBLE ||
	       (state & TASK_RTLOCK_WAIT);
}

static __always_inline void kprof_offcpu_switch_body(void *data,
		bool preempt, struct task_struct *prev,
		struct task_struct *next, unsigned int prev_state)
{
	struct kprof_offcpu *o = data;
	struct kprof_probe *p = &o->p;
	unsigned int cpu = smp_processor_id();
	struct kprof_fvals v = { .task = prev };
	u64 ts, id, now;

	if (!READ_ONCE(p->armed))
		return;
	/* next runs again: its wait ends */
	if (kprof_flight_take(&o->flights, (u64)(unsigned long)next, &ts, &id)) {
		now = ktime_get_mono_fast_ns();
		local64_inc(kprof_stacktab_word(&o->tab, cpu, id, 0));
		local64_add(now > ts ? now - ts : 0,
			    kprof_stacktab_word(&o->tab, cpu, id, 1));
		kprof_stat_count(kprof_this_stats(p, cpu));
	}
	/*
	 * prev waits unless it was preempted (it is runnable) or exits (it
	 * never runs again, and its task_struct may come back as another's)
	 */
	if (preempt || !prev_state || (prev_state & TASK_DEAD) ||
	    (o->d_only && !kprof_offcpu_is_d(prev_state)))
		return;
	/* current is prev here: the task filters apply to it */
	if (!kprof_want(p, cpu) || !kprof_filter_match(&p->f_entry, &v))
		return;
	id = kprof_stack_id(&p->stacks, 0, 0, 0, NULL);
	if (!id || !kprof_flight_put(&o->flights, (u64)(unsigned long)prev,
				     ktime_get_mono_fast_ns(), id))
		kprof_stat_drop(kprof_this_stats(p, cpu));
}
KPROF_TP_CALLBACK(kprof_offcpu_switch,
	(void *data, bool preempt, struct task_struct *prev,
	 struct task_struct *next, unsigned int prev_state),
	(data, preempt, prev, next, prev_state));

/* "all" or "uninterruptible"; a stack key alone (the CLI adds it) */
static int kprof_offcpu_parse(struct kprof_probe *p, const char *arg,
			      struct kprof_probe_add *a)
{
	struct kprof_offcpu *o = kprof_offcpu(p);

	if (!strcmp(arg, "uninterruptible"))
		o->d_only = true;
	else if (strcmp(arg, "all"))
		return -EINVAL;
	if (KPROF_KEYSPEC_KIND(a->key[0]) != KPROF_KEY_STACK || a->key[1])
		return -EINVAL;
	p->own_keys = true;
	return kprof_stacktab_size(&o->tab, a->nr_keys, 2);
}

static int kprof_offcpu_alloc(struct kprof_probe *p)
{
	struct kprof_offcpu *o = kprof_offcpu(p);
	int ret;

	ret = kprof_flights_alloc(&o->flights, KPROF_OFFCPU_INFLIGHT);
	if (!ret)
		ret = kprof_frames_alloc(&p->stacks, o->tab.nr,
					 KPROF_SAMPLE_DEPTH);
	return ret;
}

static void kprof_offcpu_free(struct kprof_probe *p)
{
	kprof_flights_free(&kprof_offcpu(p)->flights);
}

static void kprof_offcpu_disarm(struct kprof_probe *p)
{
	struct kprof_offcpu *o = kprof_offcpu(p);

	if (!o->tp_on)
		return;
	tracepoint_probe_unregister(o->tp, kprof_offcpu_switch, o);
	o->tp_on = false;
}

static int kprof_offcpu_arm(struct kprof_probe *p)
{
	struct kprof_offcpu *o = kprof_offcpu(p);
	int ret;

	/* waits that began in the last run would end in this one */
	kprof_flights_clear(&o->flights);
	ret = tracepoint_probe_register(o->tp, kprof_offcpu_switch, o);
	if (ret)
		return ret;
	o->tp_on = true;
	return 0;
}

/* No callback runs (never armed, or disarmed and synchronised). */
static void kprof_offcpu_clear(struct kprof_probe *p)
{
	struct kprof_offcpu *o = kprof_offcpu(p);

	kprof_flights_clear(&o->flights);
	kprof_stacktab_clear(&o->tab);
}

static int kprof_offcpu_attach(struct kprof_probe *p, bool armed)
{
	struct kprof_offcpu *o = kprof_offcpu(p);
	struct module *mod;
	int ret;

	o->tp_on = false;
	o->tp = kprof_tp_find("sched_switch", &mod);
	if (!o->tp || mod)
		return -ENOENT;
	ret = kprof_stacktab_get(&o->tab);
	if (ret)
		return ret;
	ret = armed ? kprof_offcpu_arm(p) : 0;
	if (ret)
		kprof_stacktab_put(&o->tab);
	return ret;
}

static void kprof_offcpu_detach(struct kprof_probe *p)
{
	kprof_offcpu_disarm(p);
	tracepoint_synchronize_unregister();
	kprof_stacktab_put(&kprof_offcpu(p)->tab);
}

static void kprof_offcpu_fill_info(struct kprof_probe *p,
				   struct kprof_probe_info *i)
{
	kprof_stacktab_fill_info(&kprof_offcpu(p)->tab, i);
}

const struct kprof_backend kprof_offcpu_backend = {
	.prefix		= "offcpu",
	.mech		= KPROF_MECH_TRACEPOINT,
	.size		= sizeof(struct kprof_offcpu),
	.parse		= kprof_offcpu_parse,
	.alloc		= kprof_offcpu_alloc,
	.free		= kprof_offcpu_free,
	.attach		= kprof_offcpu_attach,
	.detach		= kprof_offcpu_detach,
	.arm		= kprof_offcpu_arm,
	.disarm		= kprof_offcpu_disarm,
	.clear		= kprof_offcpu_clear,
	.fill_info	= kprof_offcpu_fill_info,
};
