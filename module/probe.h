/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A probe, and the backend that gives it its kind.  The core (core.c,
 * core-int.h) owns the probe table and the lifecycle below; a backend
 * (one file per kind: kprobe.c, kretprobe.c, tpprobe.c, pairs.c,
 * pmuprobe.c) owns registration and its own state, in a struct that
 * embeds struct kprof_probe (container_of).  A new kind is that file, its
 * row in include/kprofctl/kinds.h and its line in add.c's table.
 *
 * Lifecycle (->state, as the mapping's kprof_probe_info.state shows it):
 *
 *        ADD                 ADD+START
 *         |                      |
 *         v         START        v
 *      STOPPED  -------------> RUNNING
 *       |  ^    <-------------   |
 *       |  |        STOP         |
 *       |  | module comes,       |
 *       |  | attached (1)        |
 *       |  +------+--------+     |
 *       |         |        |     |
 *       |      PENDING    GONE <-+  its module goes
 *       +------------------^        (from STOPPED or RUNNING)
 *                 ^
 *        ADD+DEFER with nothing to attach to yet
 *
 * (1) and on to RUNNING if a START came meanwhile (want_run).  A GONE
 * probe comes back only if its kind follows its module or it has DEFER;
 * a returning module that cannot be attached leaves it PENDING.  DEL works
 * from any state (disarm, detach, free); RESET keeps the state.
 *
 * "armed" is what handlers read: true exactly in RUNNING.  want_run
 * remembers a START (or a RUNNING probe whose module went) for when a
 * PENDING or GONE probe attaches.
 */
#ifndef KPROF_PROBE_H
#define KPROF_PROBE_H

#include <linux/types.h>
#include <linux/bitmap.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/smp.h>

#include "../uapi/linux/kprofctl.h"
#include "kprofctl/kinds.h"
#include "kprofctl/filter.h"
#include "stats.h"
#include "keys.h"
#include "frames.h"

struct kprof_probe;
struct kprof_pmu;
struct kprof_snap;
struct module;

/*
 * One per probe kind, with the kind's rules (include/kprofctl/kinds.h).
 * All callbacks run in process context under the core's lock; none is
 * called from probe context.
 */
struct kprof_backend {
	const char *prefix;		/* its row in kprof_kinds() */
	bool set;			/* ... the one with KPROF_KIND_SET */
	u32 mech;			/* KPROF_MECH_*, unless fill_info says */
	size_t size;			/* the struct embedding kprof_probe */
	/*
	 * The spec after "prefix:" and the options of @a the kind accepts
	 * (the core has refused the others) into p, whose common fields are
	 * set; may create p->pmu (and say in a->err_event which event is
	 * bad).  No other side effects.
	 */
	int (*parse)(struct kprof_probe *p, const char *arg,
		     struct kprof_probe_add *a);
	/* Optional: private memory for probe context, before attach */
	int (*alloc)(struct kprof_probe *p);
	void (*free)(struct kprof_probe *p);
	/*
	 * Register, armed or not, or go PENDING; on error nothing is left
	 * registered.
	 */
	int (*attach)(struct kprof_probe *p, bool armed);
	/* unregister; on return no handler runs or will run */
	void (*detach)(struct kprof_probe *p);
	int (*arm)(struct kprof_probe *p);
	void (*disarm)(struct kprof_probe *p);
	/* Optional: calls the kernel's probe machinery missed (cumulative) */
	u64 (*nmissed)(struct kprof_probe *p);
	/* Optional: does the probe live in text of this (going) module? */
	bool (*in_module)(struct kprof_probe *p, struct module *mod);
	/*
	 * Optional: a module with tracepoints is coming or going; update
	 * p->state (attach or detach).  Returns true if p changed.  After
	 * detaches the caller waits once for callbacks still running.
	 */
	bool (*module_event)(struct kprof_probe *p, struct module *mod,
			     bool coming);
	/*
	 * Optional: a module's init is over (MODULE_STATE_LIVE) and its
	 * __init text goes; returns true if p changed.
	 */
	bool (*module_live)(struct kprof_probe *p, struct module *mod);
	/*
	 * Optional: p's module is going and p is GONE (disarmed, no handler
	 * runs): let go of what refers to its text before it is freed.
	 */
	void (*going)(struct kprof_probe *p);
	/* Optional: drop private probe-context state; no handler runs */
	void (*clear)(struct kprof_probe *p);
	/*
	 * Optional: site id @id's name (KPROF_SYM_LEN bytes) as the backend
	 * kept it, or makes it of @pcs (the id's frames, as its table holds
	 * them); false: the kernel's symbols name its first frame now.
	 */
	bool (*site_name)(struct kprof_probe *p, u32 id, const u64 *pcs,
			  char *buf);
	/* Optional: the kind's own fields of the published row */
	void (*fill_info)(struct kprof_probe *p, struct kprof_probe_info *i);
};

/*
 * A filter term as handlers evaluate it (kprof_kf_setup() compiles it):
 * x from src, then the range test of include/kprofctl/filter.h.
 */
struct kprof_cterm {
	u8 src;				/* KPROF_SRC_* (filter.h) */
	u8 s32;				/* x made a C int first */
	u16 off;			/* ARG: n of argument n + 1; TASK: a
					 * u32's offset in task_struct
					 */
	u8 neg;				/* COMM: "!=" */
	char comm[KPROF_COMM_LEN];	/* COMM */
	struct kprof_range r;
};

struct kprof_cfilter {
	u32 nr;
	u32 nr_fast;			/* nr, or 0 if a term is not TASK
					 * or ARG (kprof_filter_match_fast())
					 */
	struct kprof_cterm term[KPROF_FILTER_TERMS];
};

struct kprof_probe {
	/* read in probe context */
	bool armed;			/* READ_ONCE/WRITE_ONCE */
	u32 flags;			/* KPROF_ADD_* */
	u32 pid;
	struct pid *session;		/* KPROF_ADD_SESSION: held reference */
	u64 slow_ns;			/* 0: no slow-call events */
	u8 *stats;			/* this slot's CPU 0 kprof_cpu_stats */
	DECLARE_BITMAP(cpus, KPROF_CPUMASK_WORDS * 64);
	struct kprof_keys keys;		/* KPROF_KIND_KEYED kinds */
	struct kprof_pmu *pmu;		/* NULL: no PMU events */
	struct kprof_snap *snap;	/* NULL: slow calls leave ftrace be */
	/* ADD's keys and filter (filter.h); kf: any of them */
	bool kf;
	u8 key_argmask;			/* bit n: a key reads argument n + 1 */
	bool key_named;			/* a task key: rows keep a comm */
	u32 key[KPROF_MAX_KEYS];
	struct kprof_frames callers;	/* CALLER keys' ids */
	struct kprof_frames stacks;	/* STACK keys' ids */
	bool own_keys;			/* the backend counts the keys itself
					 * (a profile's stack table): no key
					 * rows, its own frames
					 */
	struct kprof_cfilter f_entry;	/* terms known at entry */
	struct kprof_cfilter f_exit;	/* retval, latency */

	/* process context, under the core's lock */
	const struct kprof_backend *be;
	const struct kprof_kind *kind;
	bool armed_saved;		/* across RESET */
	u32 id;
	u32 slot;
	u32 state;			/* KPROF_STATE_* */
	bool want_run;			/* PENDING/GONE: arm when attached */
	u32 maxactive;
	u32 reg_errno;
	const void *owner;		/* KPROF_ADD_OWNED: its file, else NULL */
	struct kprof_filter filter;	/* as added, for the table */
	/* losses already reported over netlink, and when */
	u64 rep_dropped, rep_nmissed;
	unsigned long rep_at;
	char spec[KPROF_SPEC_LEN];
};

/* ---- probe context ----------------------------------------------------- */

/* the filters on the task */
#define KPROF_TASK_FILTERS	(KPROF_ADD_PID | KPROF_ADD_TGID | \
				 KPROF_ADD_SESSION)

static __always_inline struct kprof_cpu_stats *
kprof_this_stats(struct kprof_probe *p, unsigned int cpu)
{
	return kprof_cpu_block(p->stats, 0, cpu);
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

	if (likely(!(flags & KPROF_TASK_FILTERS)))
		return true;
	/*
	 * task_session() open-coded, as it need not be inlined; setsid()
	 * may change it meanwhile.  Only compared, never dereferenced: p
	 * holds a reference, so it cannot be reused for another session.
	 */
	if (flags & KPROF_ADD_SESSION)
		return READ_ONCE(t->signal->pids[PIDTYPE_SID]) == p->session;
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
 * little.  @cpu: the current CPU, or -1 where the handler needs it for
 * nothing else (read only for a CPU filter).
 */
static __always_inline bool kprof_want_cpu(struct kprof_probe *p, int cpu)
{
	u32 flags;

	if (!READ_ONCE(p->armed))
		return false;
	/* one test of the flags for the common, unfiltered case */
	flags = p->flags;
	if (likely(!(flags & (KPROF_TASK_FILTERS | KPROF_ADD_CPUS))))
		return true;
	return kprof_pid_ok(p, current) &&
	       kprof_cpu_ok(p, cpu < 0 ? raw_smp_processor_id() : cpu);
}

static __always_inline bool kprof_want(struct kprof_probe *p,
				       unsigned int cpu)
{
	return kprof_want_cpu(p, cpu);
}

static __always_inline bool kprof_want_here(struct kprof_probe *p)
{
	return kprof_want_cpu(p, -1);
}

#endif /* KPROF_PROBE_H */
