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
#include <linux/hash.h>
#include <linux/interrupt.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/sched.h>
#include <linux/workqueue.h>
#include <linux/tracepoint.h>
#include <linux/timekeeping.h>
#include <linux/kprobes.h>

#include "kprof.h"

/* slots an in-flight tag may live in, from its hash on */
#define KPROF_FLIGHT_PROBES	8

struct kprof_pair_kind {
	const char *name;
	const char *tps[KPROF_PAIR_MAX_TPS];
	void *funcs[KPROF_PAIR_MAX_TPS];
};

/* ---- in-flight starts -------------------------------------------------- */

/*
 * Context: any probe context.  A tag already present (a task woken twice
 * before it ran) is restarted rather than duplicated.  False when the
 * tag's slots are all taken: the caller counts the start as dropped.
 */
static notrace bool kprof_flight_put(struct kprof_probe *p, u64 tag, u64 ts)
{
	u32 h = hash_64(tag, 32), i;
	struct kprof_flight *f;

	for (i = 0; i < KPROF_FLIGHT_PROBES; i++) {
		f = &p->flights[(h + i) & p->flight_mask];
		if (READ_ONCE(f->tag) == tag &&
		    cmpxchg(&f->tag, tag, KPROF_FLIGHT_BUSY) == tag)
			goto fill;
	}
	for (i = 0; i < KPROF_FLIGHT_PROBES; i++) {
		f = &p->flights[(h + i) & p->flight_mask];
		if (!READ_ONCE(f->tag) &&
		    !cmpxchg(&f->tag, 0, KPROF_FLIGHT_BUSY))
			goto fill;
	}
	return false;
fill:
	WRITE_ONCE(f->ts, ts);
	smp_store_release(&f->tag, tag);	/* ts before the tag */
	return true;
}
NOKPROBE_SYMBOL(kprof_flight_put);

/* Context: any probe context.  Removes tag's start and returns it. */
static notrace bool kprof_flight_take(struct kprof_probe *p, u64 tag, u64 *ts)
{
	u32 h = hash_64(tag, 32), i;
	struct kprof_flight *f;

	for (i = 0; i < KPROF_FLIGHT_PROBES; i++) {
		f = &p->flights[(h + i) & p->flight_mask];
		if (READ_ONCE(f->tag) == tag &&
		    cmpxchg(&f->tag, tag, KPROF_FLIGHT_BUSY) == tag) {
			*ts = READ_ONCE(f->ts);
			/* ts read before the slot can be reused */
			smp_store_release(&f->tag, 0);
			return true;
		}
	}
	return false;
}
NOKPROBE_SYMBOL(kprof_flight_take);

/* ---- keys ---------------------------------------------------------------- */

/*
 * Context: any probe context.  The index of tag's key (tag != 0), claimed
 * if new (*fresh: the caller publishes it), or p->nr_keys ("other keys")
 * when every key is taken.  Two CPUs claiming the same new key agree on
 * one slot: the loser's cmpxchg returns the winner's tag.
 */
static notrace u32 kprof_key_find(struct kprof_probe *p, u64 tag, bool *fresh)
{
	u32 h = hash_64(tag, 32), i, k;
	u64 v;

	*fresh = false;
	for (i = 0; i < p->nr_keys; i++) {
		k = (h + i) & (p->nr_keys - 1);
		v = READ_ONCE(p->key_tags[k]);
		if (!v) {
			v = cmpxchg(&p->key_tags[k], 0, tag);
			if (!v) {
				*fresh = true;
				return k;
			}
		}
		if (v == tag)
			return k;
	}
	return p->nr_keys;
}
NOKPROBE_SYMBOL(kprof_key_find);

static notrace void kprof_key_publish(struct kprof_probe *p, u32 k, u64 value,
			      const char *name)
{
	struct kprof_key *key = &p->keys[k];

	WRITE_ONCE(key->value, value);
	strscpy(key->name, name ? name : "", sizeof(key->name));
	/* value and name before the flag; readers load it with acquire */
	smp_store_release(&key->flags, KPROF_KEY_USED);
}
NOKPROBE_SYMBOL(kprof_key_publish);

/*
 * Context: any probe context.  The index of the key with this tag,
 * published with value and name if it is new.
 */
static __always_inline u32 kprof_key_get(struct kprof_probe *p, u64 tag,
					 u64 value, const char *name)
{
	bool fresh;
	u32 k = kprof_key_find(p, tag, &fresh);

	if (fresh)
		kprof_key_publish(p, k, value, name);
	return k;
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
static __always_inline bool kprof_pair_took(struct kprof_probe *p,
					    unsigned int cpu, u64 tag,
					    u64 *ts, bool count_unmatched)
{
	if (kprof_flight_take(p, tag, ts))
		return true;
	if (count_unmatched)
		kprof_stat_unmatched(kprof_this_stats(p, cpu));
	return false;
}

static __always_inline void kprof_pair_start(struct kprof_probe *p,
					     unsigned int cpu, u64 tag)
{
	if (!kprof_flight_put(p, tag, ktime_get_mono_fast_ns()))
		kprof_stat_drop(kprof_this_stats(p, cpu));
}

static __always_inline u64 kprof_cpu_tag(unsigned int cpu, u32 n)
{
	return ((u64)cpu + 1) << 32 | n;
}

/*
 * Context of every callback below: the tracepoint's call site, with
 * preemption disabled; IRQ, softirq or process context as the event is.
 * notrace: the function tracer must not recurse into probe context, and
 * its entry nops are a tenth of a tracepoint count's cost.  Each is
 * NAME_body() inlined into NAME(); on kernels whose tracepoints call
 * probes preemptible (under SRCU-fast) NAME() disables preemption around
 * it, elsewhere it costs nothing.
 */
#ifdef KPROF_HAVE_TRACEPOINT_SRCU_FAST
#define KPROF_PAIR_CALLBACK(name, proto, args)			\
	static notrace void name proto				\
	{							\
		preempt_disable_notrace();			\
		name##_body args;				\
		preempt_enable_notrace();			\
	}							\
	NOKPROBE_SYMBOL(name)
#else
#define KPROF_PAIR_CALLBACK(name, proto, args)			\
	static notrace void name proto				\
	{							\
		name##_body args;				\
	}							\
	NOKPROBE_SYMBOL(name)
#endif

/* ---- irq ------------------------------------------------------------------ */

static __always_inline void kprof_irq_start_body(void *data, int irq,
		struct irqaction *action)
{
	struct kprof_probe *p = data;
	unsigned int cpu = smp_processor_id();

	if (kprof_want(p, cpu))
		kprof_pair_start(p, cpu, kprof_cpu_tag(cpu, irq));
}
KPROF_PAIR_CALLBACK(kprof_irq_start,
	(void *data, int irq, struct irqaction *action),
	(data, irq, action));

static __always_inline void kprof_irq_end_body(void *data, int irq,
		struct irqaction *action, int ret)
{
	struct kprof_probe *p = data;
	unsigned int cpu = smp_processor_id();
	u64 now, ts, ns;
	u32 k;

	if (!kprof_want(p, cpu) ||
	    !kprof_pair_took(p, cpu, kprof_cpu_tag(cpu, irq), &ts, true))
		return;
	ns = kprof_pair_ns(ts, &now);
	k = kprof_key_get(p, (u64)(u32)irq + 1, (u32)irq, action->name);
	kprof_stat_latency(kprof_key_stats(p, k, cpu), ns);
	kprof_slow(p, cpu, now, ns, current, true, (u32)irq, 0);
}
KPROF_PAIR_CALLBACK(kprof_irq_end,
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
	struct kprof_probe *p = data;
	unsigned int cpu = smp_processor_id();

	if (kprof_want(p, cpu))
		kprof_pair_start(p, cpu, kprof_cpu_tag(cpu, vec));
}
KPROF_PAIR_CALLBACK(kprof_softirq_start,
	(void *data, unsigned int vec),
	(data, vec));

static __always_inline void kprof_softirq_end_body(void *data, unsigned int vec)
{
	struct kprof_probe *p = data;
	unsigned int cpu = smp_processor_id();
	u64 now, ts, ns;
	u32 k;

	if (!kprof_want(p, cpu) ||
	    !kprof_pair_took(p, cpu, kprof_cpu_tag(cpu, vec), &ts, true))
		return;
	ns = kprof_pair_ns(ts, &now);
	k = kprof_key_get(p, (u64)vec + 1, vec,
			  vec < ARRAY_SIZE(kprof_softirq_names) ?
			  kprof_softirq_names[vec] : "?");
	kprof_stat_latency(kprof_key_stats(p, k, cpu), ns);
	kprof_slow(p, cpu, now, ns, current, true, vec, 0);
}
KPROF_PAIR_CALLBACK(kprof_softirq_end,
	(void *data, unsigned int vec),
	(data, vec));

/* ---- workqueue -------------------------------------------------------------- */

/* tagged by worker: work may be freed by its own function */
static __always_inline void kprof_work_start_body(void *data,
		struct work_struct *work)
{
	struct kprof_probe *p = data;
	unsigned int cpu = smp_processor_id();

	if (kprof_want(p, cpu))
		kprof_pair_start(p, cpu, (u64)(unsigned long)current);
}
KPROF_PAIR_CALLBACK(kprof_work_start,
	(void *data, struct work_struct *work),
	(data, work));

static __always_inline void kprof_work_end_body(void *data,
		struct work_struct *work, work_func_t func)
{
	struct kprof_probe *p = data;
	unsigned int cpu = smp_processor_id();
	u64 now, ts, ns;
	char name[sizeof(p->keys->name)];
	bool fresh;
	u32 k;

	/* the CPU filter applies where the work ends (workers can move) */
	if (!kprof_want(p, cpu) ||
	    !kprof_pair_took(p, cpu, (u64)(unsigned long)current, &ts,
			     !(p->flags & KPROF_ADD_CPUS)))
		return;
	ns = kprof_pair_ns(ts, &now);
	k = kprof_key_find(p, (u64)(unsigned long)func, &fresh);
	if (fresh) {
		/* once per key; the value is an id, never the address */
		snprintf(name, sizeof(name), "%ps", func);
		kprof_key_publish(p, k, k, name);
	}
	kprof_stat_latency(kprof_key_stats(p, k, cpu), ns);
	kprof_slow(p, cpu, now, ns, current, true, k, 0);
}
KPROF_PAIR_CALLBACK(kprof_work_end,
	(void *data, struct work_struct *work, work_func_t func),
	(data, work, func));

/* ---- wakeup --------------------------------------------------------------- */

/* pid filters apply to the woken task, the CPU filter where it runs */
static __always_inline void kprof_wakeup_start_body(void *data,
		struct task_struct *t)
{
	struct kprof_probe *p = data;

	if (READ_ONCE(p->armed) && kprof_pid_ok(p, t))
		kprof_pair_start(p, smp_processor_id(), (u64)(unsigned long)t);
}
KPROF_PAIR_CALLBACK(kprof_wakeup_start,
	(void *data, struct task_struct *t),
	(data, t));

static __always_inline void kprof_wakeup_end(struct kprof_probe *p,
					     struct task_struct *next,
					     bool per_pid)
{
	unsigned int cpu = smp_processor_id();
	u64 now, ts, ns;
	u32 k;

	/* most switches run a task that was preempted, not woken */
	if (!READ_ONCE(p->armed) || !kprof_cpu_ok(p, cpu) ||
	    !kprof_flight_take(p, (u64)(unsigned long)next, &ts))
		return;
	ns = kprof_pair_ns(ts, &now);
	if (per_pid)
		k = kprof_key_get(p, (u64)(u32)next->pid + 1, (u32)next->pid,
				  next->comm);
	else
		k = kprof_key_get(p, 1, 0, "all");
	kprof_stat_latency(kprof_key_stats(p, k, cpu), ns);
	kprof_slow(p, cpu, now, ns, next, true,
		   per_pid ? (u32)next->pid : 0, 0);
}

static __always_inline void kprof_switch_all_body(void *data, bool preempt,
		struct task_struct *prev, struct task_struct *next,
		unsigned int prev_state)
{
	kprof_wakeup_end(data, next, false);
}
KPROF_PAIR_CALLBACK(kprof_switch_all,
	(void *data, bool preempt, struct task_struct *prev,
	 struct task_struct *next, unsigned int prev_state),
	(data, preempt, prev, next, prev_state));

static __always_inline void kprof_switch_pid_body(void *data, bool preempt,
		struct task_struct *prev, struct task_struct *next,
		unsigned int prev_state)
{
	kprof_wakeup_end(data, next, true);
}
KPROF_PAIR_CALLBACK(kprof_switch_pid,
	(void *data, bool preempt, struct task_struct *prev,
	 struct task_struct *next, unsigned int prev_state),
	(data, preempt, prev, next, prev_state));

#ifdef CONFIG_BLOCK
/* ---- block ---------------------------------------------------------------- */

static __always_inline void kprof_block_start_body(void *data,
		struct request *rq)
{
	struct kprof_probe *p = data;
	unsigned int cpu = smp_processor_id();

	if (kprof_want(p, cpu))
		kprof_pair_start(p, cpu, (u64)(unsigned long)rq);
}
KPROF_PAIR_CALLBACK(kprof_block_start,
	(void *data, struct request *rq),
	(data, rq));

/* the CPU filter applies where the request completes */
static __always_inline void kprof_block_end_body(void *data, struct request *rq,
		blk_status_t error, unsigned int nr_bytes)
{
	struct kprof_probe *p = data;
	unsigned int cpu = smp_processor_id();
	u64 now, ts, ns;
	struct gendisk *disk;
	dev_t dev;
	u32 k;

	/* the issuer is not known here: with a pid filter, no unmatched */
	if (!READ_ONCE(p->armed) || !kprof_cpu_ok(p, cpu) ||
	    !kprof_pair_took(p, cpu, (u64)(unsigned long)rq, &ts,
			     !(p->flags & (KPROF_ADD_PID | KPROF_ADD_TGID))))
		return;
	ns = kprof_pair_ns(ts, &now);
	disk = rq->q->disk;
	dev = disk ? disk_devt(disk) : 0;
	k = kprof_key_get(p, (u64)dev + 1, dev, disk ? disk->disk_name : "");
	kprof_stat_latency(kprof_key_stats(p, k, cpu), ns);
	kprof_slow(p, cpu, now, ns, current, true, dev, 0);
}
KPROF_PAIR_CALLBACK(kprof_block_end,
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

static int kprof_pair_parse(struct kprof_probe *p, const char *arg)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kprof_pair_kinds); i++) {
		if (!strcmp(arg, kprof_pair_kinds[i].name)) {
			p->kind = &kprof_pair_kinds[i];
			return 0;
		}
	}
	return -EINVAL;
}

static void kprof_pair_disarm(struct kprof_probe *p)
{
	int i;

	if (!p->tps_on)
		return;
	for (i = 0; i < KPROF_PAIR_MAX_TPS && p->kind->tps[i]; i++)
		tracepoint_probe_unregister(p->tps[i], p->kind->funcs[i], p);
	p->tps_on = false;
}

/* No callback is running (never armed, or disarmed and synchronised). */
static void kprof_pair_clear_flights(struct kprof_probe *p)
{
	memset(p->flights, 0, (p->flight_mask + 1) * sizeof(*p->flights));
}

/*
 * RESET: the core has zeroed the keys in the mapping and their statistics;
 * their tags go with them, so a slot is reused only once it is blank.
 */
static void kprof_pair_clear(struct kprof_probe *p)
{
	memset(p->key_tags, 0, p->nr_keys * sizeof(*p->key_tags));
	kprof_pair_clear_flights(p);
}

/*
 * Starts are registered before ends, so no end is counted unmatched for
 * want of a registered start; a start whose end was missed is restarted
 * by its tag's next start.
 */
static int kprof_pair_arm(struct kprof_probe *p)
{
	int i, ret = 0;

	/*
	 * Starts left from the last run would pair with unrelated ends.  Keys
	 * stay: their tags, names and statistics belong together until RESET.
	 */
	kprof_pair_clear_flights(p);
	for (i = 0; i < KPROF_PAIR_MAX_TPS && p->kind->tps[i]; i++) {
		ret = tracepoint_probe_register(p->tps[i], p->kind->funcs[i],
						p);
		if (ret)
			break;
	}
	if (!ret) {
		p->tps_on = true;
		return 0;
	}
	while (--i >= 0)
		tracepoint_probe_unregister(p->tps[i], p->kind->funcs[i], p);
	tracepoint_synchronize_unregister();
	return ret;
}

static int kprof_pair_attach(struct kprof_probe *p, bool armed)
{
	struct module *mod;
	int i;

	p->tps_on = false;
	for (i = 0; i < KPROF_PAIR_MAX_TPS && p->kind->tps[i]; i++) {
		p->tps[i] = kprof_tp_find(p->kind->tps[i], &mod);
		/* core-kernel events only: nothing can pull them away */
		if (!p->tps[i] || mod)
			return -ENOENT;
	}
	return armed ? kprof_pair_arm(p) : 0;
}

static void kprof_pair_detach(struct kprof_probe *p)
{
	kprof_pair_disarm(p);
	tracepoint_synchronize_unregister();
}

static u64 kprof_pair_nmissed(struct kprof_probe *p)
{
	return 0;
}

static bool kprof_pair_in_module(struct kprof_probe *p, struct module *mod)
{
	return false;
}

const struct kprof_backend kprof_pair_backend = {
	.type		= KPROF_TYPE_PAIR,
	.prefix		= "pair",
	.parse		= kprof_pair_parse,
	.attach		= kprof_pair_attach,
	.detach		= kprof_pair_detach,
	.arm		= kprof_pair_arm,
	.disarm		= kprof_pair_disarm,
	.nmissed	= kprof_pair_nmissed,
	.in_module	= kprof_pair_in_module,
	.clear		= kprof_pair_clear,
	.keyed		= true,
};
