// SPDX-License-Identifier: GPL-2.0
/*
 * Keyed latency pairs.  A start tracepoint stores a timestamp under the
 * event's tag (CPU and IRQ, worker task, woken task, request) in the
 * probe's bounded in-flight table; the matching end takes it back and adds
 * the difference to the histogram of the event's key (IRQ, vector, work
 * function, pid, device).  Starts and ends may run on different CPUs, so
 * both tables are shared by all CPUs and claimed with cmpxchg: no locks,
 * and an IRQ or NMI that nests on the same CPU at worst sees a slot as
 * busy and moves on.  Everything is preallocated when the probe is added.
 */
#include <linux/kernel.h>
#include <linux/interrupt.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/sched.h>
#include <linux/workqueue.h>
#include <linux/tracepoint.h>
#include <linux/timekeeping.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "probe.h"
#include "keys.h"
#include "events.h"
#include "tracepoints.h"
#include "backends.h"
#include "pairs.h"
#include "flights.h"
#include "size.h"

#define KPROF_DEF_PAIR_INFLIGHT	1024

static unsigned int pair_inflight = KPROF_DEF_PAIR_INFLIGHT;
module_param(pair_inflight, uint, 0444);
MODULE_PARM_DESC(pair_inflight,
		 "In-flight starts per pair probe, a power of two (64-65536)");

#define KPROF_PAIR_MAX_TPS	3

struct kprof_pair_kind {
	const char *name;
	const char *tps[KPROF_PAIR_MAX_TPS];
	void *funcs[KPROF_PAIR_MAX_TPS];
};

/* A pair probe; its callbacks' data */
struct kprof_pair {
	struct kprof_probe p;
	/* read and written in probe context */
	struct kprof_flights flights;
	/* process context */
	const struct kprof_pair_kind *kind;
	struct tracepoint *tps[KPROF_PAIR_MAX_TPS];
	bool tps_on;
};

static struct kprof_pair *kprof_pair(struct kprof_probe *p)
{
	return container_of(p, struct kprof_pair, p);
}

/*
 * The latency of a start taken back at ts; *now is the end's time.  The
 * clock is read after the take: a start re-put meanwhile (a task woken
 * again from an IRQ or another CPU while it switches in) is not later
 * than it.  The fast clock may still step back a little across CPUs, so
 * the difference is clamped as in the kretprobe path, never wrapped.
 */
static __always_inline u64 kprof_pair_ns(u64 ts, u64 *now)
{
	*now = ktime_get_mono_fast_ns();
	return *now > ts ? *now - ts : 0;
}

/* The end half of every pair: its start, or false (counted if asked). */
static __always_inline bool kprof_pair_took(struct kprof_pair *pp,
					    unsigned int cpu, u64 tag,
					    u64 *ts, bool count_unmatched)
{
	u64 aux;

	if (kprof_flight_take(&pp->flights, tag, ts, &aux))
		return true;
	if (count_unmatched)
		kprof_stat_unmatched(kprof_this_stats(&pp->p, cpu));
	return false;
}

static __always_inline void kprof_pair_start(struct kprof_pair *pp,
					     unsigned int cpu, u64 tag)
{
	if (!kprof_flight_put(&pp->flights, tag, ktime_get_mono_fast_ns(), 0))
		kprof_stat_drop(kprof_this_stats(&pp->p, cpu));
}

static __always_inline u64 kprof_cpu_tag(unsigned int cpu, u32 n)
{
	return ((u64)cpu + 1) << 32 | n;
}

/* Context of every callback below: see KPROF_TP_CALLBACK. */

/* ---- irq ------------------------------------------------------------------ */

static __always_inline void kprof_irq_start_body(void *data, int irq,
		struct irqaction *action)
{
	struct kprof_pair *pp = data;
	struct kprof_probe *p = &pp->p;
	unsigned int cpu = smp_processor_id();

	if (kprof_want(p, cpu))
		kprof_pair_start(pp, cpu, kprof_cpu_tag(cpu, irq));
}
KPROF_TP_CALLBACK(kprof_irq_start,
	(void *data, int irq, struct irqaction *action),
	(data, irq, action));

static __always_inline void kprof_irq_end_body(void *data, int irq,
		struct irqaction *action, int ret)
{
	struct kprof_pair *pp = data;
	struct kprof_probe *p = &pp->p;
	unsigned int cpu = smp_processor_id();
	u64 now, ts, ns;
	u32 k;

	if (!kprof_want(p, cpu) ||
	    !kprof_pair_took(pp, cpu, kprof_cpu_tag(cpu, irq), &ts, true))
		return;
	ns = kprof_pair_ns(ts, &now);
	k = kprof_key_get(&p->keys, (u64)(u32)irq + 1, (u32)irq, action->name);
	kprof_stat_latency(kprof_key_stats(&p->keys, k, cpu), ns);
	kprof_slow(p, cpu, now, ns, current, true, (u32)irq, 0);
}
KPROF_TP_CALLBACK(kprof_irq_end,
	(void *data, int irq, struct irqaction *action, int ret),
	(data, irq, action, ret));

/* ---- softirq -------------------------------------------------------------- */

/* the kernel's softirq_to_name[] is not exported; the vectors are ABI */
static const char *const kprof_softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

static __always_inline void kprof_softirq_start_body(void *data,
		unsigned int vec)
{
	struct kprof_pair *pp = data;
	struct kprof_probe *p = &pp->p;
	unsigned int cpu = smp_processor_id();

	if (kprof_want(p, cpu))
		kprof_pair_start(pp, cpu, kprof_cpu_tag(cpu, vec));
}
KPROF_TP_CALLBACK(kprof_softirq_start,
	(void *data, unsigned int vec),
	(data, vec));

static __always_inline void kprof_softirq_end_body(void *data, unsigned int vec)
{
	struct kprof_pair *pp = data;
	struct kprof_probe *p = &pp->p;
	unsigned int cpu = smp_processor_id();
	u64 now, ts, ns;
	u32 k;

	if (!kprof_want(p, cpu) ||
	    !kprof_pair_took(pp, cpu, kprof_cpu_tag(cpu, vec), &ts, true))
		return;
	ns = kprof_pair_ns(ts, &now);
	k = kprof_key_get(&p->keys, (u64)vec + 1, vec,
			  vec < ARRAY_SIZE(kprof_softirq_names) ?
			  kprof_softirq_names[vec] : "?");
	kprof_stat_latency(kprof_key_stats(&p->keys, k, cpu), ns);
	kprof_slow(p, cpu, now, ns, current, true, vec, 0);
}
KPROF_TP_CALLBACK(kprof_softirq_end,
	(void *data, unsigned int vec),
	(data, vec));

/* ---- workqueue -------------------------------------------------------------- */

/* tagged by worker: work may be freed by its own function */
static __always_inline void kprof_work_start_body(void *data,
		struct work_struct *work)
{
	struct kprof_pair *pp = data;
	struct kprof_probe *p = &pp->p;
	unsigned int cpu = smp_processor_id();

	if (kprof_want(p, cpu))
		kprof_pair_start(pp, cpu, (u64)(unsigned long)current);
}
KPROF_TP_CALLBACK(kprof_work_start,
	(void *data, struct work_struct *work),
	(data, work));

static __always_inline void kprof_work_end_body(void *data,
		struct work_struct *work, work_func_t func)
{
	struct kprof_pair *pp = data;
	struct kprof_probe *p = &pp->p;
	unsigned int cpu = smp_processor_id();
	u64 now, ts, ns;
	char name[sizeof(p->keys.map->name)];
	bool fresh;
	u32 k;

	/* the CPU filter applies where the work ends (workers can move) */
	if (!kprof_want(p, cpu) ||
	    !kprof_pair_took(pp, cpu, (u64)(unsigned long)current, &ts,
			     !(p->flags & KPROF_ADD_CPUS)))
		return;
	ns = kprof_pair_ns(ts, &now);
	k = kprof_key_find(&p->keys, (u64)(unsigned long)func, &fresh);
	if (fresh) {
		/* once per key; the value is an id, never the address */
		snprintf(name, sizeof(name), "%ps", func);
		kprof_key_publish(&p->keys, k, k, name);
	}
	kprof_stat_latency(kprof_key_stats(&p->keys, k, cpu), ns);
	kprof_slow(p, cpu, now, ns, current, true, k, 0);
}
KPROF_TP_CALLBACK(kprof_work_end,
	(void *data, struct work_struct *work, work_func_t func),
	(data, work, func));

/* ---- wakeup --------------------------------------------------------------- */

/* pid filters apply to the woken task, the CPU filter where it runs */
static __always_inline void kprof_wakeup_start_body(void *data,
		struct task_struct *t)
{
	struct kprof_pair *pp = data;
	struct kprof_probe *p = &pp->p;

	if (READ_ONCE(p->armed) && kprof_pid_ok(p, t))
		kprof_pair_start(pp, smp_processor_id(), (u64)(unsigned long)t);
}
KPROF_TP_CALLBACK(kprof_wakeup_start,
	(void *data, struct task_struct *t),
	(data, t));

static __always_inline void kprof_wakeup_end(struct kprof_pair *pp,
					     struct task_struct *next,
					     bool per_pid)
{
	struct kprof_probe *p = &pp->p;
	unsigned int cpu = smp_processor_id();
	u64 now, ts, ns, aux;
	u32 k;

	/* most switches run a task that was preempted, not woken */
	if (!READ_ONCE(p->armed) || !kprof_cpu_ok(p, cpu) ||
	    !kprof_flight_take(&pp->flights, (u64)(unsigned long)next, &ts,
			       &aux))
		return;
	ns = kprof_pair_ns(ts, &now);
	if (per_pid)
		k = kprof_key_get(&p->keys, (u64)(u32)next->pid + 1, (u32)next->pid,
				  next->comm);
	else
		k = kprof_key_get(&p->keys, 1, 0, "all");
	kprof_stat_latency(kprof_key_stats(&p->keys, k, cpu), ns);
	kprof_slow(p, cpu, now, ns, next, true,
		   per_pid ? (u32)next->pid : 0, 0);
}

static __always_inline void kprof_switch_all_body(void *data, bool preempt,
		struct task_struct *prev, struct task_struct *next,
		unsigned int prev_state)
{
	kprof_wakeup_end(data, next, false);
}
KPROF_TP_CALLBACK(kprof_switch_all,
	(void *data, bool preempt, struct task_struct *prev,
	 struct task_struct *next, unsigned int prev_state),
	(data, preempt, prev, next, prev_state));

static __always_inline void kprof_switch_pid_body(void *data, bool preempt,
		struct task_struct *prev, struct task_struct *next,
		unsigned int prev_state)
{
	kprof_wakeup_end(data, next, true);
}
KPROF_TP_CALLBACK(kprof_switch_pid,
	(void *data, bool preempt, struct task_struct *prev,
	 struct task_struct *next, unsigned int prev_state),
	(data, preempt, prev, next, prev_state));

#ifdef CONFIG_BLOCK
/* ---- block ---------------------------------------------------------------- */

static __always_inline void kprof_block_start_body(void *data,
		struct request *rq)
{
	struct kprof_pair *pp = data;
	struct kprof_probe *p = &pp->p;
	unsigned int cpu = smp_processor_id();

	if (kprof_want(p, cpu))
		kprof_pair_start(pp, cpu, (u64)(unsigned long)rq);
}
KPROF_TP_CALLBACK(kprof_block_start,
	(void *data, struct request *rq),
	(data, rq));

/* the CPU filter applies where the request completes */
static __always_inline void kprof_block_end_body(void *data, struct request *rq,
		blk_status_t error, unsigned int nr_bytes)
{
	struct kprof_pair *pp = data;
	struct kprof_probe *p = &pp->p;
	unsigned int cpu = smp_processor_id();
	u64 now, ts, ns;
	struct gendisk *disk;
	dev_t dev;
	u32 k;

	/* the issuer is not known here: with a pid filter, no unmatched */
	if (!READ_ONCE(p->armed) || !kprof_cpu_ok(p, cpu) ||
	    !kprof_pair_took(pp, cpu, (u64)(unsigned long)rq, &ts,
			     !(p->flags & KPROF_TASK_FILTERS)))
		return;
	ns = kprof_pair_ns(ts, &now);
	disk = rq->q->disk;
	dev = disk ? disk_devt(disk) : 0;
	k = kprof_key_get(&p->keys, (u64)dev + 1, dev, disk ? disk->disk_name : "");
	kprof_stat_latency(kprof_key_stats(&p->keys, k, cpu), ns);
	kprof_slow(p, cpu, now, ns, current, true, dev, 0);
}
KPROF_TP_CALLBACK(kprof_block_end,
	(void *data, struct request *rq, blk_status_t error,
	 unsigned int nr_bytes),
	(data, rq, error, nr_bytes));
#endif

/* ---- backend -------------------------------------------------------------- */

static const struct kprof_pair_kind kprof_pair_kinds[] = {
	{ "irq", { "irq_handler_entry", "irq_handler_exit" },
	  { kprof_irq_start, kprof_irq_end } },
	{ "softirq", { "softirq_entry", "softirq_exit" },
	  { kprof_softirq_start, kprof_softirq_end } },
	{ "workqueue", { "workqueue_execute_start", "workqueue_execute_end" },
	  { kprof_work_start, kprof_work_end } },
	{ "wakeup", { "sched_wakeup", "sched_wakeup_new", "sched_switch" },
	  { kprof_wakeup_start, kprof_wakeup_start, kprof_switch_all } },
	{ "wakeup-pid", { "sched_wakeup", "sched_wakeup_new", "sched_switch" },
	  { kprof_wakeup_start, kprof_wakeup_start, kprof_switch_pid } },
#ifdef CONFIG_BLOCK
	{ "block", { "block_rq_issue", "block_rq_complete" },
	  { kprof_block_start, kprof_block_end } },
#endif
};

static int kprof_pair_parse(struct kprof_probe *p, const char *arg,
			    struct kprof_probe_add *a)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kprof_pair_kinds); i++) {
		if (!strcmp(arg, kprof_pair_kinds[i].name)) {
			kprof_pair(p)->kind = &kprof_pair_kinds[i];
			return 0;
		}
	}
	return -EINVAL;
}

static int kprof_pair_alloc(struct kprof_probe *p)
{
	return kprof_flights_alloc(&kprof_pair(p)->flights, pair_inflight);
}

static void kprof_pair_free(struct kprof_probe *p)
{
	kprof_flights_free(&kprof_pair(p)->flights);
}

/* the kind's tracepoints, starts first */
static unsigned int kprof_pair_nr_tps(struct kprof_pair *pp)
{
	unsigned int n = 0;

	while (n < KPROF_PAIR_MAX_TPS && pp->kind->tps[n])
		n++;
	return n;
}

static void kprof_pair_disarm(struct kprof_probe *p)
{
	struct kprof_pair *pp = kprof_pair(p);

	if (!pp->tps_on)
		return;
	kprof_tp_unregister_all(pp->tps, pp->kind->funcs, kprof_pair_nr_tps(pp),
				pp);
	pp->tps_on = false;
}

/* No callback is running (never armed, or disarmed and synchronised). */
static void kprof_pair_clear(struct kprof_probe *p)
{
	kprof_flights_clear(&kprof_pair(p)->flights);
}

/*
 * Starts are registered before ends, so no end is counted unmatched for
 * want of a registered start; a start whose end was missed is restarted
 * by its tag's next start.
 */
static int kprof_pair_arm(struct kprof_probe *p)
{
	struct kprof_pair *pp = kprof_pair(p);
	int ret;

	/*
	 * Starts left from the last run would pair with unrelated ends.  Keys
	 * stay: their tags, names and statistics belong together until RESET.
	 */
	kprof_pair_clear(p);
	ret = kprof_tp_register_all(pp->tps, pp->kind->funcs,
				    kprof_pair_nr_tps(pp), pp);
	pp->tps_on = !ret;
	return ret;
}

static int kprof_pair_attach(struct kprof_probe *p, bool armed)
{
	struct kprof_pair *pp = kprof_pair(p);
	struct module *mod;
	int i;

	pp->tps_on = false;
	for (i = 0; i < KPROF_PAIR_MAX_TPS && pp->kind->tps[i]; i++) {
		pp->tps[i] = kprof_tp_find(pp->kind->tps[i], &mod);
		/* core-kernel events only: nothing can pull them away */
		if (!pp->tps[i] || mod)
			return -ENOENT;
	}
	return armed ? kprof_pair_arm(p) : 0;
}

static void kprof_pair_detach(struct kprof_probe *p)
{
	kprof_pair_disarm(p);
	tracepoint_synchronize_unregister();
}

const struct kprof_backend kprof_pair_backend = {
	.prefix		= "pair",
	.mech		= KPROF_MECH_TRACEPOINT,
	.size		= sizeof(struct kprof_pair),
	.parse		= kprof_pair_parse,
	.alloc		= kprof_pair_alloc,
	.free		= kprof_pair_free,
	.attach		= kprof_pair_attach,
	.detach		= kprof_pair_detach,
	.arm		= kprof_pair_arm,
	.disarm		= kprof_pair_disarm,
	.clear		= kprof_pair_clear,
};

/* Context: module init, before any probe. */
int kprof_pairs_init(void)
{
	static const struct kprof_size size = {
		"pair_inflight", "pair-inflight", &pair_inflight,
		KPROF_DEF_PAIR_INFLIGHT, 64, 65536, true
	};

	return kprof_size_apply(&size);
}
