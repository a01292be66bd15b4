// SPDX-License-Identifier: GPL-2.0
/*
 * The kretprobe kind, "kretprobe:[MOD:]SYM": entry-to-return latency,
 * optionally with PMU counter deltas per call.  Built with the kprobe core
 * or ftrace: a kernel without kprobes has the fast mechanism alone.
 */
#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/timekeeping.h>
#include <linux/cpumask.h>
#include <linux/minmax.h>

#include "kprobes.h"
#include "pmu.h"
#include "events.h"
#include "filter.h"
#include "fast.h"
#include "fentry.h"
#include "backends.h"

/*
 * Two mechanisms: a kretprobe, or (KPROF_FAST) the function's ftrace call
 * site and fast.c's return trampoline, chosen at attach (fast: true).
 */
struct kprof_kretprobe {
	struct kprof_kp k;
	struct kretprobe rp;
	u32 snap_off;		/* instance data: the PMU values */
	bool fast;
#if KPROF_FAST
	u32 limit;		/* ADD's maxactive, 0: the tasks' stacks */
	struct kprof_fhook fh;
	struct kprof_fentry fe;
#endif
};

/*
 * A call's instance data: the entry time, the arguments kept (at a fixed
 * place, so a handler finds them at no cost), then the PMU values.
 */
#define KPROF_KRET_ARGS_OFF	sizeof(u64)

static struct kprof_kretprobe *kprof_kret(struct kprof_probe *p)
{
	return container_of(kprof_kp(p), struct kprof_kretprobe, k);
}

/* The probe of a kretprobe the kprobe core hands to a handler */
static __always_inline struct kprof_probe *kprof_kret_probe(struct kretprobe *rp)
{
	return &container_of(rp, struct kprof_kretprobe, rp)->k.p;
}


/* the PMU values read on entry */
static __always_inline struct kprof_pmu_snap *
kprof_kret_snap(struct kretprobe *rp, struct kretprobe_instance *ri)
{
	return (struct kprof_pmu_snap *)(ri->data +
		container_of(rp, struct kprof_kretprobe, rp)->snap_off);
}

static __always_inline u64 *kprof_kret_args(struct kretprobe_instance *ri)
{
	return (u64 *)(ri->data + KPROF_KRET_ARGS_OFF);
}

/*
 * The entry timestamp lives in the kretprobe instance, one per pending
 * call, so recursion and nesting (IRQ, NMI) each measure their own call.
 * With PMU events their values follow it: read last on entry, first on
 * return.  Both handler pairs are this code with "pmu" constant, so a
 * probe without events pays nothing for them.
 * Context: kretprobe entry handler, any context.  Returning non-zero
 * tells the core to drop the instance: filtered calls stop here.
 */
static __always_inline int kprof_kret_begin(struct kretprobe_instance *ri,
					    struct pt_regs *regs, bool pmu,
					    bool kf)
{
	struct kretprobe *rp = get_kretprobe(ri);
	unsigned int cpu = raw_smp_processor_id();
	struct kprof_probe *p;

	/*
	 * NULL once unregister_kretprobe() on another CPU has cleared the
	 * instance's owner, even between the core's check and ours.
	 */
	if (unlikely(!rp))
		return 1;
	p = kprof_kret_probe(rp);
	if (!kprof_want(p, cpu))
		return 1;
	if (kf) {
		struct kprof_fvals v = { .task = current, .regs = regs };

		if (!kprof_filter_match(&p->f_entry, &v))
			return 1;
		/* the arguments as called, kept for the return's keys */
		kprof_kf_keep_args(p, regs, kprof_kret_args(ri));
	}
	*(u64 *)ri->data = ktime_get_mono_fast_ns();
	if (pmu) {
		struct kprof_pmu_snap *snap = kprof_kret_snap(rp, ri);

		snap->cpu = cpu;
		snap->nsw = kprof_switches();
		snap->ok = kprof_pmu_read_all(p->pmu, cpu, snap->v);
	}
	return 0;
}

/*
 * Context: a return, either mechanism, preemption disabled.  The call
 * recorded as the probe has it: with keys or a filter (@kf) the return's
 * terms, then the call in its key's row only (the pair layout).  Both
 * mechanisms end here, so that they give the same results.
 */
static __always_inline void kprof_kret_record(struct kprof_probe *p,
					      const struct kprof_fvals *v,
					      struct kprof_pmu_snap *snap,
					      unsigned int cpu, u64 now,
					      unsigned long from, bool pmu,
					      bool kf)
{
	u64 ns = v->latency, v1 = 0;
	u32 k;

	if (kf && !kprof_filter_match(&p->f_exit, v))
		return;
	if (pmu)
		kprof_pmu_call(p->pmu, cpu, snap);
	if (kf && p->key[0]) {
		k = kprof_kf_key(p, v, &v1);
		kprof_stat_latency(kprof_key_stats(&p->keys, k, cpu), ns);
	} else {
		kprof_stat_latency(kprof_this_stats(p, cpu), ns);
	}
	/*
	 * A fast return (now 0) reads the time of day only for an event, and
	 * its caller may be another return hook's trampoline.
	 */
	if (unlikely(READ_ONCE(p->slow_ns)) && ns >= READ_ONCE(p->slow_ns))
		kprof_event_slow(p, cpu, now ?: ktime_get_mono_fast_ns(), ns,
				 current, kf && p->key[0], v1,
				 now ? from : kprof_fast_caller(from));
}

/*
 * Context: kretprobe return handler, any context, preemption disabled.
 * The call is accounted on the CPU it returns on.  A call that returns
 * after STOP is outside the capture window and is not recorded.
 */
static __always_inline int kprof_kret_end(struct kretprobe_instance *ri,
					  struct pt_regs *regs, bool pmu,
					  bool kf)
{
	struct kretprobe *rp = get_kretprobe(ri);
	u64 now = ktime_get_mono_fast_ns();
	u64 start = *(u64 *)ri->data;
	struct kprof_probe *p;

	/* see kprof_kret_begin(): the probe is being unregistered */
	if (unlikely(!rp))
		return 0;
	p = kprof_kret_probe(rp);
	if (READ_ONCE(p->armed)) {
		/* the fast clock may step back a little across CPUs */
		struct kprof_fvals v = {
			.task = current,
			.args = kprof_kret_args(ri),
			.ret_regs = regs,
			.latency = now > start ? now - start : 0,
			.ri = ri,
		};

		kprof_kret_record(p, &v, pmu ? kprof_kret_snap(rp, ri) : NULL,
				  smp_processor_id(), now,
				  (unsigned long)get_kretprobe_retaddr(ri), pmu,
				  kf);
	}
	return 0;
}

static int kprof_kret_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	return kprof_kret_begin(ri, regs, false, false);
}
NOKPROBE_SYMBOL(kprof_kret_entry);

static int kprof_kret_return(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	return kprof_kret_end(ri, regs, false, false);
}
NOKPROBE_SYMBOL(kprof_kret_return);

static int kprof_kret_entry_pmu(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	return kprof_kret_begin(ri, regs, true, false);
}
NOKPROBE_SYMBOL(kprof_kret_entry_pmu);

static int kprof_kret_return_pmu(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	return kprof_kret_end(ri, regs, true, false);
}
NOKPROBE_SYMBOL(kprof_kret_return_pmu);

static int kprof_kret_entry_kf(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	return kprof_kret_begin(ri, regs, false, true);
}
NOKPROBE_SYMBOL(kprof_kret_entry_kf);

static int kprof_kret_return_kf(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	return kprof_kret_end(ri, regs, false, true);
}
NOKPROBE_SYMBOL(kprof_kret_return_kf);

static int kprof_kret_entry_pmu_kf(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	return kprof_kret_begin(ri, regs, true, true);
}
NOKPROBE_SYMBOL(kprof_kret_entry_pmu_kf);

static int kprof_kret_return_pmu_kf(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	return kprof_kret_end(ri, regs, true, true);
}
NOKPROBE_SYMBOL(kprof_kret_return_pmu_kf);

#if KPROF_FAST
/* ---- the fast mechanism (fast.h) ------------------------------------- */

/*
 * Context: ftrace callback at the function's entry, any context, maybe
 * preemptible.  As kprof_kret_begin(), with the call kept on the task's
 * return stack: the arguments first (a filtered call is not pushed), the
 * clock and the PMU last.  Nothing here calls out of line but the PMU
 * reads: only those can recurse into a probed function, and take ftrace's
 * recursion lock.
 */
static __always_inline void kprof_kret_fast_begin(unsigned long ip,
						  unsigned long parent_ip,
						  struct ftrace_ops *op,
						  struct ftrace_regs *fregs,
						  bool pmu, bool kf, bool filt)
{
	struct kprof_kretprobe *x = container_of(op, struct kprof_kretprobe,
						 fe.ops);
	u64 args[KPROF_FAST_ARGS] __uninitialized;
	struct kprof_probe *p = &x->k.p;
	struct kprof_fcall *c;
	unsigned int cpu, n;
	int bit = 0;

	if (pmu) {
		/* and preemption off, for the counters of this CPU */
		bit = ftrace_test_recursion_trylock(ip, parent_ip);
		if (unlikely(bit < 0)) {
			atomic_long_inc(&x->fh.missed);
			return;
		}
	}
	/* without task or CPU filters (filt), armed is all there is to want */
	if (filt ? !kprof_want_here(p) : !READ_ONCE(p->armed))
		goto out;
	if (kf) {
		struct kprof_fvals v = { .task = current, .args = args };

		for (n = 0; n < KPROF_FAST_ARGS; n++)
			args[n] = kprof_fast_arg(fregs, n);
		if (!kprof_filter_match(&p->f_entry, &v))
			goto out;
	}
	if (unlikely(!kprof_fast_enter(&x->fh, kprof_fast_retp(fregs), &c)))
		goto out;
	c->fn = x->fe.addr;
	if (kf)
		memcpy(c->args, args, sizeof(args));
	c->t0 = kprof_fast_clock();
	if (pmu) {
		cpu = raw_smp_processor_id();
		c->snap.cpu = cpu;
		c->snap.nsw = kprof_switches();
		c->snap.ok = kprof_pmu_read_all(p->pmu, cpu, c->snap.v);
	}
out:
	if (pmu)
		ftrace_test_recursion_unlock(bit);
}

/*
 * Context: fast.c's return, preemption disabled: kprof_kret_end()'s twin
 * for probes with keys, filters, the PMU or a limit (fast.c records the
 * others' calls).  Keys (stacks), the PMU and slow-call events call out of
 * line, under ftrace's recursion lock; a call it refuses is counted
 * missed.
 */
static __always_inline void kprof_kret_fast_end(struct kprof_fhook *h,
						struct kprof_fcall *c,
						u64 retval, unsigned long caller,
						unsigned long fp, bool pmu, bool kf)
{
	struct kprof_kretprobe *x = container_of(h, struct kprof_kretprobe,
						 fh);
	u64 ns = kprof_fast_elapsed(c->t0);
	struct kprof_probe *p = &x->k.p;
	struct kprof_fvals v;
	int bit;

	if (!READ_ONCE(p->armed))
		return;
	v = (struct kprof_fvals) {
		.task = current,
		.args = c->args,
		.retval = retval,
		.latency = ns,
		.caller = caller,
		.fp = fp,
		.fn = c->fn,
	};
	bit = ftrace_test_recursion_trylock(c->fn, caller);
	if (unlikely(bit < 0)) {
		atomic_long_inc(&h->missed);
		return;
	}
	kprof_kret_record(p, &v, &c->snap, smp_processor_id(), 0, caller, pmu,
			  kf);
	ftrace_test_recursion_unlock(bit);
}

#define KPROF_KRET_FAST_ENTRY(name, pmu, kf, filt)			\
static void notrace kprof_kret_fast_entry##name(unsigned long ip,	\
		unsigned long parent_ip, struct ftrace_ops *op,		\
		struct ftrace_regs *fregs)				\
{									\
	kprof_kret_fast_begin(ip, parent_ip, op, fregs, pmu, kf, filt);	\
}									\
NOKPROBE_SYMBOL(kprof_kret_fast_entry##name)

/* a plain probe's returns are fast.c's (kprof_fhook.plain), but for a limit */
#define KPROF_KRET_FAST_EXIT(name, pmu, kf)				\
static void notrace kprof_kret_fast_exit##name(struct kprof_fhook *h,	\
		struct kprof_fcall *c, u64 retval, unsigned long caller,	\
		unsigned long fp)					\
{									\
	kprof_kret_fast_end(h, c, retval, caller, fp, pmu, kf);	\
}									\
NOKPROBE_SYMBOL(kprof_kret_fast_exit##name)

KPROF_KRET_FAST_ENTRY(, false, false, false);
KPROF_KRET_FAST_ENTRY(_filt, false, false, true);
KPROF_KRET_FAST_ENTRY(_pmu, true, false, true);
KPROF_KRET_FAST_ENTRY(_kf, false, true, true);
KPROF_KRET_FAST_ENTRY(_pmu_kf, true, true, true);
KPROF_KRET_FAST_EXIT(, false, false);
KPROF_KRET_FAST_EXIT(_pmu, true, false);
KPROF_KRET_FAST_EXIT(_kf, false, true);
KPROF_KRET_FAST_EXIT(_pmu_kf, true, true);

static void kprof_kret_fast_detach(struct kprof_kretprobe *x)
{
	kprof_fentry_disarm(&x->fe);
	/* no entry pushes a call now: the calls in flight forget the probe */
	kprof_fast_forget(&x->fh);
	kprof_fentry_detach(&x->fe);
}

/*
 * -EADDRNOTAVAIL (with *why) where ftrace cannot hook the function, or
 * fast.c cannot follow its return: a kretprobe may.
 */
static int kprof_kret_fast_attach(struct kprof_kretprobe *x, bool armed,
				  const char **why)
{
	static const ftrace_func_t fn[2][2] = {
		{ kprof_kret_fast_entry, kprof_kret_fast_entry_kf },
		{ kprof_kret_fast_entry_pmu, kprof_kret_fast_entry_pmu_kf },
	};
	static void (*const ex[2][2])(struct kprof_fhook *,
				      struct kprof_fcall *, u64,
				      unsigned long, unsigned long) = {
		{ kprof_kret_fast_exit, kprof_kret_fast_exit_kf },
		{ kprof_kret_fast_exit_pmu, kprof_kret_fast_exit_pmu_kf },
	};
	struct kprof_probe *p = &x->k.p;
	ftrace_func_t func;
	int ret;

	ret = kprof_kp_lookup(x->k.sym, &x->fe.addr);
	if (ret)
		return ret;
	ret = kprof_fast_refuses(x->k.sym, x->fe.addr, why);
	if (ret)
		return ret;
	ret = kprof_fast_hook_init(&x->fh, x->limit);
	if (ret)
		return ret;
	x->fh.exit = ex[!!p->pmu][p->kf];
	/* fast.c records a plain probe's calls itself */
	x->fh.plain = p->pmu || p->kf || x->limit ? NULL : p;
	func = fn[!!p->pmu][p->f_entry.nr || p->key_argmask];
	if (func == kprof_kret_fast_entry &&
	    (p->flags & (KPROF_TASK_FILTERS | KPROF_ADD_CPUS)))
		func = kprof_kret_fast_entry_filt;
	ret = kprof_fentry_attach(&x->fe, func, armed, why);
	if (ret) {
		kprof_fast_forget(&x->fh);
		return ret;
	}
	x->fast = true;
	x->k.reg = true;
	return 0;
}
#endif

static int kprof_kret_parse(struct kprof_probe *p, const char *arg,
			    struct kprof_probe_add *a)
{
	struct kprof_kretprobe *x = kprof_kret(p);
	int ret;

	x->k.kp = &x->rp.kp;
	x->k.offset = 0;
	/*
	 * The kprobe core's default for 0, max(10, 2 * CPUs), misses calls
	 * as soon as a few callers per CPU sleep inside the function.  No
	 * more than a request may ask for.
	 */
	p->maxactive = a->maxactive ?:
		clamp_t(u32, 4 * num_possible_cpus(), 64, KPROF_MAX_MAXACTIVE);
#if KPROF_FAST
	x->limit = a->maxactive;
#endif
	ret = kprof_kp_parse_sym(&x->k, arg, strlen(arg));
	if (ret || !*a->pmu)
		return ret;
	/* per-call deltas: pinned counters, which perf never rotates out */
	p->pmu = kprof_pmu_new(a->pmu, &a->err_event);
	if (IS_ERR(p->pmu)) {
		ret = PTR_ERR(p->pmu);
		p->pmu = NULL;
		return ret;
	}
	p->pmu->pinned = true;
	return 0;
}

static int kprof_kret_attach(struct kprof_probe *p, bool armed)
{
	struct kprof_kretprobe *x = kprof_kret(p);
	int ret;

	x->fast = false;
#if KPROF_FAST
	if (kprof_fast_wanted(p->flags)) {
		bool only = (p->flags & KPROF_ADD_FAST) ||
			    !IS_ENABLED(CONFIG_KRETPROBES);
		const char *why = NULL;

		ret = kprof_kret_fast_attach(x, armed, &why);
		if (!ret)
			return 0;
		if (why && only)
			pr_info("probe %u (%s): %s %s%s\n", p->id, p->spec,
				x->k.sym, why,
				IS_ENABLED(CONFIG_KRETPROBES) ?
				": --kretprobe can probe it" :
				", and this kernel has no kprobes");
		/* a kretprobe where it cannot hook; the rest as a kretprobe's */
		if (!why || only)
			return kprof_kp_registered(&x->k, ret);
	}
#else
	if (p->flags & KPROF_ADD_FAST)
		return -EOPNOTSUPP;
#endif

	/*
	 * Separate handlers: a probe without PMU events, keys or a filter
	 * pays nothing for them.
	 */
	static const struct {
		kretprobe_handler_t entry, ret;
	} h[2][2] = {
		{ { kprof_kret_entry, kprof_kret_return },
		  { kprof_kret_entry_kf, kprof_kret_return_kf } },
		{ { kprof_kret_entry_pmu, kprof_kret_return_pmu },
		  { kprof_kret_entry_pmu_kf, kprof_kret_return_pmu_kf } },
	};

	memset(&x->rp, 0, sizeof(x->rp));
	x->rp.kp.symbol_name = x->k.sym;
	/* keys alone (no entry terms, no argument kept): the plain entry */
	x->rp.entry_handler = h[!!p->pmu][p->f_entry.nr || p->key_argmask].entry;
	x->rp.handler = h[!!p->pmu][p->kf].ret;
	/* data: the entry time, the arguments kept, the PMU values */
	x->snap_off = KPROF_KRET_ARGS_OFF + fls(p->key_argmask) * sizeof(u64);
	x->rp.data_size = x->snap_off;
	if (p->pmu)
		x->rp.data_size += struct_size((struct kprof_pmu_snap *)NULL, v,
					       p->pmu->nr);
	x->rp.maxactive = p->maxactive;
	if (!armed)
		x->rp.kp.flags = KPROBE_FLAG_DISABLED;
	ret = kprof_kp_registered(&x->k, register_kretprobe(&x->rp));
	return ret;
}

static void kprof_kret_detach(struct kprof_probe *p)
{
	struct kprof_kretprobe *x = kprof_kret(p);

#if KPROF_FAST
	if (x->fast) {
		kprof_kret_fast_detach(x);
		x->fast = false;
		x->k.reg = false;
		return;
	}
#endif
	if (x->k.reg)
		unregister_kretprobe(&x->rp);
	x->k.reg = false;
}

static int kprof_kret_arm(struct kprof_probe *p)
{
#if KPROF_FAST
	if (kprof_kret(p)->fast)
		return kprof_fentry_arm(&kprof_kret(p)->fe);
#endif
	return kprof_kp_arm(p);
}

static void kprof_kret_disarm(struct kprof_probe *p)
{
#if KPROF_FAST
	struct kprof_kretprobe *x = kprof_kret(p);

	if (x->fast) {
		/* calls in flight still return through fast.c, unrecorded */
		kprof_fentry_disarm(&x->fe);
		return;
	}
#endif
	kprof_kp_disarm(p);
}

static bool kprof_kret_in_module(struct kprof_probe *p, struct module *mod)
{
#if KPROF_FAST
	if (kprof_kret(p)->fast)
		return within_module(kprof_kret(p)->fe.addr, mod);
#endif
	return kprof_kp_in_module(p, mod);
}

/* the function's module goes: no call of it is in flight any more */
static void kprof_kret_going(struct kprof_probe *p)
{
	if (kprof_kret(p)->fast)
		kprof_kret_detach(p);
}

/*
 * MOD's init has returned and its __init text is about to be freed: a fast
 * probe's filter would keep the address for whatever is loaded there next,
 * and while its ftrace_ops is registered ftrace keeps the function's name
 * in /proc/kallsyms.  Unhooked, it keeps its counts, as a kretprobe the
 * kprobe core drops does.
 */
static bool kprof_kret_module_live(struct kprof_probe *p, struct module *mod)
{
#if KPROF_FAST
	struct kprof_kretprobe *x = kprof_kret(p);

	if (x->fast && kprof_fentry_init_done(&x->fe, mod)) {
		kprof_fast_forget(&x->fh);
		pr_info("probe %u (%s): %s was __init code of %s, freed now: no more calls\n",
			p->id, p->spec, x->k.sym, mod->name);
	}
#endif
	return false;
}

static u64 kprof_kret_nmissed(struct kprof_probe *p)
{
	struct kprof_kretprobe *x = kprof_kret(p);

#if KPROF_FAST
	if (x->fast)
		return kprof_fast_missed(&x->fh);
#endif
	return (u64)READ_ONCE(x->rp.nmissed) + READ_ONCE(x->rp.kp.nmissed);
}

static void kprof_kret_fill_info(struct kprof_probe *p,
				 struct kprof_probe_info *i)
{
	struct kprof_kretprobe *x = kprof_kret(p);

	if (x->fast) {
		i->mech = KPROF_MECH_FTRACE;
#if KPROF_FAST
		if (!x->limit)
			i->maxactive = kprof_fast_tasks();
#endif
	}
}

const struct kprof_backend kprof_kretprobe_backend = {
	.prefix		= "kretprobe",
	.mech		= KPROF_MECH_KPROBES,
	.size		= sizeof(struct kprof_kretprobe),
	.parse		= kprof_kret_parse,
	.attach		= kprof_kret_attach,
	.detach		= kprof_kret_detach,
	.arm		= kprof_kret_arm,
	.disarm		= kprof_kret_disarm,
	.nmissed	= kprof_kret_nmissed,
	.in_module	= kprof_kret_in_module,
	.module_event	= kprof_kp_module_event,
	.going		= kprof_kret_going,
	.module_live	= kprof_kret_module_live,
	.fill_info	= kprof_kret_fill_info,
};
