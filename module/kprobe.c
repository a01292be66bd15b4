// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe kind, "kprobe:[MOD:]SYM[+OFF]": counts hits.  Two
 * mechanisms: a kprobe, or on a kernel without the kprobe core the
 * function's ftrace call site (no offset, no notrace function).
 */
#include <linux/kernel.h>

#include "kprobes.h"
#include "filter.h"
#include "fentry.h"
#include "backends.h"

struct kprof_kprobe {
	struct kprof_kp k;
	struct kprobe kp;
#if KPROF_FAST
	struct kprof_fentry fe;		/* without the kprobe core */
#endif
};

/* the kprobe core, or ftrace alone (a kernel without kprobes) */
static bool kprof_kprobe_ftrace(void)
{
	return KPROF_FAST && !IS_ENABLED(CONFIG_KPROBES);
}

static struct kprof_kprobe *kprof_kprobe(struct kprof_probe *p)
{
	return container_of(kprof_kp(p), struct kprof_kprobe, k);
}

/* Context: kprobe pre-handler, any context, preemption disabled. */
static int kprof_kprobe_hit(struct kprobe *kp, struct pt_regs *regs)
{
	struct kprof_probe *p = &container_of(kp, struct kprof_kprobe, kp)->k.p;
	unsigned int cpu = smp_processor_id();

	if (kprof_want(p, cpu))
		kprof_stat_count(kprof_this_stats(p, cpu));
	return 0;
}
NOKPROBE_SYMBOL(kprof_kprobe_hit);

/*
 * Context: as kprof_kprobe_hit(), a call kprof_kprobe_hit_kf()'s filter
 * kept.  Its own function: the frame and locals are paid by recorded
 * calls only.
 */
static noinline int kprof_kprobe_rec_kf(struct kprof_probe *p,
					struct kprobe *kp, struct pt_regs *regs)
{
	unsigned int cpu = smp_processor_id();
	struct kprof_fvals v = {
		.task = current, .regs = regs, .fn = (unsigned long)kp->addr,
	};
	u64 v1;

	if (!kprof_want(p, cpu) ||
	    (p->f_entry.nr_fast != p->f_entry.nr &&
	     !kprof_filter_match(&p->f_entry, &v)))
		return 0;
	/* a keyed call counts in its key's row only (the pair layout) */
	if (p->key[0])
		kprof_stat_count(kprof_key_stats(&p->keys,
						 kprof_kf_key(p, &v, &v1), cpu));
	else
		kprof_stat_count(kprof_this_stats(p, cpu));
	return 0;
}
NOKPROBE_SYMBOL(kprof_kprobe_rec_kf);

/*
 * Context: as kprof_kprobe_hit(), for a probe with keys or a filter.  The
 * task and argument terms first, with nothing else at hand, so that a
 * call they drop costs the fewest instructions; the others in
 * kprof_kprobe_rec_kf().
 */
static int kprof_kprobe_hit_kf(struct kprobe *kp, struct pt_regs *regs)
{
	struct kprof_probe *p = &container_of(kp, struct kprof_kprobe, kp)->k.p;

	if (!READ_ONCE(p->armed) ||
	    !kprof_filter_match_fast(&p->f_entry, current, regs))
		return 0;
	return kprof_kprobe_rec_kf(p, kp, regs);
}
NOKPROBE_SYMBOL(kprof_kprobe_hit_kf);

#if KPROF_FAST
/*
 * Context: ftrace callback at the function's entry, any context, maybe
 * preemptible: kprof_kprobe_hit()'s twin.
 */
static void notrace kprof_kprobe_fhit(unsigned long ip, unsigned long pip,
				      struct ftrace_ops *op,
				      struct ftrace_regs *fregs)
{
	struct kprof_probe *p = &container_of(op, struct kprof_kprobe,
					      fe.ops)->k.p;
	unsigned int cpu;

	preempt_disable_notrace();
	cpu = raw_smp_processor_id();
	if (kprof_want(p, cpu))
		kprof_stat_count(kprof_this_stats(p, cpu));
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kprof_kprobe_fhit);

/*
 * Context: as kprof_kprobe_fhit(), for a probe with keys or a filter:
 * kprof_kprobe_rec_kf()'s twin, the arguments from ftrace's registers and
 * the caller from the saved return address.
 */
static void notrace kprof_kprobe_fhit_kf(unsigned long ip, unsigned long pip,
					 struct ftrace_ops *op,
					 struct ftrace_regs *fregs)
{
	struct kprof_kprobe *x = container_of(op, struct kprof_kprobe, fe.ops);
	u64 args[KPROF_FAST_ARGS] __uninitialized;
	struct kprof_probe *p = &x->k.p;
	struct kprof_fvals v = {
		.task = current, .args = args, .fn = x->fe.addr,
		.caller = *kprof_fast_retp(fregs),
	};
	unsigned int cpu, n;
	u64 v1;

	preempt_disable_notrace();
	cpu = raw_smp_processor_id();
	if (!kprof_want(p, cpu))
		goto out;
	for (n = 0; n < KPROF_FAST_ARGS; n++)
		args[n] = kprof_fast_arg(fregs, n);
	if (!kprof_filter_match(&p->f_entry, &v))
		goto out;
	if (p->key[0])
		kprof_stat_count(kprof_key_stats(&p->keys,
						 kprof_kf_key(p, &v, &v1), cpu));
	else
		kprof_stat_count(kprof_this_stats(p, cpu));
out:
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kprof_kprobe_fhit_kf);

static int kprof_kprobe_fattach(struct kprof_kprobe *x, bool armed)
{
	struct kprof_probe *p = &x->k.p;
	const char *why = NULL;
	int ret;

	/* ftrace hooks a function's entry only: an offset needs kprobes */
	if (x->k.offset)
		return -EOPNOTSUPP;
	ret = kprof_kp_lookup(x->k.sym, &x->fe.addr);
	if (!ret)
		ret = kprof_fentry_attach(&x->fe, p->kf ? kprof_kprobe_fhit_kf :
					  kprof_kprobe_fhit, armed, &why);
	if (why)
		pr_info("probe %u (%s): %s %s, and this kernel has no kprobes\n",
			p->id, p->spec, x->k.sym, why);
	return kprof_kp_registered(&x->k, ret);
}
#endif

static int kprof_kprobe_parse(struct kprof_probe *p, const char *arg,
			      struct kprof_probe_add *a)
{
	struct kprof_kprobe *x = kprof_kprobe(p);
	const char *plus = strrchr(arg, '+');
	size_t len = plus ? (size_t)(plus - arg) : strlen(arg);
	unsigned int i;

	x->k.kp = &x->kp;
	x->k.offset = 0;
	/* decimal unless "0x" is written, as the CLI reads it: +010 is 10 */
	if (plus && kstrtouint(plus + 1, strncasecmp(plus + 1, "0x", 2) ? 10 :
			       16, &x->k.offset))
		return -EINVAL;
	/* past the entry the return address may have moved */
	for (i = 0; x->k.offset && i < KPROF_MAX_KEYS; i++)
		if (KPROF_KEYSPEC_KIND(a->key[i]) == KPROF_KEY_CALLER ||
		    KPROF_KEYSPEC_KIND(a->key[i]) == KPROF_KEY_STACK)
			return -EINVAL;
	return kprof_kp_parse_sym(&x->k, arg, len);
}

static int kprof_kprobe_attach(struct kprof_probe *p, bool armed)
{
	struct kprof_kprobe *x = kprof_kprobe(p);

#if KPROF_FAST
	if (kprof_kprobe_ftrace())
		return kprof_kprobe_fattach(x, armed);
#endif
	memset(&x->kp, 0, sizeof(x->kp));
	x->kp.symbol_name = x->k.sym;
	x->kp.offset = x->k.offset;
	x->kp.pre_handler = p->kf ? kprof_kprobe_hit_kf : kprof_kprobe_hit;
	if (!armed)
		x->kp.flags = KPROBE_FLAG_DISABLED;
	return kprof_kp_registered(&x->k, register_kprobe(&x->kp));
}

static void kprof_kprobe_detach(struct kprof_probe *p)
{
	struct kprof_kprobe *x = kprof_kprobe(p);

#if KPROF_FAST
	if (kprof_kprobe_ftrace()) {
		kprof_fentry_detach(&x->fe);
		x->k.reg = false;
		return;
	}
#endif
	if (x->k.reg)
		unregister_kprobe(&x->kp);
	x->k.reg = false;
}

static int kprof_kprobe_arm(struct kprof_probe *p)
{
#if KPROF_FAST
	if (kprof_kprobe_ftrace())
		return kprof_fentry_arm(&kprof_kprobe(p)->fe);
#endif
	return kprof_kp_arm(p);
}

static void kprof_kprobe_disarm(struct kprof_probe *p)
{
#if KPROF_FAST
	if (kprof_kprobe_ftrace()) {
		kprof_fentry_disarm(&kprof_kprobe(p)->fe);
		return;
	}
#endif
	kprof_kp_disarm(p);
}

static bool kprof_kprobe_in_module(struct kprof_probe *p, struct module *mod)
{
#if KPROF_FAST
	if (kprof_kprobe_ftrace())
		return kprof_kprobe(p)->k.reg &&
		       within_module(kprof_kprobe(p)->fe.addr, mod);
#endif
	return kprof_kp_in_module(p, mod);
}

/* the function's module goes: its ftrace hook goes with it */
static void kprof_kprobe_going(struct kprof_probe *p)
{
	if (kprof_kprobe_ftrace())
		kprof_kprobe_detach(p);
}

/* as kretprobe.c's: an __init function's hook goes when init is over */
static bool kprof_kprobe_module_live(struct kprof_probe *p,
				     struct module *mod)
{
#if KPROF_FAST
	if (kprof_kprobe_ftrace() &&
	    kprof_fentry_init_done(&kprof_kprobe(p)->fe, mod))
		pr_info("probe %u (%s): %s was __init code of %s, freed now: no more calls\n",
			p->id, p->spec, kprof_kprobe(p)->k.sym, mod->name);
#endif
	return false;
}

static u64 kprof_kprobe_nmissed(struct kprof_probe *p)
{
	/* ftrace's hook misses nothing it would count */
	if (kprof_kprobe_ftrace())
		return 0;
	return READ_ONCE(kprof_kprobe(p)->kp.nmissed);
}

static void kprof_kprobe_fill_info(struct kprof_probe *p,
				   struct kprof_probe_info *i)
{
	if (kprof_kprobe_ftrace() && kprof_kprobe(p)->k.reg)
		i->mech = KPROF_MECH_FTRACE;
}

const struct kprof_backend kprof_kprobe_backend = {
	.prefix		= "kprobe",
	.mech		= KPROF_MECH_KPROBES,
	.size		= sizeof(struct kprof_kprobe),
	.parse		= kprof_kprobe_parse,
	.attach		= kprof_kprobe_attach,
	.detach		= kprof_kprobe_detach,
	.arm		= kprof_kprobe_arm,
	.disarm		= kprof_kprobe_disarm,
	.nmissed	= kprof_kprobe_nmissed,
	.in_module	= kprof_kprobe_in_module,
	.module_event	= kprof_kp_module_event,
	.going		= kprof_kprobe_going,
	.module_live	= kprof_kprobe_module_live,
	.fill_info	= kprof_kprobe_fill_info,
};
