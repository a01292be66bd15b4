// SPDX-License-Identifier: GPL-2.0
/*
 * The kretprobe kind, "kretprobe:[MOD:]SYM": entry-to-return latency,
 * optionally with PMU counter deltas per call.  Built only when the kernel
 * has CONFIG_KRETPROBES.
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
#include "backends.h"

struct kprof_kretprobe {
	struct kprof_kp k;
	struct kretprobe rp;
	u32 snap_off;		/* instance data: the PMU values */
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
 * Context: kretprobe return handler, a probe with keys or a filter: the
 * return's terms, then the call in its key's row only (the pair layout).
 * Its own function, so that the others have none of its locals.
 */
static __always_inline void kprof_kret_end_kf(struct kprof_probe *p,
					      struct kretprobe_instance *ri,
					      struct pt_regs *regs,
					      unsigned int cpu, u64 now, u64 ns,
					      bool pmu)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct kprof_fvals v = {
		.task = current,
		.args = kprof_kret_args(ri),
		.ret_regs = regs,
		.latency = ns,
		.ri = ri,
	};
	u64 v1 = 0;
	u32 k;

	if (!kprof_filter_match(&p->f_exit, &v))
		return;
	if (pmu)
		kprof_pmu_call(p->pmu, cpu, kprof_kret_snap(rp, ri));
	if (p->key[0]) {
		k = kprof_kf_key(p, &v, &v1);
		kprof_stat_latency(kprof_key_stats(&p->keys, k, cpu), ns);
	} else {
		kprof_stat_latency(kprof_this_stats(p, cpu), ns);
	}
	kprof_slow(p, cpu, now, ns, current, p->key[0], v1,
		   get_kretprobe_retaddr(ri));
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
		unsigned int cpu = smp_processor_id();
		/* the fast clock may step back a little across CPUs */
		u64 ns = now > start ? now - start : 0;

		if (kf) {
			kprof_kret_end_kf(p, ri, regs, cpu, now, ns, pmu);
			return 0;
		}
		if (pmu)
			kprof_pmu_call(p->pmu, cpu, kprof_kret_snap(rp, ri));
		kprof_stat_latency(kprof_this_stats(p, cpu), ns);
		kprof_slow(p, cpu, now, ns, current, false, 0,
			   get_kretprobe_retaddr(ri));
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

	if (x->k.reg)
		unregister_kretprobe(&x->rp);
	x->k.reg = false;
}

static u64 kprof_kret_nmissed(struct kprof_probe *p)
{
	struct kprof_kretprobe *x = kprof_kret(p);

	return (u64)READ_ONCE(x->rp.nmissed) + READ_ONCE(x->rp.kp.nmissed);
}

const struct kprof_backend kprof_kretprobe_backend = {
	.prefix		= "kretprobe",
	.mech		= KPROF_MECH_KPROBES,
	.size		= sizeof(struct kprof_kretprobe),
	.parse		= kprof_kret_parse,
	.attach		= kprof_kret_attach,
	.detach		= kprof_kret_detach,
	.arm		= kprof_kp_arm,
	.disarm		= kprof_kp_disarm,
	.nmissed	= kprof_kret_nmissed,
	.in_module	= kprof_kp_in_module,
	.module_event	= kprof_kp_module_event,
};
