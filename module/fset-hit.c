// SPDX-License-Identifier: GPL-2.0
/*
 * What runs when a set's function is hit (fset.c): the ftrace callbacks,
 * fast.c's entry and exit, and the kprobe and kretprobe handlers.  Any
 * context: nothing here is traceable or probeable.
 */
#include <linux/kernel.h>
#include <linux/timekeeping.h>
#include <linux/atomic.h>

#include "fset-int.h"
#include "filter.h"
#include "events.h"

static __always_inline void kprof_fset_hit(struct kprof_fset *s,
					   unsigned int cpu, u32 f)
{
	local64_inc(kprof_l64(kprof_fset_cell(s, cpu, f)));
	kprof_stat_count(kprof_this_stats(&s->p, cpu));
}

/*
 * Compact histogram (struct kprof_func_hist): 32-bit buckets, atomic so
 * that an IRQ or NMI nesting on this CPU loses nothing.
 */
static __always_inline void kprof_fset_latency(struct kprof_fset *s,
					       unsigned int cpu, u32 f, u64 ns)
{
	struct kprof_func_hist *h = kprof_fset_cell(s, cpu, f);

	atomic_inc((atomic_t *)&h->hist[kprof_fhist_index(ns)]);
	local64_add(ns, kprof_l64(&h->sum));
	kprof_stat_min(&h->min, ns);
	kprof_stat_max(&h->max, ns);
	/* readers that load count first never see it ahead of the buckets */
	smp_wmb();
	local64_inc(kprof_l64(&h->count));
	kprof_stat_count(kprof_this_stats(&s->p, cpu));
}

#if KPROF_SET_FTRACE
/*
 * Context: an ftrace callback, any context, maybe preemptible.  ftrace
 * passes the call site, which the hash maps back to the function.
 * Nothing here is traceable, so it cannot recurse.  With @kf, --if's task
 * and CPU terms (ftrace passes no arguments here).
 */
static __always_inline void kprof_fset_ftrace_hit(unsigned long ip,
						  struct ftrace_ops *op,
						  bool kf)
{
	struct kprof_fset *s = container_of(op, struct kprof_fset, ops);
	unsigned int cpu;
	u32 f;

	preempt_disable_notrace();
	cpu = raw_smp_processor_id();
	if (kprof_want(&s->p, cpu)) {
		struct kprof_fvals v = { .task = current };

		if (kf && !kprof_filter_match(&s->p.f_entry, &v))
			goto out;
		f = kprof_fnhash_find(&s->hash, ip);
		if (likely(f != U32_MAX))
			kprof_fset_hit(s, cpu, f);
	}
out:
	preempt_enable_notrace();
}

void notrace kprof_fset_ftrace(unsigned long ip,
			       unsigned long parent_ip,
			       struct ftrace_ops *op,
			       struct ftrace_regs *fregs)
{
	kprof_fset_ftrace_hit(ip, op, false);
}
NOKPROBE_SYMBOL(kprof_fset_ftrace);

/* a set with --if: its own callback, so that the others pay nothing */
void notrace kprof_fset_ftrace_kf(unsigned long ip,
				  unsigned long parent_ip,
				  struct ftrace_ops *op,
				  struct ftrace_regs *fregs)
{
	kprof_fset_ftrace_hit(ip, op, true);
}
NOKPROBE_SYMBOL(kprof_fset_ftrace_kf);
#endif

#if KPROF_FAST
/*
 * Context: ftrace callback at a function's entry, maybe preemptible.  A
 * latency set's call, pushed with its function's index (the hash maps
 * the call site back).  With @kf, --if's entry terms (the arguments are
 * in ftrace's registers).  Calls nothing out of line: cannot recurse.
 */
static __always_inline void kprof_fset_fast_begin(unsigned long ip,
						  struct ftrace_ops *op,
						  struct ftrace_regs *fregs,
						  bool kf)
{
	struct kprof_fset *s = container_of(op, struct kprof_fset, ops);
	u64 args[KPROF_FAST_ARGS] __uninitialized;
	struct kprof_fcall *c;
	unsigned int n;
	u32 f;

	if (!kprof_want_here(&s->p))
		return;
	if (kf) {
		struct kprof_fvals v = { .task = current, .args = args };

		for (n = 0; n < KPROF_FAST_ARGS; n++)
			args[n] = kprof_fast_arg(fregs, n);
		if (!kprof_filter_match(&s->p.f_entry, &v))
			return;
	}
	f = kprof_fnhash_find(&s->hash, ip);
	if (unlikely(f == U32_MAX))
		return;
	if (unlikely(!kprof_fast_enter(&s->fh, kprof_fast_retp(fregs), &c)))
		return;
	c->fn = ip;
	c->idx = f;
	c->t0 = kprof_fast_clock();
}

void notrace kprof_fset_fast_entry(unsigned long ip,
				   unsigned long parent_ip,
				   struct ftrace_ops *op,
				   struct ftrace_regs *fregs)
{
	kprof_fset_fast_begin(ip, op, fregs, false);
}
NOKPROBE_SYMBOL(kprof_fset_fast_entry);

void notrace kprof_fset_fast_entry_kf(unsigned long ip,
				      unsigned long parent_ip,
				      struct ftrace_ops *op,
				      struct ftrace_regs *fregs)
{
	kprof_fset_fast_begin(ip, op, fregs, true);
}
NOKPROBE_SYMBOL(kprof_fset_fast_entry_kf);

/* the return's filter, out of line (a lean exit) */
static noinline bool notrace kprof_fset_fast_match(struct kprof_fset *s,
						   u64 retval, u64 ns)
{
	struct kprof_fvals v = {
		.task = current, .retval = retval, .latency = ns,
	};

	return kprof_filter_match(&s->p.f_exit, &v);
}
NOKPROBE_SYMBOL(kprof_fset_fast_match);

/*
 * Context: fast.c's return, preemption disabled: kprof_fset_return()'s
 * twin.  Only a slow-call event calls out of line, under ftrace's
 * recursion lock.
 */
void notrace kprof_fset_fast_exit(struct kprof_fhook *h,
				  struct kprof_fcall *c, u64 retval,
				  unsigned long caller, unsigned long fp)
{
	struct kprof_fset *s = container_of(h, struct kprof_fset, fh);
	u64 ns = kprof_fast_elapsed(c->t0), slow;
	unsigned int cpu;

	if (!READ_ONCE(s->p.armed))
		return;
	if (unlikely(s->p.f_exit.nr) &&
	    !kprof_fset_fast_match(s, retval, ns))
		return;
	cpu = smp_processor_id();
	kprof_fset_latency(s, cpu, c->idx, ns);
	slow = READ_ONCE(s->p.slow_ns);
	if (unlikely(slow) && ns >= slow)
		kprof_event_slow_fast(&s->p, cpu, ns, true, c->idx, c->fn,
				      kprof_fast_caller(caller));
}
NOKPROBE_SYMBOL(kprof_fset_fast_exit);
#endif

/* Context: kprobe pre-handler, preemption disabled. */
int kprof_fset_kprobe(struct kprobe *kp, struct pt_regs *regs)
{
	struct kprof_fkp *w = container_of(kp, struct kprof_fkp, kp);
	struct kprof_fvals v = { .task = current, .regs = regs };
	unsigned int cpu = smp_processor_id();

	if (kprof_want(&w->set->p, cpu) &&
	    kprof_filter_match(&w->set->p.f_entry, &v))
		kprof_fset_hit(w->set, cpu, w->idx);
	return 0;
}
NOKPROBE_SYMBOL(kprof_fset_kprobe);

/*
 * Context: kretprobe entry handler.  As kretprobe.c: the timestamp lives
 * in the instance; a filtered call drops it here.
 */
int kprof_fset_entry(struct kretprobe_instance *ri,
		     struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct kprof_fvals v = { .task = current, .regs = regs };
	struct kprof_fkp *w;

	if (unlikely(!rp))
		return 1;
	w = container_of(rp, struct kprof_fkp, rp);
	if (!kprof_want(&w->set->p, raw_smp_processor_id()) ||
	    !kprof_filter_match(&w->set->p.f_entry, &v))
		return 1;
	*(u64 *)ri->data = ktime_get_mono_fast_ns();
	return 0;
}
NOKPROBE_SYMBOL(kprof_fset_entry);

/* Context: kretprobe return handler, preemption disabled. */
int kprof_fset_return(struct kretprobe_instance *ri,
		      struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	u64 now = ktime_get_mono_fast_ns();
	u64 start = *(u64 *)ri->data;
	struct kprof_fkp *w;
	struct kprof_fset *s;

	if (unlikely(!rp))
		return 0;
	w = container_of(rp, struct kprof_fkp, rp);
	s = w->set;
	if (READ_ONCE(s->p.armed)) {
		unsigned int cpu = smp_processor_id();
		u64 ns = now > start ? now - start : 0;
		struct kprof_fvals v = {
			.task = current, .ret_regs = regs, .latency = ns,
		};

		if (!kprof_filter_match(&s->p.f_exit, &v))
			return 0;
		kprof_fset_latency(s, cpu, w->idx, ns);
		kprof_slow(&s->p, cpu, now, ns, current, true, w->idx,
			   get_kretprobe_retaddr(ri));
	}
	return 0;
}
NOKPROBE_SYMBOL(kprof_fset_return);
