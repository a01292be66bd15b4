// SPDX-License-Identifier: GPL-2.0
/*
 * Slow-call events: fixed-size records written in probe context into a
 * preallocated ring per CPU, drained in process context to a sink (main.c
 * makes it netlink messages, genl.c).
 *
 * A ring is written only by its own CPU, in any context: an IRQ or NMI
 * that nests inside a writer claims the next slot with a cmpxchg on the
 * local head and commits on its own.  A slot is published by storing its
 * position + 1 into ->seq (release); the consumer stops at the first slot
 * not yet published, so a slot claimed by an interrupted writer holds
 * back the ones after it until the writer commits.  The consumer is one
 * work item, so there is one reader; it frees slots by advancing ->tail
 * (release) after copying them out.  A writer that finds the ring full
 * counts the call in its probe's events_dropped and returns.
 *
 * Probe context never allocates, takes a lock or wakes anything: the only
 * side effect besides the ring is irq_work_queue(), which is NMI-safe and
 * runs the kick from the next interrupt on this CPU.  A probe added with
 * KPROF_ADD_FTRACE also acts on ftrace first (snap.c says how).
 */
#include <linux/kernel.h>
#include <linux/irq_work.h>
#include <linux/workqueue.h>
#include <linux/percpu.h>
#include <linux/stacktrace.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/module.h>
#include <linux/timekeeping.h>
#include <linux/kprobes.h>
#include <asm/local.h>

#include "events.h"
#include "size.h"
#include "snap.h"
#include "fast.h"

#define KPROF_DEF_EVENT_RING	256

static unsigned int event_ring = KPROF_DEF_EVENT_RING;
module_param(event_ring, uint, 0444);
MODULE_PARM_DESC(event_ring,
		 "Slow-call records per CPU ring, a power of two (16-65536)");

struct kprof_evring {
	local_t head;			/* next position to claim */
	unsigned long tail;		/* first position not yet consumed */
	struct irq_work kick;
	struct kprof_evrec *rec;	/* event_ring records */
};

static struct kprof_evring __percpu *kprof_rings;
static struct work_struct kprof_drain_work;
static const struct kprof_events_sink *kprof_sink;

u32 kprof_event_ring(void)
{
	return event_ring;
}

/* Context: hard IRQ (irq_work), from the CPU that wrote a record. */
static void kprof_evring_kick(struct irq_work *w)
{
	queue_work(system_wq, &kprof_drain_work);
}

/*
 * The stack starts at "from" (a kretprobe's return address) when it is
 * found among the first frames: those above it are the probe machinery.
 */
static __always_inline unsigned int kprof_stack(unsigned long *st,
						 unsigned long from)
{
	unsigned int n, i;

	n = kprof_stack_save(st, KPROF_STACK_DEPTH + 8, 1);
	for (i = 0; from && i < n && i < 8; i++)
		if (st[i] == from) {
			memmove(st, st + i, (n - i) * sizeof(*st));
			n -= i;
			break;
		}
	return min_t(unsigned int, n, KPROF_STACK_DEPTH);
}

/*
 * Context: any probe context.  Queues one record for p; the caller has
 * checked p->slow_ns.
 */
notrace void kprof_event_slow(struct kprof_probe *p, unsigned int cpu,
			      u64 now, u64 latency, struct task_struct *t,
			      bool has_key, u64 key, unsigned long from)
{
	struct kprof_evring *r = per_cpu_ptr(kprof_rings, cpu);
	struct kprof_cpu_stats *st = kprof_this_stats(p, cpu);
	struct kprof_evrec *rec;
	long pos, seen;
	/* ftrace's part first: it happens even when the ring is full */
	u32 ft = kprof_snap_slow(p, latency, t);

	pos = local_read(&r->head);
	for (;;) {
		if ((unsigned long)pos - READ_ONCE(r->tail) >= event_ring) {
			local64_inc(kprof_l64(&st->events_dropped));
			return;
		}
		seen = local_cmpxchg(&r->head, pos, pos + 1);
		if (seen == pos)
			break;
		pos = seen;
	}
	rec = &r->rec[pos & (event_ring - 1)];
	rec->probe_id = p->id;
	rec->time_ns = now;
	rec->latency_ns = latency;
	rec->pid = t->pid;
	rec->tgid = t->tgid;
	memcpy(rec->comm, t->comm, sizeof(rec->comm));
	rec->comm[sizeof(rec->comm) - 1] = '\0';
	rec->has_key = has_key;
	rec->key = key;
	rec->ftrace = ft;
	rec->nr_stack = 0;
	if (p->flags & KPROF_ADD_STACK)
		rec->nr_stack = kprof_stack(rec->stack, from);
	/* the record before its sequence: pairs with the drain's acquire */
	smp_store_release(&rec->seq, (u64)pos + 1);
	local64_inc(kprof_l64(&st->events));
	irq_work_queue(&r->kick);
}
NOKPROBE_SYMBOL(kprof_event_slow);

/*
 * Context: process (the work item).  Sends every published record, CPU by
 * CPU, then what was lost since the last report.
 */
static void kprof_drain_fn(struct work_struct *work)
{
	struct kprof_evrec copy;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct kprof_evring *r = per_cpu_ptr(kprof_rings, cpu);
		unsigned long t = r->tail;

		for (;;) {
			struct kprof_evrec *rec = &r->rec[t & (event_ring - 1)];

			/* published: its contents are visible (acquire) */
			if (smp_load_acquire(&rec->seq) != (u64)t + 1)
				break;
			copy = *rec;
			t++;
			/* the slot is free once its copy is taken */
			smp_store_release(&r->tail, t);
			kprof_sink->send(&copy, cpu);
		}
	}
	kprof_sink->drained();
}

int kprof_events_init(const struct kprof_events_sink *sink)
{
	static const struct kprof_size size = {
		"event_ring", "event-ring", &event_ring,
		KPROF_DEF_EVENT_RING, 16, 65536, true
	};
	unsigned int cpu;
	int ret;

	ret = kprof_size_apply(&size);
	if (ret)
		return ret;
	kprof_sink = sink;
	INIT_WORK(&kprof_drain_work, kprof_drain_fn);
	kprof_rings = alloc_percpu(struct kprof_evring);
	if (!kprof_rings)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct kprof_evring *r = per_cpu_ptr(kprof_rings, cpu);

		local_set(&r->head, 0);
		r->tail = 0;
		init_irq_work(&r->kick, kprof_evring_kick);
		r->rec = kvcalloc(event_ring, sizeof(*r->rec), GFP_KERNEL);
		if (!r->rec) {
			kprof_events_exit();
			return -ENOMEM;
		}
	}
	return 0;
}

/* After every probe is gone: no writer is left, only kicks in flight. */
void kprof_events_exit(void)
{
	unsigned int cpu;

	if (!kprof_rings)
		return;
	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(kprof_rings, cpu)->kick);
	cancel_work_sync(&kprof_drain_work);
	for_each_possible_cpu(cpu)
		kvfree(per_cpu_ptr(kprof_rings, cpu)->rec);
	free_percpu(kprof_rings);
	kprof_rings = NULL;
}
