// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe kind, "kprobe:[MOD:]SYM[+OFF]": counts hits.
 */
#include <linux/kernel.h>

#include "kprobes.h"
#include "filter.h"
#include "backends.h"

struct kprof_kprobe {
	struct kprof_kp k;
	struct kprobe kp;
};

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

	if (x->k.reg)
		unregister_kprobe(&x->kp);
	x->k.reg = false;
}

static u64 kprof_kprobe_nmissed(struct kprof_probe *p)
{
	return READ_ONCE(kprof_kprobe(p)->kp.nmissed);
}

const struct kprof_backend kprof_kprobe_backend = {
	.prefix		= "kprobe",
	.mech		= KPROF_MECH_KPROBES,
	.size		= sizeof(struct kprof_kprobe),
	.parse		= kprof_kprobe_parse,
	.attach		= kprof_kprobe_attach,
	.detach		= kprof_kprobe_detach,
	.arm		= kprof_kp_arm,
	.disarm		= kprof_kp_disarm,
	.nmissed	= kprof_kprobe_nmissed,
	.in_module	= kprof_kp_in_module,
	.module_event	= kprof_kp_module_event,
};
