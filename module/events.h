/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slow-call events: records queued in probe context into a ring per CPU,
 * drained in process context onto the netlink family (genl.c).
 */
#ifndef KPROF_EVENTS_H
#define KPROF_EVENTS_H

#include "probe.h"

/* A slow call, as queued in probe context (events.c). */
struct kprof_evrec {
	u64 seq;			/* position + 1 once published */
	u64 time_ns;
	u64 latency_ns;
	u64 key;
	u32 probe_id;
	u32 pid;
	u32 tgid;
	u32 nr_stack;
	bool has_key;
	u32 ftrace;			/* KPROF_GENL_FT_*: what it did */
	char comm[TASK_COMM_LEN];
	/* room for the probe machinery's own frames, trimmed off */
	unsigned long stack[KPROF_STACK_DEPTH + 8];
};

/* Where drained records go: main.c wires netlink and the core here. */
struct kprof_events_sink {
	/* Context: process (the drain work), for each record in order */
	void (*send)(const struct kprof_evrec *rec, unsigned int cpu);
	/* after each drain: the core reports what probes lost */
	void (*drained)(void);
};

int kprof_events_init(const struct kprof_events_sink *sink);
void kprof_events_exit(void);
u32 kprof_event_ring(void);
void kprof_event_slow(struct kprof_probe *p, unsigned int cpu, u64 now,
		      u64 latency, struct task_struct *t, bool has_key,
		      u64 key, unsigned long from);

/*
 * Context: any probe context.  The fast path of a probe without a
 * threshold, or of a call under it, is one load and a compare.
 */
static __always_inline void kprof_slow(struct kprof_probe *p,
				       unsigned int cpu, u64 now, u64 ns,
				       struct task_struct *t, bool has_key,
				       u64 key, unsigned long from)
{
	u64 slow = READ_ONCE(p->slow_ns);

	if (unlikely(slow) && ns >= slow)
		kprof_event_slow(p, cpu, now, ns, t, has_key, key, from);
}

#endif /* KPROF_EVENTS_H */
