/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KPROF_H
#define KPROF_H

#include <linux/types.h>
#include <linux/mutex.h>
#include <linux/kprobes.h>
#include <asm/local64.h>
#include <linux/smp.h>
#include <linux/sched.h>
#include <linux/perf_event.h>

#include "../uapi/linux/kprofctl.h"
#include "kprofctl/hist.h"

#define KPROF_CPU_STRIDE	ALIGN(sizeof(struct kprof_cpu_stats), 64)

struct kprof_probe;
struct tracepoint;
struct kprof_pair_kind;
struct perf_event;

struct kprof_pmu_base {
	u64 value, enabled, running;
};

/* A probe's PMU counters; see pmu.c. */
struct kprof_pmu {
	/* read in probe context */
	u32 nr;				/* events */
	struct perf_event **ev;		/* [cpu * MAX_EVENTS + e], NULL: none */
	u8 *stats;			/* in the mapping: per-call deltas */

	/* process context, under kprof.lock */
	int slot;			/* PMU block, -1: none */
	bool pinned;
	struct kprof_pmu_event *map_desc;	/* in the mapping */
	struct kprof_pmu_count *counts;		/* in the mapping */
	bool open;			/* a capture window is open */
	/* [cpu * MAX_EVENTS + e]: window start, closed windows, scratch */
	struct kprof_pmu_base *base, *acc, *tmp;
	u32 *ok;			/* [cpu] scratch */
	struct kprof_pmu_event desc[KPROF_PMU_MAX_EVENTS];
	struct perf_event_attr attr[KPROF_PMU_MAX_EVENTS];
};

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
	char comm[TASK_COMM_LEN];
	/* room for the probe machinery's own frames, trimmed off */
	unsigned long stack[KPROF_STACK_DEPTH + 8];
};

/* PMU values read on a kretprobe's entry, kept in its instance. */
struct kprof_pmu_snap {
	u32 cpu;
	u32 ok;				/* bit e: v[e] valid */
	unsigned long nsw;		/* kprof_switches() on entry */
	u64 v[];
};

/* An in-flight start: tag 0 free, 1 being written, else the event's tag. */
struct kprof_flight {
	u64 tag;
	u64 ts;
};

#define KPROF_FLIGHT_BUSY	1ULL
#define KPROF_PAIR_MAX_TPS	3

/*
 * One per probe type.  All callbacks run in process context under
 * kprof.lock; none of them is called from probe context.
 */
struct kprof_backend {
	u32 type;			/* KPROF_TYPE_* */
	const char *prefix;		/* spec prefix before ':' */
	/* parse the spec after "prefix:" into p; no side effects */
	int (*parse)(struct kprof_probe *p, const char *arg);
	/* register, armed or not; on error nothing is left registered */
	int (*attach)(struct kprof_probe *p, bool armed);
	/* unregister; on return no handler runs or will run */
	void (*detach)(struct kprof_probe *p);
	int (*arm)(struct kprof_probe *p);
	void (*disarm)(struct kprof_probe *p);
	u64 (*nmissed)(struct kprof_probe *p);
	/* does the probe live in text of this (going) module? */
	bool (*in_module)(struct kprof_probe *p, struct module *mod);
	/*
	 * Optional: a module with tracepoints is coming or going; update
	 * p->state (attach or detach).  Returns true if p changed.  After
	 * detaches the caller waits once for callbacks still running.
	 */
	bool (*module_event)(struct kprof_probe *p, struct module *mod,
			     bool coming);
	/* Optional: drop keys and in-flight starts; no handler is running. */
	void (*clear)(struct kprof_probe *p);
	bool keyed;			/* needs a pair slot */
};

struct kprof_probe {
	/* read in probe context */
	bool armed;			/* READ_ONCE/WRITE_ONCE */
	bool armed_saved;		/* across RESET */
	u32 flags;			/* KPROF_ADD_* */
	u32 pid;
	u64 slow_ns;			/* 0: no slow-call events */
	u8 *stats;			/* this slot's CPU 0 kprof_cpu_stats */
	DECLARE_BITMAP(cpus, KPROF_CPUMASK_WORDS * 64);

	/* pairs, read and written in probe context */
	struct kprof_key *keys;		/* in the mapping, nr_keys */
	u8 *key_stats;			/* in the mapping: key 0, CPU 0 */
	u64 *key_tags;			/* private: 0 free, else key + 1 */
	struct kprof_flight *flights;	/* private: flight_mask + 1 */
	u32 nr_keys;
	u32 flight_mask;
	const struct kprof_pair_kind *kind;
	struct kprof_pmu *pmu;		/* NULL: no PMU events */

	/* process context, under kprof.lock */
	const struct kprof_backend *be;
	u32 id;
	u32 slot;
	u32 state;			/* KPROF_STATE_* */
	bool want_run;			/* PENDING/GONE: arm when attached */
	bool kp_reg;			/* kp/rp registered with the core */
	int pair_slot;			/* -1: none */
	u32 maxactive;
	u32 reg_errno;
	const void *owner;		/* KPROF_ADD_OWNED: its file, else NULL */
	/* losses already reported over netlink, and when */
	u64 rep_dropped, rep_nmissed;
	unsigned long rep_at;
	char spec[KPROF_SPEC_LEN];
	char sym[KSYM_NAME_LEN];
	unsigned int offset;

	union {
#ifdef CONFIG_KPROBES
		struct kprobe kp;
#endif
#ifdef CONFIG_KRETPROBES
		struct kretprobe rp;
#endif
		struct {
			struct tracepoint *tp;
			struct module *tp_mod;	/* NULL: core kernel */
			bool tp_on;	/* our callback is registered */
		};
		struct {
			struct tracepoint *tps[KPROF_PAIR_MAX_TPS];
			bool tps_on;
		};
	};
};

extern const struct kprof_backend kprof_kprobe_backend;
extern const struct kprof_backend kprof_kretprobe_backend;
extern const struct kprof_backend kprof_tracepoint_backend;
extern const struct kprof_backend kprof_pair_backend;
extern const struct kprof_backend kprof_pmu_backend;

/* pmu.c */
int kprof_pmu_parse(struct kprof_pmu *pm, const char *list, u32 *bad);
int kprof_pmu_create(struct kprof_pmu *pm, const unsigned long *mask,
		     bool pinned, u32 *err_event, u32 *err_cpu);
void kprof_pmu_destroy(struct kprof_pmu *pm);
void kprof_pmu_publish(struct kprof_pmu *pm);
int kprof_pmu_enable(struct kprof_pmu *pm, u32 *err_event, u32 *err_cpu);
void kprof_pmu_disable(struct kprof_pmu *pm);
void kprof_pmu_window_open(struct kprof_pmu *pm);
void kprof_pmu_window_close(struct kprof_pmu *pm);
void kprof_pmu_sample(struct kprof_pmu *pm);
void kprof_pmu_window_reset(struct kprof_pmu *pm);
void kprof_pmu_refresh(struct kprof_pmu *pm);

/* tracepoints.c */
int kprof_tp_init(void);
void kprof_tp_exit(void);
struct tracepoint *kprof_tp_find(const char *name, struct module **mod);
int kprof_tp_names(char *buf, size_t len, u32 *count, size_t *needed);

/* core.c: for backends, from process context without kprof.lock */
void kprof_module_event(struct module *mod, bool coming);

int kprof_core_init(void);
void kprof_core_exit(void);
u64 kprof_caps(void);
u32 kprof_max_probes(void);
u32 kprof_max_pairs(void);
u32 kprof_pair_keys(void);

int kprof_probe_add(struct kprof_probe_add *arg);
int kprof_probe_add_owned(struct kprof_probe_add *arg, const void *owner);
int kprof_probe_del(u32 id);
void kprof_probe_del_owned(const void *owner);
int kprof_probe_start(u32 id);
int kprof_probe_stop(u32 id);
int kprof_probe_reset(u32 id);
int kprof_probe_info(u32 id, struct kprof_probe_info *info);
int kprof_probe_list(struct kprof_probe_info __user *recs, u32 rec_size,
		     u32 *count);
int kprof_tp_list(struct kprof_tp_list *arg);
int kprof_probe_pmu_read(u32 id);
void kprof_report_losses(bool force);
/* for netlink dumps: each probe from *slot on (id/spec 0/NULL: any) */
struct kprof_info_walk {
	/* nonzero stops the walk at this probe */
	int (*fn)(struct kprof_info_walk *w, const struct kprof_probe_info *i,
		  u64 dropped);
};

int kprof_walk_infos(u32 *slot, u32 id, const char *spec,
			struct kprof_info_walk *w);
int kprof_put_rec(void __user *recs, u32 i, u32 rec_size, const void *rec,
		  size_t size);

/* boot.c: boot-time probe lists and their report */
void kprof_boot_params(void);
int kprof_boot_arm(u32 source, const char *origin, const char *spec,
		   const char *pmu, u64 slow);
void kprof_boot_disarm(u32 source, bool forget);
__printf(4, 5)
void kprof_boot_fail(u32 source, const char *origin, int error,
		     const char *fmt, ...);
int kprof_boot_check_pmu(const char *list, u32 *bad);
int kprof_boot_report(void __user *ubuf, u32 rec_size, u32 *count,
		      u32 *lost);

/*
 * A sizing module parameter, which the device-tree node's property of the
 * same meaning may set instead: one set of bounds for both.
 */
struct kprof_size {
	const char *param;
	const char *prop;
	unsigned int *val;
	unsigned int dflt, min, max;
	bool pow2;
};

bool kprof_size_ok(const struct kprof_size *s, unsigned int v);
int kprof_size_apply(const struct kprof_size *s);

/* of.c: the "linux,kprofctl" device-tree node */
#ifdef CONFIG_OF
void kprof_of_size(const struct kprof_size *s);
void kprof_of_init(void);
void kprof_of_exit(void);
#else
static inline void kprof_of_size(const struct kprof_size *s)
{
}

static inline void kprof_of_init(void)
{
}

static inline void kprof_of_exit(void)
{
}
#endif

/* events.c */
int kprof_events_init(void);
void kprof_events_exit(void);
u32 kprof_event_ring(void);
void kprof_event_slow(struct kprof_probe *p, unsigned int cpu, u64 now,
		      u64 latency, struct task_struct *t, bool has_key,
		      u64 key, unsigned long from);

/* genl.c */
int kprof_genl_init(void);
void kprof_genl_exit(void);
void kprof_genl_slow(const struct kprof_evrec *rec, unsigned int cpu);
void kprof_genl_probe(u32 event, const struct kprof_probe *p, u64 dropped,
		      u64 nmissed);
bool kprof_genl_restricted(void);
u32 kprof_max_pmus(void);

/* ---- probe-context helpers ------------------------------------------- */

static __always_inline struct kprof_cpu_stats *
kprof_this_stats(struct kprof_probe *p, unsigned int cpu)
{
	return (struct kprof_cpu_stats *)(p->stats + cpu * KPROF_CPU_STRIDE);
}

/* key == p->nr_keys is the "other keys" block */
static __always_inline struct kprof_cpu_stats *
kprof_key_stats(struct kprof_probe *p, unsigned int key, unsigned int cpu)
{
	return (struct kprof_cpu_stats *)(p->key_stats +
		((size_t)key * nr_cpu_ids + cpu) * KPROF_CPU_STRIDE);
}

/* a PMU block's per-call statistics of event e */
static __always_inline struct kprof_cpu_stats *
kprof_pmu_stats(struct kprof_pmu *pm, unsigned int e, unsigned int cpu)
{
	return (struct kprof_cpu_stats *)(pm->stats +
		((size_t)e * nr_cpu_ids + cpu) * KPROF_CPU_STRIDE);
}

/*
 * Context: any probe context (preemption off, maybe IRQ or NMI).  The
 * filters one at a time, for events whose subject is not current or whose
 * CPU filter applies where they end; kprof_want() is the usual mix.
 */
static __always_inline bool kprof_pid_ok(struct kprof_probe *p,
					 struct task_struct *t)
{
	u32 flags = p->flags;

	if (likely(!(flags & (KPROF_ADD_PID | KPROF_ADD_TGID))))
		return true;
	return (u32)((flags & KPROF_ADD_PID) ? t->pid : t->tgid) == p->pid;
}

static __always_inline bool kprof_cpu_ok(struct kprof_probe *p,
					 unsigned int cpu)
{
	return likely(!(p->flags & KPROF_ADD_CPUS)) || test_bit(cpu, p->cpus);
}

/*
 * Context: any probe context.  Decides whether this hit by current is
 * recorded; cheap rejections come first so that filtered calls cost
 * little.
 */
static __always_inline bool kprof_want(struct kprof_probe *p,
				       unsigned int cpu)
{
	u32 flags;

	if (!READ_ONCE(p->armed))
		return false;
	/* one test of the flags for the common, unfiltered case */
	flags = p->flags;
	if (likely(!(flags & (KPROF_ADD_PID | KPROF_ADD_TGID | KPROF_ADD_CPUS))))
		return true;
	return kprof_pid_ok(p, current) && kprof_cpu_ok(p, cpu);
}

/*
 * Statistics are plain __u64 in the shared mapping, written only by the
 * CPU they belong to, through local64_t: each operation is atomic with
 * respect to an IRQ or NMI that nests on the same CPU and records its own
 * call.  Handlers run with preemption disabled and check "armed" first;
 * STOP and RESET clear it and wait for a grace period, so they never see
 * half of an update, without handlers masking interrupts.
 */
static __always_inline local64_t *kprof_l64(__u64 *v)
{
	BUILD_BUG_ON(sizeof(local64_t) != sizeof(__u64));
	return (local64_t *)v;
}

static __always_inline void kprof_stat_min(__u64 *v, u64 x)
{
	local64_t *l = kprof_l64(v);
	s64 old = local64_read(l);

	while (x < (u64)old) {
		s64 seen = local64_cmpxchg(l, old, x);

		if (seen == old)
			break;
		old = seen;
	}
}

static __always_inline void kprof_stat_max(__u64 *v, u64 x)
{
	local64_t *l = kprof_l64(v);
	s64 old = local64_read(l);

	while (x > (u64)old) {
		s64 seen = local64_cmpxchg(l, old, x);

		if (seen == old)
			break;
		old = seen;
	}
}

static __always_inline void kprof_stat_count(struct kprof_cpu_stats *st)
{
	local64_inc(kprof_l64(&st->count));
}

static __always_inline void kprof_stat_drop(struct kprof_cpu_stats *st)
{
	local64_inc(kprof_l64(&st->drops));
}

static __always_inline void kprof_stat_unmatched(struct kprof_cpu_stats *st)
{
	local64_inc(kprof_l64(&st->unmatched));
}

static __always_inline void kprof_stat_latency(struct kprof_cpu_stats *st,
					       u64 ns)
{
	local64_inc(kprof_l64(&st->hist[kprof_hist_index(ns)]));
	local64_add(ns, kprof_l64(&st->sum));
	kprof_stat_min(&st->min, ns);
	kprof_stat_max(&st->max, ns);
	/* readers that load count first never see it ahead of the buckets */
	smp_wmb();
	local64_inc(kprof_l64(&st->count));
}

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

/* ---- PMU reads in probe context ----------------------------------- */

/*
 * perf_event_read_local() is not exported; this is the part of it a
 * CPU-bound counting event read on its own CPU needs.  With interrupts off
 * the event cannot be scheduled in or out under us: that happens on this
 * CPU, with interrupts off (context switch, IPI, the rotation hrtimer).  So
 * if it is active here, with its hardware counter assigned and started
 * (PERF_HES_STOPPED clear: not between sched-in and pmu->add()), the PMU's
 * read callback folds the hardware count into ->count.  arm_pmu and x86 do
 * that with a cmpxchg on prev_count, which an NMI nesting on the same CPU
 * cannot tear.  Anything else is a loss for the caller to count.
 *
 * Context: any probe context, including NMI.
 */
static __always_inline bool kprof_pmu_read(struct perf_event *ev,
						   unsigned int cpu, u64 *val)
{
	if (!ev || READ_ONCE(ev->oncpu) != (int)cpu ||
	    READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE ||
	    (READ_ONCE(ev->hw.state) & PERF_HES_STOPPED))
		return false;
	ev->pmu->read(ev);
	*val = local64_read(&ev->count);
	return true;
}

/*
 * Context: any probe context.  Bit e set: v[e] was read.  One copy of the
 * code for entry, return and window reads (pmu.c), so the instructions
 * between two events' reads are the same at both ends of a call.
 */
u32 kprof_pmu_read_all(struct kprof_pmu *pm, unsigned int cpu, u64 *v);

/*
 * Context: any probe context.  current's context switches so far: a call
 * during which they changed (it slept or was preempted) let other tasks
 * run on its CPU, and the counters are per CPU, so their work would be in
 * its delta.  Only current writes them, in __schedule().
 */
static __always_inline unsigned long kprof_switches(void)
{
	return current->nvcsw + current->nivcsw;
}

/*
 * Context: kretprobe return handler.  Records each event's delta since
 * the entry read, or a loss when either end was not readable here or the
 * call did not run alone on one CPU from entry to return (it migrated or
 * was switched out).
 */
static __always_inline void kprof_pmu_call(struct kprof_pmu *pm,
					   unsigned int cpu,
					   const struct kprof_pmu_snap *start)
{
	/* v[e] is read only where bit e of ok says it was written */
	u64 v[KPROF_PMU_MAX_EVENTS] __uninitialized;
	u32 ok = 0, e;

	if (start->cpu == cpu && start->nsw == kprof_switches())
		ok = kprof_pmu_read_all(pm, cpu, v) & start->ok;
	for (e = 0; e < pm->nr; e++) {
		struct kprof_cpu_stats *st = kprof_pmu_stats(pm, e, cpu);

		if (ok & BIT(e))
			kprof_stat_latency(st, v[e] - start->v[e]);
		else
			kprof_stat_drop(st);
	}
}

#endif /* KPROF_H */
