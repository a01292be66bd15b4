// SPDX-License-Identifier: GPL-2.0
/*
 * kprobe (hit counts) and kretprobe (entry-to-return latency) backends.
 * Built only when the kernel has CONFIG_KPROBES.
 */
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/timekeeping.h>

#include "kprof.h"

/*
 * Both backends take the probe address from kallsyms through the kprobe
 * core.  The core answers -ENOENT for an unknown symbol and -EINVAL,
 * -EILSEQ or -EBUSY for an address it will not patch; the ABI reports the
 * latter as -EADDRNOTAVAIL so that "not probeable" is told apart from a
 * malformed request.
 */
static int kprof_reg_errno(int err)
{
	switch (err) {
	case -EINVAL:
	case -EILSEQ:
	case -EBUSY:
		return -EADDRNOTAVAIL;
	default:
		return err;
	}
}

/* "SYM" or "MOD:SYM", as kallsyms_lookup_name() takes it */
static int kprof_parse_sym(struct kprof_probe *p, const char *s, size_t len)
{
	size_t i;

	if (!len || len >= sizeof(p->sym))
		return -EINVAL;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!isalnum(c) && c != '_' && c != '.' && c != ':' &&
		    c != '$')
			return -EINVAL;
	}
	if (s[0] == ':' || s[len - 1] == ':')
		return -EINVAL;
	memcpy(p->sym, s, len);
	p->sym[len] = '\0';
	return 0;
}

/*
 * A kretprobe begins with its struct kprobe, so in the probe's union
 * p->kp is the kprobe of either backend: arming, disarming and the
 * module check are shared.
 */
static int kprof_kp_arm(struct kprof_probe *p)
{
	return enable_kprobe(&p->kp);
}

static void kprof_kp_disarm(struct kprof_probe *p)
{
	disable_kprobe(&p->kp);
}

static bool kprof_kp_in_module(struct kprof_probe *p, struct module *mod)
{
	return p->kp_reg && within_module((unsigned long)p->kp.addr, mod);
}

/*
 * KPROF_ADD_DEFER on "MOD:SYM": a symbol not found at ADD (its module is
 * not loaded) leaves the probe PENDING; it is registered from the module's
 * COMING notification, before the module's init runs, so a driver's probe
 * and init are caught.  After the module unloads (GONE) it registers again
 * on the next load.
 */
static bool kprof_kp_defers(struct kprof_probe *p, int err)
{
	return err == -ENOENT && (p->flags & KPROF_ADD_DEFER) &&
	       (p->state == KPROF_STATE_RUNNING ||
		p->state == KPROF_STATE_STOPPED);
}

static int kprof_kp_registered(struct kprof_probe *p, int err)
{
	if (!err) {
		p->kp_reg = true;
		return 0;
	}
	if (kprof_kp_defers(p, err)) {
		p->state = KPROF_STATE_PENDING;
		return 0;
	}
	return kprof_reg_errno(err);
}

/* Context: process, under kprof.lock; called by kprof_module_event(). */
static bool kprof_kp_module_event(struct kprof_probe *p, struct module *mod,
				  bool coming)
{
	size_t len = strchrnul(p->sym, ':') - p->sym;
	int ret;

	if (!coming || !(p->flags & KPROF_ADD_DEFER) || !p->sym[len] ||
	    (p->state != KPROF_STATE_PENDING &&
	     p->state != KPROF_STATE_GONE) ||
	    strlen(mod->name) != len || strncmp(p->sym, mod->name, len))
		return false;
	/* a registration the kprobe core marked gone goes first */
	p->be->detach(p);
	ret = p->be->attach(p, false);
	if (ret) {
		p->reg_errno = -ret;
		p->state = KPROF_STATE_PENDING;
		pr_info("probe %u (%s): module %s loaded, but the probe cannot be registered: %pe\n",
			p->id, p->spec, mod->name, ERR_PTR(ret));
		return true;
	}
	p->reg_errno = 0;
	p->state = KPROF_STATE_STOPPED;	/* the core starts it if wanted */
	pr_info("probe %u (%s): module %s loaded, attached\n", p->id, p->spec,
		mod->name);
	return true;
}

static u64 kprof_kp_nmissed(struct kprof_probe *p)
{
	return READ_ONCE(p->kp.nmissed);
}

/* Context: kprobe pre-handler, any context, preemption disabled. */
static int kprof_kprobe_hit(struct kprobe *kp, struct pt_regs *regs)
{
	struct kprof_probe *p = container_of(kp, struct kprof_probe, kp);
	unsigned int cpu = smp_processor_id();

	if (kprof_want(p, cpu))
		kprof_stat_count(kprof_this_stats(p, cpu));
	return 0;
}
NOKPROBE_SYMBOL(kprof_kprobe_hit);

static int kprof_kprobe_parse(struct kprof_probe *p, const char *arg)
{
	const char *plus = strrchr(arg, '+');
	size_t len = plus ? (size_t)(plus - arg) : strlen(arg);

	p->offset = 0;
	/* decimal unless "0x" is written, as the CLI reads it: +010 is 10 */
	if (plus && kstrtouint(plus + 1, strncasecmp(plus + 1, "0x", 2) ? 10 :
			       16, &p->offset))
		return -EINVAL;
	return kprof_parse_sym(p, arg, len);
}

static int kprof_kprobe_attach(struct kprof_probe *p, bool armed)
{
	memset(&p->kp, 0, sizeof(p->kp));
	p->kp.symbol_name = p->sym;
	p->kp.offset = p->offset;
	p->kp.pre_handler = kprof_kprobe_hit;
	if (!armed)
		p->kp.flags = KPROBE_FLAG_DISABLED;
	return kprof_kp_registered(p, register_kprobe(&p->kp));
}

static void kprof_kprobe_detach(struct kprof_probe *p)
{
	if (p->kp_reg)
		unregister_kprobe(&p->kp);
	p->kp_reg = false;
}

const struct kprof_backend kprof_kprobe_backend = {
	.type		= KPROF_TYPE_KPROBE,
	.prefix		= "kprobe",
	.parse		= kprof_kprobe_parse,
	.attach		= kprof_kprobe_attach,
	.detach		= kprof_kprobe_detach,
	.arm		= kprof_kp_arm,
	.disarm		= kprof_kp_disarm,
	.nmissed	= kprof_kp_nmissed,
	.in_module	= kprof_kp_in_module,
	.module_event	= kprof_kp_module_event,
};

#ifdef CONFIG_KRETPROBES

/* the instance data after the timestamp: PMU values read on entry */
static __always_inline struct kprof_pmu_snap *
kprof_kret_snap(struct kretprobe_instance *ri)
{
	return (struct kprof_pmu_snap *)(ri->data + sizeof(u64));
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
					    bool pmu)
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
	p = container_of(rp, struct kprof_probe, rp);
	if (!kprof_want(p, cpu))
		return 1;
	*(u64 *)ri->data = ktime_get_mono_fast_ns();
	if (pmu) {
		struct kprof_pmu_snap *snap = kprof_kret_snap(ri);

		snap->cpu = cpu;
		snap->nsw = kprof_switches();
		snap->ok = kprof_pmu_read_all(p->pmu, cpu, snap->v);
	}
	return 0;
}

/*
 * Context: kretprobe return handler, any context, preemption disabled.
 * The call is accounted on the CPU it returns on.  A call that returns
 * after STOP is outside the capture window and is not recorded.
 */
static __always_inline int kprof_kret_end(struct kretprobe_instance *ri,
					  bool pmu)
{
	struct kretprobe *rp = get_kretprobe(ri);
	u64 now = ktime_get_mono_fast_ns();
	u64 start = *(u64 *)ri->data;
	struct kprof_probe *p;

	/* see kprof_kret_begin(): the probe is being unregistered */
	if (unlikely(!rp))
		return 0;
	p = container_of(rp, struct kprof_probe, rp);
	if (READ_ONCE(p->armed)) {
		unsigned int cpu = smp_processor_id();
		/* the fast clock may step back a little across CPUs */
		u64 ns = now > start ? now - start : 0;

		if (pmu)
			kprof_pmu_call(p->pmu, cpu, kprof_kret_snap(ri));
		kprof_stat_latency(kprof_this_stats(p, cpu), ns);
		kprof_slow(p, cpu, now, ns, current, false, 0,
			   get_kretprobe_retaddr(ri));
	}
	return 0;
}

static int kprof_kret_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	return kprof_kret_begin(ri, false);
}
NOKPROBE_SYMBOL(kprof_kret_entry);

static int kprof_kret_return(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	return kprof_kret_end(ri, false);
}
NOKPROBE_SYMBOL(kprof_kret_return);

static int kprof_kret_entry_pmu(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	return kprof_kret_begin(ri, true);
}
NOKPROBE_SYMBOL(kprof_kret_entry_pmu);

static int kprof_kret_return_pmu(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	return kprof_kret_end(ri, true);
}
NOKPROBE_SYMBOL(kprof_kret_return_pmu);

static int kprof_kret_parse(struct kprof_probe *p, const char *arg)
{
	p->offset = 0;
	return kprof_parse_sym(p, arg, strlen(arg));
}

static int kprof_kret_attach(struct kprof_probe *p, bool armed)
{
	memset(&p->rp, 0, sizeof(p->rp));
	p->rp.kp.symbol_name = p->sym;
	/* separate handlers: a probe without PMU events pays nothing for them */
	p->rp.entry_handler = p->pmu ? kprof_kret_entry_pmu : kprof_kret_entry;
	p->rp.handler = p->pmu ? kprof_kret_return_pmu : kprof_kret_return;
	p->rp.data_size = sizeof(u64);
	if (p->pmu)
		p->rp.data_size += struct_size((struct kprof_pmu_snap *)NULL, v,
					       p->pmu->nr);
	p->rp.maxactive = p->maxactive;
	if (!armed)
		p->rp.kp.flags = KPROBE_FLAG_DISABLED;
	return kprof_kp_registered(p, register_kretprobe(&p->rp));
}

static void kprof_kret_detach(struct kprof_probe *p)
{
	if (p->kp_reg)
		unregister_kretprobe(&p->rp);
	p->kp_reg = false;
}

static u64 kprof_kret_nmissed(struct kprof_probe *p)
{
	BUILD_BUG_ON(offsetof(struct kprof_probe, rp.kp) !=
		     offsetof(struct kprof_probe, kp));
	return (u64)READ_ONCE(p->rp.nmissed) + kprof_kp_nmissed(p);
}

const struct kprof_backend kprof_kretprobe_backend = {
	.type		= KPROF_TYPE_KRETPROBE,
	.prefix		= "kretprobe",
	.parse		= kprof_kret_parse,
	.attach		= kprof_kret_attach,
	.detach		= kprof_kret_detach,
	.arm		= kprof_kp_arm,
	.disarm		= kprof_kp_disarm,
	.nmissed	= kprof_kret_nmissed,
	.in_module	= kprof_kp_in_module,
	.module_event	= kprof_kp_module_event,
};

#endif /* CONFIG_KRETPROBES */
